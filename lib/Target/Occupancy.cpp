//===- Occupancy.cpp - Resident blocks per SM -----------------------------===//
//
// Our own implementation of the algorithm NVIDIA's cuda_occupancy.h documents
// for cudaOccMaxActiveBlocksPerMultiprocessor and
// cudaOccMaxPotentialOccupancyBlockSize, driven by GPUSpec data instead of
// per-architecture switch tables. unittests/Target/OccupancyOracleTest.cpp
// compares every result with the header itself.
//
// The four limits, each in blocks per SM:
//  - warps:     (MaxThreadsPerSM / WarpSize) / warps per block; 0 when the
//               block exceeds MaxThreadsPerBlock;
//  - blocks:    MaxBlocksPerSM;
//  - registers: registers are allocated per warp in units of RegAllocUnitSize;
//               the register file is split evenly across the SchedulersPerSM
//               sub-partitions and a warp lives in one of them, so the SM holds
//               floor(RegsPerSM / Sub / RegsPerWarp) * Sub warps. A block is
//               rejected when its registers exceed RegistersPerBlock, counting
//               its warps rounded up to a multiple of Sub (the hardware check);
//  - shared:    a block's bytes plus the per-block driver reservation, rounded
//               up to SharedAllocUnit; the SM's shared size is the preferred
//               carveout (default: the largest) rounded up to a legal carveout,
//               or, when one block does not fit in it, the smallest legal
//               carveout that holds one block.
//
//===----------------------------------------------------------------------===//

#include "flipflop/Target/Occupancy.h"
#include <algorithm>
#include <cstdint>

namespace flipflop {
namespace {

uint64_t divUp(uint64_t X, uint64_t Y) { return (X + Y - 1) / Y; }
uint64_t roundUp(uint64_t X, uint64_t Y) { return divUp(X, Y) * Y; }

/// The smallest legal per-SM shared memory size (carveout) holding \p Bytes.
/// Returns false when none does.
bool alignUpToCarveout(const GPUSpec &GPU, uint64_t Bytes, uint64_t &Out) {
  if (GPU.SharedCarveoutsKB.empty()) {
    if (Bytes > GPU.SharedPerSM)
      return false;
    Out = GPU.SharedPerSM;
    return true;
  }
  uint64_t Best = UINT64_MAX;
  for (unsigned KB : GPU.SharedCarveoutsKB) {
    uint64_t Size = uint64_t(KB) * 1024;
    if (Size >= Bytes)
      Best = std::min(Best, Size);
  }
  if (Best == UINT64_MAX)
    return false;
  Out = Best;
  return true;
}

/// The shared memory per SM the user's carveout preference asks for.
bool preferredSharedPerSM(const GPUSpec &GPU, int CarveoutPercent,
                          uint64_t &Out) {
  uint64_t Want = GPU.SharedPerSM;
  if (CarveoutPercent >= 0)
    Want = uint64_t(std::min(CarveoutPercent, 100)) * GPU.SharedPerSM / 100;
  return alignUpToCarveout(GPU, Want, Out);
}

/// Registers limit; also reports the registers allocated per block.
unsigned regsLimit(const GPUSpec &GPU, unsigned Regs, uint64_t WarpsPerBlock,
                   uint64_t &RegsPerBlock, unsigned MaxRegsPerThread) {
  uint64_t Sub = std::max(GPU.SchedulersPerSM, 1u);
  uint64_t Unit = std::max(GPU.RegAllocUnitSize, 1u);
  uint64_t PerWarp = roundUp(uint64_t(Regs) * GPU.WarpSize, Unit);
  RegsPerBlock = PerWarp * WarpsPerBlock;
  uint64_t HardwareCheck = PerWarp * roundUp(WarpsPerBlock, Sub);
  if (HardwareCheck > GPU.RegistersPerBlock ||
      RegsPerBlock > GPU.RegistersPerBlock || Regs > MaxRegsPerThread)
    return 0;
  if (PerWarp == 0)
    return OccNoLimit;
  uint64_t WarpsPerSub = (GPU.RegistersPerSM / Sub) / PerWarp;
  return unsigned(WarpsPerSub * Sub / WarpsPerBlock);
}

} // namespace

const char *occLimiterName(OccLimiter L) {
  switch (L) {
  case OccLimiter::None:
    return "none";
  case OccLimiter::Warps:
    return "warps";
  case OccLimiter::Blocks:
    return "blocks";
  case OccLimiter::Registers:
    return "registers";
  case OccLimiter::SharedMemory:
    return "shared memory";
  }
  return "none";
}

OccupancyResult computeOccupancy(const GPUSpec &GPU, const OccupancyInput &In) {
  OccupancyResult R;
  if (In.BlockThreads == 0 || GPU.WarpSize == 0)
    return R;
  uint64_t Warps = divUp(In.BlockThreads, GPU.WarpSize);

  // Warps.
  R.LimitByWarps = In.BlockThreads > GPU.MaxThreadsPerBlock
                       ? 0
                       : unsigned((GPU.MaxThreadsPerSM / GPU.WarpSize) / Warps);
  // Blocks.
  R.LimitByBlocks = GPU.MaxBlocksPerSM;
  // Registers.
  uint64_t RegsPerBlock = 0;
  R.LimitByRegs = regsLimit(GPU, In.RegsPerThread, Warps, RegsPerBlock,
                            GPU.MaxRegistersPerThread);
  R.RegsAllocatedPerBlock =
      unsigned(std::min<uint64_t>(RegsPerBlock, UINT_MAX));

  // Shared memory.
  uint64_t Unit = std::max(GPU.SharedAllocUnit, 1u);
  uint64_t Alloc =
      roundUp(uint64_t(In.SharedPerBlock) + GPU.SharedReservedPerBlock, Unit);
  R.SharedAllocatedPerBlock = Alloc;
  uint64_t BlockCap = std::max(GPU.SharedPerBlock, GPU.SharedPerBlockOptin);
  // From Ampere on the per-block limit counts the driver's reservation.
  if (GPU.CCMajor >= 8)
    BlockCap += GPU.SharedReservedPerBlock;
  uint64_t Preferred = 0;
  bool Valid = preferredSharedPerSM(GPU, In.CarveoutPercent, Preferred);
  R.SharedPerSMConfigured = Preferred;
  if (!Valid) {
    R.LimitBySmem = 0;
  } else if (In.SharedPerBlock > GPU.SharedPerBlockOptin || Alloc > BlockCap) {
    R.LimitBySmem = 0;
  } else {
    uint64_t PerSM = Preferred;
    // The preference yields when one block does not fit in it.
    if (Preferred < Alloc && !alignUpToCarveout(GPU, Alloc, PerSM))
      PerSM = 0, Valid = false;
    R.SharedPerSMConfigured = PerSM;
    if (!Valid)
      R.LimitBySmem = 0;
    else if (Alloc == 0)
      R.LimitBySmem = OccNoLimit;
    else
      R.LimitBySmem = unsigned(std::min<uint64_t>(PerSM / Alloc, UINT_MAX));
  }

  R.BlocksPerSM =
      std::min({R.LimitByWarps, R.LimitByBlocks, R.LimitByRegs, R.LimitBySmem});
  R.ActiveWarps = unsigned(R.BlocksPerSM * Warps);
  R.Occupancy =
      GPU.MaxWarpsPerSM ? double(R.ActiveWarps) / GPU.MaxWarpsPerSM : 0.0;
  if (R.BlocksPerSM == R.LimitByWarps)
    R.Limiter = OccLimiter::Warps;
  else if (R.BlocksPerSM == R.LimitByBlocks)
    R.Limiter = OccLimiter::Blocks;
  else if (R.BlocksPerSM == R.LimitByRegs)
    R.Limiter = OccLimiter::Registers;
  else
    R.Limiter = OccLimiter::SharedMemory;
  return R;
}

HeuristicResult occupancyHeuristic(const GPUSpec &GPU, unsigned RegsPerThread,
                                   size_t StaticShared, size_t DynamicShared,
                                   unsigned BlockSizeLimit,
                                   int CarveoutPercent,
                                   size_t DynamicSharedPerThread) {
  HeuristicResult H;
  if (GPU.WarpSize == 0)
    return H;
  unsigned Limit = GPU.MaxThreadsPerBlock;
  if (BlockSizeLimit != 0)
    Limit = std::min(Limit, BlockSizeLimit);
  uint64_t BestThreads = 0;
  unsigned BestBlocks = 0;
  OccupancyInput In;
  In.RegsPerThread = RegsPerThread;
  In.SharedPerBlock = StaticShared + DynamicShared;
  In.CarveoutPercent = CarveoutPercent;
  for (int64_t Aligned = int64_t(roundUp(Limit, GPU.WarpSize)); Aligned > 0;
       Aligned -= GPU.WarpSize) {
    In.BlockThreads = unsigned(std::min<int64_t>(Limit, Aligned));
    In.SharedPerBlock = StaticShared + DynamicShared +
                        DynamicSharedPerThread * In.BlockThreads;
    OccupancyResult R = computeOccupancy(GPU, In);
    uint64_t Threads = uint64_t(In.BlockThreads) * R.BlocksPerSM;
    if (Threads > BestThreads) {
      BestThreads = Threads;
      BestBlocks = R.BlocksPerSM;
      H.BlockSize = In.BlockThreads;
      H.Occ = R;
    }
    if (BestThreads == GPU.MaxThreadsPerSM)
      break;
  }
  H.MinGridSize = BestBlocks * GPU.SMCount;
  return H;
}

unsigned registerCapForBounds(const GPUSpec &GPU, unsigned MaxThreads,
                              unsigned MinBlocks) {
  unsigned MaxRegs = GPU.MaxRegistersPerThread;
  if (MaxThreads == 0 || GPU.WarpSize == 0)
    return MaxRegs;
  // ptxas ignores an unreachable .minnctapersm (with a warning).
  if (MinBlocks == 0 || MinBlocks > GPU.MaxBlocksPerSM ||
      uint64_t(MinBlocks) * MaxThreads > GPU.MaxThreadsPerSM)
    MinBlocks = 1;
  uint64_t Warps = divUp(MaxThreads, GPU.WarpSize);
  unsigned Step = std::max(GPU.RegAllocUnitSize / GPU.WarpSize, 1u);
  // Try every multiple of the per-thread allocation step from the top.
  for (unsigned Regs = unsigned(roundUp(MaxRegs, Step)); Regs >= Step;
       Regs -= Step) {
    uint64_t PerBlock = 0;
    // The per-thread maximum clamps the result, not the search.
    unsigned Limit = regsLimit(GPU, Regs, Warps, PerBlock, UINT_MAX);
    if (Limit >= MinBlocks)
      return std::min(Regs, MaxRegs);
  }
  return 0;
}

} // namespace flipflop
