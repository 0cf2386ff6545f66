//===- GemmDriver.h - Shared set-up and check of the float GEMM examples --===//
//
// C[M x N] = A[M x K] * B[K x N], row-major, M = N = K = --size (or --m,
// --n, --k). Inputs uniform in [-1, 1). Check: |err| <= 1e-3 + 1e-4 * |c|
// per element against a double-precision reference (float FMA chains of
// length K <= 4096 of products < 1 stay far inside that bound).
//
//===----------------------------------------------------------------------===//

#ifndef FLIPFLOP_EXAMPLES_COMMON_GEMMDRIVER_H
#define FLIPFLOP_EXAMPLES_COMMON_GEMMDRIVER_H

#include "common/Driver.h"
#include "reference/Compare.h"
#include "reference/Gemm.h"
#include "reference/Inputs.h"

namespace flipflop {
namespace examples {

struct GemmProblem {
  int M, N, K;
  std::vector<float> A, B;
};

inline Options parseGemmOptions(int Argc, char **Argv, const char *Example,
                                const char *Summary, dim3 DefaultBlock) {
  Options O = parseOptions(Argc, Argv, Example, Summary, DefaultBlock, 1024,
                           "M = N = K unless --m/--n/--k are given",
                           {{"m", 0, "rows of A and C (0: --size)"},
                            {"n", 0, "columns of B and C (0: --size)"},
                            {"k", 0, "columns of A, rows of B (0: --size)"}});
  for (const char *Dim : {"m", "n", "k"})
    if ((O.extra(Dim) ? O.extra(Dim) : O.Size) > 32768)
      usageError(O, "matrix dimension too large (at most 32768)");
  return O;
}

inline GemmProblem makeGemmProblem(const Options &O) {
  GemmProblem P;
  P.M = static_cast<int>(O.extra("m") ? O.extra("m") : O.Size);
  P.N = static_cast<int>(O.extra("n") ? O.extra("n") : O.Size);
  P.K = static_cast<int>(O.extra("k") ? O.extra("k") : O.Size);
  P.A = ref::uniformVector(static_cast<size_t>(P.M) * P.K, 21, -1.0f, 1.0f);
  P.B = ref::uniformVector(static_cast<size_t>(P.K) * P.N, 22, -1.0f, 1.0f);
  return P;
}

/// Compares C with the reference product of the (possibly rounded) inputs
/// A and B actually given to the GPU.
inline CheckResult checkGemm(const char *Example, const std::vector<float> &A,
                             const std::vector<float> &B,
                             const std::vector<float> &C, int M, int N, int K,
                             double AbsTol = 1e-3, double RelTol = 1e-4) {
  std::vector<float> Want(static_cast<size_t>(M) * N);
  ref::gemm(A.data(), B.data(), Want.data(), M, N, K);
  ref::CompareResult R =
      ref::compareArrays(C.data(), Want.data(), Want.size(), AbsTol, RelTol);
  if (!R.Ok)
    std::fprintf(stderr, "%s: mismatch at C[%zu][%zu]: got %g, want %g\n",
                 Example, R.Index / N, R.Index % N, R.Got, R.Want);
  return R.Ok ? CheckResult::Pass : CheckResult::Fail;
}

} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_COMMON_GEMMDRIVER_H
