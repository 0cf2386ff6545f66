//===- OpRules.cpp - Op-class rules of both front ends --------------------===//
//
// The rules of flipflop/Profile/OpRules.h, above all the expansion table of
// the math that one PTX instruction (or one IR instruction that NVPTX
// lowers to one) turns into several machine instructions.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Profile/OpRules.h"
#include "llvm/ADT/StringSwitch.h"
#include <iterator>

using namespace llvm;

namespace flipflop {

OpClass memOpClass(AddrSpace Space, bool IsStore, bool IsAtomic) {
  switch (Space) {
  case AddrSpace::Global:
    return IsAtomic  ? OpClass::AtomicGlobal
           : IsStore ? OpClass::StoreGlobal
                     : OpClass::LoadGlobal;
  case AddrSpace::Shared:
    return IsAtomic  ? OpClass::AtomicShared
           : IsStore ? OpClass::StoreShared
                     : OpClass::LoadShared;
  case AddrSpace::Local:
    // No atomics on local memory: the IR's atomics on a private copy are
    // read-modify-writes of the stack, counted as the store.
    return IsStore || IsAtomic ? OpClass::StoreLocal : OpClass::LoadLocal;
  case AddrSpace::Const:
    return IsStore || IsAtomic ? OpClass::Other : OpClass::LoadConst;
  case AddrSpace::Param:
    return IsStore || IsAtomic ? OpClass::Other : OpClass::LoadParam;
  case AddrSpace::Generic:
    break;
  }
  // Generic atomics go to global memory far more often than to shared.
  return IsAtomic  ? OpClass::AtomicGlobal
         : IsStore ? OpClass::StoreGeneric
                   : OpClass::LoadGeneric;
}

OpClass fpOpClass(unsigned ScalarBits) {
  switch (ScalarBits) {
  case 16:
    return OpClass::FP16;
  case 32:
    return OpClass::FP32;
  case 64:
    return OpClass::FP64;
  default:
    return OpClass::Other;
  }
}

bool foldsIntoThreeInputAdd(unsigned ConstantInputs) {
  // IADD3 Rd, Ra, Rb, Rc takes one immediate or constant-bank operand; a
  // chain with two (a parameter and an immediate) stays two instructions.
  return ConstantInputs <= 1;
}

std::optional<OpClass> syncOpClass(StringRef Mnemonic, bool WarpScope) {
  if (Mnemonic == "shfl" || Mnemonic == "vote" || Mnemonic == "match" ||
      Mnemonic == "redux" || Mnemonic == "activemask" ||
      Mnemonic == "movmatrix" || Mnemonic == "elect")
    return OpClass::Shuffle;
  // bar.warp.sync is WARPSYNC: it waits for the lanes of one warp, not for
  // the block, so it is priced as a warp-level op, not as a barrier.
  if (Mnemonic == "bar" || Mnemonic == "barrier")
    return WarpScope ? OpClass::Shuffle : OpClass::Barrier;
  if (Mnemonic == "membar" || Mnemonic == "fence")
    return OpClass::Barrier;
  return std::nullopt;
}

namespace {

using MO = MathOp;
using MT = MathType;
constexpr OpClass SFU = OpClass::SFU, FP32 = OpClass::FP32,
                  FP64 = OpClass::FP64, Int = OpClass::Int,
                  IntMul = OpClass::IntMul, Conv = OpClass::Conv;

// The expansion table: {op, type, approximate, FLOPs per lane, {class,
// count}... per lane}.
//
// Where the two front ends used to disagree, the figure is the one closer
// to what ptxas (CUDA 13.0, sm_80) emits; the in-line SASS instructions per
// operation, measured from the size of .text with 16 and 48 independent
// copies, were: div.rn.f32 11.5 (MUFU.RCP, FCHK, 5 FFMA, the branch to and
// the call of the out-of-line slow path), div.full.f32 8, div.approx.f32 5
// (denormal scaling; 2 with .ftz), rcp.rn.f32 12, sqrt.rn.f32 13,
// rcp/sqrt/rsqrt/ex2/lg2.approx.f32 4 (1 MUFU and the denormal scaling),
// sin.approx.f32 2, tanh.approx.f32 1, div.rn.f64 18 (MUFU.RCP64H and DFMA
// Newton steps), rcp.rn.f64 15, sqrt.rn.f64 22, div.u32 18 and div.s32 26
// (I2F, MUFU.RCP, F2I, IMAD.HI and fix-ups; rem 17 and 24), 64-bit div/rem
// a call of a 65-80 instruction subroutine. So:
//  - f32 division: SFU + 7 FP32 (the IR said 8 FP32 and 8 FLOPs; the PTX
//    front end 7 and 1 FLOP: a division is one FLOP, as in the source);
//    f64: SFU + 8 FP64 (the IR said 10).
//  - IR fdiv 1.0, x is NVPTX's rcp.rn (not div.rn): SFU + 4 (8) FP32 (FP64)
//    and no FLOP, as the PTX front end counts rcp (the IR counted a
//    division).
//  - IEEE square roots: SFU + 6 FP32 / SFU + 10 FP64 (the IR counted the
//    f32 one as a lone SFU op and said 8 FP64); llvm.sqrt/fdiv with `afn`
//    is NVPTX's sqrt.approx/div.approx.
//  - integer division by a register: the I2F/MUFU.RCP/F2I sequence, SFU +
//    2 Conv + 4 IntMul + 8 Int (the IR said 4 IntMul + 16 Int); 64-bit: 20
//    IntMul + 50 Int (the IR said the 32-bit figures).
//  - the IR's division by a constant is what NVPTX emits instead (the PTX
//    front end counts those instructions one by one): mul.hi.s32 and four
//    adds/shifts (sdiv), mul.hi and one to four (udiv: two), plus mul.lo
//    and sub for a remainder; by a power of two, shr/add/and only (4 for
//    sdiv, 5 for srem, 1 unsigned). The IR said 1 IntMul + 2 Int for all.
//  - frem: NVPTX's div.rn, cvt.rzi, neg, fma, testp and selp.
// The special functions are one MUFU each in PTX (their denormal fix-ups
// are not counted); f64 ones are no PTX instruction (libdevice expands
// them), so the IR's llvm.sin.f64 & co. keep an estimate of 8 FP64 ops.
// clang-format off
const MathRule Rules[] = {
    {MO::FDiv, MT::F32, false, 1, {{SFU, 1}, {FP32, 7}}},
    {MO::FDiv, MT::F32, true, 1, {{SFU, 1}, {FP32, 1}}},
    {MO::FDiv, MT::F64, false, 1, {{SFU, 1}, {FP64, 8}}},
    {MO::FDiv, MT::F64, true, 1, {{SFU, 1}, {FP64, 8}}}, // no div.approx.f64
    {MO::FRem, MT::F32, false, 3, {{SFU, 1}, {FP32, 10}, {Conv, 1}, {Int, 1}}},
    {MO::FRem, MT::F32, true, 3, {{SFU, 1}, {FP32, 4}, {Conv, 1}, {Int, 1}}},
    {MO::FRem, MT::F64, false, 3, {{SFU, 1}, {FP64, 11}, {Conv, 1}, {Int, 1}}},
    {MO::FRem, MT::F64, true, 3, {{SFU, 1}, {FP64, 11}, {Conv, 1}, {Int, 1}}},
    {MO::Rcp, MT::F32, false, 0, {{SFU, 1}, {FP32, 4}}},
    {MO::Rcp, MT::F32, true, 0, {{SFU, 1}}},
    {MO::Rcp, MT::F64, false, 0, {{SFU, 1}, {FP64, 8}}},
    {MO::Rcp, MT::F64, true, 0, {{SFU, 1}}},
    {MO::Sqrt, MT::F32, false, 0, {{SFU, 1}, {FP32, 6}}},
    {MO::Sqrt, MT::F32, true, 0, {{SFU, 1}}},
    {MO::Sqrt, MT::F64, false, 0, {{SFU, 1}, {FP64, 10}}},
    {MO::Sqrt, MT::F64, true, 0, {{SFU, 1}}},
    {MO::Rsqrt, MT::F32, false, 0, {{SFU, 1}, {FP32, 4}}},
    {MO::Rsqrt, MT::F32, true, 0, {{SFU, 1}}},
    {MO::Rsqrt, MT::F64, false, 0, {{SFU, 1}, {FP64, 4}}},
    {MO::Rsqrt, MT::F64, true, 0, {{SFU, 1}}},
    {MO::Transcendental, MT::F32, false, 0, {{SFU, 1}}},
    {MO::Transcendental, MT::F32, true, 0, {{SFU, 1}}},
    {MO::Transcendental, MT::F64, false, 0, {{SFU, 1}, {FP64, 8}}},
    {MO::Transcendental, MT::F64, true, 0, {{SFU, 1}}},
    {MO::IntDiv, MT::S32, false, 0,
     {{SFU, 1}, {Conv, 2}, {IntMul, 4}, {Int, 8}}},
    {MO::IntRem, MT::S32, false, 0,
     {{SFU, 1}, {Conv, 2}, {IntMul, 4}, {Int, 8}}},
    {MO::IntDiv, MT::S64, false, 0, {{IntMul, 20}, {Int, 50}}},
    {MO::IntRem, MT::S64, false, 0, {{IntMul, 20}, {Int, 50}}},
    {MO::IntDivConst, MT::S32, false, 0, {{IntMul, 1}, {Int, 4}}},
    {MO::IntDivConst, MT::U32, false, 0, {{IntMul, 1}, {Int, 2}}},
    {MO::IntRemConst, MT::S32, false, 0, {{IntMul, 2}, {Int, 5}}},
    {MO::IntRemConst, MT::U32, false, 0, {{IntMul, 2}, {Int, 3}}},
    {MO::IntDivPow2, MT::S32, false, 0, {{Int, 4}}},
    {MO::IntDivPow2, MT::U32, false, 0, {{Int, 1}}},
    {MO::IntRemPow2, MT::S32, false, 0, {{Int, 5}}},
    {MO::IntRemPow2, MT::U32, false, 0, {{Int, 1}}},
};
// clang-format on

} // namespace

ArrayRef<OpCount> MathRule::ops() const {
  size_t N = 0;
  while (N < std::size(Ops) && Ops[N].N)
    ++N;
  return ArrayRef<OpCount>(Ops, N);
}

OpClass MathRule::flopClass() const {
  switch (Ty) {
  case MathType::F16:
  case MathType::F32:
    return OpClass::FP32;
  case MathType::F64:
    return OpClass::FP64;
  default:
    return OpClass::Other;
  }
}

const MathRule &mathRule(MathOp Op, MathType Ty, bool Approx) {
  bool Wide = Ty == MathType::F64 || Ty == MathType::S64 || Ty == MathType::U64;
  bool Unsigned = Ty == MathType::U32 || Ty == MathType::U64;
  if (Op == MathOp::IntDiv || Op == MathOp::IntRem) {
    Ty = Wide ? MathType::S64 : MathType::S32;
    Approx = false;
  } else if (Op >= MathOp::IntDivConst) {
    Ty = Unsigned ? MathType::U32 : MathType::S32;
    Approx = false;
  } else {
    Ty = Wide ? MathType::F64 : MathType::F32;
  }
  for (const MathRule &R : Rules)
    if (R.Op == Op && R.Ty == Ty && R.Approx == Approx)
      return R;
  static const MathRule Unknown = {Op, Ty, Approx, 0, {{OpClass::Other, 1}}};
  return Unknown;
}

ArrayRef<MathRule> mathRules() { return Rules; }

std::optional<MathOp> ptxMathOp(StringRef Mnemonic, bool IsFloat) {
  if (Mnemonic == "div")
    return IsFloat ? MathOp::FDiv : MathOp::IntDiv;
  if (Mnemonic == "rem")
    return IsFloat ? MathOp::FRem : MathOp::IntRem;
  return StringSwitch<std::optional<MathOp>>(Mnemonic)
      .Case("rcp", MathOp::Rcp)
      .Case("sqrt", MathOp::Sqrt)
      .Case("rsqrt", MathOp::Rsqrt)
      .Cases({"sin", "cos", "ex2", "lg2", "tanh"}, MathOp::Transcendental)
      .Default(std::nullopt);
}

} // namespace flipflop
