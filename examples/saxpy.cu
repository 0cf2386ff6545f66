//===- saxpy.cu - Streaming vector kernel with a grid-stride loop ---------===//
//
// Z = A * X + Y over N floats (out of place, so that repeated launches see
// the same input). One grid-stride loop: any block size and any grid size
// are correct; the driver fills the GPU with resident blocks by default.
// 12 bytes move per 2 flops: memory-bound, fully coalesced.
//
// Check: exact up to one rounding of the fused multiply-add (rel 1e-6).
//
//===----------------------------------------------------------------------===//

#include "common/Driver.h"
#include "reference/Inputs.h"
#include "reference/Compare.h"
#include "reference/Rows.h"

using namespace flipflop::examples;

__global__ void saxpyGridStride(long N, float A, const float *__restrict__ X,
                                const float *__restrict__ Y,
                                float *__restrict__ Z) {
  const long Stride = static_cast<long>(blockDim.x) * gridDim.x;
  for (long I = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
       I < N; I += Stride)
    Z[I] = A * X[I] + Y[I];
}

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "saxpy",
                           "streaming Z = A*X + Y with a grid-stride loop",
                           dim3(256), 1L << 24, "vector length");
  if (O.Block.y != 1 || O.Block.z != 1)
    usageError(O, "saxpy takes a 1-D block (--block N)");
  cudaDeviceProp Prop = requireDevice();

  const long N = O.Size;
  const float A = 2.5f;
  std::vector<float> X = ref::uniformVector(N, 1, -1.0f, 1.0f);
  std::vector<float> Y = ref::uniformVector(N, 2, -1.0f, 1.0f);
  DeviceBuffer<float> DX(X), DY(Y), DZ(N);

  dim3 Grid(gridStrideBlocks(O, Prop, saxpyGridStride, N));
  float Ms = timeMedian(O.Repeat, [&] {
    saxpyGridStride<<<Grid, O.Block>>>(N, A, DX.get(), DY.get(), DZ.get());
  });

  CheckResult Check = CheckResult::None;
  if (O.Check) {
    std::vector<float> Want(N);
    ref::saxpy(A, X.data(), Y.data(), Want.data(), N);
    std::vector<float> Got = DZ.download();
    ref::CompareResult R = ref::compareArrays(Got.data(), Want.data(), N, 1e-6, 1e-6);
    if (!R.Ok)
      std::fprintf(stderr, "saxpy: mismatch at %zu: got %g, want %g\n",
                   R.Index, R.Got, R.Want);
    Check = R.Ok ? CheckResult::Pass : CheckResult::Fail;
  }
  return report(O, "saxpyGridStride", O.Block, Grid, Ms, Check);
}
