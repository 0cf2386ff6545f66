//===- IRClassify.cpp - Instruction classification for the IR front end ---===//
//
// ProfileBuilder's classification of instructions by functional unit, one
// helper per instruction family (floating point, integer, memory, calls and
// intrinsics), and of each memory access's space, pattern and siblings.
// classify() is an llvm::InstVisitor, ClassifyVisitor, whose visit methods
// call those helpers. See docs/ARCHITECTURE.md ("IR front end") for the
// rules and their defaults.
// The rules the PTX front end shares (memory, FP width, warp and barrier
// classes, the expansion of division, roots and special functions) are in
// flipflop/Profile/OpRules.h; this file maps IR instructions onto what
// NVPTX lowers them to there.
//
//===----------------------------------------------------------------------===//
#include "IRProfileBuilder.h"
#include "flipflop/Profile/OpRules.h"
#include "flipflop/Profile/VectorRuns.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstVisitor.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cmath>
#include <string>

using namespace llvm;

namespace flipflop {
namespace irprof {

namespace {

unsigned lanesOf(Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return VT->getNumElements();
  return 1;
}

/// Which FP class an FP type belongs to; Other for non-FP.
OpClass fpClass(Type *T) {
  Type *S = T->getScalarType();
  return S->isFloatingPointTy() ? fpOpClass(S->getPrimitiveSizeInBits())
                                : OpClass::Other;
}

/// The MathType of a floating-point type (f16 and bf16 use f32's rules).
MathType fpMathType(Type *T) {
  Type *S = T->getScalarType();
  return S->isDoubleTy()  ? MathType::F64
         : S->isFloatTy() ? MathType::F32
                          : MathType::F16;
}

/// Whether NVPTX lowers \p I (fdiv, llvm.sqrt) to the approximate PTX
/// form: `afn` on f32 (f16 is promoted); f64 has no approximate forms.
bool lowersApprox(const Instruction &I) {
  return isa<FPMathOperator>(I) && I.hasApproxFunc() &&
         !I.getType()->getScalarType()->isDoubleTy();
}

/// Adds rule \p R for \p Lanes lanes executed \p W times to \p P.
void addMath(KernelProfile &P, const MathRule &R, double W, double Lanes) {
  for (const OpCount &C : R.ops())
    P.op(C.Class) += W * C.N * Lanes;
  if (R.Flops)
    flopsOf(P, R.flopClass()) += W * R.Flops * Lanes;
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

static unsigned underlyingAddrSpace(const Value *Ptr, unsigned Depth,
                                    SmallPtrSetImpl<const Value *> &Seen);

/// The address space that every incoming pointer of a select or phi points
/// to (0 when they differ or one is unknown): a pointer chosen between two
/// shared arrays (a double buffer, `p = it & 1 ? a : b`) is a shared pointer,
/// which the back end's address-space inference makes it before the PTX.
static unsigned commonAddrSpace(ArrayRef<const Value *> In, unsigned Depth,
                                SmallPtrSetImpl<const Value *> &Seen) {
  unsigned AS = 0;
  for (const Value *V : In) {
    if (Seen.contains(V))
      continue; // A phi's own back edge.
    unsigned A = underlyingAddrSpace(V, Depth + 1, Seen);
    if (A == 0 || (AS && A != AS))
      return 0;
    AS = A;
  }
  return AS;
}

/// Finds the address space a generic pointer really points to by looking
/// through casts, GEPs, selects and phis (clang emits generic pointers for
/// kernel args and casts them to global; at -O0 nothing is inferred yet).
unsigned underlyingAddrSpace(const Value *Ptr) {
  SmallPtrSet<const Value *, 8> Seen;
  return underlyingAddrSpace(Ptr, 0, Seen);
}

static unsigned underlyingAddrSpace(const Value *Ptr, unsigned Depth,
                                    SmallPtrSetImpl<const Value *> &Seen) {
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
    if (Depth < 4 && (isa<SelectInst>(Ptr) || isa<PHINode>(Ptr))) {
      Seen.insert(Ptr);
      SmallVector<const Value *, 4> In;
      if (const auto *Sel = dyn_cast<SelectInst>(Ptr))
        In = {Sel->getTrueValue(), Sel->getFalseValue()};
      else
        for (const Value *V : cast<PHINode>(Ptr)->incoming_values())
          In.push_back(V);
      if (In.size() > 8)
        return 0;
      return commonAddrSpace(In, Depth, Seen);
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
/// A shape component `m16n8k16` of an intrinsic's name into \p M, \p N,
/// \p K; other components leave them as they are.
template <typename IntT>
void parseMNK(StringRef P, IntT &M, IntT &N, IntT &K) {
  if (P.size() <= 4 || P[0] != 'm')
    return;
  size_t NPos = P.find('n'), KPos = P.find('k');
  if (NPos == StringRef::npos || KPos == StringRef::npos || KPos < NPos)
    return;
  P.substr(1, NPos - 1).getAsInteger(10, M);
  P.substr(NPos + 1, KPos - NPos - 1).getAsInteger(10, N);
  P.substr(KPos + 1).getAsInteger(10, K);
}

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
    parseMNK(P, T.M, T.N, T.K);
    if (T.Type.empty() &&
        (P == "f16" || P == "bf16" || P == "tf32" || P == "s8" || P == "u8" ||
         P == "f64" || P == "e4m3" || P == "e5m2" || P == "s4" || P == "b1"))
      T.Type = P.str();
  }
  if (T.Type.empty())
    T.Type = "f16";
  return T.M && T.N && T.K;
}

/// Bytes per lane of the fragment an `llvm.nvvm.wmma.<shape>.load|store.
/// <a|b|c|d>...<type>` intrinsic moves: the fragment's elements (a: M x K,
/// b: K x N, c and d: M x N) times their width over the warp's 32 lanes,
/// as the PTX front end reads wmma.load/store (f32 accumulators of
/// m16n16k16: 32 bytes); 16 where the name says less.
unsigned wmmaFragmentBytes(StringRef Name) {
  SmallVector<StringRef, 12> Parts;
  Name.split(Parts, '.');
  uint64_t M = 0, N = 0, K = 0, Bits = 0;
  char Frag = 0;
  for (size_t I = 0; I < Parts.size(); ++I) {
    StringRef P = Parts[I];
    parseMNK(P, M, N, K);
    if ((P == "load" || P == "store") && I + 1 < Parts.size() &&
        Parts[I + 1].size() == 1)
      Frag = Parts[I + 1][0];
    unsigned B = StringSwitch<unsigned>(P)
                     .Cases({"f16", "bf16"}, 16)
                     .Cases({"f32", "s32", "tf32"}, 32)
                     .Case("f64", 64)
                     .Cases({"s8", "u8"}, 8)
                     .Cases({"s4", "u4"}, 4)
                     .Case("b1", 1)
                     .Default(0);
    if (B && !Bits)
      Bits = B;
  }
  uint64_t Elems = Frag == 'a'                 ? M * K
                   : Frag == 'b'               ? K * N
                   : Frag == 'c' || Frag == 'd' ? M * N
                                               : 0;
  uint64_t Bytes = Elems * Bits / 8 / 32;
  return Bytes ? unsigned(std::min<uint64_t>(Bytes, 1u << 20)) : 16;
}

} // namespace

/// The object \p Ptr points into, through the parameters of followed
/// calls.
const Value *ProfileBuilder::underlyingObject(const Value *Ptr) const {
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
unsigned ProfileBuilder::addrSpaceThroughCalls(const Value *Ptr) const {
  const Value *U = underlyingObject(Ptr);
  if (isa<AllocaInst>(U))
    return 5;
  if (unsigned AS = U->getType()->getPointerAddressSpace())
    return AS;
  return underlyingAddrSpace(U);
}

unsigned ProfileBuilder::lineOf(const Instruction &I) const {
  if (const DebugLoc &DLoc = I.getDebugLoc())
    return DLoc.getLine();
  return 0;
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

/// Adds \p Coef times \p V to the linear form (\p Terms, \p C): through
/// sext/zext, add, sub, `or disjoint` and multiplications (mul, shl) by
/// constants; any other value is a term of its own.
static void linearTerms(const Value *V, int64_t Coef, SiblingTerms &Terms,
                        int64_t &C, unsigned Depth = 0) {
  while (isa<SExtInst>(V) || isa<ZExtInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  constexpr int64_t CoefLimit = int64_t(1) << 40;
  if (const auto *CI = dyn_cast<ConstantInt>(V);
      CI && CI->getBitWidth() <= 64 &&
      std::llabs(CI->getSExtValue()) < CoefLimit) {
    int64_t Prod = 0, Sum = 0;
    if (!MulOverflow(Coef, CI->getSExtValue(), Prod) &&
        !AddOverflow(C, Prod, Sum)) {
      C = Sum;
      return;
    }
    // An index that large is no sibling of anything: keep it whole.
  }
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (BO && Depth < 8 && Terms.size() < 16) {
    unsigned Op = BO->getOpcode();
    bool Add = Op == Instruction::Add ||
               (Op == Instruction::Or &&
                cast<PossiblyDisjointInst>(BO)->isDisjoint());
    if (Add || Op == Instruction::Sub) {
      linearTerms(BO->getOperand(0), Coef, Terms, C, Depth + 1);
      linearTerms(BO->getOperand(1), Add ? Coef : -Coef, Terms, C, Depth + 1);
      return;
    }
    const auto *K = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (K && K->getBitWidth() <= 64) {
      int64_t M = Op == Instruction::Mul ? K->getSExtValue()
                  : Op == Instruction::Shl && K->getZExtValue() < 32
                      ? int64_t(1) << K->getZExtValue()
                      : 0;
      if (M != 0 && std::llabs(M) < CoefLimit &&
          std::llabs(Coef) < CoefLimit / std::llabs(M)) {
        linearTerms(BO->getOperand(0), Coef * M, Terms, C, Depth + 1);
        return;
      }
    }
  }
  Terms.push_back({V, Coef});
}

/// The sibling key of the address \p Ptr (MemAccess::BaseId) and its
/// constant byte offset \p Off from it. Beyond a constant offset
/// (GetPointerBaseWithConstantOffset), a one-index GEP keys on its pointer
/// and the variable terms of its index taken as a linear form (linearTerms),
/// its constant joining the offset: `a[i]`, `a[i + 1]` .. `a[i + 15]` are
/// siblings, as the PTX's `[%rd]` .. `[%rd+60]` are once NVPTX has split
/// the constants off, and so are `a[(c | 1) + g + r]` and `a[c + g + r]`
/// with c even, however clang has associated the sums. The sums are taken
/// not to wrap: where they would, the addresses lie far apart, which no
/// sensible kernel does on purpose.
///
/// \p SharedAlign (when given) receives, for an index off a shared array, the alignment
/// that the variable part of the address has (the array placed 16-byte
/// aligned, as ptxas places shared variables, and each term's known low
/// zero bits): what ptxas can prove to merge scalar shared accesses
/// (docs/MODEL.md, "Vector accesses the compiler forms"); 0 otherwise.
SiblingKey siblingKey(const Value *Ptr, int64_t &Off, const DataLayout &DL,
                      uint64_t *SharedAlign) {
  Off = 0;
  if (SharedAlign)
    *SharedAlign = 0;
  const Value *Base = GetPointerBaseWithConstantOffset(Ptr, Off, DL);
  if (!Base)
    return {nullptr, {}};
  const auto *GEP = dyn_cast<GEPOperator>(Base);
  if (!GEP || GEP->getNumIndices() != 1)
    return {Base, {}};
  TypeSize Size = DL.getTypeAllocSize(GEP->getSourceElementType());
  if (Size.isScalable())
    return {Base, {}};
  SiblingTerms Terms;
  int64_t C = 0;
  linearTerms(GEP->getOperand(1), 1, Terms, C);
  // Canonical: sorted, like terms merged, zero terms dropped.
  llvm::sort(Terms);
  SiblingTerms Merged;
  for (const auto &[V, K] : Terms) {
    if (!Merged.empty() && Merged.back().first == V)
      Merged.back().second += K;
    else
      Merged.push_back({V, K});
    if (Merged.back().second == 0)
      Merged.pop_back();
  }
  int64_t Inner = 0;
  const Value *Ptr0 =
      GetPointerBaseWithConstantOffset(GEP->getPointerOperand(), Inner, DL);
  if (!Ptr0)
    return {Base, {}};
  Off += Inner + C * int64_t(Size.getFixedValue());
  if (const auto *GV = dyn_cast<GlobalVariable>(Ptr0->stripPointerCasts());
      SharedAlign && GV && GV->getAddressSpace() == 3) {
    constexpr unsigned MaxZeros = 4; // 16 bytes
    unsigned Zeros = MaxZeros;
    uint64_t Elt = Size.getFixedValue();
    for (const auto &[V, K] : Merged) {
      unsigned TZ = computeKnownBits(V, DL).countMinTrailingZeros() +
                    llvm::countr_zero(uint64_t(K) * Elt);
      Zeros = std::min(Zeros, TZ);
    }
    *SharedAlign = uint64_t(1) << Zeros;
  }
  return {Ptr0, std::move(Merged)};
}

/// The instruction class of an access: its space, direction and atomicity.
static OpClass accessClass(const MemAccess &A) {
  return memOpClass(A.Space, A.IsStore, A.IsAtomic);
}

/// NVPTX's load/store vectorizer turns scalar loads (stores) of one base
/// pointer at consecutive constant offsets in one basic block into vector
/// accesses (`ld.shared.v4.f32`): CLBlast's float4 tiles, scalarised by
/// SROA, come back as v4 loads in the PTX. The IR's accesses of one block
/// (those from \p Begin on) are merged by the rule both front ends share,
/// with the alignment the IR states for each access.
void ProfileBuilder::mergeVectorSiblings(size_t Begin) {
  mergeVectorRuns(
      P.Accesses, Begin, [&](size_t I) { return AccessAlign.lookup(I); },
      P.Ops);
  AccessAlign.clear();
}

/// The alignment ptxas proves of shared address \p Ptr, given the
/// alignment \p SharedAlign of its variable part (siblingKey, whose known
/// bits of an add recurrence are its start's and step's): ptxas proves it
/// from the address's arithmetic, around a loop too, as provenAlign reads
/// the PTX; an assembler that does not prove stepped pointers
/// (assemblerMergesSteppedPointers) proves nothing of an add recurrence.
/// 1 when nothing is proven.
static uint64_t ptxasSharedAlign(const Value *Ptr, uint64_t SharedAlign,
                                 ScalarEvolution &SE) {
  if (SharedAlign <= 1 || !SE.isSCEVable(Ptr->getType()) ||
      (!assemblerMergesSteppedPointers() &&
       SE.containsAddRecurrence(SE.getSCEV(const_cast<Value *>(Ptr)))))
    return 1;
  return SharedAlign;
}

/// What \p S adds per pass of loop \p L when its recurrences are affine
/// with constant steps, through sums, products by constants and integer
/// extensions (`4 * sext({x,+,1}<L>) + base` moves 4 bytes a pass).
static std::optional<int64_t> stepPerPass(const SCEV *S, const Loop *L,
                                          ScalarEvolution &SE,
                                          unsigned Depth) {
  if (Depth > 8)
    return std::nullopt;
  if (SE.isLoopInvariant(S, L))
    return 0;
  if (const auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    if (AR->getLoop() != L || !AR->isAffine())
      return std::nullopt;
    const auto *C = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    if (!C || C->getAPInt().getSignificantBits() > 48)
      return std::nullopt;
    return C->getAPInt().getSExtValue();
  }
  if (const auto *E = dyn_cast<SCEVIntegralCastExpr>(S))
    return isa<SCEVTruncateExpr>(E) ? std::nullopt
                                    : stepPerPass(E->getOperand(), L, SE,
                                                  Depth + 1);
  if (const auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    int64_t Sum = 0;
    for (const SCEV *Op : Add->operands()) {
      auto V = stepPerPass(Op, L, SE, Depth + 1);
      if (!V)
        return std::nullopt;
      Sum += *V;
    }
    return Sum;
  }
  if (const auto *Mul = dyn_cast<SCEVMulExpr>(S);
      Mul && Mul->getNumOperands() == 2)
    if (const auto *C = dyn_cast<SCEVConstant>(Mul->getOperand(0));
        C && C->getAPInt().getSignificantBits() <= 32)
      if (auto V = stepPerPass(Mul->getOperand(1), L, SE, Depth + 1))
        return *V * C->getAPInt().getSExtValue();
  return std::nullopt;
}

void ProfileBuilder::addAccess(Instruction &I, Value *Ptr, Type *ValTy,
                               bool IsStore, bool IsAtomic, double W,
                               StrideAnalysis &SA, LoopInfo &LI,
                               ScalarEvolution &SE, int64_t ByteOffset,
                               const AccessFacts &Facts) {
  // Private variables that the optimiser left in memory in their own
  // function live in registers once ptxas has run (constant indices only):
  // no traffic, no instruction. A private array passed to a device function
  // that is not inlined, or indexed by a run-time value, stays on the stack
  // (clang's code for CLBlast's accumulators when StoreResults is not
  // inlined): local memory, in its own function and in the callee, which
  // reaches it through a generic pointer (KernelProfile::LocalArrays).
  // An inline asm's address may be an integer (a 32-bit shared address,
  // CUTLASS's `cvta.to.shared` of a pointer): its space is the text's, its
  // lane pattern the integer's, and it has no base pointer or alloca.
  const bool IsPtr = Ptr->getType()->isPointerTy();
  if (!IsPtr && !Facts.Space)
    return;
  if (IsPtr)
    if (const auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr, 8)))
      if (!staysInMemory(*AI))
        return;
  bool ViaCall = IsPtr && isa<AllocaInst>(underlyingObject(Ptr));
  MemAccess A;
  unsigned AS = IsPtr ? Ptr->getType()->getPointerAddressSpace() : 0;
  if (AS == 0 && IsPtr)
    AS = ViaCall ? 5 : addrSpaceThroughCalls(Ptr);
  A.Space = Facts.Space ? *Facts.Space : addrSpaceOf(AS);
  if (A.Space == AddrSpace::Shared && IsPtr)
    noteSharedUse(Ptr);
  A.IsStore = IsStore;
  A.IsAtomic = IsAtomic;
  A.Bytes = std::max<unsigned>(1, DL.getTypeStoreSize(ValTy).getFixedValue());
  A.Count = W;
  A.Line = lineOf(I);
  if (const auto *LdI = dyn_cast<LoadInst>(&I))
    A.ReadOnly = LdI->hasMetadata(LLVMContext::MD_invariant_load);
  A.ReadOnly = A.ReadOnly || Facts.ReadOnly;
  if (A.Space == AddrSpace::Global || A.Space == AddrSpace::Generic) {
    A.BlockDims = BlockDeps.get(Ptr) & (7u | AddrDependsOnData);
    // A global variable of declared size: the array it indexes.
    if (IsPtr)
      if (const auto *GV =
              dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr, 8)))
        if (GV->getValueType()->isSized() && !GV->isDeclaration() &&
            addrSpaceOf(GV->getAddressSpace()) == AddrSpace::Global)
          A.FootprintBytes = DL.getTypeAllocSize(GV->getValueType());
  }
  unsigned TD = ThreadDeps.get(Ptr);
  A.ThreadDims = TD & 7u;
  A.ThreadDimsKnown = true;
  if (A.Space == AddrSpace::Global || A.Space == AddrSpace::Generic)
    A.SmoothDims = (TD >> BlockDepAnalysis::SmoothShift) & 6u & ~A.ThreadDims;
  // Siblings: the same base pointer plus a constant byte offset (as PTX's
  // [%rd+off]); values are unique in the module, so callees differ.
  int64_t Off = 0;
  uint64_t SharedAlign = 0;
  auto Key = IsPtr ? siblingKey(Ptr, Off, DL, &SharedAlign)
                   : SiblingKey{nullptr, {}};
  if (Key.first) {
    A.BaseId = BaseIds.try_emplace(Key, BaseIds.size() + 1).first->second;
    A.Offset = Off + ByteOffset;
  }
  Stride S = SA.get(Ptr);
  if (S.Kind == Stride::Known && !S.Mod && (A.ThreadDims & 6u) && RowSA[0] &&
      RowSA[1]) {
    Stride Y = RowSA[0]->get(Ptr), Z = RowSA[1]->get(Ptr);
    if (Y.Kind == Stride::Known && !Y.Mod && Z.Kind == Stride::Known &&
        !Z.Mod) {
      A.RowStepBytes = {Y.S, Z.S};
      A.RowStepsKnown = true;
    }
  }
  switch (S.Kind) {
  case Stride::Known:
    A.StrideBytes = S.S;
    if (S.isUniform()) {
      A.Pattern = AccessPattern::Uniform;
    } else if (S.Mod) {
      // Rows of a tile: a stride within a row, another between rows.
      A.LaneMod = S.Mod;
      A.LaneDivStrideBytes = S.S2;
      A.Pattern = AccessPattern::Strided;
    } else if (static_cast<uint64_t>(std::llabs(S.S)) <= A.Bytes) {
      A.Pattern = AccessPattern::Coalesced;
    } else {
      A.Pattern = AccessPattern::Strided;
    }
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
    if (SE.isSCEVable(Ptr->getType())) {
      const SCEV *PS = SE.getSCEV(Ptr);
      A.LoopInvariant = SE.isLoopInvariant(PS, L);
      // The bytes the address moves per pass of its innermost loop (through
      // the address-space cast of a read-only load, `__ldg`).
      const Value *Base = Ptr;
      while (const auto *ASC = dyn_cast<AddrSpaceCastOperator>(Base))
        Base = ASC->getPointerOperand();
      if (Base != Ptr && SE.isSCEVable(Base->getType()))
        PS = SE.getSCEV(const_cast<Value *>(Base));
      if (auto St = stepPerPass(PS, L, SE, 0); St && *St) {
        A.InnerLoopStep = *St;
        A.InnerLoopTrip = loopRecord(L, SE, *I.getFunction(), 0).Trip;
      }
    }
  if (A.Space == AddrSpace::Shared && S.Kind == Stride::Known)
    A.BankConflictWays = bankConflictWays(A.Bytes, A.StrideBytes, A.Pattern);
  // The op count by class. A constant at a fixed address becomes an
  // operand of its consumer in SASS (c[0x3][off]), as a kernel parameter
  // does: no instruction of its own (the PTX front end's rule).
  OpClass C = accessClass(A);
  if (Facts.CountOp && !(A.Space == AddrSpace::Const && !IsStore &&
                         !IsAtomic && isa<Constant>(Ptr)))
    P.op(C) += W;
  if (A.Space == AddrSpace::Param || A.Space == AddrSpace::Const ||
      (A.Space == AddrSpace::Local && !ViaCall))
    return; // Not traffic the model prices; counted above.
  // An integer address is as aligned as PTX requires of its access.
  uint64_t Alignment = IsPtr ? Ptr->getPointerAlignment(DL).value() : A.Bytes;
  if (const auto *Ld = dyn_cast<LoadInst>(&I))
    Alignment = std::max(Alignment, Ld->getAlign().value());
  else if (const auto *St = dyn_cast<StoreInst>(&I))
    Alignment = std::max(Alignment, St->getAlign().value());
  else if (isa<MemIntrinsic>(I))
    Alignment = std::max<uint64_t>(Alignment, A.Bytes);
  // ptxas's own proof, for 32-bit scalars only, as the PTX front end
  // takes it (PTXClassify.cpp, mergeVectorRuns there): clang's 8-byte
  // halves of a copy stay 8-byte accesses unless the IR's alignment makes
  // them a vector (ptxas 13.0 merges those pairs too; the measured
  // binaries behave as if not: docs/MODEL.md, "What ptxas 13.0 does with
  // them").
  if (A.Space == AddrSpace::Shared && A.Bytes == 4)
    Alignment = std::max(Alignment, ptxasSharedAlign(Ptr, SharedAlign, SE));
  AccessAlign[P.Accesses.size()] = Alignment;
  P.Accesses.push_back(A);
}

/// classify()'s dispatch: one visit method per instruction family, each
/// calling the ProfileBuilder helper that counts it. An instruction no
/// method below takes (casts between integers and pointers, phis, returns,
/// invokes...) reaches visitInstruction and counts nothing.
/// An `fmul contract` used more than once, only by `fadd`/`fsub contract`
/// of its type in its own block (instruction selection fuses within a
/// block: a product hoisted out of a loop stays a multiply) whose other
/// operand is no contractable product (which one would fuse is then the
/// selector's choice): the back end fuses it into each of them.
static bool fusesIntoEveryUser(const BinaryOperator &M) {
  if (M.getOpcode() != Instruction::FMul || !M.hasAllowContract() ||
      M.hasOneUse() || M.use_empty())
    return false;
  return llvm::all_of(M.users(), [&](const User *U) {
    const auto *A = dyn_cast<BinaryOperator>(U);
    if (!A || !A->hasAllowContract() || A->getType() != M.getType() ||
        A->getParent() != M.getParent() ||
        (A->getOpcode() != Instruction::FAdd &&
         A->getOpcode() != Instruction::FSub))
      return false;
    const Value *Other = A->getOperand(0) == &M ? A->getOperand(1)
                                                : A->getOperand(0);
    const auto *OM = dyn_cast<BinaryOperator>(Other);
    return !(OM && OM->getOpcode() == Instruction::FMul &&
             OM->hasAllowContract());
  });
}

class ProfileBuilder::ClassifyVisitor
    : public InstVisitor<ProfileBuilder::ClassifyVisitor> {
  ProfileBuilder &B;
  double W;
  StrideAnalysis &SA;
  LoopInfo &LI;
  ScalarEvolution &SE;
  unsigned Depth;

  /// One op of \p I's operand's FP class per lane (fneg, fcmp).
  void countFPOperand(Instruction &I) {
    Type *T = I.getOperand(0)->getType();
    if (fpClass(T) != OpClass::Other)
      B.addOp(W, fpClass(T), lanesOf(T));
  }
  void countConversion(CastInst &I) {
    B.addOp(W, OpClass::Conv, lanesOf(I.getType()));
    // To f32 from an unsigned integer of up to 32 bits or from i32 signed:
    // I2FP from compute capability 8.6 on (KernelProfile::ConvIntToF32).
    Type *To = I.getDestTy()->getScalarType();
    unsigned FromBits = I.getSrcTy()->getScalarSizeInBits();
    if (To->isFloatTy() &&
        ((isa<UIToFPInst>(I) && FromBits > 1 && FromBits <= 32) ||
         (isa<SIToFPInst>(I) && FromBits == 32)))
      B.P.ConvIntToF32 += W * lanesOf(I.getType());
  }

public:
  ClassifyVisitor(ProfileBuilder &B, double W, StrideAnalysis &SA, LoopInfo &LI,
                  ScalarEvolution &SE, unsigned Depth)
      : B(B), W(W), SA(SA), LI(LI), SE(SE), Depth(Depth) {}

  // Floating point.
  void visitFAdd(BinaryOperator &I) { B.classifyFAddSub(I, W); }
  void visitFSub(BinaryOperator &I) { B.classifyFAddSub(I, W); }
  void visitFMul(BinaryOperator &I) {
    // Fused into each of its adds by the back end: no instruction of its
    // own (classifyFAddSub counts the FMAs).
    if (!fusesIntoEveryUser(I))
      B.addFP(W, I.getType(), 1);
  }
  void visitFDiv(BinaryOperator &I) { B.classifyFDiv(I, W); }
  void visitFRem(BinaryOperator &I) { B.classifyFDiv(I, W); }
  void visitFNeg(UnaryOperator &I) { countFPOperand(I); }
  void visitFCmpInst(FCmpInst &I) { countFPOperand(I); }

  // Integer.
  void visitMul(BinaryOperator &I) {
    B.addOp(W, B.SR && B.SR->MulAsAdd.count(&I) ? OpClass::Int : OpClass::IntMul,
            lanesOf(I.getType()));
  }
  void visitUDiv(BinaryOperator &I) { B.classifyIntDiv(I, W); }
  void visitSDiv(BinaryOperator &I) { B.classifyIntDiv(I, W); }
  void visitURem(BinaryOperator &I) { B.classifyIntDiv(I, W); }
  void visitSRem(BinaryOperator &I) { B.classifyIntDiv(I, W); }
  /// The binary operators left: add, sub, and, or, xor and the shifts; one
  /// Int op per lane unless on i1 (predicate logic).
  void visitBinaryOperator(BinaryOperator &I) {
    if (!I.getType()->getScalarType()->isIntegerTy(1))
      B.addOp(W, OpClass::Int, lanesOf(I.getType()));
  }
  void visitICmpInst(ICmpInst &I) {
    B.addOp(W, OpClass::Int, lanesOf(I.getType()));
  }
  void visitSelectInst(SelectInst &I) {
    B.addOp(W, OpClass::Int, lanesOf(I.getType()));
  }

  // Conversions to, from and between FP types.
  void visitSIToFPInst(SIToFPInst &I) { countConversion(I); }
  void visitUIToFPInst(UIToFPInst &I) { countConversion(I); }
  void visitFPToSIInst(FPToSIInst &I) { countConversion(I); }
  void visitFPToUIInst(FPToUIInst &I) { countConversion(I); }
  void visitFPExtInst(FPExtInst &I) { countConversion(I); }
  void visitFPTruncInst(FPTruncInst &I) { countConversion(I); }

  /// Widening an integer to 64 bits for an address is a cvt.u64/s64
  /// unless every use scales it in a GEP (mul.wide takes the 32-bit
  /// operand); LSR's dead arithmetic never reaches here.
  void visitZExtInst(ZExtInst &I) { countWidening(I); }
  void visitSExtInst(SExtInst &I) { countWidening(I); }
  void countWidening(CastInst &I) {
    if (!I.getType()->isIntegerTy(64) ||
        I.getSrcTy()->getScalarSizeInBits() <= 1)
      return;
    bool Scaled = !I.use_empty() && all_of(I.users(), [&](const User *U) {
      const auto *G = dyn_cast<GetElementPtrInst>(U);
      return G && G->getNumIndices() == 1 &&
             B.DL.getTypeAllocSize(G->getSourceElementType()) > 1;
    });
    if (!Scaled)
      B.addOp(W, OpClass::Int);
  }

  void visitGetElementPtrInst(GetElementPtrInst &I) { B.classifyGEP(I, W); }

  // Control flow.
  void visitBranchInst(BranchInst &I) {
    if (I.isConditional())
      B.addOp(W, OpClass::Branch);
  }
  void visitSwitchInst(SwitchInst &I) { B.addOp(W, OpClass::Branch); }

  // Memory.
  void visitLoadInst(LoadInst &I) { B.classifyMemory(I, W, SA, LI, SE); }
  void visitStoreInst(StoreInst &I) { B.classifyMemory(I, W, SA, LI, SE); }
  void visitAtomicRMWInst(AtomicRMWInst &I) {
    B.classifyMemory(I, W, SA, LI, SE);
  }
  void visitAtomicCmpXchgInst(AtomicCmpXchgInst &I) {
    B.classifyMemory(I, W, SA, LI, SE);
  }
  void visitFenceInst(FenceInst &I) {
    // fence.sc / fence.acq_rel (a signal fence is no instruction).
    if (I.getSyncScopeID() != SyncScope::SingleThread)
      B.addOp(W, *syncOpClass("fence", false));
  }

  /// Calls, intrinsics included (InstVisitor routes every intrinsic here);
  /// an invoke or callbr is no call here and counts nothing.
  void visitCallInst(CallInst &I) { B.classifyCall(I, W, SA, LI, SE, Depth); }

  void visitInstruction(Instruction &) {}
};

void ProfileBuilder::classify(Instruction &I, double W, StrideAnalysis &SA,
                              LoopInfo &LI, ScalarEvolution &SE, unsigned Depth,
                              bool /*Divergent*/) {
  ClassifyVisitor(*this, W, SA, LI, SE, Depth).visit(I);
}

/// Counts \p T's lanes in its FP class and \p FlopsPerLane FLOPs per lane;
/// nothing for a type that is not floating point.
void ProfileBuilder::addFP(double W, Type *T, double FlopsPerLane) {
  OpClass C = fpClass(T);
  if (C == OpClass::Other)
    return;
  double Lanes = lanesOf(T);
  // Packed f16x2 issues as one instruction of two lanes.
  addOp(W, C, Lanes);
  flopsOf(P, C) += W * Lanes * FlopsPerLane;
}

void ProfileBuilder::classifyFAddSub(Instruction &I, double W) {
  // `fmul contract` feeding only an `fadd contract`: the back end emits
  // one FMA (CUDA's default -ffp-contract=fast-honor-pragmas), counted
  // as one instruction of two FLOPs by the fmul and this add's FLOP.
  // A product several such adds share (`a - 2*b` and `c - 2*b`, CSE'd)
  // is fused into each (NVPTX fuses aggressively): each add is an FMA of
  // two FLOPs, the fmul nothing (fusesIntoEveryUser).
  bool Fused = false, FusedShared = false;
  if (I.hasAllowContract())
    for (const Value *Op : I.operands())
      if (const auto *M = dyn_cast<BinaryOperator>(Op)) {
        Fused |= M->getOpcode() == Instruction::FMul &&
                 M->hasAllowContract() && M->hasOneUse() &&
                 M->getType() == I.getType();
        FusedShared |= !M->hasOneUse() && fusesIntoEveryUser(*M);
      }
  if (Fused) {
    OpClass C = fpClass(I.getType());
    if (C != OpClass::Other)
      flopsOf(P, C) += W * lanesOf(I.getType());
    return;
  }
  addFP(W, I.getType(), FusedShared ? 2 : 1);
}

void ProfileBuilder::classifyFDiv(Instruction &I, double W) {
  // As NVPTX lowers it: fdiv is div.rn (div.approx with `afn`), fdiv 1.0, x
  // is rcp, frem a division and a fused multiply-add; the shared table
  // gives what each costs (OpRules.cpp).
  Type *T = I.getType();
  MathOp Op = I.getOpcode() == Instruction::FRem ? MathOp::FRem
              : PatternMatch::match(I.getOperand(0), PatternMatch::m_FPOne())
                  ? MathOp::Rcp
                  : MathOp::FDiv;
  addMath(P, mathRule(Op, fpMathType(T), lowersApprox(I)), W, lanesOf(T));
}

void ProfileBuilder::classifyIntDiv(Instruction &I, double W) {
  // By a register: PTX div/rem, which ptxas expands; by a constant NVPTX
  // emits a multiply-high and shifts, by a power of two shifts only
  // (OpRules.cpp).
  unsigned Opc = I.getOpcode();
  bool Signed = Opc == Instruction::SDiv || Opc == Instruction::SRem;
  bool Rem = Opc == Instruction::SRem || Opc == Instruction::URem;
  bool Wide = I.getType()->getScalarSizeInBits() > 32;
  MathType Ty = Signed ? (Wide ? MathType::S64 : MathType::S32)
                       : (Wide ? MathType::U64 : MathType::U32);
  const APInt *C = nullptr;
  MathOp Op = Rem ? MathOp::IntRem : MathOp::IntDiv;
  if (PatternMatch::match(I.getOperand(1), PatternMatch::m_APInt(C)))
    Op = C->isPowerOf2() ? (Rem ? MathOp::IntRemPow2 : MathOp::IntDivPow2)
                         : (Rem ? MathOp::IntRemConst : MathOp::IntDivConst);
  addMath(P, mathRule(Op, Ty, false), W, lanesOf(I.getType()));
}

void ProfileBuilder::classifyGEP(Instruction &I, double W) {
  // An address LSR turns into a pointer induction variable: its increment,
  // or nothing where it shares one ([reg+imm]).
  if (SR) {
    auto It = SR->Folded.find(&I);
    if (It != SR->Folded.end())
      return addOp(W, OpClass::Int, It->second.Cost);
  }
  // Address arithmetic: one integer op per variable index (mad.wide).
  unsigned Var = 0;
  for (const Use &Idx : cast<GetElementPtrInst>(I).indices())
    if (!isa<Constant>(Idx))
      ++Var;
  if (Var)
    addOp(W, OpClass::Int, Var);
}

/// Loads, stores and atomics: one access each.
void ProfileBuilder::classifyMemory(Instruction &I, double W,
                                    StrideAnalysis &SA, LoopInfo &LI,
                                    ScalarEvolution &SE) {
  switch (I.getOpcode()) {
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
  default:
    break;
  }
}

/// True when every use of \p V (through `or`s with other values) is an
/// equality test against zero: `threadIdx.x == 0` (one thread of a block
/// does something) reads the index without depending on the block's shape.
static bool onlyTestedForZero(const Value *V, unsigned Depth = 0) {
  if (Depth > 4 || V->use_empty())
    return false;
  for (const User *U : V->users()) {
    if (const auto *Cmp = dyn_cast<ICmpInst>(U)) {
      const Value *Other = Cmp->getOperand(0) == V ? Cmp->getOperand(1)
                                                   : Cmp->getOperand(0);
      if (Cmp->isEquality() && PatternMatch::match(Other, PatternMatch::m_Zero()))
        continue;
      return false;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(U);
        BO && BO->getOpcode() == Instruction::Or &&
        onlyTestedForZero(BO, Depth + 1))
      continue;
    return false;
  }
  return true;
}

/// Calls: special registers, intrinsics, libdevice, external functions, and
/// device functions that were not inlined (followed).
void ProfileBuilder::classifyCall(Instruction &I, double W, StrideAnalysis &SA,
                                  LoopInfo &LI, ScalarEvolution &SE,
                                  unsigned Depth) {
  auto &CB = cast<CallBase>(I);
  Function *Callee = CB.getCalledFunction();
  if (!Callee) {
    if (CB.isInlineAsm())
      return classifyInlineAsm(I, CB, W, SA, LI, SE);
    P.HasIndirectCalls = true;
    addOp(W, OpClass::Other);
    return;
  }
  StringRef N = Callee->getName();
  unsigned Dim = 0;
  SReg R = specialRegister(&I, Dim);
  if (R != SReg::None) {
    noteSpecialRegister(R, Dim);
    if (R == SReg::Tid && !onlyTestedForZero(&I))
      TidIndexes[Dim] = true;
    return;
  }
  if (Callee->isIntrinsic())
    return classifyIntrinsic(I, CB, Callee, N, W, SA, LI, SE);
  if (N.starts_with("__nv_")) {
    StringRef Base = N.drop_front(5);
    if (isLibdeviceSFU(Base)) {
      addOp(W, OpClass::SFU);
      addOp(W, OpClass::FP32, 4);
      P.Flops32 += 4 * W;
      return;
    }
    if (Base.ends_with("f")) {
      addOp(W, OpClass::FP32, 4);
      P.Flops32 += 4 * W;
    } else {
      addOp(W, OpClass::FP64, 20);
      P.Flops64 += 20 * W;
    }
    return;
  }
  if (Callee->isDeclaration()) {
    if (N == "vprintf" || N == "malloc" || N == "free" ||
        N.starts_with("__assertfail"))
      return addOp(W, OpClass::Other);
    P.Warnings.push_back("call to external function '" + N.str() +
                         "' counted as one 'other' instruction");
    return addOp(W, OpClass::Other);
  }
  // A device function that was not inlined: follow it.
  if (OnStack.count(Callee) || Depth >= MaxCallDepth) {
    P.HasRecursion |= OnStack.count(Callee) != 0;
    if (Depth >= MaxCallDepth)
      P.Warnings.push_back("call depth limit reached at '" + N.str() + "'");
    return addOp(W, OpClass::Other);
  }
  ++P.CallsFollowed;
  for (Argument &A : Callee->args())
    if (A.getArgNo() < CB.arg_size())
      ArgActual[&A] = CB.getArgOperand(A.getArgNo());
  walk(*Callee, W, Depth + 1);
}

void ProfileBuilder::noteSpecialRegister(SReg R, unsigned Dim) {
  if (R == SReg::Tid)
    P.Shape.UsesTid[Dim] = true;
  else if (R == SReg::NTid) {
    P.Shape.ReadsBlockDim = true;
    P.Shape.ReadsNTid[Dim] = true;
  } else if (R == SReg::NCtaId)
    P.Shape.ReadsGridDim = true;
}

/// LLVM's target-independent intrinsics by ID, then NVVM's by name.
void ProfileBuilder::classifyIntrinsic(Instruction &I, CallBase &CB,
                                       Function *Callee, StringRef N, double W,
                                       StrideAnalysis &SA, LoopInfo &LI,
                                       ScalarEvolution &SE) {
  Intrinsic::ID ID = Callee->getIntrinsicID();
  switch (ID) {
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    addFP(W, I.getType(), 2);
    return;
  case Intrinsic::sqrt:
    // sqrt.rn, or sqrt.approx with `afn`.
    addMath(P, mathRule(MathOp::Sqrt, fpMathType(I.getType()), lowersApprox(I)),
            W, lanesOf(I.getType()));
    return;
  case Intrinsic::exp:
  case Intrinsic::exp2:
  case Intrinsic::log:
  case Intrinsic::log2:
  case Intrinsic::log10:
  case Intrinsic::sin:
  case Intrinsic::cos:
  case Intrinsic::pow:
    // One MUFU in f32; f64 ones are FP64 sequences.
    addMath(P, mathRule(MathOp::Transcendental, fpMathType(I.getType()), false),
            W, lanesOf(I.getType()));
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
    addFP(W, I.getType(), 0);
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
    addOp(W, OpClass::Int, lanesOf(I.getType()));
    return;
  case Intrinsic::memcpy:
  case Intrinsic::memmove:
  case Intrinsic::memset:
    return classifyMemIntrinsic(I, CB, W, SA, LI, SE);
  default:
    break;
  }
  if (!N.starts_with("llvm.nvvm."))
    return; // lifetime, dbg, assume, ...: no work
  classifyNVVM(I, CB, N, W, SA, LI, SE);
}

void ProfileBuilder::classifyMemIntrinsic(Instruction &I, CallBase &CB,
                                          double W, StrideAnalysis &SA,
                                          LoopInfo &LI, ScalarEvolution &SE) {
  // A small copy of known size (clang's struct copies: a float4
  // through a struct) is loads and stores of the aligned width up to
  // 8 bytes (NVPTX expands it with its widest integer, i64), as the
  // back end does; a private side costs nothing.
  const auto &MI = cast<MemIntrinsic>(CB);
  const auto *Len = dyn_cast<ConstantInt>(MI.getLength());
  if (!Len || Len->isZero() || Len->getZExtValue() > 256) {
    addOp(W, OpClass::Other);
    return;
  }
  uint64_t L = Len->getZExtValue();
  uint64_t Chunk = std::min<uint64_t>(
      {8, L, MI.getDestAlign() ? MI.getDestAlign()->value() : 1});
  if (const auto *MT = dyn_cast<MemTransferInst>(&MI))
    Chunk = std::min<uint64_t>(
        Chunk, MT->getSourceAlign() ? MT->getSourceAlign()->value() : 1);
  while (L % Chunk)
    Chunk /= 2;
  Type *T = IntegerType::get(I.getContext(), unsigned(Chunk * 8));
  // The pieces are the back end's loads and stores at +0, +Chunk, ... of
  // one base: siblings that share their sectors, as the PTX front end reads
  // them (a float8 read from global is eight 4-byte loads of one 32-byte
  // run, not eight requests of its own each). They keep their own width:
  // the back end lowers the copy after the load/store vectorizer.
  auto Pieces = [&](Value *Ptr, Type *Ty, uint64_t Width, bool IsStore) {
    size_t First = P.Accesses.size();
    for (uint64_t K = 0; K < L / Width; ++K)
      addAccess(I, Ptr, Ty, IsStore, false, W, SA, LI, SE,
                int64_t(K * Width));
    for (size_t A = First; A < P.Accesses.size(); ++A)
      AccessAlign[A] = Width;
  };
  if (const auto *MT = dyn_cast<MemTransferInst>(&MI))
    Pieces(const_cast<Value *>(MT->getRawSource()), T, Chunk, false);
  // A shared destination whose alignment ptxas proves takes 16-byte
  // stores where the copy is 4-byte scalars (ptxas merges them, as the PTX
  // front end reads them; clang's 8-byte halves stay as they are).
  int64_t Off = 0;
  uint64_t SharedAlign = 0;
  siblingKey(MI.getRawDest(), Off, DL, &SharedAlign);
  unsigned DestAS = MI.getDestAddressSpace();
  if (DestAS == 0)
    DestAS = addrSpaceThroughCalls(MI.getRawDest());
  if (addrSpaceOf(DestAS) == AddrSpace::Shared)
    if (Chunk == 4 && L % 16 == 0 && Off % 16 == 0 &&
        ptxasSharedAlign(MI.getRawDest(), SharedAlign, SE) >= 16) {
      Chunk = 16;
      T = FixedVectorType::get(Type::getInt32Ty(I.getContext()), 4);
    }
  Pieces(MI.getRawDest(), T, Chunk, true);
}

/// llvm.nvvm.*: tensor ops, fragment loads and stores, barriers, warp
/// shuffles and votes, atomics, SFU and FP ops, read-only loads,
/// conversions.
void ProfileBuilder::classifyNVVM(Instruction &I, CallBase &CB, StringRef N,
                                  double W, StrideAnalysis &SA, LoopInfo &LI,
                                  ScalarEvolution &SE) {
  TensorShape TS;
  if (parseTensorIntrinsic(N, TS)) {
    addOp(W, OpClass::Tensor);
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
      MemAccess A;
      A.Space = AS == 3 ? AddrSpace::Shared : AddrSpace::Global;
      addOp(W, memOpClass(A.Space, IsStore, false));
      A.IsStore = IsStore;
      // A fragment per warp, coalesced; ldmatrix/stmatrix move 16 bytes a
      // lane per 8x8 matrix.
      A.Bytes = N.starts_with("llvm.nvvm.wmma.") ? wmmaFragmentBytes(N) : 16;
      A.Count = W;
      A.Pattern = AccessPattern::Coalesced;
      A.StrideBytes = A.Bytes;
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
  // The PTX mnemonic an NVVM intrinsic names (llvm.nvvm.shfl.sync.bfly.f32:
  // shfl); barrier0, barrier.cta.sync...: barrier.
  StringRef Mn = N.drop_front(StringRef("llvm.nvvm.").size()).split('.').first;
  if (Mn.starts_with("barrier"))
    Mn = "barrier";
  if (std::optional<OpClass> C = syncOpClass(Mn, N.contains("warp")))
    return addOp(W, *C);
  if (N.contains("atomic")) {
    unsigned AS = CB.arg_size() && CB.getArgOperand(0)->getType()->isPointerTy()
                      ? CB.getArgOperand(0)->getType()->getPointerAddressSpace()
                      : 0;
    return addOp(W, memOpClass(AS == 3 ? AddrSpace::Shared : AddrSpace::Global,
                               true, true));
  }
  if (std::optional<MathOp> Op = ptxMathOp(Mn, true)) {
    bool Approx = N.contains(".approx") || N.contains(".full") ||
                  *Op == MathOp::Transcendental;
    return addMath(P, mathRule(*Op, fpMathType(I.getType()), Approx), W,
                   lanesOf(I.getType()));
  }
  if (Mn == "fma" || Mn == "add" || Mn == "mul" || Mn == "fmax" ||
      Mn == "fmin" || Mn == "fabs") {
    // FP32/FP64/FP16 by the type, FLOPs as the PTX instruction's.
    return addFP(W, I.getType(),
                 Mn == "fma"                  ? 2
                 : Mn == "add" || Mn == "mul" ? 1
                                              : 0);
  }
  if (Mn == "mulhi" || Mn == "mul24")
    return addOp(W, OpClass::IntMul, lanesOf(I.getType()));
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
    return addOp(W, OpClass::Conv);
  return addOp(W, OpClass::Other);
}

} // namespace irprof
} // namespace flipflop
