//===- ProfilePrinter.cpp - Stable text form of a KernelProfile -----------===//
#include "flipflop/Profile/ProfilePrinter.h"
#include "flipflop/Profile/LaneSplit.h"
#include "llvm/Support/Format.h"
#include <cmath>

using namespace llvm;

namespace flipflop {

namespace {
struct Num {
  double V;
};
raw_ostream &operator<<(raw_ostream &OS, Num N) {
  double V = N.V == 0 ? 0 : N.V; // no "-0"
  return OS << format("%.6g", V);
}
const char *yesNo(bool B) { return B ? "yes" : "no"; }
void printDims(raw_ostream &OS, const std::array<unsigned, 3> &D) {
  OS << D[0] << ',' << D[1] << ',' << D[2];
}
void printAxes(raw_ostream &OS, const std::array<bool, 3> &A) {
  bool Any = false;
  for (unsigned I = 0; I < 3; ++I)
    if (A[I]) {
      OS << (Any ? "," : "") << "xyz"[I];
      Any = true;
    }
  if (!Any)
    OS << "none";
}
const char *spaceName(AddrSpace S) {
  switch (S) {
  case AddrSpace::Generic:
    return "generic";
  case AddrSpace::Global:
    return "global";
  case AddrSpace::Shared:
    return "shared";
  case AddrSpace::Const:
    return "const";
  case AddrSpace::Local:
    return "local";
  case AddrSpace::Param:
    return "param";
  }
  return "invalid";
}

void printHeader(const KernelProfile &P, raw_ostream &OS) {
  OS << "kernel " << P.Name << "\n";
  OS << "  display: " << P.DisplayName << "\n";
  OS << "  source: " << P.Source << "\n";
  OS << "  location: " << (P.File.empty() ? "?" : P.File) << ':' << P.Line
     << "\n";
}

void printResources(const KernelProfile &P, raw_ostream &OS) {
  const Resources &R = P.Res;
  OS << "  registers: " << R.Registers << " exact=" << yesNo(R.RegistersExact)
     << " estimated=" << R.EstimatedRegisters << "\n";
  OS << "  spills: store=" << R.SpillStoreBytes << " load=" << R.SpillLoadBytes
     << " stack=" << R.StackFrameBytes;
  // Register pressure against the share of the largest loop weight.
  for (unsigned I = 0; I < P.PressureSteps.size(); ++I)
    OS << (I ? "," : " pressure=") << P.PressureSteps[I].Pressure << '@'
       << Num{P.PressureSteps[I].Share};
  OS << "\n";
  // Without ptxas: the spill bytes estimated under each register cap.
  if (P.CapSpills.Known) {
    OS << "  cap-spills:";
    unsigned Fits = P.CapSpills.fits();
    if (Fits == 0)
      OS << " none";
    else
      OS << " fits=" << Fits;
    // The caps a register allocation can take (steps of 8), ptxas's least.
    for (unsigned Cap = Fits ? (Fits - 1) / 8 * 8 : 0; Cap >= 16; Cap -= 8)
      OS << ' ' << Cap << '=' << P.CapSpills.bytesAt(Cap);
    OS << "\n";
  }
  if (const HeldLoads &H = P.Held; H.Values)
    OS << "  held-loads: " << H.Values << " shared=" << H.Shared
       << " global=" << H.Global << " other=" << H.Other
       << " readers=" << H.Readers << "\n";
  OS << "  shared: static=" << R.StaticSharedBytes
     << " dynamic=" << yesNo(R.UsesDynamicShared)
     << " dynamic-bytes=" << R.DynamicSharedBytes;
  if (R.DynamicSharedPerThread)
    OS << "+" << R.DynamicSharedPerThread << "*t";
  OS << "\n";
  OS << "  const: " << R.ConstBytes << " barriers=" << R.Barriers << "\n";
}

void printBounds(const LaunchBounds &B, raw_ostream &OS) {
  OS << "  bounds: maxntid=";
  printDims(OS, B.MaxNTid);
  OS << " reqntid=";
  printDims(OS, B.ReqNTid);
  OS << " minctas=" << B.MinCTAsPerSM << " maxnreg=" << B.MaxNReg << "\n";
}

void printShape(const ShapeInfo &S, raw_ostream &OS) {
  OS << "  shape: tid=";
  printAxes(OS, S.UsesTid);
  OS << " ntid=";
  printAxes(OS, S.ReadsNTid);
  OS << " blockdim=" << yesNo(S.ReadsBlockDim)
     << " griddim=" << yesNo(S.ReadsGridDim)
     << " grid-stride=" << yesNo(S.GridStrideLoop)
     << " scales-with-block=" << yesNo(S.WorkScalesWithBlock) << "\n";
  if (S.FixedByTile || S.FixedBlock[0]) {
    OS << "  fixed-shape: tile=" << yesNo(S.FixedByTile) << " block=";
    printDims(OS, S.FixedBlock);
    OS << " reason=" << S.FixedReason << "\n";
  }
  for (const std::string &F : S.CheckFacts)
    OS << "  shape-check: " << F << "\n";
}

/// The operation counts and the flops they make.
void printOps(const KernelProfile &P, raw_ostream &OS) {
  OS << "  ops:";
  bool Any = false;
  for (unsigned C = 0; C < NumOpClasses; ++C)
    if (P.Ops[C] != 0) {
      OS << ' ' << opClassName(static_cast<OpClass>(C)) << '=' << Num{P.Ops[C]};
      Any = true;
    }
  if (!Any)
    OS << " none";
  if (P.ConvIntToF32 != 0)
    OS << " (int-to-f32 " << Num{P.ConvIntToF32} << ")";
  OS << "\n";
  OS << "  flops: fp32=" << Num{P.Flops32} << " fp64=" << Num{P.Flops64}
     << " fp16=" << Num{P.Flops16} << " tensor=" << Num{P.TensorFlops}
     << " tensor-type=" << (P.TensorType.empty() ? "none" : P.TensorType)
     << " ilp=" << Num{P.ILP} << " mlp=" << Num{P.MLP} << "\n";
}

void printLoop(const LoopRecord &L, raw_ostream &OS) {
  OS << "  loop: depth=" << L.Depth << " line=" << L.Line
     << " trip=" << Num{L.Trip} << " exact=" << yesNo(L.Exact)
     << " guessed=" << yesNo(L.Guessed);
  if (L.GridStride)
    OS << (L.GridStrideBlocks ? " grid-stride-blocks" : " grid-stride");
  if (L.GridStrideElements > 0)
    OS << " elements=" << Num{L.GridStrideElements};
  if (L.DependsOnBlockDim)
    OS << " block-stride";
  if (L.TripBlockDim >= 0 && L.TripBlockDim < 3)
    OS << " block-dim-trip=" << Num{L.TripPerBlockDim} << "*blockDim."
       << "xyz"[L.TripBlockDim] << (L.TripBlockOffset < 0 ? "-" : "+")
       << Num{std::fabs(L.TripBlockOffset)} << " share=" << Num{L.WorkShare};
  if (L.TripBlockDim >= 0 && L.TripBlockDim < 3 && L.MemShare >= 0)
    OS << " mem-share=" << Num{L.MemShare};
  if (!L.Symbolic.empty())
    OS << " symbolic=\"" << L.Symbolic << '"';
  // The dimensions a grid- or block-stride loop's step spans.
  unsigned Dims = L.GridStride         ? L.GridStrideDims
                  : L.DependsOnBlockDim ? L.BlockStrideDims
                                        : 0;
  if (Dims) {
    OS << " stride-dims=";
    for (unsigned D = 0; D < 3; ++D)
      if (Dims & (1u << D))
        OS << "xyz"[D];
  }
  OS << "\n";
}

/// The guards, numbered, and the shares of work behind them.
void printGuards(const KernelProfile &P, raw_ostream &OS) {
  static const char *GuardVarNames[NumGuardVars] = {
      "tid.x",  "tid.y",  "tid.z",  "ctaid.x", "ctaid.y", "ctaid.z",
      "gid.x",  "gid.y",  "gid.z",  "ctaid.x*ntid.y", "ctaid.x*ntid.z",
      "ctaid.y*ntid.x", "ctaid.y*ntid.z", "ctaid.z*ntid.x", "ctaid.z*ntid.y",
      "ntid.x",  "ntid.y",  "ntid.z",
      "iter0",  "iter1",  "iter2",  "iter3",   "iter4",   "iter5",
      "iter6",  "iter7", "lane.x", "warp.x", "ctaid.x*warps.x", "warps.x"};
  static_assert(NumGuardVars == 30, "one name per guard variable");
  for (size_t I = 0; I < P.Guards.size(); ++I) {
    const AffineGuard &G = P.Guards[I];
    OS << "  guard " << I << ":";
    for (unsigned V = 0; V < NumGuardVars; ++V)
      if (G.Coef[V])
        OS << ' ' << (G.Coef[V] < 0 ? "-" : "+") << ' '
           << (G.Coef[V] < 0 ? -G.Coef[V] : G.Coef[V]) << '*'
           << GuardVarNames[V];
    OS << (G.Const < 0 ? " - " : " + ") << (G.Const < 0 ? -G.Const : G.Const)
       << (G.Strict ? " < 0" : " <= 0") << (G.OneD ? " (1-D blocks)" : "")
       << " line=" << G.Line << "\n";
  }
  for (const GuardedWork &W : P.Guarded) {
    OS << "  guarded: share=" << Num{W.Share};
    if (W.MemShare >= 0)
      OS << " mem-share=" << Num{W.MemShare};
    OS << " guards=";
    for (size_t I = 0; I < W.Guards.size(); ++I)
      OS << (I ? "," : "") << W.Guards[I];
    OS << "\n";
  }
}

/// " tid=xy": the axes in a dimension mask, "-" for none.
void printDimMask(raw_ostream &OS, const char *Name, unsigned D) {
  OS << ' ' << Name << '=';
  if (!(D & 7u))
    OS << '-';
  for (unsigned K = 0; K < 3; ++K)
    if (D & (1u << K))
      OS << "xyz"[K];
}

/// What an access to global (or generic) memory depends on and reuses.
void printGlobalAddress(const MemAccess &A, raw_ostream &OS) {
  if (A.ThreadDimsKnown)
    printDimMask(OS, "tid", A.ThreadDims);
  printDimMask(OS, "ctaid", A.BlockDims);
  if (A.BlockDims & AddrDependsOnData)
    OS << " data";
  if (A.ReusedAcrossBlocks)
    OS << " reused";
  if (A.FootprintBytes)
    OS << " table=" << A.FootprintBytes;
  if (!A.Guards.empty()) {
    OS << " behind=";
    for (size_t I = 0; I < A.Guards.size(); ++I)
      OS << (I ? "," : "") << A.Guards[I];
  }
  if (A.BaseId)
    OS << " base=" << A.BaseId << (A.Offset < 0 ? "" : "+") << A.Offset;
  if (A.InnerLoopStep)
    OS << " walk=" << A.InnerLoopStep;
  if (A.Bulk)
    OS << " bulk";
}

void printAccess(const MemAccess &A, raw_ostream &OS) {
  bool Global = A.Space == AddrSpace::Global || A.Space == AddrSpace::Generic;
  OS << "  access: " << spaceName(A.Space) << ' '
     << (A.IsAtomic  ? "atomic"
         : A.IsStore ? "store"
                     : "load")
     << " bytes=" << A.Bytes << " count=" << Num{A.Count}
     << " pattern=" << accessPatternName(A.Pattern)
     << " stride=";
  // A pitch nobody stated (FarRowPitch) prints as "far".
  auto Pitch = [&OS](int64_t P) {
    if (farRowPitch(P))
      OS << "far";
    else
      OS << P;
  };
  Pitch(A.StrideBytes);
  if (A.LaneMod) { // Rows of LaneMod lanes, LaneDivStrideBytes apart.
    OS << " rows=" << A.LaneMod << 'x';
    Pitch(A.LaneDivStrideBytes);
  }
  if (Global)
    OS << " sectors=" << Num{A.SectorsPerRequest};
  if (A.Space == AddrSpace::Shared)
    OS << " bank-ways=" << A.BankConflictWays
       << (A.WaysByPass ? " by-pass" : "");
  if (A.ReadOnly)
    OS << " readonly";
  if (A.LoopInvariant)
    OS << " invariant";
  if (A.SmoothDims) {
    OS << " smooth=";
    for (unsigned D = 0; D < 3; ++D)
      if (A.SmoothDims & (1u << D))
        OS << "xyz"[D];
    OS << " smooth-step=" << Num{A.SmoothStepBytes[0]} << ','
       << Num{A.SmoothStepBytes[1]} << ',' << Num{A.SmoothStepBytes[2]};
  }
  OS << " line=" << A.Line;
  if (Global)
    printGlobalAddress(A, OS);
  // Bytes per threadIdx.y and .z step (MemAccess::RowStepBytes).
  if (A.RowStepsKnown)
    OS << " row-steps=" << A.RowStepBytes[0] << ',' << A.RowStepBytes[1];
  OS << "\n";
}

/// A load of known address form (KernelProfile::FormLoads):
/// bytes per index and per iteration of each loop, innermost first
/// ("TRIP@STEP", "TRIP@STEP*ntid.x" for a block-stride loop).
void printReread(const MemAccess &A, raw_ostream &OS) {
  const AddrForm &F = A.Form;
  OS << "  form-load: bytes=" << A.Bytes << " count=" << Num{A.Count}
     << " line=" << A.Line << " form:";
  for (unsigned D = 0; D < 3; ++D) {
    if (F.Tid[D])
      OS << " tid." << "xyz"[D] << '*' << F.Tid[D];
    if (F.Ctaid[D])
      OS << " ctaid." << "xyz"[D] << '*' << F.Ctaid[D];
    if (F.Global[D])
      OS << " ctaid." << "xyz"[D] << "*ntid." << "xyz"[D] << '*'
         << F.Global[D];
    for (unsigned E = 0; E < 3; ++E)
      if (E != D && F.Cross[gvCrossSlot(D, E)])
        OS << " ctaid." << "xyz"[D] << "*ntid." << "xyz"[E] << '*'
           << F.Cross[gvCrossSlot(D, E)];
    if (F.Ntid[D])
      OS << " ntid." << "xyz"[D] << '*' << F.Ntid[D];
  }
  if (F.Lane)
    OS << " lane.x*" << F.Lane;
  if (F.Warp)
    OS << " warp.x*" << F.Warp;
  if (F.CtaidWarps)
    OS << " ctaid.x*warps.x*" << F.CtaidWarps;
  if (F.Warps)
    OS << " warps.x*" << F.Warps;
  if (F.OneD)
    OS << " (1-D blocks)";
  OS << " loops:";
  for (unsigned K = 0; K < F.NumLoops; ++K) {
    OS << ' ' << Num{F.LoopTrip[K]} << '@' << F.LoopStep[K];
    // A block-stride loop: per thread along d, over the trip of a block
    // one thread wide.
    if (unsigned D = F.LoopPerBlockDim[K])
      OS << "*ntid." << "xyz"[D - 1];
    // A grid-stride loop: per unit of its step, over its elements.
    for (unsigned D = 0; D < 3; ++D) {
      if (F.LoopPerGrid[K] & (1u << D))
        OS << "*nctaid." << "xyz"[D];
      if (F.LoopPerGrid[K] & (8u << D))
        OS << "*ntid." << "xyz"[D];
    }
  }
  OS << "\n";
}

/// The kernel-wide totals: memory traffic, intensity, divergence, calls.
void printTotals(const KernelProfile &P, raw_ostream &OS) {
  OS << "  memory: global-read=" << Num{P.GlobalBytesRead}
     << " global-written=" << Num{P.GlobalBytesWritten}
     << " sector-bytes=" << Num{P.GlobalSectorBytes}
     << " shared=" << Num{P.SharedBytes}
     << " shared-wavefronts=" << Num{P.SharedWavefronts}
     << " local=" << Num{P.LocalBytes}
     << " max-bank-ways=" << P.MaxBankConflictWays
     << " uncoalesced=" << Num{P.UncoalescedFraction} << "\n";
  OS << "  intensity: dram=" << Num{P.arithmeticIntensity()}
     << " shared=" << Num{P.sharedIntensity()} << "\n";
  OS << "  divergence: branches=" << P.DivergentBranches
     << " work-fraction=" << Num{P.DivergentWorkFraction} << "\n";
  OS << "  calls: followed=" << P.CallsFollowed
     << " recursion=" << yesNo(P.HasRecursion)
     << " indirect=" << yesNo(P.HasIndirectCalls) << "\n";
}
} // namespace

void printProfile(const KernelProfile &P, raw_ostream &OS) {
  printHeader(P, OS);
  printResources(P, OS);
  printBounds(P.Bounds, OS);
  printShape(P.Shape, OS);
  printOps(P, OS);
  for (const LoopRecord &L : P.Loops)
    printLoop(L, OS);
  for (const LocalArray &A : P.LocalArrays)
    OS << "  local-array: bytes=" << A.Bytes << " in='" << A.Function << "' "
       << (A.PassedTo.empty() ? "indexed" : "passed-to='" + A.PassedTo + "'")
       << "\n";
  printGuards(P, OS);
  for (const MemAccess &A : P.Accesses)
    printAccess(A, OS);
  for (const MemAccess &A : P.FormLoads)
    printReread(A, OS);
  printTotals(P, OS);
  for (const std::string &G : P.Guesses)
    OS << "  guess: " << G << "\n";
  for (const std::string &W : P.Warnings)
    OS << "  warning: " << W << "\n";
  OS << "end kernel " << P.Name << "\n";
}

} // namespace flipflop
