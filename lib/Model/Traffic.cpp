//===- Traffic.cpp - Bytes and wavefronts of the global accesses ----------===//
//
// Per thread: the bytes between L2 and the SM and to DRAM (sectors per
// request, rows of blocks narrower than a warp, reuse in the block and across
// blocks, sibling loads that fill each other's gaps), and the L1 data-path
// wavefronts. docs/MODEL.md section 2.
//
//===----------------------------------------------------------------------===//
#include "ModelImpl.h"
#include <cstdlib>
#include <map>
#include <tuple>
#include <vector>

using namespace flipflop;
using namespace flipflop::modelimpl;

/// Sibling loads (same base pointer, stride and count; MemAccess::BaseId)
/// whose offsets fill the gaps of their lane stride: per access, the share
/// of its lines that the group does not already bring into L1. A thread
/// reading a contiguous row of N floats as N loads at lane stride 4N moves
/// the row once, not N times the stride.
static std::vector<double> siblingShare(const KernelProfile &K) {
  std::vector<double> Share(K.Accesses.size(), 1.0);
  std::map<std::tuple<unsigned, int64_t, double, unsigned, int64_t>,
           std::vector<size_t>>
      Groups;
  for (size_t I = 0; I < K.Accesses.size(); ++I) {
    const MemAccess &A = K.Accesses[I];
    if (A.BaseId && !A.IsStore && !A.IsAtomic &&
        A.Pattern == AccessPattern::Strided &&
        std::llabs(A.StrideBytes) > int64_t(A.Bytes) &&
        (A.Space == AddrSpace::Global || A.Space == AddrSpace::Generic))
      Groups[{A.BaseId, A.StrideBytes, A.Count, A.LaneMod,
              A.LaneDivStrideBytes}]
          .push_back(I);
  }
  for (auto &[Key, Members] : Groups) {
    // Members sorted by offset, cut into windows of one lane stride: only
    // offsets inside one window fill each other's gaps.
    int64_t Stride = std::llabs(std::get<1>(Key));
    std::sort(Members.begin(), Members.end(), [&](size_t A, size_t B) {
      return K.Accesses[A].Offset < K.Accesses[B].Offset;
    });
    for (size_t Begin = 0; Begin < Members.size();) {
      size_t End = Begin;
      int64_t Start = K.Accesses[Members[Begin]].Offset;
      double Covered = 0, Alone = 0;
      int64_t Reach = Start;
      while (End < Members.size() &&
             K.Accesses[Members[End]].Offset < Start + Stride) {
        const MemAccess &A = K.Accesses[Members[End]];
        int64_t B = std::max(A.Offset, Reach);
        int64_t E = std::min(A.Offset + int64_t(A.Bytes), Start + Stride);
        if (E > B) {
          Covered += double(E - B);
          Reach = E;
        }
        // Alone, each access moves its lane's sector(s).
        Alone += std::ceil(A.Bytes / 32.0) * 32.0;
        ++End;
      }
      // Together, the window's covered bytes once (at least one sector).
      double F = std::min(1.0, std::max(32.0, Covered) / Alone);
      for (size_t I = Begin; I < End; ++I)
        Share[Members[I]] = F;
      Begin = End;
    }
  }
  return Share;
}

GlobalTraffic modelimpl::globalTraffic(const KernelProfile &K,
                                       const LaunchConfig &C) {
  double L2B = 0, DramB = 0;
  bool Any = false;
  std::vector<double> Sibling = siblingShare(K);
  for (size_t AI = 0; AI < K.Accesses.size(); ++AI) {
    const MemAccess &A = K.Accesses[AI];
    if (A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic)
      continue;
    Any = true;
    double Sectors = A.SectorsPerRequest > 0
                         ? A.SectorsPerRequest
                         : sectorsPerRequest(A.Bytes, A.StrideBytes, A.Pattern);
    // A warp narrower than 32 in x spans 32/x rows: each row is its own
    // coalesced segment (2-D/3-D blocks).
    unsigned BX = C.Block[0];
    // In-block reuse: a load whose address does not depend on threadIdx.d
    // reads the same data in every thread along d. Lanes of one warp along
    // d share its sectors; other warps find them in L1.
    bool Shared = A.ThreadDimsKnown && !A.IsStore && !A.IsAtomic &&
                  !(A.BlockDims & AddrDependsOnData) &&
                  A.Pattern != AccessPattern::Uniform;
    bool RowsDiffer = !Shared || (A.ThreadDims & 6u) != 0;
    if (A.Pattern == AccessPattern::Coalesced && BX < 32 && C.Block[1] > 1 &&
        RowsDiffer) {
      double Rows = 32.0 / BX;
      double PerRow = std::ceil(BX * A.Bytes / 32.0);
      Sectors = std::max(Sectors, Rows * PerRow);
    }
    double InBlock = 1;
    if (Shared) {
      double WarpSpan = 32; // Lanes of a warp, x first.
      for (unsigned D = 0; D < 3; ++D) {
        double Ext = std::max(1u, C.Block[D]);
        double InWarp = std::min(Ext, std::max(1.0, WarpSpan));
        WarpSpan /= Ext;
        if (!(A.ThreadDims & (1u << D)))
          InBlock *= Ext / InWarp;
      }
    }
    double PerLane = Sectors * 32.0 / 32.0 * Sibling[AI]; // Bytes per lane.
    double Count = A.LoopInvariant ? std::min(A.Count, 1.0) : A.Count;
    L2B += PerLane * Count / InBlock;
    if (A.Pattern != AccessPattern::Uniform && !A.IsAtomic)
      DramB += PerLane * Count / InBlock *
               (A.ReusedAcrossBlocks ? 1 - mc::InterBlockL2HitRate : 1.0);
  }
  if (!Any) {
    L2B = DramB = K.GlobalSectorBytes;
  }
  return {L2B, DramB};
}

/// L1 data-path wavefronts per warp (loop weighted) of the global and
/// generic accesses, hits included. The L1 serves a warp request in passes
/// of 128 bytes of lane data (32 lanes of 4 bytes, 16 of 8, 8 of 16: the
/// CUDA guide's rule for 64- and 128-bit accesses), and each pass costs one
/// wavefront per 128-byte line its lanes touch. Lanes that share an address
/// (it does not depend on their threadIdx dimension) share a line within a
/// pass, not across passes.
double modelimpl::globalWavefronts(const KernelProfile &K,
                                   const LaunchConfig &C) {
  double Waves = 0;
  for (const MemAccess &A : K.Accesses) {
    if (A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic)
      continue;
    double Count = A.LoopInvariant ? std::min(A.Count, 1.0) : A.Count;
    double Bytes = std::clamp(double(A.Bytes), 1.0, 16.0);
    double PassLanes = std::min(32.0, 128.0 / std::max(4.0, Bytes));
    double Passes = 32.0 / PassLanes;
    if (A.Pattern == AccessPattern::Uniform) {
      Waves += Count * Passes;
      continue;
    }
    // Distinct addresses among one pass's lanes (x first).
    double Distinct = PassLanes, Span = PassLanes;
    for (unsigned D = 0; D < 3; ++D) {
      double Ext = std::max(1u, C.Block[D]);
      double InPass = std::min(Ext, std::max(1.0, Span));
      Span /= Ext;
      if (A.ThreadDimsKnown && !(A.BlockDims & AddrDependsOnData) &&
          !(A.ThreadDims & (1u << D)))
        Distinct /= InPass;
    }
    Distinct = std::max(1.0, Distinct);
    double Lines;
    if ((A.Pattern == AccessPattern::Coalesced ||
         A.Pattern == AccessPattern::Strided) &&
        !A.LaneMod) {
      double Step = std::max(Bytes, double(std::llabs(A.StrideBytes)));
      Lines = Distinct * std::min(Step, 128.0) / 128.0;
    } else {
      double Sectors = A.SectorsPerRequest > 0
                           ? A.SectorsPerRequest
                           : sectorsPerRequest(A.Bytes, A.StrideBytes,
                                               A.Pattern);
      Lines = Sectors / Passes * Distinct / PassLanes * 32.0 / 128.0;
    }
    Waves += Count * Passes * std::max(1.0, Lines);
  }
  return Waves;
}
