//===- IRTripCounts.cpp - SCEV evaluation and trip counts -----------------===//
//
// Evaluates ScalarEvolution expressions with the launch facts (kernel
// arguments, blockDim, thread 0), finds the conditions under which a loop is
// entered, and derives trip counts, their dependence on blockDim and a
// reader's description of what they depend on. See docs/ARCHITECTURE.md
// ("IR front end").
//
//===----------------------------------------------------------------------===//
#include "IRTripCounts.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <set>

using namespace llvm;

namespace flipflop {
namespace irprof {

bool scevMentions(const SCEV *S, SReg Reg, unsigned Dim) {
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

/// \p X Op \p Y for an integer binary operator, as the IR computes it
/// (wrapping); std::nullopt where the IR's result is poison or undefined
/// (a shift by the width or more, a division by zero or INT_MIN / -1).
static std::optional<APInt> foldBinary(Instruction::BinaryOps Op,
                                       const APInt &X, const APInt &Y) {
  switch (Op) {
  case Instruction::Add: return X + Y;
  case Instruction::Sub: return X - Y;
  case Instruction::Mul: return X * Y;
  case Instruction::And: return X & Y;
  case Instruction::Or: return X | Y;
  case Instruction::Xor: return X ^ Y;
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr: {
    if (Y.uge(X.getBitWidth()))
      return std::nullopt;
    unsigned By = unsigned(Y.getZExtValue());
    return Op == Instruction::Shl    ? X.shl(By)
           : Op == Instruction::LShr ? X.lshr(By)
                                     : X.ashr(By);
  }
  case Instruction::UDiv:
  case Instruction::URem:
    if (Y.isZero())
      return std::nullopt;
    return Op == Instruction::UDiv ? X.udiv(Y) : X.urem(Y);
  case Instruction::SDiv:
  case Instruction::SRem:
    if (Y.isZero() || (X.isMinSignedValue() && Y.isAllOnes()))
      return std::nullopt;
    return Op == Instruction::SDiv ? X.sdiv(Y) : X.srem(Y);
  default:
    return std::nullopt;
  }
}

/// A bit count of \p X (ctlz, cttz, ctpop: `1 << (32 - __clz(n - 1))`,
/// the next power of two); none for other intrinsics.
static std::optional<APInt> foldBitCount(Intrinsic::ID ID, const APInt &X) {
  switch (ID) {
  case Intrinsic::ctlz:
    return APInt(X.getBitWidth(), X.countl_zero());
  case Intrinsic::cttz:
    return APInt(X.getBitWidth(), X.countr_zero());
  case Intrinsic::ctpop:
    return APInt(X.getBitWidth(), X.popcount());
  default:
    return std::nullopt;
  }
}

/// A PHI that merges the ways out of a branch \p At decides (the guard
/// that skips a peeled prologue, `if (c) x = ...;`): the value along the
/// way taken. The branch is the nearest dominator of the merge whose
/// condition \p Compare evaluates; the merge's incoming blocks that only
/// the other way reaches are dead, and the one left is evaluated, at the
/// merge's scope (a loop's exit value when it comes out of a loop).
static std::optional<APInt>
evaluateMerge(const PHINode &PN, const EvalPoint &At, unsigned Depth,
              function_ref<std::optional<bool>(const Value *)> Compare) {
  if (!At.DT || !At.LI || PN.getNumIncomingValues() < 2)
    return std::nullopt;
  const BasicBlock *B = PN.getParent();
  const Loop *Scope = At.LI->getLoopFor(B);
  if (Scope && Scope->getHeader() == B)
    return std::nullopt; // A recurrence, not a merge.
  constexpr unsigned MaxDominators = 8;
  const DomTreeNode *N = At.DT->getNode(B);
  N = N ? N->getIDom() : nullptr;
  for (unsigned Seen = 0; N && Seen < MaxDominators; N = N->getIDom(), ++Seen) {
    const BasicBlock *D = N->getBlock();
    // Not past the header of the merge's loop: each pass decides anew.
    if (Scope && !Scope->contains(D))
      return std::nullopt;
    const auto *Br = dyn_cast<BranchInst>(D->getTerminator());
    if (!Br || !Br->isConditional() ||
        Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    std::optional<bool> C = Compare(Br->getCondition());
    if (!C)
      continue;
    const BasicBlock *Taken = Br->getSuccessor(*C ? 0 : 1);
    const BasicBlock *Other = Br->getSuccessor(*C ? 1 : 0);
    // The incoming blocks the taken way can still reach: not D's edge
    // to the merge unless that edge is the one taken, not a block only
    // the other way reaches (Other dominates it, entered from D alone).
    const Value *Live =
        Taken == B ? PN.getIncomingValueForBlock(D) : nullptr;
    for (unsigned K = 0; Taken != B && K < PN.getNumIncomingValues(); ++K) {
      const BasicBlock *P = PN.getIncomingBlock(K);
      bool Dead = P == D || (Other != B && Other->getSinglePredecessor() == D &&
                             At.DT->dominates(Other, P));
      if (Dead)
        continue;
      if (Live && Live != PN.getIncomingValue(K))
        return std::nullopt;
      Live = PN.getIncomingValue(K);
    }
    if (!Live || !Live->getType()->isIntegerTy())
      return std::nullopt;
    return evaluateSCEV(
        At.SE->getSCEVAtScope(const_cast<Value *>(Live), Scope), At,
        Depth + 1);
  }
  return std::nullopt;
}

/// An integer instruction ScalarEvolution keeps opaque, through its
/// operands' SCEVs (EvalPoint::SE).
static std::optional<APInt> evaluateOpaque(const Value *V, const EvalPoint &At,
                                           unsigned Depth) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!At.SE || !I || Depth > 32 || !I->getType()->isIntegerTy())
    return std::nullopt;
  auto Op = [&](unsigned K) -> std::optional<APInt> {
    const Value *O = I->getOperand(K);
    if (!O->getType()->isIntegerTy() || !At.SE->isSCEVable(O->getType()))
      return std::nullopt;
    return evaluateSCEV(At.SE->getSCEV(const_cast<Value *>(O)), At, Depth + 1);
  };
  if (const auto *B = dyn_cast<BinaryOperator>(I)) {
    auto X = Op(0), Y = Op(1);
    if (!X || !Y || X->getBitWidth() != Y->getBitWidth())
      return std::nullopt;
    return foldBinary(B->getOpcode(), *X, *Y);
  }
  if (const auto *II = dyn_cast<IntrinsicInst>(I))
    if (auto X = Op(0))
      return foldBitCount(II->getIntrinsicID(), *X);
  // An integer comparison at the evaluation point (thread 0's, as the
  // values it compares are).
  constexpr unsigned MergeDepth = 8;
  auto Compare = [&](const Value *Cond, unsigned D) -> std::optional<bool> {
    const auto *C = dyn_cast<ICmpInst>(Cond);
    if (!C)
      return std::nullopt;
    const Value *A = C->getOperand(0), *B = C->getOperand(1);
    if (!A->getType()->isIntegerTy() || !At.SE->isSCEVable(A->getType()))
      return std::nullopt;
    auto X = evaluateSCEV(At.SE->getSCEV(const_cast<Value *>(A)), At, D);
    auto Y = evaluateSCEV(At.SE->getSCEV(const_cast<Value *>(B)), At, D);
    if (!X || !Y || X->getBitWidth() != Y->getBitWidth())
      return std::nullopt;
    return ICmpInst::compare(*X, *Y, C->getPredicate());
  };
  if (const auto *Sel = dyn_cast<SelectInst>(I)) {
    std::optional<bool> C = Compare(Sel->getCondition(), Depth + 1);
    if (!C)
      return std::nullopt;
    return Op(*C ? 1 : 2);
  }
  // A merge costs its branch's evaluation and its value's: deep enough
  // for a few in a row, not for a chain of them (each doubles the work).
  if (const auto *PN = dyn_cast<PHINode>(I))
    return evaluateMerge(*PN, At, Depth + MergeDepth, [&](const Value *C) {
      return Compare(C, Depth + MergeDepth);
    });
  return std::nullopt;
}

std::optional<APInt> evaluateSCEV(const SCEV *S, const EvalPoint &At,
                                  unsigned Depth) {
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
    // A header PHI of the pinned loop that is not a recurrence: a counter
    // clang has folded to its constants (`it = phi [1, entry], [2, latch]`
    // of a two-pass loop), the entry's on the first iteration, the latch's
    // after it.
    if (const auto *PN = dyn_cast<PHINode>(U->getValue());
        PN && At.PinLoop && PN->getParent() == At.PinLoop->getHeader()) {
      const Value *V = nullptr;
      for (unsigned K = 0; K < PN->getNumIncomingValues(); ++K)
        if (At.PinLoop->contains(PN->getIncomingBlock(K)) == (At.PinIter > 0)) {
          if (V && V != PN->getIncomingValue(K))
            return std::nullopt;
          V = PN->getIncomingValue(K);
        }
      if (const auto *C = dyn_cast_or_null<ConstantInt>(V))
        return C->getValue().sextOrTrunc(Width);
      return std::nullopt;
    }
    unsigned Dim;
    switch (specialRegister(U->getValue(), Dim)) {
    case SReg::NTid:
      return APInt(64, At.Block[Dim]).zextOrTrunc(Width);
    // Thread 0, a representative thread; or the thread a per-thread
    // evaluation names along x.
    case SReg::Tid:
      return APInt(64, At.TidX && Dim == 0 ? *At.TidX : 0).zextOrTrunc(Width);
    case SReg::LaneId:
      return APInt(64, At.TidX ? *At.TidX % 32 : 0).zextOrTrunc(Width);
    case SReg::CtaId:
      if (At.CtaId)
        return APInt(64, (*At.CtaId)[Dim]).zextOrTrunc(Width);
      return std::nullopt;
    case SReg::NCtaId:
      if (At.UnitGrid)
        return APInt(Width, 1);
      if (At.Facts && At.Facts->Grid[Dim])
        return APInt(64, At.Facts->Grid[Dim]).zextOrTrunc(Width);
      return std::nullopt;
    default:
      return evaluateOpaque(U->getValue(), At, Depth);
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
  if (const auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    if (!At.PinLoop || AR->getLoop() != At.PinLoop || !AR->isAffine())
      return std::nullopt;
    // {Start,+,Step} at iteration k: Start + k * Step (affine: operand 1
    // is the step), wrapping in the expression's width as the IR does.
    auto Start = evaluateSCEV(AR->getStart(), At, Depth + 1);
    auto Step = evaluateSCEV(AR->getOperand(1), At, Depth + 1);
    if (!Start || !Step || Start->getBitWidth() != Width ||
        Step->getBitWidth() != Width)
      return std::nullopt;
    return *Start + *Step * APInt(Width, At.PinIter);
  }
  if (const auto *N = dyn_cast<SCEVNAryExpr>(S)) {
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

std::optional<bool> evaluateCondition(const Value *V, ScalarEvolution &SE,
                                      const EvalPoint &At, unsigned Depth) {
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

/// The most passes a loop's count may evaluate to (2^40): beyond it the
/// count has wrapped.
constexpr unsigned MaxTripBits = 40;

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
  // A count no thread runs (2^40 passes) is a negative one that an
  // unsigned division wrapped ((-8 + 8x) /u 8 at x = 0: 2^61 - 1, a
  // remainder loop that does not run at this point): as a negative one.
  if (V->getActiveBits() > MaxTripBits)
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

namespace {
/// One pass of a loop run by steppedTrip: the integer values its
/// instructions compute from the header PHIs' values on entry to the pass
/// and from loop-invariant values (evaluateSCEV at the evaluation point).
class PassValues {
public:
  PassValues(const Loop *L, ScalarEvolution &SE, const EvalPoint &At,
             const DenseMap<const PHINode *, APInt> &State,
             SmallPtrSetImpl<const SCEV *> *Read)
      : L(L), SE(SE), At(At), State(State), Read(Read) {}

  std::optional<APInt> get(const Value *V, unsigned Depth = 0) {
    if (Depth > 64 || !V->getType()->isIntegerTy())
      return std::nullopt;
    if (const auto *C = dyn_cast<ConstantInt>(V))
      return C->getValue();
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || !L->contains(I)) {
      // Loop invariant: through ScalarEvolution, as trip counts are.
      if (!SE.isSCEVable(V->getType()))
        return std::nullopt;
      const SCEV *S = SE.getSCEV(const_cast<Value *>(V));
      if (Read)
        Read->insert(S);
      return evaluateSCEV(S, At);
    }
    if (auto It = Memo.find(I); It != Memo.end())
      return It->second;
    std::optional<APInt> R = compute(*I, Depth);
    Memo[I] = R;
    return R;
  }

private:
  std::optional<APInt> compute(const Instruction &I, unsigned Depth) {
    if (const auto *PN = dyn_cast<PHINode>(&I)) {
      if (PN->getParent() != L->getHeader())
        return std::nullopt; // a join inside the pass: not followed
      auto It = State.find(PN);
      return It != State.end() ? std::optional<APInt>(It->second)
                               : std::nullopt;
    }
    auto Op = [&](unsigned K) { return get(I.getOperand(K), Depth + 1); };
    unsigned W = I.getType()->getIntegerBitWidth();
    if (const auto *B = dyn_cast<BinaryOperator>(&I)) {
      auto X = Op(0), Y = Op(1);
      if (!X || !Y || X->getBitWidth() != Y->getBitWidth())
        return std::nullopt;
      return foldBinary(B->getOpcode(), *X, *Y);
    }
    if (const auto *C = dyn_cast<ICmpInst>(&I)) {
      auto X = Op(0), Y = Op(1);
      if (!X || !Y || X->getBitWidth() != Y->getBitWidth())
        return std::nullopt;
      return APInt(1, ICmpInst::compare(*X, *Y, C->getPredicate()));
    }
    // A counter compared as a float (backprop's `i <= __log2f(16)`: clang
    // keeps `fcmp ult (lg2.approx 16.0), (uitofp i)`, which nvcc folds).
    if (const auto *C = dyn_cast<FCmpInst>(&I)) {
      auto X = getFloat(I.getOperand(0), Depth + 1),
           Y = getFloat(I.getOperand(1), Depth + 1);
      if (!X || !Y)
        return std::nullopt;
      return APInt(1, FCmpInst::compare(APFloat(*X), APFloat(*Y),
                                        C->getPredicate()));
    }
    if (isa<SelectInst>(&I)) {
      auto C = Op(0);
      if (!C)
        return std::nullopt;
      return Op(C->isOne() ? 1 : 2);
    }
    if (isa<ZExtInst>(&I) || isa<SExtInst>(&I) || isa<TruncInst>(&I) ||
        isa<FreezeInst>(&I)) {
      auto X = Op(0);
      if (!X)
        return std::nullopt;
      return isa<SExtInst>(&I) ? X->sext(W)
             : isa<FreezeInst>(&I) ? *X
                                   : X->zextOrTrunc(W);
    }
    if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
      Intrinsic::ID ID = II->getIntrinsicID();
      if (ID == Intrinsic::ctlz || ID == Intrinsic::cttz ||
          ID == Intrinsic::ctpop) {
        auto X = Op(0);
        return X ? foldBitCount(ID, *X) : std::nullopt;
      }
      if (ID != Intrinsic::smin && ID != Intrinsic::smax &&
          ID != Intrinsic::umin && ID != Intrinsic::umax)
        return std::nullopt;
      auto X = Op(0), Y = Op(1);
      if (!X || !Y)
        return std::nullopt;
      switch (ID) {
      case Intrinsic::smin: return X->slt(*Y) ? *X : *Y;
      case Intrinsic::smax: return X->sgt(*Y) ? *X : *Y;
      case Intrinsic::umin: return X->ult(*Y) ? *X : *Y;
      default: return X->ugt(*Y) ? *X : *Y;
      }
    }
    return std::nullopt;
  }

  /// A float the pass computes from its integers and constants: a
  /// converted integer, arithmetic, log2 / exp2 (NVVM's approximations
  /// evaluated exactly).
  std::optional<double> getFloat(const Value *V, unsigned Depth) {
    if (Depth > 64 || !V->getType()->isFloatingPointTy())
      return std::nullopt;
    // Each value rounded to its type, as the GPU computes it (`n * 0.1f`
    // at n = 10 is exactly 1.0f).
    std::optional<double> R = getFloatUnrounded(V, Depth);
    if (R && V->getType()->isFloatTy())
      R = double(float(*R));
    return R;
  }

  std::optional<double> getFloatUnrounded(const Value *V, unsigned Depth) {
    if (const auto *C = dyn_cast<ConstantFP>(V))
      return C->getValueAPF().convertToDouble();
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return std::nullopt;
    if (isa<UIToFPInst>(I) || isa<SIToFPInst>(I)) {
      std::optional<APInt> X = get(I->getOperand(0), Depth + 1);
      if (!X)
        return std::nullopt;
      return isa<SIToFPInst>(I) ? double(X->getSExtValue())
                                : X->roundToDouble(/*isSigned=*/false);
    }
    if (isa<FPExtInst>(I) || isa<FPTruncInst>(I))
      return getFloat(I->getOperand(0), Depth + 1);
    if (const auto *B = dyn_cast<BinaryOperator>(I)) {
      auto X = getFloat(B->getOperand(0), Depth + 1),
           Y = getFloat(B->getOperand(1), Depth + 1);
      if (!X || !Y)
        return std::nullopt;
      switch (B->getOpcode()) {
      case Instruction::FAdd: return *X + *Y;
      case Instruction::FSub: return *X - *Y;
      case Instruction::FMul: return *X * *Y;
      case Instruction::FDiv: return *X / *Y;
      default: return std::nullopt;
      }
    }
    if (const auto *CI = dyn_cast<CallInst>(I))
      if (const Function *Fn = CI->getCalledFunction();
          Fn && CI->arg_size() == 1) {
        StringRef N = Fn->getName();
        bool Log = N.starts_with("llvm.nvvm.lg2.approx") ||
                   N.starts_with("llvm.log2.");
        bool Exp = N.starts_with("llvm.nvvm.ex2.approx") ||
                   N.starts_with("llvm.exp2.");
        if (Log || Exp)
          if (auto X = getFloat(CI->getArgOperand(0), Depth + 1))
            return Log ? std::log2(*X) : std::exp2(*X);
      }
    return std::nullopt;
  }

  const Loop *L;
  ScalarEvolution &SE;
  const EvalPoint &At;
  const DenseMap<const PHINode *, APInt> &State;
  SmallPtrSetImpl<const SCEV *> *Read;
  DenseMap<const Instruction *, std::optional<APInt>> Memo;
};
} // namespace

std::optional<double> steppedTrip(const Loop *L, ScalarEvolution &SE,
                                  ArrayRef<EntryCondition> Conds,
                                  const EvalPoint &At, unsigned MaxPasses,
                                  SmallPtrSetImpl<const SCEV *> *Read,
                                  ArrayRef<const Value *> Watch,
                                  std::vector<SmallVector<APInt, 2>> *Watched) {
  BasicBlock *Exiting = L->getExitingBlock();
  BasicBlock *Latch = L->getLoopLatch();
  BasicBlock *Pre = L->getLoopPredecessor();
  if (!Exiting || !Latch || !Pre ||
      (Exiting != Latch && Exiting != L->getHeader()))
    return std::nullopt;
  const auto *Br = dyn_cast<BranchInst>(Exiting->getTerminator());
  if (!Br || !Br->isConditional())
    return std::nullopt;
  bool ExitOnTrue = !L->contains(Br->getSuccessor(0));
  for (const EntryCondition &C : Conds)
    if (auto V = evaluateCondition(C.Cond, SE, At))
      if (*V != C.Holds)
        return 0.0;
  // The header PHIs' values on entry; one unknown only matters if the exit
  // test reads it.
  // The header PHIs the exit test depends on, through the loop's
  // instructions and the PHIs' values from the latch.
  SmallPtrSet<const PHINode *, 4> Relevant;
  {
    SmallVector<const Value *, 16> Work{Br->getCondition()};
    Work.append(Watch.begin(), Watch.end());
    SmallPtrSet<const Value *, 32> Seen;
    while (!Work.empty()) {
      const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
      if (!I || !L->contains(I) || !Seen.insert(I).second)
        continue;
      if (const auto *PN = dyn_cast<PHINode>(I)) {
        if (PN->getParent() == L->getHeader() && Relevant.insert(PN).second)
          Work.push_back(PN->getIncomingValueForBlock(Latch));
        continue;
      }
      for (const Value *Op : I->operands())
        Work.push_back(Op);
    }
  }
  DenseMap<const PHINode *, APInt> State;
  for (const PHINode *PN : Relevant) {
    DenseMap<const PHINode *, APInt> None;
    PassValues Entry(L, SE, At, None, Read);
    std::optional<APInt> V = Entry.get(PN->getIncomingValueForBlock(Pre));
    if (!V)
      return std::nullopt;
    State.try_emplace(PN, *V);
  }
  for (unsigned Pass = 1; Pass <= MaxPasses; ++Pass) {
    PassValues Now(L, SE, At, State, Read);
    std::optional<APInt> C = Now.get(Br->getCondition());
    if (!C)
      return std::nullopt;
    if (Watched) {
      Watched->emplace_back();
      for (const Value *V : Watch) {
        std::optional<APInt> X = Now.get(V);
        if (!X)
          return std::nullopt;
        Watched->back().push_back(*X);
      }
    }
    if (C->isOne() == ExitOnTrue)
      return double(Pass);
    DenseMap<const PHINode *, APInt> Next;
    for (const auto &[PN, V] : State) {
      std::optional<APInt> N = Now.get(PN->getIncomingValueForBlock(Latch));
      if (!N)
        return std::nullopt;
      Next.try_emplace(PN, *N);
    }
    State = std::move(Next);
  }
  return std::nullopt;
}

void fitBlockDim(LoopRecord &R, const Loop *L, const SCEV *BTC,
                 ScalarEvolution &SE, ArrayRef<EntryCondition> Conds,
                 const EvalPoint &At) {
  const double Samples[3] = {16, 32, 64};
  // A count that falls along any dimension is a block-stride loop's, over
  // every dimension along which it falls (a step of blockDim.x *
  // blockDim.y falls along both).
  bool Falling = false;
  for (unsigned D = 0; D < 3; ++D) {
    if (!scevMentions(BTC, SReg::NTid, D))
      continue;
    // The other dimensions at one thread leave the range whole.
    auto TripAlong = [&](double Threads) {
      EvalPoint X = At;
      X.Block = {1, 1, 1};
      X.Block[D] = uint64_t(Threads);
      return tripAt(L, BTC, SE, Conds, X);
    };
    std::optional<double> Lo = TripAlong(Samples[0]),
                          Hi = TripAlong(Samples[2]);
    if (Lo && Hi && *Hi < *Lo) {
      R.DependsOnBlockDim = true;
      R.BlockStrideDims |= 1u << D;
      Falling = true;
    }
  }
  if (Falling)
    return;
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
    double Slope = (T[2] - T[0]) / (Samples[2] - Samples[0]);
    double Offset = T[0] - Slope * Samples[0];
    // Within one iteration of a line: floors of a division by the unroll
    // factor or by a constant stay affine. Also at the larger blocks the
    // sweep tries: an unrolled loop's remainder, `(blockDim.x / 32) & 7`
    // passes, rises along 16, 32, 64 threads and is 0 at 256 (llm.c's
    // matmul_backward_bias_kernel4 was charged 10 passes there).
    auto Near = [&](double At, double Trip) {
      return std::fabs(Trip - (Slope * At + Offset)) <= 1.0;
    };
    bool Affine = Near(Samples[1], T[1]);
    for (double Far : {128.0, 256.0, 512.0}) {
      if (!Affine || (D == 2 && Far > 64)) // blockDim.z is at most 64
        break;
      EvalPoint X = At;
      X.Block[D] = static_cast<uint64_t>(Far);
      std::optional<double> V = tripAt(L, BTC, SE, Conds, X);
      Affine = V && Near(Far, *V);
    }
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

/// A loop step known to be positive: a positive constant, blockDim or
/// gridDim (at least 1), or a product of such (a block- or grid-stride
/// loop whose add has no `nsw`, which SCEV then cannot count: attention's
/// `for (j = tid; j < L; j += blockDim.x)` in clang's IR).
static bool positiveStep(const SCEV *S) {
  if (const auto *C = dyn_cast<SCEVConstant>(S))
    return C->getAPInt().isStrictlyPositive();
  if (const auto *Z = dyn_cast<SCEVZeroExtendExpr>(S))
    return positiveStep(Z->getOperand());
  if (const auto *U = dyn_cast<SCEVUnknown>(S)) {
    unsigned D;
    SReg R = specialRegister(U->getValue(), D);
    return R == SReg::NTid || R == SReg::NCtaId;
  }
  if (const auto *M = dyn_cast<SCEVMulExpr>(S))
    return llvm::all_of(M->operands(),
                        [](const SCEV *Op) { return positiveStep(Op); });
  return false;
}

const SCEV *headerPhiStep(const PHINode &PN, const Loop &L,
                          ScalarEvolution &SE) {
  if (!SE.isSCEVable(PN.getType()))
    return nullptr;
  if (const auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(
          const_cast<PHINode *>(&PN))))
    return AR->getLoop() == &L ? AR->getStepRecurrence(SE) : nullptr;
  const SCEV *Self = SE.getSCEV(const_cast<PHINode *>(&PN));
  const SCEV *Step = nullptr;
  SmallVector<const Value *, 8> Work;
  SmallPtrSet<const Value *, 8> Seen;
  for (unsigned I = 0; I < PN.getNumIncomingValues(); ++I)
    if (L.contains(PN.getIncomingBlock(I)))
      Work.push_back(PN.getIncomingValue(I));
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (Seen.size() > 16)
      return nullptr;
    const auto *Q = dyn_cast<PHINode>(V);
    if (Q && Q != &PN && L.contains(Q) && Q->getParent() != L.getHeader()) {
      Work.append(Q->value_op_begin(), Q->value_op_end());
      continue;
    }
    if (V->getType() != PN.getType())
      return nullptr;
    const SCEV *D = SE.getMinusSCEV(SE.getSCEV(const_cast<Value *>(V)), Self);
    if (isa<SCEVCouldNotCompute>(D) || !SE.isLoopInvariant(D, &L) ||
        (Step && D != Step))
      return nullptr;
    Step = D;
  }
  return Step;
}

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
  const SCEV *Step = AR && AR->getLoop() == L && AR->isAffine()
                         ? AR->getStepRecurrence(SE)
                         : nullptr;
  if (!Step || !positiveStep(Step) || !SE.isLoopInvariant(B, L))
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

} // namespace irprof
} // namespace flipflop
