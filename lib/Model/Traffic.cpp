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
/// the row once, not N times the stride. With \p Stores, the same of the
/// stores: the L2 merges their partial sectors before it writes them back.
static std::vector<double> siblingShare(const std::vector<MemAccess> &As,
                                        bool Stores = false) {
  std::vector<double> Share(As.size(), 1.0);
  std::map<std::tuple<unsigned, int64_t, double, unsigned, int64_t>,
           std::vector<size_t>>
      Groups;
  for (size_t I = 0; I < As.size(); ++I) {
    const MemAccess &A = As[I];
    if (!A.BaseId || A.IsStore != Stores || A.IsAtomic ||
        (A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic))
      continue;
    if (A.Pattern == AccessPattern::Strided &&
        std::llabs(A.StrideBytes) > int64_t(A.Bytes))
      Groups[{A.BaseId, A.StrideBytes, A.Count, A.LaneMod,
              A.LaneDivStrideBytes}]
          .push_back(I);
    // Fields of one gathered element (`p = pos[idx[j]]` of a float4 whose
    // x, y, z clang loads as a v2 and a scalar at +0 and +8): each lane's
    // sector once, windows of one sector.
    else if (!Stores && A.Pattern == AccessPattern::Unknown &&
             (A.BlockDims & AddrDependsOnData) && A.Bytes < 32)
      Groups[{A.BaseId, 32, A.Count, 0, 0}].push_back(I);
  }
  for (auto &[Key, Members] : Groups) {
    // Members sorted by offset, cut into windows of one lane stride: only
    // offsets inside one window fill each other's gaps.
    int64_t Stride = std::llabs(std::get<1>(Key));
    std::sort(Members.begin(), Members.end(), [&](size_t A, size_t B) {
      return As[A].Offset < As[B].Offset;
    });
    for (size_t Begin = 0; Begin < Members.size();) {
      size_t End = Begin;
      int64_t Start = As[Members[Begin]].Offset;
      double Covered = 0, Alone = 0;
      int64_t Reach = Start;
      while (End < Members.size() &&
             As[Members[End]].Offset < Start + Stride) {
        const MemAccess &A = As[Members[End]];
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

/// Sectors a run of bytes [Begin, End) covers, starting at a sector boundary
/// when Begin is 0.
static double runSectors(double Begin, double End) {
  return std::floor((End - 1) / 32.0) - std::floor(Begin / 32.0) + 1;
}

/// Bytes of one warp's coalesced run of \p A along x: its lanes there,
/// StrideBytes apart.
static double warpRun(const MemAccess &A, const LaunchConfig &C) {
  double Lanes = std::min<double>(32, std::max(1u, C.Block[0]));
  double Stride = double(std::llabs(A.StrideBytes));
  return Lanes * Stride + A.Bytes - Stride;
}

/// Bytes by which the rows among \p Lanes lanes (x first) of \p A spread
/// its run apart: a data-scaled coordinate moves row d's address
/// MemAccess::SmoothStepBytes[d] per step (0 without one).
static double smoothSpread(const MemAccess &A, const LaunchConfig &C,
                           double Lanes) {
  double Spread = 0;
  for (unsigned D = 0; D < 3; ++D) {
    double Ext = std::max(1u, C.Block[D]);
    double InSpan = std::min(Ext, std::max(1.0, Lanes));
    Lanes /= Ext;
    Spread += (InSpan - 1) * A.SmoothStepBytes[D];
  }
  return Spread;
}

/// A coalesced or narrowly strided access that a data-scaled coordinate
/// shifts (MemAccess::SmoothDims): its run starts anywhere in a sector.
static bool smoothRun(const MemAccess &A) {
  return A.SmoothDims &&
         (A.Pattern == AccessPattern::Coalesced ||
          A.Pattern == AccessPattern::Strided) &&
         !A.LaneMod && A.StrideBytes != 0 && std::llabs(A.StrideBytes) < 32;
}

/// Loads of one address but for a constant offset, each a coalesced run of
/// a warp (a sliding window unrolled into loads at +0, +4, ..., the inner
/// loop of a direct convolution or a stencil): their runs overlap, and the
/// L1 serves what an earlier one of them brought in. Per access, the share
/// of its sectors that the group's union does not already hold: the union's
/// sectors over the sum of the runs' own. A group is the loads of one
/// address form (the PTX front end: `AddrForm` with the offset set aside)
/// or, without a form, of one base and index terms (`MemAccess::BaseId`,
/// the IR's sibling key) with equal counts.
static std::vector<double> windowShare(const std::vector<MemAccess> &As,
                                       const LaunchConfig &C) {
  std::vector<double> Share(As.size(), 1.0);
  std::map<std::tuple<unsigned, unsigned, std::array<int64_t, 11>,
                      std::array<int64_t, 4>, std::array<unsigned, 4>,
                      unsigned, int64_t, double, unsigned>,
           std::vector<size_t>>
      Groups;
  // Offsets at the launch's block (a blockDim term moves them).
  std::vector<int64_t> Offs(As.size(), 0);
  for (size_t I = 0; I < As.size(); ++I) {
    const MemAccess &A = As[I];
    if (A.IsStore || A.IsAtomic || A.Pattern != AccessPattern::Coalesced ||
        A.LaneMod || (A.BlockDims & AddrDependsOnData) ||
        (A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic) ||
        std::llabs(A.StrideBytes) > int64_t(A.Bytes) || A.StrideBytes == 0)
      continue;
    const AddrForm F = formAtBlock(A.Form, C.Block, nullptr, &C.Grid);
    Offs[I] = F.Known && F.Array ? F.Offset : A.Offset;
    std::array<int64_t, 11> Idx{};
    std::array<int64_t, 4> Steps{};
    std::array<unsigned, 4> Ids{};
    unsigned Key = 0;
    if (F.Known && F.Array) {
      for (unsigned D = 0; D < 3; ++D) {
        Idx[D] = F.Tid[D];
        Idx[3 + D] = F.Ctaid[D];
        Idx[6 + D] = F.Global[D];
      }
      Idx[9] = F.Lane;
      Idx[10] = F.Warp;
      Steps = F.LoopStep;
      Ids = F.LoopId;
      Key = F.Array;
    } else if (A.BaseId) {
      Key = A.BaseId | 0x80000000u; // Apart from the forms' arrays.
    } else {
      continue;
    }
    Groups[{Key, A.Bytes, Idx, Steps, Ids, F.Known ? F.NumLoops : 0,
            A.StrideBytes, A.Count, unsigned(A.Space)}]
        .push_back(I);
  }
  for (auto &[Key, Members] : Groups) {
    if (Members.size() < 2)
      continue;
    auto Off = [&](size_t I) { return Offs[I]; };
    std::sort(Members.begin(), Members.end(),
              [&](size_t X, size_t Y) { return Off(X) < Off(Y); });
    double Run = warpRun(As[Members.front()], C);
    double Sum = 0, Union = 0, Lo = 0, Hi = -1;
    for (size_t I : Members) {
      // Runs start at a sector boundary on average; the offset moves them.
      double B = double(Off(I)), E = B + Run;
      Sum += runSectors(B, E);
      if (Hi < Lo || B >= Hi) {
        if (Hi >= Lo)
          Union += runSectors(Lo, Hi);
        Lo = B;
        Hi = E;
      } else {
        Hi = std::max(Hi, E);
      }
    }
    Union += runSectors(Lo, Hi);
    double F = Sum > 0 ? std::min(1.0, Union / Sum) : 1.0;
    for (size_t I : Members)
      Share[I] = F;
  }
  return Share;
}

double modelimpl::l1PassShare(const MemAccess &A, const LaunchConfig &C) {
  // A loop that steps a coalesced run by less than its length: each pass
  // reads mostly what the previous one brought into L1, and the passes
  // together move the union of their runs (docs/MODEL.md "Overlapping
  // windows").
  double Passes = std::floor(A.InnerLoopTrip);
  // Lanes a sector or more apart, or scattered by the data (a CSR row's
  // run, a thread's own chunk): each lane's sector holds the next passes'
  // elements while it moves less than a sector a pass, so the passes move
  // each lane's run once.
  bool OwnSectors =
      A.Pattern == AccessPattern::Unknown ||
      (A.Pattern == AccessPattern::Strided && !A.LaneMod &&
       std::llabs(A.StrideBytes) >= 32);
  if (OwnSectors && !A.IsStore && !A.IsAtomic && A.InnerLoopStep != 0 &&
      std::llabs(A.InnerLoopStep) < 32 && Passes >= 2) {
    double Step = double(std::llabs(A.InnerLoopStep));
    double Own = runSectors(0, std::max(1u, A.Bytes));
    return std::min(1.0, runSectors(0, A.Bytes + (Passes - 1) * Step) /
                             (Passes * Own));
  }
  if (A.IsStore || A.IsAtomic || A.Pattern != AccessPattern::Coalesced ||
      A.LaneMod || A.StrideBytes == 0 ||
      std::llabs(A.StrideBytes) > int64_t(A.Bytes) ||
      (A.BlockDims & AddrDependsOnData) || A.InnerLoopStep == 0 ||
      !(Passes >= 2))
    return 1.0;
  double Run = warpRun(A, C);
  double Step = double(std::llabs(A.InnerLoopStep));
  if (Step >= Run)
    return 1.0;
  return std::min(1.0, runSectors(0, Run + (Passes - 1) * Step) /
                           (Passes * runSectors(0, Run)));
}

/// A load from a table of known size (MemAccess::FootprintBytes) touches
/// no more sectors per request than the table has (docs/MODEL.md, "Small
/// tables").
static double tableSectors(const MemAccess &A, double Sectors) {
  if (!A.FootprintBytes || A.IsStore || A.IsAtomic)
    return Sectors;
  return std::min(Sectors,
                  std::max(1.0, std::ceil(double(A.FootprintBytes) / 32.0)));
}

GlobalTraffic modelimpl::accessTraffic(const MemAccess &A,
                                       const LaunchConfig &C, double Sibling) {
  double Sectors = tableSectors(
      A, A.SectorsPerRequest > 0
             ? A.SectorsPerRequest
             : sectorsPerRequest(A.Bytes, A.StrideBytes, A.Pattern));
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
  const double Pass = l1PassShare(A, C);
  Sibling *= Pass;
  if (smoothRun(A)) {
    // A data-scaled coordinate shifts the run by data: it starts anywhere
    // in a sector (1 + (run - 1) / 32 sectors on average), and its rows
    // read a little apart (smoothSpread), over that many more sectors.
    // Where the block's warps share their sectors (InBlock), the L2
    // delivers the union of all the block's rows, not one warp's.
    Sectors = std::max(Sectors, 1 + (warpRun(A, C) - 1) / 32.0);
    double SpreadLanes = 32;
    if (InBlock > 1)
      SpreadLanes = double(std::max(1u, C.Block[0])) *
                    std::max(1u, C.Block[1]) * std::max(1u, C.Block[2]);
    Sectors += smoothSpread(A, C, SpreadLanes) / 32.0;
  }
  double PerLane = Sectors * 32.0 / 32.0 * Sibling; // Bytes per lane.
  double Count = A.LoopInvariant ? std::min(A.Count, 1.0) : A.Count;
  GlobalTraffic T;
  T.L2 = PerLane * Count / InBlock;
  // A small table: a block brings it into L1 once, and every block reads
  // the same one, which the L2 keeps (the first reader's DRAM bytes only).
  bool SmallTable = A.FootprintBytes && !A.IsStore && !A.IsAtomic &&
                    double(A.FootprintBytes) <= mc::SmallTableBytes;
  if (SmallTable)
    T.L2 = std::min(T.L2, double(A.FootprintBytes) /
                              std::max(1u, C.blockThreads()));
  if (A.Pattern != AccessPattern::Uniform && !A.IsAtomic)
    T.Dram = T.L2 * (A.ReusedAcrossBlocks || SmallTable
                         ? 1 - mc::InterBlockL2HitRate
                         : 1.0);
  if (Pass > 0 && Pass < 1 && !A.IsStore && !A.IsAtomic)
    T.ReadL1Pass = T.L2 * (1 / Pass - 1);
  return T;
}

std::vector<double> modelimpl::neighbourShares(const std::vector<MemAccess> &As,
                                              const LaunchConfig &C) {
  std::vector<double> Share = siblingShare(As);
  std::vector<double> Window = windowShare(As, C);
  for (size_t I = 0; I < Share.size(); ++I)
    Share[I] *= Window[I];
  return Share;
}

std::vector<double>
modelimpl::storeSiblingShares(const std::vector<MemAccess> &As) {
  return siblingShare(As, /*Stores=*/true);
}

GlobalTraffic modelimpl::globalTraffic(const KernelProfile &K,
                                       const LaunchConfig &C) {
  GlobalTraffic Sum;
  bool Any = false;
  std::vector<double> Share = neighbourShares(K.Accesses, C);
  std::vector<double> StoreShare = storeSiblingShares(K.Accesses);
  for (size_t AI = 0; AI < K.Accesses.size(); ++AI) {
    const MemAccess &A = K.Accesses[AI];
    if (A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic)
      continue;
    Any = true;
    GlobalTraffic T = accessTraffic(A, C, Share[AI]);
    // Each store request goes to L2 with its own sectors; DRAM is written
    // their union.
    if (A.IsStore && !A.IsAtomic)
      T.Dram *= StoreShare[AI];
    Sum.L2 += T.L2;
    Sum.Dram += T.Dram;
    if (!A.IsStore && !A.IsAtomic)
      Sum.LoadDram += T.Dram;
    if (!A.IsStore || A.IsAtomic) {
      Sum.ReadL2 += T.L2;
      Sum.ReadDram += T.Dram;
      Sum.ReadL1Pass += T.ReadL1Pass;
    }
  }
  if (!Any)
    Sum.L2 = Sum.Dram = Sum.ReadL2 = Sum.ReadDram = K.GlobalSectorBytes;
  return Sum;
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
    // A bulk copy's global side: the copy engine moves it between the L2
    // and shared memory, past the L1 (its shared side is counted there).
    if ((A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic) ||
        A.Bulk)
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
    // Rows of a data-scaled coordinate: their run spreads over more lines.
    double Spread = smoothSpread(A, C, PassLanes);
    double Lines;
    if ((A.Pattern == AccessPattern::Coalesced ||
         A.Pattern == AccessPattern::Strided) &&
        A.LaneMod) {
      // Rows of a tile: the lines each pass's thread indices touch.
      double PassWaves = 0;
      for (unsigned P = 0; P < unsigned(Passes); ++P)
        PassWaves += std::max(
            1.0, laneLines(A, P * unsigned(PassLanes), unsigned(PassLanes)));
      Waves += Count * (PassWaves + Passes * Spread / 128.0);
      continue;
    }
    // (A stride of 0 that is not uniform is the IR's symbolic one: its
    // sectors say how far apart the lanes are.)
    if (A.Pattern == AccessPattern::Coalesced ||
        (A.Pattern == AccessPattern::Strided && A.StrideBytes != 0)) {
      double Step = std::max(Bytes, double(std::llabs(A.StrideBytes)));
      Lines = Distinct * std::min(Step, 128.0) / 128.0;
    } else {
      double Sectors = tableSectors(
          A, A.SectorsPerRequest > 0
                 ? A.SectorsPerRequest
                 : sectorsPerRequest(A.Bytes, A.StrideBytes, A.Pattern));
      Lines = Sectors / Passes * Distinct / PassLanes * 32.0 / 128.0;
    }
    Waves += Count * Passes * (std::max(1.0, Lines) + Spread / 128.0);
  }
  return Waves;
}

/// Sectors a data-shifted run touches beyond its aligned count, per warp
/// (loop weighted): 1 + (run - 1)/32 + its rows' spread / 32 against
/// ceil(run / 32) (docs/MODEL.md, "Issue time", session 28).
double modelimpl::misalignedSectors(const KernelProfile &K,
                                    const LaunchConfig &C) {
  double Extra = 0;
  for (const MemAccess &A : K.Accesses) {
    if ((A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic) ||
        !smoothRun(A))
      continue;
    double Run = std::max(1.0, warpRun(A, C));
    double Sectors = 1 + (Run - 1) / 32.0 + smoothSpread(A, C, 32) / 32.0;
    double Count = A.LoopInvariant ? std::min(A.Count, 1.0) : A.Count;
    Extra += Count * std::max(0.0, Sectors - std::ceil(Run / 32.0));
  }
  return Extra;
}
