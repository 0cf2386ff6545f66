//===- IRStrengthReduce.cpp - What LSR leaves of addresses ----------------===//
//
// See IRStrengthReduce.h. A model of the outcome of LSR, not of its cost
// search: every affine address recurrence of a loop is taken as reduced.
//
//===----------------------------------------------------------------------===//
#include "IRStrengthReduce.h"
#include "IRStride.h"
#include "flipflop/Profile/IRProfile.h"
#include "flipflop/Profile/OpRules.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
#include <set>

using namespace llvm;

namespace flipflop {
namespace irprof {

/// \p V as an affine recurrence of \p L with a step that \p L does not
/// change, or null.
static const SCEVAddRecExpr *affineRecurrence(Value *V, const Loop *L,
                                             ScalarEvolution &SE) {
  if (!L || !SE.isSCEVable(V->getType()))
    return nullptr;
  const auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(V));
  if (!AR || AR->getLoop() != L || !AR->isAffine() ||
      !SE.isLoopInvariant(AR->getStepRecurrence(SE), L))
    return nullptr;
  return AR;
}

/// Whether the back end can split a constant off \p GEP's index into an
/// immediate operand: not through the zext of a sum that may wrap
/// (zext(a + 1) is not zext(a) + 1 when a + 1 wraps; llc keeps such
/// indices whole), but through a sext, which NVPTX's constant-offset
/// splitting takes for an in-bounds address (clang's PTX of CLBlast's
/// `bgm[row * ld + col + 2]` reads [%rd+32]).
static bool foldsToImmediate(const GetElementPtrInst &GEP) {
  if (GEP.getNumIndices() != 1)
    return false;
  const auto *Z = dyn_cast<ZExtInst>(GEP.getOperand(1));
  if (!Z)
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(Z->getOperand(0));
  if (!BO)
    return true;
  if (const auto *D = dyn_cast<PossiblyDisjointInst>(BO))
    return D->isDisjoint();
  return !isa<OverflowingBinaryOperator>(BO) || BO->hasNoUnsignedWrap();
}

/// An add or subtract of 2 to 32 bits.
static bool isNarrowAdd(const Value *V) {
  const auto *B = dyn_cast<BinaryOperator>(V);
  return B &&
         (B->getOpcode() == Instruction::Add ||
          B->getOpcode() == Instruction::Sub) &&
         B->getType()->isIntegerTy() &&
         B->getType()->getIntegerBitWidth() > 1 &&
         B->getType()->getIntegerBitWidth() <= 32;
}

/// An add that NVPTX emits as mad.lo with a product only it uses.
static bool becomesMad(const Instruction &Add, const StrengthReduction &R) {
  return any_of(Add.operands(), [&](const Use &Op) {
    const auto *M = dyn_cast<BinaryOperator>(Op.get());
    return M && M->getOpcode() == Instruction::Mul && M->hasOneUse() &&
           M->getParent() == Add.getParent() && !R.isDead(*M) &&
           !R.MulAsAdd.count(M);
  });
}

/// StrengthReduction::FoldedAdds of \p F, once Dead is known.
static void findFoldedAdds(Function &F, LoopInfo &LI, ScalarEvolution &SE,
                           StrengthReduction &R) {
  // In a kernel, arguments are constant-bank operands.
  bool InKernel = isKernel(F);
  auto IsConstant = [&](const Value *V) {
    return isa<Constant>(V) || (InKernel && isa<Argument>(V));
  };
  for (BasicBlock &BB : F) {
    const Loop *L = LI.getLoopFor(&BB);
    // The block's `IV + offset` adds so far.
    SmallVector<const SCEVAddRecExpr *, 4> Recs;
    // Adds that already took one in: IADD3 has room for one more input.
    SmallPtrSet<const Instruction *, 8> Absorbed;
    for (Instruction &I : BB) {
      if (!isNarrowAdd(&I) || R.isDead(I) || !I.hasOneUse() ||
          Absorbed.count(&I))
        continue;
      const auto *U = cast<Instruction>(*I.user_begin());
      if (!isNarrowAdd(U) || U->getParent() != &BB || R.isDead(*U) ||
          U->getOperand(0) == U->getOperand(1) || !I.comesBefore(U) ||
          becomesMad(I, R) || becomesMad(*U, R))
        continue;
      const Value *Other =
          U->getOperand(0) == &I ? U->getOperand(1) : U->getOperand(0);
      unsigned Constants;
      if (const SCEVAddRecExpr *AR = affineRecurrence(&I, L, SE)) {
        bool Shared = any_of(Recs, [&](const SCEVAddRecExpr *Rep) {
          return Rep->getType() == AR->getType() &&
                 Rep->getStepRecurrence(SE) == AR->getStepRecurrence(SE) &&
                 isa<SCEVConstant>(SE.getMinusSCEV(AR, Rep));
        });
        if (!Shared) {
          Recs.push_back(AR);
          continue;
        }
        Constants = 1 + IsConstant(Other); // the shared register + offset
      } else {
        Constants = IsConstant(I.getOperand(0)) + IsConstant(I.getOperand(1)) +
                    IsConstant(Other);
      }
      if (foldsIntoThreeInputAdd(Constants) && !Absorbed.count(U)) {
        R.FoldedAdds.insert(&I);
        Absorbed.insert(U);
      }
    }
  }
}

StrengthReduction strengthReduce(Function &F, LoopInfo &LI,
                                 ScalarEvolution &SE, const DataLayout &DL) {
  StrengthReduction R;
  // Pointer induction variables: per loop, one representative address per
  // group of addresses a constant apart with the same step.
  DenseMap<const Loop *, SmallVector<const SCEVAddRecExpr *, 4>> Groups;
  SmallVector<Instruction *, 64> Order;
  ReversePostOrderTraversal<Function *> RPOT(&F);
  for (BasicBlock *BB : RPOT) {
    // The sibling keys (with the element size that scales their terms) of
    // the block's addresses so far.
    std::set<std::pair<SiblingKey, uint64_t>> BlockKeys;
    // The addresses (SCEV) and types the block has loaded since its last
    // write to memory (a store, a barrier, a call that may write).
    std::set<std::pair<const SCEV *, Type *>> Loaded;
    // The block's addresses so far without their constant term (SCEV).
    std::set<const SCEV *> Variable;
    for (Instruction &I : *BB) {
      Order.push_back(&I);
      if (auto *Ld = dyn_cast<LoadInst>(&I); Ld && Ld->isSimple()) {
        // A second load of an address this block read with nothing written
        // between is the first's value: the back end's CSE keeps one (an
        // unrolled stencil's taps that coincide, sh[ty + 4 + i] for one
        // output and sh[ty + (i + 4)] for the next, which the optimiser's
        // GVN does not match through their extensions).
        Value *Ptr = Ld->getPointerOperand();
        if (SE.isSCEVable(Ptr->getType()) &&
            !Loaded.insert({SE.getSCEV(Ptr), Ld->getType()}).second)
          R.Dead.insert(&I);
      } else if (I.mayWriteToMemory()) {
        Loaded.clear();
      }
      const Loop *L = LI.getLoopFor(BB);
      if (I.getOpcode() == Instruction::Mul && affineRecurrence(&I, L, SE))
        R.MulAsAdd.insert(&I);
      auto *GEP = dyn_cast<GetElementPtrInst>(&I);
      // Vector GEPs (gathers) are left as they are.
      if (!GEP || GEP->hasAllConstantIndices() ||
          !GEP->getType()->isPointerTy())
        continue;
      const SCEVAddRecExpr *AR = affineRecurrence(GEP, L, SE);
      if (!AR) {
        // An address a constant away from an earlier one of its block is
        // that one's register plus an immediate: NVPTX separates the
        // constant offsets of GEPs and reuses the rest (the rows of an
        // unrolled stencil, sh[ty + i][tx + j], whose indices the IR
        // extends one by one).
        if (SE.isSCEVable(GEP->getType())) {
          const SCEV *S = SE.getSCEV(GEP);
          if (const auto *Add = dyn_cast<SCEVAddExpr>(S);
              Add && isa<SCEVConstant>(Add->getOperand(0))) {
            SmallVector<const SCEV *, 4> Rest(Add->operands().drop_front());
            S = SE.getAddExpr(Rest);
          }
          if (!Variable.insert(S).second) {
            R.Folded[GEP] = {0, nullptr};
            continue;
          }
        }
        if (!foldsToImmediate(*GEP))
          continue;
        int64_t Off = 0;
        SiblingKey Key = siblingKey(GEP, Off, DL);
        TypeSize Elt = DL.getTypeAllocSize(GEP->getSourceElementType());
        if (Key.first && !Key.second.empty() && !Elt.isScalable() &&
            !BlockKeys.insert({std::move(Key), Elt.getFixedValue()}).second) {
          R.Folded[GEP] = {0, nullptr};
        }
        continue;
      }
      unsigned Cost = 1;
      for (const SCEVAddRecExpr *Rep : Groups[L])
        if (Rep->getType() == AR->getType() &&
            Rep->getStepRecurrence(SE) == AR->getStepRecurrence(SE) &&
            isa<SCEVConstant>(SE.getMinusSCEV(AR, Rep))) {
          Cost = 0;
          break;
        }
      if (Cost)
        Groups[L].push_back(AR);
      R.Folded[GEP] = {Cost, L};
    }
  }
  // The arithmetic that only reduced addresses and other recurrences use:
  // LSR forms those from its induction variables (a recurrence used
  // elsewhere costs its own add, `IV + offset`), so what computed them from
  // the loop's counter is gone. Users come after their operands in reverse
  // post-order, phis aside (a phi user keeps a value).
  auto IsArith = [&](const Instruction *I) {
    return I->getType()->isIntegerTy() &&
           (isa<BinaryOperator>(I) || isa<CastInst>(I));
  };
  auto AllUsersDead = [&](const Instruction *I) {
    return all_of(I->users(), [&](const User *U) {
      const auto *UI = dyn_cast<Instruction>(U);
      return UI && R.Dead.count(UI);
    });
  };
  for (Instruction *I : reverse(Order)) {
    // The address of a load that is gone (above): gone with it.
    if (isa<GetElementPtrInst>(I) && !I->use_empty() && AllUsersDead(I)) {
      R.Dead.insert(I);
      continue;
    }
    if (!IsArith(I) || I->use_empty())
      continue;
    const Loop *L = LI.getLoopFor(I->getParent());
    bool IsRec = affineRecurrence(I, L, SE) != nullptr;
    bool AllReduced = all_of(I->users(), [&](const User *U) {
      const auto *UI = dyn_cast<Instruction>(U);
      if (!UI)
        return false;
      if (const auto *GEP = dyn_cast<GetElementPtrInst>(UI)) {
        if (R.Dead.count(GEP)) // the address of a load that is gone
          return true;
        auto It = R.Folded.find(GEP);
        return It != R.Folded.end() && GEP->getPointerOperand() != I &&
               (!It->second.L || It->second.L->contains(I));
      }
      // Within one loop: a dead user in a loop still needs, as its
      // recurrence's start, what is computed before the loop.
      if (LI.getLoopFor(UI->getParent()) != L)
        return false;
      return R.Dead.count(UI) ||
             (IsRec && IsArith(UI) &&
              affineRecurrence(const_cast<Instruction *>(UI), L, SE));
    });
    if (AllReduced)
      R.Dead.insert(I);
  }
  findFoldedAdds(F, LI, SE, R);
  return R;
}

} // namespace irprof
} // namespace flipflop
