//===- OccupancyOracleTest.cpp - Ours vs NVIDIA's cuda_occupancy.h --------===//
//
// Compares computeOccupancy / occupancyHeuristic with NVIDIA's own header-only
// calculator for every GPU of the database whose compute capability the
// header knows. Built only when the CUDA toolkit provides cuda_occupancy.h
// (unittests/Target/CMakeLists.txt).
//
// The header is fed the device properties cudaGetDeviceProperties would
// report (from our table) but uses its own per-architecture tables (blocks
// per SM, allocation units, sub-partitions, carveouts), so a wrong entry of
// our table shows up as a mismatch. The kernel is described the way
// cudaOccFuncAttributes(cudaFuncAttributes) does (one barrier, opt-in shared
// memory limit) with the dynamic shared memory opted in to the maximum.
//
//===----------------------------------------------------------------------===//

#include "flipflop/Target/GPUDatabase.h"
#include "flipflop/Target/Occupancy.h"
#include "gtest/gtest.h"

#include <cuda_occupancy.h>

#include <climits>
#include <cstdio>
#include <string>

using namespace flipflop;

namespace {

cudaOccDeviceProp deviceProp(const GPUSpec &G) {
  cudaOccDeviceProp P;
  P.computeMajor = int(G.CCMajor);
  P.computeMinor = int(G.CCMinor);
  P.maxThreadsPerBlock = int(G.MaxThreadsPerBlock);
  P.maxThreadsPerMultiprocessor = int(G.MaxThreadsPerSM);
  P.regsPerBlock = int(G.RegistersPerBlock);
  P.regsPerMultiprocessor = int(G.RegistersPerSM);
  P.warpSize = int(G.WarpSize);
  P.sharedMemPerBlock = G.SharedPerBlock;
  P.sharedMemPerMultiprocessor = G.SharedPerSM;
  P.numSms = int(G.SMCount);
  P.sharedMemPerBlockOptin = G.SharedPerBlockOptin;
  P.reservedSharedMemPerBlock = G.SharedReservedPerBlock;
  return P;
}

cudaOccFuncAttributes funcAttrs(const GPUSpec &G, int Regs, size_t Static,
                                int MaxThreads = INT_MAX) {
  cudaOccFuncAttributes A;
  A.maxThreadsPerBlock = MaxThreads;
  A.numRegs = Regs;
  A.sharedSizeBytes = Static;
  A.partitionedGCConfig = PARTITIONED_GC_OFF;
  A.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  A.maxDynamicSharedSizeBytes =
      Static <= G.SharedPerBlockOptin ? G.SharedPerBlockOptin - Static : 0;
  A.numBlockBarriers = 1;
  return A;
}

unsigned fromInt(int V) { return V == INT_MAX ? OccNoLimit : unsigned(V); }

struct Counter {
  unsigned long Compared = 0, Mismatches = 0;
  void fail(const std::string &What) {
    if (++Mismatches <= 10)
      ADD_FAILURE() << What;
  }
};

/// Compares one occupancy query; returns false on a mismatch.
void compareOne(const GPUSpec &G, const cudaOccDeviceProp &Prop, int Threads,
                int Regs, size_t Smem, int Carveout, Counter &C) {
  cudaOccFuncAttributes Attr = funcAttrs(G, Regs, 0);
  cudaOccDeviceState State;
  State.carveoutConfig = Carveout;
  cudaOccResult Theirs;
  cudaOccError Err = cudaOccMaxActiveBlocksPerMultiprocessor(
      &Theirs, &Prop, &Attr, &State, Threads, Smem);
  OccupancyInput In;
  In.BlockThreads = unsigned(Threads);
  In.RegsPerThread = unsigned(Regs);
  In.SharedPerBlock = Smem;
  In.CarveoutPercent = Carveout;
  OccupancyResult Ours = computeOccupancy(G, In);
  ++C.Compared;
  auto Ctx = [&] {
    return G.Name + " threads=" + std::to_string(Threads) +
           " regs=" + std::to_string(Regs) + " smem=" + std::to_string(Smem) +
           " carveout=" + std::to_string(Carveout);
  };
  if (Err != CUDA_OCC_SUCCESS) {
    if (Ours.BlocksPerSM != 0)
      C.fail(Ctx() + ": header error " + std::to_string(Err) + ", ours " +
             std::to_string(Ours.BlocksPerSM));
    return;
  }
  if (Ours.BlocksPerSM != unsigned(Theirs.activeBlocksPerMultiprocessor) ||
      Ours.LimitByWarps != fromInt(Theirs.blockLimitWarps) ||
      Ours.LimitByBlocks != fromInt(Theirs.blockLimitBlocks) ||
      Ours.LimitByRegs != fromInt(Theirs.blockLimitRegs) ||
      Ours.LimitBySmem != fromInt(Theirs.blockLimitSharedMem) ||
      Ours.RegsAllocatedPerBlock !=
          unsigned(Theirs.allocatedRegistersPerBlock) ||
      Ours.SharedAllocatedPerBlock != Theirs.allocatedSharedMemPerBlock)
    C.fail(Ctx() + ": ours " + std::to_string(Ours.BlocksPerSM) + " (w" +
           std::to_string(Ours.LimitByWarps) + " b" +
           std::to_string(Ours.LimitByBlocks) + " r" +
           std::to_string(Ours.LimitByRegs) + " s" +
           std::to_string(Ours.LimitBySmem) + "), header " +
           std::to_string(Theirs.activeBlocksPerMultiprocessor) + " (w" +
           std::to_string(Theirs.blockLimitWarps) + " b" +
           std::to_string(Theirs.blockLimitBlocks) + " r" +
           std::to_string(Theirs.blockLimitRegs) + " s" +
           std::to_string(Theirs.blockLimitSharedMem) + ")");
}

bool headerKnows(const GPUSpec &G) {
  cudaOccDeviceProp Prop = deviceProp(G);
  cudaOccFuncAttributes Attr = funcAttrs(G, 32, 0);
  cudaOccDeviceState State;
  cudaOccResult R;
  return cudaOccMaxActiveBlocksPerMultiprocessor(
             &R, &Prop, &Attr, &State, 128, 0) != CUDA_OCC_ERROR_UNKNOWN_DEVICE;
}

const size_t SmemSizes[] = {
    0,      1,      127,    128,    1000,   4096,   8192,   12345,  16384,
    31744,  32768,  49152,  49153,  65536,  70000,  98304,  99999,  101376,
    101377, 102400, 132096, 166912, 166913, 200000, 232448, 232449, 300000};
const int Carveouts[] = {-1, 0, 1, 10, 25, 33, 50, 67, 75, 100};
const int SampleRegs[] = {0,  1,  8,  16, 24, 31,  32,  33,  40,  48,
                          56, 64, 72, 80, 96, 128, 129, 168, 200, 255};

TEST(OccupancyOracle, BlocksPerSMMatchesCudaOccupancyH) {
  Counter C;
  unsigned GPUs = 0;
  for (const GPUSpec &G : allGPUs()) {
    if (!headerKnows(G))
      continue;
    ++GPUs;
    cudaOccDeviceProp Prop = deviceProp(G);
    // Every block size 1..1024 x every register count 1..255, no shared.
    for (int Threads = 1; Threads <= 1024; ++Threads)
      for (int Regs = 1; Regs <= 255; ++Regs)
        compareOne(G, Prop, Threads, Regs, 0, -1, C);
    // Every block size with a spread of register counts, shared sizes and
    // carveouts (block sizes sampled on a 7-thread stride plus the edges).
    for (size_t Smem : SmemSizes)
      for (int Carveout : Carveouts)
        for (int Regs : SampleRegs) {
          for (int Threads = 1; Threads <= 1025; Threads += 7)
            compareOne(G, Prop, Threads, Regs, Smem, Carveout, C);
          for (int Threads : {32, 64, 128, 256, 512, 768, 1024})
            compareOne(G, Prop, Threads, Regs, Smem, Carveout, C);
        }
  }
  std::printf("[oracle] %u GPUs, %lu occupancy queries compared, %lu "
              "mismatches\n",
              GPUs, C.Compared, C.Mismatches);
  EXPECT_EQ(GPUs, allGPUs().size()) << "cuda_occupancy.h lacks some GPUs";
  EXPECT_EQ(C.Mismatches, 0u);
}

TEST(OccupancyOracle, HeuristicMatchesCudaOccupancyH) {
  Counter C;
  auto Compare = [&](const GPUSpec &G, const cudaOccDeviceProp &Prop, int Regs,
                     size_t Static, size_t Dynamic, int Limit, int Carveout) {
    cudaOccFuncAttributes Attr =
        funcAttrs(G, Regs, Static, Limit ? Limit : INT_MAX);
    cudaOccDeviceState State;
    State.carveoutConfig = Carveout;
    int MinGrid = -1, Block = -1;
    cudaOccError Err = cudaOccMaxPotentialOccupancyBlockSize(
        &MinGrid, &Block, &Prop, &Attr, &State, Dynamic);
    HeuristicResult Ours = occupancyHeuristic(
        G, unsigned(Regs), Static, Dynamic, unsigned(Limit), Carveout);
    ++C.Compared;
    if (Err != CUDA_OCC_SUCCESS) {
      MinGrid = 0;
      Block = 0;
    }
    if (Ours.BlockSize != unsigned(Block) ||
        Ours.MinGridSize != unsigned(MinGrid))
      C.fail(G.Name + " regs=" + std::to_string(Regs) + " static=" +
             std::to_string(Static) + " dynamic=" + std::to_string(Dynamic) +
             " limit=" + std::to_string(Limit) +
             " carveout=" + std::to_string(Carveout) + ": ours " +
             std::to_string(Ours.BlockSize) + "/" +
             std::to_string(Ours.MinGridSize) + ", header " +
             std::to_string(Block) + "/" + std::to_string(MinGrid) +
             (Err ? " (error)" : ""));
  };
  for (const GPUSpec &G : allGPUs()) {
    if (!headerKnows(G))
      continue;
    cudaOccDeviceProp Prop = deviceProp(G);
    for (int Regs = 0; Regs <= 255; ++Regs)
      Compare(G, Prop, Regs, 0, 0, 0, -1);
    for (size_t Smem : SmemSizes)
      for (int Carveout : {-1, 0, 25, 50, 100})
        for (int Limit : {0, 1000, 257, 100, 33, 1})
          for (int Regs : SampleRegs) {
            size_t Static = std::min<size_t>(Smem / 3, 48 * 1024);
            Compare(G, Prop, Regs, 0, Smem, Limit, Carveout);
            Compare(G, Prop, Regs, Static, Smem - Static, Limit, Carveout);
          }
  }
  std::printf("[oracle] %lu heuristic queries compared, %lu mismatches\n",
              C.Compared, C.Mismatches);
  EXPECT_EQ(C.Mismatches, 0u);
}

} // namespace
