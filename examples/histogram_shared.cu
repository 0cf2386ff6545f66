//===- histogram_shared.cu - Byte histogram, shared then global atomics ---===//
//
// 256-bin histogram of N bytes. Each block keeps a private histogram in
// shared memory (atomicAdd on shared words: contention only within the
// block), then merges it into the global histogram with one global atomicAdd
// per non-empty bin. Grid-stride loop: any 1-D block size and grid size.
// Compare histogram_global.cu (every byte a global atomic).
//
// Check: exact counts.
//
//===----------------------------------------------------------------------===//

#include "common/Driver.h"
#include "reference/Compare.h"
#include "reference/Inputs.h"
#include "reference/Sparse.h"

using namespace flipflop::examples;

constexpr int Bins = 256;

__global__ void histogramShared(const unsigned char *__restrict__ Data, long N,
                                unsigned *__restrict__ Hist) {
  __shared__ unsigned Local[Bins];
  for (int B = threadIdx.x; B < Bins; B += blockDim.x)
    Local[B] = 0;
  __syncthreads();

  const long Stride = static_cast<long>(blockDim.x) * gridDim.x;
  for (long I = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
       I < N; I += Stride)
    atomicAdd(&Local[Data[I]], 1u);
  __syncthreads();

  for (int B = threadIdx.x; B < Bins; B += blockDim.x)
    if (unsigned Count = Local[B])
      atomicAdd(&Hist[B], Count);
}

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "histogram_shared",
                           "256-bin byte histogram, privatised in shared "
                           "memory, merged with global atomics",
                           dim3(256), 1L << 24, "number of bytes");
  if (O.Block.y != 1 || O.Block.z != 1)
    usageError(O, "histogram_shared takes a 1-D block (--block N)");
  cudaDeviceProp Prop = requireDevice();

  const long N = O.Size;
  std::vector<unsigned char> Data = ref::byteVector(N, 10);
  DeviceBuffer<unsigned char> DData(Data);
  DeviceBuffer<unsigned> DHist(Bins);
  dim3 Grid(gridStrideBlocks(O, Prop, histogramShared, N));
  float Ms = timeMedian(
      O.Repeat, [&] { DHist.zero(); },
      [&] { histogramShared<<<Grid, O.Block>>>(DData.get(), N, DHist.get()); });

  CheckResult Check = CheckResult::None;
  if (O.Check) {
    std::vector<unsigned> Want(Bins);
    ref::histogram256(Data.data(), N, Want.data());
    std::vector<unsigned> Got = DHist.download();
    ref::CompareResult R = ref::compareArrays(Got.data(), Want.data(), Bins, 0.0, 0.0);
    if (!R.Ok)
      std::fprintf(stderr, "histogram_shared: bin %zu: got %g, want %g\n",
                   R.Index, R.Got, R.Want);
    Check = R.Ok ? CheckResult::Pass : CheckResult::Fail;
  }
  return report(O, "histogramShared", O.Block, Grid, Ms, Check);
}
