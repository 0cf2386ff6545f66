//===- gemm_naive.cu - Naive SGEMM, one thread per output -----------------===//
//
// C = A * B, one thread per element of C, K-loop straight from global
// memory: threads of a warp share a row of A (broadcast) and read
// consecutive columns of B (coalesced). Every operand is re-read from
// L1/L2 by every thread: 2 loads per FMA, so it is bound by cache bandwidth,
// far from the FMA peak. Any 2-D block shape (x along columns of C).
// Check: see common/GemmDriver.h.
//
//===----------------------------------------------------------------------===//

#include "common/GemmDriver.h"

using namespace flipflop::examples;

__global__ void gemmNaive(const float *__restrict__ A,
                          const float *__restrict__ B, float *__restrict__ C,
                          int M, int N, int K) {
  const int Col = blockIdx.x * blockDim.x + threadIdx.x;
  const int Row = blockIdx.y * blockDim.y + threadIdx.y;
  if (Row >= M || Col >= N)
    return;
  float Acc = 0.0f;
  for (int P = 0; P < K; ++P)
    Acc += A[static_cast<size_t>(Row) * K + P] * B[static_cast<size_t>(P) * N + Col];
  C[static_cast<size_t>(Row) * N + Col] = Acc;
}

int main(int Argc, char **Argv) {
  Options O = parseGemmOptions(Argc, Argv, "gemm_naive",
                               "naive SGEMM, one thread per output element",
                               dim3(16, 16));
  if (O.Block.z != 1)
    usageError(O, "gemm_naive takes a 1-D or 2-D block");
  requireDevice();

  GemmProblem P = makeGemmProblem(O);
  DeviceBuffer<float> DA(P.A), DB(P.B), DC(static_cast<size_t>(P.M) * P.N);
  dim3 Grid(ceilDiv(P.N, O.Block.x), ceilDiv(P.M, O.Block.y));
  float Ms = timeMedian(O.Repeat, [&] {
    gemmNaive<<<Grid, O.Block>>>(DA.get(), DB.get(), DC.get(), P.M, P.N, P.K);
  });

  CheckResult Check = CheckResult::None;
  if (O.Check)
    Check = checkGemm("gemm_naive", P.A, P.B, DC.download(), P.M, P.N, P.K);
  return report(O, "gemmNaive", O.Block, Grid, Ms, Check);
}
