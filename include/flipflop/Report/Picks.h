//===- flipflop/Report/Picks.h - The five picks, in schema order -*- C++ -*-===//
//
// The picks a sweep names, in the order of ReportPickNames ("fastest",
// "least_energy", "energy_within_budget", "best_edp", "occupancy_heuristic"),
// so that a table over them is written once.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_REPORT_PICKS_H
#define FLIPFLOP_REPORT_PICKS_H

#include "flipflop/Model/Recommender.h"
#include <array>
#include <cstddef>

namespace flipflop {

constexpr size_t NumReportPicks = 5;

/// Each pick's index in \p R.Configs after ties (SweepResult::pick), in the
/// order of ReportPickNames.
inline std::array<size_t, NumReportPicks>
reportPickIndices(const SweepResult &R) {
  return {R.pick(Objective::Time), R.pick(Objective::Energy),
          R.pick(Objective::EnergyWithinBudget), R.pick(Objective::EDP),
          R.Pick.OccupancyHeuristic};
}

} // namespace flipflop

#endif
