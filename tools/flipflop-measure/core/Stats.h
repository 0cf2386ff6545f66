//===- Stats.h - Statistics, integration and fits for measurements --------===//
//
// Pure functions, unit-tested on hand-computed data: summaries of repeated
// timings, Kendall's tau-b, trapezoid integration of sampled power, and the
// least-squares fits of the calibration (lines, and the FlipFlop paper's
// power law P(n) = alpha * n^beta + delta over active SMs).
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_STATS_H
#define FLIPFLOP_MEASURE_STATS_H

#include <cstddef>
#include <vector>

namespace flipflop {
namespace measure {

/// Linear-interpolated quantile (type 7 of Hyndman and Fan, the default of R
/// and NumPy) of \p Sorted, which must be sorted ascending and non-empty.
double quantileSorted(const std::vector<double> &Sorted, double Q);

struct Summary {
  size_t Count = 0;
  double Median = 0, Mean = 0, Min = 0, Max = 0, Q1 = 0, Q3 = 0;
  double iqr() const { return Q3 - Q1; }
  /// (Max - Min) / Median, 0 when the median is 0.
  double relativeSpread() const;
};

/// Summary of \p Xs (an empty input gives an all-zero summary).
Summary summarize(std::vector<double> Xs);

/// Kendall's tau-b between paired samples \p X and \p Y (equal lengths).
/// Ties in either variable are handled by the tau-b correction:
///   tau_b = (C - D) / sqrt((n0 - n1) (n0 - n2)),
/// n0 = n(n-1)/2, n1 / n2 = pairs tied in X / Y. Returns NaN when fewer than
/// two pairs or when either variable is constant.
double kendallTauB(const std::vector<double> &X, const std::vector<double> &Y);

/// One power sample: seconds (any origin) and watts.
struct PowerSample {
  double TimeS = 0, PowerW = 0;
};

/// Integral of the piecewise-linear curve through \p Samples (sorted by time)
/// over [Begin, End], in joules. Outside the sampled span the curve is held
/// at the first/last sample. Returns 0 for an empty window or no samples.
double trapezoidEnergy(const std::vector<PowerSample> &Samples, double Begin,
                       double End);

struct LinearFit {
  double Slope = 0, Intercept = 0, R2 = 0;
  bool Ok = false;
};
/// Ordinary least squares y = Slope * x + Intercept.
LinearFit fitLine(const std::vector<double> &X, const std::vector<double> &Y);

struct PowerLawFit {
  double Alpha = 0, Beta = 0, Delta = 0;
  double R2 = 0;     ///< Coefficient of determination.
  double RMSE = 0;   ///< Root-mean-square residual (W).
  bool Ok = false;
  double eval(double N) const;
};
/// Least-squares fit of y = Alpha * x^Beta + Delta for x > 0. For a fixed
/// Beta the problem is linear in (Alpha, Delta); Beta is found by a coarse
/// scan of [BetaMin, BetaMax] followed by golden-section refinement of the
/// residual sum of squares. Needs at least three distinct x.
PowerLawFit fitPowerLaw(const std::vector<double> &X,
                        const std::vector<double> &Y, double BetaMin = 0.05,
                        double BetaMax = 4.0);

} // namespace measure
} // namespace flipflop

#endif
