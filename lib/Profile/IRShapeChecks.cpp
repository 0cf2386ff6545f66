//===- IRShapeChecks.cpp - Block shapes fixed by checks in the code -------===//
//
// A kernel that asserts `blockDim.x == 256`, traps on another shape or
// returns early when `blockDim.x != 256` runs its work only at that shape:
// recommending another one would break it (an assert fires) or make it do
// nothing. This file finds such checks in the IR: a conditional branch on a
// comparison of blockDim (one dimension, or the product of two or three)
// against a constant, where one side of the branch does no work (it reaches
// a return or `unreachable` through blocks without stores, atomics or calls
// other than the assert/trap/printf family) and the other side does.
//
//===----------------------------------------------------------------------===//

#include "flipflop/Profile/IRProfile.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace flipflop {
namespace {

/// blockDim.d read (through casts); -1 when \p V is not one.
int ntidDim(const Value *V) {
  V = V->stripPointerCasts();
  while (const auto *C = dyn_cast<CastInst>(V))
    if (C->getOpcode() == Instruction::ZExt ||
        C->getOpcode() == Instruction::SExt ||
        C->getOpcode() == Instruction::Trunc)
      V = C->getOperand(0);
    else
      break;
  const auto *CB = dyn_cast<CallBase>(V);
  if (!CB || !CB->getCalledFunction())
    return -1;
  StringRef N = CB->getCalledFunction()->getName();
  if (!N.consume_front("llvm.nvvm.read.ptx.sreg.ntid."))
    return -1;
  return N == "x" ? 0 : N == "y" ? 1 : N == "z" ? 2 : -1;
}

/// The dimensions multiplied in \p V when it is blockDim.d or a product of
/// distinct blockDim reads (bit d set for blockDim.d); 0 otherwise.
unsigned ntidProduct(const Value *V, unsigned Depth = 0) {
  if (int D = ntidDim(V); D >= 0)
    return 1u << D;
  const Value *A, *B;
  if (Depth < 3 && match(V, m_Mul(m_Value(A), m_Value(B)))) {
    unsigned L = ntidProduct(A, Depth + 1), R = ntidProduct(B, Depth + 1);
    if (L && R && !(L & R))
      return L | R;
  }
  if (const auto *C = dyn_cast<CastInst>(V))
    if (C->getOpcode() == Instruction::ZExt ||
        C->getOpcode() == Instruction::Trunc)
      return ntidProduct(C->getOperand(0), Depth + 1);
  return 0;
}

/// Calls that report a failure and do no work of the kernel.
bool isFailureCall(const CallBase &CB) {
  const Function *F = CB.getCalledFunction();
  if (!F)
    return false;
  StringRef N = F->getName();
  return N == "__assertfail" || N == "__assert_fail" || N == "llvm.trap" ||
         N == "llvm.debugtrap" || N == "llvm.ubsantrap" || N == "vprintf" ||
         N == "printf" || N.starts_with("llvm.dbg.") ||
         N.starts_with("llvm.lifetime.") || N == "llvm.assume";
}

/// How a side of a branch ends when it does no work.
enum class Idle { No, Returns, Fails };

/// Whether every path from \p BB reaches a return or `unreachable` without
/// doing work (stores, atomics, other calls, loops). Bounded search.
Idle idleFrom(const BasicBlock *BB) {
  SmallVector<const BasicBlock *, 8> Work{BB};
  SmallPtrSet<const BasicBlock *, 16> Seen{BB};
  bool Fails = false;
  while (!Work.empty()) {
    const BasicBlock *B = Work.pop_back_val();
    if (Seen.size() > 16)
      return Idle::No;
    bool Ends = false;
    for (const Instruction &I : *B) {
      if (const auto *CB = dyn_cast<CallBase>(&I)) {
        if (!isFailureCall(*CB))
          return Idle::No;
        // An assert or a trap ends the kernel with an error, whether or not
        // the path rejoins the work afterwards (CUDA's __assertfail returns):
        // this path ends here.
        StringRef N = CB->getCalledFunction()->getName();
        if (N.contains("assert") || N.contains("trap")) {
          Ends = Fails = true;
          break;
        }
        continue;
      }
      if (I.mayWriteToMemory())
        return Idle::No;
    }
    if (Ends)
      continue;
    const Instruction *T = B->getTerminator();
    if (isa<UnreachableInst>(T)) {
      Fails = true;
      continue;
    }
    if (isa<ReturnInst>(T))
      continue;
    for (const BasicBlock *S : successors(B)) {
      if (!Seen.insert(S).second)
        return Idle::No; // a join or a loop: not a plain early exit
      Work.push_back(S);
    }
  }
  return Fails ? Idle::Fails : Idle::Returns;
}

std::string dimsText(unsigned Mask) {
  std::string S;
  for (unsigned D = 0; D < 3; ++D)
    if (Mask & (1u << D)) {
      if (!S.empty())
        S += " * ";
      S += std::string("blockDim.") + "xyz"[D];
    }
  return S;
}

const char *predText(CmpInst::Predicate P) {
  switch (P) {
  case CmpInst::ICMP_EQ:
    return "==";
  case CmpInst::ICMP_NE:
    return "!=";
  case CmpInst::ICMP_ULT:
  case CmpInst::ICMP_SLT:
    return "<";
  case CmpInst::ICMP_ULE:
  case CmpInst::ICMP_SLE:
    return "<=";
  case CmpInst::ICMP_UGT:
  case CmpInst::ICMP_SGT:
    return ">";
  case CmpInst::ICMP_UGE:
  case CmpInst::ICMP_SGE:
    return ">=";
  default:
    return "?";
  }
}

/// Records that `Mask pred C` holds wherever the kernel does its work.
bool record(ShapeInfo &S, unsigned Mask, CmpInst::Predicate P, uint64_t C) {
  if (C == 0 || C > (1u << 20))
    return false;
  unsigned V = static_cast<unsigned>(C);
  bool Single = Mask == 1 || Mask == 2 || Mask == 4;
  unsigned D = Mask == 1 ? 0 : Mask == 2 ? 1 : 2;
  switch (P) {
  case CmpInst::ICMP_EQ:
    if (Single)
      S.CheckedDim[D] = V;
    else
      S.CheckedThreads = V;
    return true;
  case CmpInst::ICMP_ULT:
  case CmpInst::ICMP_SLT:
    if (!Single || V < 2)
      return false;
    S.CheckedMax[D] = S.CheckedMax[D] ? std::min(S.CheckedMax[D], V - 1) : V - 1;
    return true;
  case CmpInst::ICMP_ULE:
  case CmpInst::ICMP_SLE:
    if (!Single)
      return false;
    S.CheckedMax[D] = S.CheckedMax[D] ? std::min(S.CheckedMax[D], V) : V;
    return true;
  case CmpInst::ICMP_UGT:
  case CmpInst::ICMP_SGT:
    if (!Single)
      return false;
    S.CheckedMin[D] = std::max(S.CheckedMin[D], V + 1);
    return true;
  case CmpInst::ICMP_UGE:
  case CmpInst::ICMP_SGE:
    if (!Single)
      return false;
    S.CheckedMin[D] = std::max(S.CheckedMin[D], V);
    return true;
  default:
    return false;
  }
}

} // namespace

void findBlockDimChecks(const Function &F, ShapeInfo &S) {
  for (const BasicBlock &BB : F) {
    const auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    if (!Br || !Br->isConditional())
      continue;
    const auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
    if (!Cmp)
      continue;
    CmpInst::Predicate P = Cmp->getPredicate();
    const Value *L = Cmp->getOperand(0), *R = Cmp->getOperand(1);
    if (isa<ConstantInt>(L)) {
      std::swap(L, R);
      P = CmpInst::getSwappedPredicate(P);
    }
    const auto *C = dyn_cast<ConstantInt>(R);
    unsigned Mask = ntidProduct(L);
    if (!C || !Mask || C->getValue().getActiveBits() > 32)
      continue;
    Idle T = idleFrom(Br->getSuccessor(0));
    Idle E = idleFrom(Br->getSuccessor(1));
    // Exactly one side idle: the work runs on the other side, where the
    // comparison holds (true side) or its inverse does (false side).
    if ((T == Idle::No) == (E == Idle::No))
      continue;
    Idle How = T != Idle::No ? T : E;
    if (T != Idle::No)
      P = CmpInst::getInversePredicate(P);
    if (!record(S, Mask, P, C->getZExtValue()))
      continue;
    // Strict bounds as inclusive ones: clang writes `x <= 64` as `x < 65`.
    uint64_t V = C->getZExtValue();
    if (P == CmpInst::ICMP_ULT || P == CmpInst::ICMP_SLT) {
      P = CmpInst::ICMP_ULE;
      --V;
    } else if (P == CmpInst::ICMP_UGT || P == CmpInst::ICMP_SGT) {
      P = CmpInst::ICMP_UGE;
      ++V;
    }
    std::string Fact;
    raw_string_ostream OS(Fact);
    OS << dimsText(Mask) << " " << predText(P) << " " << V;
    OS << (How == Idle::Fails ? " is asserted" : " is required (other shapes "
                                                 "return early)");
    if (const DebugLoc &DL = Cmp->getDebugLoc() ? Cmp->getDebugLoc()
                                                : Br->getDebugLoc())
      if (DL.getLine())
        OS << " at line " << DL.getLine();
    if (std::find(S.CheckFacts.begin(), S.CheckFacts.end(), Fact) ==
        S.CheckFacts.end())
      S.CheckFacts.push_back(Fact);
  }
}

} // namespace flipflop
