//===- KernelProfile.cpp - Aggregates and helpers of the plain profile ----===//
#include "flipflop/Profile/KernelProfile.h"
#include "flipflop/Profile/PTXParser.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace flipflop {

const char *opClassName(OpClass C) {
  switch (C) {
  case OpClass::FP32:
    return "fp32";
  case OpClass::FP64:
    return "fp64";
  case OpClass::FP16:
    return "fp16";
  case OpClass::Int:
    return "int";
  case OpClass::IntMul:
    return "int.mul";
  case OpClass::SFU:
    return "sfu";
  case OpClass::Conv:
    return "conv";
  case OpClass::Shuffle:
    return "shuffle";
  case OpClass::Barrier:
    return "barrier";
  case OpClass::AtomicGlobal:
    return "atomic.global";
  case OpClass::AtomicShared:
    return "atomic.shared";
  case OpClass::LoadGlobal:
    return "load.global";
  case OpClass::StoreGlobal:
    return "store.global";
  case OpClass::LoadShared:
    return "load.shared";
  case OpClass::StoreShared:
    return "store.shared";
  case OpClass::LoadLocal:
    return "load.local";
  case OpClass::StoreLocal:
    return "store.local";
  case OpClass::LoadConst:
    return "load.const";
  case OpClass::LoadParam:
    return "load.param";
  case OpClass::LoadGeneric:
    return "load.generic";
  case OpClass::StoreGeneric:
    return "store.generic";
  case OpClass::Branch:
    return "branch";
  case OpClass::Tensor:
    return "tensor";
  case OpClass::Other:
    return "other";
  case OpClass::NumClasses:
    break;
  }
  return "invalid";
}

const char *accessPatternName(AccessPattern P) {
  switch (P) {
  case AccessPattern::Uniform:
    return "uniform";
  case AccessPattern::Coalesced:
    return "coalesced";
  case AccessPattern::Strided:
    return "strided";
  case AccessPattern::Unknown:
    return "unknown";
  }
  return "invalid";
}

unsigned LaunchBounds::maxThreads() const {
  auto Prod = [](const std::array<unsigned, 3> &A) {
    unsigned P = 1;
    bool Any = false;
    for (unsigned V : A)
      if (V) {
        P *= V;
        Any = true;
      }
    return Any ? P : 0u;
  };
  if (unsigned R = Prod(ReqNTid))
    return R;
  return Prod(MaxNTid);
}

bool LaunchBounds::any() const {
  return maxThreads() != 0 || MinCTAsPerSM != 0 || MaxNReg != 0;
}

namespace {
/// The units (sectors, words) of \p Unit bytes touched by lanes
/// [First, First + N) accessing \p Bytes each at \p Stride bytes apart, as
/// sorted, merged, inclusive ranges. Constant time in \p Bytes, so huge
/// accesses cost no more than small ones.
std::vector<std::pair<uint64_t, uint64_t>>
unitRanges(unsigned First, unsigned N, uint64_t Stride, uint64_t Bytes,
           uint64_t Unit) {
  std::vector<std::pair<uint64_t, uint64_t>> R;
  for (unsigned L = First; L < First + N; ++L) {
    uint64_t Lo = uint64_t(L) * Stride, Hi = Lo + Bytes - 1;
    R.push_back({Lo / Unit, Hi / Unit});
  }
  std::sort(R.begin(), R.end());
  std::vector<std::pair<uint64_t, uint64_t>> M;
  for (auto &X : R) {
    if (!M.empty() && X.first <= M.back().second + 1)
      M.back().second = std::max(M.back().second, X.second);
    else
      M.push_back(X);
  }
  return M;
}

/// Words w in [0, X] with w mod Banks == B.
uint64_t wordsUpTo(uint64_t X, uint64_t B, uint64_t Banks) {
  return X >= B ? (X - B) / Banks + 1 : 0;
}
} // namespace

double sectorsPerRequest(unsigned Bytes, int64_t StrideBytes,
                         AccessPattern Pattern, unsigned Lanes) {
  if (Bytes == 0 || Lanes == 0)
    return 0;
  const double Sector = 32.0;
  switch (Pattern) {
  case AccessPattern::Uniform:
    return std::ceil(Bytes / Sector);
  case AccessPattern::Unknown:
    // A gather: assume every lane touches its own sector(s).
    return Lanes * std::ceil(Bytes / Sector);
  case AccessPattern::Coalesced:
  case AccessPattern::Strided: {
    uint64_t Stride = static_cast<uint64_t>(std::llabs(StrideBytes));
    if (Stride == 0)
      return std::ceil(Bytes / Sector);
    // Count distinct sectors touched by lanes at offsets i*Stride, aligned
    // start (the common case for arrays indexed from a block base).
    double Sectors = 0;
    for (auto &[Lo, Hi] : unitRanges(0, Lanes, Stride, Bytes, 32))
      Sectors += static_cast<double>(Hi - Lo) + 1;
    return Sectors;
  }
  }
  return Lanes;
}

/// Distinct \p Unit-byte blocks (sectors, lines) that thread indices First
/// .. First + N - 1 (N <= 32) touch, each reading A.Bytes (<= 16 counted
/// blocks a lane) from laneOffsetBytes().
static double laneUnits(const MemAccess &A, unsigned First, unsigned N,
                        int64_t Unit) {
  uint64_t Units[32 * 4];
  unsigned Count = 0;
  const int64_t Bytes = std::max(1u, A.Bytes);
  for (uint64_t T = First; T < uint64_t(First) + std::min(N, 32u); ++T) {
    // Offsets relative to a base far from zero: the same blocks for
    // negative strides without signed division.
    int64_t Lo = (int64_t(1) << 40) + laneOffsetBytes(A, T);
    for (int64_t U = Lo / Unit; U <= (Lo + Bytes - 1) / Unit && Count < 128;
         ++U)
      Units[Count++] = uint64_t(U);
  }
  std::sort(Units, Units + Count);
  return double(std::unique(Units, Units + Count) - Units);
}

double laneSectors(const MemAccess &A) { return laneUnits(A, 0, 32, 32); }

double laneLines(const MemAccess &A, unsigned First, unsigned N) {
  return laneUnits(A, First, N, 128);
}

unsigned passBankWays(const int64_t *Offsets, unsigned N, unsigned Bytes) {
  constexpr unsigned Banks = 32;
  const int64_t Width = std::clamp(Bytes, 1u, 16u);
  int64_t Words[32 * 4]; // <= 32 lanes x 16 B.
  unsigned NW = 0;
  for (unsigned I = 0; I < std::min(N, 32u); ++I) {
    // Offsets relative to a base far from zero: floor division and the
    // banks stay right for negative offsets.
    int64_t Lo = (int64_t(1) << 40) + Offsets[I];
    for (int64_t W = Lo / 4; W <= (Lo + Width - 1) / 4 && NW < 128; ++W)
      Words[NW++] = W;
  }
  std::sort(Words, Words + NW);
  NW = unsigned(std::unique(Words, Words + NW) - Words);
  unsigned PerBank[Banks] = {};
  unsigned Ways = 1;
  for (unsigned I = 0; I < NW; ++I)
    Ways = std::max(Ways, ++PerBank[Words[I] % Banks]);
  return Ways;
}

unsigned laneBankConflictWays(const MemAccess &A) {
  // Wide accesses are served in passes of 128 bytes of lane data.
  const unsigned PassLanes = 128 / std::clamp(A.Bytes, 4u, 16u);
  unsigned Worst = 1;
  for (unsigned First = 0; First < 32; First += PassLanes) {
    int64_t Off[32];
    for (unsigned L = 0; L < PassLanes; ++L)
      Off[L] = laneOffsetBytes(A, First + L);
    Worst = std::max(Worst, passBankWays(Off, PassLanes, A.Bytes));
  }
  return Worst;
}

unsigned bankConflictWays(unsigned Bytes, int64_t StrideBytes,
                          AccessPattern Pattern, unsigned Banks) {
  if (Pattern == AccessPattern::Uniform || Bytes == 0 || Banks == 0)
    return 1;
  if (Pattern == AccessPattern::Unknown)
    return 1; // Unknown: not counted as a conflict (reported as unknown).
  uint64_t Stride = static_cast<uint64_t>(std::llabs(StrideBytes));
  if (Stride == 0)
    return 1;
  // Hardware serves 128 bytes per wavefront (32 banks x 4 B). Wide accesses
  // (8/16 B) are split into half/quarter warps; conflicts are counted within
  // each phase. Ways = max over banks of distinct 4-byte words mapped to it.
  unsigned LanesPerPhase = Bytes >= 16 ? 8 : Bytes >= 8 ? 16 : 32;
  uint64_t Worst = 1;
  for (unsigned Phase = 0; Phase < 32 / LanesPerPhase; ++Phase) {
    auto Words =
        unitRanges(Phase * LanesPerPhase, LanesPerPhase, Stride, Bytes, 4);
    for (uint64_t B = 0; B < std::min<uint64_t>(Banks, 4096); ++B) {
      uint64_t N = 0;
      for (auto &[Lo, Hi] : Words)
        N += wordsUpTo(Hi, B, Banks) - (Lo ? wordsUpTo(Lo - 1, B, Banks) : 0);
      Worst = std::max(Worst, N);
    }
  }
  return static_cast<unsigned>(std::min<uint64_t>(Worst, ~0u));
}

double KernelProfile::arithmeticIntensity() const {
  double Bytes = GlobalSectorBytes;
  return Bytes > 0 ? totalFlops() / Bytes : 0;
}

double KernelProfile::sharedIntensity() const {
  return SharedBytes > 0 ? totalFlops() / SharedBytes : 0;
}

unsigned SpillCurve::bytesAt(unsigned Cap) const {
  double Accesses = 0;
  for (const Block &B : Blocks)
    if (B.Fits > Cap && B.Peak > Cap)
      Accesses += (B.Peak - Cap) * B.Share;
  return unsigned(std::lround(Accesses * 4));
}

std::optional<KernelProfile::SpillCode>
KernelProfile::spillCodeAt(unsigned Regs) const {
  if (Regs >= registersNeeded())
    return SpillCode{Res.SpillStoreBytes + Res.SpillLoadBytes,
                     Res.RegistersExact};
  if (const CapFact *F = capFact(Regs))
    return SpillCode{F->SpillStoreBytes + F->SpillLoadBytes, true};
  if (CapSpills.Known)
    return SpillCode{CapSpills.bytesAt(Regs), false};
  return std::nullopt;
}

unsigned SpillCurve::fits() const {
  unsigned Fits = 0;
  for (const Block &B : Blocks)
    Fits = std::max(Fits, std::min(B.Fits, B.Peak));
  return Fits;
}

double KernelProfile::spillShare(unsigned Regs) const {
  if (PressureSteps.empty())
    return 1;
  // Steps run from the peak down with growing shares: the last step still
  // above the allocation (at least the peak's) is where it spills.
  unsigned Level = std::min(Regs, PressureSteps.front().Pressure);
  double Share = PressureSteps.front().Share;
  for (const PressureStep &P : PressureSteps)
    if (P.Pressure >= Level)
      Share = P.Share;
  return std::clamp(Share, 0.0, 1.0);
}

std::vector<PressureStep>
pressureSteps(std::vector<std::pair<unsigned, double>> BlockPressure) {
  std::vector<PressureStep> Steps;
  double MaxWeight = 0;
  for (const auto &[P, W] : BlockPressure)
    MaxWeight = std::max(MaxWeight, W);
  if (!(MaxWeight > 0))
    return Steps;
  std::sort(BlockPressure.begin(), BlockPressure.end(),
            [](const auto &A, const auto &B) {
              return A.first != B.first ? A.first > B.first
                                        : A.second > B.second;
            });
  double Best = 0;
  for (const auto &[P, W] : BlockPressure) {
    if (!(W > Best))
      continue;
    Best = W;
    if (!Steps.empty() && Steps.back().Pressure == P)
      Steps.back().Share = W / MaxWeight;
    else
      Steps.push_back({P, W / MaxWeight});
  }
  return Steps;
}

unsigned KernelProfile::registersNeeded() const {
  if (Res.RegistersExact && Res.Registers)
    return Res.Registers;
  if (Res.EstimatedRegisters)
    return Res.EstimatedRegisters;
  if (Res.Registers)
    return Res.Registers;
  return 32;
}

std::array<unsigned, 3> guessTileBlock(const ShapeInfo &S,
                                       unsigned MaxThreads, std::string &Why) {
  std::array<unsigned, 3> None{0, 0, 0};
  if (!MaxThreads || MaxThreads > 1024)
    return None;
  // A flattened thread id or a tile row: rows of C threads, as many as the
  // bounds hold (a pitch that does not divide them is a padded row).
  unsigned C = S.TidPitch;
  if (S.UsesTid[1] && !S.UsesTid[2] && C >= 2 && MaxThreads % C == 0 &&
      MaxThreads / C >= 2) {
    Why = "threadIdx.y * " + std::to_string(C) +
          " + threadIdx.x indexes rows of " + std::to_string(C) +
          " threads, __launch_bounds__ " + std::to_string(MaxThreads) +
          " of them";
    return {C, MaxThreads / C, 1};
  }
  // Block-stride loops give every used dimension but one.
  std::array<unsigned, 3> B{1, 1, 1};
  int Missing = -1;
  unsigned Known = 1;
  for (unsigned D = 0; D < 3; ++D) {
    if (!S.UsesTid[D])
      continue;
    if (S.StrideBlock[D]) {
      B[D] = S.StrideBlock[D];
      Known *= B[D];
    } else if (Missing < 0) {
      Missing = int(D);
    } else {
      return None;
    }
  }
  if (Missing < 0 || Known < 2 || MaxThreads % Known || MaxThreads / Known < 2)
    return None;
  B[Missing] = MaxThreads / Known;
  Why = "block-stride loops step " + std::to_string(Known) +
        " threads, __launch_bounds__ " + std::to_string(MaxThreads) +
        " give threadIdx." + "xyz"[Missing] + " " +
        std::to_string(B[Missing]);
  return B;
}

bool ShapeInfo::anyCheck() const {
  for (unsigned D = 0; D < 3; ++D)
    if (CheckedDim[D] || CheckedMax[D] || CheckedMin[D])
      return true;
  return CheckedThreads != 0;
}

bool ShapeInfo::passesChecks(const std::array<unsigned, 3> &Block) const {
  for (unsigned D = 0; D < 3; ++D) {
    unsigned V = std::max(1u, Block[D]);
    if ((CheckedDim[D] && V != CheckedDim[D]) ||
        (CheckedMax[D] && V > CheckedMax[D]) || V < CheckedMin[D])
      return false;
  }
  uint64_t Threads = uint64_t(std::max(1u, Block[0])) *
                     std::max(1u, Block[1]) * std::max(1u, Block[2]);
  return !CheckedThreads || Threads == CheckedThreads;
}

bool isBlockSizeAgnostic(const KernelProfile &P) {
  if (P.Shape.FixedByTile || P.Bounds.ReqNTid[0])
    return false;
  if (P.Shape.CheckedDim[0] || P.Shape.CheckedDim[1] ||
      P.Shape.CheckedDim[2] || P.Shape.CheckedThreads)
    return false;
  return P.Shape.GridStrideLoop || P.Shape.WorkScalesWithBlock;
}

std::string implausibility(const KernelProfile &P) {
  auto Bad = [](double V) { return !std::isfinite(V) || V < 0; };
  auto Num = [](double V) {
    char Buf[32];
    std::snprintf(Buf, sizeof(Buf), "%.3g", V);
    return std::string(Buf);
  };
  double Work = 0;
  for (unsigned C = 0; C < NumOpClasses; ++C) {
    double V = P.Ops[C];
    if (Bad(V))
      return std::string("non-finite or negative count of '") +
             opClassName(static_cast<OpClass>(C)) + "' instructions";
    Work += V;
  }
  for (double V : {P.TensorFlops, P.Flops32, P.Flops64, P.Flops16,
                   P.ConvIntToF32,
                   P.GlobalSectorBytes, P.SharedBytes, P.SharedWavefronts,
                   P.LocalBytes})
    if (Bad(V))
      return "non-finite or negative FLOP or byte count";
  for (const MemAccess &A : P.Accesses)
    if (Bad(A.Count) || Bad(A.SectorsPerRequest))
      return "non-finite or negative memory access count" +
             (A.Line ? " at line " + std::to_string(A.Line) : std::string());
  for (const LoopRecord &L : P.Loops) {
    std::string Where = "loop" + (L.Line ? " at line " + std::to_string(L.Line)
                                         : std::string());
    if (Bad(L.Trip) || Bad(L.TripPerBlockDim) ||
        !std::isfinite(L.TripBlockOffset))
      return Where + ": non-finite or negative trip count";
    if (L.Trip > MaxPlausibleWorkPerThread)
      return Where + ": " + Num(L.Trip) + " iterations per thread" +
             (L.Symbolic.empty() ? "" : " (" + L.Symbolic + ")") +
             ", beyond the plausible " + Num(MaxPlausibleWorkPerThread);
  }
  if (Work > MaxPlausibleWorkPerThread)
    return Num(Work) + " instructions per thread, beyond the plausible " +
           Num(MaxPlausibleWorkPerThread);
  return "";
}

bool doesNoWork(const KernelProfile &P) {
  // The return counts as a branch and reading a parameter does nothing by
  // itself; any other instruction is work.
  for (unsigned C = 0; C < NumOpClasses; ++C) {
    OpClass Class = static_cast<OpClass>(C);
    if (Class != OpClass::Branch && Class != OpClass::LoadParam && P.Ops[C] != 0)
      return false;
  }
  return P.TensorFlops == 0 && P.Accesses.empty() && P.Loops.empty() &&
         P.op(OpClass::Branch) <= 1;
}

IndexedThreadDims indexedThreadDims(const KernelProfile &P) {
  IndexedThreadDims Out;
  Out.AllKnown = !P.Accesses.empty();
  for (const MemAccess &A : P.Accesses) {
    Out.AllKnown = Out.AllKnown && A.ThreadDimsKnown;
    if (A.ThreadDimsKnown)
      Out.Dims |= A.ThreadDims;
  }
  return Out;
}

double globalSectorBytes(const MemAccess &A) {
  // A warp request moves SectorsPerRequest*32 bytes for 32 threads.
  // Loop-invariant addresses hit in cache after the first pass.
  double Execs = A.LoopInvariant ? std::min(A.Count, 1.0) : A.Count;
  return Execs * A.SectorsPerRequest * 32.0 / 32.0;
}

void weighGuardedTraffic(KernelProfile &P) {
  if (P.Guarded.empty())
    return;
  std::vector<double> Behind(P.Guarded.size(), 0.0);
  double Total = 0;
  for (const MemAccess &A : P.Accesses) {
    // The bytes DRAM sees: a uniform access (one sector a warp, which the
    // L2 holds) and an atomic (done in the L2) move none (the model's
    // accessTraffic).
    if ((A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic) ||
        A.Pattern == AccessPattern::Uniform || A.IsAtomic)
      continue;
    double B = globalSectorBytes(A);
    Total += B;
    if (A.Guards.empty())
      continue;
    auto It = llvm::find_if(
        P.Guarded, [&](const GuardedWork &W) { return W.Guards == A.Guards; });
    if (It == P.Guarded.end())
      return; // checks of their own (a bulk copy's): keep the front end's
    Behind[It - P.Guarded.begin()] += B;
  }
  if (Total <= 0)
    return;
  for (size_t I = 0; I < P.Guarded.size(); ++I)
    P.Guarded[I].MemShare = Behind[I] / Total;
}

void finalizeProfile(KernelProfile &P) {
  P.GlobalBytesRead = P.GlobalBytesWritten = P.GlobalSectorBytes = 0;
  P.SharedBytes = P.SharedWavefronts = P.LocalBytes = 0;
  P.MaxBankConflictWays = 1;
  double Requests = 0, Uncoalesced = 0;
  for (MemAccess &A : P.Accesses) {
    switch (A.Space) {
    case AddrSpace::Global:
    case AddrSpace::Generic: {
      if (A.SectorsPerRequest <= 0)
        A.SectorsPerRequest =
            A.LaneMod && A.Pattern != AccessPattern::Unknown &&
                    A.Pattern != AccessPattern::Uniform
                ? laneSectors(A)
                : sectorsPerRequest(A.Bytes, A.StrideBytes, A.Pattern);
      double Req = A.Count * A.Bytes;
      if (A.IsStore || A.IsAtomic)
        P.GlobalBytesWritten += Req;
      if (!A.IsStore || A.IsAtomic)
        P.GlobalBytesRead += Req;
      P.GlobalSectorBytes += globalSectorBytes(A);
      Requests += A.Count;
      if (A.Pattern != AccessPattern::Coalesced &&
          A.Pattern != AccessPattern::Uniform)
        Uncoalesced += A.Count;
      break;
    }
    case AddrSpace::Shared: {
      if (A.LaneMod && (A.Pattern == AccessPattern::Strided ||
                        A.Pattern == AccessPattern::Coalesced))
        A.BankConflictWays = laneBankConflictWays(A);
      if (A.BankConflictWays == 0)
        A.BankConflictWays = 1;
      P.SharedBytes += A.Count * A.Bytes;
      P.SharedWavefronts += A.Count * A.BankConflictWays;
      P.MaxBankConflictWays =
          std::max(P.MaxBankConflictWays, A.BankConflictWays);
      break;
    }
    case AddrSpace::Local:
      P.LocalBytes += A.Count * A.Bytes;
      break;
    default:
      break;
    }
  }
  P.UncoalescedFraction = Requests > 0 ? Uncoalesced / Requests : 0;
}

namespace {

/// The index steps along each dimension of \p F's threads that make up the
/// byte displacement \p Delta, largest threadIdx step first (a row pitch
/// before a column's element). False when something is left over or a
/// smaller step would leave the span one blockIdx step covers (\p Span, 0:
/// unknown): a displacement within one thread's elements (`out[2 * i +
/// 1]`, a thread's second row where threads are two rows apart).
bool splitByThreadSteps(const AddrForm &F, int64_t Delta,
                        const std::array<uint64_t, 3> &Span,
                        std::array<int64_t, 3> &K) {
  std::array<unsigned, 3> Order{0, 1, 2};
  auto Mag = [](int64_t X) {
    return X < 0 ? uint64_t(0) - uint64_t(X) : uint64_t(X);
  };
  std::sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
    return Mag(F.Tid[A]) > Mag(F.Tid[B]);
  });
  K = {0, 0, 0};
  // Steps and offsets beyond any array a kernel indexes are not a tile's
  // (and would overflow below).
  constexpr int64_t Far = int64_t(1) << 48;
  if (Delta > Far || Delta < -Far)
    return false;
  bool Largest = true;
  for (unsigned D : Order) {
    if (!F.Tid[D])
      continue;
    K[D] = static_cast<int64_t>(
        std::llround(static_cast<double>(Delta) / F.Tid[D]));
    Delta -= K[D] * F.Tid[D];
    if (!Largest && Span[D] && static_cast<uint64_t>(std::llabs(K[D])) >= Span[D])
      return false;
    Largest = false;
  }
  return Delta == 0;
}

} // namespace

std::array<unsigned, 3> blockFromStoreForms(const KernelProfile &P,
                                            unsigned MaxThreads,
                                            std::string &Why) {
  const std::array<unsigned, 3> None{0, 0, 0};
  const ShapeInfo &S = P.Shape;
  if (S.ReadsBlockDim)
    return None;
  auto Gcd = [](uint64_t A, uint64_t B) {
    while (B) {
      uint64_t T = A % B;
      A = B;
      B = T;
    }
    return A;
  };
  // Per dimension: the gcd over qualifying stores (0: none yet), and one
  // store's span and output spacing for the explanation.
  std::array<uint64_t, 3> Extent{0, 0, 0}, SpanSeen{0, 0, 0};
  std::array<unsigned, 3> SpanDimSeen{0, 1, 2};
  const char *Dim = "xyz";
  // Stores of one array and one form are a family: the offsets between
  // them are the tile's (an unrolled loop over a thread's outputs).
  std::vector<const MemAccess *> Stores;
  for (const MemAccess &A : P.Accesses)
    if ((A.Space == AddrSpace::Global || A.Space == AddrSpace::Generic) &&
        A.IsStore && !A.IsAtomic && A.Form.Known &&
        !(A.BlockDims & AddrDependsOnData))
      Stores.push_back(&A);
  auto SameFamily = [](const AddrForm &A, const AddrForm &B) {
    return A.Array && A.Array == B.Array && A.Tid == B.Tid &&
           A.Ctaid == B.Ctaid && A.Global == B.Global && A.Cross == B.Cross &&
           A.Lane == B.Lane && A.Warp == B.Warp &&
           A.CtaidWarps == B.CtaidWarps && A.Warps == B.Warps;
  };
  constexpr int64_t Far = int64_t(1) << 48;
  auto Near = [&](int64_t X) { return X > -Far && X < Far; };
  std::vector<bool> Done(Stores.size(), false);
  for (size_t I = 0; I < Stores.size(); ++I) {
    if (Done[I])
      continue;
    const AddrForm &F = Stores[I]->Form;
    // The span of threadIdx.d steps one block index step covers: the
    // blockIdx dimension that steps by the fewest of them (blockIdx.d but
    // for a transpose's writes, blockIdx.y over threadIdx.x).
    std::array<uint64_t, 3> Span{0, 0, 0};
    std::array<unsigned, 3> SpanDim{0, 1, 2};
    for (unsigned D = 0; D < 3; ++D)
      for (unsigned E = 0; E < 3; ++E)
        if (F.Tid[D] && F.Ctaid[E] && !F.Global[E] &&
            F.Cross[gvCrossSlot(E, (E + 1) % 3)] == 0 &&
            F.Cross[gvCrossSlot(E, (E + 2) % 3)] == 0 && Near(F.Tid[D]) &&
            Near(F.Ctaid[E]) &&
            F.Ctaid[E] % F.Tid[D] == 0 && F.Ctaid[E] / F.Tid[D] > 0 &&
            (!Span[D] || uint64_t(F.Ctaid[E] / F.Tid[D]) < Span[D])) {
          Span[D] = static_cast<uint64_t>(F.Ctaid[E] / F.Tid[D]);
          SpanDim[D] = E;
        }
    // Displacements from this store, in threadIdx steps per dimension:
    // the family's offsets and its loops' iterations.
    std::array<std::set<int64_t>, 3> Ks;
    for (unsigned D = 0; D < 3; ++D)
      Ks[D].insert(0);
    for (size_t J = I; J < Stores.size(); ++J) {
      if (J != I && (Done[J] || !SameFamily(F, Stores[J]->Form)))
        continue;
      Done[J] = true;
      std::array<int64_t, 3> K;
      if (Near(F.Offset) && Near(Stores[J]->Form.Offset) &&
          splitByThreadSteps(F, Stores[J]->Form.Offset - F.Offset, Span, K))
        for (unsigned D = 0; D < 3; ++D)
          Ks[D].insert(K[D]);
    }
    for (unsigned L = 0; L < F.NumLoops && L < F.LoopStep.size(); ++L) {
      std::array<int64_t, 3> K;
      double Trip = F.LoopTrip[L];
      if (!F.LoopStep[L] || !(Trip >= 2))
        continue;
      if (!splitByThreadSteps(F, F.LoopStep[L], Span, K))
        continue; // A loop over one thread's own elements.
      for (unsigned D = 0; D < 3; ++D) {
        if (!K[D])
          continue;
        // Displacements past the span are ignored below; the set stays
        // small (a tile of at most 1024 threads' spacing).
        std::set<int64_t> Grown;
        for (int64_t V : Ks[D])
          for (int64_t T = 0; T < static_cast<int64_t>(Trip) && T < 1024; ++T) {
            int64_t X = V + T * K[D];
            if (Span[D] && static_cast<uint64_t>(std::llabs(X)) >= 2 * Span[D])
              break;
            if (Grown.size() < 4096)
              Grown.insert(X);
          }
        Ks[D] = std::move(Grown);
      }
    }
    for (unsigned D = 0; D < 3; ++D) {
      if (!S.UsesTid[D] || S.ReadsNTid[D] || !Span[D])
        continue;
      // The tile's outputs lie within the span that one blockIdx step
      // covers; displacements beyond it are other rows or arrays.
      uint64_t G = Span[D];
      std::set<uint64_t> Residues;
      for (int64_t V : Ks[D]) {
        if (static_cast<uint64_t>(std::llabs(V)) >= Span[D])
          continue;
        G = Gcd(G, static_cast<uint64_t>(std::llabs(V)));
        int64_t M = static_cast<int64_t>(Span[D]);
        Residues.insert(static_cast<uint64_t>((V % M + M) % M));
      }
      // A tile is the block repeated: its outputs fill the span at the
      // block's spacing (rows of an unrelated pitch do not).
      if (Residues.size() != Span[D] / G)
        continue;
      Extent[D] = Gcd(Extent[D], G);
      SpanSeen[D] = Span[D];
      SpanDimSeen[D] = SpanDim[D];
    }
  }
  std::array<unsigned, 3> Out{1, 1, 1};
  uint64_t Threads = 1;
  std::string Text;
  for (unsigned D = 0; D < 3; ++D) {
    if (!S.UsesTid[D])
      continue;
    if (!Extent[D] || S.ReadsNTid[D] || Extent[D] > 1024)
      return None;
    Out[D] = static_cast<unsigned>(Extent[D]);
    Threads *= Extent[D];
    Text += std::string(Text.empty() ? "" : "; ") + "blockIdx." +
            Dim[SpanDimSeen[D]] +
            " * " + std::to_string(SpanSeen[D]) + " + threadIdx." + Dim[D];
    if (SpanSeen[D] != Extent[D])
      Text += ", outputs " + std::to_string(Extent[D]) + " apart";
  }
  if (Threads > 1024 || (MaxThreads && Threads > MaxThreads) || Threads == 1)
    return None;
  Why = "the stores index " + Text + ": block " +
        std::to_string(Out[0]) + " x " + std::to_string(Out[1]) + " x " +
        std::to_string(Out[2]);
  return Out;
}

void collectFormLoads(KernelProfile &P) {
  P.FormLoads.clear();
  P.FormStores.clear();
  for (const MemAccess &A : P.Accesses)
    if ((A.Space == AddrSpace::Global || A.Space == AddrSpace::Generic) &&
        !A.IsAtomic && A.Form.Known && !(A.BlockDims & AddrDependsOnData))
      (A.IsStore ? P.FormStores : P.FormLoads).push_back(A);
}

void markInterBlockReuse(KernelProfile &P) {
  // The blockIdx dimensions the kernel's global accesses use between them.
  unsigned KernelDims = 0;
  for (const MemAccess &A : P.Accesses)
    if (!(A.BlockDims & AddrDependsOnData))
      KernelDims |= A.BlockDims & 7u;
  for (MemAccess &A : P.Accesses) {
    if ((A.Space != AddrSpace::Global && A.Space != AddrSpace::Generic) ||
        A.IsStore || A.IsAtomic || (A.BlockDims & AddrDependsOnData) ||
        A.Pattern == AccessPattern::Uniform)
      continue;
    // Missing a dimension the kernel is tiled over: every block along it
    // reads the same data.
    if ((A.BlockDims & 7u) != KernelDims)
      A.ReusedAcrossBlocks = true;
  }
}

std::optional<DynamicSharedSize> parseDynamicShared(const std::string &S) {
  DynamicSharedSize Out;
  bool Any = false, HaveBytes = false, HavePer = false;
  size_t Pos = 0;
  while (Pos <= S.size()) {
    size_t End = S.find('+', Pos);
    std::string T = S.substr(Pos, End == std::string::npos ? std::string::npos
                                                            : End - Pos);
    T.erase(std::remove_if(T.begin(), T.end(),
                           [](unsigned char C) { return std::isspace(C); }),
            T.end());
    bool Per = T.size() > 2 && T.compare(T.size() - 2, 2, "*t") == 0;
    if (Per)
      T.resize(T.size() - 2);
    if (T.empty() || T.size() > 9 ||
        !std::all_of(T.begin(), T.end(),
                     [](unsigned char C) { return std::isdigit(C); }))
      return std::nullopt;
    unsigned V = unsigned(std::stoul(T));
    if ((Per && HavePer) || (!Per && HaveBytes))
      return std::nullopt;
    (Per ? Out.PerThread : Out.Bytes) = V;
    (Per ? HavePer : HaveBytes) = true;
    Any = true;
    if (End == std::string::npos)
      break;
    Pos = End + 1;
  }
  if (!Any)
    return std::nullopt;
  return Out;
}

std::string dynamicSharedText(const Resources &R) {
  std::string T;
  if (R.DynamicSharedBytes || !R.DynamicSharedPerThread)
    T = std::to_string(R.DynamicSharedBytes) + " B";
  if (R.DynamicSharedPerThread)
    T += (T.empty() ? "" : " + ") + std::to_string(R.DynamicSharedPerThread) +
         " B per thread";
  return T;
}

void stateDynamicShared(KernelProfile &K, const DynamicSharedSize &Size) {
  if (!K.Res.UsesDynamicShared || (!Size.Bytes && !Size.PerThread))
    return;
  K.Res.DynamicSharedBytes = Size.Bytes;
  K.Res.DynamicSharedPerThread = Size.PerThread;
  K.Guesses.erase(std::remove_if(K.Guesses.begin(), K.Guesses.end(),
                                 [](const std::string &G) {
                                   return G.rfind("dynamic shared memory", 0) ==
                                          0;
                                 }),
                  K.Guesses.end());
}

std::optional<bool> rareWhenHolds(MagnitudeTest T, double Threshold) {
  if (std::isnan(Threshold))
    return std::nullopt;
  if (std::isinf(Threshold)) {
    if (Threshold < 0) // |x| against -inf: a NaN test, not a range.
      return std::nullopt;
    switch (T) {
    case MagnitudeTest::Equal:
    case MagnitudeTest::GreaterEq:
      return true;
    case MagnitudeTest::NotEqual:
    case MagnitudeTest::Less:
      return false;
    default: // |x| > inf never holds, |x| <= inf always: nothing to weigh.
      return std::nullopt;
    }
  }
  if (Threshold < RareMagnitude)
    return std::nullopt;
  switch (T) {
  case MagnitudeTest::Greater:
  case MagnitudeTest::GreaterEq:
    return true;
  case MagnitudeTest::Less:
  case MagnitudeTest::LessEq:
    return false;
  default:
    return std::nullopt;
  }
}

AddrForm formAtBlock(const AddrForm &F, const std::array<unsigned, 3> &Block,
                     double *RefShare, const std::array<unsigned, 3> *Grid) {
  AddrForm Out = F;
  if (RefShare)
    *RefShare = 1;
  if (F.OneD && (Block[1] > 1 || Block[2] > 1)) {
    Out.Known = false;
    return Out;
  }
  Out.OneD = false;
  for (unsigned D = 0; D < 3; ++D) {
    Out.Offset += F.Ntid[D] * int64_t(std::max(1u, Block[D]));
    Out.Ntid[D] = 0;
    for (unsigned E = 0; E < 3; ++E)
      if (E != D)
        Out.Ctaid[D] += F.Cross[gvCrossSlot(D, E)] *
                        int64_t(std::max(1u, Block[E]));
  }
  Out.Cross = {};
  // Warps a block: blockDim.x / 32 (a part of one in a narrower block).
  int64_t BX = std::max(1u, Block[0]);
  Out.Ctaid[0] += F.CtaidWarps * BX / 32;
  Out.Offset += F.Warps * BX / 32;
  Out.CtaidWarps = Out.Warps = 0;
  for (unsigned K = 0; K < F.NumLoops && K < F.LoopPerBlockDim.size(); ++K)
    if (unsigned D = F.LoopPerBlockDim[K]; D >= 1 && D <= 3) {
      double B = std::max(1u, Block[D - 1]);
      Out.LoopStep[K] = F.LoopStep[K] * int64_t(B);
      Out.LoopTrip[K] = std::max(1.0, std::ceil(F.LoopTrip[K] / B));
      Out.LoopPerBlockDim[K] = 0;
      double Ref = D == 1 ? double(PTXReferenceBlockThreads) : 1.0;
      // The passes' elements, not whole passes: a block wider than the
      // range runs a part of one (an unrolled loop's later copies exit).
      if (RefShare)
        *RefShare *= B / Ref;
    }
  for (unsigned K = 0; K < F.NumLoops && K < F.LoopPerGrid.size(); ++K)
    if (unsigned M = F.LoopPerGrid[K]) {
      double Units = std::max(1.0, F.LoopTrip[K]);
      double RefTrip = std::max(1.0, F.LoopRefTrip[K]);
      // The step at the launch, in the counter's units.
      double Step = 1;
      for (unsigned D = 0; D < 3; ++D) {
        if (M & (1u << D))
          Step *= Grid && (*Grid)[D] ? double((*Grid)[D]) : 0.0;
        if (M & (8u << D))
          Step *= std::max(1u, Block[D]);
      }
      if (!(Step > 0)) // No grid: the profile's passes.
        Step = std::max(1.0, std::floor(Units / RefTrip));
      Out.LoopStep[K] = F.LoopStep[K] * int64_t(Step);
      Out.LoopTrip[K] = std::max(1.0, std::ceil(Units / Step));
      Out.LoopPerGrid[K] = 0;
      if (RefShare)
        *RefShare *= RefTrip / std::max(1.0, Units / Step);
    }
  return Out;
}

bool followsLaunch(const AddrForm &F) {
  auto Any = [](const auto &Xs) {
    return llvm::any_of(Xs, [](auto X) { return X != 0; });
  };
  return F.OneD || Any(F.Ntid) || Any(F.Cross) || F.CtaidWarps || F.Warps ||
         Any(F.LoopPerBlockDim) || Any(F.LoopPerGrid);
}

std::vector<std::pair<double, double>>
threadTerms(const AddrForm &F, const std::array<unsigned, 3> &Block) {
  std::vector<std::pair<double, double>> Out;
  for (unsigned D = 0; D < 3; ++D)
    if (F.Tid[D])
      Out.push_back(
          {std::fabs(double(F.Tid[D])), double(std::max(1u, Block[D]))});
  double X = std::max(1u, Block[0]);
  if (F.Lane)
    Out.push_back({std::fabs(double(F.Lane)), std::min(32.0, X)});
  if (F.Warp)
    Out.push_back({std::fabs(double(F.Warp)), std::ceil(X / 32)});
  return Out;
}

std::optional<BranchSideShares> warpSideShares(
    uint64_t Passes, unsigned Threads,
    llvm::function_ref<std::optional<bool>(uint64_t, unsigned)> Taken) {
  constexpr uint64_t MaxSamples = 64;
  constexpr unsigned WarpLanes = 32;
  if (Passes == 0 || Threads == 0)
    return std::nullopt;
  const unsigned Warps = (Threads + WarpLanes - 1) / WarpLanes;
  uint64_t Samples = std::min(Passes, MaxSamples);
  BranchSideShares Out;
  bool Moves = false;
  std::vector<bool> First(Threads);
  for (uint64_t K = 0; K < Samples; ++K) {
    uint64_t Pass = Samples == Passes ? K : K * (Passes - 1) / (Samples - 1);
    unsigned WarpsTaken = 0, WarpsNot = 0;
    for (unsigned W = 0; W < Warps; ++W) {
      bool AnyTaken = false, AnyNot = false;
      for (unsigned T = W * WarpLanes; T < std::min(Threads, (W + 1) * WarpLanes);
           ++T) {
        std::optional<bool> H = Taken(Pass, T);
        if (!H)
          return std::nullopt;
        (*H ? AnyTaken : AnyNot) = true;
        if (K == 0)
          First[T] = *H;
        else
          Moves |= First[T] != *H;
      }
      WarpsTaken += AnyTaken;
      WarpsNot += AnyNot;
    }
    Out.Taken += double(WarpsTaken) / Warps;
    Out.NotTaken += double(WarpsNot) / Warps;
  }
  if (!Moves)
    return std::nullopt;
  Out.Taken /= double(Samples);
  Out.NotTaken /= double(Samples);
  return Out;
}

std::optional<double> meanOverFallingBlocks(
    llvm::function_ref<std::optional<double>(uint64_t)> CountAt,
    uint64_t *Blocks) {
  std::optional<double> T0 = CountAt(0);
  if (!T0 || *T0 <= 0)
    return std::nullopt;
  // The first block that runs no pass: doubling, then bisection.
  constexpr uint64_t MaxBlocks = uint64_t(1) << 20;
  uint64_t Lo = 0, Hi = 1;
  double Prev = *T0;
  for (;; Hi *= 2) {
    if (Hi > MaxBlocks)
      return std::nullopt;
    std::optional<double> T = CountAt(Hi);
    if (!T || *T > Prev)
      return std::nullopt;
    if (*T <= 0)
      break;
    Prev = *T;
    Lo = Hi;
  }
  while (Hi - Lo > 1) {
    uint64_t Mid = Lo + (Hi - Lo) / 2;
    std::optional<double> T = CountAt(Mid);
    if (!T)
      return std::nullopt;
    (*T > 0 ? Lo : Hi) = Mid;
  }
  uint64_t N = Hi, K = std::min<uint64_t>(N, 64);
  double Sum = 0, Last = *T0;
  for (uint64_t I = 0; I < K; ++I) {
    uint64_t B = K == N ? I : I * (N - 1) / std::max<uint64_t>(1, K - 1);
    std::optional<double> T = CountAt(B);
    if (!T || *T > Last)
      return std::nullopt;
    Last = *T;
    Sum += *T;
  }
  if (Blocks)
    *Blocks = N;
  return Sum / double(K);
}

} // namespace flipflop
