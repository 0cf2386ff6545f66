//===- gemm_regblock.cu - Register-blocked SGEMM --------------------------===//
//
// Each thread computes a 4 x 4 sub-tile of C held in 16 registers. A block
// of TX x TY threads owns a BM x BN = (4*TY) x (4*TX) tile of C and walks K
// in steps of BK = 16, staging A (transposed) and B in shared memory. Per
// step a thread loads 4 + 4 values from shared memory for 16 FMAs (against
// 2 loads per FMA in gemm_tiled): arithmetic intensity rises, register
// pressure too, making the kernel compute-bound on FP32 at large sizes.
//
// Thread (tx, ty) owns rows ty + i*TY and columns tx + j*TX of the tile
// (strided ownership), so a warp reads consecutive Bs words (conflict-free)
// and at most two distinct As words (broadcast).
//
// Block shape: tied to the tile by design, so the kernel is a template over
// the thread-block shape, instantiated for 16x16 (64x64 tile, default),
// 32x8 (32x128), 16x8 (32x64) and 8x8 (32x32). Edges are zero-filled, so any
// M, N, K work. Check: see common/GemmDriver.h.
//
//===----------------------------------------------------------------------===//

#include "common/GemmDriver.h"

using namespace flipflop::examples;

constexpr int TM = 4, TN = 4, BK = 16;

template <int TX, int TY>
__global__ void __launch_bounds__(TX * TY)
    gemmRegBlock(const float *__restrict__ A, const float *__restrict__ B,
                 float *__restrict__ C, int M, int N, int K) {
  constexpr int BM = TM * TY, BN = TN * TX, Threads = TX * TY;
  // As is stored transposed (As[k][m]) so the inner loop reads a row of it;
  // +1 padding spreads the transposing stores over the banks.
  __shared__ float As[BK][BM + 1];
  __shared__ float Bs[BK][BN];

  const int Tx = threadIdx.x, Ty = threadIdx.y;
  const int Tid = Ty * TX + Tx;
  const int Row0 = blockIdx.y * BM, Col0 = blockIdx.x * BN;

  float Acc[TM][TN];
#pragma unroll
  for (int I = 0; I < TM; ++I)
#pragma unroll
    for (int J = 0; J < TN; ++J)
      Acc[I][J] = 0.0f;

  for (int K0 = 0; K0 < K; K0 += BK) {
    // A tile (BM x BK): consecutive threads read consecutive k of one row.
    for (int E = Tid; E < BM * BK; E += Threads) {
      int M_ = E / BK, K_ = E % BK;
      int Row = Row0 + M_, Kk = K0 + K_;
      As[K_][M_] = (Row < M && Kk < K) ? A[static_cast<size_t>(Row) * K + Kk] : 0.0f;
    }
    // B tile (BK x BN): consecutive threads read consecutive columns.
    for (int E = Tid; E < BK * BN; E += Threads) {
      int K_ = E / BN, N_ = E % BN;
      int Kk = K0 + K_, Col = Col0 + N_;
      Bs[K_][N_] = (Kk < K && Col < N) ? B[static_cast<size_t>(Kk) * N + Col] : 0.0f;
    }
    __syncthreads();

#pragma unroll
    for (int P = 0; P < BK; ++P) {
      float a[TM], b[TN];
#pragma unroll
      for (int I = 0; I < TM; ++I)
        a[I] = As[P][Ty + I * TY];
#pragma unroll
      for (int J = 0; J < TN; ++J)
        b[J] = Bs[P][Tx + J * TX];
#pragma unroll
      for (int I = 0; I < TM; ++I)
#pragma unroll
        for (int J = 0; J < TN; ++J)
          Acc[I][J] += a[I] * b[J];
    }
    __syncthreads();
  }

#pragma unroll
  for (int I = 0; I < TM; ++I)
#pragma unroll
    for (int J = 0; J < TN; ++J) {
      int Row = Row0 + Ty + I * TY, Col = Col0 + Tx + J * TX;
      if (Row < M && Col < N)
        C[static_cast<size_t>(Row) * N + Col] = Acc[I][J];
    }
}

template <int TX, int TY>
static bool launchIf(dim3 Block, const float *A, const float *B, float *C,
                     int M, int N, int K, dim3 &Grid, bool DryRun) {
  if (Block.x != TX || Block.y != TY)
    return false;
  Grid = dim3(ceilDiv(N, TN * TX), ceilDiv(M, TM * TY));
  if (!DryRun)
    gemmRegBlock<TX, TY><<<Grid, Block>>>(A, B, C, M, N, K);
  return true;
}

/// Launches the instantiation matching Block; false if there is none.
static bool launch(dim3 Block, const float *A, const float *B, float *C, int M,
                   int N, int K, dim3 &Grid, bool DryRun = false) {
  return launchIf<16, 16>(Block, A, B, C, M, N, K, Grid, DryRun) ||
         launchIf<32, 8>(Block, A, B, C, M, N, K, Grid, DryRun) ||
         launchIf<16, 8>(Block, A, B, C, M, N, K, Grid, DryRun) ||
         launchIf<8, 8>(Block, A, B, C, M, N, K, Grid, DryRun);
}

int main(int Argc, char **Argv) {
  Options O = parseGemmOptions(Argc, Argv, "gemm_regblock",
                               "register-blocked SGEMM, 4x4 outputs per thread",
                               dim3(16, 16));
  dim3 Grid;
  if (O.Block.z != 1 ||
      !launch(O.Block, nullptr, nullptr, nullptr, 0, 0, 0, Grid, true))
    usageError(O, "instantiated block shapes: 16x16, 32x8, 16x8, 8x8");
  requireDevice();

  GemmProblem P = makeGemmProblem(O);
  DeviceBuffer<float> DA(P.A), DB(P.B), DC(static_cast<size_t>(P.M) * P.N);
  float Ms = timeMedian(O.Repeat, [&] {
    launch(O.Block, DA.get(), DB.get(), DC.get(), P.M, P.N, P.K, Grid);
  });

  CheckResult Check = CheckResult::None;
  if (O.Check)
    Check = checkGemm("gemm_regblock", P.A, P.B, DC.download(), P.M, P.N, P.K);
  char Name[64];
  std::snprintf(Name, sizeof(Name), "gemmRegBlock<%u,%u>", O.Block.x, O.Block.y);
  return report(O, Name, O.Block, Grid, Ms, Check);
}
