//===- PtxasTest.cpp - Reading ptxas -v output ----------------------------===//
#include "flipflop/Profile/Ptxas.h"
#include "gtest/gtest.h"

using namespace flipflop;
using namespace llvm;

namespace {

// CUDA 13.0 (captured here from ptxas -arch=sm_80 -v on test/PTX fixtures).
const char *Cuda13 = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z6reducePKfPfi' for 'sm_80'
ptxas info    : Function properties for _Z6reducePKfPfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 1 barriers, 372 bytes cmem[0]
ptxas info    : Compile time = 8.965 ms
ptxas info    : Compiling entry function '_Z6matmulPKfS0_Pfi' for 'sm_80'
ptxas info    : Function properties for _Z6matmulPKfS0_Pfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 20 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0]
ptxas info    : Compile time = 3.949 ms
)";

// CUDA 11.x style: no barrier count, a called function with its own
// properties, spills.
const char *Cuda11 = R"(ptxas info    : 0 bytes gmem
ptxas info    : Function properties for _Z6helperf
    24 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
ptxas info    : Compiling entry function '_Z4kernPf' for 'sm_70'
ptxas info    : Function properties for _Z4kernPf
    40 bytes stack frame, 16 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 32 registers, 1024 bytes smem, 356 bytes cmem[0], 8 bytes cmem[2]
)";

// CUDA 12.x style with a maxrregcount warning and sm_90a.
const char *Cuda12 =
    R"(ptxas warning : For profile sm_90a adjusting per thread register count of 16 to lower bound of 24
ptxas info    : Overriding maximum register limit 256 for '_Z1kv' with  24 of maxrregcount option
ptxas info    : 11 bytes gmem
ptxas info    : Compiling entry function '_Z1kv' for 'sm_90a'
ptxas info    : Function properties for _Z1kv
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 24 registers, used 2 barriers, 16+0 bytes smem
)";

TEST(Ptxas, ParsesCuda13) {
  auto Infos = parsePtxasOutput(Cuda13);
  ASSERT_EQ(Infos.size(), 2u);
  EXPECT_EQ(Infos[0].Name, "_Z6reducePKfPfi");
  EXPECT_EQ(Infos[0].Arch, "sm_80");
  EXPECT_EQ(Infos[0].Registers, 10u);
  EXPECT_TRUE(Infos[0].HasRegisters);
  EXPECT_EQ(Infos[0].Barriers, 1u);
  EXPECT_EQ(Infos[0].SharedBytes, 0u);
  EXPECT_EQ(Infos[0].ConstBank0Bytes, 372u);
  EXPECT_EQ(Infos[1].Name, "_Z6matmulPKfS0_Pfi");
  EXPECT_EQ(Infos[1].Registers, 20u);
  EXPECT_EQ(Infos[1].SharedBytes, 2048u);
}

TEST(Ptxas, ParsesCuda11WithCallee) {
  auto Infos = parsePtxasOutput(Cuda11);
  ASSERT_EQ(Infos.size(), 1u);
  const PtxasKernelInfo &K = Infos[0];
  EXPECT_EQ(K.Name, "_Z4kernPf");
  EXPECT_EQ(K.Arch, "sm_70");
  EXPECT_EQ(K.Registers, 32u);
  EXPECT_EQ(K.Barriers, 0u);
  EXPECT_EQ(K.SharedBytes, 1024u);
  EXPECT_EQ(K.StackFrameBytes, 40u); // not the helper's 24
  EXPECT_EQ(K.SpillStoreBytes, 16u);
  EXPECT_EQ(K.SpillLoadBytes, 12u);
}

TEST(Ptxas, ParsesCuda12) {
  auto Infos = parsePtxasOutput(Cuda12);
  ASSERT_EQ(Infos.size(), 1u);
  EXPECT_EQ(Infos[0].Arch, "sm_90a");
  EXPECT_EQ(Infos[0].Registers, 24u);
  EXPECT_EQ(Infos[0].Barriers, 2u);
  EXPECT_EQ(Infos[0].SharedBytes, 16u);
}

TEST(Ptxas, IgnoresGarbage) {
  EXPECT_TRUE(parsePtxasOutput("").empty());
  EXPECT_TRUE(parsePtxasOutput("ptxas info : Used 5 registers\n").empty());
  auto Infos =
      parsePtxasOutput("ptxas info : Compiling entry function 'k' for 'sm_80'\n"
                       "ptxas info : Used registers, used x barriers\n");
  ASSERT_EQ(Infos.size(), 1u);
  EXPECT_FALSE(Infos[0].HasRegisters);
}

TEST(Ptxas, MergeIntoResources) {
  std::vector<KernelProfile> Ks(2);
  Ks[0].Name = "_Z4kernPf";
  Ks[0].Res.Registers = 99;
  Ks[0].Res.EstimatedRegisters = 99;
  Ks[1].Name = "other";
  EXPECT_EQ(mergePtxasInfo(Ks, parsePtxasOutput(Cuda11)), 1u);
  EXPECT_EQ(Ks[0].Res.Registers, 32u);
  EXPECT_TRUE(Ks[0].Res.RegistersExact);
  EXPECT_EQ(Ks[0].Res.EstimatedRegisters, 99u);
  EXPECT_EQ(Ks[0].Res.SpillStoreBytes, 16u);
  EXPECT_EQ(Ks[0].Res.StaticSharedBytes, 1024u);
  EXPECT_FALSE(Ks[1].Res.RegistersExact);
}

TEST(Ptxas, ExplicitPathMustExist) {
  auto P = findPtxas("/nonexistent/ptxas");
  ASSERT_FALSE(P);
  EXPECT_EQ(toString(P.takeError()), "ptxas not found at '/nonexistent/ptxas'");
}

TEST(Ptxas, RunsOnceAndCaches) {
  auto P = findPtxas();
  if (!P) {
    consumeError(P.takeError());
    GTEST_SKIP() << "no ptxas on this machine";
  }
  const char *PTX = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry cached_k(.param .u64 p)
{
  .reg .b64 %rd<3>;
  .reg .b32 %r<3>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  st.global.u32 [%rd2], %r1;
  ret;
}
)";
  PtxasOptions O;
  O.PtxasPath = *P;
  unsigned Before = ptxasInvocations();
  auto A = runPtxas(PTX, O);
  ASSERT_TRUE(bool(A)) << toString(A.takeError());
  ASSERT_EQ(A->size(), 1u);
  EXPECT_EQ((*A)[0].Name, "cached_k");
  EXPECT_EQ((*A)[0].Arch, "sm_75");
  EXPECT_TRUE((*A)[0].HasRegisters);
  auto B = runPtxas(PTX, O);
  ASSERT_TRUE(bool(B));
  EXPECT_EQ(ptxasInvocations(), Before + 1);
  // Another maxreg is another key.
  O.MaxRegCount = 32;
  auto C = runPtxas(PTX, O);
  ASSERT_TRUE(bool(C)) << toString(C.takeError());
  EXPECT_EQ(ptxasInvocations(), Before + 2);
}

TEST(Ptxas, ReportsFailure) {
  auto P = findPtxas();
  if (!P) {
    consumeError(P.takeError());
    GTEST_SKIP() << "no ptxas on this machine";
  }
  PtxasOptions O;
  O.PtxasPath = *P;
  O.Arch = "sm_80";
  auto R = runPtxas(".version 7.0\n.target sm_80\n.entry k() { bogus; }\n", O);
  ASSERT_FALSE(R);
  std::string Msg = toString(R.takeError());
  EXPECT_NE(Msg.find("ptxas failed"), std::string::npos) << Msg;
}

} // namespace

// A register cap for one entry is its own .maxnreg (ptxas ignores
// -maxrregcount where the entry has launch bounds): put after the
// parameter list, replacing an earlier one, other entries untouched.
TEST(Ptxas, EntryMaxNReg) {
  const char *PTX = ".visible .entry a(.param .u64 p)\n"
                    ".maxntid 256, 1, 1\n.maxnreg 200\n{\n  ret;\n}\n"
                    ".visible .entry ab(.param .u64 p)\n{\n  ret;\n}\n";
  std::optional<std::string> A = withEntryMaxNReg(PTX, "a", 64);
  ASSERT_TRUE(A);
  EXPECT_EQ(*A, ".visible .entry a(.param .u64 p)\n.maxnreg 64\n"
                ".maxntid 256, 1, 1\n\n{\n  ret;\n}\n"
                ".visible .entry ab(.param .u64 p)\n{\n  ret;\n}\n");
  std::optional<std::string> AB = withEntryMaxNReg(PTX, "ab", 32);
  ASSERT_TRUE(AB);
  EXPECT_NE(AB->find("entry ab(.param .u64 p)\n.maxnreg 32\n"),
            std::string::npos);
  EXPECT_NE(AB->find(".maxnreg 200"), std::string::npos); // a's own.
  EXPECT_FALSE(withEntryMaxNReg(PTX, "b", 32));
  EXPECT_FALSE(withEntryMaxNReg("garbage", "a", 32));
}
