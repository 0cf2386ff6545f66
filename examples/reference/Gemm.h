//===- Gemm.h - CPU reference for the GEMM examples -----------------------===//

#ifndef FLIPFLOP_EXAMPLES_REFERENCE_GEMM_H
#define FLIPFLOP_EXAMPLES_REFERENCE_GEMM_H

#include <cstddef>

namespace flipflop {
namespace examples {
namespace ref {

/// C[M x N] = A[M x K] * B[K x N], all row-major, accumulated in double.
inline void gemm(const float *A, const float *B, float *C, int M, int N,
                 int K) {
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      double Acc = 0;
      for (int P = 0; P < K; ++P)
        Acc += static_cast<double>(A[static_cast<size_t>(I) * K + P]) *
               B[static_cast<size_t>(P) * N + J];
      C[static_cast<size_t>(I) * N + J] = static_cast<float>(Acc);
    }
}

} // namespace ref
} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_REFERENCE_GEMM_H
