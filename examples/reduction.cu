//===- reduction.cu - Sum reduction: shared-memory tree + warp shuffles ---===//
//
// Two launches of the same kernel: pass 1 reduces N floats to one partial
// sum per block (grid-stride accumulation in registers, a shared-memory tree
// down to 32 values, then a warp-shuffle reduction in the first warp); pass
// 2 reduces the partials with a single block.
//
// Block size: any multiple of 32 up to 1024 (not only powers of two: the
// tree first folds the block onto the largest power of two below it).
// Memory-bound, coalesced loads; log2(block) barriers per block.
//
// Check: relative error 1e-4 against a double-precision sum of inputs in
// [0, 1) (float partial sums of ~N/threads terms each).
//
//===----------------------------------------------------------------------===//

#include "common/Driver.h"
#include "reference/Compare.h"
#include "reference/Inputs.h"
#include "reference/Rows.h"

using namespace flipflop::examples;

/// Out[blockIdx.x] = sum of In[blockIdx.x*blockDim.x + threadIdx.x + k*stride].
/// Dynamic shared memory: blockDim.x floats.
__global__ void reduceSum(const float *__restrict__ In, float *__restrict__ Out,
                          long N) {
  extern __shared__ float Partial[];
  const unsigned Tid = threadIdx.x;
  const long Stride = static_cast<long>(blockDim.x) * gridDim.x;
  float V = 0.0f;
  for (long I = static_cast<long>(blockIdx.x) * blockDim.x + Tid; I < N;
       I += Stride)
    V += In[I];
  Partial[Tid] = V;
  __syncthreads();

  // Fold onto a power of two P (blockDim.x < 2P), then halve down to 32.
  unsigned P = 1u << (31 - __clz(blockDim.x));
  if (Tid < blockDim.x - P)
    Partial[Tid] += Partial[Tid + P];
  __syncthreads();
  for (unsigned S = P / 2; S >= 32; S >>= 1) {
    if (Tid < S)
      Partial[Tid] += Partial[Tid + S];
    __syncthreads();
  }

  // The last 32 values: one warp, registers and shuffles, no barriers.
  if (Tid < 32) {
    V = Partial[Tid];
    for (int Offset = 16; Offset > 0; Offset >>= 1)
      V += __shfl_down_sync(0xffffffffu, V, Offset);
    if (Tid == 0)
      Out[blockIdx.x] = V;
  }
}

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "reduction",
                           "sum of N floats: shared-memory tree + warp "
                           "shuffles, two passes",
                           dim3(256), 1L << 24, "number of floats");
  if (O.Block.y != 1 || O.Block.z != 1 || O.Block.x % 32 != 0)
    usageError(O, "reduction takes a 1-D block, a multiple of 32");
  cudaDeviceProp Prop = requireDevice();

  const long N = O.Size;
  const size_t Smem = O.Block.x * sizeof(float);
  std::vector<float> X = ref::uniformVector(N, 3, 0.0f, 1.0f);
  DeviceBuffer<float> DX(X);
  dim3 Grid(gridStrideBlocks(O, Prop, reduceSum, N, Smem));
  DeviceBuffer<float> DPartial(Grid.x), DSum(1);

  float Ms = timeMedian(O.Repeat, [&] {
    reduceSum<<<Grid, O.Block, Smem>>>(DX.get(), DPartial.get(), N);
    reduceSum<<<1, O.Block, Smem>>>(DPartial.get(), DSum.get(), Grid.x);
  });

  CheckResult Check = CheckResult::None;
  if (O.Check) {
    double Want = ref::sum(X.data(), N);
    float Got = DSum.download()[0];
    ref::CompareResult R = ref::compareArrays(&Got, &Want, 1, 0.0, 1e-4);
    if (!R.Ok)
      std::fprintf(stderr, "reduction: got %.9g, want %.9g\n", R.Got, R.Want);
    Check = R.Ok ? CheckResult::Pass : CheckResult::Fail;
  }
  return report(O, "reduceSum", O.Block, Grid, Ms, Check);
}
