//===- gemm_tiled.cu - SGEMM with 16x16 shared-memory tiles ---------------===//
//
// The classic tiled GEMM: each block computes a 16 x 16 tile of C; per step
// it stages a 16 x 16 tile of A and of B in shared memory (one element per
// thread, coalesced), synchronises, and every thread does 16 FMAs from
// shared memory (As row: broadcast; Bs row: consecutive banks). Global
// traffic drops 16x against gemm_naive; 2 shared loads per FMA remain.
//
// Block shape fixed by design: 16 x 16 threads, one per element of the tile
// (Tile = 16); other shapes are refused. Edges are zero-filled, so any
// M, N, K work. Check: see common/GemmDriver.h.
//
//===----------------------------------------------------------------------===//

#include "common/GemmDriver.h"

using namespace flipflop::examples;

constexpr int Tile = 16;

__global__ void __launch_bounds__(Tile * Tile)
    gemmTiled16(const float *__restrict__ A, const float *__restrict__ B,
                float *__restrict__ C, int M, int N, int K) {
  __shared__ float As[Tile][Tile];
  __shared__ float Bs[Tile][Tile];
  const int Tx = threadIdx.x, Ty = threadIdx.y;
  const int Row = blockIdx.y * Tile + Ty;
  const int Col = blockIdx.x * Tile + Tx;
  float Acc = 0.0f;
  for (int K0 = 0; K0 < K; K0 += Tile) {
    As[Ty][Tx] = (Row < M && K0 + Tx < K)
                     ? A[static_cast<size_t>(Row) * K + K0 + Tx]
                     : 0.0f;
    Bs[Ty][Tx] = (K0 + Ty < K && Col < N)
                     ? B[static_cast<size_t>(K0 + Ty) * N + Col]
                     : 0.0f;
    __syncthreads();
#pragma unroll
    for (int P = 0; P < Tile; ++P)
      Acc += As[Ty][P] * Bs[P][Tx];
    __syncthreads();
  }
  if (Row < M && Col < N)
    C[static_cast<size_t>(Row) * N + Col] = Acc;
}

int main(int Argc, char **Argv) {
  Options O = parseGemmOptions(Argc, Argv, "gemm_tiled",
                               "SGEMM with 16x16 shared-memory tiles",
                               dim3(Tile, Tile));
  if (O.Block.x != Tile || O.Block.y != Tile || O.Block.z != 1)
    usageError(O, "the block shape is fixed by the 16x16 tile: --block 16x16");
  requireDevice();

  GemmProblem P = makeGemmProblem(O);
  DeviceBuffer<float> DA(P.A), DB(P.B), DC(static_cast<size_t>(P.M) * P.N);
  dim3 Grid(ceilDiv(P.N, Tile), ceilDiv(P.M, Tile));
  float Ms = timeMedian(O.Repeat, [&] {
    gemmTiled16<<<Grid, O.Block>>>(DA.get(), DB.get(), DC.get(), P.M, P.N, P.K);
  });

  CheckResult Check = CheckResult::None;
  if (O.Check)
    Check = checkGemm("gemm_tiled", P.A, P.B, DC.download(), P.M, P.N, P.K);
  return report(O, "gemmTiled16", O.Block, Grid, Ms, Check);
}
