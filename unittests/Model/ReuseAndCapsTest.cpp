//===- ReuseAndCapsTest.cpp - Inter-block reuse and ptxas cap facts -------===//
#include "ModelTestUtil.h"

#include "flipflop/Model/Model.h"
#include "gtest/gtest.h"

using namespace flipflop;
using namespace flipflop::test;

namespace {

/// A global load of \p Count executions per thread whose address form has
/// thread terms \p Tid, block terms \p Ctaid and one loop of \p Trip
/// passes \p Step bytes apart (loop id 1), of array \p Array; it depends
/// on the thread and block indices of \p Dims.
MemAccess formLoad(double Count, unsigned Dims, std::array<int64_t, 3> Tid,
                   std::array<int64_t, 3> Ctaid, double Trip, int64_t Step,
                   unsigned Array) {
  MemAccess A = globalAccess(false, 4, Count);
  A.ThreadDims = Dims;
  A.ThreadDimsKnown = true;
  A.BlockDims = Dims;
  A.Form.Known = true;
  A.Form.Tid = Tid;
  A.Form.Ctaid = Ctaid;
  A.Form.NumLoops = 1;
  A.Form.LoopTrip = {Trip, 1, 1, 1};
  A.Form.LoopStep = {Step, 0, 0, 0};
  A.Form.LoopId = {1, 0, 0, 0};
  A.Form.Array = Array;
  return A;
}

/// The sweep of the Rereads tests: `for r < 4: for c < 256: in[c * 100000 +
/// blockIdx.x * 32 + threadIdx.x + r * OuterStep / 4]`, 1024 loads.
MemAccess sweepLoad(int64_t OuterStep = 0) {
  MemAccess A = formLoad(1024, 1, {4, 0, 0}, {128, 0, 0}, 256, 400000, 7);
  A.Form.NumLoops = 2;
  A.Form.LoopTrip = {256, 4, 1, 1};
  A.Form.LoopStep = {400000, OuterStep, 0, 0};
  return A;
}

/// A kernel of these loads, each with its form (the PTX front end's).
KernelProfile formKernel(const char *Name, std::vector<MemAccess> Loads) {
  KernelProfile K;
  K.Name = Name;
  K.Accesses = Loads;
  K.FormLoads = std::move(Loads);
  return K;
}

// A load that other blocks also read moves (1 - hit rate) of its sectors
// from DRAM; the rest hits in L2. With the copy kernel's load marked reused,
// DRAM bytes per thread fall from 4 (load) + 4 (store) = 8 to
// 4 * (1 - 0.9) + 4 = 4.4, while L2 bytes stay 8.
TEST(InterBlockReuse, DramBytesScaleByMissRate) {
  GPUSpec G = handGPU();
  KernelProfile Plain = copyKernel();
  KernelProfile Reused = copyKernel();
  Reused.Accesses[0].ReusedAcrossBlocks = true;
  LaunchConfig C;
  C.Block = {256, 1, 1};
  C.TotalThreads = 1 << 20;
  Prediction P0 = predict(Plain, G, C);
  Prediction P1 = predict(Reused, G, C);
  ASSERT_TRUE(P0.Valid && P1.Valid);
  double Threads = double(C.TotalThreads);
  EXPECT_NEAR(P0.DramBytes / Threads, 8.0, 1e-9);
  EXPECT_NEAR(P1.DramBytes / Threads, 4.4, 1e-9);
  EXPECT_NEAR(P1.L2Bytes / Threads, 8.0, 1e-9);
  // Less DRAM traffic is never slower.
  EXPECT_LE(P1.TimeS, P0.TimeS);
}

// A gather from a 128-byte table (libdevice's cos coefficients indexed by
// the quadrant): no request touches more than its 4 sectors, a block reads
// it from L2 once, and the L2 keeps it for every block (docs/MODEL.md,
// "Small tables"). Unknown, the same gather moves a sector a lane from DRAM.
TEST(SmallTables, AGatherFromATableStaysOnChip) {
  KernelProfile Plain = copyKernel();
  MemAccess Gather = globalAccess(false, 16, 1, AccessPattern::Unknown);
  Gather.SectorsPerRequest = 32;
  Gather.BlockDims = 1u | AddrDependsOnData;
  Gather.ThreadDims = 1;
  Gather.ThreadDimsKnown = true;
  Plain.Accesses.push_back(Gather);
  Plain.op(OpClass::LoadGlobal) += 1;
  finalizeProfile(Plain);
  KernelProfile Table = Plain;
  Table.Accesses.back().FootprintBytes = 128;
  finalizeProfile(Table);
  LaunchConfig C;
  C.Block = {256, 1, 1};
  C.TotalThreads = 1 << 20;
  GPUSpec G = handGPU();
  Prediction P0 = predict(Plain, G, C), P1 = predict(Table, G, C);
  ASSERT_TRUE(P0.Valid && P1.Valid);
  double Threads = double(C.TotalThreads);
  // Copy: 8 bytes a thread; the gather 32 more, or 128 / 256 = 0.5 from L2
  // of which 10% from DRAM.
  EXPECT_NEAR(P0.DramBytes / Threads, 40.0, 1e-9);
  EXPECT_NEAR(P1.L2Bytes / Threads, 8.5, 1e-9);
  EXPECT_NEAR(P1.DramBytes / Threads, 8.05, 1e-9);
  EXPECT_LT(P1.TimeS, P0.TimeS);
  // A table past SmallTableBytes keeps only the sector bound: 32 -> 32.
  Table.Accesses.back().FootprintBytes = 1 << 20;
  finalizeProfile(Table);
  Prediction P2 = predict(Table, G, C);
  EXPECT_NEAR(P2.DramBytes / Threads, 40.0, 1e-9);
}

// The latency path's DRAM round trips are the waited-for accesses' own:
// a load that other blocks read too (90% L2 hits) is as slow to wait for
// whether the kernel's stores are one coalesced word or eight words a
// sector apart per lane. Before session 20 the share was DRAM over L2
// bytes with the stores' in both: 4.4 / 8 against 32.4 / 36.
TEST(LatencyPath, StoresDoNotDelayLoads) {
  GPUSpec G = handGPU();
  KernelProfile One = copyKernel();
  One.Accesses[0].ReusedAcrossBlocks = true;
  KernelProfile Wide = One;
  Wide.Accesses[1].Pattern = AccessPattern::Strided;
  Wide.Accesses[1].StrideBytes = 32; // 32 sectors per request.
  Wide.Accesses[1].SectorsPerRequest = 0;
  finalizeProfile(Wide);
  LaunchConfig C;
  C.Block = {256, 1, 1};
  C.TotalThreads = 1 << 20;
  Prediction P0 = predict(One, G, C), P1 = predict(Wide, G, C);
  ASSERT_TRUE(P0.Valid && P1.Valid);
  EXPECT_GT(P1.DramBytes, 4 * P0.DramBytes);
  EXPECT_NEAR(P1.TLatencyS, P0.TLatencyS, 1e-12);
}

// A lane that walks its own run (a thread's row of a dense matrix-vector
// product, lanes 32 KB apart; a CSR row) moves 4 bytes a pass: its sector
// holds the next 7 passes' elements, which the L1 serves. The passes move
// each lane's run once (an eighth of the sectors charged one per pass),
// and those L1 hits are an L1's round trips on the latency path, not
// DRAM's (session 46: a latency-bound mv_dense had grown 1317 -> 1514 us
// when only the bytes fell).
TEST(LaneWalks, PassesMoveEachLanesRunOnceAndHitInL1) {
  GPUSpec G = handGPU();
  KernelProfile Row;
  MemAccess A = globalAccess(false, 4, 64, AccessPattern::Strided);
  A.StrideBytes = 32768;
  A.ThreadDims = 1;
  A.ThreadDimsKnown = true;
  A.BlockDims = 1;
  Row.Accesses.push_back(A);
  Row.op(OpClass::LoadGlobal) = 64;
  Row.op(OpClass::FP32) = 64;
  finalizeProfile(Row);
  KernelProfile Walk = Row;
  Walk.Accesses[0].InnerLoopStep = 4;
  Walk.Accesses[0].InnerLoopTrip = 64;
  finalizeProfile(Walk);
  LaunchConfig C;
  C.Block = {256, 1, 1};
  C.TotalThreads = 8192;
  Prediction P0 = predict(Row, G, C), P1 = predict(Walk, G, C);
  ASSERT_TRUE(P0.Valid && P1.Valid);
  // 64 sectors a lane one pass at a time; 8 when the passes walk them.
  EXPECT_NEAR(P0.L2Bytes / 8192, 64 * 32, 1e-6);
  EXPECT_NEAR(P1.L2Bytes / 8192, 8 * 32, 1e-6);
  EXPECT_LT(P1.TLatencyS, 0.5 * P0.TLatencyS);
  // A step of a sector or more walks no run.
  Walk.Accesses[0].InnerLoopStep = 32;
  Prediction P2 = predict(Walk, G, C);
  EXPECT_NEAR(P2.L2Bytes, P0.L2Bytes, 1e-6 * P0.L2Bytes);
}

// Stores of one array and form write whole sectors between them: a
// thread's eight outputs `out[t * 8 + i]` (lanes 32 bytes apart, each
// store 32 sectors per request) are charged 32 bytes each one by one, 256
// per thread, but the block's eight stores fill 256 threads x 32 bytes:
// 32 bytes per thread go to DRAM (and the load's 4).
TEST(OverlapDram, StoresWriteTheirSectorsOnce) {
  GPUSpec G = handGPU();
  KernelProfile K;
  K.Name = "eight";
  MemAccess L = formLoad(1, 1, {4, 0, 0}, {1024, 0, 0}, 1, 0, 1);
  L.Form.NumLoops = 0;
  K.Accesses = {L};
  for (int64_t I = 0; I < 8; ++I) {
    MemAccess S = formLoad(1, 1, {32, 0, 0}, {8192, 0, 0}, 1, 0, 2);
    S.IsStore = true;
    S.Form.NumLoops = 0;
    S.Form.Offset = 4 * I;
    S.Pattern = AccessPattern::Strided;
    S.StrideBytes = 32;
    K.Accesses.push_back(S);
  }
  K.op(OpClass::LoadGlobal) = 1;
  K.op(OpClass::StoreGlobal) = 8;
  finalizeProfile(K);
  LaunchConfig C;
  C.Block = {256, 1, 1};
  C.Grid = {4096, 1, 1};
  C.TotalThreads = 256 * 4096;
  Prediction P = predict(K, G, C);
  ASSERT_TRUE(P.Valid);
  EXPECT_NEAR(P.DramBytes / double(C.TotalThreads), 36.0, 1e-6);
  // The plugin's route: the IR's accesses carry no forms, the PTX's
  // stores come as FormStores.
  KernelProfile Plugin = K;
  for (MemAccess &A : Plugin.Accesses)
    A.Form.Known = false;
  collectFormLoads(K);
  Plugin.FormLoads = K.FormLoads;
  Plugin.FormStores = K.FormStores;
  ASSERT_EQ(Plugin.FormStores.size(), 8u);
  Prediction Q = predict(Plugin, G, C);
  ASSERT_TRUE(Q.Valid);
  EXPECT_NEAR(Q.DramBytes / double(C.TotalThreads), 36.0, 1e-6);
}

// A block of 32 threads sweeps 256 rows of 128 bytes (4 per thread, row
// pitch 400000) and sweeps them again: `for r < 4: for c < 256: in[c *
// 100000 + blockIdx.x * 32 + threadIdx.x]`. The hand GPU runs 32 blocks of
// one warp per SM (320 resident, 40 KB of every row between them: 10 MB
// between two sweeps). With a 64 MB L2 every re-read hits: one sweep,
// 1024 bytes per thread, from DRAM (the block's own re-reads; since
// session 19, before which all four sweeps were charged and the misses
// added on top). With a 2 MB one a share 1 - 2/10 of the re-reads miss:
// 3/4 of the sweeps are re-reads, so DRAM bytes per thread grow by 4 *
// 1024 * 3/4 * 0.8 = 2457.6; an L2 of two partitions (GA100) holds such
// data once in each. Two copies of the sweep (an unrolled outer loop) are
// one re-read of each other, with the footprint counted once.
TEST(Rereads, MissesWhenTheSweepExceedsTheL2) {
  GPUSpec G = handGPU();
  KernelProfile K;
  K.Name = "sweep";
  MemAccess A = formLoad(1024, 1, {4, 0, 0}, {128, 0, 0}, 256, 400000, 7);
  A.Form.NumLoops = 2;
  A.Form.LoopTrip = {256, 4, 1, 1};
  K.Accesses = {A};
  K.FormLoads = {A};
  LaunchConfig C;
  C.Block = {32, 1, 1};
  C.Grid = {3125, 1, 1}; // The blocks cover one row pitch.
  auto Dram = [&](const KernelProfile &P, double L2KB, unsigned Parts = 1) {
    GPUSpec H = G;
    H.L2SizeKB = L2KB;
    H.L2Partitions = Parts;
    Prediction R = predict(P, H, C);
    EXPECT_TRUE(R.Valid);
    return R.DramBytes / (32.0 * 3125);
  };
  double Fits = Dram(K, 65536), Spills = Dram(K, 2048);
  EXPECT_NEAR(Fits, 1024, 1e-6);
  EXPECT_NEAR(Spills - Fits, 2457.6, 1e-6);
  // Two partitions that each hold what every block reads: 4 MB hold what
  // one 2 MB L2 holds.
  EXPECT_NEAR(Dram(K, 4096, 2), Spills, 1e-6);
  // No outer loop: nothing is read again.
  KernelProfile Once = K;
  Once.FormLoads[0].Form.NumLoops = 1;
  EXPECT_NEAR(Dram(Once, 2048), Fits, 1e-6);
  // The outer loop unrolled into two copies of 2048 reads each (half the
  // sweeps each): the second copy re-reads the first's data; the outer
  // loop of 2 re-reads both. Footprint: 10 MB once, not twice.
  KernelProfile Copies = K;
  MemAccess H = A;
  H.Count = 512;
  H.Form.LoopTrip = {256, 2, 1, 1};
  H.Form.LoopId = {2, 0, 0, 0};
  MemAccess H2 = H;
  H2.Form.LoopId = {3, 0, 0, 0};
  Copies.Accesses = {H, H2};
  Copies.FormLoads = {H, H2};
  EXPECT_NEAR(Dram(Copies, 65536), 1024, 1e-6);
  EXPECT_NEAR(Dram(Copies, 2048) - 1024, 2457.6, 1e-6);
}

// The sweep above with its outer loop stepping one float (`for t < 4: for
// c < 256: in[c * 100000 + blockIdx.x * 32 + threadIdx.x + t]`), as nvcc
// keeps it (one load, loops 256 x 4) and as clang writes it when it
// unrolls the tile loop whole (four loads at +0, +4, +8, +12, each in a
// channel loop of its own). Both read the same bytes in the same order:
// the copies are the loop's re-reads (before session 22 they were not:
// no DRAM re-reads at all for clang's code). Each sweep's 128-byte runs
// shift by 12 bytes over the four, within 160 bytes: 4 x 128 / 160 = 3.2
// reads of each sector.
TEST(Rereads, CopiesOfAnUnrolledTileLoopAreItsRereads) {
  GPUSpec G = handGPU();
  KernelProfile Loop = formKernel("tiles", {sweepLoad(4)});
  std::vector<MemAccess> Copies;
  for (unsigned T = 0; T < 4; ++T) {
    MemAccess U = formLoad(256, 1, {4, 0, 0}, {128, 0, 0}, 256, 400000, 7);
    U.Form.Offset = 4 * T;
    U.Form.LoopId = {2 + T, 0, 0, 0};
    Copies.push_back(U);
  }
  KernelProfile Unrolled = formKernel("tiles", Copies);
  LaunchConfig C;
  C.Block = {32, 1, 1};
  C.Grid = {3125, 1, 1};
  auto Dram = [&](const KernelProfile &P, double L2KB) {
    GPUSpec H = G;
    H.L2SizeKB = L2KB;
    Prediction R = predict(P, H, C);
    EXPECT_TRUE(R.Valid);
    return R.DramBytes / (32.0 * 3125);
  };
  double LoopFits = Dram(Loop, 65536), LoopSpills = Dram(Loop, 2048);
  // At least the re-reads: 2.2 / 3.2 of the 4096 bytes, 1 - 2 MB / 10 MB
  // of them missing (the runs shifted 12 bytes also meet the next block's,
  // whose reads miss too: "Overlapping footprints").
  EXPECT_GE(LoopSpills - LoopFits, 4096 * 2.2 / 3.2 * 0.8 - 1e-6);
  EXPECT_NEAR(Dram(Unrolled, 65536), LoopFits, 1e-6);
  // (The copies' data between two reads holds their 12 bytes of shift.)
  EXPECT_NEAR(Dram(Unrolled, 2048), LoopSpills, 1e-3 * LoopSpills);
  // Loads of one loop body at such offsets are not re-reads of each other
  // (the L1 serves them as siblings): one channel loop holding all four,
  // inside an outer loop of 4 that sweeps again. Each load's traffic is
  // then re-read 3 of 4 times by the outer loop (and neighbours' overlap
  // adds misses); merged as copies, the outer loop's share would fall to
  // 3 / (4 x 3.2) and the total below that bound.
  std::vector<MemAccess> Taps;
  for (unsigned T = 0; T < 4; ++T) {
    MemAccess U = sweepLoad();
    U.Count = 1024;
    U.Form.Offset = 4 * T;
    U.Form.LoopId = {2, 9, 0, 0};
    Taps.push_back(U);
  }
  KernelProfile Body = formKernel("taps", Taps);
  GPUSpec H = G;
  H.L2SizeKB = 2048;
  Prediction Small = predict(Body, H, C);
  ASSERT_TRUE(Small.Valid);
  double BodyL2 = Small.L2Bytes / (32.0 * 3125);
  double Miss = 1 - 2048.0 * 1024 / (256 * (320 * 128.0 + 32));
  EXPECT_GE(Dram(Body, 2048) - Dram(Body, 65536),
            BodyL2 * 0.75 * Miss - 1e-6);
}

// A loop that steps a warp-uniform table 16 bytes a pass (clang's channel
// loop unrolled by 4 reading `shifts[c]`) reads each 32-byte sector twice,
// not once per pass: of the 4 x 2 reads of each sector by an outer loop
// of 4 that sweeps the table again, 3 / 8 of the table's traffic are the
// outer loop's re-reads; stepping 32 bytes (nvcc's unroll by 8) each pass
// reads sectors of its own and 3 / 4 are; stepping 0 (one entry read
// again), 3 / (4 x 256). Alongside the sweep of the first test (10 MB
// between two sweeps, a 2 MB L2) the same share of those re-reads misses.
// Before session 22 a step of 16 counted like a step of 0.
TEST(Rereads, ATableSteppedWithinASectorIsReadTwicePerSector) {
  GPUSpec G = handGPU();
  G.L2SizeKB = 2048;
  KernelProfile Sweep = formKernel("table", {sweepLoad()});
  LaunchConfig C;
  C.Block = {32, 1, 1};
  C.Grid = {3125, 1, 1};
  Prediction S = predict(Sweep, G, C);
  ASSERT_TRUE(S.Valid);
  // DRAM bytes the table adds with the table stepped \p Step a pass.
  auto Extra = [&](int64_t Step) {
    MemAccess T = formLoad(1024, 0, {0, 0, 0}, {0, 0, 0}, 256, Step, 8);
    T.Pattern = AccessPattern::Uniform;
    T.StrideBytes = 0;
    T.Form.NumLoops = 2;
    T.Form.LoopTrip = {256, 4, 1, 1};
    KernelProfile Both = Sweep;
    Both.Accesses.push_back(T);
    Both.FormLoads.push_back(T);
    Prediction B = predict(Both, G, C);
    EXPECT_TRUE(B.Valid);
    return (B.DramBytes - S.DramBytes) / (32.0 * 3125);
  };
  double Own = Extra(32);
  ASSERT_GT(Own, 100);
  EXPECT_NEAR(Extra(16), Own / 2, 1e-3 * Own);
  EXPECT_NEAR(Extra(0), Own / 256, 1e-3 * Own);
}

// A direct 2-D filter, 15 rows by 15 taps, on rows of 1038 floats: `for i
// < 15: in[(by * 4 + ty + i) * 1038 + bx * 32 + tx + j]`, j = 0..14
// unrolled (offsets 0..56), blocks of 32 x 4. Each load alone moves its
// warp's run, shared by the taps (the union, 6 sectors, over the sum of
// their own, 2 x 4 + 13 x 5), 15 x 15 loads per thread. The rows of the
// window, of the block's threads and of the next block down are one set
// of rows: with the L2 holding them between a block's read and the next
// row of blocks', each byte of the input (1038 floats by 4 x 64 + 14
// rows) comes from DRAM once, over the 32 x 4 x 32 x 64 threads. With an
// L2 too small for a row of blocks, each block's own window (18 rows of
// 32 + 14 floats, 6 sectors each) comes from DRAM.
TEST(OverlapDram, NeighboursReadTheWindowOnce) {
  GPUSpec G = handGPU();
  KernelProfile K;
  K.Name = "filter";
  for (int J = 0; J < 15; ++J) {
    MemAccess A =
        formLoad(15, 3, {4, 4152, 0}, {128, 4 * 4152, 0}, 15, 4152, 3);
    A.Form.Offset = 4 * J;
    K.Accesses.push_back(A);
  }
  K.FormLoads = K.Accesses;
  LaunchConfig C;
  C.Block = {32, 4, 1};
  C.Grid = {32, 64, 1};
  double Threads = 32.0 * 4 * 32 * 64;
  auto Dram = [&](double L2KB) {
    GPUSpec H = G;
    H.L2SizeKB = L2KB;
    Prediction R = predict(K, H, C);
    EXPECT_TRUE(R.Valid);
    return R.DramBytes / Threads;
  };
  KernelProfile Alone = K; // No forms: each load alone (sibling keys).
  for (MemAccess &A : Alone.Accesses) {
    A.Form.Known = false;
    A.BaseId = 5;
    A.Offset = A.Form.Offset;
  }
  Alone.FormLoads.clear();
  Prediction P = predict(Alone, G, C);
  ASSERT_TRUE(P.Valid);
  EXPECT_NEAR(P.DramBytes / Threads, 225 * 4 * 6.0 / 73, 1e-6);
  double Input = std::ceil(1038 * 4 * (4 * 64 + 14) / 32.0) * 32;
  EXPECT_NEAR(Dram(65536), Input / Threads, 1e-6);
  // Nearly every neighbour's read misses a 1 KB L2.
  EXPECT_NEAR(Dram(1), 18 * 6 * 32 / 128.0, 0.1);
}

// A 3-point stencil down the rows of a 32 x 8 block (rows of 16384
// bytes): each warp reads its row and the rows above and below, 3 x 4
// bytes per thread from L2 one load at a time, but the block's warps read
// each other's rows, and the L1 holds the block's 10 rows of 128 bytes:
// 1280 / 256 = 5 bytes per thread from L2, plus the store's 4. Walking the
// column in a loop of 1000 passes 8 rows apart, the block's footprint
// (8002 rows, 1 MB) outgrows its share of the L1 and nearly every row
// above or below misses it again (session 20).
TEST(OverlapDram, BlockRowsHitInL1) {
  GPUSpec G = handGPU();
  auto Stencil = [](double Trip) {
    KernelProfile K;
    K.Name = "stencil";
    for (int64_t Row : {-1, 0, 1}) {
      MemAccess A = formLoad(Trip, 3, {4, 16384, 0}, {128, 8 * 16384, 0},
                             Trip, 8 * 16384, 4);
      A.Form.Offset = Row * 16384;
      K.Accesses.push_back(A);
    }
    K.Accesses.push_back(globalAccess(true, 4, 1));
    K.op(OpClass::LoadGlobal) = 3 * Trip;
    K.op(OpClass::StoreGlobal) = 1;
    finalizeProfile(K);
    return K;
  };
  LaunchConfig C;
  C.Block = {32, 8, 1};
  C.Grid = {128, 64, 1};
  double Threads = 256.0 * 128 * 64;
  Prediction P = predict(Stencil(1), G, C);
  ASSERT_TRUE(P.Valid);
  EXPECT_NEAR(P.L2Bytes / Threads, 5 + 4, 1e-6);
  Prediction Q = predict(Stencil(1000), G, C);
  ASSERT_TRUE(Q.Valid);
  double Charged = 3 * 4 * 1000 + 4, Union = (8 * 1000 + 2) * 128 / 256.0 + 4;
  EXPECT_LT(Q.L2Bytes / Threads, Charged);
  EXPECT_GT(Q.L2Bytes / Threads, Union + 0.9 * (Charged - Union));
}

// A softmax's row, 1024 floats a block, read in three loops stepped by
// blockDim.x (`for (i = tid; i < 1024; i += blockDim.x)`) and written in
// the third: at the profile's reference block (256 x 1 x 1) each load runs
// 4 passes. The forms' block-stride loops (1024 elements, 4 bytes per
// thread) are taken at each launch's block, so the three loads are read
// from DRAM once at every block, as the copy of the same rows is.
TEST(OverlapDram, BlockStrideLoopsReadTheRowOnce) {
  GPUSpec G = handGPU();
  auto Rows = [](unsigned Reads) {
    KernelProfile K;
    K.Name = "rows";
    for (unsigned R = 0; R <= Reads; ++R) {
      bool Store = R == Reads;
      MemAccess A = formLoad(4, 1, {4, 0, 0}, {4096, 0, 0}, 1024, 4, 9);
      A.IsStore = Store;
      A.Form.Array = Store ? 10 : 9;
      A.Form.LoopPerBlockDim = {1, 0, 0, 0};
      A.Form.LoopId = {R + 1, 0, 0, 0};
      K.Accesses.push_back(A);
    }
    K.op(OpClass::LoadGlobal) = 4.0 * Reads;
    K.op(OpClass::StoreGlobal) = 4;
    LoopRecord L;
    L.Trip = 4;
    L.DependsOnBlockDim = true;
    L.BlockStrideDims = 1;
    K.Loops.assign(Reads + 1, L);
    K.Shape.WorkScalesWithBlock = true;
    finalizeProfile(K);
    return K;
  };
  for (unsigned B : {64u, 256u, 1024u}) {
    LaunchConfig C;
    C.Block = {B, 1, 1};
    C.Grid = {4096, 1, 1};
    Prediction Copy = predict(Rows(1), G, C), Softmax = predict(Rows(3), G, C);
    ASSERT_TRUE(Copy.Valid && Softmax.Valid);
    // 4096 rows of 4 KB, read once and written once.
    EXPECT_NEAR(Copy.DramBytes, 4096.0 * 4096 * 2, 4096.0 * 4096 * 0.02) << B;
    EXPECT_NEAR(Softmax.DramBytes, Copy.DramBytes, Copy.DramBytes * 0.02) << B;
  }
}

/// 256 threads with min-blocks 4: a cap of 64 registers.
static LaunchConfig cappedAt64() {
  LaunchConfig C;
  C.Block = {256, 1, 1};
  C.MinBlocksPerSM = 4;
  C.TotalThreads = 1 << 20;
  return C;
}

// A register cap below the kernel's need: without ptxas facts the model
// estimates spills; with a ptxas fact saying the cap spills nothing, there
// is no spill traffic at all; with a fact of 64 spill bytes per pass the
// traffic is that fact's.
TEST(CapFacts, PtxasFactReplacesSpillEstimate) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(1000);
  K.Res.Registers = 128; // Needs 128; min-blocks 4 of 256 threads caps at 64.
  LaunchConfig C = cappedAt64();
  Prediction Est = predict(K, G, C);
  ASSERT_TRUE(Est.Valid);
  ASSERT_EQ(Est.RegsPerThread, 64u);
  EXPECT_GT(Est.SpillBytesPerThread, 0);

  K.CapFacts.push_back({64, 64, 0, 0});
  Prediction NoSpill = predict(K, G, C);
  EXPECT_EQ(NoSpill.SpillBytesPerThread, 0);
  EXPECT_LE(NoSpill.TimeS, Est.TimeS);

  K.CapFacts[0].SpillStoreBytes = 32;
  K.CapFacts[0].SpillLoadBytes = 32;
  Prediction Spill = predict(K, G, C);
  // 64 bytes of spill traffic per pass, no loops: 16 accesses of 4 bytes.
  EXPECT_NEAR(Spill.SpillBytesPerThread, 64.0, 1e-9);
}

// Under a cap, the compile under that cap replaces the uncapped one: its
// spill bytes are all the spill traffic, not an addition to the kernel's
// own.
TEST(CapFacts, CapCompileReplacesTheUncappedSpills) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(1000);
  K.Res.Registers = 128;
  K.Res.SpillStoreBytes = K.Res.SpillLoadBytes = 50;
  K.CapFacts.push_back({64, 64, 32, 32});
  Prediction P = predict(K, G, cappedAt64());
  ASSERT_TRUE(P.Valid);
  ASSERT_EQ(P.RegsPerThread, 64u);
  EXPECT_NEAR(P.SpillBytesPerThread, 64.0, 1e-9);
}

// Without ptxas under the cap, the final code's estimate (SpillCurve)
// replaces the guess from the cut: the bytes of the blocks over the cap,
// or none where the code fits the cap, however much the cap cuts.
TEST(CapSpills, EstimateFromTheCodeReplacesTheGuess) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(1000);
  K.Res.Registers = 128;
  LaunchConfig C = cappedAt64();
  Prediction Guess = predict(K, G, C);
  ASSERT_TRUE(Guess.Valid);
  EXPECT_GT(Guess.SpillBytesPerThread, 0);

  K.CapSpills.Known = true;
  K.CapSpills.Blocks.push_back({100, 120, 1.0});
  Prediction Over = predict(K, G, C);
  // (120 - 64) values over the cap, each read or written once: 4 bytes.
  EXPECT_NEAR(Over.SpillBytesPerThread, 56 * 4.0, 1e-9);

  K.CapSpills.Blocks[0].Fits = 60; // Recomputed values: it fits in 64.
  Prediction Fits = predict(K, G, C);
  EXPECT_EQ(Fits.SpillBytesPerThread, 0);
  EXPECT_LT(Fits.TimeS, Guess.TimeS);
}

// ptxas's static spill bytes run as often as the code where the pressure
// exceeds the registers: in a loop of 16 passes when the loop holds the
// peak, once when straight-line code after it does.
TEST(Spills, RunWhereThePressureExceedsTheRegisters) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(1000);
  LoopRecord L;
  L.Trip = 16;
  L.Exact = true;
  K.Loops.push_back(L);
  K.Res.Registers = 255;
  K.Res.RegistersExact = true;
  K.Res.SpillStoreBytes = 32;
  K.Res.SpillLoadBytes = 32;
  LaunchConfig C;
  C.Block = {128, 1, 1};
  C.TotalThreads = 1 << 20;
  // Unknown pressure: the deepest nest, as before pressure was read.
  Prediction Unknown = predict(K, G, C);
  ASSERT_TRUE(Unknown.Valid);
  EXPECT_NEAR(Unknown.SpillBytesPerThread, 64.0 * 16, 1e-9);
  // The loop holds the peak (300 live registers, 16 passes).
  K.PressureSteps = pressureSteps({{300, 16}, {40, 1}});
  EXPECT_NEAR(predict(K, G, C).SpillBytesPerThread, 64.0 * 16, 1e-9);
  // Straight-line code after a light loop holds it: once a thread.
  K.PressureSteps = pressureSteps({{30, 16}, {900, 1}, {120, 1}});
  Prediction Once = predict(K, G, C);
  EXPECT_NEAR(Once.SpillBytesPerThread, 64.0, 1e-9);
  EXPECT_LT(Once.TimeS, Unknown.TimeS);
  // Both exceed the allocation: the loop's passes count.
  K.PressureSteps = pressureSteps({{270, 16}, {900, 1}});
  EXPECT_NEAR(predict(K, G, C).SpillBytesPerThread, 64.0 * 16, 1e-9);
}

} // namespace

namespace {
// A calibrated spec states its measured (achieved) bandwidth with
// DramEfficiency 1.0: DRAM time is then 0.85x that of the same figure taken
// as a datasheet peak (which the model derates by 0.85).
TEST(DramEfficiency, CalibratedBandwidthIsNotDeratedTwice) {
  GPUSpec Peak = handGPU();
  GPUSpec Measured = Peak;
  Measured.DramEfficiency = 1.0;
  KernelProfile K = copyKernel();
  LaunchConfig C;
  C.Block = {256, 1, 1};
  C.TotalThreads = 1 << 24;
  Prediction A = predict(K, Peak, C);
  Prediction B = predict(K, Measured, C);
  ASSERT_TRUE(A.Valid && B.Valid);
  EXPECT_NEAR(B.TDramS / A.TDramS, 0.85, 1e-9);
}
} // namespace
