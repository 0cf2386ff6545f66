//===- histogram_global.cu - Byte histogram, global atomics only ----------===//
//
// 256-bin histogram of N bytes with one global atomicAdd per byte: every
// thread of the GPU contends on the same 256 words (1 KiB, L2-resident), so
// throughput is bounded by the L2 atomic units, not by DRAM bandwidth.
// Grid-stride loop: any 1-D block size and grid size. The privatised
// version is histogram_shared.cu.
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

__global__ void histogramGlobal(const unsigned char *__restrict__ Data, long N,
                                unsigned *__restrict__ Hist) {
  const long Stride = static_cast<long>(blockDim.x) * gridDim.x;
  for (long I = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
       I < N; I += Stride)
    atomicAdd(&Hist[Data[I]], 1u);
}

int main(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv, "histogram_global",
                           "256-bin byte histogram with global atomics only",
                           dim3(256), 1L << 24, "number of bytes");
  if (O.Block.y != 1 || O.Block.z != 1)
    usageError(O, "histogram_global takes a 1-D block (--block N)");
  cudaDeviceProp Prop = requireDevice();

  const long N = O.Size;
  std::vector<unsigned char> Data = ref::byteVector(N, 10);
  DeviceBuffer<unsigned char> DData(Data);
  DeviceBuffer<unsigned> DHist(Bins);
  dim3 Grid(gridStrideBlocks(O, Prop, histogramGlobal, N));
  float Ms = timeMedian(
      O.Repeat, [&] { DHist.zero(); },
      [&] { histogramGlobal<<<Grid, O.Block>>>(DData.get(), N, DHist.get()); });

  CheckResult Check = CheckResult::None;
  if (O.Check) {
    std::vector<unsigned> Want(Bins);
    ref::histogram256(Data.data(), N, Want.data());
    std::vector<unsigned> Got = DHist.download();
    ref::CompareResult R = ref::compareArrays(Got.data(), Want.data(), Bins, 0.0, 0.0);
    if (!R.Ok)
      std::fprintf(stderr, "histogram_global: bin %zu: got %g, want %g\n",
                   R.Index, R.Got, R.Want);
    Check = R.Ok ? CheckResult::Pass : CheckResult::Fail;
  }
  return report(O, "histogramGlobal", O.Block, Grid, Ms, Check);
}
