//===- flipflop/Report/Explain.h - A sweep's facts in words -----*- C++ -*-===//
//
// The wording of FlipFlop's explanations: the model (flipflop/Model/) returns
// facts (figures, the bottleneck, the limiter, the shape's source, the
// neighbours a configuration is compared with, the sweep's status), and
// these functions turn them into the sentences of remark FF002 and FF010,
// the JSON report's "explanation", "pick_explanations" and "shape_reason",
// and flipflop-ptx's text. Implemented in lib/Report/Explain.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_REPORT_EXPLAIN_H
#define FLIPFLOP_REPORT_EXPLAIN_H

#include "flipflop/Model/Recommender.h"
#include "flipflop/Profile/KernelProfile.h"
#include "flipflop/Target/GPUSpec.h"
#include <array>
#include <cstddef>
#include <string>

namespace flipflop {

/// The sentences explaining Configs[I] of \p R, a sweep of \p K: the
/// configuration and its lever, time, energy and power with their bands,
/// the saving against the occupancy heuristic, the bottleneck, the clock
/// the limit leaves, the largest share of energy, occupancy and its
/// limiter, what a block half or twice as large and the next lower power
/// limit would cost, and the profile's guesses. Empty when I is out of
/// range.
std::string explainConfig(const SweepResult &R, size_t I,
                          const KernelProfile &K);

/// explainConfig() of the recommended configuration for \p O, followed by
/// the tie that chose it, if any.
std::string explainPick(const SweepResult &R, Objective O,
                        const KernelProfile &K);

/// Why the block shape was held at the author's, or which checks in the
/// code narrowed the shapes (R.Shape, from \p K's ShapeInfo and
/// LaunchBounds); empty when the shapes were free.
std::string shapeReason(const SweepResult &R, const KernelProfile &K);

/// The texts of a sweep, as the reports and remarks print them.
struct SweepTexts {
  std::string ShapeReason;
  /// Per pick, in the order of ReportPickNames (fastest, least energy,
  /// energy within budget, best EDP: explainPick(); occupancy heuristic:
  /// explainConfig()); empty unless R.Status is SweepStatus::Swept.
  std::array<std::string, 5> Picks;
  /// The whole-kernel explanation: the space, the Pareto front and the
  /// shape, ending with the pick of R.Obj; or why nothing is recommended.
  std::string Explanation;
};
SweepTexts sweepTexts(const SweepResult &R, const KernelProfile &K);
/// sweepTexts(R, K).Explanation.
std::string explainSweep(const SweepResult &R, const KernelProfile &K);

/// One line saying why the power limit of \p P is not what was asked: a
/// request outside the GPU's settable range, or a limit the board cannot
/// meet even at its lowest clock. Empty when the limit applies as asked.
/// Front ends print it instead of clamping silently.
std::string powerLimitNote(const GPUSpec &GPU, const Prediction &P);

/// One sentence saying whether \p Lever can act on a kernel of \p TimeS
/// per launch: a power limit is enforced on power averaged over ~100 ms, a
/// locked clock costs ~ms to set and reset. Empty when it acts.
std::string leverTooShortNote(const std::string &Lever, double TimeS);

} // namespace flipflop

#endif
