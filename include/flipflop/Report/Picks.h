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
#include "flipflop/Report/JSONReport.h"
#include <array>
#include <cstddef>

namespace flipflop {

constexpr size_t NumReportPicks = 5;

/// The objective of each pick but the last (the occupancy heuristic, which
/// minimises none), in the order of ReportPickNames.
constexpr std::array<Objective, NumReportPicks - 1> ReportPickObjectives = {
    Objective::Time, Objective::Energy, Objective::EnergyWithinBudget,
    Objective::EDP};

/// Each pick in words, for text output, in the order of ReportPickNames.
constexpr std::array<const char *, NumReportPicks> ReportPickLabels = {
    "fastest", "least energy", "energy within budget", "best energy-delay",
    "occupancy heuristic"};

/// The position of objective \p O's pick in ReportPickNames.
inline size_t reportPickPosition(Objective O) {
  size_t I = 0;
  while (I + 1 < ReportPickObjectives.size() && ReportPickObjectives[I] != O)
    ++I;
  return I;
}

/// The schema's name of objective \p O's pick ("least_energy", ...).
inline const char *reportPickName(Objective O) {
  return ReportPickNames[reportPickPosition(O)];
}

/// Each pick's index in \p R.Configs after ties (SweepResult::pick), in the
/// order of ReportPickNames.
inline std::array<size_t, NumReportPicks>
reportPickIndices(const SweepResult &R) {
  std::array<size_t, NumReportPicks> Idx;
  for (size_t I = 0; I < ReportPickObjectives.size(); ++I)
    Idx[I] = R.pick(ReportPickObjectives[I]);
  Idx[NumReportPicks - 1] = R.Pick.OccupancyHeuristic;
  return Idx;
}

/// The model's strict optima (R.Pick, before ties), in the same order.
inline std::array<size_t, NumReportPicks>
reportModelPickIndices(const SweepResult &R) {
  const Picks &P = R.Pick;
  return {P.Fastest, P.LeastEnergy, P.EnergyWithinBudget, P.BestEDP,
          P.OccupancyHeuristic};
}

} // namespace flipflop

#endif
