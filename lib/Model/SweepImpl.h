//===- SweepImpl.h - Steps of the sweep shared by its files -----*- C++ -*-===//
//
// The block shapes a kernel allows (Shapes.cpp) and the picks over the
// predicted configurations (Picks.cpp), which sweep() (Recommender.cpp)
// puts together. Not installed: lib/Model only.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_LIB_MODEL_SWEEPIMPL_H
#define FLIPFLOP_LIB_MODEL_SWEEPIMPL_H

#include "flipflop/Model/Recommender.h"
#include <array>
#include <vector>

namespace flipflop {
namespace sweepimpl {

/// The block shapes to try, and what decided them.
struct ShapeChoice {
  std::vector<std::array<unsigned, 3>> Shapes; ///< Never empty.
  ShapeSource Source = ShapeSource::Free;
  bool Held = false; ///< One shape, held at the author's.
};
/// reqntid, then checks of blockDim in the code, then a shared tile hold or
/// narrow the shapes; otherwise every shape the GPU allows (docs/MODEL.md
/// section 4).
ShapeChoice chooseShapes(const KernelProfile &K, const GPUSpec &G);

/// The model's strict optima over the valid configurations (-1: none is
/// valid); ties go to the other figure, then to the lower index.
struct StrictPicks {
  long Fast = -1, Least = -1, EDP = -1;
  size_t NValid = 0;
};
StrictPicks strictPicks(const std::vector<Prediction> &Cs);
/// The least energy among the valid configurations no slower than
/// \p BudgetS, from \p Fast (the fastest) on.
long budgetPick(const std::vector<Prediction> &Cs, long Fast, double BudgetS);
/// R.Advice and R.Tie*: each of R.Pick against the less intrusive
/// configurations, within the comparison bands (docs/MODEL.md "Levers,
/// bands and ties"); \p BudgetS bounds the energy-within-budget pick.
void resolveTies(SweepResult &R, double BudgetS);

} // namespace sweepimpl
} // namespace flipflop

#endif
