//===- flipflop/Target/Occupancy.h - Resident blocks per SM ---------------===//
//
// Bit-exact with NVIDIA's cuda_occupancy.h
// (cudaOccMaxActiveBlocksPerMultiprocessor and
// cudaOccMaxPotentialOccupancyBlockSize) for the compute capabilities that
// header knows; see unittests/Target/OccupancyOracleTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_TARGET_OCCUPANCY_H
#define FLIPFLOP_TARGET_OCCUPANCY_H

#include "flipflop/Target/GPUSpec.h"
#include <climits>
#include <cstddef>

namespace flipflop {

/// A per-resource limit that does not apply (cuda_occupancy.h's INT_MAX, e.g.
/// the register limit of a kernel that uses no register).
constexpr unsigned OccNoLimit = UINT_MAX;

/// The one resource reported as limiting: None only for an invalid input
/// (BlockThreads == 0). When several limits tie, the hardware caps (Warps,
/// then Blocks) win over resources (Registers, then SharedMemory): a resource
/// limits occupancy only when it is strictly tighter than the caps.
enum class OccLimiter : unsigned {
  None,
  Warps,
  Blocks,
  Registers,
  SharedMemory
};
const char *occLimiterName(OccLimiter L);

/// The launch as cuda_occupancy.h sees it. The kernel is assumed to have
/// opted into the largest dynamic shared memory
/// (cudaFuncAttributeMaxDynamicSharedMemorySize = SharedPerBlockOptin -
/// static), so a block may use up to SharedPerBlockOptin bytes; more gives 0
/// blocks.
struct OccupancyInput {
  unsigned BlockThreads = 256;
  unsigned RegsPerThread = 32;
  size_t SharedPerBlock = 0; ///< Static + dynamic bytes.
  /// Preferred shared-memory carveout in percent of the maximum (0..100), or
  /// -1 for the driver default (cudaSharedmemCarveoutDefault).
  int CarveoutPercent = -1;
};

struct OccupancyResult {
  unsigned BlocksPerSM = 0;
  unsigned ActiveWarps = 0; ///< BlocksPerSM x warps per block.
  double Occupancy = 0;     ///< ActiveWarps / MaxWarpsPerSM.
  OccLimiter Limiter = OccLimiter::None;
  unsigned LimitByWarps = 0, LimitByBlocks = 0, LimitByRegs = 0,
           LimitBySmem = 0;
  size_t SharedPerSMConfigured = 0;   ///< The carveout the driver would pick.
  unsigned RegsAllocatedPerBlock = 0; ///< Registers allocated to one block.
  size_t SharedAllocatedPerBlock = 0; ///< Incl. reservation, rounded up.
};

/// Resident blocks per SM (cudaOccMaxActiveBlocksPerMultiprocessor).
OccupancyResult computeOccupancy(const GPUSpec &GPU, const OccupancyInput &In);

struct HeuristicResult {
  unsigned BlockSize = 0;
  unsigned MinGridSize = 0;
  OccupancyResult Occ;
};

/// NVIDIA's occupancy heuristic (cudaOccMaxPotentialOccupancyBlockSize) with a
/// dynamic shared memory per block of DynamicShared plus
/// DynamicSharedPerThread per thread (the VariableSMem form): the block size, from the largest
/// multiple of the warp size down, with the most resident threads per SM (the
/// first found wins ties), and MinGridSize = its blocks per SM x SMCount.
/// BlockSizeLimit 0 means the GPU's MaxThreadsPerBlock. BlockSize is 0 when no
/// block size can run.
HeuristicResult occupancyHeuristic(const GPUSpec &GPU, unsigned RegsPerThread,
                                   size_t StaticShared, size_t DynamicShared,
                                   unsigned BlockSizeLimit = 0,
                                   int CarveoutPercent = -1,
                                   size_t DynamicSharedPerThread = 0);

/// The register cap ptxas applies for __launch_bounds__(MaxThreads, MinBlocks)
/// (.maxntid / .minnctapersm): the largest multiple of RegAllocUnitSize /
/// WarpSize (8) registers per thread whose occupancy register limit (per-warp
/// allocation, register file split across SchedulersPerSM sub-partitions,
/// exactly as computeOccupancy) still admits MinBlocks blocks of MaxThreads
/// threads, clamped to MaxRegistersPerThread. ptxas ignores a MinBlocks that
/// exceeds MaxBlocksPerSM or MaxThreadsPerSM / MaxThreads; then, and when
/// MinBlocks is 0, the cap returned is the one that lets a single block fit
/// (ptxas's own .maxntid-only heuristic may choose fewer registers). Returns
/// MaxRegistersPerThread when MaxThreads is 0. See docs/GPUS.md for the ptxas
/// 13.0 measurements this rule reproduces.
unsigned registerCapForBounds(const GPUSpec &GPU, unsigned MaxThreads,
                              unsigned MinBlocks);

} // namespace flipflop

#endif
