//===- SharedMemory.cpp - Shared-memory wavefronts for a block shape ------===//
//
// Part of FlipFlop. See docs/MODEL.md, "Shared memory".
//
//===----------------------------------------------------------------------===//
//
// The shared-memory unit serves one wavefront of up to 32 banks x 4 bytes per
// clock. Lanes of a warp that read the same 32-bit word are served together
// (broadcast); distinct words in one bank serialise (a conflict). Which lanes
// read the same word depends on the block shape: a warp of a 16 x 8 block
// holds two rows of 16 threads, so an address that depends on threadIdx.x
// only has 16 distinct values in it, not 32. The profile cannot know the
// shape, so the ways are counted here for each configuration.
//
//===----------------------------------------------------------------------===//

#include "flipflop/Model/SharedMemory.h"

#include <algorithm>
#include <cstdlib>

namespace flipflop {

namespace {

/// Wavefronts of one warp instruction of \p A, \p Bytes per lane.
double warpWavefronts(const MemAccess &A, unsigned Bytes,
                      const std::array<unsigned, 3> &Block) {
  // One word for the whole warp (a broadcast), unless the rows of the warp
  // read words of their own (sh[threadIdx.y][k] with 16-wide blocks: a warp
  // spans rows where the block's width is not a multiple of 32).
  const bool Rows = A.RowStepsKnown && !A.LaneMod && (A.ThreadDims & 6u) &&
                    Block[0] % 32 != 0;
  if (A.Pattern == AccessPattern::Uniform && !Rows)
    return 1;
  int64_t Stride = std::llabs(A.StrideBytes);
  if (A.Pattern == AccessPattern::Unknown ||
      (Stride == 0 && !A.LaneMod && !A.RowStepsKnown))
    return std::max(1u, A.BankConflictWays);
  const unsigned BX = std::max(1u, Block[0]), BY = std::max(1u, Block[1]);
  const unsigned Threads = BX * BY * std::max(1u, Block[2]);
  const unsigned Lanes = std::min(32u, Threads);
  // Wide accesses are served in passes of 128 bytes of lane data (16 lanes
  // of 8 bytes, 8 of 16); conflicts are counted within a pass. A row's
  // broadcast is a few words for the whole warp: one pass.
  const unsigned Width = std::clamp(Bytes, 1u, 16u);
  const unsigned PassLanes = A.Pattern == AccessPattern::Uniform
                                 ? 32
                                 : 128 / std::max(4u, Width);
  double Waves = 0;
  for (unsigned First = 0; First < Lanes; First += PassLanes) {
    int64_t Offsets[32];
    unsigned N = 0;
    for (unsigned L = First; L < std::min(Lanes, First + PassLanes); ++L) {
      uint64_t X = L % BX, Y = (L / BX) % BY, Z = L / (BX * BY);
      if (A.RowStepsKnown && !A.LaneMod) {
        // The front end found the steps between rows and planes (a shared
        // tile's row pitch, which padding changes): the lane's address.
        Offsets[N++] = ((A.ThreadDims & 1u) ? int64_t(X) * A.StrideBytes : 0) +
                       ((A.ThreadDims & 2u) ? int64_t(Y) * A.RowStepBytes[0]
                                            : 0) +
                       ((A.ThreadDims & 4u) ? int64_t(Z) * A.RowStepBytes[1]
                                            : 0);
        continue;
      }
      // Otherwise the lane's element index: the front ends give the stride
      // between neighbours in x; rows continue it (the linear thread index),
      // and a dimension the address does not depend on adds nothing
      // (broadcast).
      uint64_t Index = L;
      if (A.ThreadDimsKnown)
        Index = ((A.ThreadDims & 1u) ? X : 0) +
                ((A.ThreadDims & 2u) ? Y * BX : 0) +
                ((A.ThreadDims & 4u) ? Z * BX * BY : 0);
      Offsets[N++] = A.LaneMod ? laneOffsetBytes(A, Index)
                               : int64_t(Index) * Stride;
    }
    Waves += passBankWays(Offsets, N, Width);
  }
  return Waves;
}

} // namespace

SharedWork sharedWork(const KernelProfile &K,
                      const std::array<unsigned, 3> &Block) {
  SharedWork R;
  for (const MemAccess &A : K.Accesses) {
    if (A.Space != AddrSpace::Shared)
      continue;
    R.Wavefronts += A.Count * warpWavefronts(A, A.Bytes, Block);
    R.Any = true;
  }
  return R;
}

} // namespace flipflop
