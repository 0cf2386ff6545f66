//===- stencil2d.cu - 2-D 5-point stencil (one Jacobi sweep) --------------===//
//
// Out = C0 * centre + C1 * (N + S + W + E) on an H x W grid, boundary copied.
// One thread per point, 2-D blocks indexed through blockDim, so any block
// shape works; rows of the block read consecutive addresses (coalesced when
// blockDim.x is a multiple of 32). Neighbour reuse is left to L1/L2: 5 loads
// and 1 store per point, memory-bound.
//
// Check: abs 1e-6 + rel 1e-5 (the same float operations as the reference).
//
//===----------------------------------------------------------------------===//

#include "common/Driver.h"
#include "reference/Compare.h"
#include "reference/Grid.h"
#include "reference/Inputs.h"

using namespace flipflop::examples;

__global__ void stencil5(const float *__restrict__ In, float *__restrict__ Out,
                         int H, int W, float C0, float C1) {
  const int X = blockIdx.x * blockDim.x + threadIdx.x;
  const int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= W || Y >= H)
    return;
  const size_t I = static_cast<size_t>(Y) * W + X;
  if (X == 0 || Y == 0 || X == W - 1 || Y == H - 1) {
    Out[I] = In[I];
    return;
  }
  Out[I] = C0 * In[I] + C1 * (In[I - W] + In[I + W] + In[I - 1] + In[I + 1]);
}

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "stencil2d",
                           "one Jacobi sweep of a 2-D 5-point stencil",
                           dim3(32, 8), 4096, "grid side (N x N points)");
  if (O.Block.z != 1)
    usageError(O, "stencil2d takes a 1-D or 2-D block");
  if (O.Size > 46340)
    usageError(O, "grid side too large");
  requireDevice();

  const int N = static_cast<int>(O.Size);
  const float C0 = 0.5f, C1 = 0.125f;
  std::vector<float> In = ref::uniformVector(static_cast<size_t>(N) * N, 8, 0.0f, 1.0f);
  DeviceBuffer<float> DIn(In), DOut(In.size());
  dim3 Grid(ceilDiv(N, O.Block.x), ceilDiv(N, O.Block.y));
  float Ms = timeMedian(O.Repeat, [&] {
    stencil5<<<Grid, O.Block>>>(DIn.get(), DOut.get(), N, N, C0, C1);
  });

  CheckResult Check = CheckResult::None;
  if (O.Check) {
    std::vector<float> Want(In.size());
    ref::stencil5(In.data(), Want.data(), N, N, C0, C1);
    std::vector<float> Got = DOut.download();
    ref::CompareResult R =
        ref::compareArrays(Got.data(), Want.data(), Got.size(), 1e-6, 1e-5);
    if (!R.Ok)
      std::fprintf(stderr, "stencil2d: mismatch at %zu: got %g, want %g\n",
                   R.Index, R.Got, R.Want);
    Check = R.Ok ? CheckResult::Pass : CheckResult::Fail;
  }
  return report(O, "stencil5", O.Block, Grid, Ms, Check);
}
