//===- ConvDriver.h - Shared set-up and check of the conv2d examples ------===//
//
// "Same" 2-D convolution of an N x N float image (uniform in [0, 1)) with a
// (2R+1) x (2R+1) filter (uniform in [-0.2, 0.2)) held in constant memory,
// zero padding outside the image; R = --radius, instantiated for 1, 2, 3.
//
// Check: |err| <= 1e-5 + 1e-5 * |out| against a double reference (at most
// 49 float products < 0.2 per output).
//
//===----------------------------------------------------------------------===//

#ifndef FLIPFLOP_EXAMPLES_COMMON_CONVDRIVER_H
#define FLIPFLOP_EXAMPLES_COMMON_CONVDRIVER_H

#include "common/Driver.h"
#include "reference/Compare.h"
#include "reference/Conv2D.h"
#include "reference/Inputs.h"

namespace flipflop {
namespace examples {

constexpr int MaxRadius = 3;
constexpr int MaxFilterWidth = 2 * MaxRadius + 1;

/// The filter, row-major (2R+1) x (2R+1); read uniformly by a warp, so the
/// constant cache broadcasts it.
__constant__ float Filter[MaxFilterWidth * MaxFilterWidth];

struct ConvProblem {
  int N, R;
  std::vector<float> Image, Weights;
};

inline Options parseConvOptions(int Argc, char **Argv, const char *Example,
                                const char *Summary) {
  Options O = parseOptions(Argc, Argv, Example, Summary, dim3(32, 8), 4096,
                           "image side (N x N pixels)",
                           {{"radius", 2, "filter radius R (1, 2 or 3)"}});
  if (O.Block.z != 1)
    usageError(O, "conv2d takes a 1-D or 2-D block");
  if (O.extra("radius") > MaxRadius)
    usageError(O, "instantiated filter radii: 1, 2, 3");
  if (O.Size > 32768)
    usageError(O, "image too large (side <= 32768)");
  return O;
}

inline ConvProblem makeConvProblem(const Options &O) {
  ConvProblem P;
  P.N = static_cast<int>(O.Size);
  P.R = static_cast<int>(O.extra("radius"));
  P.Image = ref::uniformVector(static_cast<size_t>(P.N) * P.N, 41, 0.0f, 1.0f);
  P.Weights = ref::uniformVector((2 * P.R + 1) * (2 * P.R + 1), 42, -0.2f, 0.2f);
  FFX_CUDA(cudaMemcpyToSymbol(Filter, P.Weights.data(),
                              P.Weights.size() * sizeof(float)));
  return P;
}

inline CheckResult checkConv(const char *Example, const ConvProblem &P,
                             const std::vector<float> &Got) {
  std::vector<float> Want(Got.size());
  ref::conv2d(P.Image.data(), Want.data(), P.N, P.N, P.Weights.data(), P.R);
  ref::CompareResult R =
      ref::compareArrays(Got.data(), Want.data(), Want.size(), 1e-5, 1e-5);
  if (!R.Ok)
    std::fprintf(stderr, "%s: mismatch at pixel (%zu, %zu): got %g, want %g\n",
                 Example, R.Index / P.N, R.Index % P.N, R.Got, R.Want);
  return R.Ok ? CheckResult::Pass : CheckResult::Fail;
}

} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_COMMON_CONVDRIVER_H
