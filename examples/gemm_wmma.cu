//===- gemm_wmma.cu - GEMM on tensor cores through WMMA -------------------===//
//
// C (float) = A (half) * B (half) with nvcuda::wmma 16x16x16 fragments,
// float accumulation (sm_70+). Each warp computes one 16 x 16 tile of C,
// loading its A and B fragments straight from global memory (row-major,
// leading dimensions K and N); the block's warps cover adjacent tiles so
// they share rows of A and columns of B in L1. Tensor-core bound for large
// sizes; no shared memory, no barrier.
//
// Block size: blockDim.x a multiple of 32, any blockDim.y: the block is a
// (blockDim.x / 32) x blockDim.y grid of warps, i.e. a tile of
// (16 * blockDim.y) x (16 * blockDim.x / 32) outputs; default 128 x 4
// (a 64 x 64 tile). M, N, K must be multiples of 16.
//
// Check: inputs are rounded to half on the host and the reference uses the
// same rounded values; half x half products are exact in float, so only the
// float summation order differs: |err| <= 1e-3 + 1e-4 * |c|.
//
//===----------------------------------------------------------------------===//

#include "common/GemmDriver.h"

#include <cuda_fp16.h>
#include <mma.h>

using namespace flipflop::examples;

constexpr int WM = 16, WN = 16, WK = 16;

__global__ void gemmWmma(const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C,
                         int M, int N, int K) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
  using namespace nvcuda;
  const int WarpsX = blockDim.x / 32;
  const int WarpX = threadIdx.x / 32, WarpY = threadIdx.y;
  const int TileRow = (blockIdx.y * blockDim.y + WarpY) * WM;
  const int TileCol = (blockIdx.x * WarpsX + WarpX) * WN;
  if (TileRow >= M || TileCol >= N) // Uniform across the warp.
    return;

  wmma::fragment<wmma::matrix_a, WM, WN, WK, __half, wmma::row_major> AFrag;
  wmma::fragment<wmma::matrix_b, WM, WN, WK, __half, wmma::row_major> BFrag;
  wmma::fragment<wmma::accumulator, WM, WN, WK, float> Acc;
  wmma::fill_fragment(Acc, 0.0f);
  for (int K0 = 0; K0 < K; K0 += WK) {
    wmma::load_matrix_sync(AFrag, A + static_cast<size_t>(TileRow) * K + K0, K);
    wmma::load_matrix_sync(BFrag, B + static_cast<size_t>(K0) * N + TileCol, N);
    wmma::mma_sync(Acc, AFrag, BFrag, Acc);
  }
  wmma::store_matrix_sync(C + static_cast<size_t>(TileRow) * N + TileCol, Acc,
                          N, wmma::mem_row_major);
#endif
}

int main(int Argc, char **Argv) {
  Options O = parseGemmOptions(Argc, Argv, "gemm_wmma",
                               "half-precision GEMM on tensor cores (WMMA), "
                               "float accumulation",
                               dim3(128, 4));
  if (O.Block.x % 32 != 0 || O.Block.z != 1)
    usageError(O, "gemm_wmma takes blockDim.x a multiple of 32 (one warp per "
                  "16x16 tile of C)");
  for (const char *Dim : {"m", "n", "k"})
    if ((O.extra(Dim) ? O.extra(Dim) : O.Size) % 16 != 0)
      usageError(O, "M, N and K must be multiples of 16");
  requireDevice(7);

  GemmProblem P = makeGemmProblem(O);
  // Round the inputs to half; the reference uses the rounded values.
  std::vector<__half> HA(P.A.size()), HB(P.B.size());
  for (size_t I = 0; I < P.A.size(); ++I) {
    HA[I] = __float2half(P.A[I]);
    P.A[I] = __half2float(HA[I]);
  }
  for (size_t I = 0; I < P.B.size(); ++I) {
    HB[I] = __float2half(P.B[I]);
    P.B[I] = __half2float(HB[I]);
  }
  DeviceBuffer<__half> DA(HA), DB(HB);
  DeviceBuffer<float> DC(static_cast<size_t>(P.M) * P.N);
  const unsigned WarpsX = O.Block.x / 32;
  dim3 Grid(ceilDiv(P.N, WN * WarpsX), ceilDiv(P.M, WM * O.Block.y));
  float Ms = timeMedian(O.Repeat, [&] {
    gemmWmma<<<Grid, O.Block>>>(DA.get(), DB.get(), DC.get(), P.M, P.N, P.K);
  });

  CheckResult Check = CheckResult::None;
  if (O.Check)
    Check = checkGemm("gemm_wmma", P.A, P.B, DC.download(), P.M, P.N, P.K);
  return report(O, "gemmWmma", O.Block, Grid, Ms, Check);
}
