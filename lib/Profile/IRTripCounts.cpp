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
    case SReg::Tid:
    case SReg::LaneId:
      return APInt(Width, 0); // Thread 0, a representative thread.
    case SReg::CtaId:
      if (At.CtaId)
        return APInt(64, (*At.CtaId)[Dim]).zextOrTrunc(Width);
      return std::nullopt;
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
