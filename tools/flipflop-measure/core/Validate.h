//===- Validate.h - Predictions against measurements ----------------------===//
//
// The FlipFlop paper's metrics, computed on the configurations that were both
// predicted and measured (docs/MEASUREMENT.md, "Validation metrics"):
//  - Kendall tau-b of predicted against measured time and energy;
//  - the regret of FlipFlop's picks: measured energy (time) of the predicted
//    least-energy (fastest) configuration over the measured best;
//  - whether the energy pick is a measured local optimum: no neighbour (one
//    step along one axis: block shape, min blocks per SM, power limit) has
//    measured energy lower by more than the tolerance;
//  - search-space reduction, 1 - |predicted Pareto front| / |predicted space|;
//  - energy and time of the pick against NVIDIA's occupancy heuristic.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_VALIDATE_H
#define FLIPFLOP_MEASURE_VALIDATE_H

#include "Report.h"
#include <string>
#include <vector>

namespace flipflop {
namespace measure {

struct ValidateOptions {
  /// Relative tolerance for "as good as" (measurement noise).
  double Tolerance = 0.02;
  /// Power limits match when within this many watts (or 1%).
  double PowerMatchW = 1.0;
};

/// One predicted-and-measured configuration.
struct MatchedConfig {
  ConfigRecord Predicted, Measured;
};

struct KernelValidation {
  std::string Name;
  size_t PredictedCount = 0, MeasuredCount = 0;
  std::vector<MatchedConfig> Matched;
  double TauTime = 0, TauEnergy = 0;    ///< NaN when undefined.
  size_t PickEnergy = 0, PickTime = 0;  ///< Indices into Matched.
  size_t BestEnergy = 0, BestTime = 0;  ///< Measured bests.
  double EnergyRegret = 1, TimeRegret = 1; ///< >= 1; 1 is perfect.
  bool LocalOptimum = false;   ///< The energy pick is a measured local optimum.
  bool GlobalOptimum = false;  ///< ... and within tolerance of the best.
  bool BestOnPredictedPareto = false;
  size_t Neighbours = 0;       ///< Neighbours the local test compared with.
  double SearchSpaceReduction = 0;
  bool HasHeuristic = false;
  size_t Heuristic = 0;        ///< Index into Matched.
  double EnergyVsHeuristic = 1; ///< Pick energy / heuristic energy.
  double SpeedupVsHeuristic = 1; ///< Heuristic time / pick time.
  std::string Note;            ///< Why a kernel was skipped, if it was.
  bool Skipped = false;
};

struct ValidationSummary {
  std::string GPUName;
  std::vector<KernelValidation> Kernels;
  size_t Validated = 0;
  double MedianTauTime = 0, MedianTauEnergy = 0;
  double GeoMeanEnergyRegret = 1, GeoMeanTimeRegret = 1;
  double LocalOptimumShare = 0, GlobalOptimumShare = 0, ParetoShare = 0;
  double MeanSearchSpaceReduction = 0;
  size_t WithHeuristic = 0;
  double GeoMeanEnergyVsHeuristic = 1, GeoMeanSpeedupVsHeuristic = 1;
};

/// Indices of the (time, energy) Pareto-optimal points, sorted by time
/// (ties: a point is dominated only by one at least as good in both and
/// strictly better in one).
std::vector<size_t> paretoIndices(const std::vector<double> &Time,
                                  const std::vector<double> &Energy);

/// Indices of the neighbours of \p I among \p Configs: configurations equal
/// to it in all axes but one, and adjacent along that axis (block shapes
/// ordered by thread count then x, y, z; min blocks; power limits rounded to
/// \p PowerMatchW).
std::vector<size_t> neighbours(const std::vector<ConfigRecord> &Configs,
                               size_t I, double PowerMatchW);

KernelValidation validateKernel(const KernelRecord &Pred,
                                const KernelRecord &Meas,
                                double DefaultPowerLimitW,
                                const ValidateOptions &Opts);

ValidationSummary validate(const ReportFile &Predictions,
                           const ReportFile &Measurements,
                           const ValidateOptions &Opts);

/// The Markdown section for docs/VALIDATION.md.
std::string validationMarkdown(const ValidationSummary &S,
                               const ValidateOptions &Opts);
/// The same figures as JSON.
json::Value validationJSON(const ValidationSummary &S);

} // namespace measure
} // namespace flipflop

#endif
