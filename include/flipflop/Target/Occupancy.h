//===- flipflop/Target/Occupancy.h - Resident blocks per SM ---------------===//
//
// Bit-exact with NVIDIA's cuda_occupancy.h (cudaOccMaxActiveBlocksPerMultiprocessor
// and cudaOccMaxPotentialOccupancyBlockSize) for the compute capabilities that
// header knows; see unittests/Target/OccupancyOracleTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_TARGET_OCCUPANCY_H
#define FLIPFLOP_TARGET_OCCUPANCY_H

#include "flipflop/Target/GPUSpec.h"
#include <cstddef>

namespace flipflop {

enum class OccLimiter : unsigned { None, Warps, Blocks, Registers, SharedMemory };
const char *occLimiterName(OccLimiter L);

struct OccupancyInput {
  unsigned BlockThreads = 256;
  unsigned RegsPerThread = 32;
  size_t SharedPerBlock = 0;   ///< Static + dynamic bytes.
  /// Preferred shared-memory carveout in percent of the maximum (0..100), or
  /// -1 for the driver default (cudaSharedmemCarveoutDefault).
  int CarveoutPercent = -1;
};

struct OccupancyResult {
  unsigned BlocksPerSM = 0;
  unsigned ActiveWarps = 0;      ///< BlocksPerSM x warps per block.
  double Occupancy = 0;          ///< ActiveWarps / MaxWarpsPerSM.
  OccLimiter Limiter = OccLimiter::None;
  unsigned LimitByWarps = 0, LimitByBlocks = 0, LimitByRegs = 0,
           LimitBySmem = 0;
  size_t SharedPerSMConfigured = 0; ///< The carveout the driver would pick.
};

/// Resident blocks per SM (cudaOccMaxActiveBlocksPerMultiprocessor).
OccupancyResult computeOccupancy(const GPUSpec &GPU, const OccupancyInput &In);

struct HeuristicResult {
  unsigned BlockSize = 0;
  unsigned MinGridSize = 0;
  OccupancyResult Occ;
};

/// NVIDIA's occupancy heuristic (cudaOccMaxPotentialOccupancyBlockSize) with a
/// fixed dynamic shared memory per block.
HeuristicResult occupancyHeuristic(const GPUSpec &GPU, unsigned RegsPerThread,
                                   size_t StaticShared, size_t DynamicShared,
                                   unsigned BlockSizeLimit = 0,
                                   int CarveoutPercent = -1);

/// The register cap ptxas applies for __launch_bounds__(MaxThreads, MinBlocks):
/// the largest per-thread count, rounded down to the allocation granularity,
/// that lets MinBlocks blocks of MaxThreads threads reside on one SM. Returns
/// the GPU's per-thread maximum when MinBlocks is 0.
unsigned registerCapForBounds(const GPUSpec &GPU, unsigned MaxThreads,
                              unsigned MinBlocks);

} // namespace flipflop

#endif
