//===- PTXParserTest.cpp - The PTX front end ------------------------------===//
#include "flipflop/Profile/PTXParser.h"
#include "flipflop/Profile/ProfilePrinter.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <tuple>

using namespace flipflop;
using namespace llvm;

namespace {

PTXModule parseOK(StringRef Text) {
  auto M = parsePTXModule(Text, "test.ptx");
  if (!M) {
    ADD_FAILURE() << toString(M.takeError());
    return PTXModule();
  }
  return std::move(*M);
}

std::string parseError(StringRef Text) {
  auto M = parsePTXModule(Text, "test.ptx");
  if (M) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return toString(M.takeError());
}

const char *Header = ".version 8.0\n.target sm_80\n.address_size 64\n";

TEST(PTXParser, HeaderBoundsAndRegisters) {
  std::string T = std::string(Header) + R"(
.visible .entry k(
  .param .u64 .ptr .align 1 k_param_0,
  .param .u32 k_param_1
)
.maxntid 128, 1, 1
.minnctapersm 4
.maxnreg 64
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  .reg .f32 %f<5>;
  ld.param.b64 %rd1, [k_param_0];
  ld.param.b32 %r1, [k_param_1];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra $L__done;
  mul.wide.u32 %rd2, %r2, 16;
  add.s64 %rd2, %rd1, %rd2;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2];
  add.f32 %f1, %f1, %f2;
  fma.rn.f32 %f1, %f3, %f4, %f1;
  st.global.f32 [%rd2+4], %f1;
$L__done:
  ret;
}
)";
  PTXModule M = parseOK(T);
  EXPECT_EQ(M.Version, "8.0");
  EXPECT_EQ(M.Target, "sm_80");
  ASSERT_EQ(M.Kernels.size(), 1u);
  const KernelProfile &K = M.Kernels[0];
  EXPECT_EQ(K.Name, "k");
  EXPECT_EQ(K.Source, "ptx");
  EXPECT_EQ(K.Bounds.MaxNTid[0], 128u);
  EXPECT_EQ(K.Bounds.MaxNTid[1], 1u);
  EXPECT_EQ(K.Bounds.MinCTAsPerSM, 4u);
  EXPECT_EQ(K.Bounds.MaxNReg, 64u);
  EXPECT_EQ(K.op(OpClass::FP32), 2);
  EXPECT_EQ(K.Flops32, 3); // add 1 + fma 2
  EXPECT_EQ(K.op(OpClass::LoadGlobal), 1);
  EXPECT_EQ(K.op(OpClass::StoreGlobal), 1);
  EXPECT_EQ(K.op(OpClass::LoadParam), 2);
  EXPECT_EQ(K.op(OpClass::IntMul), 1); // mul.wide
  EXPECT_EQ(K.op(OpClass::Branch), 2); // bra + ret
  ASSERT_EQ(K.Accesses.size(), 2u);
  // 16 B per lane at a 16 B lane stride: coalesced.
  EXPECT_EQ(K.Accesses[0].Bytes, 16u);
  EXPECT_EQ(K.Accesses[0].Pattern, AccessPattern::Coalesced);
  EXPECT_EQ(K.Accesses[0].StrideBytes, 16);
  // 4 B per lane at a 16 B stride: strided, 16 sectors of 32 B.
  EXPECT_EQ(K.Accesses[1].Pattern, AccessPattern::Strided);
  EXPECT_EQ(K.Accesses[1].SectorsPerRequest, 16);
  EXPECT_TRUE(K.Shape.UsesTid[0]);
  EXPECT_FALSE(K.Shape.ReadsBlockDim);
  EXPECT_EQ(K.DivergentBranches, 1u);
  // At most %rd1, %rd2 (2 each) and four 32-bit values live at once.
  EXPECT_EQ(K.Res.EstimatedRegisters, 8u);
  EXPECT_FALSE(K.Res.RegistersExact);
}

std::string loopKernel(StringRef Init, StringRef Step, StringRef Cmp,
                       StringRef Bound) {
  return (Twine(Header) + R"(
.visible .entry loop()
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<3>;
  mov.u32 %r1, )" +
          Init + R"(;
  mov.f32 %f1, 0f00000000;
$L__loop:
  fma.rn.f32 %f1, %f1, %f1, %f1;
  )" + Step +
          R"(
  setp.)" +
          Cmp + " %p1, %r1, " + Bound + R"(;
  @%p1 bra $L__loop;
  ret;
}
)")
      .str();
}

TEST(PTXParser, EntryParameters) {
  // A struct by value (.b8 array), a pointer with state space and
  // alignment, a scalar; a .func's parameters are not the kernel's.
  std::string T = std::string(Header) + R"(
.func (.param .b32 r) helper(.param .b64 helper_param_0)
{
  ret;
}
.visible .entry k(
  .param .align 4 .b8 k_param_0[12],
  .param .u64 .ptr .global .align 8 k_param_1,
  .param .f32 k_param_2
)
{
  ret;
}
)";
  PTXModule M = parseOK(T);
  ASSERT_EQ(M.Kernels.size(), 1u);
  const std::vector<KernelParam> &P = M.Kernels[0].Params;
  ASSERT_EQ(P.size(), 3u);
  EXPECT_EQ(P[0].Name, "k_param_0");
  EXPECT_EQ(P[0].Type, "b8");
  EXPECT_EQ(P[0].Bytes, 12u);
  EXPECT_EQ(P[1].Name, "k_param_1");
  EXPECT_EQ(P[1].Type, "u64");
  EXPECT_EQ(P[1].Bytes, 8u);
  EXPECT_EQ(P[2].Name, "k_param_2");
  EXPECT_EQ(P[2].Type, "f32");
  EXPECT_EQ(P[2].Bytes, 4u);
}

TEST(PTXParser, CountedLoops) {
  struct Case {
    const char *Init, *Step, *Cmp, *Bound;
    double Trip;
  } Cases[] = {
      {"0", "add.s32 %r1, %r1, 1;", "lt.s32", "10", 10}, // 0..9
      {"0", "add.s32 %r1, %r1, 4;", "ne.s32", "64", 16}, // 4,8..64
      {"20", "sub.s32 %r1, %r1, 2;", "gt.s32", "0", 10}, // 20..2
      {"0", "add.s32 %r1, %r1, 3;", "lt.u32", "10", 4},  // 0,3,6,9
      {"5", "add.s32 %r1, %r1, 1;", "le.s32", "5", 1},   // single trip
  };
  for (const Case &C : Cases) {
    PTXModule M = parseOK(loopKernel(C.Init, C.Step, C.Cmp, C.Bound));
    ASSERT_EQ(M.Kernels.size(), 1u);
    const KernelProfile &K = M.Kernels[0];
    ASSERT_EQ(K.Loops.size(), 1u) << C.Cmp;
    EXPECT_TRUE(K.Loops[0].Exact) << C.Step << " " << C.Cmp;
    EXPECT_FALSE(K.Loops[0].Guessed);
    EXPECT_EQ(K.Loops[0].Trip, C.Trip) << C.Step << " " << C.Cmp;
    EXPECT_EQ(K.op(OpClass::FP32), C.Trip);
    EXPECT_EQ(K.Flops32, 2 * C.Trip);
    EXPECT_TRUE(K.Guesses.empty());
  }
}

TEST(PTXParser, UnknownTripIsGuessed) {
  PTXModule M =
      parseOK(loopKernel("0", "add.s32 %r1, %r1, 1;", "lt.s32", "%r2"));
  const KernelProfile &K = M.Kernels[0];
  ASSERT_EQ(K.Loops.size(), 1u);
  EXPECT_TRUE(K.Loops[0].Guessed);
  EXPECT_EQ(K.Loops[0].Trip, PTXDefaultTripCount);
  EXPECT_EQ(K.op(OpClass::FP32), PTXDefaultTripCount);
  ASSERT_EQ(K.Guesses.size(), 1u);
  EXPECT_NE(K.Guesses[0].find("assumed 16"), std::string::npos);
}

void expectNoWarning(const KernelProfile &K, StringRef What) {
  for (const std::string &W : K.Warnings)
    EXPECT_EQ(StringRef(W).find(What), StringRef::npos) << W;
}

// Inline asm that loops declares its labels in a { } scope; inlined
// twice, the same labels appear twice (CUTLASS's mbarrier wait). Each
// scope's labels are its own: the outer loop around them stays a loop of
// 8 passes, and each wait counts once.
TEST(PTXParser, LabelsOfNestedScopes) {
  std::string Wait = "{\n.reg .pred P1;\nLAB_WAIT:\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 P1, [%r3], 0;\n"
                     "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}\n";
  PTXModule M = parseOK(std::string(Header) +
                        ".visible .entry k(.param .u64 p)\n{\n"
                        ".reg .pred %p<2>;\n.reg .b32 %r<5>;\n"
                        ".reg .f32 %f<3>;\nmov.u32 %r1, 0;\n"
                        "mov.u32 %r3, 64;\nmov.f32 %f1, 0f00000000;\n" +
                        Wait + "L_OUT:\n" + Wait +
                        "add.f32 %f1, %f1, 0f3F800000;\n"
                        "add.s32 %r1, %r1, 1;\n"
                        "setp.lt.s32 %p1, %r1, 8;\n@%p1 bra L_OUT;\n"
                        "ret;\n}\n");
  ASSERT_EQ(M.Kernels.size(), 1u);
  const KernelProfile &K = M.Kernels[0];
  expectNoWarning(K, "irreducible");
  EXPECT_TRUE(K.Guesses.empty());
  EXPECT_EQ(K.op(OpClass::FP32), 8);
  unsigned Waits = 0, Outer = 0;
  for (const LoopRecord &L : K.Loops) {
    Waits += L.Trip == 1 && L.Symbolic.find("mbarrier") != std::string::npos;
    Outer += L.Exact && L.Trip == 8;
  }
  EXPECT_EQ(Waits, 2u);
  EXPECT_EQ(Outer, 1u);
}

// A jump table declared inside a scope lists the scope's labels: renamed
// with them (a review found its labels lost: every access after it
// counted 0 times).
TEST(PTXParser, JumpTableInAScope) {
  PTXModule M =
      parseOK(std::string(Header) +
              ".visible .entry k(.param .u64 p)\n{\n"
              ".reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n"
              ".reg .f32 %f<4>;\n"
              "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n"
              "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\n"
              "add.s64 %rd2, %rd2, %rd3;\nand.b32 %r4, %r1, 1;\n"
              "{\nTBL: .branchtargets CASE0, CASE1;\n"
              "brx.idx %r4, TBL;\n"
              "CASE0:\nld.global.f32 %f1, [%rd2];\nbra.uni DONE;\n"
              "CASE1:\nld.global.f32 %f1, [%rd2+512];\n"
              "DONE:\n}\n"
              "st.global.f32 [%rd2], %f1;\nret;\n}\n");
  ASSERT_EQ(M.Kernels.size(), 1u);
  const KernelProfile &K = M.Kernels[0];
  expectNoWarning(K, "unknown label");
  ASSERT_EQ(K.Accesses.size(), 3u);
  for (const MemAccess &A : K.Accesses)
    EXPECT_GT(A.Count, 0) << A.Line;
}

TEST(PTXParser, BlockStrideLoopAtReferenceBlock) {
  std::string T = std::string(Header) + R"(
.visible .entry bs()
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<2>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ntid.x;
$L__loop:
  add.f32 %f1, %f1, %f1;
  add.s32 %r1, %r1, %r2;
  setp.lt.s32 %p1, %r1, 1024;
  @%p1 bra $L__loop;
  ret;
}
)";
  PTXModule M = parseOK(T);
  ASSERT_EQ(M.Kernels.size(), 1u);
  const KernelProfile &K = M.Kernels[0];
  ASSERT_EQ(K.Loops.size(), 1u);
  // 1024 elements over 256 threads: 4 per thread.
  EXPECT_EQ(K.Loops[0].Trip, 4);
  EXPECT_FALSE(K.Loops[0].Guessed);
  EXPECT_TRUE(K.Loops[0].DependsOnBlockDim);
  EXPECT_EQ(K.Loops[0].Symbolic, "1024 / blockDim.x");
  EXPECT_TRUE(K.Shape.WorkScalesWithBlock);
  EXPECT_EQ(K.op(OpClass::FP32), 4);
  EXPECT_TRUE(K.Guesses.empty());
}

TEST(PTXParser, TopTestedLoopAndNesting) {
  std::string T = std::string(Header) + R"(
.visible .entry nest()
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .f64 %fd<2>;
  mov.u32 %r1, 0;
$L__outer:
  setp.ge.s32 %p1, %r1, 3;
  @%p1 bra $L__exit;
  mov.u32 %r2, 0;
$L__inner:
  fma.rn.f64 %fd1, %fd1, %fd1, %fd1;
  add.s32 %r2, %r2, 1;
  setp.lt.s32 %p2, %r2, 4;
  @%p2 bra $L__inner;
  add.s32 %r1, %r1, 1;
  bra.uni $L__outer;
$L__exit:
  ret;
}
)";
  PTXModule M = parseOK(T);
  const KernelProfile &K = M.Kernels[0];
  ASSERT_EQ(K.Loops.size(), 2u);
  EXPECT_EQ(K.Loops[0].Depth, 1u);
  EXPECT_EQ(K.Loops[0].Trip, 3); // top-tested: body runs 3 times
  EXPECT_EQ(K.Loops[1].Depth, 2u);
  EXPECT_EQ(K.Loops[1].Trip, 4);
  EXPECT_EQ(K.op(OpClass::FP64), 12);
  EXPECT_EQ(K.Flops64, 24);
}

// The CFG runs on LLVM's dominator tree and loop info (lib/Profile/PTXCFG.h):
// a nest of two loops is weighted, a cycle entered at two blocks
// (irreducible) is not a loop and is warned about, and a block after `ret`
// counts nothing and adds no loop even though it branches into one.
TEST(PTXParser, LoopNestIrreducibleCycleAndUnreachableBlock) {
  std::string T = std::string(Header) + R"(
.visible .entry cfg(.param .u32 n)
{
  .reg .pred %p<5>;
  .reg .b32 %r<8>;
  .reg .f64 %fd<4>;
  ld.param.u32 %r7, [cfg_param_0];
  mov.u32 %r1, 0;
$L__outer:
  mov.u32 %r2, 0;
$L__inner:
  fma.rn.f64 %fd1, %fd1, %fd1, %fd1;
  add.s32 %r2, %r2, 1;
  setp.lt.s32 %p1, %r2, 4;
  @%p1 bra $L__inner;
  add.s32 %r1, %r1, 1;
  setp.lt.s32 %p2, %r1, 3;
  @%p2 bra $L__outer;
  setp.lt.s32 %p3, %r7, 5;
  @%p3 bra $L__b;
$L__a:
  add.f64 %fd2, %fd2, %fd1;
$L__b:
  mul.f64 %fd3, %fd3, %fd2;
  setp.lt.s32 %p4, %r7, 9;
  @%p4 bra $L__a;
  ret;
  add.f64 %fd3, %fd3, %fd3;
  bra.uni $L__inner;
}
)";
  PTXModule M = parseOK(T);
  ASSERT_EQ(M.Kernels.size(), 1u);
  const KernelProfile &K = M.Kernels[0];
  ASSERT_EQ(K.Loops.size(), 2u);
  EXPECT_EQ(K.Loops[0].Depth, 1u);
  EXPECT_EQ(K.Loops[0].Trip, 3);
  EXPECT_EQ(K.Loops[1].Depth, 2u);
  EXPECT_EQ(K.Loops[1].Trip, 4);
  // 12 fma in the nest, the add and the mul of the cycle once each.
  EXPECT_EQ(K.op(OpClass::FP64), 14);
  EXPECT_EQ(K.Flops64, 26);
  ASSERT_EQ(K.Warnings.size(), 1u);
  EXPECT_EQ(K.Warnings[0],
            "irreducible control flow; the cycle is not weighted");
}

TEST(PTXParser, SharedMemoryAndTensorWork) {
  std::string T = std::string(Header) + R"(
.extern .shared .align 16 .b8 dyn[];
.shared .align 4 .b8 tile[512];
.shared .align 4 .b8 unused[4096];
.visible .entry mm()
.reqntid 32, 4
{
  .reg .b32 %r<40>;
  .reg .f32 %f<10>;
  .shared .align 8 .b8 own[256];
  mov.u32 %r1, tile;
  mov.u32 %r2, dyn;
  ld.shared.u32 %r3, [tile+4];
  st.shared.v2.u32 [own], {%r1, %r2};
  mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f1, %f2, %f3, %f4}, {%r4, %r5, %r6, %r7}, {%r8, %r9}, {%f1, %f2, %f3, %f4};
  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17}, {%r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25}, {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};
  bar.sync 1;
  ret;
}
)";
  PTXModule M = parseOK(T);
  const KernelProfile &K = M.Kernels[0];
  EXPECT_EQ(K.Res.StaticSharedBytes, 512u + 256u);
  EXPECT_TRUE(K.Res.UsesDynamicShared);
  EXPECT_EQ(K.Res.Barriers, 2u); // barrier id 1 -> ids 0..1
  EXPECT_EQ(K.Bounds.ReqNTid[0], 32u);
  EXPECT_EQ(K.Bounds.ReqNTid[1], 4u);
  EXPECT_EQ(K.Bounds.ReqNTid[2], 1u);
  EXPECT_EQ(K.op(OpClass::Tensor), 2);
  // m16n8k16: 2*16*8*16/32 = 128; m16n16k16: 2*16*16*16/32 = 256.
  EXPECT_EQ(K.TensorFlops, 128 + 256);
  EXPECT_EQ(K.TensorType, "f16");
  EXPECT_EQ(K.op(OpClass::LoadShared), 1);
  EXPECT_EQ(K.op(OpClass::StoreShared), 1);
  ASSERT_EQ(K.Accesses.size(), 2u);
  EXPECT_EQ(K.Accesses[0].Pattern, AccessPattern::Uniform);
  EXPECT_EQ(K.Accesses[1].Bytes, 8u);
}

// Loads made in one block and read in later ones (KernelProfile::Held,
// FF016): three shared loads above two guarded blocks that both read two
// of them and one that only the first reads; a global load read in its own
// block and a kernel parameter are not counted.
TEST(PTXParser, LoadsHeldAcrossBlocks) {
  std::string T = std::string(Header) + R"(
.shared .align 4 .b8 tile[64];
.visible .entry held(.param .u64 out, .param .u32 n)
{
  .reg .b32 %r<8>;
  .reg .f32 %f<12>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  ld.shared.f32 %f1, [tile];
  ld.shared.f32 %f2, [tile+4];
  ld.shared.f32 %f3, [tile+8];
  cvta.to.global.u64 %rd2, %rd1;
  setp.lt.u32 %p1, %r2, %r1;
  @!%p1 bra $SKIP1;
  add.f32 %f4, %f1, %f2;
  add.f32 %f5, %f4, %f3;
  st.global.f32 [%rd2], %f5;
$SKIP1:
  setp.lt.u32 %p2, %r2, 7;
  @!%p2 bra $SKIP2;
  ld.global.f32 %f6, [%rd2+4];
  mul.f32 %f7, %f1, %f2;
  add.f32 %f8, %f7, %f6;
  st.global.f32 [%rd2+4], %f8;
$SKIP2:
  ret;
}
)";
  PTXModule M = parseOK(T);
  ASSERT_EQ(M.Kernels.size(), 1u);
  const HeldLoads &H = M.Kernels[0].Held;
  EXPECT_EQ(H.Values, 3u); // The first guarded block reads all three.
  EXPECT_EQ(H.Shared, 3u);
  EXPECT_EQ(H.Global, 0u);
  EXPECT_EQ(H.Other, 0u);
  EXPECT_EQ(H.Readers, 2u); // %f1 and %f2 are read in both.
}

TEST(PTXParser, WgmmaFlops) {
  std::string T = std::string(Header) + R"(
.visible .entry wg()
{
  .reg .f32 %f<4>;
  .reg .b64 %rd<3>;
  wgmma.fence.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%f1, %f2}, %rd1, %rd2, 1, 1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
  ret;
}
)";
  PTXModule M = parseOK(T);
  ASSERT_EQ(M.Kernels.size(), 1u);
  const KernelProfile &K = M.Kernels[0];
  // 2*64*128*16 / 128 threads = 2048 per thread.
  EXPECT_EQ(K.TensorFlops, 2048);
  EXPECT_EQ(K.op(OpClass::Tensor), 1);
}

TEST(PTXParser, DebugLinesAndCalls) {
  std::string T = std::string(Header) + R"(
.func (.param .b32 ret0) helper(.param .b32 a)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .f32 %f<3>;
  mov.u32 %r1, 0;
$L__h:
  add.f32 %f1, %f1, %f2;
  add.s32 %r1, %r1, 1;
  setp.ne.s32 %p1, %r1, 5;
  @%p1 bra $L__h;
  st.param.b32 [ret0], %r1;
  ret;
}
.visible .entry caller()
{
  .reg .b32 %r<3>;
  .loc 1 10 0
  mov.u32 %r1, %ntid.y;
  .loc 1 12 3
  {
    .param .b32 a0;
    .param .b32 r0;
    st.param.b32 [a0], %r1;
    call.uni (r0), helper, (a0);
    ld.param.b32 %r2, [r0];
  }
  call.uni (r0), helper, (a0);
  ret;
}
.file 1 "src/caller.cu"
)";
  PTXModule M = parseOK(T);
  ASSERT_EQ(M.Kernels.size(), 1u);
  ASSERT_EQ(M.Functions.size(), 1u);
  const KernelProfile &K = M.Kernels[0];
  EXPECT_EQ(K.File, "src/caller.cu");
  EXPECT_EQ(K.Line, 10u);
  EXPECT_TRUE(K.Shape.ReadsNTid[1]);
  EXPECT_TRUE(K.Shape.ReadsBlockDim);
  EXPECT_EQ(K.CallsFollowed, 2u);
  // Two calls, each 5 iterations of one add.f32.
  EXPECT_EQ(K.op(OpClass::FP32), 10);
  EXPECT_EQ(K.Loops.size(), 2u);
}

TEST(PTXParser, UnknownInstructionIsOther) {
  std::string T = std::string(Header) + R"(
.visible .entry u()
{
  frobnicate.b32 %r1, %r2;
  ret;
}
)";
  PTXModule M = parseOK(T);
  ASSERT_EQ(M.Kernels.size(), 1u);
  const KernelProfile &K = M.Kernels[0];
  EXPECT_EQ(K.op(OpClass::Other), 1);
  ASSERT_EQ(K.Warnings.size(), 1u);
  EXPECT_NE(K.Warnings[0].find("unknown instruction 'frobnicate.b32'"),
            std::string::npos);
}

TEST(PTXParser, Errors) {
  EXPECT_EQ(parseError(".version 8.0\n.entry\n"),
            "2: expected a name after .entry");
  EXPECT_EQ(parseError(".version 8.0\n.entry k(.param .u32 a\n{\n ret;\n}\n"),
            "3: expected ')' to close the parameter list of .entry k");
  EXPECT_EQ(parseError(".version 8.0\n.entry k()\n ret;\n"),
            "3: expected '{' or ';' after the signature of .entry k");
  EXPECT_EQ(parseError(".version 8.0\n.entry k()\n{\n ret;\n"),
            "2: missing '}' at the end of the body of k");
  EXPECT_EQ(parseError(".version 8.0\n.entry k()\n{\n add.s32 %r1, %r2\n}\n"),
            "4: expected ';' after 'add.s32'");
  EXPECT_EQ(parseError(".version 8.0\n/* open\n"), "2: unterminated comment");
  EXPECT_EQ(parseError(".version 8.0\n.target sm_80\nfoo\n"),
            "3: unexpected 'foo' at module scope");
  EXPECT_EQ(parseError(".entry k()\n.maxntid 1,2,3,4\n{\n}\n"),
            "2: .maxntid takes 1 to 3 values");
}

TEST(PTXParser, DeclarationOnlyIsNotAKernel) {
  PTXModule M = parseOK(std::string(Header) +
                        ".extern .func (.param .b32 r) f(.param .b32 a);\n"
                        ".entry k()\n;\n");
  EXPECT_TRUE(M.Kernels.empty());
}

TEST(PTXParser, HugeRegisterDeclarationsAreCheap) {
  // Regression (flipflop-ptx-fuzz timeout): every declared register used to
  // get a name and an id; only the registers used get one now.
  std::string T = std::string(Header) + R"(
.visible .entry big()
{
  .reg .b32 %r<16777216>;
  .reg .b64 %rd<16777216>;
  .reg .b32 %r<16777216>;
  mov.u32 %r16777215, %tid.x;
  cvt.u64.u32 %rd7, %r16777215;
  st.global.u64 [%rd7], %rd7;
  ret;
}
)";
  PTXModule M = parseOK(T);
  ASSERT_EQ(M.Kernels.size(), 1u);
  // %rd7 (2) and %r16777215 (1) live at once at most: the floor of 8.
  EXPECT_EQ(M.Kernels[0].Res.EstimatedRegisters, 8u);
  EXPECT_EQ(M.Kernels[0].op(OpClass::StoreGlobal), 1);
}

TEST(PTXParser, OperandlessInstructions) {
  // Regression (flipflop-ptx-fuzz, AddressSanitizer): a cp.async without
  // operands read its first operand anyway.
  std::string T = std::string(Header) + R"(
.visible .entry k()
{
  cp.async.ca.shared.global;
  ld.global.u32;
  atom.shared.add.u32;
  mma.sync.aligned;
  bar.sync;
  ret;
}
)";
  PTXModule M = parseOK(T);
  ASSERT_EQ(M.Kernels.size(), 1u);
  const KernelProfile &K = M.Kernels[0];
  EXPECT_EQ(K.op(OpClass::LoadGlobal), 2);
  EXPECT_EQ(K.op(OpClass::StoreShared), 1);
  EXPECT_EQ(K.op(OpClass::AtomicShared), 1);
  EXPECT_EQ(K.op(OpClass::Tensor), 1);
  EXPECT_EQ(K.TensorFlops, 0);
  EXPECT_EQ(K.Res.Barriers, 1u);
  EXPECT_EQ(K.Accesses.size(), 4u);
  EXPECT_EQ(K.Accesses[0].Pattern, AccessPattern::Unknown);
}

TEST(PTXParser, PrefixesParseOrFailWithALine) {
  // Every prefix of a valid module either fails with "LINE: message", LINE
  // inside the prefix, or parses into no more than the whole module holds.
  // A prefix that cuts the kernel's body is an error, never a shorter
  // kernel; one that ends after the body gives the whole kernel.
  std::string T = loopKernel("0", "add.s32 %r1, %r1, 1;", "lt.s32", "10");
  PTXModule Full = parseOK(T);
  ASSERT_EQ(Full.Kernels.size(), 1u);
  const KernelProfile &FK = Full.Kernels[0];
  ASSERT_EQ(FK.Loops.size(), 1u);
  const size_t BodyOpen = T.find('{'), BodyClose = T.rfind('}');
  ASSERT_LT(BodyOpen, BodyClose);
  unsigned Parsed = 0, Failed = 0;
  for (size_t N = 0; N <= T.size(); ++N) {
    std::string Prefix = T.substr(0, N); // own buffer: no reads past N
    auto M = parsePTXModule(Prefix, "p.ptx");
    const bool CutsBody = N > BodyOpen && N <= BodyClose;
    if (!M) {
      ++Failed;
      std::string E = toString(M.takeError());
      StringRef LineText, Msg;
      std::tie(LineText, Msg) = StringRef(E).split(": ");
      unsigned Line = 0;
      EXPECT_FALSE(LineText.getAsInteger(10, Line)) << N << ": " << E;
      EXPECT_GE(Line, 1u) << N << ": " << E;
      EXPECT_LE(Line, 1 + llvm::count(Prefix, '\n')) << N << ": " << E;
      EXPECT_FALSE(Msg.empty()) << N << ": " << E;
      continue;
    }
    ++Parsed;
    EXPECT_FALSE(CutsBody) << "a body cut after " << N << " bytes parsed";
    EXPECT_TRUE(StringRef(Full.Version).starts_with(M->Version)) << N;
    EXPECT_TRUE(StringRef(Full.Target).starts_with(M->Target)) << N;
    ASSERT_LE(M->Kernels.size(), 1u) << N;
    if (M->Kernels.empty()) {
      EXPECT_LE(N, BodyClose) << "the whole body, and no kernel";
      continue;
    }
    const KernelProfile &K = M->Kernels[0];
    EXPECT_EQ(K.Name, FK.Name) << N;
    for (unsigned C = 0; C < NumOpClasses; ++C)
      EXPECT_LE(K.Ops[C], FK.Ops[C]) << N << " class " << C;
    EXPECT_LE(K.Loops.size(), FK.Loops.size()) << N;
    if (N > BodyClose) {
      EXPECT_EQ(K.Ops, FK.Ops) << N;
      ASSERT_EQ(K.Loops.size(), 1u) << N;
      EXPECT_EQ(K.Loops[0].Trip, FK.Loops[0].Trip) << N;
    }
  }
  // The whole module and the prefixes that end after the body parse.
  EXPECT_GE(Parsed, T.size() - BodyClose);
  EXPECT_GE(Failed, BodyClose - BodyOpen);
}

TEST(PTXParser, PrinterIsStable) {
  PTXModule M =
      parseOK(loopKernel("0", "add.s32 %r1, %r1, 1;", "lt.s32", "10"));
  std::string A, B;
  raw_string_ostream OA(A), OB(B);
  printProfile(M.Kernels[0], OA);
  printProfile(M.Kernels[0], OB);
  EXPECT_EQ(A, B);
  EXPECT_NE(A.find("kernel loop\n"), std::string::npos);
  EXPECT_NE(A.find("  ops: fp32=10 int=20 branch=11\n"), std::string::npos)
      << A;
  EXPECT_NE(A.find("  loop: depth=1 line=0 trip=10 exact=yes guessed=no\n"),
            std::string::npos)
      << A;
}

} // namespace
