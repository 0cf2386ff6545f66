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
#include "flipflop/Model/Model.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <vector>

namespace flipflop {

namespace {

/// Wavefronts of one warp instruction of \p A, \p Bytes per lane: the
/// warp whose first thread is \p First (its linear index in the block),
/// the lanes of \p Mask taking part.
double warpWavefronts(const MemAccess &A, unsigned Bytes,
                      const std::array<unsigned, 3> &Block, unsigned First = 0,
                      uint32_t Mask = ~0u) {
  if (!Mask)
    return 0;
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
  const unsigned Lanes = std::min(32u, Threads - std::min(Threads, First));
  // Wide accesses are served in passes of 128 bytes of lane data (16 lanes
  // of 8 bytes, 8 of 16); conflicts are counted within a pass. A row's
  // broadcast is a few words for the whole warp: one pass.
  const unsigned Width = std::clamp(Bytes, 1u, 16u);
  const unsigned PassLanes = A.Pattern == AccessPattern::Uniform
                                 ? 32
                                 : 128 / std::max(4u, Width);
  double Waves = 0;
  for (unsigned Pass = 0; Pass < Lanes; Pass += PassLanes) {
    int64_t Offsets[32];
    unsigned N = 0;
    for (unsigned L = Pass; L < std::min(Lanes, Pass + PassLanes); ++L) {
      if (!((Mask >> L) & 1u))
        continue;
      const uint64_t T = First + L;
      uint64_t X = T % BX, Y = (T / BX) % BY, Z = T / (BX * BY);
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
      uint64_t Index = T;
      if (A.ThreadDimsKnown)
        Index = ((A.ThreadDims & 1u) ? X : 0) +
                ((A.ThreadDims & 2u) ? Y * BX : 0) +
                ((A.ThreadDims & 4u) ? Z * BX * BY : 0);
      Offsets[N++] = A.LaneMod ? laneOffsetBytes(A, Index)
                               : int64_t(Index) * Stride;
    }
    if (N)
      Waves += passBankWays(Offsets, N, Width);
  }
  return Waves;
}

/// Whether check \p G reads only the thread's indices and the block's
/// dimensions (no block index, loop iteration or grid): the same threads
/// of every block pass it.
bool onThreads(const AffineGuard &G) {
  for (unsigned V = 0; V < NumGuardVars; ++V) {
    bool Thread = (V >= GVTid && V < GVTid + 3) ||
                  (V >= GVNtid && V < GVNtid + 3) || V == GVWarp ||
                  V == GVWarp + 1 || V == GVWarp + 3;
    if (G.Coef[V] && !Thread)
      return false;
  }
  return true;
}

/// Whether thread \p T (linear index in the block) passes \p G.
bool passes(const AffineGuard &G, const std::array<unsigned, 3> &Block,
            uint64_t T) {
  const uint64_t BX = std::max(1u, Block[0]), BY = std::max(1u, Block[1]);
  const uint64_t Tid[3] = {T % BX, (T / BX) % BY, T / (BX * BY)};
  double F = double(G.Const) + blockDimTerms(G.Coef, Block) +
             double(G.Coef[GVWarp]) * double(Tid[0] % 32) +
             double(G.Coef[GVWarp + 1]) * double(Tid[0] / 32);
  for (unsigned D = 0; D < 3; ++D)
    F += double(G.Coef[GVTid + D]) * double(Tid[D]);
  return G.Strict ? F < 0 : F <= 0;
}

} // namespace

SharedWork sharedWork(const KernelProfile &K,
                      const std::array<unsigned, 3> &Block,
                      const SharedChecks &C) {
  SharedWork R;
  const unsigned Threads =
      std::max(1u, Block[0]) * std::max(1u, Block[1]) * std::max(1u, Block[2]);
  const unsigned Warps = (Threads + 31) / 32;
  // Per set of checks on the threads: the lanes of each warp that pass.
  std::map<std::vector<unsigned>, std::vector<uint32_t>> Masks;
  auto MasksOf =
      [&](const std::vector<unsigned> &Set) -> const std::vector<uint32_t> * {
    auto [It, New] = Masks.try_emplace(Set);
    if (New) {
      for (unsigned GI : Set)
        if (GI >= K.Guards.size() || !K.Guards[GI].at(Block) ||
            !onThreads(K.Guards[GI]))
          return nullptr; // Masks[Set] stays empty: not per lane.
      It->second.assign(Warps, 0);
      for (unsigned T = 0; T < Threads; ++T)
        if (llvm::all_of(Set, [&](unsigned GI) {
              return passes(K.Guards[GI], Block, T);
            }))
          It->second[T / 32] |= 1u << (T % 32);
    }
    return It->second.empty() ? nullptr : &It->second;
  };
  for (const MemAccess &A : K.Accesses) {
    if (A.Space != AddrSpace::Shared)
      continue;
    R.Any = true;
    const bool Own = C.PerAccess && C.ActiveFraction > 0;
    const std::vector<uint32_t> *M =
        Own && !A.Guards.empty() ? MasksOf(A.Guards) : nullptr;
    double PerWarp = 0;
    if (M) {
      for (unsigned W = 0; W < Warps; ++W)
        PerWarp += warpWavefronts(A, A.Bytes, Block, 32 * W, (*M)[W]);
      PerWarp /= Warps;
    } else {
      PerWarp = warpWavefronts(A, A.Bytes, Block);
      if (Own && !A.Guards.empty())
        PerWarp *= guardsPassShare(K, A.Guards, Block, C.Grid);
    }
    if (Own)
      PerWarp /= C.ActiveFraction;
    R.Wavefronts += A.Count * PerWarp;
  }
  return R;
}

} // namespace flipflop
