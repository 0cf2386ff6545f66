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
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Value.h"
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
/// argument), Varying (data dependent), or Self (the PHI being evaluated).
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
    auto It = Memo.find(V);
    if (It != Memo.end())
      return It->second;
    if (Depth > MaxStrideDepth)
      return Stride::varying();
    Stride R = compute(V, Depth);
    // A PHI's provisional Self entry is replaced by its final value.
    Memo[V] = R;
    return R;
  }

private:
  const llvm::DataLayout &DL;
  const std::map<unsigned, int64_t> *ArgValues;
  unsigned Dim;
  llvm::DenseMap<const llvm::Value *, Stride> Memo;

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
  struct ByConstant {
    Stride A;
    const llvm::ConstantInt *C = nullptr;
    std::optional<Stride> Early;
  };
  ByConstant byConstant(const llvm::Instruction *I, unsigned Depth);
  Stride divStride(const llvm::Instruction *I, unsigned Depth);
  Stride remStride(const llvm::Instruction *I, unsigned Depth);
  Stride gepStride(const llvm::Instruction *I, unsigned Depth);
  Stride phiStride(const llvm::Instruction *I, unsigned Depth);
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
    auto It = Memo.find(V);
    if (It != Memo.end())
      return It->second;
    if (Depth > MaxStrideDepth)
      return Data;
    Memo[V] = 0; // Cycle guard through PHIs.
    unsigned R = compute(V, Depth);
    Memo[V] = R;
    return R;
  }

private:
  SReg Which;
  llvm::DenseMap<const llvm::Value *, unsigned> Memo;
  unsigned compute(const llvm::Value *V, unsigned Depth);
};

} // namespace irprof
} // namespace flipflop

#endif // FLIPFLOP_LIB_PROFILE_IRSTRIDE_H
