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
static std::vector<double> siblingShare(const std::vector<MemAccess> &As) {
  std::vector<double> Share(As.size(), 1.0);
  std::map<std::tuple<unsigned, int64_t, double, unsigned, int64_t>,
           std::vector<size_t>>
      Groups;
  for (size_t I = 0; I < As.size(); ++I) {
    const MemAccess &A = As[I];
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
  std::map<std::tuple<unsigned, unsigned, std::array<int64_t, 9>,
                      std::array<int64_t, 4>, std::array<unsigned, 4>,
                      unsigned, int64_t, double, unsigned>,
           std::vector<size_t>>
      Groups;
  for (size_t I = 0; I < As.size(); ++I) {
    const MemAccess &A = As[I];
    if (A.IsStore || A.IsAtomic || A.Pattern != AccessPattern::Coalesced ||
        A.LaneMod || (A.BlockDims & AddrDependsOnData) ||
        (A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic) ||
        std::llabs(A.StrideBytes) > int64_t(A.Bytes) || A.StrideBytes == 0)
      continue;
    const AddrForm &F = A.Form;
    std::array<int64_t, 9> Idx{};
    std::array<int64_t, 4> Steps{};
    std::array<unsigned, 4> Ids{};
    unsigned Key = 0;
    if (F.Known && F.Array) {
      for (unsigned D = 0; D < 3; ++D) {
        Idx[D] = F.Tid[D];
        Idx[3 + D] = F.Ctaid[D];
        Idx[6 + D] = F.Global[D];
      }
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
    auto Off = [&](size_t I) {
      return As[I].Form.Known && As[I].Form.Array ? As[I].Form.Offset
                                                  : As[I].Offset;
    };
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

/// L2 bytes per thread of the global access \p A launched as \p C, and
/// its DRAM bytes (before re-reads; rereadDramBytes adds those): sectors
/// per request, rows of narrow blocks, in-block and inter-block reuse, with
/// \p Sibling the share of its lines its sibling loads leave it.
static GlobalTraffic accessTraffic(const MemAccess &A, const LaunchConfig &C,
                                   double Sibling) {
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
  // A loop that steps a coalesced run by less than its length: each pass
  // reads mostly what the previous one brought into L1, and the passes
  // together move the union of their runs (docs/MODEL.md "Overlapping
  // windows").
  double Passes = std::floor(A.InnerLoopTrip);
  if (!A.IsStore && !A.IsAtomic && A.Pattern == AccessPattern::Coalesced &&
      !A.LaneMod && A.StrideBytes != 0 &&
      std::llabs(A.StrideBytes) <= int64_t(A.Bytes) &&
      !(A.BlockDims & AddrDependsOnData) && A.InnerLoopStep != 0 &&
      Passes >= 2) {
    double Run = warpRun(A, C);
    double Step = double(std::llabs(A.InnerLoopStep));
    if (Step < Run)
      Sibling *= std::min(1.0, runSectors(0, Run + (Passes - 1) * Step) /
                                   (Passes * runSectors(0, Run)));
  }
  double PerLane = Sectors * 32.0 / 32.0 * Sibling; // Bytes per lane.
  double Count = A.LoopInvariant ? std::min(A.Count, 1.0) : A.Count;
  GlobalTraffic T;
  T.L2 = PerLane * Count / InBlock;
  if (A.Pattern != AccessPattern::Uniform && !A.IsAtomic)
    T.Dram = T.L2 * (A.ReusedAcrossBlocks ? 1 - mc::InterBlockL2HitRate : 1.0);
  return T;
}

GlobalTraffic modelimpl::globalTraffic(const KernelProfile &K,
                                       const LaunchConfig &C) {
  double L2B = 0, DramB = 0;
  bool Any = false;
  std::vector<double> Sibling = siblingShare(K.Accesses);
  std::vector<double> Window = windowShare(K.Accesses, C);
  for (size_t AI = 0; AI < K.Accesses.size(); ++AI) {
    const MemAccess &A = K.Accesses[AI];
    if (A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic)
      continue;
    Any = true;
    GlobalTraffic T = accessTraffic(A, C, Sibling[AI] * Window[AI]);
    L2B += T.L2;
    DramB += T.Dram;
  }
  if (!Any) {
    L2B = DramB = K.GlobalSectorBytes;
  }
  return {L2B, DramB};
}

namespace {
/// The bytes a set of blocks reads: Rows runs of Extent contiguous bytes.
struct Box {
  double Extent = 1, Rows = 1;
  /// Sectors are moved whole.
  static double sectors(double Bytes) { return std::ceil(Bytes / 32.0) * 32.0; }
  double bytes() const { return Rows * sectors(Extent); }
  /// Range values of an index, Step bytes apart: within the sectors the
  /// run already covers, the run grows; beyond them, each value is a run
  /// of its own (rows of a 2-D array).
  void add(double Step, double Range) {
    Step = std::fabs(Step);
    if (Step == 0 || Range <= 1)
      return;
    if (Step <= sectors(Extent))
      Extent += Step * (Range - 1);
    else
      Rows *= Range;
  }
};

/// One loop around a load that reads the load's data again.
struct RereadLevel {
  uint64_t Key; ///< The loop (or the copies of an unrolled one).
  double Share; ///< Share of the load's traffic that is this loop's re-reads.
};

/// Loads of one address form, array and offset read the same data: the
/// copies of a loop the compiler unrolled (an empty key: alone).
std::tuple<unsigned, int64_t, unsigned, std::array<int64_t, 9>,
           std::array<int64_t, 4>, std::array<double, 4>, unsigned, size_t>
copyKey(const MemAccess &A, size_t Index) {
  const AddrForm &F = A.Form;
  std::array<int64_t, 9> Idx;
  for (unsigned D = 0; D < 3; ++D) {
    Idx[D] = F.Tid[D];
    Idx[3 + D] = F.Ctaid[D];
    Idx[6 + D] = F.Global[D];
  }
  return {F.Array, F.Offset, A.Bytes, Idx, F.LoopStep, F.LoopTrip,
          F.NumLoops, F.Array ? 0 : Index + 1};
}
} // namespace

double modelimpl::rereadDramBytes(const KernelProfile &K, const GPUSpec &G,
                                  const LaunchConfig &C, double Resident) {
  // The resident blocks run on the SMs of every L2 partition, and each
  // partition keeps its own copy of what its SMs read (GPUSpec::L2Partitions).
  double L2Cap = G.L2SizeKB * 1024.0 / std::max(1u, G.L2Partitions);
  if (K.Rereads.empty() || L2Cap <= 0)
    return 0;
  // Resident blocks are consecutive in launch order, x first.
  double GX = std::max(1u, C.Grid[0]), GY = std::max(1u, C.Grid[1]);
  double NX = std::min(Resident, GX);
  double NY = std::min(std::ceil(Resident / GX), GY);
  std::vector<double> Sibling = siblingShare(K.Rereads);
  std::vector<double> Window = windowShare(K.Rereads, C);
  for (size_t I = 0; I < Sibling.size(); ++I)
    Sibling[I] *= Window[I];
  std::map<decltype(copyKey(K.Rereads[0], 0)), std::vector<size_t>> Groups;
  for (size_t AI = 0; AI < K.Rereads.size(); ++AI)
    Groups[copyKey(K.Rereads[AI], AI)].push_back(AI);
  std::map<uint64_t, double> LoopBytes;
  std::vector<std::pair<double, std::vector<RereadLevel>>> Work;
  for (auto &[Key, Members] : Groups) {
    const MemAccess &A = K.Rereads[Members.front()];
    const AddrForm &F = A.Form;
    // Where the copies meet: the innermost loop around all of them.
    unsigned Common = F.NumLoops;
    for (unsigned L = 0; L < F.NumLoops && Common == F.NumLoops; ++L)
      if (std::all_of(Members.begin(), Members.end(), [&](size_t M) {
            return K.Rereads[M].Form.LoopId[L] == F.LoopId[L];
          }))
        Common = L;
    // One block's data between two reads: the threads, then the loops
    // inside, innermost first.
    Box B;
    B.Extent = std::max(1u, A.Bytes);
    std::array<std::pair<double, double>, 3> Tids;
    for (unsigned D = 0; D < 3; ++D)
      Tids[D] = {std::fabs(double(F.Tid[D])), double(std::max(1u, C.Block[D]))};
    std::sort(Tids.begin(), Tids.end());
    for (auto &[Step, Range] : Tids)
      B.add(Step, Range);
    // What the resident blocks read of this box.
    auto ResidentBytes = [&](Box R) {
      for (unsigned D = 0; D < 2; ++D)
        R.add(double(F.Ctaid[D]) + double(F.Global[D]) * C.Block[D],
              D == 0 ? NX : NY);
      return R.bytes();
    };
    std::vector<RereadLevel> Levels;
    double Inner = 1; // Reads of the same data by the loops inside.
    // What the resident blocks read between two reads adds to the loop's.
    auto Reread = [&](uint64_t Key, double Times) {
      Levels.push_back({Key, (Times - 1) / (Inner * Times)});
      LoopBytes[Key] += ResidentBytes(B);
      Inner *= Times;
    };
    for (unsigned L = 0; L <= F.NumLoops; ++L) {
      // The copies read the same data one after the other, within one
      // iteration of the loop around them all.
      if (L == Common && Members.size() > 1)
        Reread(L < F.NumLoops ? 2 * uint64_t(F.LoopId[L]) + 1 : ~uint64_t(0),
               double(Members.size()));
      if (L == F.NumLoops)
        break;
      double Step = std::fabs(double(F.LoopStep[L]));
      double Trip = std::max(1.0, std::floor(F.LoopTrip[L]));
      // Its next iteration reads the sectors this one read.
      if (Trip > 1 && Step < Box::sectors(B.Extent))
        Reread(2 * uint64_t(F.LoopId[L]), Trip);
      B.add(Step, Trip);
    }
    if (Levels.empty())
      continue;
    double L2 = 0;
    for (size_t M : Members)
      L2 += accessTraffic(K.Rereads[M], C, Sibling[M]).L2;
    Work.push_back({L2, std::move(Levels)});
  }
  // A re-read hits while the loop's data fits the L2; beyond, a share
  // 1 - L2 / data of them misses (data swept cyclically through a cache of
  // random replacement).
  double Extra = 0;
  for (auto &[L2, Levels] : Work)
    for (const RereadLevel &Lv : Levels)
      Extra += L2 * Lv.Share *
               std::max(0.0, 1.0 - L2Cap / LoopBytes[Lv.Key]);
  return Extra;
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
