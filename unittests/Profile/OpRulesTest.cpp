//===- OpRulesTest.cpp - The op-class rules both front ends share ---------===//
//
// The figures are those of the table in lib/Profile/OpRules.cpp, whose
// comment says where each comes from.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Profile/OpRules.h"
#include "gtest/gtest.h"
#include <map>
#include <set>
#include <tuple>

using namespace flipflop;

namespace {

/// The rule's instructions by class.
std::map<OpClass, unsigned> costOf(MathOp Op, MathType Ty, bool Approx) {
  std::map<OpClass, unsigned> M;
  for (const OpCount &C : mathRule(Op, Ty, Approx).ops())
    M[C.Class] += C.N;
  return M;
}

TEST(OpRules, MemoryClasses) {
  EXPECT_EQ(memOpClass(AddrSpace::Global, false, false), OpClass::LoadGlobal);
  EXPECT_EQ(memOpClass(AddrSpace::Global, true, false), OpClass::StoreGlobal);
  EXPECT_EQ(memOpClass(AddrSpace::Global, true, true), OpClass::AtomicGlobal);
  EXPECT_EQ(memOpClass(AddrSpace::Shared, false, true), OpClass::AtomicShared);
  EXPECT_EQ(memOpClass(AddrSpace::Shared, true, false), OpClass::StoreShared);
  EXPECT_EQ(memOpClass(AddrSpace::Local, false, false), OpClass::LoadLocal);
  EXPECT_EQ(memOpClass(AddrSpace::Local, true, true), OpClass::StoreLocal);
  EXPECT_EQ(memOpClass(AddrSpace::Const, false, false), OpClass::LoadConst);
  EXPECT_EQ(memOpClass(AddrSpace::Param, false, false), OpClass::LoadParam);
  // st.param (a call's arguments) is no memory traffic.
  EXPECT_EQ(memOpClass(AddrSpace::Param, true, false), OpClass::Other);
  EXPECT_EQ(memOpClass(AddrSpace::Generic, false, false), OpClass::LoadGeneric);
  EXPECT_EQ(memOpClass(AddrSpace::Generic, true, false), OpClass::StoreGeneric);
  EXPECT_EQ(memOpClass(AddrSpace::Generic, true, true), OpClass::AtomicGlobal);
}

TEST(OpRules, FPAndSyncClasses) {
  EXPECT_EQ(fpOpClass(16), OpClass::FP16);
  EXPECT_EQ(fpOpClass(32), OpClass::FP32);
  EXPECT_EQ(fpOpClass(64), OpClass::FP64);
  EXPECT_EQ(fpOpClass(128), OpClass::Other);
  EXPECT_EQ(syncOpClass("shfl", false), OpClass::Shuffle);
  EXPECT_EQ(syncOpClass("elect", false), OpClass::Shuffle);
  EXPECT_EQ(syncOpClass("bar", false), OpClass::Barrier);
  EXPECT_EQ(syncOpClass("barrier", false), OpClass::Barrier);
  // __syncwarp waits for one warp: a warp-level op.
  EXPECT_EQ(syncOpClass("bar", true), OpClass::Shuffle);
  EXPECT_EQ(syncOpClass("fence", false), OpClass::Barrier);
  EXPECT_FALSE(syncOpClass("mbarrier", false));
  EXPECT_FALSE(syncOpClass("add", false));
}

TEST(OpRules, MathExpansions) {
  using M = std::map<OpClass, unsigned>;
  // div.rn.f32: MUFU.RCP and the Newton steps; one FLOP.
  EXPECT_EQ(costOf(MathOp::FDiv, MathType::F32, false),
            (M{{OpClass::SFU, 1}, {OpClass::FP32, 7}}));
  EXPECT_EQ(mathRule(MathOp::FDiv, MathType::F32, false).Flops, 1);
  EXPECT_EQ(mathRule(MathOp::FDiv, MathType::F32, false).flopClass(),
            OpClass::FP32);
  EXPECT_EQ(costOf(MathOp::FDiv, MathType::F32, true),
            (M{{OpClass::SFU, 1}, {OpClass::FP32, 1}}));
  EXPECT_EQ(costOf(MathOp::FDiv, MathType::F64, false),
            (M{{OpClass::SFU, 1}, {OpClass::FP64, 8}}));
  EXPECT_EQ(mathRule(MathOp::FDiv, MathType::F64, false).flopClass(),
            OpClass::FP64);
  // rcp.rn and the roots: no FLOP.
  EXPECT_EQ(costOf(MathOp::Rcp, MathType::F32, false),
            (M{{OpClass::SFU, 1}, {OpClass::FP32, 4}}));
  EXPECT_EQ(mathRule(MathOp::Rcp, MathType::F32, false).Flops, 0);
  EXPECT_EQ(costOf(MathOp::Sqrt, MathType::F32, false),
            (M{{OpClass::SFU, 1}, {OpClass::FP32, 6}}));
  EXPECT_EQ(costOf(MathOp::Sqrt, MathType::F32, true), (M{{OpClass::SFU, 1}}));
  EXPECT_EQ(costOf(MathOp::Sqrt, MathType::F64, false),
            (M{{OpClass::SFU, 1}, {OpClass::FP64, 10}}));
  EXPECT_EQ(costOf(MathOp::Transcendental, MathType::F32, true),
            (M{{OpClass::SFU, 1}}));
  // f16 uses the f32 rules (NVPTX promotes; ex2.f16 is one MUFU).
  EXPECT_EQ(&mathRule(MathOp::FDiv, MathType::F16, false),
            &mathRule(MathOp::FDiv, MathType::F32, false));
  // Integer division by a register: sign does not matter, width does.
  M Div32{{OpClass::SFU, 1},
          {OpClass::Conv, 2},
          {OpClass::IntMul, 4},
          {OpClass::Int, 8}};
  EXPECT_EQ(costOf(MathOp::IntDiv, MathType::U32, false), Div32);
  EXPECT_EQ(costOf(MathOp::IntRem, MathType::S32, true), Div32);
  EXPECT_EQ(costOf(MathOp::IntDiv, MathType::U64, false),
            (M{{OpClass::IntMul, 20}, {OpClass::Int, 50}}));
  // By a constant: sign matters, width does not.
  EXPECT_EQ(costOf(MathOp::IntDivPow2, MathType::S64, false),
            (M{{OpClass::Int, 4}}));
  EXPECT_EQ(costOf(MathOp::IntDivPow2, MathType::U32, false),
            (M{{OpClass::Int, 1}}));
  EXPECT_EQ(costOf(MathOp::IntRemConst, MathType::S32, false),
            (M{{OpClass::IntMul, 2}, {OpClass::Int, 5}}));
}

TEST(OpRules, TableIsComplete) {
  // Every row is unique and its list has no gap.
  std::set<std::tuple<unsigned, unsigned, bool>> Seen;
  for (const MathRule &R : mathRules()) {
    EXPECT_TRUE(Seen.insert({unsigned(R.Op), unsigned(R.Ty), R.Approx}).second);
    EXPECT_FALSE(R.ops().empty());
    for (const OpCount &C : R.ops())
      EXPECT_NE(C.Class, OpClass::Other);
  }
  // Every float op has f32 and f64 rows, IEEE and approximate.
  for (MathOp Op : {MathOp::FDiv, MathOp::FRem, MathOp::Rcp, MathOp::Sqrt,
                    MathOp::Rsqrt, MathOp::Transcendental})
    for (MathType Ty : {MathType::F32, MathType::F64})
      for (bool Approx : {false, true})
        EXPECT_EQ(Seen.count({unsigned(Op), unsigned(Ty), Approx}), 1u);
}

TEST(OpRules, PTXMnemonics) {
  EXPECT_EQ(ptxMathOp("div", true), MathOp::FDiv);
  EXPECT_EQ(ptxMathOp("div", false), MathOp::IntDiv);
  EXPECT_EQ(ptxMathOp("rem", false), MathOp::IntRem);
  EXPECT_EQ(ptxMathOp("rsqrt", true), MathOp::Rsqrt);
  EXPECT_EQ(ptxMathOp("ex2", true), MathOp::Transcendental);
  EXPECT_EQ(ptxMathOp("tanh", true), MathOp::Transcendental);
  EXPECT_FALSE(ptxMathOp("add", true));
}

} // namespace
