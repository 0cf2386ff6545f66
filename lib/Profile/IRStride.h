//===- IRStride.h - Address strides in threadIdx.x (private) ----*- C++ -*-===//
//
// Private to the IR front end (lib/Profile/IR*.cpp): the PTX special
// registers, the stride of a value along threadIdx.x (StrideAnalysis) and
// the launch indices a value depends on (BlockDepAnalysis).
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_LIB_PROFILE_IRSTRIDE_H
#define FLIPFLOP_LIB_PROFILE_IRSTRIDE_H

#include "flipflop/Profile/LaneSplit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Value.h"
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace flipflop {
namespace irprof {

/// The variable part of an index as a linear form: (value, coefficient)
/// terms, sorted (siblingKey in IRClassify.cpp).
using SiblingTerms = std::vector<std::pair<const llvm::Value *, int64_t>>;
/// A sibling key: a base pointer and the variable terms of its index.
using SiblingKey = std::pair<const llvm::Value *, SiblingTerms>;

/// The sibling key of the address \p Ptr and its constant byte offset
/// \p Off from it; \p SharedAlign, when given, the proven alignment of a
/// shared address's variable part (IRClassify.cpp).
SiblingKey siblingKey(const llvm::Value *Ptr, int64_t &Off,
                      const llvm::DataLayout &DL,
                      uint64_t *SharedAlign = nullptr);

/// Limits that keep the analysis linear and bounded on odd input.
constexpr unsigned MaxCallDepth = 8;
constexpr unsigned MaxStrideDepth = 48;
constexpr double MaxWeight = 1e12;

//===----------------------------------------------------------------------===//
// Special registers
//===----------------------------------------------------------------------===//

enum class SReg { None, Tid, NTid, CtaId, NCtaId, LaneId, WarpId };

/// Classifies a read of a PTX special register; \p Dim receives 0..2.
SReg specialRegister(const llvm::Value *V, unsigned &Dim);

//===----------------------------------------------------------------------===//
// Addresses as affine functions of threadIdx.x
//===----------------------------------------------------------------------===//

/// d(value)/d(threadIdx.x): Known(S) (S = 0 means uniform across the warp's
/// lanes), Symbolic (uniform but unknown coefficient, e.g. a row pitch
/// argument), Varying (data dependent), or Self (a PHI being evaluated, S
/// its CycleMemo level: the PHI plus a uniform step).
/// A Known stride may split the thread index t (a flattened thread id cut
/// into the rows of a tile, as the PTX front end's AbsVal): with Mod > 0 the
/// value is S * (t % Mod) + S2 * (t / Mod).
struct Stride {
  enum KindTy { Known, Symbolic, Varying, Self } Kind = Known;
  int64_t S = 0;
  unsigned Mod = 0;
  int64_t S2 = 0;
  static Stride known(int64_t S) { return {Known, S}; }
  static Stride symbolic() { return {Symbolic, 0}; }
  static Stride varying() { return {Varying, 0}; }
  /// A LaneSplit (folded by LaneSplit::make) as a Known stride.
  static Stride split(const LaneSplit &L) {
    return {Known, L.Stride, L.Mod, L.DivStride};
  }
  LaneSplit lanes() const { return {Mod, S, S2}; }
  bool isUniform() const {
    return Kind == Known && S == 0 && (Mod == 0 || S2 == 0);
  }
  bool operator==(const Stride &O) const {
    return Kind == O.Kind && S == O.S && Mod == O.Mod && S2 == O.S2;
  }
};

Stride addStrides(Stride A, Stride B, bool Subtract = false);
Stride scaleStride(Stride A, int64_t C);

/// Memoised answers of a recursive analysis over SSA values, whose cycles
/// run through PHIs. A PHI being computed ("open") answers a provisional
/// value to whoever reaches it again. An answer computed from the
/// provisional value of a PHI still open further up is not kept for good (a
/// loop body would otherwise keep what it was worth while its PHI was
/// unresolved, and a later access through it would read that): it is kept
/// in a scratch memo until the innermost PHI open when it was computed
/// closes, so that a value read twice on the way (a hash that uses each
/// value twice per step) is computed once, not 2^depth times.
template <typename T> class CycleMemo {
public:
  std::optional<T> lookup(const llvm::Value *V) {
    if (auto It = Open.find(V); It != Open.end()) {
      Lowest = std::min(Lowest, It->second.first);
      return It->second.second;
    }
    if (auto It = Done.find(V); It != Done.end())
      return It->second;
    if (auto It = Scratch.find(V); It != Scratch.end()) {
      Lowest = std::min(Lowest, It->second.first);
      return It->second.second;
    }
    return std::nullopt;
  }
  /// The level the next value computed takes (a PHI's provisional value
  /// may name it: Stride's Self).
  unsigned level() const { return Levels; }
  /// Computes \p V by \p Fn; a PHI (\p IsPhi) is open at \p Provisional
  /// meanwhile. \p Closed: whether the answer read no PHI open above \p V
  /// (then it is kept for good).
  template <typename Fn>
  T compute(const llvm::Value *V, bool IsPhi, T Provisional, Fn &&F,
            bool &Closed) {
    unsigned Level = Levels++;
    if (IsPhi)
      Open[V] = {Level, Provisional};
    unsigned Outer = Lowest;
    Lowest = ~0u;
    size_t Mark = ScratchOrder.size();
    T R = F();
    --Levels;
    if (IsPhi) {
      Open.erase(V);
      // What was computed while this PHI was open may have read it.
      while (ScratchOrder.size() > Mark) {
        Scratch.erase(ScratchOrder.back());
        ScratchOrder.pop_back();
      }
    }
    Closed = Lowest >= Level;
    if (Closed) {
      Done[V] = R;
    } else {
      Scratch[V] = {Lowest, R};
      ScratchOrder.push_back(V);
    }
    Lowest = std::min(Outer, Closed ? ~0u : Lowest);
    return R;
  }
  /// Replaces the kept answer of \p V (a closed answer finished late).
  void replace(const llvm::Value *V, T R) {
    if (auto It = Done.find(V); It != Done.end())
      It->second = R;
  }

private:
  llvm::DenseMap<const llvm::Value *, std::pair<unsigned, T>> Open;
  llvm::DenseMap<const llvm::Value *, T> Done;
  llvm::DenseMap<const llvm::Value *, std::pair<unsigned, T>> Scratch;
  std::vector<const llvm::Value *> ScratchOrder;
  unsigned Levels = 0;
  unsigned Lowest = ~0u;
};

class StrideAnalysis {
public:
  /// \p ArgValues: the stated values of the kernel's arguments by number
  /// (a pitch `mul i, %ld` is then a constant stride); null for none.
  /// \p Dim: the threadIdx dimension differentiated along (0: x, the
  /// lane stride; 1, 2: the step between rows and planes of a block).
  explicit StrideAnalysis(const llvm::DataLayout &DL,
                          const std::map<unsigned, int64_t> *ArgValues = nullptr,
                          unsigned Dim = 0)
      : DL(DL), ArgValues(ArgValues), Dim(Dim) {}

  Stride get(const llvm::Value *V, unsigned Depth = 0) {
    if (std::optional<Stride> Known = Memo.lookup(V))
      return *Known;
    if (Depth > MaxStrideDepth)
      return Stride::varying();
    // A PHI is Self while open (tagged with its level): what comes back
    // round to it steps from it by what the cycle adds.
    bool Closed = true;
    Stride R = Memo.compute(
        V, llvm::isa<llvm::PHINode>(V),
        Stride{Stride::Self, int64_t(Memo.level())},
        [&] { return compute(V, Depth); }, Closed);
    // Self with no PHI open above it: a cycle with no start.
    if (R.Kind == Stride::Self && Closed) {
      R = Stride::varying();
      Memo.replace(V, R);
    }
    return R;
  }

  /// An equality comparison of a value that moves with the lane (distinct
  /// on each lane of a row) against one that does not: true on at most one
  /// lane of each row of a warp (`i == 0`), false on the rest, so the warp
  /// as a whole goes the way of the rest: true for `!=`, false for `==`.
  /// None for any other condition.
  std::optional<bool> mostLanes(const llvm::Value *Cond, unsigned Depth);

private:
  const llvm::DataLayout &DL;
  const std::map<unsigned, int64_t> *ArgValues;
  unsigned Dim;
  CycleMemo<Stride> Memo;

  /// An integer constant, a kernel argument whose value is stated, or
  /// arithmetic on them (a few levels deep).
  std::optional<int64_t> constantOf(const llvm::Value *V) const;
  std::optional<llvm::APInt> constantBits(const llvm::Value *V,
                                          unsigned Depth = 0) const;

  Stride allUniformOr(const llvm::User *U, unsigned Depth);
  Stride compute(const llvm::Value *V, unsigned Depth);
  // compute()'s rules for the opcodes that need more than a line.
  Stride mulStride(const llvm::Instruction *I, unsigned Depth);
  Stride shlStride(const llvm::Instruction *I, unsigned Depth);
  /// A value operated on by a constant: an integer, a stated argument or
  /// arithmetic on them (constantBits), on the right, or on either side of
  /// an `and` (`(stride - 1) & g` with stride stated).
  struct ByConstant {
    Stride A;
    std::optional<llvm::APInt> C;
    std::optional<Stride> Early;
  };
  ByConstant byConstant(const llvm::Instruction *I, unsigned Depth);
  Stride divStride(const llvm::Instruction *I, unsigned Depth);
  Stride remStride(const llvm::Instruction *I, unsigned Depth);
  Stride gepStride(const llvm::Instruction *I, unsigned Depth);
  Stride phiStride(const llvm::Instruction *I, unsigned Depth);
  /// \p V is the same on every lane: computed without loads or calls from
  /// constants, arguments and block-wide special registers only, through
  /// PHIs (a cycle that adds nothing lane-dependent stays lane-invariant:
  /// `n >>= 1` each pass). \p Open holds the PHIs being visited.
  bool laneInvariant(const llvm::Value *V,
                     llvm::SmallPtrSetImpl<const llvm::Value *> &Open,
                     unsigned Depth) const;
  Stride loadStride(const llvm::Instruction *I, unsigned Depth);
  Stride callStride(const llvm::Instruction *I, unsigned Depth);
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
  /// Bits 5..7: the value holds a data-scaled coordinate that follows
  /// dimension 0..2 (dropped from bits 0..2 at the float-to-int conversion).
  static constexpr unsigned SmoothShift = 5;
  unsigned get(const llvm::Value *V, unsigned Depth = 0) {
    if (std::optional<unsigned> Known = Memo.lookup(V))
      return *Known;
    if (Depth > MaxStrideDepth)
      return Data;
    bool Closed = true;
    // 0 while open: a cycle through a PHI adds nothing of its own.
    return Memo.compute(V, llvm::isa<llvm::PHINode>(V), 0u,
                        [&] { return compute(V, Depth); }, Closed);
  }

private:
  SReg Which;
  CycleMemo<unsigned> Memo;
  unsigned compute(const llvm::Value *V, unsigned Depth);
};

} // namespace irprof
} // namespace flipflop

#endif // FLIPFLOP_LIB_PROFILE_IRSTRIDE_H
