//===- IRProfile.cpp - KernelProfile from NVPTX IR ------------------------===//
//
// Walks a kernel and the device functions it calls, weighting every
// instruction by the trip counts of the loops around it (LoopInfo and
// ScalarEvolution), classifying it by functional unit, and analysing each
// memory access's address as an affine function of threadIdx.x to find its
// coalescing (global) or bank-conflict (shared) character. See
// docs/ARCHITECTURE.md ("IR front end") for the rules and their defaults.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Profile/IRProfile.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>

using namespace llvm;

namespace flipflop {

AnalysisKey KernelProfileAnalysis::Key;

bool isKernel(const Function &F) {
  return !F.isDeclaration() && F.getCallingConv() == CallingConv::PTX_Kernel;
}

namespace {

/// Limits that keep the analysis linear and bounded on odd input.
constexpr unsigned MaxCallDepth = 8;
constexpr unsigned MaxStrideDepth = 48;
constexpr double MaxWeight = 1e12;

//===----------------------------------------------------------------------===//
// Special registers
//===----------------------------------------------------------------------===//

enum class SReg { None, Tid, NTid, CtaId, NCtaId, LaneId, WarpId };

/// Classifies a read of a PTX special register; \p Dim receives 0..2.
SReg specialRegister(const Value *V, unsigned &Dim) {
  const auto *CI = dyn_cast<CallBase>(V);
  if (!CI || !CI->getCalledFunction())
    return SReg::None;
  StringRef N = CI->getCalledFunction()->getName();
  if (!N.consume_front("llvm.nvvm.read.ptx.sreg."))
    return SReg::None;
  auto Dimension = [&](StringRef S) {
    Dim = S.ends_with(".x") ? 0 : S.ends_with(".y") ? 1 : 2;
  };
  Dim = 0;
  if (N.starts_with("tid.")) {
    Dimension(N);
    return SReg::Tid;
  }
  if (N.starts_with("ntid.")) {
    Dimension(N);
    return SReg::NTid;
  }
  if (N.starts_with("ctaid.")) {
    Dimension(N);
    return SReg::CtaId;
  }
  if (N.starts_with("nctaid.")) {
    Dimension(N);
    return SReg::NCtaId;
  }
  if (N == "laneid")
    return SReg::LaneId;
  if (N == "warpid")
    return SReg::WarpId;
  return SReg::None;
}

//===----------------------------------------------------------------------===//
// Addresses as affine functions of threadIdx.x
//===----------------------------------------------------------------------===//

/// d(value)/d(threadIdx.x): Known(S) (S = 0 means uniform across the warp's
/// lanes), Symbolic (uniform but unknown coefficient, e.g. a row pitch
/// argument), Varying (data dependent), or Self (the PHI being evaluated).
struct Stride {
  enum KindTy { Known, Symbolic, Varying, Self } Kind = Known;
  int64_t S = 0;
  static Stride known(int64_t S) { return {Known, S}; }
  static Stride symbolic() { return {Symbolic, 0}; }
  static Stride varying() { return {Varying, 0}; }
  bool isUniform() const { return Kind == Known && S == 0; }
  bool operator==(const Stride &O) const { return Kind == O.Kind && S == O.S; }
};

Stride addStrides(Stride A, Stride B, bool Subtract = false) {
  if (A.Kind == Stride::Varying || B.Kind == Stride::Varying)
    return Stride::varying();
  if (A.Kind == Stride::Self || B.Kind == Stride::Self) {
    // phi + uniform step keeps the phi's stride.
    if (A.Kind == Stride::Self && B.isUniform())
      return A;
    if (B.Kind == Stride::Self && A.isUniform() && !Subtract)
      return B;
    return Stride::varying();
  }
  if (A.Kind == Stride::Symbolic || B.Kind == Stride::Symbolic)
    return Stride::symbolic();
  return Stride::known(Subtract ? A.S - B.S : A.S + B.S);
}

Stride scaleStride(Stride A, int64_t C) {
  if (A.Kind != Stride::Known)
    return A.Kind == Stride::Self ? Stride::varying() : A;
  return Stride::known(A.S * C);
}

class StrideAnalysis {
public:
  explicit StrideAnalysis(const DataLayout &DL) : DL(DL) {}

  Stride get(const Value *V, unsigned Depth = 0) {
    auto It = Memo.find(V);
    if (It != Memo.end())
      return It->second;
    if (Depth > MaxStrideDepth)
      return Stride::varying();
    Stride R = compute(V, Depth);
    // A PHI's provisional Self entry is replaced by its final value.
    Memo[V] = R;
    return R;
  }

private:
  const DataLayout &DL;
  DenseMap<const Value *, Stride> Memo;

  Stride allUniformOr(const User *U, unsigned Depth) {
    for (const Use &Op : U->operands()) {
      if (isa<BasicBlock>(Op) || isa<Function>(Op))
        continue;
      if (!get(Op, Depth + 1).isUniform())
        return Stride::varying();
    }
    return Stride::known(0);
  }

  Stride compute(const Value *V, unsigned Depth) {
    if (isa<Constant>(V) || isa<Argument>(V))
      return Stride::known(0);
    unsigned Dim = 0;
    switch (specialRegister(V, Dim)) {
    case SReg::Tid:
      return Stride::known(Dim == 0 ? 1 : 0);
    case SReg::LaneId:
      return Stride::known(1);
    case SReg::NTid:
    case SReg::CtaId:
    case SReg::NCtaId:
    case SReg::WarpId:
      return Stride::known(0);
    case SReg::None:
      break;
    }
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return Stride::varying();
    switch (I->getOpcode()) {
    case Instruction::Add:
      return addStrides(get(I->getOperand(0), Depth + 1),
                        get(I->getOperand(1), Depth + 1));
    case Instruction::Or:
      if (cast<PossiblyDisjointInst>(I)->isDisjoint())
        return addStrides(get(I->getOperand(0), Depth + 1),
                          get(I->getOperand(1), Depth + 1));
      return allUniformOr(I, Depth);
    case Instruction::Sub:
      return addStrides(get(I->getOperand(0), Depth + 1),
                        get(I->getOperand(1), Depth + 1), /*Subtract=*/true);
    case Instruction::Mul: {
      Stride A = get(I->getOperand(0), Depth + 1);
      Stride B = get(I->getOperand(1), Depth + 1);
      const auto *CA = dyn_cast<ConstantInt>(I->getOperand(0));
      const auto *CB = dyn_cast<ConstantInt>(I->getOperand(1));
      if (CB && CB->getBitWidth() <= 64)
        return scaleStride(A, CB->getSExtValue());
      if (CA && CA->getBitWidth() <= 64)
        return scaleStride(B, CA->getSExtValue());
      if (A.isUniform() && B.isUniform())
        return Stride::known(0);
      if (A.isUniform() || B.isUniform()) {
        Stride Other = A.isUniform() ? B : A;
        if (Other.Kind == Stride::Varying || Other.Kind == Stride::Self)
          return Stride::varying();
        return Stride::symbolic();
      }
      return Stride::varying();
    }
    case Instruction::Shl: {
      const auto *C = dyn_cast<ConstantInt>(I->getOperand(1));
      Stride A = get(I->getOperand(0), Depth + 1);
      if (C && C->getZExtValue() < 62)
        return scaleStride(A, int64_t(1) << C->getZExtValue());
      return A.isUniform() && get(I->getOperand(1), Depth + 1).isUniform()
                 ? Stride::known(0)
                 : Stride::varying();
    }
    case Instruction::UDiv:
    case Instruction::SDiv:
    case Instruction::LShr:
    case Instruction::AShr: {
      Stride A = get(I->getOperand(0), Depth + 1);
      const auto *C = dyn_cast<ConstantInt>(I->getOperand(1));
      if (A.isUniform() && get(I->getOperand(1), Depth + 1).isUniform())
        return Stride::known(0);
      if (!C || A.Kind != Stride::Known || C->getBitWidth() > 64)
        return Stride::varying();
      int64_t Div = I->getOpcode() == Instruction::LShr ||
                            I->getOpcode() == Instruction::AShr
                        ? (C->getZExtValue() < 62 ? int64_t(1) << C->getZExtValue() : 0)
                        : C->getSExtValue();
      if (Div <= 0)
        return Stride::varying();
      if (A.S % Div == 0)
        return Stride::known(A.S / Div);
      // tid.x / 32 and the like: constant across a warp's lanes.
      if (std::llabs(A.S) * 32 <= Div)
        return Stride::known(0);
      return Stride::varying();
    }
    case Instruction::URem:
    case Instruction::SRem:
    case Instruction::And: {
      Stride A = get(I->getOperand(0), Depth + 1);
      const auto *C = dyn_cast<ConstantInt>(I->getOperand(1));
      if (A.isUniform() && get(I->getOperand(1), Depth + 1).isUniform())
        return Stride::known(0);
      if (!C || A.Kind != Stride::Known || C->getBitWidth() > 64)
        return Stride::varying();
      int64_t Mod = I->getOpcode() == Instruction::And ? C->getSExtValue() + 1
                                                        : C->getSExtValue();
      // x % M (or x & (M-1)) keeps the stride when a warp's span fits in M.
      if (Mod > 0 && std::llabs(A.S) * 32 <= Mod)
        return A;
      return Stride::varying();
    }
    case Instruction::ZExt:
    case Instruction::SExt:
    case Instruction::Trunc:
    case Instruction::BitCast:
    case Instruction::AddrSpaceCast:
    case Instruction::IntToPtr:
    case Instruction::PtrToInt:
    case Instruction::Freeze:
      return get(I->getOperand(0), Depth + 1);
    case Instruction::GetElementPtr: {
      const auto *GEP = cast<GetElementPtrInst>(I);
      Stride R = get(GEP->getPointerOperand(), Depth + 1);
      for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
           GTI != E; ++GTI) {
        const Value *Idx = GTI.getOperand();
        if (GTI.isStruct())
          continue; // Struct field offsets are constants.
        int64_t Size =
            static_cast<int64_t>(GTI.getSequentialElementStride(DL).getFixedValue());
        R = addStrides(R, scaleStride(get(Idx, Depth + 1), Size));
      }
      return R;
    }
    case Instruction::Select: {
      Stride T = get(I->getOperand(1), Depth + 1);
      Stride F = get(I->getOperand(2), Depth + 1);
      if (T == F && get(I->getOperand(0), Depth + 1).isUniform())
        return T;
      return T == F ? T : Stride::varying();
    }
    case Instruction::PHI: {
      const auto *PN = cast<PHINode>(I);
      Memo[V] = Stride{Stride::Self, 0};
      bool Have = false;
      Stride R;
      for (const Value *In : PN->incoming_values()) {
        Stride S = get(In, Depth + 1);
        if (S.Kind == Stride::Self)
          continue;
        if (!Have) {
          R = S;
          Have = true;
        } else if (!(R == S)) {
          R = Stride::varying();
        }
      }
      Memo.erase(V);
      return Have ? R : Stride::varying();
    }
    case Instruction::Load: {
      const auto *LI = cast<LoadInst>(I);
      // -O0: a private variable in an alloca. With a single store, the load
      // sees that stored value (each thread has its own copy).
      if (const auto *AI = dyn_cast<AllocaInst>(
              getUnderlyingObject(LI->getPointerOperand(), 8))) {
        const StoreInst *Only = nullptr;
        for (const User *U : AI->users()) {
          if (const auto *SI = dyn_cast<StoreInst>(U)) {
            if (Only || SI->getValueOperand() == AI)
              return Stride::varying();
            Only = SI;
          } else if (!isa<LoadInst>(U)) {
            return Stride::varying(); // escapes or is indexed
          }
        }
        return Only ? get(Only->getValueOperand(), Depth + 1) : Stride::varying();
      }
      return get(LI->getPointerOperand(), Depth + 1).isUniform()
                 ? Stride::known(0)
                 : Stride::varying();
    }
    case Instruction::Call: {
      const auto *II = dyn_cast<IntrinsicInst>(I);
      if (II && (II->getIntrinsicID() == Intrinsic::smax ||
                 II->getIntrinsicID() == Intrinsic::smin ||
                 II->getIntrinsicID() == Intrinsic::umax ||
                 II->getIntrinsicID() == Intrinsic::umin)) {
        Stride A = get(II->getArgOperand(0), Depth + 1);
        Stride B = get(II->getArgOperand(1), Depth + 1);
        if (A == B)
          return A;
        // min(i, n-1) with a uniform clamp behaves like i on most lanes.
        if (B.isUniform())
          return A;
        if (A.isUniform())
          return B;
        return Stride::varying();
      }
      if (II && !II->mayReadOrWriteMemory() && !II->isConvergent())
        return allUniformOr(I, Depth);
      return Stride::varying();
    }
    default:
      if (I->mayReadOrWriteMemory())
        return Stride::varying();
      return allUniformOr(I, Depth);
    }
  }
};

/// Which blockIdx (or, built with SReg::Tid, threadIdx) dimensions a value
/// depends on (bits 0..2), and bit 3 when it depends on loaded data (then
/// the dimensions are not known).
class BlockDepAnalysis {
public:
  explicit BlockDepAnalysis(SReg Which = SReg::CtaId) : Which(Which) {}
  static constexpr unsigned Data = 8;
  /// Loaded from an address that varies along the analysed indices (or
  /// returned by a call): an arbitrary value per thread.
  static constexpr unsigned DataVarying = 16;
  unsigned get(const Value *V, unsigned Depth = 0) {
    auto It = Memo.find(V);
    if (It != Memo.end())
      return It->second;
    if (Depth > MaxStrideDepth)
      return Data;
    Memo[V] = 0; // Cycle guard through PHIs.
    unsigned R = compute(V, Depth);
    Memo[V] = R;
    return R;
  }

private:
  SReg Which;
  DenseMap<const Value *, unsigned> Memo;
  unsigned compute(const Value *V, unsigned Depth) {
    if (isa<Constant>(V) || isa<Argument>(V))
      return 0;
    unsigned Dim = 0;
    if (SReg R = specialRegister(V, Dim); R != SReg::None)
      return R == Which || (Which == SReg::Tid && R == SReg::LaneId)
                 ? 1u << Dim
                 : 0;
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return Data;
    unsigned M = 0;
    if (const auto *LI = dyn_cast<LoadInst>(I)) {
      // A value loaded from a private variable (-O0) carries what was stored.
      if (const auto *AI = dyn_cast<AllocaInst>(
              getUnderlyingObject(LI->getPointerOperand(), 8))) {
        for (const User *U : AI->users())
          if (const auto *SI = dyn_cast<StoreInst>(U))
            if (SI->getPointerOperand() == AI)
              M |= get(SI->getValueOperand(), Depth + 1);
        return M;
      }
      unsigned P = get(LI->getPointerOperand(), Depth + 1);
      return P | Data | ((P & (7u | DataVarying)) ? DataVarying : 0u);
    }
    if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
      return Data | DataVarying;
    for (const Use &Op : I->operands())
      if (!isa<BasicBlock>(Op) && !isa<Function>(Op))
        M |= get(Op, Depth + 1);
    // A data-scaled coordinate (float from indices and warp-uniform data,
    // converted to an integer) moves smoothly with the index: not a gather
    // along y/z (docs/MODEL.md, "Data-scaled coordinates"; the PTX front
    // end's smoothCoordinateTaint).
    if (isa<FPToSIInst>(I) || isa<FPToUIInst>(I))
      if ((M & Data) && !(M & DataVarying))
        M &= ~(Data | 6u);
    return M;
  }
};

//===----------------------------------------------------------------------===//
// Instruction classification
//===----------------------------------------------------------------------===//

unsigned lanesOf(Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return VT->getNumElements();
  return 1;
}

/// Which FP class an FP type belongs to; Other for non-FP.
OpClass fpClass(Type *T) {
  Type *S = T->getScalarType();
  if (S->isFloatTy())
    return OpClass::FP32;
  if (S->isDoubleTy())
    return OpClass::FP64;
  if (S->isHalfTy() || S->isBFloatTy())
    return OpClass::FP16;
  return OpClass::Other;
}

/// libdevice functions known to run on the SFU (plus a few FP32 ops).
bool isLibdeviceSFU(StringRef N) {
  return StringSwitch<bool>(N)
      .Cases({"expf", "exp2f", "exp10f", "logf", "log2f", "log10f", "sinf",
              "cosf", "tanf", "sincosf"},
             true)
      .Cases({"rsqrtf", "sqrtf", "powf", "tanhf", "fast_expf", "fast_logf",
              "fast_sinf", "fast_cosf", "fast_powf", "fast_exp10f",
              "fast_log2f", "fast_log10f", "fast_tanf", "frcp_rn", "fdividef",
              "fast_fdividef"},
             true)
      .Default(false);
}

AddrSpace addrSpaceOf(unsigned AS) {
  switch (AS) {
  case 1:
    return AddrSpace::Global;
  case 3:
    return AddrSpace::Shared;
  case 4:
    return AddrSpace::Const;
  case 5:
    return AddrSpace::Local;
  case 101:
    return AddrSpace::Param;
  default:
    return AddrSpace::Generic;
  }
}

/// Finds the address space a generic pointer really points to by looking
/// through casts and GEPs (clang emits generic pointers for kernel args and
/// casts them to global; at -O0 nothing is inferred yet).
unsigned underlyingAddrSpace(const Value *Ptr) {
  for (unsigned I = 0; I < 16 && Ptr; ++I) {
    unsigned AS = Ptr->getType()->getPointerAddressSpace();
    if (AS != 0)
      return AS;
    if (const auto *ASC = dyn_cast<AddrSpaceCastOperator>(Ptr)) {
      Ptr = ASC->getPointerOperand();
      continue;
    }
    if (const auto *GEP = dyn_cast<GEPOperator>(Ptr)) {
      Ptr = GEP->getPointerOperand();
      continue;
    }
    if (isa<Argument>(Ptr))
      return 1; // Kernel pointer arguments point to global memory.
    if (const auto *LI = dyn_cast<LoadInst>(Ptr)) {
      // A pointer loaded from an argument slot (-O0) is a global pointer.
      if (isa<AllocaInst>(LI->getPointerOperand()->stripPointerCasts()))
        return 1;
    }
    break;
  }
  return 0;
}

struct TensorShape {
  unsigned M = 0, N = 0, K = 0;
  std::string Type;
  unsigned ThreadsPerOp = 32; // warp (mma/wmma) or warpgroup (wgmma)
};

/// Parses mNnNkN and the input type out of an NVVM tensor intrinsic name.
bool parseTensorIntrinsic(StringRef Name, TensorShape &T) {
  if (!(Name.starts_with("llvm.nvvm.wmma.") && Name.contains(".mma")) &&
      !Name.starts_with("llvm.nvvm.mma.") &&
      !Name.starts_with("llvm.nvvm.wgmma.mma_async"))
    return false;
  if (Name.starts_with("llvm.nvvm.wgmma."))
    T.ThreadsPerOp = 128;
  SmallVector<StringRef, 12> Parts;
  Name.split(Parts, '.');
  for (StringRef P : Parts) {
    if (P.size() > 4 && P[0] == 'm' && P.contains('n') && P.contains('k')) {
      size_t NPos = P.find('n'), KPos = P.find('k');
      if (NPos == StringRef::npos || KPos == StringRef::npos || KPos < NPos)
        continue;
      P.substr(1, NPos - 1).getAsInteger(10, T.M);
      P.substr(NPos + 1, KPos - NPos - 1).getAsInteger(10, T.N);
      P.substr(KPos + 1).getAsInteger(10, T.K);
    }
    if (T.Type.empty() &&
        (P == "f16" || P == "bf16" || P == "tf32" || P == "s8" || P == "u8" ||
         P == "f64" || P == "e4m3" || P == "e5m2" || P == "s4" || P == "b1"))
      T.Type = P.str();
  }
  if (T.Type.empty())
    T.Type = "f16";
  return T.M && T.N && T.K;
}

//===----------------------------------------------------------------------===//
// SCEV evaluation with launch facts
//===----------------------------------------------------------------------===//

/// True when \p S reads the special register \p Reg (of dimension \p Dim
/// when Dim < 3, of any dimension otherwise).
bool scevMentions(const SCEV *S, SReg Reg, unsigned Dim = 3) {
  bool Found = false;
  SCEVExprContains(S, [&](const SCEV *X) {
    if (const auto *U = dyn_cast<SCEVUnknown>(X)) {
      unsigned D;
      if (specialRegister(U->getValue(), D) == Reg && (Dim > 2 || D == Dim))
        Found = true;
    }
    return Found;
  });
  return Found;
}

/// Where a trip count is evaluated: the launch facts (kernel arguments), a
/// block shape, and thread 0 as the representative thread.
struct EvalPoint {
  const LaunchFacts *Facts = nullptr;
  /// The caller's actual argument of each parameter of a followed device
  /// function (ProfileBuilder::ArgActual): a parameter reads its value.
  const DenseMap<const Argument *, const Value *> *Actual = nullptr;
  std::array<uint64_t, 3> Block{256, 1, 1};
  /// Value of the arguments without a fact; only to probe how a guessed
  /// count varies with blockDim, never to resolve it.
  std::optional<int64_t> MissingArg;
};

/// Evaluates \p S at \p At in the SCEV's own integer width: casts truncate
/// and extend, division is unsigned, min/max keep their signedness, and
/// arithmetic wraps as the IR does. std::nullopt when \p S reads anything
/// but kernel arguments with a known value, blockDim and threadIdx.
std::optional<APInt> evaluateSCEV(const SCEV *S, const EvalPoint &At,
                                  unsigned Depth = 0) {
  if (Depth > 32 || !S->getType()->isIntegerTy())
    return std::nullopt;
  unsigned Width = S->getType()->getIntegerBitWidth();
  if (const auto *C = dyn_cast<SCEVConstant>(S))
    return C->getAPInt();
  if (const auto *U = dyn_cast<SCEVUnknown>(S)) {
    if (const auto *A = dyn_cast<Argument>(U->getValue())) {
      // A device function's parameter is its caller's actual argument: a
      // constant, or (through any depth of calls) a kernel argument.
      while (!isKernel(*A->getParent())) {
        const Value *Act = nullptr;
        if (At.Actual)
          Act = At.Actual->lookup(A);
        if (const auto *C = dyn_cast_or_null<ConstantInt>(Act))
          return C->getValue().sextOrTrunc(Width);
        A = dyn_cast_or_null<Argument>(Act);
        if (!A)
          return std::nullopt;
      }
      auto It = At.Facts->ArgValues.find(A->getArgNo());
      if (It == At.Facts->ArgValues.end() && !At.MissingArg)
        return std::nullopt;
      int64_t V = It != At.Facts->ArgValues.end() ? It->second : *At.MissingArg;
      return APInt(64, static_cast<uint64_t>(V), /*isSigned=*/true)
          .sextOrTrunc(Width);
    }
    unsigned Dim;
    switch (specialRegister(U->getValue(), Dim)) {
    case SReg::NTid:
      return APInt(64, At.Block[Dim]).zextOrTrunc(Width);
    case SReg::Tid:
    case SReg::LaneId:
      return APInt(Width, 0); // Thread 0, a representative thread.
    default:
      return std::nullopt;
    }
  }
  if (const auto *C = dyn_cast<SCEVCastExpr>(S)) {
    auto V = evaluateSCEV(C->getOperand(), At, Depth + 1);
    if (!V)
      return std::nullopt;
    switch (S->getSCEVType()) {
    case scTruncate:
      return V->trunc(Width);
    case scZeroExtend:
      return V->zext(Width);
    case scSignExtend:
      return V->sext(Width);
    default:
      return std::nullopt; // ptrtoint
    }
  }
  if (const auto *D = dyn_cast<SCEVUDivExpr>(S)) {
    auto L = evaluateSCEV(D->getLHS(), At, Depth + 1);
    auto R = evaluateSCEV(D->getRHS(), At, Depth + 1);
    if (!L || !R || R->isZero())
      return std::nullopt;
    return L->udiv(*R);
  }
  if (const auto *N = dyn_cast<SCEVNAryExpr>(S)) {
    if (isa<SCEVAddRecExpr>(N))
      return std::nullopt;
    std::optional<APInt> Acc;
    for (const SCEV *Op : N->operands()) {
      auto V = evaluateSCEV(Op, At, Depth + 1);
      if (!V || V->getBitWidth() != Width)
        return std::nullopt;
      if (!Acc) {
        Acc = *V;
        continue;
      }
      switch (N->getSCEVType()) {
      case scAddExpr: *Acc += *V; break;
      case scMulExpr: *Acc *= *V; break;
      case scSMaxExpr: *Acc = APIntOps::smax(*Acc, *V); break;
      case scUMaxExpr: *Acc = APIntOps::umax(*Acc, *V); break;
      case scSMinExpr: *Acc = APIntOps::smin(*Acc, *V); break;
      case scUMinExpr:
      case scSequentialUMinExpr: *Acc = APIntOps::umin(*Acc, *V); break;
      default: return std::nullopt;
      }
    }
    return Acc;
  }
  return std::nullopt;
}

/// Evaluates the i1 condition \p V at \p At: comparisons of SCEV-evaluable
/// integers, and logical and/or/not of those. std::nullopt when unknown, and
/// for conditions on threadIdx/laneid: they differ between the threads of a
/// block, and thread 0 is no representative of who enters a guarded loop.
std::optional<bool> evaluateCondition(const Value *V, ScalarEvolution &SE,
                                      const EvalPoint &At, unsigned Depth = 0) {
  using namespace PatternMatch;
  if (Depth > 8)
    return std::nullopt;
  if (const auto *C = dyn_cast<ConstantInt>(V))
    return C->isOne();
  if (const auto *Cmp = dyn_cast<ICmpInst>(V)) {
    Value *A = Cmp->getOperand(0), *B = Cmp->getOperand(1);
    if (!A->getType()->isIntegerTy() || !SE.isSCEVable(A->getType()))
      return std::nullopt;
    const SCEV *SA = SE.getSCEV(A), *SB = SE.getSCEV(B);
    for (const SCEV *X : {SA, SB})
      if (scevMentions(X, SReg::Tid) || scevMentions(X, SReg::LaneId))
        return std::nullopt;
    auto X = evaluateSCEV(SA, At), Y = evaluateSCEV(SB, At);
    if (!X || !Y || X->getBitWidth() != Y->getBitWidth())
      return std::nullopt;
    return ICmpInst::compare(*X, *Y, Cmp->getPredicate());
  }
  const Value *X = nullptr, *Y = nullptr;
  if (match(V, m_Not(m_Value(X)))) {
    auto R = evaluateCondition(X, SE, At, Depth + 1);
    return R ? std::optional<bool>(!*R) : std::nullopt;
  }
  bool IsAnd = match(V, m_LogicalAnd(m_Value(X), m_Value(Y)));
  if (IsAnd || match(V, m_LogicalOr(m_Value(X), m_Value(Y)))) {
    auto L = evaluateCondition(X, SE, At, Depth + 1);
    auto R = evaluateCondition(Y, SE, At, Depth + 1);
    if (IsAnd && ((L && !*L) || (R && !*R)))
      return false;
    if (!IsAnd && ((L && *L) || (R && *R)))
      return true;
    if (L && R)
      return IsAnd ? (*L && *R) : (*L || *R);
  }
  return std::nullopt;
}

/// A condition that holds whenever the loop is entered: a branch edge that
/// dominates its header (the guard that skips a rotated or unrolled loop
/// when its bound is too small), or an llvm.assume dominating it.
struct EntryCondition {
  const Value *Cond;
  bool Holds;
};

SmallVector<EntryCondition, 4> entryConditions(const Loop *L,
                                               const DominatorTree &DT) {
  SmallVector<EntryCondition, 4> Conds;
  const BasicBlock *H = L->getHeader();
  const DomTreeNode *N = DT.getNode(H);
  constexpr unsigned MaxDominators = 32;
  unsigned Seen = 0;
  for (N = N ? N->getIDom() : nullptr; N && Seen < MaxDominators;
       N = N->getIDom(), ++Seen) {
    const BasicBlock *D = N->getBlock();
    for (const Instruction &I : *D)
      if (const auto *A = dyn_cast<AssumeInst>(&I))
        Conds.push_back({A->getArgOperand(0), true});
    const auto *BI = dyn_cast<BranchInst>(D->getTerminator());
    if (!BI || !BI->isConditional() ||
        BI->getSuccessor(0) == BI->getSuccessor(1))
      continue;
    for (unsigned S = 0; S < 2; ++S)
      if (DT.dominates(BasicBlockEdge(D, BI->getSuccessor(S)), H))
        Conds.push_back({BI->getCondition(), S == 0});
  }
  return Conds;
}

/// Trip count of \p L (backedge-taken count \p BTC) at \p At: 0 when an
/// entry condition is false there; std::nullopt when unknown. A count that
/// is negative in its width or above ScalarEvolution's constant maximum is
/// the wrapped value of a loop that is not entered (its guard was not
/// recognised): 0 as well, never ~2^32 or ~2^64.
std::optional<double> tripAt(const Loop *L, const SCEV *BTC,
                             ScalarEvolution &SE,
                             ArrayRef<EntryCondition> Conds,
                             const EvalPoint &At) {
  for (const EntryCondition &C : Conds)
    if (auto V = evaluateCondition(C.Cond, SE, At))
      if (*V != C.Holds)
        return 0.0;
  auto V = evaluateSCEV(BTC, At);
  if (!V)
    return std::nullopt;
  if (V->getBitWidth() >= 16 && V->isNegative())
    return 0.0;
  if (const auto *Max =
          dyn_cast<SCEVConstant>(SE.getConstantMaxBackedgeTakenCount(L))) {
    const APInt &M = Max->getAPInt();
    unsigned W = std::max(M.getBitWidth(), V->getBitWidth());
    if (V->zext(W).ugt(M.zext(W)))
      return 0.0;
  }
  return V->roundToDouble(/*isSigned=*/false) + 1;
}

/// How a trip count that reads blockDim varies with it, from samples at
/// blockDim.d = 16, 32, 64 (the other dimensions at \p At; blockDim.z is
/// at most 64, and ScalarEvolution knows it). An affine,
/// increasing count (for (j = 0; j < blockDim.y; ++j), unrolled or not) is
/// recorded as TripPerBlockDim * blockDim.d + TripBlockOffset for the model
/// to evaluate per configuration, and Trip becomes its value at \p At (an
/// average, 1/8 for a loop unrolled by 8 at blockDim.y = 1; at least the
/// slope, so that the body of a loop not entered there is still counted and
/// can be rescaled); a decreasing
/// count is a block-stride loop (DependsOnBlockDim). For a guessed count
/// (\p At probes unknown arguments) only the direction is taken.
void fitBlockDim(LoopRecord &R, const Loop *L, const SCEV *BTC,
                 ScalarEvolution &SE, ArrayRef<EntryCondition> Conds,
                 const EvalPoint &At) {
  const double Samples[3] = {16, 32, 64};
  for (unsigned D = 0; D < 3; ++D) {
    if (!scevMentions(BTC, SReg::NTid, D))
      continue;
    double T[3];
    bool Known = true;
    for (unsigned I = 0; I < 3 && Known; ++I) {
      EvalPoint X = At;
      X.Block[D] = static_cast<uint64_t>(Samples[I]);
      std::optional<double> V = tripAt(L, BTC, SE, Conds, X);
      Known = V.has_value();
      T[I] = V.value_or(0);
    }
    if (!Known)
      continue;
    if (T[2] < T[0]) {
      R.DependsOnBlockDim = true;
      return;
    }
    double Slope = (T[2] - T[0]) / (Samples[2] - Samples[0]);
    double Offset = T[0] - Slope * Samples[0];
    // Within one iteration of a line: floors of a division by the unroll
    // factor or by a constant stay affine.
    bool Affine = std::fabs(T[1] - (Slope * Samples[1] + Offset)) <= 1.0;
    if (Slope > 0 && Affine && !R.Guessed) {
      R.TripBlockDim = static_cast<int>(D);
      R.TripPerBlockDim = Slope;
      R.TripBlockOffset = Offset;
      R.Trip = std::max(Slope, Slope * double(At.Block[D]) + Offset);
      R.DependsOn = std::string("blockDim.") + "xyz"[D];
      return;
    }
  }
}

/// A reader's description of what a trip count depends on: the kernel
/// arguments (by name when the IR keeps names, else by position) and the
/// launch dimensions.
std::string describeDependence(const SCEV *S) {
  std::set<std::string> Args;
  bool Block = false, Grid = false, Data = false;
  SCEVExprContains(S, [&](const SCEV *X) {
    if (const auto *U = dyn_cast<SCEVUnknown>(X)) {
      unsigned Dim;
      SReg R = specialRegister(U->getValue(), Dim);
      if (const auto *A = dyn_cast<Argument>(U->getValue()))
        Args.insert(A->hasName() ? "'" + A->getName().str() + "'"
                                 : "#" + std::to_string(A->getArgNo()));
      else if (R == SReg::NTid)
        Block = true;
      else if (R == SReg::NCtaId)
        Grid = true;
      else if (R == SReg::None)
        Data = true;
    }
    return false;
  });
  std::string D;
  for (const std::string &A : Args)
    D += (D.empty() ? "kernel argument " : ", ") + A;
  if (Block)
    D += D.empty() ? "blockDim" : ", blockDim";
  if (Grid)
    D += D.empty() ? "gridDim" : ", gridDim";
  if (Data || D.empty())
    D += D.empty() ? "values computed in the kernel" : " and values computed in the kernel";
  return D;
}

std::string scevText(const SCEV *S) {
  std::string Text;
  raw_string_ostream OS(Text);
  S->print(OS);
  constexpr size_t MaxLen = 60;
  if (Text.size() > MaxLen)
    Text = Text.substr(0, MaxLen - 3) + "...";
  return Text;
}

//===----------------------------------------------------------------------===//
// The walker
//===----------------------------------------------------------------------===//

class ProfileBuilder {
public:
  ProfileBuilder(Function &Kernel, FunctionAnalysisManager &FAM,
                 const LaunchFacts &Facts)
      : Kernel(Kernel), FAM(FAM), Facts(Facts),
        DL(Kernel.getParent()->getDataLayout()) {}

  KernelProfile build();

private:
  Function &Kernel;
  FunctionAnalysisManager &FAM;
  const LaunchFacts &Facts;
  const DataLayout &DL;
  KernelProfile P;
  SmallPtrSet<const Function *, 8> OnStack;
  SmallPtrSet<const GlobalVariable *, 8> SharedSeen;
  std::vector<const GlobalVariable *> SharedArrays;
  DenseMap<const Loop *, LoopRecord> LoopMemo;
  /// Index in P.Loops of each loop, and the weighted work inside the loops
  /// whose trip count follows a block dimension (for LoopRecord::WorkShare).
  DenseMap<const Loop *, size_t> LoopIndex;
  DenseMap<const Loop *, double> BlockDimLoopWork;
  double TotalWork = 0, DivergentWork = 0;
  BlockDepAnalysis BlockDeps;
  BlockDepAnalysis ThreadDeps{SReg::Tid};
  unsigned MaxGlobalLoadsPerBlock = 0;
  /// MemAccess::BaseId of each base pointer (sibling loads).
  DenseMap<const Value *, unsigned> BaseIds;
  /// The caller's actual argument of each parameter of a followed device
  /// function: a private array or a shared tile passed down keeps its space
  /// (CLBlast's XgemmBody gets its accumulators and tiles so), a kernel
  /// argument passed down keeps its stated value (trip counts).
  DenseMap<const Argument *, const Value *> ArgActual;
  /// Known alignment (bytes) of the accesses of the block being walked, by
  /// index in P.Accesses: a vector access needs its width's alignment.
  DenseMap<size_t, uint64_t> AccessAlign;

  /// The object \p Ptr points into, through the parameters of followed
  /// calls.
  const Value *underlyingObject(const Value *Ptr) const {
    for (unsigned I = 0; I < 8; ++I) {
      const Value *U = getUnderlyingObject(Ptr, 8);
      const auto *A = dyn_cast<Argument>(U);
      auto It = A ? ArgActual.find(A) : ArgActual.end();
      if (It == ArgActual.end())
        return U;
      Ptr = It->second;
    }
    return Ptr;
  }
  /// underlyingAddrSpace() through the parameters of followed calls.
  unsigned addrSpaceThroughCalls(const Value *Ptr) const {
    const Value *U = underlyingObject(Ptr);
    if (isa<AllocaInst>(U))
      return 5;
    if (unsigned AS = U->getType()->getPointerAddressSpace())
      return AS;
    return underlyingAddrSpace(U);
  }

  void walk(Function &F, double Weight, unsigned Depth);
  const LoopRecord &loopRecord(const Loop *L, ScalarEvolution &SE,
                               Function &F, unsigned Depth);
  double blockWeight(const BasicBlock &BB, LoopInfo &LI, ScalarEvolution &SE,
                     Function &F, unsigned Depth);
  void classify(Instruction &I, double W, StrideAnalysis &SA, LoopInfo &LI,
                ScalarEvolution &SE, unsigned Depth, bool Divergent);

  void addAccess(Instruction &I, Value *Ptr, Type *ValTy, bool IsStore,
                 bool IsAtomic, double W, StrideAnalysis &SA, LoopInfo &LI,
                 ScalarEvolution &SE);
  void noteSharedUse(const Value *Ptr);
  void mergeVectorSiblings(size_t Begin);
  void shapeFromBounds();
  void markBlockReuse();
  void decideShape();
  unsigned estimateRegisters(Function &F);
  unsigned lineOf(const Instruction &I) const {
    if (const DebugLoc &DLoc = I.getDebugLoc())
      return DLoc.getLine();
    return 0;
  }
};

/// The backedge-taken count of a loop ScalarEvolution gives up on although
/// its only exit is the latch's `{Start,+,Step} < Bound` (signed or
/// unsigned, `<=`, or `!=`), Step a positive constant and Bound loop
/// invariant: SCEV cannot count it when it cannot prove the compared value
/// does not wrap, which is clang's code for `for (k = 0; k < K; k += 32)`
/// with the increment in the latch. The count, for the values where the loop
/// runs, is ceil((Bound - Start) / Step) (0 when Bound <= Start).
const SCEV *latchExitCount(const Loop *L, ScalarEvolution &SE) {
  const BasicBlock *Latch = L->getLoopLatch();
  if (!Latch || L->getExitingBlock() != Latch)
    return SE.getCouldNotCompute();
  const auto *BI = dyn_cast<BranchInst>(Latch->getTerminator());
  const auto *Cmp = BI && BI->isConditional()
                        ? dyn_cast<ICmpInst>(BI->getCondition())
                        : nullptr;
  if (!Cmp || !SE.isSCEVable(Cmp->getOperand(0)->getType()))
    return SE.getCouldNotCompute();
  CmpInst::Predicate P = Cmp->getPredicate();
  if (!L->contains(BI->getSuccessor(0)))
    P = CmpInst::getInversePredicate(P); // the condition to continue
  const SCEV *X = SE.getSCEV(Cmp->getOperand(0));
  const SCEV *B = SE.getSCEV(Cmp->getOperand(1));
  if (!isa<SCEVAddRecExpr>(X)) {
    std::swap(X, B);
    P = CmpInst::getSwappedPredicate(P);
  }
  const auto *AR = dyn_cast<SCEVAddRecExpr>(X);
  const auto *Step =
      AR && AR->getLoop() == L && AR->isAffine()
          ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
          : nullptr;
  if (!Step || !Step->getAPInt().isStrictlyPositive() ||
      !SE.isLoopInvariant(B, L))
    return SE.getCouldNotCompute();
  const SCEV *Start = AR->getStart();
  const SCEV *One = SE.getOne(B->getType());
  bool Signed = CmpInst::isSigned(P);
  switch (P) {
  case CmpInst::ICMP_SLE:
  case CmpInst::ICMP_ULE:
    B = SE.getAddExpr(B, One);
    [[fallthrough]];
  case CmpInst::ICMP_SLT:
  case CmpInst::ICMP_ULT: {
    const SCEV *Top = Signed ? SE.getSMaxExpr(B, Start) : SE.getUMaxExpr(B, Start);
    const SCEV *Diff = SE.getMinusSCEV(Top, Start);
    const SCEV *Round = SE.getMinusSCEV(Step, One);
    return SE.getUDivExpr(SE.getAddExpr(Diff, Round), Step);
  }
  case CmpInst::ICMP_NE:
    return SE.getUDivExpr(SE.getMinusSCEV(B, Start), Step);
  default:
    return SE.getCouldNotCompute();
  }
}

const LoopRecord &ProfileBuilder::loopRecord(const Loop *L, ScalarEvolution &SE,
                                             Function &F, unsigned Depth) {
  auto It = LoopMemo.find(L);
  if (It != LoopMemo.end())
    return It->second;
  LoopRecord R;
  R.Depth = L->getLoopDepth() + Depth;
  if (const DebugLoc &Loc = L->getStartLoc())
    R.Line = Loc.getLine();
  if (unsigned TC = SE.getSmallConstantTripCount(L)) {
    R.Trip = TC;
    R.Exact = true;
  } else {
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(BTC))
      BTC = latchExitCount(L, SE);
    if (!isa<SCEVCouldNotCompute>(BTC)) {
      R.Symbolic = "(" + scevText(BTC) + ") + 1";
      R.DependsOn = describeDependence(BTC);
      bool ByBlock = scevMentions(BTC, SReg::NTid);
      if (ByBlock && scevMentions(BTC, SReg::NCtaId)) {
        // for (i = tid + b*B; i < n; i += B * G): a grid-stride loop.
        R.GridStride = true;
        R.DependsOn = "the problem size over the whole grid (grid-stride loop)";
      }
      auto Conds =
          entryConditions(L, FAM.getResult<DominatorTreeAnalysis>(F));
      EvalPoint Ref;
      Ref.Facts = &Facts;
      Ref.Actual = &ArgActual;
      Ref.Block = {Facts.AssumedBlockX ? Facts.AssumedBlockX : 256u, 1, 1};
      std::optional<double> T;
      if (R.GridStride && Facts.TotalThreads) {
        R.Trip = 1; // One pass per launch-wide stride over the problem.
      } else if (!R.GridStride && (T = tripAt(L, BTC, SE, Conds, Ref))) {
        R.Trip = *T;
        if (ByBlock)
          fitBlockDim(R, L, BTC, SE, Conds, Ref);
      } else {
        R.Trip = Facts.DefaultTrip;
        R.Guessed = true;
        if (ByBlock && !R.GridStride) {
          EvalPoint Probe = Ref;
          Probe.MissingArg = int64_t(1) << 20;
          fitBlockDim(R, L, BTC, SE, Conds, Probe);
        }
      }
    } else {
      // Loops whose step is not constant: look for blockDim- and
      // gridDim-strided induction variables.
      for (PHINode &PN : L->getHeader()->phis()) {
        if (!SE.isSCEVable(PN.getType()))
          continue;
        const auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&PN));
        if (!AR || AR->getLoop() != L)
          continue;
        const SCEV *Step = AR->getStepRecurrence(SE);
        bool ByBlock = scevMentions(Step, SReg::NTid);
        bool ByGrid = scevMentions(Step, SReg::NCtaId);
        if (ByBlock && ByGrid) {
          R.GridStride = true;
          R.Symbolic = "N / (gridDim.x * blockDim.x)";
          R.DependsOn = "the problem size over the whole grid (grid-stride loop)";
        } else if (ByBlock) {
          R.DependsOnBlockDim = true;
          R.Symbolic = "N / blockDim.x";
          R.DependsOn = "the problem size over blockDim (block-stride loop)";
        }
      }
      if (R.Symbolic.empty()) {
        R.Symbolic = "unknown";
        R.DependsOn = "an exit condition ScalarEvolution cannot compute";
      }
      R.Trip = Facts.DefaultTrip;
      R.Guessed = true;
      if (R.GridStride && Facts.TotalThreads) {
        // Resolved against the problem size: one pass per launch-wide stride.
        R.Trip = 1;
        R.Guessed = false;
      }
    }
  }
  if (R.Guessed) {
    std::string What = "loop";
    if (R.Line)
      What += " at line " + std::to_string(R.Line);
    if (!F.getName().empty() && &F != &Kernel)
      What += " in " + demangle(F.getName().str());
    P.Guesses.push_back(What + ": trip count depends on " + R.DependsOn +
                        ", assumed " +
                        std::to_string(static_cast<long long>(R.Trip)));
  }
  if (R.DependsOnBlockDim)
    P.Shape.WorkScalesWithBlock = true;
  if (R.GridStride)
    P.Shape.GridStrideLoop = true;
  LoopIndex[L] = P.Loops.size();
  P.Loops.push_back(R);
  return LoopMemo.try_emplace(L, R).first->second;
}

double ProfileBuilder::blockWeight(const BasicBlock &BB, LoopInfo &LI,
                                   ScalarEvolution &SE, Function &F,
                                   unsigned Depth) {
  double W = 1;
  for (const Loop *L = LI.getLoopFor(&BB); L; L = L->getParentLoop()) {
    // 0: the loop's guard skips it for the launch facts. A count that
    // follows blockDim is an average over the block (possibly below 1).
    const LoopRecord &R = loopRecord(L, SE, F, Depth);
    W *= R.TripBlockDim >= 0 ? R.Trip
         : R.Trip > 0        ? std::max(1.0, R.Trip)
                             : 0.0;
  }
  return std::min(W, MaxWeight);
}

void ProfileBuilder::noteSharedUse(const Value *Ptr) {
  const Value *Base = underlyingObject(Ptr);
  const auto *GV = dyn_cast_or_null<GlobalVariable>(Base);
  if (!GV || GV->getAddressSpace() != 3 || !SharedSeen.insert(GV).second)
    return;
  SharedArrays.push_back(GV);
  Type *T = GV->getValueType();
  uint64_t Size = DL.getTypeAllocSize(T);
  bool Dynamic = GV->hasExternalLinkage() && GV->isDeclaration();
  if (auto *AT = dyn_cast<ArrayType>(T))
    Dynamic |= AT->getNumElements() == 0;
  if (Dynamic)
    P.Res.UsesDynamicShared = true;
  else
    P.Res.StaticSharedBytes += static_cast<unsigned>(Size);
}

/// NVPTX's load/store vectorizer turns scalar loads (stores) of one base
/// pointer at consecutive constant offsets in one basic block into vector
/// accesses of up to 16 bytes (`ld.shared.v4.f32`): CLBlast's float4 tiles,
/// scalarised by SROA, come back as v4 loads in the PTX. The IR's accesses
/// of one block (those from \p Begin on) are merged the same way, 4 x 4 B or
/// 2 x 8 B at a 16-byte-aligned offset, else 2 x 4 B at an 8-byte-aligned
/// one, so that both front ends count the instructions and bank conflicts
/// of the code that runs.
void ProfileBuilder::mergeVectorSiblings(size_t Begin) {
  std::vector<MemAccess> &As = P.Accesses;
  if (As.size() - Begin < 2) {
    AccessAlign.clear();
    return;
  }
  auto Key = [](const MemAccess &A) {
    return std::make_tuple(A.BaseId, A.IsStore, unsigned(A.Space), A.Bytes,
                           A.StrideBytes, unsigned(A.Pattern), A.Count);
  };
  // The block's candidates by (key, offset), in program order: an unrolled
  // loop reads the same offsets again, and each read merges with its own
  // neighbours.
  using KeyT = decltype(Key(As[Begin]));
  std::map<std::pair<KeyT, int64_t>, std::vector<size_t>> ByOffset;
  for (size_t I = Begin; I < As.size(); ++I) {
    const MemAccess &A = As[I];
    if (A.BaseId && !A.IsAtomic && (A.Bytes == 4 || A.Bytes == 8) &&
        A.Pattern != AccessPattern::Unknown &&
        (A.Space == AddrSpace::Shared || A.Space == AddrSpace::Global ||
         A.Space == AddrSpace::Generic || A.Space == AddrSpace::Local))
      ByOffset[{Key(A), A.Offset}].push_back(I);
  }
  std::vector<bool> Dead(As.size(), false);
  std::map<std::pair<KeyT, int64_t>, size_t> Used; // consumed per entry
  auto Take = [&](const KeyT &K, int64_t Off, unsigned N,
                  SmallVectorImpl<size_t> &Out) {
    for (unsigned J = 1; J < N; ++J) {
      auto It = ByOffset.find({K, Off + int64_t(J) * As[Out[0]].Bytes});
      size_t U = It == ByOffset.end() ? 0 : Used[It->first];
      if (It == ByOffset.end() || U >= It->second.size())
        return false;
      Out.push_back(It->second[U]);
    }
    return true;
  };
  for (auto &[KO, List] : ByOffset) {
    for (size_t &U = Used[KO]; U < List.size(); ++U) {
      size_t I = List[U];
      MemAccess &First = As[I];
      // The vector's width must be the first access's known alignment (the
      // vectorizer needs it: a row read off `in + x * 16` with align 4
      // stays scalar; a float4 tile element with align 16 is one v4 load).
      uint64_t Alignment = AccessAlign.lookup(I);
      SmallVector<size_t, 4> Run{I};
      unsigned N = 1;
      if (Alignment >= 16 && First.Offset % 16 == 0 &&
          Take(KO.first, KO.second, 16 / First.Bytes, Run)) {
        N = 16 / First.Bytes;
      } else {
        Run.resize(1);
        if (First.Bytes == 4 && Alignment >= 8 && First.Offset % 8 == 0 &&
            Take(KO.first, KO.second, 2, Run))
          N = 2;
      }
      if (N == 1)
        continue;
      for (unsigned J = 1; J < N; ++J) {
        Dead[Run[J]] = true;
        ++Used[{KO.first, KO.second + int64_t(J) * First.Bytes}];
      }
      First.Bytes *= N;
      if (First.Pattern == AccessPattern::Coalesced ||
          First.Pattern == AccessPattern::Strided)
        First.Pattern = static_cast<uint64_t>(std::llabs(First.StrideBytes)) <=
                                First.Bytes
                            ? AccessPattern::Coalesced
                            : AccessPattern::Strided;
      if (First.Space == AddrSpace::Shared)
        First.BankConflictWays =
            bankConflictWays(First.Bytes, First.StrideBytes, First.Pattern);
      OpClass C = First.Space == AddrSpace::Shared
                      ? (First.IsStore ? OpClass::StoreShared
                                       : OpClass::LoadShared)
                  : First.Space == AddrSpace::Local
                      ? (First.IsStore ? OpClass::StoreLocal
                                       : OpClass::LoadLocal)
                  : First.Space == AddrSpace::Global
                      ? (First.IsStore ? OpClass::StoreGlobal
                                       : OpClass::LoadGlobal)
                      : (First.IsStore ? OpClass::StoreGeneric
                                       : OpClass::LoadGeneric);
      P.op(C) -= (N - 1) * First.Count;
    }
  }
  size_t Out = Begin;
  for (size_t I = Begin; I < As.size(); ++I)
    if (!Dead[I])
      As[Out++] = As[I];
  As.resize(Out);
  AccessAlign.clear();
}

void ProfileBuilder::addAccess(Instruction &I, Value *Ptr, Type *ValTy,
                               bool IsStore, bool IsAtomic, double W,
                               StrideAnalysis &SA, LoopInfo &LI,
                               ScalarEvolution &SE) {
  // Private variables that the optimiser left in memory in their own
  // function live in registers once ptxas has run: no traffic, no
  // instruction. A private array passed to a device function that is not
  // inlined stays on the stack (the callee reaches it through a generic
  // pointer: clang's code for CLBlast's accumulators): local memory.
  if (isa<AllocaInst>(getUnderlyingObject(Ptr, 8)))
    return;
  bool ViaCall = isa<AllocaInst>(underlyingObject(Ptr));
  MemAccess A;
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS == 0)
    AS = ViaCall ? 5 : addrSpaceThroughCalls(Ptr);
  A.Space = addrSpaceOf(AS);
  if (A.Space == AddrSpace::Shared)
    noteSharedUse(Ptr);
  A.IsStore = IsStore;
  A.IsAtomic = IsAtomic;
  A.Bytes = std::max<unsigned>(1, DL.getTypeStoreSize(ValTy).getFixedValue());
  A.Count = W;
  A.Line = lineOf(I);
  if (const auto *LdI = dyn_cast<LoadInst>(&I))
    A.ReadOnly = LdI->hasMetadata(LLVMContext::MD_invariant_load);
  if (A.Space == AddrSpace::Global || A.Space == AddrSpace::Generic)
    A.BlockDims = BlockDeps.get(Ptr) & (7u | AddrDependsOnData);
  A.ThreadDims = ThreadDeps.get(Ptr) & 7u;
  A.ThreadDimsKnown = true;
  // Siblings: the same base pointer plus a constant byte offset (as PTX's
  // [%rd+off]); values are unique in the module, so callees differ.
  int64_t Off = 0;
  if (const Value *Base = GetPointerBaseWithConstantOffset(Ptr, Off, DL)) {
    A.BaseId = BaseIds.try_emplace(Base, BaseIds.size() + 1).first->second;
    A.Offset = Off;
  }
  Stride S = SA.get(Ptr);
  switch (S.Kind) {
  case Stride::Known:
    A.StrideBytes = S.S;
    if (S.S == 0)
      A.Pattern = AccessPattern::Uniform;
    else if (static_cast<uint64_t>(std::llabs(S.S)) <= A.Bytes)
      A.Pattern = AccessPattern::Coalesced;
    else
      A.Pattern = AccessPattern::Strided;
    break;
  case Stride::Symbolic:
    // Uniform but unknown lane stride (e.g. a row pitch): every lane in a
    // sector of its own unless launch facts say otherwise.
    A.Pattern = AccessPattern::Strided;
    A.StrideBytes = 0;
    A.SectorsPerRequest = 32.0 * std::ceil(A.Bytes / 32.0);
    A.BankConflictWays = A.Space == AddrSpace::Shared ? 32 : 1;
    break;
  default:
    A.Pattern = AccessPattern::Unknown;
    break;
  }
  if (const Loop *L = LI.getLoopFor(I.getParent()))
    if (SE.isSCEVable(Ptr->getType()))
      A.LoopInvariant = SE.isLoopInvariant(SE.getSCEV(Ptr), L);
  if (A.Space == AddrSpace::Shared && S.Kind == Stride::Known)
    A.BankConflictWays = bankConflictWays(A.Bytes, A.StrideBytes, A.Pattern);
  // The op count by class.
  OpClass C;
  switch (A.Space) {
  case AddrSpace::Global:
    C = IsAtomic ? OpClass::AtomicGlobal
                 : IsStore ? OpClass::StoreGlobal : OpClass::LoadGlobal;
    break;
  case AddrSpace::Shared:
    C = IsAtomic ? OpClass::AtomicShared
                 : IsStore ? OpClass::StoreShared : OpClass::LoadShared;
    break;
  case AddrSpace::Local:
    C = IsStore ? OpClass::StoreLocal : OpClass::LoadLocal;
    break;
  case AddrSpace::Const:
    C = OpClass::LoadConst;
    break;
  case AddrSpace::Param:
    C = OpClass::LoadParam;
    break;
  default:
    C = IsAtomic ? OpClass::AtomicGlobal
                 : IsStore ? OpClass::StoreGeneric : OpClass::LoadGeneric;
    break;
  }
  P.op(C) += W;
  if (A.Space == AddrSpace::Param || A.Space == AddrSpace::Const ||
      (A.Space == AddrSpace::Local && !ViaCall))
    return; // Not traffic the model prices; counted above.
  uint64_t Alignment = Ptr->getPointerAlignment(DL).value();
  if (const auto *Ld = dyn_cast<LoadInst>(&I))
    Alignment = std::max(Alignment, Ld->getAlign().value());
  else if (const auto *St = dyn_cast<StoreInst>(&I))
    Alignment = std::max(Alignment, St->getAlign().value());
  else if (isa<MemIntrinsic>(I))
    Alignment = std::max<uint64_t>(Alignment, A.Bytes);
  AccessAlign[P.Accesses.size()] = Alignment;
  P.Accesses.push_back(A);
}

void ProfileBuilder::classify(Instruction &I, double W, StrideAnalysis &SA,
                              LoopInfo &LI, ScalarEvolution &SE,
                              unsigned Depth, bool Divergent) {
  auto Add = [&](OpClass C, double N = 1) { P.op(C) += W * N; };
  auto AddFP = [&](Type *T, double FlopsPerLane) {
    OpClass C = fpClass(T);
    if (C == OpClass::Other)
      return;
    double Lanes = lanesOf(T);
    // Packed f16x2 issues as one instruction of two lanes.
    Add(C, Lanes);
    double F = W * Lanes * FlopsPerLane;
    if (C == OpClass::FP32)
      P.Flops32 += F;
    else if (C == OpClass::FP64)
      P.Flops64 += F;
    else
      P.Flops16 += F;
  };

  switch (I.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub: {
    // `fmul contract` feeding only an `fadd contract`: the back end emits
    // one FMA (CUDA's default -ffp-contract=fast-honor-pragmas), counted
    // as one instruction of two FLOPs by the fmul and this add's FLOP.
    bool Fused = false;
    if (I.hasAllowContract())
      for (const Value *Op : I.operands())
        if (const auto *M = dyn_cast<BinaryOperator>(Op))
          Fused |= M->getOpcode() == Instruction::FMul &&
                   M->hasAllowContract() && M->hasOneUse() &&
                   M->getType() == I.getType();
    if (Fused) {
      OpClass C = fpClass(I.getType());
      double F = W * lanesOf(I.getType());
      if (C == OpClass::FP32)
        P.Flops32 += F;
      else if (C == OpClass::FP64)
        P.Flops64 += F;
      else if (C != OpClass::Other)
        P.Flops16 += F;
      break;
    }
    AddFP(I.getType(), 1);
    break;
  }
  case Instruction::FMul:
    AddFP(I.getType(), 1);
    break;
  case Instruction::FNeg:
  case Instruction::FCmp:
    if (fpClass(I.getOperand(0)->getType()) != OpClass::Other)
      Add(fpClass(I.getOperand(0)->getType()), lanesOf(I.getOperand(0)->getType()));
    break;
  case Instruction::FDiv:
  case Instruction::FRem: {
    // IEEE division: a reciprocal on the SFU plus Newton steps (PTX div.rn
    // expands to about 8 FP ops for f32; f64 to about 10 FP64 ops).
    OpClass C = fpClass(I.getType());
    Add(OpClass::SFU, lanesOf(I.getType()));
    if (C == OpClass::FP64) {
      Add(OpClass::FP64, 10 * lanesOf(I.getType()));
      P.Flops64 += W * 10;
    } else {
      Add(OpClass::FP32, 8 * lanesOf(I.getType()));
      P.Flops32 += W * 8;
    }
    break;
  }
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
  case Instruction::ICmp:
  case Instruction::Select:
    if (!I.getType()->getScalarType()->isIntegerTy(1) ||
        I.getOpcode() == Instruction::ICmp || I.getOpcode() == Instruction::Select)
      Add(OpClass::Int, lanesOf(I.getType()));
    break;
  case Instruction::Mul:
    Add(OpClass::IntMul, lanesOf(I.getType()));
    break;
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem:
    // Division by a non-constant expands to ~20 integer ops with a
    // multiply-high core; by a constant it becomes a multiply and shifts.
    if (isa<ConstantInt>(I.getOperand(1))) {
      Add(OpClass::IntMul, 1);
      Add(OpClass::Int, 2);
    } else {
      Add(OpClass::IntMul, 4);
      Add(OpClass::Int, 16);
    }
    break;
  case Instruction::SIToFP:
  case Instruction::UIToFP:
  case Instruction::FPToSI:
  case Instruction::FPToUI:
  case Instruction::FPExt:
  case Instruction::FPTrunc:
    Add(OpClass::Conv, lanesOf(I.getType()));
    break;
  case Instruction::GetElementPtr: {
    // Address arithmetic: one integer op per variable index (mad.wide).
    unsigned Var = 0;
    for (const Use &Idx : cast<GetElementPtrInst>(I).indices())
      if (!isa<Constant>(Idx))
        ++Var;
    if (Var)
      Add(OpClass::Int, Var);
    break;
  }
  case Instruction::Br:
    if (cast<BranchInst>(I).isConditional())
      Add(OpClass::Branch);
    break;
  case Instruction::Switch:
    Add(OpClass::Branch);
    break;
  case Instruction::Load: {
    auto &LdI = cast<LoadInst>(I);
    addAccess(I, LdI.getPointerOperand(), LdI.getType(), false, false, W, SA,
              LI, SE);
    break;
  }
  case Instruction::Store: {
    auto &St = cast<StoreInst>(I);
    addAccess(I, St.getPointerOperand(), St.getValueOperand()->getType(), true,
              false, W, SA, LI, SE);
    break;
  }
  case Instruction::AtomicRMW: {
    auto &A = cast<AtomicRMWInst>(I);
    addAccess(I, A.getPointerOperand(), A.getValOperand()->getType(), true,
              true, W, SA, LI, SE);
    break;
  }
  case Instruction::AtomicCmpXchg: {
    auto &A = cast<AtomicCmpXchgInst>(I);
    addAccess(I, A.getPointerOperand(), A.getNewValOperand()->getType(), true,
              true, W, SA, LI, SE);
    break;
  }
  case Instruction::Call: {
    auto &CB = cast<CallBase>(I);
    Function *Callee = CB.getCalledFunction();
    if (!Callee) {
      if (!CB.isInlineAsm()) {
        P.HasIndirectCalls = true;
        Add(OpClass::Other);
      }
      break;
    }
    StringRef N = Callee->getName();
    unsigned Dim = 0;
    SReg R = specialRegister(&I, Dim);
    if (R != SReg::None) {
      if (R == SReg::Tid)
        P.Shape.UsesTid[Dim] = true;
      else if (R == SReg::NTid) {
        P.Shape.ReadsBlockDim = true;
        P.Shape.ReadsNTid[Dim] = true;
      } else if (R == SReg::NCtaId)
        P.Shape.ReadsGridDim = true;
      break;
    }
    if (Callee->isIntrinsic()) {
      Intrinsic::ID ID = Callee->getIntrinsicID();
      switch (ID) {
      case Intrinsic::fma:
      case Intrinsic::fmuladd:
        AddFP(I.getType(), 2);
        return;
      case Intrinsic::sqrt:
      case Intrinsic::exp:
      case Intrinsic::exp2:
      case Intrinsic::log:
      case Intrinsic::log2:
      case Intrinsic::log10:
      case Intrinsic::sin:
      case Intrinsic::cos:
      case Intrinsic::pow:
        Add(OpClass::SFU, lanesOf(I.getType()));
        if (fpClass(I.getType()) == OpClass::FP64)
          Add(OpClass::FP64, 8); // f64 transcendentals are FP64 sequences.
        return;
      case Intrinsic::fabs:
      case Intrinsic::minnum:
      case Intrinsic::maxnum:
      case Intrinsic::minimum:
      case Intrinsic::maximum:
      case Intrinsic::copysign:
      case Intrinsic::floor:
      case Intrinsic::ceil:
      case Intrinsic::trunc:
      case Intrinsic::rint:
      case Intrinsic::nearbyint:
      case Intrinsic::round:
        AddFP(I.getType(), 0);
        return;
      case Intrinsic::smax:
      case Intrinsic::smin:
      case Intrinsic::umax:
      case Intrinsic::umin:
      case Intrinsic::abs:
      case Intrinsic::ctpop:
      case Intrinsic::ctlz:
      case Intrinsic::cttz:
      case Intrinsic::bitreverse:
      case Intrinsic::bswap:
      case Intrinsic::fshl:
      case Intrinsic::fshr:
        Add(OpClass::Int, lanesOf(I.getType()));
        return;
      case Intrinsic::memcpy:
      case Intrinsic::memmove:
      case Intrinsic::memset: {
        // A small copy of known size (clang's struct copies: a float4
        // through a struct) is loads and stores of the aligned width up to
        // 8 bytes (NVPTX expands it with its widest integer, i64), as the
        // back end does; a private side costs nothing.
        const auto &MI = cast<MemIntrinsic>(CB);
        const auto *Len = dyn_cast<ConstantInt>(MI.getLength());
        if (!Len || Len->isZero() || Len->getZExtValue() > 256) {
          Add(OpClass::Other);
          return;
        }
        uint64_t L = Len->getZExtValue();
        uint64_t Chunk = std::min<uint64_t>({8, L, MI.getDestAlign()
                                                        ? MI.getDestAlign()->value()
                                                        : 1});
        if (const auto *MT = dyn_cast<MemTransferInst>(&MI))
          Chunk = std::min<uint64_t>(
              Chunk, MT->getSourceAlign() ? MT->getSourceAlign()->value() : 1);
        while (L % Chunk)
          Chunk /= 2;
        double N = double(L / Chunk);
        Type *T = IntegerType::get(I.getContext(), unsigned(Chunk * 8));
        if (const auto *MT = dyn_cast<MemTransferInst>(&MI))
          addAccess(I, const_cast<Value *>(MT->getRawSource()), T, false,
                    false, W * N, SA, LI, SE);
        addAccess(I, MI.getRawDest(), T, true, false, W * N, SA, LI, SE);
        return;
      }
      default:
        break;
      }
      if (!N.starts_with("llvm.nvvm."))
        return; // lifetime, dbg, assume, ...: no work
      TensorShape TS;
      if (parseTensorIntrinsic(N, TS)) {
        Add(OpClass::Tensor);
        P.TensorFlops += W * 2.0 * TS.M * TS.N * TS.K / TS.ThreadsPerOp;
        if (P.TensorType.empty())
          P.TensorType = TS.Type;
        return;
      }
      if (N.starts_with("llvm.nvvm.wmma.") || N.starts_with("llvm.nvvm.ldmatrix") ||
          N.starts_with("llvm.nvvm.stmatrix")) {
        // Fragment loads/stores: shared or global by the pointer.
        bool IsStore = N.contains(".store") || N.contains("stmatrix");
        if (CB.arg_size() && CB.getArgOperand(0)->getType()->isPointerTy()) {
          unsigned AS = CB.getArgOperand(0)->getType()->getPointerAddressSpace();
          if (AS == 0)
            AS = addrSpaceThroughCalls(CB.getArgOperand(0));
          OpClass C = AS == 3 ? (IsStore ? OpClass::StoreShared : OpClass::LoadShared)
                              : (IsStore ? OpClass::StoreGlobal : OpClass::LoadGlobal);
          Add(C);
          MemAccess A;
          A.Space = AS == 3 ? AddrSpace::Shared : AddrSpace::Global;
          A.IsStore = IsStore;
          A.Bytes = 16; // a fragment row per lane, coalesced
          A.Count = W;
          A.Pattern = AccessPattern::Coalesced;
          A.StrideBytes = 16;
          A.Line = lineOf(I);
          if (A.Space == AddrSpace::Shared)
            noteSharedUse(CB.getArgOperand(0));
          else
            A.BlockDims =
                BlockDeps.get(CB.getArgOperand(0)) & (7u | AddrDependsOnData);
          P.Accesses.push_back(A);
        }
        return;
      }
      if (N.contains("barrier") || N.contains("bar.sync") ||
          N.contains("bar.warp.sync"))
        return Add(N.contains("warp") ? OpClass::Shuffle : OpClass::Barrier);
      if (N.starts_with("llvm.nvvm.shfl") || N.starts_with("llvm.nvvm.vote") ||
          N.starts_with("llvm.nvvm.match") || N.starts_with("llvm.nvvm.redux") ||
          N.starts_with("llvm.nvvm.activemask"))
        return Add(OpClass::Shuffle);
      if (N.contains("atomic")) {
        unsigned AS = CB.arg_size() && CB.getArgOperand(0)->getType()->isPointerTy()
                          ? CB.getArgOperand(0)->getType()->getPointerAddressSpace()
                          : 0;
        return Add(AS == 3 ? OpClass::AtomicShared : OpClass::AtomicGlobal);
      }
      if (N.contains(".rsqrt") || N.contains(".sqrt") || N.contains(".rcp") ||
          N.contains(".ex2") || N.contains(".lg2") || N.contains(".sin") ||
          N.contains(".cos") || N.contains(".tanh"))
        return Add(OpClass::SFU);
      if (N.starts_with("llvm.nvvm.fma") || N.starts_with("llvm.nvvm.add") ||
          N.starts_with("llvm.nvvm.mul") || N.starts_with("llvm.nvvm.fmax") ||
          N.starts_with("llvm.nvvm.fmin") || N.starts_with("llvm.nvvm.fabs")) {
        Add(N.contains(".d") && !N.contains(".ftz") ? OpClass::FP64 : OpClass::FP32);
        if (N.starts_with("llvm.nvvm.fma"))
          P.Flops32 += 2 * W;
        return;
      }
      if (N.starts_with("llvm.nvvm.ldg") || N.starts_with("llvm.nvvm.ldu")) {
        if (CB.arg_size())
          addAccess(I, CB.getArgOperand(0), I.getType(), false, false, W, SA,
                    LI, SE);
        if (!P.Accesses.empty())
          P.Accesses.back().ReadOnly = true;
        return;
      }
      if (N.contains(".f2") || N.contains(".i2") || N.contains(".d2") ||
          N.contains(".ui2") || N.contains(".ll2") || N.contains(".ull2"))
        return Add(OpClass::Conv);
      return Add(OpClass::Other);
    }
    if (N.starts_with("__nv_")) {
      StringRef Base = N.drop_front(5);
      if (isLibdeviceSFU(Base)) {
        Add(OpClass::SFU);
        Add(OpClass::FP32, 4);
        P.Flops32 += 4 * W;
        return;
      }
      if (Base.ends_with("f")) {
        Add(OpClass::FP32, 4);
        P.Flops32 += 4 * W;
      } else {
        Add(OpClass::FP64, 20);
        P.Flops64 += 20 * W;
      }
      return;
    }
    if (Callee->isDeclaration()) {
      if (N == "vprintf" || N == "malloc" || N == "free" ||
          N.starts_with("__assertfail"))
        return Add(OpClass::Other);
      P.Warnings.push_back("call to external function '" + N.str() +
                           "' counted as one 'other' instruction");
      return Add(OpClass::Other);
    }
    // A device function that was not inlined: follow it.
    if (OnStack.count(Callee) || Depth >= MaxCallDepth) {
      P.HasRecursion |= OnStack.count(Callee) != 0;
      if (Depth >= MaxCallDepth)
        P.Warnings.push_back("call depth limit reached at '" + N.str() + "'");
      return Add(OpClass::Other);
    }
    ++P.CallsFollowed;
    for (Argument &A : Callee->args())
      if (A.getArgNo() < CB.arg_size())
        ArgActual[&A] = CB.getArgOperand(A.getArgNo());
    walk(*Callee, W, Depth + 1);
    return;
  }
  default:
    break;
  }
}

void ProfileBuilder::walk(Function &F, double Weight, unsigned Depth) {
  OnStack.insert(&F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &UI = FAM.getResult<UniformityInfoAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  StrideAnalysis SA(DL);
  // Loops must be recorded per function: memo is keyed by Loop*, unique.

  // Blocks under a divergent branch: dominated by one of its successors and
  // not post-dominating the branch.
  // NVPTX's divergence analysis takes every call for divergent, reads of
  // blockDim/gridDim/blockIdx included: a comparison of values that are the
  // same for every thread that reaches it (kernel arguments, those
  // registers, induction variables over them) is uniform, so a loop bounded
  // by blockDim.y does not count twice.
  auto LaunchUniform = [&](const Value *Cond) {
    const auto *Cmp = dyn_cast<ICmpInst>(Cond);
    if (!Cmp || !isKernel(F))
      return false;
    for (const Value *Op : Cmp->operands()) {
      if (!SE.isSCEVable(Op->getType()))
        return false;
      bool Uniform = true;
      SCEVExprContains(SE.getSCEV(const_cast<Value *>(Op)), [&](const SCEV *X) {
        if (const auto *U = dyn_cast<SCEVUnknown>(X)) {
          unsigned Dim;
          SReg R = specialRegister(U->getValue(), Dim);
          Uniform &= isa<Argument>(U->getValue()) || R == SReg::NTid ||
                     R == SReg::NCtaId || R == SReg::CtaId;
        }
        return !Uniform;
      });
      if (!Uniform)
        return false;
    }
    return true;
  };
  SmallPtrSet<const BasicBlock *, 16> DivergentBlocks;
  for (BasicBlock &BB : F) {
    auto *BI = dyn_cast<BranchInst>(BB.getTerminator());
    if (!BI || !BI->isConditional() || !UI.isDivergent(BI->getCondition()) ||
        LaunchUniform(BI->getCondition()))
      continue;
    ++P.DivergentBranches;
    for (BasicBlock &Other : F)
      if (&Other != &BB && DT.dominates(&BB, &Other) &&
          !PDT.dominates(&Other, &BB))
        DivergentBlocks.insert(&Other);
  }

  for (BasicBlock &BB : F) {
    if (!DT.isReachableFromEntry(&BB))
      continue;
    double W = std::min(MaxWeight, Weight * blockWeight(BB, LI, SE, F, Depth));
    bool Div = DivergentBlocks.count(&BB) != 0;
    unsigned GlobalLoads = 0;
    SmallVector<const Loop *, 4> BlockDimLoops;
    for (const Loop *L = LI.getLoopFor(&BB); L; L = L->getParentLoop()) {
      auto It = LoopMemo.find(L);
      if (It != LoopMemo.end() && It->second.TripBlockDim >= 0)
        BlockDimLoops.push_back(L);
    }
    size_t AccessesBefore = P.Accesses.size();
    for (Instruction &I : BB) {
      double Before = 0, After = 0;
      for (double V : P.Ops)
        Before += V;
      classify(I, W, SA, LI, SE, Depth, Div);
      for (double V : P.Ops)
        After += V;
      TotalWork += After - Before;
      for (const Loop *L : BlockDimLoops)
        BlockDimLoopWork[L] += After - Before;
      if (Div)
        DivergentWork += After - Before;
      if (auto *Ld = dyn_cast<LoadInst>(&I))
        if (addrSpaceThroughCalls(Ld->getPointerOperand()) == 1 ||
            Ld->getPointerAddressSpace() == 1)
          ++GlobalLoads;
    }
    mergeVectorSiblings(AccessesBefore);
    if (LI.getLoopFor(&BB) || Depth == 0)
      MaxGlobalLoadsPerBlock = std::max(MaxGlobalLoadsPerBlock, GlobalLoads);
  }
  OnStack.erase(&F);
}

/// True when \p V is only used to form addresses of loads and stores.
static bool isAddressOnly(const Value *V, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  for (const User *U : V->users()) {
    if (const auto *LI = dyn_cast<LoadInst>(U)) {
      if (LI->getPointerOperand() != V)
        return false;
    } else if (const auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getPointerOperand() != V)
        return false;
    } else if (isa<GetElementPtrInst>(U) || isa<AddrSpaceCastInst>(U)) {
      if (!isAddressOnly(U, Depth + 1))
        return false;
    } else {
      return false;
    }
  }
  return true;
}

unsigned ProfileBuilder::estimateRegisters(Function &F) {
  // Backward liveness over SSA values; each live value costs its width in
  // 32-bit registers (i1 lives in predicate registers and costs nothing).
  auto Cost = [&](const Value *V) -> unsigned {
    Type *T = V->getType();
    if (T->isVoidTy() || T->isLabelTy() || T->isIntegerTy(1) ||
        isa<AllocaInst>(V) || T->isMetadataTy() || T->isTokenTy())
      return 0;
    if (T->isAggregateType())
      return 0;
    // Addresses used only by loads and stores (directly or through further
    // address arithmetic): ptxas keeps one base register per array and folds
    // the offsets into [reg+imm] addressing or rematerialises them, so they
    // are charged per array below, not per value (hoisted, fully unrolled
    // tile addresses would otherwise count hundreds of registers).
    if (T->isPointerTy() && isa<Instruction>(V) && isAddressOnly(V))
      return 0;
    uint64_t Bits = DL.getTypeSizeInBits(T).getKnownMinValue();
    if (T->isVectorTy() && T->getScalarType()->isIntegerTy(1))
      return 0;
    return static_cast<unsigned>((Bits + 31) / 32);
  };
  DenseMap<const BasicBlock *, SmallPtrSet<const Value *, 32>> LiveIn;
  auto Tracked = [](const Value *V) {
    return isa<Instruction>(V) || isa<Argument>(V);
  };
  // Iterate to a fixed point (bounded).
  bool Changed = true;
  for (unsigned Iter = 0; Changed && Iter < 32; ++Iter) {
    Changed = false;
    for (BasicBlock &BB : reverse(F)) {
      SmallPtrSet<const Value *, 32> Live;
      for (const BasicBlock *S : successors(&BB)) {
        for (const Value *V : LiveIn[S])
          if (!(isa<PHINode>(V) && cast<PHINode>(V)->getParent() == S))
            Live.insert(V);
        for (const PHINode &PN : S->phis()) {
          const Value *In = PN.getIncomingValueForBlock(&BB);
          if (In && Tracked(In))
            Live.insert(In);
        }
      }
      for (Instruction &I : reverse(BB)) {
        Live.erase(&I);
        if (isa<PHINode>(I))
          continue;
        for (const Use &U : I.operands())
          if (Tracked(U))
            Live.insert(U);
      }
      for (const PHINode &PN : BB.phis())
        Live.insert(&PN);
      auto &Old = LiveIn[&BB];
      if (Old.size() != Live.size()) {
        Old = Live;
        Changed = true;
      }
    }
  }
  unsigned Max = 0;
  for (BasicBlock &BB : F) {
    SmallPtrSet<const Value *, 32> Live;
    for (const BasicBlock *S : successors(&BB)) {
      for (const Value *V : LiveIn[S])
        if (!(isa<PHINode>(V) && cast<PHINode>(V)->getParent() == S))
          Live.insert(V);
      for (const PHINode &PN : S->phis())
        if (const Value *In = PN.getIncomingValueForBlock(&BB))
          if (Tracked(In))
            Live.insert(In);
    }
    unsigned Cur = 0;
    for (const Value *V : Live)
      Cur += Cost(V);
    Max = std::max(Max, Cur);
    for (Instruction &I : reverse(BB)) {
      if (Live.erase(&I))
        Cur -= std::min(Cur, Cost(&I));
      if (isa<PHINode>(I))
        continue;
      for (const Use &U : I.operands())
        if (Tracked(U) && Live.insert(U).second)
          Cur += Cost(U);
      Max = std::max(Max, Cur);
    }
  }
  // One 64-bit base register per array addressed through free addresses,
  // and a few for the stack pointer and temporaries.
  SmallPtrSet<const Value *, 16> Bases;
  for (Instruction &I : instructions(F))
    if (I.getType()->isPointerTy() && isAddressOnly(&I))
      Bases.insert(getUnderlyingObject(&I, 8));
  unsigned BaseRegs = 2 * std::min<unsigned>(Bases.size(), 16);
  return std::min(255u, Max + BaseRegs + 4);
}

void ProfileBuilder::markBlockReuse() {
  static_assert(BlockDepAnalysis::Data == AddrDependsOnData,
                "one data bit for both front ends");
  markInterBlockReuse(P);
}

void ProfileBuilder::shapeFromBounds() {
  auto ParseDims = [](StringRef S, std::array<unsigned, 3> &Out) {
    SmallVector<StringRef, 3> Parts;
    S.split(Parts, ',');
    for (unsigned I = 0; I < Parts.size() && I < 3; ++I)
      Parts[I].trim().getAsInteger(10, Out[I]);
    for (unsigned I = Parts.size(); I < 3; ++I)
      Out[I] = Out[0] ? 1 : 0;
  };
  auto Str = [&](StringRef Attr) -> StringRef {
    Attribute A = Kernel.getFnAttribute(Attr);
    return A.isStringAttribute() ? A.getValueAsString() : StringRef();
  };
  if (StringRef S = Str("nvvm.maxntid"); !S.empty())
    ParseDims(S, P.Bounds.MaxNTid);
  if (StringRef S = Str("nvvm.reqntid"); !S.empty())
    ParseDims(S, P.Bounds.ReqNTid);
  if (StringRef S = Str("nvvm.minctasm"); !S.empty())
    S.trim().getAsInteger(10, P.Bounds.MinCTAsPerSM);
  if (StringRef S = Str("nvvm.maxnreg"); !S.empty())
    S.trim().getAsInteger(10, P.Bounds.MaxNReg);
}

void ProfileBuilder::decideShape() {
  ShapeInfo &S = P.Shape;
  // A kernel that indexes by threadIdx.x without reading blockDim.x has its
  // block width baked into its index arithmetic or a shared tile.
  bool UsesAnyTid = S.UsesTid[0] || S.UsesTid[1] || S.UsesTid[2];
  if (!UsesAnyTid)
    return;
  bool Baked = false;
  for (unsigned D = 0; D < 3; ++D)
    if (S.UsesTid[D] && !S.ReadsNTid[D])
      Baked = true;
  if (!Baked)
    return;
  S.FixedByTile = true;
  // Find the tile that gives the shape: the largest static shared array.
  const GlobalVariable *Tile = nullptr;
  uint64_t Best = 0;
  for (const GlobalVariable *GV : SharedArrays) {
    uint64_t Size = DL.getTypeAllocSize(GV->getValueType());
    if (isa<ArrayType>(GV->getValueType()) && Size > Best) {
      Best = Size;
      Tile = GV;
    }
  }
  std::string Reason = "indexes by threadIdx without reading blockDim";
  // The shape, from the most to the least certain source: reqntid; a shared
  // tile whose dimensions multiply to the author's __launch_bounds__ (or any
  // tile when there are no bounds); the bounds' thread count split with the
  // tile's row length (or a warp) along x.
  unsigned Max = P.Bounds.maxThreads();
  uint64_t D0 = 0, D1 = 1;
  if (Tile) {
    auto *Outer = cast<ArrayType>(Tile->getValueType());
    D0 = Outer->getNumElements();
    if (auto *Inner = dyn_cast<ArrayType>(Outer->getElementType())) {
      D1 = D0;
      D0 = Inner->getNumElements();
    }
    Reason += "; shared tile " +
              (D1 > 1 ? "[" + std::to_string(D1) + "][" + std::to_string(D0) + "]"
                      : "[" + std::to_string(D0) + "]");
  }
  bool TwoD = S.UsesTid[1];
  auto Set = [&](uint64_t X, uint64_t Y) {
    S.FixedBlock = {static_cast<unsigned>(X), static_cast<unsigned>(Y), 1};
  };
  if (P.Bounds.ReqNTid[0]) {
    S.FixedBlock = {P.Bounds.ReqNTid[0], std::max(1u, P.Bounds.ReqNTid[1]),
                    std::max(1u, P.Bounds.ReqNTid[2])};
  } else if (Tile && TwoD && D1 > 1 && D0 * D1 <= 1024 &&
             (!Max || D0 * D1 == Max)) {
    Set(D0, D1);
  } else if (Tile && !TwoD && D1 == 1 && D0 <= 1024 && D0 % 32 == 0 &&
             (!Max || D0 == Max)) {
    Set(D0, 1);
  } else if (Max) {
    uint64_t X = !TwoD ? Max
                 : (D0 && D0 <= Max && Max % D0 == 0) ? D0
                 : std::min<uint64_t>(32, Max);
    Set(X, TwoD ? Max / X : 1);
  }
  if (Max)
    Reason += "; author's __launch_bounds__ " + std::to_string(Max);
  if (!S.FixedBlock[0])
    Reason += "; block shape unknown";
  S.FixedReason = Reason;
}

KernelProfile ProfileBuilder::build() {
  P.Name = Kernel.getName().str();
  P.DisplayName = demangle(P.Name);
  P.Source = "ir";
  if (const DISubprogram *SP = Kernel.getSubprogram()) {
    P.Line = SP->getLine();
    if (const DIFile *F = SP->getFile())
      P.File = F->getFilename().str();
  }
  if (P.File.empty())
    P.File = Kernel.getParent()->getSourceFileName();
  shapeFromBounds();
  findBlockDimChecks(Kernel, P.Shape);
  walk(Kernel, 1.0, 0);
  // Private arrays passed to device functions that are not inlined stay on
  // the stack: the frame the model's local-memory hit rate needs.
  for (const Instruction &I : instructions(Kernel))
    if (const auto *AI = dyn_cast<AllocaInst>(&I))
      if (AI->isStaticAlloca() &&
          any_of(AI->users(), [](const User *U) { return isa<CallBase>(U) &&
                                 !isa<IntrinsicInst>(U); }))
        if (auto Size = AI->getAllocationSize(DL))
          P.Res.StackFrameBytes += unsigned(Size->getFixedValue());
  P.Res.EstimatedRegisters = estimateRegisters(Kernel);
  P.Res.Registers = P.Res.EstimatedRegisters;
  P.Res.RegistersExact = false;
  P.Res.Barriers = P.op(OpClass::Barrier) > 0 ? 1 : 0;
  if (P.Res.UsesDynamicShared && !P.Res.DynamicSharedBytes)
    P.Guesses.push_back("dynamic shared memory size unknown, assumed 0 bytes");
  P.DivergentWorkFraction = TotalWork > 0 ? DivergentWork / TotalWork : 0;
  double AllOps = 0;
  for (double V : P.Ops)
    AllOps += V;
  for (const auto &[L, Work] : BlockDimLoopWork)
    P.Loops[LoopIndex.lookup(L)].WorkShare =
        AllOps > 0 ? std::min(1.0, Work / AllOps) : 0;
  P.MLP = std::max(1.0, std::min(8.0, double(MaxGlobalLoadsPerBlock)));
  decideShape();
  markBlockReuse();
  finalizeProfile(P);
  return P;
}

} // namespace

KernelProfile buildIRProfile(Function &F, FunctionAnalysisManager &FAM,
                             const LaunchFacts &Facts) {
  ProfileBuilder B(F, FAM, Facts);
  return B.build();
}

KernelProfileAnalysis::Result
KernelProfileAnalysis::run(Module &M, ModuleAnalysisManager &MAM) {
  Result R;
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function &F : M) {
    if (!isKernel(F))
      continue;
    KernelProfile P;
    CrashRecoveryContext CRC;
    bool OK = CRC.RunSafely([&] {
      if (!Facts.CrashTestKernel.empty() &&
          F.getName().contains(Facts.CrashTestKernel))
        LLVM_BUILTIN_TRAP;
      P = buildIRProfile(F, FAM, Facts);
    });
    if (!OK) {
      P = KernelProfile();
      P.Name = F.getName().str();
      P.DisplayName = demangle(P.Name);
      P.Internal = "internal error while profiling the kernel's IR";
    }
    R.insert({&F, std::move(P)});
  }
  return R;
}

} // namespace flipflop
