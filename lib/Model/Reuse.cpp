//===- Reuse.cpp - Data read again: by loops and by neighbouring blocks ---===//
//
// The DRAM bytes that depend on what the L2 still holds when data is read
// again: a loop that sweeps again what its inner loops read (re-reads
// against the L2's capacity), and blocks whose reads overlap (the rows of a
// stencil's or a convolution's window that the next block reads too). Both
// read the address forms of the PTX (AddrForm). docs/MODEL.md, "Re-reads
// and the L2 capacity" and "Overlapping footprints".
//
//===----------------------------------------------------------------------===//
#include "ModelImpl.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <vector>

using namespace flipflop;
using namespace flipflop::modelimpl;

namespace {
/// Sectors are moved whole.
double sectors(double Bytes) { return std::ceil(Bytes / 32.0) * 32.0; }

/// The bytes a set of threads reads, as a lattice: a contiguous run of
/// Extent bytes repeated along levels of rows (stride, count), and Copies
/// disjoint copies of all that. A dimension (Range values Step bytes apart)
/// within the run's sectors lengthens the run; one that is a whole number
/// of a level's rows and within its span adds rows to it (the rows of a
/// filter window, of the block's threads and of the next block down are
/// one set of rows: 4 + 15 - 1 of them, not 4 x 15); any other starts a
/// level of its own.
struct Lattice {
  double Extent = 1;
  std::vector<std::pair<double, double>> Levels; ///< By stride, ascending.
  double Copies = 1;

  double bytes() const {
    double R = sectors(Extent) * Copies;
    for (auto &[S, N] : Levels)
      R *= N;
    return R;
  }

  void add(double Step, double Range) {
    Step = std::fabs(Step);
    if (Step == 0 || Range <= 1)
      return;
    if (Step <= sectors(Extent)) {
      Extent += Step * (Range - 1);
      joinRows();
      return;
    }
    for (auto &[S, N] : Levels) {
      double K = Step / S;
      if (K == std::floor(K) && Step <= S * N) {
        N += K * (Range - 1);
        return;
      }
    }
    Levels.push_back({Step, Range});
    std::sort(Levels.begin(), Levels.end());
  }

  /// A stride the lattice may take rows of later (a block term, when the
  /// offsets reach a neighbour's rows): a level of one row, unless the run
  /// or a level of a stride it is a whole number of already holds it.
  void declare(double Step) {
    Step = std::fabs(Step);
    if (Step <= sectors(Extent) || llvm::any_of(Levels, [&](auto &L) {
          double K = Step / L.first;
          return K == std::floor(K);
        }))
      return;
    Levels.push_back({Step, 1});
    std::sort(Levels.begin(), Levels.end());
  }

  /// The same reads at each of the constant byte offsets \p Offsets: an
  /// offset's whole rows of each level (largest first) widen that level to
  /// the bounding span of the shifted rows (rows beyond a block's own are
  /// its neighbours', which the block terms add later); what it leaves
  /// along the run shifts the run, and shifted runs that overlap or touch
  /// (within a sector) are one longer run; runs apart are copies (an
  /// unrolled loop's copies that read other rows of a matrix).
  void shift(const std::vector<int64_t> &Offsets) {
    if (Offsets.size() < 2)
      return;
    double Lo = double(*std::min_element(Offsets.begin(), Offsets.end()));
    std::vector<double> Cols, KLo(Levels.size(), 0), KHi(Levels.size(), 0);
    for (int64_t O : Offsets) {
      double R = double(O) - Lo;
      for (size_t L = Levels.size(); L-- > 0;) {
        double K = std::round(R / Levels[L].first);
        KLo[L] = std::min(KLo[L], K);
        KHi[L] = std::max(KHi[L], K);
        R -= K * Levels[L].first;
      }
      Cols.push_back(R);
    }
    for (size_t L = 0; L < Levels.size(); ++L)
      Levels[L].second += KHi[L] - KLo[L];
    std::sort(Cols.begin(), Cols.end());
    double Runs = 0, Longest = 0;
    for (size_t I = 0; I < Cols.size();) {
      double Begin = Cols[I], End = Cols[I] + Extent;
      for (++I; I < Cols.size() && Cols[I] <= End + 32; ++I)
        End = std::max(End, Cols[I] + Extent);
      Runs += 1;
      Longest = std::max(Longest, End - Begin);
    }
    Extent = std::max(Extent, Longest);
    Copies *= Runs;
    joinRows();
  }

private:
  /// A run that reaches the next row joins the rows into one run.
  void joinRows() {
    while (!Levels.empty() && Extent >= Levels.front().first) {
      Extent += Levels.front().first * (Levels.front().second - 1);
      Levels.erase(Levels.begin());
    }
  }
};

/// The index terms of a form: bytes per threadIdx, blockIdx and blockIdx *
/// blockDim.
std::array<int64_t, 11> indexTerms(const AddrForm &F) {
  std::array<int64_t, 11> Idx;
  for (unsigned D = 0; D < 3; ++D) {
    Idx[D] = F.Tid[D];
    Idx[3 + D] = F.Ctaid[D];
    Idx[6 + D] = F.Global[D];
  }
  Idx[9] = F.Lane;
  Idx[10] = F.Warp;
  return Idx;
}

/// Loads of one array and address form but for a constant offset: the same
/// reads shifted (the taps of a stencil or a filter, the copies of a loop
/// the compiler unrolled). Loads of no known array have none.
using FamilyKey =
    std::tuple<unsigned, unsigned, std::array<int64_t, 11>,
               std::array<int64_t, 4>, std::array<double, 4>, unsigned>;
FamilyKey familyKey(const MemAccess &A) {
  const AddrForm &F = A.Form;
  return {F.Array, A.Bytes, indexTerms(F), F.LoopStep, F.LoopTrip,
          F.NumLoops};
}

/// Loads of one family and offset read the same data: the copies of a loop
/// the compiler unrolled (a load of no known array: alone).
std::tuple<FamilyKey, int64_t, size_t> copyKey(const MemAccess &A,
                                               size_t Index) {
  return {familyKey(A), A.Form.Offset, A.Form.Array ? 0 : Index + 1};
}

/// The resident blocks' or the grid's blocks: \p N[d] blocks along d,
/// consecutive in launch order, added to \p Box (the reads of one block of
/// form \p F).
double blocksBytes(Lattice Box, const AddrForm &F, const LaunchConfig &C,
                   std::array<double, 3> N) {
  std::array<std::pair<double, double>, 3> Dims;
  for (unsigned D = 0; D < 3; ++D)
    Dims[D] = {
        std::fabs(double(F.Ctaid[D]) + double(F.Global[D]) * C.Block[D]),
        N[D]};
  std::sort(Dims.begin(), Dims.end());
  for (auto &[Step, Range] : Dims)
    Box.add(Step, Range);
  return Box.bytes();
}

/// One block's accesses of a family (\p Members of \p As): its threads
/// and its loops, then the members' offsets.
Lattice blockLattice(const std::vector<MemAccess> &As,
                     const std::vector<size_t> &Members,
                     const LaunchConfig &C) {
  const AddrForm &F = As[Members.front()].Form;
  std::vector<std::pair<double, double>> Dims = threadTerms(F, C.Block);
  for (unsigned L = 0; L < F.NumLoops; ++L)
    Dims.push_back({std::fabs(double(F.LoopStep[L])),
                    std::max(1.0, std::floor(F.LoopTrip[L]))});
  std::sort(Dims.begin(), Dims.end());
  Lattice Box;
  Box.Extent = std::max(1u, As[Members.front()].Bytes);
  for (auto &[Step, Range] : Dims)
    Box.add(Step, Range);
  // Offsets of whole rows of a block term (a stencil's neighbours along
  // y and z when the block is one row deep) are rows of that level.
  std::vector<double> Strides;
  for (const auto &T : threadTerms(F, C.Block))
    Strides.push_back(T.first);
  for (unsigned D = 0; D < 3; ++D) {
    Strides.push_back(
        std::fabs(double(F.Ctaid[D]) + double(F.Global[D]) * C.Block[D]));
  }
  std::sort(Strides.begin(), Strides.end());
  for (double S : Strides)
    Box.declare(S);
  std::vector<int64_t> Offsets;
  for (size_t M : Members)
    Offsets.push_back(As[M].Form.Offset);
  Box.shift(Offsets);
  return Box;
}

/// \p As with their forms at the launch's block and grid (formAtBlock): a
/// copy in \p Storage where one follows the launch (followsLaunch), else
/// \p As itself. \p RefShare (where given) gets each access's share
/// (formAtBlock): a footprint of its form times it is in the units of its
/// counts, which are the reference block's.
const std::vector<MemAccess> &formsAtBlock(const std::vector<MemAccess> &As,
                                           const LaunchConfig &C,
                                           std::vector<MemAccess> &Storage,
                                           std::vector<double> *RefShare =
                                               nullptr) {
  if (RefShare)
    RefShare->assign(As.size(), 1.0);
  if (llvm::none_of(As,
                    [](const MemAccess &A) { return followsLaunch(A.Form); }))
    return As;
  Storage = As;
  for (size_t I = 0; I < Storage.size(); ++I)
    Storage[I].Form = formAtBlock(As[I].Form, C.Block,
                                  RefShare ? &(*RefShare)[I] : nullptr,
                                  &C.Grid);
  return Storage;
}

/// One loop around a load that reads the load's data again.
struct RereadLevel {
  uint64_t Key; ///< The loop (or the copies of an unrolled one).
  double Share; ///< Share of the load's traffic that is this loop's re-reads.
};
} // namespace

double modelimpl::rereadDramBytes(const KernelProfile &K, const GPUSpec &G,
                                  const LaunchConfig &C, double Resident) {
  // The resident blocks run on the SMs of every L2 partition, and each
  // partition keeps its own copy of what its SMs read (GPUSpec::L2Partitions).
  double L2Cap = G.L2SizeKB * 1024.0 / std::max(1u, G.L2Partitions);
  std::vector<MemAccess> AtBlock;
  const std::vector<MemAccess> &As = formsAtBlock(K.FormLoads, C, AtBlock);
  if (As.empty() || L2Cap <= 0)
    return 0;
  // Resident blocks are consecutive in launch order, x first.
  double GX = std::max(1u, C.Grid[0]), GY = std::max(1u, C.Grid[1]);
  std::array<double, 3> NRes = {std::min(Resident, GX),
                                std::min(std::ceil(Resident / GX), GY), 1};
  std::vector<double> Share = neighbourShares(As, C);
  std::map<decltype(copyKey(As[0], 0)), std::vector<size_t>> Groups;
  std::map<FamilyKey, std::vector<int64_t>> FamilyOffsets;
  for (size_t AI = 0; AI < As.size(); ++AI) {
    Groups[copyKey(As[AI], AI)].push_back(AI);
    if (As[AI].Form.Array)
      FamilyOffsets[familyKey(As[AI])].push_back(As[AI].Form.Offset);
  }
  // A loop the compiler unrolled whole around an inner loop leaves one copy
  // of the inner loop per iteration, its loads a few bytes further on in
  // each (a tile loop stepping one element: nvcc keeps `for (ti)` with a
  // step of 1, clang writes four channel loops at +0, +1, +2, +3). Copies
  // in loops of their own within a sector of the group's first (Groups is
  // ordered by offset within a family) read the same sectors one after the
  // other: one group, counted as the loop would be. Loads at such offsets
  // in one loop body are siblings the L1 serves (neighbourShares).
  auto OwnLoops = [&](const std::vector<size_t> &X,
                      const std::vector<size_t> &Y) {
    for (size_t I : X)
      for (size_t J : Y)
        if (As[I].Form.LoopId[0] == As[J].Form.LoopId[0])
          return false;
    return true;
  };
  // Whether a load of family \p Key at another offset than \p Members'
  // sits in one of their innermost loops.
  auto sharesALoop = [&](const std::vector<size_t> &Members,
                         const FamilyKey &Key) {
    for (size_t J = 0; J < As.size(); ++J)
      if (As[J].Form.Array && familyKey(As[J]) == Key &&
          As[J].Form.Offset != As[Members.front()].Form.Offset &&
          llvm::any_of(Members, [&](size_t M) {
            return As[M].Form.LoopId[0] == As[J].Form.LoopId[0];
          }))
        return true;
    return false;
  };
  std::vector<std::vector<size_t>> Copies;
  for (auto &[Key, Members] : Groups) {
    const MemAccess &A = As[Members.front()];
    if (!Copies.empty() && A.Form.Array && A.Form.NumLoops > 0) {
      const MemAccess &First = As[Copies.back().front()];
      if (familyKey(A) == familyKey(First) &&
          A.Form.Offset - First.Form.Offset < 32 &&
          OwnLoops(Copies.back(), Members)) {
        Copies.back().insert(Copies.back().end(), Members.begin(),
                             Members.end());
        continue;
      }
    }
    Copies.push_back(Members);
  }
  std::map<uint64_t, double> LoopBytes;
  std::set<std::pair<FamilyKey, uint64_t>> Counted;
  std::vector<std::pair<double, std::vector<RereadLevel>>> Work;
  for (const std::vector<size_t> &Members : Copies) {
    const MemAccess &A = As[Members.front()];
    const AddrForm &F = A.Form;
    double Span = 0; // Bytes between the copies' first and last offsets.
    for (size_t M : Members)
      Span = std::max(Span, double(As[M].Form.Offset - F.Offset));
    // Where the copies meet: the innermost loop around all of them.
    unsigned Common = F.NumLoops;
    for (unsigned L = 0; L < F.NumLoops && Common == F.NumLoops; ++L)
      if (std::all_of(Members.begin(), Members.end(), [&](size_t M) {
            return As[M].Form.LoopId[L] == F.LoopId[L];
          }))
        Common = L;
    // One block's data between two reads: the threads, then the loops
    // inside, innermost first.
    Lattice B;
    B.Extent = std::max(1u, A.Bytes);
    std::vector<std::pair<double, double>> Tids = threadTerms(F, C.Block);
    std::sort(Tids.begin(), Tids.end());
    for (auto &[Step, Range] : Tids)
      B.add(Step, Range);
    std::vector<RereadLevel> Levels;
    double Inner = 1; // Reads of the same data by the loops inside.
    // What the resident blocks read between two reads adds to the loop's
    // data, once per family: its loads at other offsets read the same
    // lattice shifted.
    auto Reread = [&](uint64_t Key, double Times, bool Family = true) {
      Levels.push_back({Key, (Times - 1) / (Inner * Times)});
      Inner *= Times;
      if (!F.Array || !Family) {
        LoopBytes[Key] += blocksBytes(B, F, C, NRes);
        return;
      }
      if (!Counted.insert({familyKey(A), Key}).second)
        return;
      Lattice Fam = B;
      Fam.shift(FamilyOffsets[familyKey(A)]);
      LoopBytes[Key] += blocksBytes(Fam, F, C, NRes);
    };
    for (unsigned L = 0; L <= F.NumLoops; ++L) {
      // The copies read the same data one after the other, within one
      // iteration of the loop around them all; copies a few bytes apart
      // read the sectors their span leaves in common (as a loop of that
      // step, below).
      // Copies in no loop around them all (a row's passes one after the
      // other, in loops of their own) whose family's other offsets sit in
      // other loops (the next rows of an unrolled loop over rows) read
      // between them only their own data: each such group is its own key.
      if (L == Common && Members.size() > 1) {
        double Times = double(Members.size()) * sectors(B.Extent) /
                       sectors(B.Extent + Span);
        bool Apart = L == F.NumLoops && F.NumLoops > 0 &&
                     !sharesALoop(Members, familyKey(A));
        if (Times > 1)
          Reread(L < F.NumLoops ? 2 * uint64_t(F.LoopId[L]) + 1
                 : Apart        ? ~uint64_t(Members.front())
                                : ~uint64_t(0),
                 Times, !Apart);
      }
      if (L == F.NumLoops)
        break;
      double Step = std::fabs(double(F.LoopStep[L]));
      double Trip = std::max(1.0, std::floor(F.LoopTrip[L]));
      // Its next iterations read the sectors this one read: each sector
      // Trip times at step 0; at a step below the run's sectors, as often
      // as the loop's reads cover it (a table read 16 bytes a pass is read
      // twice a sector, not Trip times). Above the copies the run holds
      // their span. Passes the L1 serves (l1PassShare) never reach the L2:
      // its traffic is already their union.
      double Run = B.Extent + (L >= Common ? Span : 0);
      bool L1Passes = L == 0 && l1PassShare(A, C) < 1;
      if (Trip > 1 && Step < sectors(Run) && !L1Passes) {
        double Times = Trip * sectors(Run) / sectors(Run + Step * (Trip - 1));
        if (Times > 1)
          Reread(2 * uint64_t(F.LoopId[L]), Times);
      }
      B.add(Step, Trip);
    }
    if (Levels.empty())
      continue;
    double L2 = 0;
    for (size_t M : Members)
      L2 += accessTraffic(As[M], C, Share[M]).L2;
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

OverlapDram modelimpl::overlapDram(const KernelProfile &K, const GPUSpec &G,
                                   const LaunchConfig &C, double Resident,
                                   double L1PerBlock) {
  // The kernel's own accesses where they carry forms (the PTX front end),
  // so that each load's charge is the one globalTraffic made; else the
  // PTX's loads (the plugin: its accesses are the IR's).
  bool Own = llvm::any_of(K.Accesses, [](const MemAccess &A) {
    return A.Form.Known &&
           (A.Space == AddrSpace::Global || A.Space == AddrSpace::Generic);
  });
  std::vector<MemAccess> Formed;
  if (!Own) {
    Formed = K.FormLoads;
    Formed.insert(Formed.end(), K.FormStores.begin(), K.FormStores.end());
  }
  std::vector<MemAccess> AtBlock;
  std::vector<double> RefShare;
  const std::vector<MemAccess> &As =
      formsAtBlock(Own ? K.Accesses : Formed, C, AtBlock, &RefShare);
  double L2Cap = G.L2SizeKB * 1024.0 / std::max(1u, G.L2Partitions);
  OverlapDram Out;
  if (As.empty() || L2Cap <= 0)
    return Out;
  std::array<double, 3> Grid;
  double BlockThreads = 1;
  for (unsigned D = 0; D < 3; ++D) {
    Grid[D] = std::max(1u, C.Grid[D]);
    BlockThreads *= std::max(1u, C.Block[D]);
  }
  double Threads = BlockThreads * Grid[0] * Grid[1] * Grid[2];
  std::vector<double> Share = neighbourShares(As, C);
  std::vector<double> StoreShare = storeSiblingShares(As);
  std::vector<double> PassOf(As.size(), 1.0);
  // Accesses of one block run behind one set of checks: each set once.
  std::map<std::vector<unsigned>, double> SetPass;
  // Per family of loads (and of stores): the DRAM bytes per thread charged
  // to its members one by one, and its members.
  std::map<FamilyKey, std::pair<double, std::vector<size_t>>> Families,
      StoreFamilies;
  std::map<FamilyKey, double> FamilyL2; // L2 bytes charged one by one.
  for (size_t I = 0; I < As.size(); ++I) {
    const MemAccess &A = As[I];
    if ((A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic) ||
        A.IsAtomic)
      continue;
    // Behind bounds checks, the threads that pass make the access: what a
    // family saves is what its members charge beyond its union after the
    // checks (a halo load that 7 of 256 threads make saves their bytes,
    // not all threads'); the checks scale the rest (activeMemoryFraction).
    auto [It, New] = SetPass.try_emplace(A.Guards, 1.0);
    if (New)
      It->second = guardsPassShare(K, A.Guards, C.Block, C.Grid);
    double Pass = PassOf[I] = It->second;
    if (A.IsStore) {
      // Stores of one array and form: the L2 writes back whole sectors,
      // so what the block's stores fill between them goes to DRAM once.
      double Charged = accessTraffic(A, C, Share[I]).Dram * StoreShare[I];
      Out.StoreDram += Charged;
      if (A.Form.Known && A.Form.Array && !(A.BlockDims & AddrDependsOnData)) {
        auto &[Dram, Members] = StoreFamilies[familyKey(A)];
        Dram += Charged * Pass / RefShare[I];
        Members.push_back(I);
      }
      continue;
    }
    GlobalTraffic T = accessTraffic(A, C, Share[I]);
    double Charged = T.Dram;
    Out.LoadDram += Charged;
    Out.LoadL2 += T.L2;
    // Loads that every block along a dimension reads have their own rule
    // (the inter-block hit rate); broadcasts move no DRAM bytes.
    if (!A.Form.Known || !A.Form.Array || A.ReusedAcrossBlocks ||
        A.Pattern == AccessPattern::Uniform ||
        (A.BlockDims & AddrDependsOnData))
      continue;
    // The families' bytes are the launch's: a block-stride loop's charges
    // (at the reference block) over its share there.
    auto &[Dram, Members] = Families[familyKey(A)];
    Dram += Charged * Pass / RefShare[I];
    Members.push_back(I);
    FamilyL2[familyKey(A)] += T.L2 * Pass / RefShare[I];
  }
  auto familyPass = [&](const std::vector<size_t> &Members) {
    double P = 0;
    for (size_t M : Members)
      P = std::max(P, PassOf[M]);
    return P;
  };
  // Per family, the DRAM bytes per thread with reuse across blocks along
  // none, x, x and y, all of the grid's dimensions: Bytes[0] >= ... >=
  // Bytes[3]; Charged is what its loads are charged one by one.
  struct Bound {
    double Charged;
    std::array<double, 4> Bytes;
    double L2Charged; ///< Its loads' L2 bytes one by one.
    double Union;     ///< One block's reads over its threads.
  };
  double BlockFootprint = 0; // One block's reads, all families.
  std::vector<Bound> Bounds;
  // The blocks from one block to the nearest that reads its bytes again
  // along x, y, z (the next block, row of blocks, layer of blocks in
  // launch order), at least the resident ones; what they read, summed
  // over the families, is what the L2 must hold for that reuse.
  double NB = Grid[0] * Grid[1] * Grid[2];
  std::array<double, 3> Window = {
      std::max(Resident, 2.0), std::max(Resident, Grid[0] + 1),
      std::max(Resident, Grid[0] * Grid[1] + 1)};
  std::array<double, 3> Reuse{};
  for (auto &[Key, Fam] : Families) {
    auto &[Dram, Members] = Fam;
    const AddrForm &F = As[Members.front()].Form;
    Lattice Box = blockLattice(As, Members, C);
    // The footprints are every thread's; behind bounds checks, those of
    // the threads that pass (at most the member that runs most).
    double FP = familyPass(Members);
    // The block's own re-reads follow at once: the L2 holds them (loops
    // that sweep more than it holds are rereadDramBytes's).
    Bound B{Dram, {}, FamilyL2[Key], Box.bytes() / BlockThreads * FP};
    BlockFootprint += Box.bytes() * FP;
    B.Bytes[0] = std::min(Dram, Box.bytes() / BlockThreads * FP);
    B.Bytes[1] = std::min(B.Bytes[0], blocksBytes(Box, F, C, {Grid[0], 1, 1}) *
                                          Grid[1] * Grid[2] / Threads * FP);
    B.Bytes[2] = std::min(B.Bytes[1],
                          blocksBytes(Box, F, C, {Grid[0], Grid[1], 1}) *
                              Grid[2] / Threads * FP);
    B.Bytes[3] =
        std::min(B.Bytes[2], blocksBytes(Box, F, C, Grid) / Threads * FP);
    Bounds.push_back(B);
    for (unsigned D = 0; D < 3; ++D) {
      double W = std::min(Window[D], NB);
      Reuse[D] += blocksBytes(
          Box, F, C,
          {std::min(W, Grid[0]), std::min(std::ceil(W / Grid[0]), Grid[1]),
           std::min(std::ceil(W / (Grid[0] * Grid[1])), Grid[2])});
    }
  }
  // A block's stores write their union (each block its own outputs: no
  // reuse across blocks to count).
  for (auto &[Key, Fam] : StoreFamilies) {
    auto &[Dram, Members] = Fam;
    double Union = blockLattice(As, Members, C).bytes() / BlockThreads *
                   familyPass(Members);
    Out.StoreSaving += std::max(0.0, Dram - Union);
  }
  // The neighbours' reads that miss: data swept through a cache of random
  // replacement, as for the re-reads.
  std::array<double, 3> Miss;
  for (unsigned D = 0; D < 3; ++D)
    Miss[D] = Reuse[D] > 0 ? std::clamp(1.0 - L2Cap / Reuse[D], 0.0, 1.0)
                           : 0.0;
  // The block's own re-reads (its warps' overlapping rows) hit in the L1
  // while it holds the block's footprint, its share of the SM's L1; the
  // rest of them go to L2 as charged (random replacement, as above).
  double L1Miss = BlockFootprint > 0
                      ? std::clamp(1.0 - L1PerBlock / BlockFootprint, 0.0, 1.0)
                      : 1.0;
  for (const Bound &B : Bounds) {
    double Dram = B.Bytes[3];
    for (unsigned D = 0; D < 3; ++D)
      Dram += (B.Bytes[D] - B.Bytes[D + 1]) * Miss[D];
    Out.Saving += B.Charged - Dram;
    Out.Kept += Dram;
    if (B.L2Charged > B.Union)
      Out.L2Saving += (B.L2Charged - B.Union) * (1.0 - L1Miss);
  }
  return Out;
}
