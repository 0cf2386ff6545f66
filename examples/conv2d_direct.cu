//===- conv2d_direct.cu - Direct 2-D convolution from global memory -------===//
//
// One thread per output pixel reads its (2R+1)^2 neighbourhood straight from
// global memory and the filter from constant memory. Each input pixel is
// loaded by (2R+1)^2 threads; the reuse is left to L1/L2, so the kernel is
// bound by L1 load bandwidth rather than DRAM. Rows of a warp are
// coalesced. Any 1-D or 2-D block shape. Check: common/ConvDriver.h.
//
//===----------------------------------------------------------------------===//

#include "common/ConvDriver.h"

using namespace flipflop::examples;

template <int R>
__global__ void conv2dDirect(const float *__restrict__ In,
                             float *__restrict__ Out, int H, int W) {
  constexpr int FW = 2 * R + 1;
  const int X = blockIdx.x * blockDim.x + threadIdx.x;
  const int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= W || Y >= H)
    return;
  float Acc = 0.0f;
#pragma unroll
  for (int I = -R; I <= R; ++I) {
    const int YY = Y + I;
    if (YY < 0 || YY >= H)
      continue;
#pragma unroll
    for (int J = -R; J <= R; ++J) {
      const int XX = X + J;
      if (XX >= 0 && XX < W)
        Acc += In[static_cast<size_t>(YY) * W + XX] * Filter[(I + R) * FW + J + R];
    }
  }
  Out[static_cast<size_t>(Y) * W + X] = Acc;
}

int main(int Argc, char **Argv) {
  Options O = parseConvOptions(Argc, Argv, "conv2d_direct",
                               "direct 2-D convolution, global memory");
  requireDevice();

  ConvProblem P = makeConvProblem(O);
  DeviceBuffer<float> DIn(P.Image), DOut(P.Image.size());
  dim3 Grid(ceilDiv(P.N, O.Block.x), ceilDiv(P.N, O.Block.y));
  auto Kernel = P.R == 1 ? conv2dDirect<1> : P.R == 2 ? conv2dDirect<2> : conv2dDirect<3>;
  float Ms = timeMedian(O.Repeat, [&] {
    Kernel<<<Grid, O.Block>>>(DIn.get(), DOut.get(), P.N, P.N);
  });

  CheckResult Check = CheckResult::None;
  if (O.Check)
    Check = checkConv("conv2d_direct", P, DOut.download());
  char Name[32];
  std::snprintf(Name, sizeof(Name), "conv2dDirect<%d>", P.R);
  return report(O, Name, O.Block, Grid, Ms, Check);
}
