//===- KernelProfileTest.cpp - Aggregates of the plain profile ------------===//
//
// Every expected value is computed by hand in the comment next to it.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Profile/KernelProfile.h"
#include "flipflop/Profile/LaneSplit.h"
#include "gtest/gtest.h"
#include <cmath>
#include <limits>

using namespace flipflop;

namespace {

TEST(KernelProfile, OpClassNames) {
  EXPECT_STREQ(opClassName(OpClass::FP32), "fp32");
  EXPECT_STREQ(opClassName(OpClass::IntMul), "int.mul");
  EXPECT_STREQ(opClassName(OpClass::LoadGlobal), "load.global");
  EXPECT_STREQ(opClassName(OpClass::Other), "other");
  EXPECT_STREQ(accessPatternName(AccessPattern::Strided), "strided");
}

TEST(KernelProfile, SectorsPerRequest) {
  // 32 lanes x 4 B consecutive = 128 B = 4 sectors.
  EXPECT_EQ(sectorsPerRequest(4, 4, AccessPattern::Coalesced), 4);
  // 32 x 8 B = 256 B = 8 sectors; 32 x 16 B = 512 B = 16 sectors.
  EXPECT_EQ(sectorsPerRequest(8, 8, AccessPattern::Coalesced), 8);
  EXPECT_EQ(sectorsPerRequest(16, 16, AccessPattern::Coalesced), 16);
  // Broadcast: one sector.
  EXPECT_EQ(sectorsPerRequest(4, 0, AccessPattern::Uniform), 1);
  // Stride 8 B with 4 B lanes spans 256 B: 8 sectors, half of each used.
  EXPECT_EQ(sectorsPerRequest(4, 8, AccessPattern::Strided), 8);
  // Stride 128 B: every lane its own sector.
  EXPECT_EQ(sectorsPerRequest(4, 128, AccessPattern::Strided), 32);
  // Negative strides touch as many sectors as positive ones.
  EXPECT_EQ(sectorsPerRequest(4, -4, AccessPattern::Coalesced), 4);
  // A gather: every lane its own sector(s); 64 B per lane = 2 sectors.
  EXPECT_EQ(sectorsPerRequest(4, 0, AccessPattern::Unknown), 32);
  EXPECT_EQ(sectorsPerRequest(64, 0, AccessPattern::Unknown), 64);
  // A half warp of 16 lanes x 4 B = 64 B = 2 sectors.
  EXPECT_EQ(sectorsPerRequest(4, 4, AccessPattern::Coalesced, 16), 2);
  EXPECT_EQ(sectorsPerRequest(0, 4, AccessPattern::Coalesced), 0);
}

/// Rows of \p Mod lanes reading \p Bytes each, \p Stride apart within a
/// row and \p Div between rows (MemAccess::LaneMod).
MemAccess tileRows(unsigned Bytes, int64_t Stride, unsigned Mod, int64_t Div) {
  MemAccess A;
  A.Pattern = AccessPattern::Strided;
  A.Bytes = Bytes;
  A.StrideBytes = Stride;
  A.LaneMod = Mod;
  A.LaneDivStrideBytes = Div;
  return A;
}

TEST(KernelProfile, LaneSectorsOfTileRows) {
  // float4 rows of 8 lanes (128 B) with rows 16 KB apart: 4 rows x 4
  // sectors per warp.
  MemAccess A = tileRows(16, 16, 8, 16384);
  EXPECT_EQ(laneOffsetBytes(A, 9), 16384 + 16);
  EXPECT_EQ(laneSectors(A), 16);
  // Rows of 4 floats continuing each other (row stride = 4 x 4 B): one
  // contiguous 128 B, as the plain stride.
  A.Bytes = 4;
  A.StrideBytes = 4;
  A.LaneMod = 4;
  A.LaneDivStrideBytes = 16;
  EXPECT_EQ(laneSectors(A), 4);
  // Only the row index, negative: 8 rows of 4 lanes sharing one float,
  // 128 B apart going down: 8 sectors.
  A.StrideBytes = 0;
  A.LaneDivStrideBytes = -128;
  EXPECT_EQ(laneOffsetBytes(A, 5), -128);
  EXPECT_EQ(laneSectors(A), 8);
}

TEST(KernelProfile, LaneLinesOfTileRows) {
  // Rows of 16 floats (64 B) at an unknown pitch (FarRowPitch): a pass of
  // 32 lanes touches 2 lines, 4 sectors.
  MemAccess A = tileRows(4, 4, 16, FarRowPitch);
  EXPECT_EQ(laneLines(A, 0, 32), 2);
  EXPECT_EQ(laneSectors(A), 4);
  // float4 rows of 8 lanes, 16 KB apart: a pass of 8 lanes is one row,
  // 128 B, one line; the second pass (lanes 8..15) the next row's line.
  A = tileRows(16, 16, 8, 16384);
  EXPECT_EQ(laneLines(A, 0, 8), 1);
  EXPECT_EQ(laneLines(A, 8, 8), 1);
  EXPECT_EQ(laneLines(A, 4, 8), 2); // Straddles two rows.
}

TEST(LaneSplit, RowsTimesAnUnknownPitch) {
  // (t / 16) * lda: rows of 16 lanes, far apart.
  std::optional<LaneSplit> R = scaleByUnknown(LaneSplit::make(16, 0, 1));
  ASSERT_TRUE(R.has_value());
  EXPECT_EQ(R->Mod, 16u);
  EXPECT_EQ(R->Stride, 0);
  EXPECT_TRUE(farRowPitch(R->DivStride));
  // Adding t % 16 (4 bytes a lane) keeps the rows: the tile load's form.
  std::optional<LaneSplit> Sum =
      combineLaneSplits(*R, LaneSplit::make(16, 4, 0), 1, 1);
  ASSERT_TRUE(Sum.has_value());
  EXPECT_EQ(Sum->Stride, 4);
  EXPECT_TRUE(farRowPitch(Sum->DivStride));
  // Rows of 32 or 64 threads hold whole warps: uniform within one.
  R = scaleByUnknown(LaneSplit::make(64, 0, 1));
  EXPECT_FALSE(R.has_value()); // make() folded it to a plain 0 stride.
  // t * lda: every lane a pitch apart, far.
  R = scaleByUnknown(LaneSplit{0, 4, 0});
  ASSERT_TRUE(R.has_value());
  EXPECT_EQ(R->Mod, 0u);
  EXPECT_TRUE(farRowPitch(R->Stride));
  // A stride within the row scales too ((t % 16) * lda): no lane pattern.
  EXPECT_FALSE(scaleByUnknown(LaneSplit::make(16, 4, 0)).has_value());
  EXPECT_FALSE(scaleByUnknown(LaneSplit{0, 0, 0}).has_value());
  EXPECT_FALSE(farRowPitch(16384));
}

TEST(LaneSplit, FarPitchesSaturateAndDoNotCancel) {
  // Exact below FarRowPitch.
  EXPECT_EQ(pitchSum(64, 4, 4, 1), 260);
  // A far pitch scaled, however far: FarRowPitch, its sign kept, no
  // overflow (2^24 * 2^62 is beyond 64 bits).
  EXPECT_EQ(pitchSum(FarRowPitch, 4096, 64, 1), FarRowPitch);
  EXPECT_EQ(pitchSum(FarRowPitch, int64_t(1) << 62, 0, 0), FarRowPitch);
  EXPECT_EQ(pitchSum(FarRowPitch, -3, 0, 0), -FarRowPitch);
  EXPECT_EQ(pitchSum(FarRowPitch, 0, 16, 1), 16); // Times 0: gone.
  // Two unknown pitches need not cancel: (t / 16) * lda - (t / 16) * ldb.
  EXPECT_FALSE(pitchSum(FarRowPitch, 1, FarRowPitch, -1).has_value());
  LaneSplit Rows = *scaleByUnknown(LaneSplit::make(16, 0, 1));
  EXPECT_FALSE(combineLaneSplits(Rows, Rows, 1, -1).has_value());
}

TEST(KernelProfile, LaneBankConflictWaysOfTileRows) {
  // tile[t / 8][2 * (t % 8)] of floats with 64-word rows: the 4 rows of a
  // warp fall on the same 8 banks, 4 ways (a plain 8-byte stride would say
  // 2).
  MemAccess A = tileRows(4, 8, 8, 256);
  A.Space = AddrSpace::Shared;
  EXPECT_EQ(laneBankConflictWays(A), 4u);
  // Rows padded by one word (65-word rows): each row shifts by one bank,
  // so rows 0 and 2 (1 and 3) still share banks: 2 ways.
  A.LaneDivStrideBytes = 260;
  EXPECT_EQ(laneBankConflictWays(A), 2u);
  // float4 rows of 8 lanes x 16 B = 128 B, each pass one row: 1 way.
  A.Bytes = 16;
  A.StrideBytes = 16;
  A.LaneDivStrideBytes = 128;
  EXPECT_EQ(laneBankConflictWays(A), 1u);
  // finalizeProfile() replaces the front end's plain-stride figure.
  KernelProfile K;
  A.Bytes = 4;
  A.StrideBytes = 8;
  A.LaneDivStrideBytes = 256;
  A.BankConflictWays = 2;
  K.Accesses.push_back(A);
  finalizeProfile(K);
  EXPECT_EQ(K.Accesses[0].BankConflictWays, 4u);
  EXPECT_EQ(K.MaxBankConflictWays, 4u);
}

TEST(KernelProfile, BankConflictWays) {
  EXPECT_EQ(bankConflictWays(4, 4, AccessPattern::Coalesced), 1u);
  // Stride 2 words: lanes L and L+16 share bank 2L mod 32: 2 ways.
  EXPECT_EQ(bankConflictWays(4, 8, AccessPattern::Strided), 2u);
  // Stride 32 words: every lane in bank 0, 32 distinct words.
  EXPECT_EQ(bankConflictWays(4, 128, AccessPattern::Strided), 32u);
  // Padded column (33 words): bank L mod 32, no conflict.
  EXPECT_EQ(bankConflictWays(4, 132, AccessPattern::Strided), 1u);
  // 8 B lanes are served by half warps: 16 x 8 B = 128 B, no conflict.
  EXPECT_EQ(bankConflictWays(8, 8, AccessPattern::Coalesced), 1u);
  // 8 B at stride 16 B: words {4L, 4L+1}; lanes L and L+8 collide: 2 ways.
  EXPECT_EQ(bankConflictWays(8, 16, AccessPattern::Strided), 2u);
  // 16 B lanes by quarter warps: 8 x 16 B = 128 B, no conflict.
  EXPECT_EQ(bankConflictWays(16, 16, AccessPattern::Coalesced), 1u);
  EXPECT_EQ(bankConflictWays(4, 0, AccessPattern::Uniform), 1u);
  EXPECT_EQ(bankConflictWays(4, 0, AccessPattern::Unknown), 1u);
}

TEST(KernelProfile, HugeAccessesAreCheap) {
  // Regression (flipflop-ptx-fuzz timeout): the cost used to grow with the
  // bytes per lane. 32 lanes x 2^30 B back to back = 2^35 B = 2^30 sectors.
  EXPECT_EQ(sectorsPerRequest(1u << 30, 1 << 30, AccessPattern::Coalesced),
            1073741824.0);
  // 8 lanes per phase x 2^18 words, contiguous: 2^21 words over 32 banks.
  EXPECT_EQ(bankConflictWays(1u << 20, 1 << 20, AccessPattern::Coalesced),
            65536u);
  // No banks (a bad spec file) is no conflict, not a division by zero.
  EXPECT_EQ(bankConflictWays(4, 8, AccessPattern::Strided, 0), 1u);
}

TEST(KernelProfile, LaunchBounds) {
  LaunchBounds B;
  EXPECT_EQ(B.maxThreads(), 0u);
  EXPECT_FALSE(B.any());
  B.MaxNTid = {256, 1, 1};
  EXPECT_EQ(B.maxThreads(), 256u);
  B.ReqNTid = {16, 8, 1}; // reqntid wins: 128
  EXPECT_EQ(B.maxThreads(), 128u);
  LaunchBounds C;
  C.MinCTAsPerSM = 2;
  EXPECT_TRUE(C.any());
}

MemAccess access(AddrSpace S, bool Store, bool Atomic, unsigned Bytes,
                 double Count, AccessPattern P, int64_t Stride) {
  MemAccess A;
  A.Space = S;
  A.IsStore = Store;
  A.IsAtomic = Atomic;
  A.Bytes = Bytes;
  A.Count = Count;
  A.Pattern = P;
  A.StrideBytes = Stride;
  return A;
}

TEST(KernelProfile, FinalizeAggregates) {
  KernelProfile K;
  // A: 10 coalesced 4 B loads: 40 B read, 4 sectors -> 10*4*32/32 = 40 B.
  K.Accesses.push_back(access(AddrSpace::Global, false, false, 4, 10,
                              AccessPattern::Coalesced, 4));
  // B: 2 stores of 8 B at a 64 B stride: 16 B written, 32 sectors -> 64 B.
  K.Accesses.push_back(
      access(AddrSpace::Global, true, false, 8, 2, AccessPattern::Strided, 64));
  // C: 1 atomic of 4 B, unknown pattern: 4 B read + 4 B written, 32 B.
  K.Accesses.push_back(
      access(AddrSpace::Global, false, true, 4, 1, AccessPattern::Unknown, 0));
  // D: 5 shared loads with 4-way conflicts: 20 B, 20 wavefronts.
  MemAccess D =
      access(AddrSpace::Shared, false, false, 4, 5, AccessPattern::Strided, 16);
  D.BankConflictWays = 4;
  K.Accesses.push_back(D);
  // E: 3 local stores of 4 B: 12 B.
  K.Accesses.push_back(
      access(AddrSpace::Local, true, false, 4, 3, AccessPattern::Uniform, 0));
  // F: a loop-invariant uniform load run 8 times: 32 B read, 1 sector once.
  MemAccess F =
      access(AddrSpace::Global, false, false, 4, 8, AccessPattern::Uniform, 0);
  F.LoopInvariant = true;
  K.Accesses.push_back(F);
  K.Flops32 = 274;
  finalizeProfile(K);
  EXPECT_DOUBLE_EQ(K.GlobalBytesRead, 40 + 4 + 32);
  EXPECT_DOUBLE_EQ(K.GlobalBytesWritten, 16 + 4);
  EXPECT_DOUBLE_EQ(K.GlobalSectorBytes, 40 + 64 + 32 + 1);
  EXPECT_DOUBLE_EQ(K.Accesses[1].SectorsPerRequest, 32);
  EXPECT_DOUBLE_EQ(K.SharedBytes, 20);
  EXPECT_DOUBLE_EQ(K.SharedWavefronts, 20);
  EXPECT_EQ(K.MaxBankConflictWays, 4u);
  EXPECT_DOUBLE_EQ(K.LocalBytes, 12);
  // Requests 10+2+1+8 = 21, not coalesced: B and C = 3.
  EXPECT_DOUBLE_EQ(K.UncoalescedFraction, 3.0 / 21.0);
  // 274 FLOPs over 137 sector bytes; over 20 shared bytes.
  EXPECT_DOUBLE_EQ(K.arithmeticIntensity(), 2.0);
  EXPECT_DOUBLE_EQ(K.sharedIntensity(), 13.7);
  // Finalizing twice gives the same aggregates.
  finalizeProfile(K);
  EXPECT_DOUBLE_EQ(K.GlobalSectorBytes, 137);
}

TEST(KernelProfile, EmptyProfile) {
  KernelProfile K;
  finalizeProfile(K);
  EXPECT_EQ(K.GlobalSectorBytes, 0);
  EXPECT_EQ(K.UncoalescedFraction, 0);
  EXPECT_EQ(K.arithmeticIntensity(), 0);
  EXPECT_EQ(K.MaxBankConflictWays, 1u);
}

} // namespace

// mergePTXFacts: without ptxas the PTX liveness estimate replaces the IR's;
// with ptxas the exact resources win; the IR's dynamic shared memory and
// work counts survive; a PTX .loc line locates a kernel the IR could not.
TEST(MergePTXFacts, TakesEachFactFromTheSideThatKnowsIt) {
  flipflop::KernelProfile IR;
  IR.Name = "k";
  IR.File = "k.cu";
  IR.Res.EstimatedRegisters = IR.Res.Registers = 40;
  IR.Res.UsesDynamicShared = true;
  IR.op(flipflop::OpClass::FP32) = 100;
  flipflop::KernelProfile PTX;
  PTX.Name = "k";
  PTX.File = "k.cu";
  PTX.Line = 7;
  PTX.Res.EstimatedRegisters = PTX.Res.Registers = 30;
  PTX.Res.StaticSharedBytes = 2048;

  flipflop::KernelProfile A = IR;
  flipflop::mergePTXFacts(A, PTX);
  EXPECT_EQ(A.Source, "ir+ptx");
  EXPECT_EQ(A.Res.Registers, 30u);
  EXPECT_EQ(A.Res.EstimatedRegisters, 30u);
  EXPECT_FALSE(A.Res.RegistersExact);
  EXPECT_EQ(A.Res.StaticSharedBytes, 2048u);
  EXPECT_TRUE(A.Res.UsesDynamicShared);
  EXPECT_EQ(A.op(flipflop::OpClass::FP32), 100);
  EXPECT_EQ(A.Line, 7u);
  EXPECT_EQ(A.Res.SpillStoreBytes + A.Res.SpillLoadBytes, 0u);

  // Without ptxas, the spills estimated from the final code's pressure.
  flipflop::KernelProfile Over = PTX;
  Over.Res.EstimatedRegisters = Over.Res.Registers = 255;
  Over.Res.SpillStoreBytes = 200;
  Over.Res.SpillLoadBytes = 204;
  Over.Res.StackFrameBytes = 180;
  flipflop::KernelProfile S = IR;
  flipflop::mergePTXFacts(S, Over);
  EXPECT_EQ(S.Res.Registers, 255u);
  EXPECT_EQ(S.Res.SpillStoreBytes, 200u);
  EXPECT_EQ(S.Res.SpillLoadBytes, 204u);
  EXPECT_EQ(S.Res.StackFrameBytes, 180u);

  PTX.Res.Registers = 32;
  PTX.Res.RegistersExact = true;
  PTX.Res.SpillStoreBytes = 8;
  flipflop::KernelProfile B = IR;
  flipflop::mergePTXFacts(B, PTX);
  EXPECT_EQ(B.Res.Registers, 32u);
  EXPECT_TRUE(B.Res.RegistersExact);
  EXPECT_EQ(B.Res.SpillStoreBytes, 8u);
  EXPECT_EQ(B.Res.EstimatedRegisters, 30u);
  EXPECT_TRUE(B.Res.UsesDynamicShared);
}

// Pressure steps: from the peak down, each step a larger share of the
// largest loop weight; spillShare picks the code above the allocation, or
// the peak's when the estimate stays below it.
TEST(KernelProfile, PressureSteps) {
  using flipflop::PressureStep;
  std::vector<PressureStep> S = flipflop::pressureSteps(
      {{25, 17}, {1092, 1}, {440, 1}, {26, 17}, {24, 17}, {0, 0}});
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Pressure, 1092u);
  EXPECT_NEAR(S[0].Share, 1.0 / 17, 1e-12);
  EXPECT_EQ(S[1].Pressure, 26u);
  EXPECT_EQ(S[1].Share, 1.0);
  flipflop::KernelProfile K;
  EXPECT_EQ(K.spillShare(255), 1.0); // Not known.
  K.PressureSteps = S;
  EXPECT_NEAR(K.spillShare(255), 1.0 / 17, 1e-12);
  EXPECT_NEAR(K.spillShare(2000), 1.0 / 17, 1e-12); // The peak's.
  EXPECT_EQ(K.spillShare(20), 1.0);
  EXPECT_TRUE(flipflop::pressureSteps({}).empty());
}

namespace {

/// A global store of a 1-D or 2-D form: threadIdx and blockIdx steps in
/// bytes, array 1, constant offset \p Off.
MemAccess storeAt(std::array<int64_t, 3> Tid, std::array<int64_t, 3> Ctaid,
                  int64_t Off) {
  MemAccess A;
  A.IsStore = true;
  A.Form.Known = true;
  A.Form.Tid = Tid;
  A.Form.Ctaid = Ctaid;
  A.Form.Array = 1;
  A.Form.Offset = Off;
  return A;
}

KernelProfile bakedKernel(bool Y) {
  KernelProfile P;
  P.Shape.UsesTid = {true, Y, false};
  return P;
}

TEST(MergePTXFacts, DataScaledStepFromThePTX) {
  // The IR sees the data-scaled coordinate but not the bounds checks and
  // pitch that bound it: its access takes the median step of the PTX's
  // accesses of that kind (not the store's, not another width's).
  KernelProfile IR, PTX;
  MemAccess Smooth;
  Smooth.Bytes = 1;
  Smooth.SmoothDims = 2;
  IR.Accesses = {Smooth};
  for (double Step : {0.78, 0.79, 0.80}) {
    MemAccess A = Smooth;
    A.SmoothStepBytes[1] = Step;
    PTX.Accesses.push_back(A);
  }
  MemAccess Wide = Smooth;
  Wide.Bytes = 4;
  Wide.SmoothStepBytes[1] = 9;
  PTX.Accesses.push_back(Wide);
  mergePTXFacts(IR, PTX);
  EXPECT_DOUBLE_EQ(IR.Accesses[0].SmoothStepBytes[1], 0.79);
  EXPECT_DOUBLE_EQ(IR.Accesses[0].SmoothStepBytes[2], 0);
}

TEST(MergePTXFacts, SharedWidthsFromThePTX) {
  // The IR's eight 4-byte shared loads a pass (a tile row read off a
  // pointer code generation steps) against the emitted PTX's two 16-byte
  // loads of the same bytes: the final code's widths and op counts win;
  // the global load and the shared store (same width both sides) stay.
  auto Access = [](AddrSpace S, bool Store, unsigned Bytes, double Count) {
    MemAccess A;
    A.Space = S;
    A.IsStore = Store;
    A.Bytes = Bytes;
    A.Count = Count;
    return A;
  };
  KernelProfile IR, PTX;
  IR.Accesses = {Access(AddrSpace::Global, false, 4, 16),
                 Access(AddrSpace::Shared, true, 4, 16)};
  for (int I = 0; I < 8; ++I)
    IR.Accesses.push_back(Access(AddrSpace::Shared, false, 4, 16));
  IR.op(OpClass::LoadShared) = 8 * 16 + 3; // + loads outside any access
  IR.op(OpClass::StoreShared) = 16;
  IR.op(OpClass::LoadGlobal) = 16;
  PTX.Accesses = {Access(AddrSpace::Global, false, 4, 16),
                  Access(AddrSpace::Shared, true, 4, 16),
                  Access(AddrSpace::Shared, false, 16, 16),
                  Access(AddrSpace::Shared, false, 16, 16)};
  KernelProfile A = IR;
  mergePTXFacts(A, PTX);
  ASSERT_EQ(A.Accesses.size(), 4u);
  EXPECT_EQ(A.Accesses[0].Space, AddrSpace::Global);
  EXPECT_EQ(A.Accesses[3].Bytes, 16u);
  EXPECT_DOUBLE_EQ(A.op(OpClass::LoadShared), 2 * 16 + 3);
  EXPECT_DOUBLE_EQ(A.op(OpClass::StoreShared), 16);
  EXPECT_DOUBLE_EQ(A.op(OpClass::LoadGlobal), 16);
  EXPECT_DOUBLE_EQ(A.SharedBytes, 16 * 4 + 8 * 16 * 4); // the same bytes
  EXPECT_DOUBLE_EQ(A.SharedWavefronts, 16 + 2 * 16);     // in fewer requests

  // Other bytes (the PTX's loops resolved otherwise, a load the IR does
  // not have): the IR's accesses stay as they are.
  PTX.Accesses.pop_back();
  KernelProfile B = IR;
  mergePTXFacts(B, PTX);
  EXPECT_EQ(B.Accesses.size(), IR.Accesses.size());
  EXPECT_DOUBLE_EQ(B.op(OpClass::LoadShared), 8 * 16 + 3);
  // The same widths on both sides: nothing to take.
  KernelProfile C = IR;
  mergePTXFacts(C, IR);
  EXPECT_EQ(C.Accesses.size(), IR.Accesses.size());
  EXPECT_DOUBLE_EQ(C.op(OpClass::LoadShared), 8 * 16 + 3);
  // The PTX narrower than the IR (a merge its alignment proof misses):
  // the IR's widths stay.
  KernelProfile D = A;
  mergePTXFacts(D, IR);
  ASSERT_EQ(D.Accesses.size(), 4u);
  EXPECT_EQ(D.Accesses[3].Bytes, 16u);
  EXPECT_DOUBLE_EQ(D.op(OpClass::LoadShared), 2 * 16 + 3);
}

TEST(StoreBlock, SpanOverTileSpacing) {
  std::string Why;
  // out[blockIdx.x * 512 + threadIdx.x + i * 128], i < 4, floats: the
  // span is 2048 / 4 = 512 threadIdx steps, the outputs 512 / 4 = 128
  // apart: gcd(512, 128, 256, 384) = 128 threads.
  KernelProfile P = bakedKernel(false);
  for (int64_t I = 0; I < 4; ++I)
    P.Accesses.push_back(storeAt({4, 0, 0}, {2048, 0, 0}, I * 512));
  EXPECT_EQ(blockFromStoreForms(P, 0, Why), (std::array<unsigned, 3>{128, 1, 1}));
  EXPECT_NE(Why.find("blockIdx.x * 512 + threadIdx.x, outputs 128 apart"),
            std::string::npos);
  // The same tile as a loop of 4 passes stepping 512 B.
  KernelProfile L = bakedKernel(false);
  L.Accesses.push_back(storeAt({4, 0, 0}, {2048, 0, 0}, 0));
  L.Accesses[0].Form.NumLoops = 1;
  L.Accesses[0].Form.LoopTrip[0] = 4;
  L.Accesses[0].Form.LoopStep[0] = 512;
  EXPECT_EQ(blockFromStoreForms(L, 0, Why), (std::array<unsigned, 3>{128, 1, 1}));
  // A bound of 64 threads (__launch_bounds__) contradicts it: unknown.
  EXPECT_EQ(blockFromStoreForms(P, 64, Why), (std::array<unsigned, 3>{0, 0, 0}));
}

TEST(StoreBlock, TwoDimensionsAndOwnElements) {
  std::string Why;
  // 64 x 2 threads, 2 x 2 outputs, rows of 4096 floats (16384 B):
  // threadIdx.x 4 B, blockIdx.x 128 threads x 4 B = 512 B, outputs 64
  // apart (256 B); threadIdx.y a row, blockIdx.y 4 rows, outputs 2 rows
  // apart (32768 B).
  KernelProfile P = bakedKernel(true);
  for (int64_t Off : {0, 256, 32768, 32768 + 256})
    P.Accesses.push_back(storeAt({4, 16384, 0}, {512, 65536, 0}, Off));
  EXPECT_EQ(blockFromStoreForms(P, 0, Why), (std::array<unsigned, 3>{64, 2, 1}));
  // Each thread writes two consecutive floats (threadIdx.x steps 8 B):
  // the second is the thread's own, not another block column.
  KernelProfile Q = bakedKernel(false);
  Q.Accesses.push_back(storeAt({8, 0, 0}, {2048, 0, 0}, 0));
  Q.Accesses.push_back(storeAt({8, 0, 0}, {2048, 0, 0}, 4));
  EXPECT_EQ(blockFromStoreForms(Q, 0, Why), (std::array<unsigned, 3>{256, 1, 1}));
  // A thread's second row where threads are two rows apart (threadIdx.y
  // steps 32768 B, the second store 16384 B on): its own element too.
  KernelProfile R = bakedKernel(true);
  R.Accesses.push_back(storeAt({4, 32768, 0}, {64, 32768 * 8, 0}, 0));
  R.Accesses.push_back(storeAt({4, 32768, 0}, {64, 32768 * 8, 0}, 16384));
  EXPECT_EQ(blockFromStoreForms(R, 0, Why), (std::array<unsigned, 3>{16, 8, 1}));
}

TEST(StoreBlock, UnknownWhenTheFormsDoNotSay) {
  std::string Why;
  // Rows 100 floats apart with 128 threads per block: 0 and 100 within
  // the span do not fill it at one spacing (gcd 4 would need 32 of them).
  KernelProfile P = bakedKernel(false);
  for (int64_t R = 0; R < 4; ++R)
    P.Accesses.push_back(storeAt({4, 0, 0}, {512, 0, 0}, R * 400));
  EXPECT_EQ(blockFromStoreForms(P, 0, Why), (std::array<unsigned, 3>{0, 0, 0}));
  // threadIdx.y used but no store steps blockIdx along it.
  KernelProfile Q = bakedKernel(true);
  Q.Accesses.push_back(storeAt({4, 16384, 0}, {512, 0, 0}, 0));
  EXPECT_EQ(blockFromStoreForms(Q, 0, Why), (std::array<unsigned, 3>{0, 0, 0}));
  // A kernel that reads blockDim is not written for one block.
  KernelProfile R = bakedKernel(false);
  R.Shape.ReadsBlockDim = true;
  R.Accesses.push_back(storeAt({4, 0, 0}, {512, 0, 0}, 0));
  EXPECT_EQ(blockFromStoreForms(R, 0, Why), (std::array<unsigned, 3>{0, 0, 0}));
}

} // namespace

// Under a cap, a block spills its peak above the cap in proportion to the
// share of its values it reads and writes, once the code cannot fit the cap.
TEST(SpillCurve, BytesUnderACap) {
  SpillCurve C;
  C.Known = true;
  C.Blocks = {{40, 50, 1.5}, {40, 30, 1.0}};
  EXPECT_EQ(C.fits(), 40u);
  EXPECT_EQ(C.bytesAt(40), 0u);                       // Fits.
  EXPECT_EQ(C.bytesAt(32), unsigned((50 - 32) * 1.5 * 4)); // 108
  EXPECT_EQ(C.bytesAt(24), unsigned(((50 - 24) * 1.5 + (30 - 24)) * 4));
  EXPECT_EQ(SpillCurve().bytesAt(16), 0u);
  EXPECT_EQ(SpillCurve().fits(), 0u);
}

// The spill code that runs with a number of registers: the kernel's own
// when it needs no more, else ptxas's compile under that cap, else the
// estimate; nothing known from the IR alone under a cap.
TEST(KernelProfile, SpillCodeAt) {
  KernelProfile K;
  K.Res.Registers = 128;
  K.Res.RegistersExact = true;
  K.Res.SpillStoreBytes = K.Res.SpillLoadBytes = 8;
  auto Own = K.spillCodeAt(128);
  ASSERT_TRUE(Own);
  EXPECT_EQ(Own->Bytes, 16u);
  EXPECT_TRUE(Own->Ptxas);
  EXPECT_FALSE(K.spillCodeAt(64)); // Under a cap, nothing known.
  K.CapSpills.Known = true;
  K.CapSpills.Blocks = {{100, 80, 1.0}};
  auto Est = K.spillCodeAt(64);
  ASSERT_TRUE(Est);
  EXPECT_EQ(Est->Bytes, unsigned((80 - 64) * 4));
  EXPECT_FALSE(Est->Ptxas);
  K.CapFacts.push_back({64, 64, 100, 100});
  auto Fact = K.spillCodeAt(64);
  ASSERT_TRUE(Fact);
  EXPECT_EQ(Fact->Bytes, 200u);
  EXPECT_TRUE(Fact->Ptxas);
}

TEST(KernelProfile, DynamicSharedSizes) {
  auto P = [](const char *S) { return parseDynamicShared(S); };
  ASSERT_TRUE(P("4096"));
  EXPECT_EQ(P("4096")->Bytes, 4096u);
  EXPECT_EQ(P("4096")->PerThread, 0u);
  ASSERT_TRUE(P("8*t"));
  EXPECT_EQ(P("8*t")->Bytes, 0u);
  EXPECT_EQ(P("8*t")->PerThread, 8u);
  ASSERT_TRUE(P(" 1024 + 8*t "));
  EXPECT_EQ(P(" 1024 + 8*t ")->Bytes, 1024u);
  EXPECT_EQ(P("8*t+1024")->PerThread, 8u);
  for (const char *Bad : {"", "+", "8*x", "-4", "4096+", "1+2", "8*t+4*t",
                          "1e3", "99999999999", "t"})
    EXPECT_FALSE(P(Bad)) << Bad;
  // Stated only for kernels that use dynamic shared memory; the guess that
  // it has none goes.
  KernelProfile K;
  K.Guesses = {"dynamic shared memory size unknown, assumed 0 bytes"};
  stateDynamicShared(K, *P("8*t"));
  EXPECT_EQ(K.Res.DynamicSharedPerThread, 0u);
  K.Res.UsesDynamicShared = true;
  EXPECT_FALSE(K.Res.dynamicSharedKnown());
  stateDynamicShared(K, *P("1024+8*t"));
  EXPECT_TRUE(K.Res.dynamicSharedKnown());
  EXPECT_EQ(K.Res.dynamicSharedBytes(256), 1024u + 8 * 256);
  EXPECT_TRUE(K.Guesses.empty());
}

TEST(KernelProfile, MeanOverFallingBlocks) {
  // m - 1 - 256 b passes in block b (m = 2048): 8 blocks run it.
  auto Triangle = [](uint64_t B) -> std::optional<double> {
    return std::max(0.0, 2047.0 - 256.0 * double(B));
  };
  uint64_t Blocks = 0;
  std::optional<double> T = meanOverFallingBlocks(Triangle, &Blocks);
  ASSERT_TRUE(T.has_value());
  EXPECT_EQ(Blocks, 8u);
  EXPECT_DOUBLE_EQ(*T, 2047.0 - 256.0 * 3.5);
  // Many blocks: 64 of them sampled evenly, the mean still half the first.
  auto Long = [](uint64_t B) -> std::optional<double> {
    return std::max(0.0, 100000.0 - double(B));
  };
  T = meanOverFallingBlocks(Long, &Blocks);
  ASSERT_TRUE(T.has_value());
  EXPECT_EQ(Blocks, 100000u);
  EXPECT_NEAR(*T, 50000.0, 1.0);
  // Rising, never running out, unknown somewhere, none in block 0.
  EXPECT_FALSE(meanOverFallingBlocks(
      [](uint64_t B) -> std::optional<double> { return double(B); }));
  EXPECT_FALSE(meanOverFallingBlocks(
      [](uint64_t) -> std::optional<double> { return 5.0; }));
  EXPECT_FALSE(meanOverFallingBlocks([](uint64_t B) -> std::optional<double> {
    if (B == 4)
      return std::nullopt;
    return std::max(0.0, 100.0 - double(B));
  }));
  EXPECT_FALSE(meanOverFallingBlocks(
      [](uint64_t) -> std::optional<double> { return 0.0; }));
}

TEST(KernelProfile, RareWhenHolds) {
  using T = MagnitudeTest;
  const double Inf = std::numeric_limits<double>::infinity();
  // libdevice's sinf: |x| < 105615 is the fast path, so the test fails on
  // the rare side; `|x| >= 2^31` (double sin) holds there.
  EXPECT_EQ(rareWhenHolds(T::Less, 105615.0), std::optional<bool>(false));
  EXPECT_EQ(rareWhenHolds(T::GreaterEq, 2147483648.0),
            std::optional<bool>(true));
  EXPECT_EQ(rareWhenHolds(T::Greater, 65536.0), std::optional<bool>(true));
  EXPECT_EQ(rareWhenHolds(T::LessEq, 65536.0), std::optional<bool>(false));
  // Infinity: `|x| == inf` is rare, `|x| != inf` fails only there.
  EXPECT_EQ(rareWhenHolds(T::Equal, Inf), std::optional<bool>(true));
  EXPECT_EQ(rareWhenHolds(T::NotEqual, Inf), std::optional<bool>(false));
  // Within the data's range, equality with a finite bound, -inf, NaN and
  // tests that hold always or never: no side is rare.
  EXPECT_EQ(rareWhenHolds(T::GreaterEq, 100.0), std::nullopt);
  EXPECT_EQ(rareWhenHolds(T::Less, 65535.0), std::nullopt);
  EXPECT_EQ(rareWhenHolds(T::Equal, 1e9), std::nullopt);
  EXPECT_EQ(rareWhenHolds(T::Less, -Inf), std::nullopt);
  EXPECT_EQ(rareWhenHolds(T::Less, std::nan("")), std::nullopt);
  EXPECT_EQ(rareWhenHolds(T::Greater, Inf), std::nullopt);
  EXPECT_EQ(rareWhenHolds(T::LessEq, Inf), std::nullopt);
}

// Shrinking thread checks: the warps with a thread on each side, the mean
// over the passes. A tree reduction's `tid < s`, s = 128 .. 1, at 256
// threads: 4, 2, 1, 1, 1, 1, 1, 1 of 8 warps take it, and 4, 6, 7, then
// all 8 have a thread that does not; a check no pass moves is not
// followed, nor one a thread's way is unknown for.
TEST(KernelProfile, WarpSideSharesOfAShrinkingCheck) {
  auto Tree = [](uint64_t Pass, unsigned T) -> std::optional<bool> {
    return T < (128u >> Pass);
  };
  std::optional<BranchSideShares> S = warpSideShares(8, 256, Tree);
  ASSERT_TRUE(S);
  EXPECT_DOUBLE_EQ(S->Taken, 12.0 / 64.0);
  EXPECT_DOUBLE_EQ(S->NotTaken, 57.0 / 64.0);
  EXPECT_FALSE(warpSideShares(
      8, 256, [](uint64_t, unsigned T) -> std::optional<bool> { return T < 64; }));
  EXPECT_FALSE(warpSideShares(
      8, 256, [](uint64_t P, unsigned) -> std::optional<bool> {
        return P ? std::nullopt : std::optional<bool>(true);
      }));
  // Beyond 64 passes, 64 of them evenly: passes 0 and 99 of 100 are
  // sampled, so a check that moves only at the last pass still counts.
  std::optional<BranchSideShares> L = warpSideShares(
      100, 64, [](uint64_t P, unsigned) -> std::optional<bool> { return P == 99; });
  ASSERT_TRUE(L);
  EXPECT_DOUBLE_EQ(L->Taken, 1.0 / 64.0);
}

// A block-stride loop's form (`for (i = tid; i < 1024; i += blockDim.x)`,
// 4-byte elements, unrolled twice: 512 passes of a one-thread block, 8
// bytes per thread a pass, the second copy blockDim.x elements on) at a
// launch's block: its step and passes follow the block, and the share of
// the reference's passes (2 at 256 threads) is that of the elements.
TEST(KernelProfile, FormAtBlockTakesBlockStrideLoopsAtTheBlock) {
  AddrForm F;
  F.Known = true;
  F.Tid = {4, 0, 0};
  F.Ntid = {4, 0, 0};
  F.NumLoops = 1;
  F.LoopTrip = {512, 1, 1, 1};
  F.LoopStep = {8, 0, 0, 0};
  F.LoopPerBlockDim = {1, 0, 0, 0};
  double Share = 0;
  AddrForm A = formAtBlock(F, {128, 1, 1}, &Share);
  EXPECT_EQ(A.Offset, 512);
  EXPECT_EQ(A.Ntid[0], 0);
  EXPECT_EQ(A.LoopStep[0], 1024);
  EXPECT_DOUBLE_EQ(A.LoopTrip[0], 4);
  EXPECT_EQ(A.LoopPerBlockDim[0], 0);
  EXPECT_DOUBLE_EQ(Share, 2.0 / 4.0);
  // A block wider than the range runs a part of a pass.
  AddrForm W = formAtBlock(F, {1024, 1, 1}, &Share);
  EXPECT_DOUBLE_EQ(W.LoopTrip[0], 1);
  EXPECT_DOUBLE_EQ(Share, 2.0 / 0.5);
  // Nothing to take: the same form, a share of 1.
  AddrForm P = F;
  P.Ntid = {0, 0, 0};
  P.LoopPerBlockDim = {0, 0, 0, 0};
  AddrForm Q = formAtBlock(P, {128, 1, 1}, &Share);
  EXPECT_EQ(Q.LoopStep, P.LoopStep);
  EXPECT_EQ(Q.LoopTrip, P.LoopTrip);
  EXPECT_DOUBLE_EQ(Share, 1.0);
}

// A grid-stride loop over the launched threads: its step at the launch's
// grid and block, its passes the elements over them; without a grid, the
// profile's passes.
TEST(KernelProfile, FormAtBlockTakesGridStrideLoopsAtTheLaunch) {
  AddrForm F;
  F.Known = true;
  F.Tid = {4, 0, 0};
  F.Global = {4, 0, 0};
  F.NumLoops = 1;
  F.LoopStep = {4, 0, 0, 0};
  F.LoopTrip = {1 << 20, 1, 1, 1};    // Elements.
  F.LoopRefTrip = {16, 1, 1, 1};      // The profile's passes.
  F.LoopPerGrid = {1 | 8, 0, 0, 0};   // blockDim.x * gridDim.x.
  std::array<unsigned, 3> Grid{128, 1, 1};
  double Share = 0;
  AddrForm A = formAtBlock(F, {256, 1, 1}, &Share, &Grid);
  EXPECT_EQ(A.LoopStep[0], 4 * 256 * 128);
  EXPECT_DOUBLE_EQ(A.LoopTrip[0], 32);
  EXPECT_EQ(A.LoopPerGrid[0], 0);
  EXPECT_DOUBLE_EQ(Share, 16.0 / 32.0);
  AddrForm N = formAtBlock(F, {256, 1, 1}, &Share);
  EXPECT_DOUBLE_EQ(N.LoopTrip[0], 16);
  EXPECT_EQ(N.LoopStep[0], 4 * 65536);
  EXPECT_DOUBLE_EQ(Share, 1.0);
}

// Rows picked by threadIdx.y in blocks of blockDim.y rows, and one row a
// warp: the blockIdx terms follow the block's rows and warps, and the
// warp's lanes and the block's warps are the thread terms.
TEST(KernelProfile, FormAtBlockTakesRowsAndWarpsAtTheBlock) {
  AddrForm F;
  F.Known = true;
  F.Tid = {4, 4096, 0};
  F.Cross[gvCrossSlot(0, 1)] = 4096; // blockIdx.x * blockDim.y
  AddrForm A = formAtBlock(F, {32, 8, 1});
  EXPECT_EQ(A.Ctaid[0], 8 * 4096);
  EXPECT_EQ(A.Cross, (std::array<int64_t, 6>{}));
  EXPECT_EQ(formAtBlock(F, {64, 4, 1}).Ctaid[0], 4 * 4096);

  AddrForm W;
  W.Known = true;
  W.Lane = 4;
  W.Warp = 4096;
  W.CtaidWarps = 4096;
  W.Warps = 8;
  AddrForm B = formAtBlock(W, {256, 1, 1});
  EXPECT_EQ(B.Ctaid[0], 8 * 4096);
  EXPECT_EQ(B.Offset, 8 * 8);
  EXPECT_EQ(B.CtaidWarps, 0);
  EXPECT_EQ(B.Warps, 0);
  auto T = threadTerms(B, {256, 1, 1});
  ASSERT_EQ(T.size(), 2u);
  EXPECT_EQ(T[0], std::make_pair(4.0, 32.0));
  EXPECT_EQ(T[1], std::make_pair(4096.0, 8.0));
  // A block narrower than a warp: its one warp's lanes.
  auto N = threadTerms(formAtBlock(W, {16, 1, 1}), {16, 1, 1});
  ASSERT_EQ(N.size(), 2u);
  EXPECT_EQ(N[0], std::make_pair(4.0, 16.0));
  EXPECT_EQ(N[1], std::make_pair(4096.0, 1.0));
}
