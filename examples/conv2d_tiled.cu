//===- conv2d_tiled.cu - 2-D convolution with a shared-memory tile + halo -===//
//
// Each block first stages its (blockDim.y + 2R) x (blockDim.x + 2R) input
// tile, halo included, in dynamic shared memory (cooperative, coalesced
// loads; zeros outside the image), synchronises once, then every thread
// computes its pixel from shared memory. Global loads per output drop from
// (2R+1)^2 to about (1 + 2R/bx)(1 + 2R/by); the rest are shared-memory
// loads (a warp reads consecutive words: conflict-free). The halo makes the
// block shape matter: small or narrow blocks re-load more halo.
//
// Any 1-D or 2-D block shape (the tile is sized from blockDim at launch).
// Check: common/ConvDriver.h.
//
//===----------------------------------------------------------------------===//

#include "common/ConvDriver.h"

using namespace flipflop::examples;

/// Dynamic shared memory: (blockDim.x + 2R) * (blockDim.y + 2R) floats.
template <int R>
__global__ void conv2dTiled(const float *__restrict__ In,
                            float *__restrict__ Out, int H, int W) {
  constexpr int FW = 2 * R + 1;
  extern __shared__ float Tile[];
  const int TW = blockDim.x + 2 * R, TH = blockDim.y + 2 * R;
  const int X0 = static_cast<int>(blockIdx.x * blockDim.x) - R;
  const int Y0 = static_cast<int>(blockIdx.y * blockDim.y) - R;
  const int Threads = blockDim.x * blockDim.y;
  for (int I = threadIdx.y * blockDim.x + threadIdx.x; I < TW * TH;
       I += Threads) {
    const int GY = Y0 + I / TW, GX = X0 + I % TW;
    Tile[I] = (GY >= 0 && GY < H && GX >= 0 && GX < W)
                  ? In[static_cast<size_t>(GY) * W + GX]
                  : 0.0f;
  }
  __syncthreads();

  const int X = blockIdx.x * blockDim.x + threadIdx.x;
  const int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= W || Y >= H)
    return;
  float Acc = 0.0f;
#pragma unroll
  for (int I = 0; I < FW; ++I)
#pragma unroll
    for (int J = 0; J < FW; ++J)
      Acc += Tile[(threadIdx.y + I) * TW + threadIdx.x + J] * Filter[I * FW + J];
  Out[static_cast<size_t>(Y) * W + X] = Acc;
}

int main(int Argc, char **Argv) {
  Options O = parseConvOptions(Argc, Argv, "conv2d_tiled",
                               "2-D convolution, shared-memory tile with halo");
  const long R = O.extra("radius");
  const size_t Smem = (O.Block.x + 2 * R) * (O.Block.y + 2 * R) * sizeof(float);
  if (Smem > 48 * 1024)
    usageError(O, "the tile with its halo exceeds 48 KiB of shared memory");
  requireDevice();

  ConvProblem P = makeConvProblem(O);
  DeviceBuffer<float> DIn(P.Image), DOut(P.Image.size());
  dim3 Grid(ceilDiv(P.N, O.Block.x), ceilDiv(P.N, O.Block.y));
  auto Kernel = P.R == 1 ? conv2dTiled<1> : P.R == 2 ? conv2dTiled<2> : conv2dTiled<3>;
  float Ms = timeMedian(O.Repeat, [&] {
    Kernel<<<Grid, O.Block, Smem>>>(DIn.get(), DOut.get(), P.N, P.N);
  });

  CheckResult Check = CheckResult::None;
  if (O.Check)
    Check = checkConv("conv2d_tiled", P, DOut.download());
  char Name[32];
  std::snprintf(Name, sizeof(Name), "conv2dTiled<%d>", P.R);
  return report(O, Name, O.Block, Grid, Ms, Check);
}
