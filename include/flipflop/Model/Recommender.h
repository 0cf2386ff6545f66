//===- flipflop/Model/Recommender.h - Configuration space, Pareto, picks ---===//
#ifndef FLIPFLOP_MODEL_RECOMMENDER_H
#define FLIPFLOP_MODEL_RECOMMENDER_H

#include "flipflop/Model/Model.h"
#include <optional>
#include <string>
#include <vector>

namespace flipflop {

enum class Objective : unsigned { Energy, Time, EDP, EnergyWithinBudget };
const char *objectiveName(Objective O);
/// Parses "energy", "time", "edp", "energy-within:5" / "energy<=5%".
bool parseObjective(const std::string &S, Objective &O, double &BudgetPct);

struct SweepOptions {
  ModelOptions Model;
  uint64_t TotalThreads = 0;        ///< 0: Model.DefaultTotalThreads.
  std::array<unsigned, 3> Grid{0, 0, 0}; ///< Known grid (launch facts).
  double PowerMinW = 0, PowerMaxW = 0; ///< 0: the GPU's range.
  unsigned PowerSteps = 8;          ///< Power limits considered.
  double SlowdownBudgetPct = 5;     ///< For EnergyWithinBudget.
  bool SweepPower = true;
  bool SweepMinBlocks = true;
  /// The objective whose pick SweepResult::Explanation explains (the pick
  /// FF001 names).
  Objective Obj = Objective::EnergyWithinBudget;
  /// Plausibility (docs/MODEL.md "Plausibility"): a prediction longer than
  /// MaxTimeS (or not finite) is invalid and never picked; a pick longer
  /// than WarnTimeS stands but carries a warning.
  double WarnTimeS = 3600, MaxTimeS = 86400;
};

/// Named picks: indices into SweepResult::Configs.
struct Picks {
  size_t Fastest = 0, LeastEnergy = 0, EnergyWithinBudget = 0, BestEDP = 0,
         OccupancyHeuristic = 0;
};

struct SweepResult {
  std::vector<Prediction> Configs;
  std::vector<size_t> Pareto;       ///< Sorted by time.
  Picks Pick;
  double SearchSpaceReduction = 0;  ///< 1 - |Pareto| / |space|.
  /// True when the block shape was held at the author's (fixed by a tile,
  /// reqntid, or unknown); ShapeReason says why.
  bool ShapeHeld = false;
  std::string ShapeReason;
  /// One explanation per pick, in the model's own terms.
  std::string ExplainFastest, ExplainLeastEnergy, ExplainBudget, ExplainEDP,
      ExplainHeuristic;
  /// The whole-kernel explanation, ending with the pick of
  /// SweepOptions::Obj.
  std::string Explanation;
  /// Non-empty when the profile's counts or every prediction are outside
  /// physical bounds: the figures are unknown, no configuration is picked
  /// (Configs is empty, or none is valid) and this says why.
  std::string Implausible;
  /// Plausibility warnings about the picks (e.g. longer than an hour); the
  /// recommendation stands.
  std::vector<std::string> Warnings;
  size_t pick(Objective O) const;
  /// Predicted energy saving of Configs[I] against the occupancy heuristic
  /// in percent (positive: less energy), and its speedup (heuristic time /
  /// this time).
  double energySavingPct(size_t I) const;
  double speedup(size_t I) const;
  /// Register caps and power limits the sweep enumerated (for reports).
  std::vector<double> PowerLimits;
  size_t NumShapes = 0;
};

/// Enumerates the configuration space of \p K on \p GPU and chooses.
SweepResult sweep(const KernelProfile &K, const GPUSpec &GPU,
                  const SweepOptions &Opts = {});

/// Indices of the (time, energy) Pareto-optimal points, sorted by time.
std::vector<size_t> paretoFront(const std::vector<Prediction> &Ps);

/// The explanation sentence(s) of Configs[I] of \p R, in the model's terms.
std::string explainConfig(const SweepResult &R, size_t I,
                          const KernelProfile &K, const GPUSpec &GPU);

} // namespace flipflop

#endif
