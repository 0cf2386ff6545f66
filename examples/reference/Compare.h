//===- Compare.h - Tolerance comparison of example results ----------------===//

#ifndef FLIPFLOP_EXAMPLES_REFERENCE_COMPARE_H
#define FLIPFLOP_EXAMPLES_REFERENCE_COMPARE_H

#include <cmath>
#include <cstddef>

namespace flipflop {
namespace examples {
namespace ref {

struct CompareResult {
  bool Ok = true;
  size_t Index = 0; ///< First element out of tolerance (valid if !Ok).
  double Got = 0, Want = 0;
  double MaxAbsError = 0;
};

/// Element I passes when |Got[I] - Want[I]| <= AbsTol + RelTol * |Want[I]|
/// (a NaN never passes). Reports the first failure and the largest error.
template <typename GotT, typename WantT>
CompareResult compareArrays(const GotT *Got, const WantT *Want, size_t N,
                            double AbsTol, double RelTol) {
  CompareResult R;
  for (size_t I = 0; I < N; ++I) {
    double G = static_cast<double>(Got[I]);
    double W = static_cast<double>(Want[I]);
    double Err = std::fabs(G - W);
    if (!(Err <= AbsTol + RelTol * std::fabs(W))) {
      if (R.Ok) {
        R.Ok = false;
        R.Index = I;
        R.Got = G;
        R.Want = W;
      }
    }
    if (Err > R.MaxAbsError || std::isnan(Err))
      R.MaxAbsError = Err;
  }
  return R;
}

} // namespace ref
} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_REFERENCE_COMPARE_H
