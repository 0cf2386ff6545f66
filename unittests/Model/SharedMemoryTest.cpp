//===- SharedMemoryTest.cpp - Shared-memory wavefronts per block shape ----===//
//
// Figures worked by hand from the bank rule (32 banks of 4 bytes; distinct
// words in one bank serialise, lanes reading one word share it; 8- and
// 16-byte accesses in passes of 16 and 8 lanes).
//
//===----------------------------------------------------------------------===//
#include "flipflop/Model/SharedMemory.h"
#include "gtest/gtest.h"

using namespace flipflop;

namespace {

KernelProfile oneSharedLoad(unsigned Bytes, int64_t Stride, unsigned Dims) {
  KernelProfile K;
  MemAccess A;
  A.Space = AddrSpace::Shared;
  A.Bytes = Bytes;
  A.Count = 1;
  A.StrideBytes = Stride;
  A.Pattern = Stride == int64_t(Bytes) ? AccessPattern::Coalesced
                                       : AccessPattern::Strided;
  A.ThreadDims = Dims;
  A.ThreadDimsKnown = true;
  K.Accesses.push_back(A);
  return K;
}

TEST(SharedMemory, RowsOfAWarpShareWords) {
  // A float8 per lane read as scalars: lane stride 32 B = 8 words, so the
  // lanes fall on banks 0, 8, 16, 24 only.
  KernelProfile K = oneSharedLoad(4, 32, /*x only*/ 1);
  // 32 distinct lanes on 4 banks: 8 ways.
  EXPECT_EQ(sharedWork(K, {32, 1, 1}).Wavefronts, 8);
  // 16 x 8 block: lanes 16-31 are row 1 and read row 0's words: 4 ways.
  EXPECT_EQ(sharedWork(K, {16, 8, 1}).Wavefronts, 4);
  // 8 x 16: 8 distinct words, 2 per bank.
  EXPECT_EQ(sharedWork(K, {8, 16, 1}).Wavefronts, 2);
  // When the address also depends on threadIdx.y, rows continue the index:
  // 32 distinct lanes again.
  K.Accesses[0].ThreadDims = 3;
  EXPECT_EQ(sharedWork(K, {16, 8, 1}).Wavefronts, 8);
  // A front end that does not say which dimensions: every lane distinct.
  K.Accesses[0].ThreadDimsKnown = false;
  K.Accesses[0].ThreadDims = 0;
  EXPECT_EQ(sharedWork(K, {16, 8, 1}).Wavefronts, 8);
}

TEST(SharedMemory, RowPitchOfATile) {
  // sh[threadIdx.y][threadIdx.x] with rows of 30 floats (120 B): a 16 x 8
  // block's warp holds rows 0 and 1, row 1 on banks 30, 31, 0..13, 14 of
  // them row 0's: 2 ways. Without the pitch, rows continue the index.
  KernelProfile K = oneSharedLoad(4, 4, 3);
  EXPECT_EQ(sharedWork(K, {16, 8, 1}).Wavefronts, 1);
  K.Accesses[0].RowStepBytes = {120, 0};
  K.Accesses[0].RowStepsKnown = true;
  EXPECT_EQ(sharedWork(K, {16, 8, 1}).Wavefronts, 2);
  // Padded to 48 floats: row 1 on banks 16..31, no conflict.
  K.Accesses[0].RowStepBytes = {192, 0};
  EXPECT_EQ(sharedWork(K, {16, 8, 1}).Wavefronts, 1);
  // Rows of 32 floats read by 8-wide blocks: four rows on banks 0..7.
  K.Accesses[0].RowStepBytes = {128, 0};
  EXPECT_EQ(sharedWork(K, {8, 16, 1}).Wavefronts, 4);
  // A warp within one row (32 wide) never sees the pitch.
  EXPECT_EQ(sharedWork(K, {32, 4, 1}).Wavefronts, 1);
  // sh[threadIdx.y][k]: one word per row, broadcast within it; rows of 32
  // floats put the warp's two rows (16-wide blocks) in one bank.
  KernelProfile U = oneSharedLoad(4, 0, 2);
  U.Accesses[0].Pattern = AccessPattern::Uniform;
  EXPECT_EQ(sharedWork(U, {16, 16, 1}).Wavefronts, 1);
  U.Accesses[0].RowStepBytes = {128, 0};
  U.Accesses[0].RowStepsKnown = true;
  EXPECT_EQ(sharedWork(U, {16, 16, 1}).Wavefronts, 2);
  EXPECT_EQ(sharedWork(U, {32, 16, 1}).Wavefronts, 1);
  // Rows 132 B apart: different banks, one wavefront.
  U.Accesses[0].RowStepBytes = {132, 0};
  EXPECT_EQ(sharedWork(U, {16, 16, 1}).Wavefronts, 1);
}

TEST(SharedMemory, WideAccessesArePasses) {
  // float4, consecutive: 4 passes of 8 lanes x 16 B, no conflict.
  EXPECT_EQ(sharedWork(oneSharedLoad(16, 16, 1), {256, 1, 1}).Wavefronts, 4);
  // float4 at a 32-byte stride: a pass of 8 lanes spans 256 B, lanes i and
  // i + 4 share banks: 2 ways per pass.
  EXPECT_EQ(sharedWork(oneSharedLoad(16, 32, 1), {256, 1, 1}).Wavefronts, 8);
  // float2, consecutive: 2 passes.
  EXPECT_EQ(sharedWork(oneSharedLoad(8, 8, 1), {256, 1, 1}).Wavefronts, 2);
}

TEST(SharedMemory, RowsOfATile) {
  // tile[t / 8][t % 8] of float4 with rows of 8 x 16 B = 128 B: every pass
  // of 8 lanes is one row, 32 distinct banks: 4 passes, no conflict.
  KernelProfile K = oneSharedLoad(16, 16, 3);
  K.Accesses[0].LaneMod = 8;
  K.Accesses[0].LaneDivStrideBytes = 128;
  EXPECT_EQ(sharedWork(K, {16, 8, 1}).Wavefronts, 4);
  // Rows padded to 512 B with 2 lanes each: a pass holds 4 rows whose
  // words fall on the same 8 banks: 4 ways per pass.
  K.Accesses[0].LaneMod = 2;
  K.Accesses[0].LaneDivStrideBytes = 512;
  EXPECT_EQ(sharedWork(K, {16, 8, 1}).Wavefronts, 16);
  // Only the row index (t / 8, a float per row of 8 lanes): 4 distinct
  // words on 4 banks per warp, one wavefront.
  KernelProfile R = oneSharedLoad(4, 0, 3);
  R.Accesses[0].LaneMod = 8;
  R.Accesses[0].LaneDivStrideBytes = 4;
  EXPECT_EQ(sharedWork(R, {16, 8, 1}).Wavefronts, 1);
}

TEST(SharedMemory, BroadcastAndWeights) {
  KernelProfile K = oneSharedLoad(4, 0, 0);
  K.Accesses[0].Pattern = AccessPattern::Uniform;
  K.Accesses[0].Count = 10;
  // One wavefront per instruction, whatever the shape.
  EXPECT_EQ(sharedWork(K, {32, 1, 1}).Wavefronts, 10);
  EXPECT_EQ(sharedWork(K, {4, 64, 1}).Wavefronts, 10);
  // A column walk (stride 128 B): all lanes in bank 0, 32 ways; a warp of
  // a 4-thread block has 4 lanes.
  KernelProfile C = oneSharedLoad(4, 128, 1);
  EXPECT_EQ(sharedWork(C, {32, 1, 1}).Wavefronts, 32);
  EXPECT_EQ(sharedWork(C, {4, 1, 1}).Wavefronts, 4);
  // No shared access: nothing, and the model falls back to the profile.
  KernelProfile None;
  EXPECT_FALSE(sharedWork(None, {32, 1, 1}).Any);
}

} // namespace

TEST(SharedMemory, AccessesBehindTheirOwnChecks) {
  // A tree's last step, behind `threadIdx.x < 2` (one guard: tid.x - 2 < 0),
  // at a 128-byte stride (32-way with 32 lanes), and a coalesced access
  // before every check, in a 256-thread block whose mean share of threads
  // past the checks (activeFraction) is 0.5.
  KernelProfile K = oneSharedLoad(4, 128, 1);
  AffineGuard G;
  G.Coef[GVTid] = 1;
  G.Const = -2;
  K.Guards.push_back(G);
  K.Accesses[0].Guards = {0};
  K.Accesses.push_back(oneSharedLoad(4, 4, 1).Accesses[0]);
  // The mean: 32 + 1 wavefronts a warp, which the work scale then halves.
  EXPECT_EQ(sharedWork(K, {256, 1, 1}).Wavefronts, 33);
  SharedChecks C;
  C.PerAccess = true;
  C.ActiveFraction = 0.5;
  C.Grid = {64, 1, 1};
  // Per access: two lanes of warp 0 on one bank, 2 wavefronts over the
  // block's 8 warps; the coalesced access on every warp; each over the
  // share the scale takes: (2 / 8 + 1) / 0.5.
  EXPECT_DOUBLE_EQ(sharedWork(K, {256, 1, 1}, C).Wavefronts, 2.5);
  // A check on the block index is no lane mask: its own share of threads.
  K.Guards[0].Coef[GVTid] = 0;
  K.Guards[0].Coef[GVCtaid] = 1;
  K.Guards[0].Const = -16; // blocks 0-15 of 64 pass
  EXPECT_DOUBLE_EQ(sharedWork(K, {256, 1, 1}, C).Wavefronts,
                   (32 * 0.25 + 1) / 0.5);
}
