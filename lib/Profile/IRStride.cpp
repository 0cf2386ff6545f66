//===- IRStride.cpp - Address strides in threadIdx.x ----------------------===//
//
// The special registers, StrideAnalysis (d(value)/d(threadIdx.x), for the
// coalescing and bank-conflict character of an access) and BlockDepAnalysis
// (which blockIdx/threadIdx dimensions a value depends on). See
// docs/ARCHITECTURE.md ("IR front end").
//
//===----------------------------------------------------------------------===//
#include "IRStride.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Analysis/ValueTracking.h"
#include <cstdlib>

using namespace llvm;

namespace flipflop {
namespace irprof {

SReg specialRegister(const Value *V, unsigned &Dim) {
  // A phi of reads of one register (clang reads blockDim.x afresh on each
  // path into a loop and merges them: attention's `j += blockDim.x`).
  if (const auto *PN = dyn_cast<PHINode>(V)) {
    SReg R = SReg::None;
    for (const Value *In : PN->incoming_values()) {
      unsigned D = 0;
      SReg X = isa<PHINode>(In) ? SReg::None : specialRegister(In, D);
      if (X == SReg::None || (R != SReg::None && (X != R || D != Dim)))
        return SReg::None;
      R = X;
      Dim = D;
    }
    return R;
  }
  const auto *CI = dyn_cast<CallBase>(V);
  if (!CI || !CI->getCalledFunction())
    return SReg::None;
  StringRef N = CI->getCalledFunction()->getName();
  if (!N.consume_front("llvm.nvvm.read.ptx.sreg."))
    return SReg::None;
  Dim = 0;
  static const std::pair<StringRef, SReg> PerDim[] = {
      {"tid.", SReg::Tid},
      {"ntid.", SReg::NTid},
      {"ctaid.", SReg::CtaId},
      {"nctaid.", SReg::NCtaId}};
  for (const auto &[Prefix, R] : PerDim)
    if (N.starts_with(Prefix)) {
      Dim = N.ends_with(".x") ? 0 : N.ends_with(".y") ? 1 : 2;
      return R;
    }
  if (N == "laneid")
    return SReg::LaneId;
  if (N == "warpid")
    return SReg::WarpId;
  return SReg::None;
}

Stride addStrides(Stride A, Stride B, bool Subtract) {
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
  std::optional<LaneSplit> R =
      combineLaneSplits(A.lanes(), B.lanes(), 1, Subtract ? -1 : 1);
  return R ? Stride::split(*R) : Stride::varying();
}

Stride scaleStride(Stride A, int64_t C) {
  if (A.Kind != Stride::Known)
    return A.Kind == Stride::Self ? Stride::varying() : A;
  std::optional<int64_t> S = pitchSum(A.S, C, 0, 0);
  std::optional<int64_t> S2 = pitchSum(A.S2, C, 0, 0);
  if (!S || !S2)
    return Stride::varying();
  return Stride::split(LaneSplit::make(A.Mod, *S, *S2));
}

/// \p A % M (Rem) or \p A / M of a plain stride (splitLanes()): a
/// flattened thread id split into a tile's rows.
static Stride splitStride(const Stride &A, int64_t M, bool Rem) {
  std::optional<LaneSplit> L;
  if (A.Kind == Stride::Known && !A.Mod)
    L = splitLanes(A.S, M, Rem);
  return L ? Stride::split(*L) : Stride::varying();
}

Stride StrideAnalysis::allUniformOr(const User *U, unsigned Depth) {
  for (const Use &Op : U->operands()) {
    if (isa<BasicBlock>(Op) || isa<Function>(Op))
      continue;
    if (!get(Op, Depth + 1).isUniform())
      return Stride::varying();
  }
  return Stride::known(0);
}

Stride StrideAnalysis::compute(const Value *V, unsigned Depth) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return Stride::known(0);
  unsigned D = 0;
  switch (specialRegister(V, D)) {
  case SReg::Tid:
    return Stride::known(D == Dim ? 1 : 0);
  case SReg::LaneId:
    // The lane index follows threadIdx.x; how it moves between the rows of
    // a block depends on the block's width.
    return Dim == 0 ? Stride::known(1) : Stride::varying();
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
  case Instruction::Mul:
    return mulStride(I, Depth);
  case Instruction::Shl:
    return shlStride(I, Depth);
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::LShr:
  case Instruction::AShr:
    return divStride(I, Depth);
  case Instruction::URem:
  case Instruction::SRem:
  case Instruction::And:
    return remStride(I, Depth);
  case Instruction::ZExt:
  case Instruction::SExt:
    // A comparison true or false on all but a lane or so (`c + (i != n -
    // 1)`, an east neighbour clamped at the edge): uniform on most lanes.
    if (mostLanes(I->getOperand(0), Depth))
      return Stride::known(0);
    return get(I->getOperand(0), Depth + 1);
  case Instruction::Trunc:
  case Instruction::BitCast:
  case Instruction::AddrSpaceCast:
  case Instruction::IntToPtr:
  case Instruction::PtrToInt:
  case Instruction::Freeze:
    return get(I->getOperand(0), Depth + 1);
  case Instruction::GetElementPtr:
    return gepStride(I, Depth);
  case Instruction::Select: {
    Stride T = get(I->getOperand(1), Depth + 1);
    Stride F = get(I->getOperand(2), Depth + 1);
    if (T == F && get(I->getOperand(0), Depth + 1).isUniform())
      return T;
    if (T == F)
      return T;
    // `(i == 0) ? c : c - 1` (a west neighbour clamped at the edge): the
    // arm all but a lane or so of the warp take.
    if (std::optional<bool> Most = mostLanes(I->getOperand(0), Depth))
      return *Most ? T : F;
    return Stride::varying();
  }
  case Instruction::PHI: {
    // A lane-invariant cycle (`n >>= 1` each pass, `n * gridDim.x +
    // threadIdx.x` a coalesced row whatever n is): stride 0, where the
    // cycle's non-affine step left it varying.
    SmallPtrSet<const Value *, 8> Open;
    if (laneInvariant(I, Open, 0))
      return Stride::known(0);
    return phiStride(I, Depth);
  }
  case Instruction::Load:
    return loadStride(I, Depth);
  case Instruction::Call:
    return callStride(I, Depth);
  default:
    if (I->mayReadOrWriteMemory())
      return Stride::varying();
    return allUniformOr(I, Depth);
  }
}

std::optional<APInt> StrideAnalysis::constantBits(const Value *V,
                                                  unsigned Depth) const {
  if (const auto *C = dyn_cast<ConstantInt>(V))
    return C->getValue();
  if (!V->getType()->isIntegerTy() || Depth > 4)
    return std::nullopt;
  unsigned Width = V->getType()->getIntegerBitWidth();
  if (const auto *A = dyn_cast<Argument>(V)) {
    if (!ArgValues || Width > 64)
      return std::nullopt;
    auto It = ArgValues->find(A->getArgNo());
    if (It == ArgValues->end())
      return std::nullopt;
    // As the argument's own type reads the stated value.
    return APInt(64, uint64_t(It->second), /*isSigned=*/true).trunc(Width);
  }
  // Arithmetic on stated values (`kSizeN / VWN` as `sdiv %n, 2`).
  if (const auto *CI = dyn_cast<CastInst>(V)) {
    std::optional<APInt> X = constantBits(CI->getOperand(0), Depth + 1);
    if (!X)
      return std::nullopt;
    switch (CI->getOpcode()) {
    case Instruction::SExt:
      return X->sext(Width);
    case Instruction::ZExt:
      return X->zext(Width);
    case Instruction::Trunc:
      return X->trunc(Width);
    default:
      return std::nullopt;
    }
  }
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO)
    return std::nullopt;
  std::optional<APInt> X = constantBits(BO->getOperand(0), Depth + 1);
  std::optional<APInt> Y = X ? constantBits(BO->getOperand(1), Depth + 1)
                             : std::nullopt;
  if (!Y)
    return std::nullopt;
  switch (BO->getOpcode()) {
  case Instruction::Add:
    return *X + *Y;
  case Instruction::Sub:
    return *X - *Y;
  case Instruction::Mul:
    return *X * *Y;
  case Instruction::SDiv:
    if (Y->isZero() || (X->isMinSignedValue() && Y->isAllOnes()))
      return std::nullopt;
    return X->sdiv(*Y);
  case Instruction::UDiv:
    return Y->isZero() ? std::nullopt : std::optional<APInt>(X->udiv(*Y));
  case Instruction::Shl:
    return Y->ult(Width) ? std::optional<APInt>(X->shl(*Y)) : std::nullopt;
  case Instruction::AShr:
    return Y->ult(Width) ? std::optional<APInt>(X->ashr(*Y)) : std::nullopt;
  case Instruction::LShr:
    return Y->ult(Width) ? std::optional<APInt>(X->lshr(*Y)) : std::nullopt;
  case Instruction::And:
    return *X & *Y;
  case Instruction::Or:
    return *X | *Y;
  case Instruction::Xor:
    return *X ^ *Y;
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> StrideAnalysis::constantOf(const Value *V) const {
  std::optional<APInt> Bits = constantBits(V);
  if (!Bits || Bits->getBitWidth() > 64)
    return std::nullopt;
  return Bits->getSExtValue();
}

Stride StrideAnalysis::mulStride(const Instruction *I, unsigned Depth) {
  Stride A = get(I->getOperand(0), Depth + 1);
  Stride B = get(I->getOperand(1), Depth + 1);
  if (auto CB = constantOf(I->getOperand(1)))
    return scaleStride(A, *CB);
  if (auto CA = constantOf(I->getOperand(0)))
    return scaleStride(B, *CA);
  if (A.isUniform() && B.isUniform())
    return Stride::known(0);
  if (A.isUniform() || B.isUniform()) {
    Stride Other = A.isUniform() ? B : A;
    if (Other.Kind == Stride::Varying || Other.Kind == Stride::Self)
      return Stride::varying();
    // A thread or row index times a runtime pitch: lanes or rows of a tile
    // far apart (LaneSplit.h, FarRowPitch).
    if (Other.Kind == Stride::Known)
      if (std::optional<LaneSplit> R = scaleByUnknown(Other.lanes()))
        return Stride::split(*R);
    return Stride::symbolic();
  }
  return Stride::varying();
}

Stride StrideAnalysis::shlStride(const Instruction *I, unsigned Depth) {
  const auto *C = dyn_cast<ConstantInt>(I->getOperand(1));
  Stride A = get(I->getOperand(0), Depth + 1);
  if (C && C->getZExtValue() < 62)
    return scaleStride(A, int64_t(1) << C->getZExtValue());
  return A.isUniform() && get(I->getOperand(1), Depth + 1).isUniform()
             ? Stride::known(0)
             : Stride::varying();
}

/// A binary operator by a constant: the stride of operand 0 and the
/// constant, or in Early the operator's stride when it is decided without
/// them (both operands uniform; no usable constant).
StrideAnalysis::ByConstant
StrideAnalysis::byConstant(const Instruction *I, unsigned Depth) {
  ByConstant R;
  unsigned X = 0;
  R.C = constantBits(I->getOperand(1));
  if (!R.C && I->getOpcode() == Instruction::And)
    if ((R.C = constantBits(I->getOperand(0))))
      X = 1;
  R.A = get(I->getOperand(X), Depth + 1);
  if (R.A.isUniform() && get(I->getOperand(1 - X), Depth + 1).isUniform())
    R.Early = Stride::known(0);
  else if (!R.C || R.A.Kind != Stride::Known || R.C->getBitWidth() > 64)
    R.Early = Stride::varying();
  return R;
}

/// UDiv, SDiv, LShr and AShr.
Stride StrideAnalysis::divStride(const Instruction *I, unsigned Depth) {
  auto [A, C, Early] = byConstant(I, Depth);
  if (Early)
    return *Early;
  int64_t Div = I->getOpcode() == Instruction::LShr ||
                        I->getOpcode() == Instruction::AShr
                    ? (C->getZExtValue() < 62 ? int64_t(1) << C->getZExtValue() : 0)
                    : C->getSExtValue();
  if (Div <= 0 || A.Mod)
    return Stride::varying();
  if (A.S % Div == 0)
    return Stride::known(A.S / Div);
  // tid.x / 32 and the like: constant across a warp's lanes.
  if (std::llabs(A.S) * 32 <= Div)
    return Stride::known(0);
  return splitStride(A, Div, /*Rem=*/false);
}

/// URem, SRem and And.
Stride StrideAnalysis::remStride(const Instruction *I, unsigned Depth) {
  auto [A, C, Early] = byConstant(I, Depth);
  if (Early)
    return *Early;
  int64_t Mod = I->getOpcode() == Instruction::And ? C->getSExtValue() + 1
                                                    : C->getSExtValue();
  // x % M (or x & (M-1)) keeps the stride when a warp's span fits in M.
  if (Mod > 0 && A.Mod == 0 && std::llabs(A.S) * 32 <= Mod)
    return A;
  if (I->getOpcode() == Instruction::And && (Mod & (Mod - 1)) != 0)
    return Stride::varying();
  return splitStride(A, Mod, /*Rem=*/true);
}

Stride StrideAnalysis::gepStride(const Instruction *I, unsigned Depth) {
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

bool StrideAnalysis::laneInvariant(const Value *V,
                                   SmallPtrSetImpl<const Value *> &Open,
                                   unsigned Depth) const {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  unsigned D = 0;
  switch (specialRegister(V, D)) {
  case SReg::NTid:
  case SReg::CtaId:
  case SReg::NCtaId:
    return true;
  case SReg::None:
    break;
  default:
    return false;
  }
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 12 || I->mayReadOrWriteMemory() || isa<CallBase>(I) ||
      I->getType()->isPointerTy())
    return false;
  if (isa<PHINode>(I) && !Open.insert(I).second)
    return true; // Round a cycle: what it adds is checked on the way.
  return llvm::all_of(I->operands(), [&](const Use &U) {
    return laneInvariant(U.get(), Open, Depth + 1);
  });
}

Stride StrideAnalysis::phiStride(const Instruction *I, unsigned Depth) {
  // This PHI's level (Self's tag while it is open). Incoming values that
  // come back round to it add a uniform step and keep its stride: the
  // entry values decide. A join PHI inside a loop whose every incoming
  // value is the header PHI plus a step (`i + stride` computed on two
  // paths) is that PHI plus a step too; one that mixes such a value with
  // others follows no single stride.
  const unsigned Own = Memo.level() - 1;
  bool Have = false, HaveOuter = false;
  Stride R, Outer;
  for (const Value *In : cast<PHINode>(I)->incoming_values()) {
    Stride S = get(In, Depth + 1);
    if (S.Kind == Stride::Self) {
      if (S.S == int64_t(Own))
        continue;
      if (HaveOuter && !(Outer == S))
        return Stride::varying();
      Outer = S;
      HaveOuter = true;
      continue;
    }
    if (!Have) {
      R = S;
      Have = true;
    } else if (!(R == S)) {
      R = Stride::varying();
    }
  }
  if (HaveOuter)
    return Have ? Stride::varying() : Outer;
  return Have ? R : Stride{Stride::Self, int64_t(Own)};
}

Stride StrideAnalysis::loadStride(const Instruction *I, unsigned Depth) {
  const auto *LI = cast<LoadInst>(I);
  // A private variable in an alloca (-O0, or a `volatile` scalar at any
  // level). With a single store, the load sees that stored value (each
  // thread has its own copy).
  if (const auto *AI = dyn_cast<AllocaInst>(
          getUnderlyingObject(LI->getPointerOperand(), 8))) {
    const StoreInst *Only = nullptr;
    for (const User *U : AI->users()) {
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        if (Only || SI->getValueOperand() == AI)
          return Stride::varying();
        Only = SI;
      } else if (const auto *II = dyn_cast<IntrinsicInst>(U);
                 II && II->isLifetimeStartOrEnd()) {
        continue; // lifetime markers, which -O2 keeps around a volatile
                  // scalar (CLBlast's `volatile int tid`)
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

std::optional<bool> StrideAnalysis::mostLanes(const Value *Cond,
                                              unsigned Depth) {
  const auto *C = dyn_cast<ICmpInst>(Cond);
  if (!C || !C->isEquality() || !C->getType()->isIntegerTy(1))
    return std::nullopt;
  Stride A = get(C->getOperand(0), Depth + 1);
  Stride B = get(C->getOperand(1), Depth + 1);
  // One side moves with the lane, one step or more a lane (distinct on
  // every lane of a row), the other is the same on all of them.
  auto Moves = [](const Stride &X) {
    return X.Kind == Stride::Known && !X.Mod && X.S != 0;
  };
  if (!((Moves(A) && B.isUniform()) || (Moves(B) && A.isUniform())))
    return std::nullopt;
  return C->getPredicate() == ICmpInst::ICMP_NE;
}

Stride StrideAnalysis::callStride(const Instruction *I, unsigned Depth) {
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

unsigned BlockDepAnalysis::compute(const Value *V, unsigned Depth) {
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
      M = (M & ~(Data | 6u)) | ((M & 6u) << SmoothShift);
  return M;
}

} // namespace irprof
} // namespace flipflop
