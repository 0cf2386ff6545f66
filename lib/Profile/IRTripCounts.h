//===- IRTripCounts.h - SCEV evaluation and trip counts (private) -*- C++ -*-===//
//
// Private to the IR front end (lib/Profile/IR*.cpp): ScalarEvolution
// expressions evaluated with the launch facts, the conditions under which a
// loop is entered, and the trip counts built from them.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_LIB_PROFILE_IRTRIPCOUNTS_H
#define FLIPFLOP_LIB_PROFILE_IRTRIPCOUNTS_H

#include "IRStride.h"
#include "flipflop/Profile/IRProfile.h"
#include "flipflop/Profile/KernelProfile.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Dominators.h"
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace flipflop {
namespace irprof {

/// True when \p S reads the special register \p Reg (of dimension \p Dim
/// when Dim < 3, of any dimension otherwise).
bool scevMentions(const llvm::SCEV *S, SReg Reg, unsigned Dim = 3);

/// Where a trip count is evaluated: the launch facts (kernel arguments), a
/// block shape, and thread 0 as the representative thread.
struct EvalPoint {
  const LaunchFacts *Facts = nullptr;
  /// The caller's actual argument of each parameter of a followed device
  /// function (ProfileBuilder::ArgActual): a parameter reads its value.
  const llvm::DenseMap<const llvm::Argument *, const llvm::Value *> *Actual =
      nullptr;
  std::array<uint64_t, 3> Block{256, 1, 1};
  /// Value of the arguments without a fact; only to probe how a guessed
  /// count varies with blockDim, never to resolve it.
  std::optional<int64_t> MissingArg;
  /// An enclosing loop's iteration (0-based): its affine add recurrences
  /// take their value there (a loop whose bounds that loop's counter moves;
  /// ProfileBuilder::loopRecord averages over its iterations).
  const llvm::Loop *PinLoop = nullptr;
  uint64_t PinIter = 0;
  /// blockIdx, where a count is taken for one block (unknown otherwise).
  std::optional<std::array<uint64_t, 3>> CtaId;
  /// gridDim is 1 (a grid-stride loop's elements: its count at one thread).
  bool UnitGrid = false;
  /// Where given, an opaque value (SCEVUnknown) that is a signed division,
  /// remainder, shift, bitwise operation or select of evaluable values is
  /// evaluated through its operands' SCEVs (`n / 256` of an int is an
  /// `sdiv`, which ScalarEvolution does not model).
  llvm::ScalarEvolution *SE = nullptr;
  /// With SE, where given: a PHI merging the ways out of a branch the
  /// point decides is evaluated along the way taken.
  const llvm::DominatorTree *DT = nullptr;
  const llvm::LoopInfo *LI = nullptr;
  /// threadIdx.x (the lane: its remainder by 32) where a predicate is
  /// evaluated thread by thread (ProfileBuilder::shrinkingCheckShares);
  /// thread 0 otherwise.
  std::optional<uint64_t> TidX;
};

/// Evaluates \p S at \p At in the SCEV's own integer width: casts truncate
/// and extend, division is unsigned, min/max keep their signedness, and
/// arithmetic wraps as the IR does. std::nullopt when \p S reads anything
/// but kernel arguments with a known value, blockDim and threadIdx.
std::optional<llvm::APInt> evaluateSCEV(const llvm::SCEV *S,
                                        const EvalPoint &At,
                                        unsigned Depth = 0);

/// Evaluates the i1 condition \p V at \p At: comparisons of SCEV-evaluable
/// integers, and logical and/or/not of those. std::nullopt when unknown, and
/// for conditions on threadIdx/laneid: they differ between the threads of a
/// block, and thread 0 is no representative of who enters a guarded loop.
std::optional<bool> evaluateCondition(const llvm::Value *V,
                                      llvm::ScalarEvolution &SE,
                                      const EvalPoint &At, unsigned Depth = 0);

/// A condition that holds whenever the loop is entered: a branch edge that
/// dominates its header (the guard that skips a rotated or unrolled loop
/// when its bound is too small), or an llvm.assume dominating it.
struct EntryCondition {
  const llvm::Value *Cond;
  bool Holds;
};

llvm::SmallVector<EntryCondition, 4>
entryConditions(const llvm::Loop *L, const llvm::DominatorTree &DT);

/// Trip count of \p L (backedge-taken count \p BTC) at \p At: 0 when an
/// entry condition is false there; std::nullopt when unknown. A count that
/// is negative in its width or above ScalarEvolution's constant maximum is
/// the wrapped value of a loop that is not entered (its guard was not
/// recognised): 0 as well, never ~2^32 or ~2^64.
std::optional<double> tripAt(const llvm::Loop *L, const llvm::SCEV *BTC,
                             llvm::ScalarEvolution &SE,
                             llvm::ArrayRef<EntryCondition> Conds,
                             const EvalPoint &At);

/// Trip count of \p L found by running it pass by pass at \p At: the
/// header PHIs start at their preheader values and take their latch values
/// after each pass, computed through the integer instructions between them
/// (shifts, divisions, products, selects, min/max), until the branch of
/// the one exiting block (the latch or the header) leaves. For the loops
/// whose counter is no add recurrence, which ScalarEvolution does not
/// count: `for (s = n / 2; s > 0; s /= 2)`, `for (s = 1; s < n; s *= 2)`,
/// `s = (s + 1) / 2`. 0 when an entry condition is false at \p At;
/// std::nullopt when a value the test reads is unknown or the loop runs
/// more than \p MaxPasses passes. Counted as tripAt counts: header
/// executions. \p Read, when given, receives the loop-invariant values
/// read (for describeDependence). \p Watched, when given, receives the
/// values of \p Watch (integers of the loop) at each pass that runs.
std::optional<double>
steppedTrip(const llvm::Loop *L, llvm::ScalarEvolution &SE,
            llvm::ArrayRef<EntryCondition> Conds, const EvalPoint &At,
            unsigned MaxPasses = 4096,
            llvm::SmallPtrSetImpl<const llvm::SCEV *> *Read = nullptr,
            llvm::ArrayRef<const llvm::Value *> Watch = {},
            std::vector<llvm::SmallVector<llvm::APInt, 2>> *Watched = nullptr);

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
void fitBlockDim(LoopRecord &R, const llvm::Loop *L, const llvm::SCEV *BTC,
                 llvm::ScalarEvolution &SE,
                 llvm::ArrayRef<EntryCondition> Conds, const EvalPoint &At);

/// A reader's description of what a trip count depends on: the kernel
/// arguments (by name when the IR keeps names, else by position) and the
/// launch dimensions.
std::string describeDependence(const llvm::SCEV *S);

/// \p S printed, cut to 60 characters.
std::string scevText(const llvm::SCEV *S);

/// The backedge-taken count of a loop ScalarEvolution gives up on although
/// its only exit is the latch's `{Start,+,Step} < Bound` (signed or
/// unsigned, `<=`, or `!=`), Step a positive constant and Bound loop
/// invariant: SCEV cannot count it when it cannot prove the compared value
/// does not wrap, which is clang's code for `for (k = 0; k < K; k += 32)`
/// with the increment in the latch. The count, for the values where the loop
/// runs, is ceil((Bound - Start) / Step) (0 when Bound <= Start).
const llvm::SCEV *latchExitCount(const llvm::Loop *L,
                                 llvm::ScalarEvolution &SE);

/// The step of the header PHI \p PN of \p L: its AddRec's, or, where
/// ScalarEvolution sees no AddRec because the value coming back from the
/// latch is a PHI inside the loop joining the same `PN + S` computed on
/// several paths (a loop body that `break`s out of an unrolled inner loop),
/// that S, loop invariant. Null when neither.
const llvm::SCEV *headerPhiStep(const llvm::PHINode &PN, const llvm::Loop &L,
                                llvm::ScalarEvolution &SE);

} // namespace irprof
} // namespace flipflop

#endif // FLIPFLOP_LIB_PROFILE_IRTRIPCOUNTS_H
