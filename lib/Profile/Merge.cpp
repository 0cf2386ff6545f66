//===- Merge.cpp - IR and PTX facts of one kernel into one profile --------===//
#include "flipflop/Profile/KernelProfile.h"
#include "flipflop/Profile/LaneSplit.h"
#include "flipflop/Profile/OpRules.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

namespace flipflop {

/// The IR's sibling loads (one base, constant offsets apart: a stencil's
/// taps) take their place in a sector from the PTX's loads of the same
/// pattern. The IR's offsets are from one tap's address (`x[i]`), taken to
/// start a sector; the PTX's forms are from the array's base at the
/// block's first lane, so they know where the taps fall (`i = gid + 1`
/// puts `x[i - 1]`, not `x[i]`, at a sector's start). A pattern the PTX
/// has at several places in a sector is left as it is.
static void alignSiblings(KernelProfile &Into, const KernelProfile &PTX) {
  auto Global = [](const MemAccess &A) {
    return (A.Space == AddrSpace::Global || A.Space == AddrSpace::Generic) &&
           !A.IsStore && !A.IsAtomic;
  };
  // The PTX's loads by array and terms: their offsets.
  std::map<std::tuple<unsigned, unsigned, std::array<int64_t, 3>,
                      std::array<int64_t, 3>, std::array<int64_t, 3>,
                      std::array<int64_t, 4>>,
           std::vector<int64_t>>
      Ptx;
  for (const MemAccess &A : PTX.Accesses)
    if (Global(A) && A.Form.Known && A.Form.Array)
      Ptx[{A.Form.Array, A.Bytes, A.Form.Tid, A.Form.Ctaid, A.Form.Global,
           A.Form.LoopStep}]
          .push_back(A.Form.Offset);
  std::vector<std::vector<int64_t>> Patterns;
  for (auto &[Key, Offs] : Ptx) {
    llvm::sort(Offs);
    Offs.erase(std::unique(Offs.begin(), Offs.end()), Offs.end());
    if (Offs.size() >= 2)
      Patterns.push_back(Offs);
  }
  // The IR's sibling groups.
  std::map<std::pair<unsigned, unsigned>, std::vector<size_t>> Ir;
  for (size_t I = 0; I < Into.Accesses.size(); ++I)
    if (Global(Into.Accesses[I]) && Into.Accesses[I].BaseId &&
        !Into.Accesses[I].Form.Known)
      Ir[{Into.Accesses[I].BaseId, Into.Accesses[I].Bytes}].push_back(I);
  for (auto &[Key, Members] : Ir) {
    std::vector<int64_t> Offs;
    for (size_t I : Members)
      Offs.push_back(Into.Accesses[I].Offset);
    llvm::sort(Offs);
    Offs.erase(std::unique(Offs.begin(), Offs.end()), Offs.end());
    if (Offs.size() < 2)
      continue;
    std::optional<int64_t> Shift;
    bool Agree = true;
    for (const std::vector<int64_t> &P : Patterns) {
      if (P.size() != Offs.size())
        continue;
      bool Same = true;
      for (size_t K = 1; K < P.size() && Same; ++K)
        Same = P[K] - P[0] == Offs[K] - Offs[0];
      if (!Same)
        continue;
      // Where the pattern starts in a sector.
      int64_t S = ((P[0] - Offs[0]) % 32 + 32) % 32;
      Agree = Agree && (!Shift || *Shift == S);
      Shift = S;
    }
    if (!Shift || !Agree || !*Shift)
      continue;
    for (size_t I : Members)
      Into.Accesses[I].Offset += *Shift;
  }
}

/// The shared accesses' widths are the final code's: which scalar shared
/// accesses become vectors turns on how code generation forms their
/// addresses (clang's loop strength reduction steps a tile's pointers that
/// nvcc recomputes from a counter, and an assembler that does not prove
/// stepped pointers leaves those scalar: docs/MODEL.md, "Vector accesses
/// the compiler forms"), which the IR, read before code generation, can
/// only guess. Where the emitted PTX moves the same shared bytes as the IR
/// in each direction (within 1%) in fewer instructions, and in neither
/// direction more, its shared accesses replace the IR's, and the op counts
/// follow. Not where the PTX has more: the PTX front end's proof of an
/// address's low bits covers less arithmetic than the IR's known bits
/// (products and bitwise operations carry alignment only, 12 definitions
/// deep), and until it carried residues it left a pointer offset by -12
/// off a 16-byte-aligned row scalar where ptxas merges (SGEMM_CUDA's
/// shared-blocking kernel: docs/FIDELITY.md, "Session 58"). True when
/// they did.
static bool takeSharedWidths(KernelProfile &Into, const KernelProfile &PTX) {
  struct Side {
    double Bytes[2] = {0, 0}, Instrs[2] = {0, 0};
  };
  auto Sum = [](const KernelProfile &K) {
    Side S;
    for (const MemAccess &A : K.Accesses)
      if (A.Space == AddrSpace::Shared && !A.Bulk && !A.IsAtomic) {
        S.Bytes[A.IsStore] += A.Count * A.Bytes;
        S.Instrs[A.IsStore] += A.Count;
      }
    return S;
  };
  const Side IR = Sum(Into), Final = Sum(PTX);
  auto Near = [](double X, double Y) {
    return std::fabs(X - Y) <= 0.01 * std::max(X, Y);
  };
  bool SameBytes = IR.Bytes[0] + IR.Bytes[1] > 0, NoNarrower = true,
       Wider = false;
  for (unsigned D = 0; D < 2; ++D) {
    SameBytes = SameBytes && Near(IR.Bytes[D], Final.Bytes[D]);
    NoNarrower = NoNarrower && (Final.Instrs[D] <= IR.Instrs[D] ||
                                Near(IR.Instrs[D], Final.Instrs[D]));
    Wider = Wider || (Final.Instrs[D] < IR.Instrs[D] &&
                      !Near(IR.Instrs[D], Final.Instrs[D]));
  }
  if (!SameBytes || !NoNarrower || !Wider)
    return false;
  llvm::erase_if(Into.Accesses, [](const MemAccess &A) {
    return A.Space == AddrSpace::Shared && !A.Bulk && !A.IsAtomic;
  });
  // The PTX's checks are kept only where the PTX's are taken below (the
  // IR has none of its own).
  const bool KeepChecks = Into.Guards.empty();
  for (const MemAccess &A : PTX.Accesses)
    if (A.Space == AddrSpace::Shared && !A.Bulk && !A.IsAtomic) {
      Into.Accesses.push_back(A);
      if (!KeepChecks)
        Into.Accesses.back().Guards.clear();
    }
  for (bool Store : {false, true}) {
    double &Ops = Into.op(memOpClass(AddrSpace::Shared, Store, false));
    Ops = std::max(0.0, Ops + Final.Instrs[Store] - IR.Instrs[Store]);
  }
  Into.Warnings.push_back("shared accesses' widths taken from the emitted "
                          "PTX, whose code generation formed other vectors "
                          "than the IR suggests");
  return true;
}

void mergePTXFacts(KernelProfile &Into, const KernelProfile &PTX) {
  Into.Source = "ir+ptx";
  // Without ptxas, the liveness estimate over the final PTX is the better
  // one (26 example kernels: mean error 6.3 registers against 8.6 for the
  // IR's; docs/REGISTERS.md).
  unsigned Est = PTX.Res.EstimatedRegisters ? PTX.Res.EstimatedRegisters
                                            : Into.Res.EstimatedRegisters;
  bool DynamicShared = Into.Res.UsesDynamicShared || PTX.Res.UsesDynamicShared;
  if (PTX.Res.RegistersExact) {
    Into.Res = PTX.Res;
  } else {
    // After code generation the static shared memory is exact, and the
    // stack frame (.local depot) is what survived.
    Into.Res.StaticSharedBytes = PTX.Res.StaticSharedBytes;
    Into.Res.StackFrameBytes =
        std::max(Into.Res.StackFrameBytes, PTX.Res.StackFrameBytes);
    Into.Res.Registers = Est;
    // Spills estimated from the final code's pressure (the IR has none).
    Into.Res.SpillStoreBytes = PTX.Res.SpillStoreBytes;
    Into.Res.SpillLoadBytes = PTX.Res.SpillLoadBytes;
  }
  Into.Res.EstimatedRegisters = Est;
  // Where the pressure peaks, what a cap would spill and what holds the
  // registers are facts of the final code.
  Into.PressureSteps = PTX.PressureSteps;
  Into.CapSpills = PTX.CapSpills;
  Into.Held = PTX.Held;
  // The IR knows about dynamic shared memory even when ptxas cannot.
  Into.Res.UsesDynamicShared = DynamicShared;
  if (PTX.Bounds.any())
    Into.Bounds = PTX.Bounds;
  // The PTX's .loc lines (with -g or -gline-tables-only) locate a kernel
  // the IR could not (no debug info).
  if (Into.Line == 0 && PTX.Line > 0 && !PTX.File.empty()) {
    Into.File = PTX.File;
    Into.Line = PTX.Line;
  }
  // Work counts: the IR's (SCEV) unless the emitted PTX resolves more of
  // the loops (a bound SCEV cannot compute but the final code shows, given
  // the stated arguments): then the code that runs is counted.
  // Source loops guessed: a runtime-unrolled loop's remainder is its main
  // loop's guess.
  auto Guessed = [](const KernelProfile &K) {
    return std::count_if(K.Loops.begin(), K.Loops.end(),
                         [](const LoopRecord &L) {
                           return L.Guessed && !L.UnrollRemainder;
                         });
  };
  const bool WorkFromPTX = Guessed(PTX) < Guessed(Into);
  if (WorkFromPTX) {
    Into.Ops = PTX.Ops;
    Into.Flops32 = PTX.Flops32;
    Into.ConvIntToF32 = PTX.ConvIntToF32;
    Into.Flops64 = PTX.Flops64;
    Into.Flops16 = PTX.Flops16;
    Into.TensorFlops = PTX.TensorFlops;
    Into.EngineTensorFlops = PTX.EngineTensorFlops;
    Into.TensorType = PTX.TensorType;
    Into.Accesses = PTX.Accesses;
    Into.Loops = PTX.Loops;
    Into.Guesses = PTX.Guesses;
    Into.Shape.GridStrideLoop = PTX.Shape.GridStrideLoop;
    Into.Shape.WorkScalesWithBlock = PTX.Shape.WorkScalesWithBlock;
    Into.Warnings.push_back("work counted from the emitted PTX, whose loops "
                            "are resolved where the IR's are not");
    finalizeProfile(Into);
  }
  // The loads' address forms (which data an outer loop or a neighbouring
  // block reads again): read off the final code (the IR front end has no
  // forms).
  alignSiblings(Into, PTX);
  Into.FormLoads = PTX.FormLoads;
  Into.FormStores = PTX.FormStores;
  // The block a baked index is written for: the stores' address forms are
  // read off the final code, and are facts where the IR's shape was
  // unknown or inferred from a tile's dimensions or the launch bounds.
  ShapeInfo &Shape = Into.Shape;
  Shape.StoreBlock = PTX.Shape.StoreBlock;
  Shape.StoreBlockReason = PTX.Shape.StoreBlockReason;
  if (Shape.FixedByTile && Shape.StoreBlock[0] && !Into.Bounds.ReqNTid[0] &&
      (!Shape.FixedBlock[0] ||
       (Shape.FixedGuessed &&
        storeBlockFitsTile(Shape.StoreBlock, Shape.FixedBlock)))) {
    Shape.FixedBlock = Shape.StoreBlock;
    Shape.FixedGuessed = false;
    Shape.FixedReason += "; " + Shape.StoreBlockReason;
  }
  // How far a data-scaled coordinate moves the rows of a warp is bounded by
  // facts the PTX front end reads off the final code (bounds checks, row
  // pitch): the IR's accesses of one such coordinate take the median step
  // of the PTX's accesses of the same kind.
  for (MemAccess &A : Into.Accesses)
    for (unsigned D = 0; D < 3; ++D) {
      if (!(A.SmoothDims & (1u << D)) || A.SmoothStepBytes[D] > 0)
        continue;
      std::vector<double> Steps;
      for (const MemAccess &B : PTX.Accesses)
        if ((B.SmoothDims & (1u << D)) && B.SmoothStepBytes[D] > 0 &&
            B.Space == A.Space && B.Bytes == A.Bytes)
          Steps.push_back(B.SmoothStepBytes[D]);
      if (Steps.empty())
        continue;
      std::nth_element(Steps.begin(), Steps.begin() + Steps.size() / 2,
                       Steps.end());
      A.SmoothStepBytes[D] = Steps[Steps.size() / 2];
    }
  if (!WorkFromPTX && takeSharedWidths(Into, PTX))
    finalizeProfile(Into);
  // Parallelism is a property of the final instruction schedule.
  Into.MLP = PTX.MLP;
  Into.ILP = PTX.ILP;
  // Bounds checks on thread and block indices are read off the PTX (its
  // shares are fractions of work, so they apply to the IR's counts as they
  // are). Checks decided by constants or stated arguments are loop control
  // that the IR's trip counts (SCEV) already reflect: not taken twice.
  if (Into.Guards.empty()) {
    Into.Guards = PTX.Guards;
    auto PerThread = [&](unsigned GI) {
      const AffineGuard &G = PTX.Guards[GI];
      return std::any_of(G.Coef.begin(), G.Coef.begin() + GVNtid,
                         [](int64_t X) { return X != 0; }) ||
             G.Coef[GVWarp + 1] || G.Coef[GVWarp + 2];
    };
    // The form loads' and stores' checks: those kept here, as the sets
    // below keep them (the rest is loop control the IR's counts hold).
    for (std::vector<MemAccess> *Forms : {&Into.FormLoads, &Into.FormStores})
      for (MemAccess &A : *Forms)
        llvm::erase_if(A.Guards, [&](unsigned GI) {
          return GI >= PTX.Guards.size() || !PerThread(GI);
        });
    // The checks each shared access runs behind: the PTX's, where the
    // IR's shared accesses pair up with the PTX's one by one (the same
    // number, in order, of the same width, direction and count; the bulk
    // copies' shared sides join the IR's below with their checks).
    std::vector<const MemAccess *> IRShared, PTXShared;
    for (const MemAccess &A : Into.Accesses)
      if (A.Space == AddrSpace::Shared)
        IRShared.push_back(&A);
    for (const MemAccess &A : PTX.Accesses) // Bulk copies join below.
      if (A.Space == AddrSpace::Shared && !A.Bulk)
        PTXShared.push_back(&A);
    bool Pairs = !IRShared.empty() && IRShared.size() == PTXShared.size();
    for (size_t I = 0; Pairs && I < IRShared.size(); ++I) {
      const MemAccess &A = *IRShared[I], &B = *PTXShared[I];
      Pairs = A.Bytes == B.Bytes && A.IsStore == B.IsStore &&
              A.IsAtomic == B.IsAtomic &&
              std::fabs(A.Count - B.Count) <= 0.01 * std::max(A.Count, B.Count);
    }
    if (Pairs) {
      size_t I = 0;
      for (MemAccess &A : Into.Accesses)
        if (A.Space == AddrSpace::Shared) {
          A.Guards = PTXShared[I++]->Guards;
          llvm::erase_if(A.Guards, [&](unsigned GI) {
            return GI >= PTX.Guards.size() || !PerThread(GI);
          });
        }
      Into.SharedChecksKnown = true;
    }
    for (const GuardedWork &W : PTX.Guarded) {
      GuardedWork Kept;
      Kept.Share = W.Share;
      Kept.MemShare = W.MemShare;
      for (unsigned GI : W.Guards)
        if (GI < PTX.Guards.size() && PerThread(GI))
          Kept.Guards.push_back(GI);
      if (!Kept.Guards.empty())
        Into.Guarded.push_back(std::move(Kept));
    }
  }
  // A thread index times a value the loop moves (`sdata[2 * s * tid]`,
  // `s *= 2`) is a runtime pitch to the IR, lanes far apart (32-way at
  // every pass); the PTX front end counts the lanes' banks at each pass
  // (MemAccess::WaysByPass). The IR's far-pitched shared accesses take the
  // median of the PTX's counted ones of the same kind.
  if (!WorkFromPTX) {
    bool Changed = false;
    for (MemAccess &A : Into.Accesses) {
      if (A.Space != AddrSpace::Shared || A.Pattern != AccessPattern::Strided ||
          !farRowPitch(A.StrideBytes) || A.LaneMod)
        continue;
      std::vector<unsigned> Ways;
      for (const MemAccess &B : PTX.Accesses)
        if (B.WaysByPass && B.Space == AddrSpace::Shared &&
            B.Bytes == A.Bytes && B.IsStore == A.IsStore)
          Ways.push_back(B.BankConflictWays);
      if (Ways.empty())
        continue;
      std::nth_element(Ways.begin(), Ways.begin() + Ways.size() / 2,
                       Ways.end());
      A.Pattern = AccessPattern::Unknown;
      A.BankConflictWays = Ways[Ways.size() / 2];
      A.WaysByPass = true;
      Changed = true;
    }
    if (Changed)
      finalizeProfile(Into);
  }
  // Tensor-memory MMAs: the IR's inline asm, parsed alone, cannot spread
  // one thread's issue over the kernel's threads (IRInlineAsm.cpp leaves
  // them out); the PTX's.
  if (!WorkFromPTX && PTX.EngineTensorFlops > 0) {
    Into.TensorFlops += PTX.EngineTensorFlops;
    Into.EngineTensorFlops = PTX.EngineTensorFlops;
    if (Into.TensorType.empty())
      Into.TensorType = PTX.TensorType;
  }
  // Bulk copies (TMA): their bytes come from the mbarriers of the final
  // code, which the IR's inline asm calls, each parsed alone, do not
  // connect; the IR has none of them. Their checks are the PTX's (taken
  // above where the IR has none).
  if (!WorkFromPTX) {
    bool Any = false;
    bool SameChecks = Into.Guards.size() == PTX.Guards.size();
    for (const MemAccess &A : PTX.Accesses)
      if (A.Bulk) {
        Into.Accesses.push_back(A);
        if (!SameChecks)
          Into.Accesses.back().Guards.clear();
        Any = true;
      }
    if (Any)
      finalizeProfile(Into);
  }
  for (const std::string &W : PTX.Warnings)
    Into.Warnings.push_back("ptx: " + W);
}

} // namespace flipflop
