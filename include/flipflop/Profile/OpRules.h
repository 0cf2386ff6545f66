//===- flipflop/Profile/OpRules.h - Op-class rules of both front ends -----===//
//
// The classification rules that the IR front end (lib/Profile/IRClassify.cpp)
// and the PTX front end (lib/Profile/PTXClassify.cpp) share, so that the
// same kernel gets the same instruction mix from either: the class of a
// memory instruction, the class of a floating-point width, the class of a
// warp-level or barrier instruction, and the expansion of the math that
// PTX has as one instruction but ptxas (or NVPTX, for some IR) expands into
// several (division, reciprocal, square root, special functions, integer
// division). The expansion table and the reason for each figure are in
// OpRules.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_PROFILE_OPRULES_H
#define FLIPFLOP_PROFILE_OPRULES_H

#include "flipflop/Profile/KernelProfile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace flipflop {

/// The instruction class of a load, store or atomic in \p Space. Atomics
/// (and reductions) are AtomicShared in shared memory, else AtomicGlobal;
/// a store to the constant or parameter space (st.param of a call's
/// arguments) is Other.
OpClass memOpClass(AddrSpace Space, bool IsStore, bool IsAtomic);

/// The class of floating-point arithmetic on \p ScalarBits-bit lanes:
/// FP16 (f16 and bf16), FP32, FP64; Other for any other width.
OpClass fpOpClass(unsigned ScalarBits);

/// The FLOP counter of FP class \p C in a profile with Flops32, Flops64 and
/// Flops16 (KernelProfile, the PTX front end's FuncSummary): FP16 and any
/// other class count as 16-bit.
template <typename ProfileT> double &flopsOf(ProfileT &P, OpClass C) {
  return C == OpClass::FP32   ? P.Flops32
         : C == OpClass::FP64 ? P.Flops64
                              : P.Flops16;
}

/// The class of a warp-level exchange or a barrier by its PTX mnemonic
/// ("shfl", "vote", "bar", "membar", ...); \p WarpScope is bar.warp.sync
/// (__syncwarp): a warp-level sync, Shuffle, not a block barrier. None when
/// \p Mnemonic is neither.
std::optional<OpClass> syncOpClass(llvm::StringRef Mnemonic, bool WarpScope);

/// ptxas's three-input integer add (IADD3, every architecture the database
/// holds): an integer add or subtract of at most 32 bits whose one use is
/// an add or subtract later in the same block folds into it, and counts
/// nothing, when at most one of the three inputs is an immediate or a
/// kernel parameter (both are constant operands of the instruction, and it
/// has room for one), and the later add has not taken another in already.
/// \p ConstantInputs counts those among the three. The
/// evidence (SASS of ptxas 13.0) is in docs/MODEL.md, "Three-input adds".
bool foldsIntoThreeInputAdd(unsigned ConstantInputs);

/// Math that is one PTX (or IR) instruction but more than one machine
/// instruction.
enum class MathOp : unsigned {
  FDiv,           ///< div.{rn,full,approx}.f32/f64; IR fdiv.
  FRem,           ///< IR frem (NVPTX: div, cvt.rzi, neg, fma, testp, selp).
  Rcp,            ///< rcp.{rn,approx}; IR fdiv 1.0, x.
  Sqrt,           ///< sqrt.{rn,approx}; IR llvm.sqrt.
  Rsqrt,          ///< rsqrt.approx.
  Transcendental, ///< sin, cos, ex2, lg2, tanh; IR exp, log, pow, ...
  IntDiv,         ///< div.s32/u64/...: integer division by a register.
  IntRem,         ///< rem.s32/u64/...: integer remainder by a register.
  IntDivConst,    ///< IR division by a constant (NVPTX: mul.hi and shifts).
  IntRemConst,    ///< IR remainder by a constant (and mul.lo, sub).
  IntDivPow2,     ///< IR division by a power of two (NVPTX: shifts).
  IntRemPow2      ///< IR remainder by a power of two (NVPTX: shifts, and).
};

/// The operand type of a MathOp. F16 uses F32's rules (NVPTX promotes f16
/// division and roots to f32; ex2/tanh.f16 are one MUFU as in f32); the
/// rules of division by a register do not depend on the sign, those by a
/// constant do not depend on the width.
enum class MathType : unsigned { F16, F32, F64, S32, U32, S64, U64 };

/// N instructions of class Class, per lane.
struct OpCount {
  OpClass Class;
  unsigned N;
};

/// One row of the expansion table.
struct MathRule {
  MathOp Op;
  MathType Ty;
  /// The approximate form: div.approx/div.full, rcp/sqrt.approx and the
  /// special functions (PTX has them approximate only); the IR's `afn`.
  bool Approx;
  /// FLOPs per lane (to the counter of Ty's FP class): one per division,
  /// none for reciprocals, roots and special functions.
  double Flops;
  /// Instructions per lane; the list ends at the first N == 0.
  OpCount Ops[4];

  /// Ops without the unused tail.
  llvm::ArrayRef<OpCount> ops() const;
  /// The FP class whose FLOP counter Flops goes to (Other for integers).
  OpClass flopClass() const;
};

/// The rule for \p Op on \p Ty (normalised as MathType says; \p Approx is
/// ignored for integers).
const MathRule &mathRule(MathOp Op, MathType Ty, bool Approx);

/// Every row, for tests and documentation.
llvm::ArrayRef<MathRule> mathRules();

/// The MathOp of a PTX math mnemonic ("div", "rem", "rcp", "sqrt",
/// "rsqrt", "sin", "cos", "ex2", "lg2", "tanh"; NVVM's intrinsics carry the
/// same names); \p IsFloat picks FDiv or IntDiv for "div". None for other
/// mnemonics.
std::optional<MathOp> ptxMathOp(llvm::StringRef Mnemonic, bool IsFloat);

} // namespace flipflop

#endif // FLIPFLOP_PROFILE_OPRULES_H
