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

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"

namespace flipflop {
namespace irprof {

struct StrengthReduction {
  /// A GEP whose address LSR or an immediate operand takes over.
  struct FoldedGEP {
    /// Integer instructions each execution still spends on it: 1 for the
    /// first of a loop's group of addresses a constant apart (the pointer's
    /// increment), 0 for the others ([reg+imm]) and for a GEP of a block a
    /// constant away from an earlier one of that block.
    unsigned Cost = 0;
    /// The loop of a group (what lies outside it still forms the pointer's
    /// start, so its index arithmetic is only dead inside it); null for a
    /// block's.
    const llvm::Loop *L = nullptr;
  };
  /// The GEPs whose index arithmetic is unnecessary: every address of a
  /// loop that is an affine recurrence of it, the later ones of a block's
  /// group with the same sibling key.
  llvm::DenseMap<const llvm::Instruction *, FoldedGEP> Folded;
  /// Integer instructions and casts whose every use is a folded index of
  /// such a GEP or another of these: gone after LSR or the operand fold.
  llvm::SmallPtrSet<const llvm::Instruction *, 32> Dead;
  /// Multiplications that are affine recurrences of their innermost loop:
  /// an add after LSR.
  llvm::SmallPtrSet<const llvm::Instruction *, 8> MulAsAdd;

  /// Adds that ptxas folds into their one use, a later add of their block,
  /// as one three-input IADD3 (foldsIntoThreeInputAdd, the rule the PTX
  /// front end applies to PTX). An add that LSR turns into `IV + offset`
  /// (a counted affine recurrence of its loop) is such an input with an
  /// immediate offset when an earlier one of its block is a constant apart
  /// (they share that register); the first of them is a real add.
  llvm::SmallPtrSet<const llvm::Instruction *, 16> FoldedAdds;

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
