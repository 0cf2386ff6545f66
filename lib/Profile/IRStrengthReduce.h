//===- IRStrengthReduce.h - What LSR leaves of addresses (private) -*- C++ -*-===//
//
// Private to the IR front end. The NVPTX back end runs loop strength
// reduction (LSR) before it emits PTX: an address that is an affine
// recurrence of its loop becomes a pointer induction variable, stepped once
// per iteration, and addresses a constant apart share it through
// [reg+imm] operands. The integer arithmetic that computed those addresses
// from the loop's counter is gone, and a multiplication that is itself a
// recurrence becomes an add. The optimised IR still holds all of it, so
// counting it instruction by instruction put 4-7x the PTX's integer
// instructions into tiled inner loops (CLBlast's unrolled k loop: 29 per
// four steps in the IR, 4 in clang's PTX).
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_LIB_PROFILE_IRSTRENGTHREDUCE_H
#define FLIPFLOP_LIB_PROFILE_IRSTRENGTHREDUCE_H

#include "IRStride.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"

namespace flipflop {
namespace irprof {

struct StrengthReduction {
  /// GEPs whose address is an affine recurrence of their innermost loop,
  /// and the integer instructions each iteration still spends on them:
  /// 1 for the first of a group of addresses a constant apart (the
  /// pointer's increment), 0 for the others ([reg+imm]).
  /// A GEP of one block a constant away from an earlier one of that block
  /// (the same sibling key) is a [reg+imm] operand of its address: 0.
  llvm::DenseMap<const llvm::Instruction *, unsigned> GEPCost;
  /// The GEPs above whose index arithmetic LSR or the [reg+imm] operand
  /// makes unnecessary: all of a loop's group (with the loop: what lies
  /// outside it still forms the pointer's start), the later ones of a
  /// block's (null).
  llvm::DenseMap<const llvm::Instruction *, const llvm::Loop *> FoldedIndex;
  /// Integer instructions and casts whose every use is a folded index of
  /// such a GEP or another of these: gone after LSR or the operand fold.
  llvm::SmallPtrSet<const llvm::Instruction *, 32> Dead;
  /// Multiplications that are affine recurrences of their innermost loop:
  /// an add after LSR.
  llvm::SmallPtrSet<const llvm::Instruction *, 8> MulAsAdd;

  /// True when LSR removes \p I.
  bool isDead(const llvm::Instruction &I) const { return Dead.count(&I); }
};

/// The strength reduction of \p F's loops.
StrengthReduction strengthReduce(llvm::Function &F, llvm::LoopInfo &LI,
                                 llvm::ScalarEvolution &SE,
                                 const llvm::DataLayout &DL);

} // namespace irprof
} // namespace flipflop

#endif // FLIPFLOP_LIB_PROFILE_IRSTRENGTHREDUCE_H
