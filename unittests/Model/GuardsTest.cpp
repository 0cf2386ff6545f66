//===- GuardsTest.cpp - Bounds checks and in-block reuse in the model -----===//
#include "ModelTestUtil.h"
#include "gtest/gtest.h"

using namespace flipflop;
using namespace flipflop::test;

namespace {

/// `if (blockIdx.x * blockDim.x + threadIdx.x < N)` around all the work.
KernelProfile boundedCopy(int64_t N) {
  KernelProfile K = copyKernel();
  AffineGuard G;
  G.Coef[GVGlobal + 0] = 1;
  G.Coef[GVTid + 0] = 1;
  G.Const = -N;
  K.Guards.push_back(G);
  K.Guarded.push_back({{0}, 1.0});
  return K;
}

/// `Ctaid * blockIdx.D + Tid * threadIdx.D + Iter * t <= Last`, t < Trip,
/// around all the work.
KernelProfile tiledGuard(unsigned D, int64_t Ctaid, int64_t Tid, int64_t Iter,
                         double Trip, int64_t Last) {
  KernelProfile K = copyKernel();
  AffineGuard G;
  G.Coef[GVCtaid + D] = Ctaid;
  G.Coef[GVTid + D] = Tid;
  G.Coef[GVIter + 0] = Iter;
  G.Const = -Last;
  G.Strict = false;
  G.IterTrip = unitIterTrips();
  G.IterTrip[0] = Trip;
  K.Guards.push_back(G);
  K.Guarded.push_back({{0}, 1.0});
  return K;
}

TEST(Guards, ShareOfThreadsBelowTheBound) {
  // 1000 of 4 x 256 = 1024 threads pass.
  KernelProfile K = boundedCopy(1000);
  EXPECT_NEAR(activeFraction(K, {256, 1, 1}, {4, 1, 1}), 1000.0 / 1024, 1e-12);
  // Ten times the grid: a tenth of the threads work.
  EXPECT_NEAR(activeFraction(K, {256, 1, 1}, {40, 1, 1}), 1000.0 / 10240, 1e-12);
  // Work outside the guard always runs: half the work guarded.
  K.Guarded[0].Share = 0.5;
  EXPECT_NEAR(activeFraction(K, {256, 1, 1}, {40, 1, 1}),
              0.5 + 0.5 * 1000.0 / 10240, 1e-12);
}

// A row a warp: `if (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32 <
// rows)`, counted over the block's warps; at a 2-D block a check that holds
// at 1-D blocks only (cooperative groups' rank) is none.
TEST(Guards, RowAWarp) {
  KernelProfile K = copyKernel();
  AffineGuard G;
  G.Coef[GVWarp + 1] = 1;
  G.Coef[GVWarp + 2] = 1;
  G.Const = -1000;
  K.Guards.push_back(G);
  K.Guarded.push_back({{0}, 1.0});
  // 8 warps a block, 200 blocks: 1000 of 1600 warps.
  EXPECT_NEAR(activeFraction(K, {256, 1, 1}, {200, 1, 1}), 1000.0 / 1600,
              1e-12);
  // 2 warps a block, 1000 blocks: 1000 of 2000; all pass at 500 blocks.
  EXPECT_NEAR(activeFraction(K, {64, 1, 1}, {1000, 1, 1}), 0.5, 1e-12);
  EXPECT_NEAR(activeFraction(K, {64, 1, 1}, {500, 1, 1}), 1.0, 1e-12);
  K.Guards[0].OneD = true;
  EXPECT_NEAR(activeFraction(K, {256, 1, 1}, {200, 1, 1}), 1000.0 / 1600,
              1e-12);
  EXPECT_NEAR(activeFraction(K, {32, 8, 1}, {200, 1, 1}), 1.0, 1e-12);
  // With a check on threadIdx.x in the same set, the warp's is dropped
  // (the two are not independent).
  K.Guards[0].OneD = false;
  AffineGuard T;
  T.Coef[GVTid] = 1;
  T.Const = -128;
  K.Guards.push_back(T);
  K.Guarded[0].Guards = {0, 1};
  EXPECT_NEAR(activeFraction(K, {256, 1, 1}, {200, 1, 1}), 0.5, 1e-12);
}

TEST(Guards, TiledLoopOverIterations) {
  // i = blockIdx.x * 512 + threadIdx.x + 128 * t, t < 4; work where
  // i <= 9999. 20 blocks of 128 cover 10240 outputs: 10000 pass.
  KernelProfile K = tiledGuard(0, 512, 1, 128, 4, 9999);
  EXPECT_NEAR(activeFraction(K, {128, 1, 1}, {20, 1, 1}), 10000.0 / 10240,
              1e-12);
  EXPECT_NEAR(activeFraction(K, {128, 1, 1}, {200, 1, 1}), 10000.0 / 102400,
              1e-12);
}

TEST(Guards, IndependentDimensionsMultiply) {
  // x < 100 and y < 30 on a 128 x 32 launch of 1 x 1 blocks... as 2-D grid.
  KernelProfile K = copyKernel();
  AffineGuard X, Y;
  X.Coef[GVGlobal + 0] = 1;
  X.Coef[GVTid + 0] = 1;
  X.Const = -100;
  Y.Coef[GVGlobal + 1] = 1;
  Y.Coef[GVTid + 1] = 1;
  Y.Const = -30;
  K.Guards = {X, Y};
  K.Guarded.push_back({{0, 1}, 1.0});
  EXPECT_NEAR(activeFraction(K, {32, 8, 1}, {4, 4, 1}),
              (100.0 / 128) * (30.0 / 32), 1e-12);
}

TEST(Guards, DecidedGuard) {
  // A guard without variables (decided by stated arguments).
  KernelProfile K = copyKernel();
  AffineGuard Never;
  Never.Const = 1; // 1 < 0 never holds.
  K.Guards = {Never};
  K.Guarded.push_back({{0}, 0.25});
  EXPECT_NEAR(activeFraction(K, {256, 1, 1}, {4, 1, 1}), 0.75, 1e-12);
}

TEST(Guards, ScalePredictedTime) {
  // Launching 10x the threads a bounded kernel needs costs about the same
  // DRAM traffic, not 10x.
  GPUSpec G = handGPU();
  KernelProfile K = boundedCopy(1 << 20);
  LaunchConfig Exact, Over;
  Exact.Block = Over.Block = {256, 1, 1};
  Exact.Grid = {(1 << 20) / 256, 1, 1};
  Over.Grid = {10 * (1 << 20) / 256, 1, 1};
  Prediction PE = predict(K, G, Exact), PO = predict(K, G, Over);
  ASSERT_TRUE(PE.Valid && PO.Valid);
  EXPECT_NEAR(PO.ActiveFraction, 0.1, 1e-9);
  EXPECT_NEAR(PO.DramBytes, PE.DramBytes, PE.DramBytes * 1e-9);
  EXPECT_LT(PO.TimeS, 1.5 * PE.TimeS);
}

/// Rows dm = 256 * blockIdx.y + (tile stride 0: 4 * threadIdx.y + t; tile
/// stride 1: threadIdx.y + 64 * t), t < 4, with work where dm < 600: a
/// 1 x 64 block covers 256 rows, the third row of blocks 88 of them.
/// The classes' total weight and their mean work share.
std::pair<double, double> weightAndMean(const std::vector<BlockShare> &Bs) {
  double Weight = 0, Mean = 0;
  for (const BlockShare &B : Bs) {
    Weight += B.Weight;
    Mean += B.Weight * B.Active;
  }
  return {Weight, Mean};
}

KernelProfile tiledRows(bool Strided) {
  return tiledGuard(1, 256, Strided ? 1 : 4, Strided ? 64 : 1, 4, 599);
}

TEST(Guards, BlocksPastTheEdgeRunAsLongAsTheirBusiestThread) {
  for (bool Strided : {false, true}) {
    KernelProfile K = tiledRows(Strided);
    std::vector<BlockShare> Bs = blockShares(K, {1, 64, 1}, {1, 3, 1});
    ASSERT_EQ(Bs.size(), 2u);
    auto [Weight, Mean] = weightAndMean(Bs);
    EXPECT_NEAR(Weight, 1, 1e-12);
    // The classes hold the launch's work.
    EXPECT_NEAR(Mean, activeFraction(K, {1, 64, 1}, {1, 3, 1}), 1e-12);
    EXPECT_NEAR(Mean, (2 + 88.0 / 256) / 3, 1e-12);
    const BlockShare &Full = Bs[0], &Edge = Bs[1];
    EXPECT_NEAR(Full.Weight, 2.0 / 3, 1e-12);
    EXPECT_EQ(Full.Active, 1);
    EXPECT_EQ(Full.Busiest, 1);
    EXPECT_NEAR(Edge.Active, 88.0 / 256, 1e-12);
    // Stride 0: 22 threads do all four rows, the rest none; stride 1:
    // every thread does one or two of its four.
    EXPECT_NEAR(Edge.Busiest, Strided ? 0.5 : 1.0, 1e-12);
  }
  // No guard, or none that depends on the block: no classes to tell apart.
  EXPECT_TRUE(blockShares(copyKernel(), {256, 1, 1}, {8, 1, 1}).empty());
}

// `if (blockIdx.x == 0)` around a loop of 1000 loads: block 0 does the
// work whatever the grid, and the launch ends no sooner than it does. The
// rounds alone average it over the blocks: 10x shorter at grid 100.
TEST(Guards, AStragglerBlockEndsTheLaunch) {
  KernelProfile K = copyKernel(4, 1000);
  for (int Sign : {1, -1}) {
    AffineGuard G;
    G.Coef[GVCtaid + 0] = Sign;
    G.Strict = false;
    K.Guards.push_back(G);
  }
  K.Guarded.push_back({{0, 1}, 1.0});
  GPUSpec Gpu = handGPU();
  LaunchConfig One, Many;
  One.Block = Many.Block = {256, 1, 1};
  One.Grid = {1, 1, 1};
  Many.Grid = {100, 1, 1};
  Prediction P1 = predict(K, Gpu, One), P100 = predict(K, Gpu, Many);
  ASSERT_TRUE(P1.Valid && P100.Valid);
  EXPECT_NEAR(P100.ActiveFraction, 0.01, 1e-9);
  EXPECT_GE(P100.TimeS, P1.TimeS * 0.99);
  // The index arithmetic outside the check: 1% of the instructions, none
  // of the bytes. Block 0 still ends the launch, its bytes and its round
  // trips its own (BlockClass::Mem, ChainMem).
  K.Guarded[0].Share = 0.99;
  K.Guarded[0].MemShare = 1;
  Prediction Q1 = predict(K, Gpu, One), Q100 = predict(K, Gpu, Many);
  ASSERT_TRUE(Q1.Valid && Q100.Valid);
  EXPECT_NEAR(Q100.DramBytes, Q1.DramBytes, Q1.DramBytes * 1e-9);
  EXPECT_NEAR(Q100.TimeS, Q1.TimeS, Q1.TimeS * 0.02);
}

// `if (i < n)` after the index arithmetic: the check holds 40% of the
// instructions but all the bytes (GuardedWork::MemShare). A launch 10x the
// work moves the exact launch's bytes; by the instruction share alone it
// moved 0.6 + 0.4 x 0.1 = 64% of the larger launch's, 6.4x.
TEST(Guards, BytesBehindTheCheckScaleByTheirOwnShare) {
  GPUSpec G = handGPU();
  KernelProfile K = boundedCopy(1 << 20);
  K.Guarded[0].Share = 0.4;
  K.Guarded[0].MemShare = 1;
  LaunchConfig Exact, Over;
  Exact.Block = Over.Block = {256, 1, 1};
  Exact.Grid = {(1 << 20) / 256, 1, 1};
  Over.Grid = {10 * (1 << 20) / 256, 1, 1};
  Prediction PE = predict(K, G, Exact), PO = predict(K, G, Over);
  ASSERT_TRUE(PE.Valid && PO.Valid);
  EXPECT_NEAR(PO.ActiveFraction, 0.64, 1e-9);
  EXPECT_NEAR(activeMemoryFraction(K, Over.Block, Over.Grid), 0.1, 1e-9);
  EXPECT_NEAR(PO.DramBytes, PE.DramBytes, PE.DramBytes * 1e-9);
  // Without the memory share the instructions' share scales the bytes.
  K.Guarded[0].MemShare = -1;
  EXPECT_NEAR(predict(K, G, Over).DramBytes, 6.4 * PE.DramBytes,
              PE.DramBytes * 1e-9);
}

TEST(Guards, SampledBlocksOfALongGrid) {
  // 1000 blocks of 256 threads, i < 255900: the last block has 156 of its
  // threads working, the others all. Sampled: the first, the last and
  // strata of the rest, weights summing to the grid.
  KernelProfile K = boundedCopy(255900);
  std::vector<BlockShare> Bs = blockShares(K, {256, 1, 1}, {1000, 1, 1});
  ASSERT_EQ(Bs.size(), 2u);
  EXPECT_NEAR(Bs[0].Weight, 999.0 / 1000, 1e-12);
  EXPECT_NEAR(Bs[1].Weight, 1.0 / 1000, 1e-12);
  EXPECT_NEAR(Bs[1].Active, 156.0 / 256, 1e-12);
  EXPECT_EQ(Bs[1].Busiest, 1);
}

TEST(Guards, TheCutBlockInTheMiddleOfAnOverhangingGrid) {
  // A grid computed from the block alone, twice the work's width (1563
  // blocks of 16 threads, 2 samples each, 25000 samples): blocks 0-780
  // work, 781 has 4 of its threads working, the rest idle. Sampling the
  // grid by strata would take the cut block for a seventh of the grid.
  KernelProfile K = tiledGuard(0, 32, 2, 1, 2, 24999);
  std::vector<BlockShare> Bs = blockShares(K, {16, 1, 1}, {1563, 1, 1});
  ASSERT_EQ(Bs.size(), 3u);
  for (const BlockShare &B : Bs) {
    if (B.Active == 1)
      EXPECT_NEAR(B.Weight, 781.0 / 1563, 1e-12);
    else if (B.Active == 0)
      EXPECT_NEAR(B.Weight, 781.0 / 1563, 1e-12);
    else {
      EXPECT_NEAR(B.Weight, 1.0 / 1563, 1e-12);
      EXPECT_NEAR(B.Active, 8.0 / 32, 1e-12);
      EXPECT_EQ(B.Busiest, 1);
    }
  }
  EXPECT_NEAR(weightAndMean(Bs).second,
              activeFraction(K, {16, 1, 1}, {1563, 1, 1}), 1e-12);
}

TEST(Guards, ALinearisedIndexCutsEveryBlockAlongBothDimensions) {
  // i = (blockIdx.y * 8 + threadIdx.y) * 1000 + blockIdx.x * 32 +
  // threadIdx.x < 400000 on 32 x 8 blocks, 40 x 100 of them: every block
  // along x and y may be cut, whatever the other index. The samples stay
  // few (strata) and the classes still hold the launch's work.
  KernelProfile K = copyKernel();
  AffineGuard G;
  G.Coef[GVCtaid + 1] = 8000;
  G.Coef[GVTid + 1] = 1000;
  G.Coef[GVGlobal + 0] = 1;
  G.Coef[GVTid + 0] = 1;
  G.Const = -400000;
  K.Guards.push_back(G);
  K.Guarded.push_back({{0}, 1.0});
  std::vector<BlockShare> Bs = blockShares(K, {32, 8, 1}, {40, 100, 1});
  ASSERT_FALSE(Bs.empty());
  EXPECT_LE(Bs.size(), 64u);
  auto [Weight, Mean] = weightAndMean(Bs);
  EXPECT_NEAR(Weight, 1, 1e-9);
  EXPECT_NEAR(Mean, activeFraction(K, {32, 8, 1}, {40, 100, 1}), 0.02);
}

TEST(Guards, IdleThreadsOfAnEdgeBlockCostTheirBlockItsLatency) {
  // Same work in both launches (the same active fraction); where whole
  // threads of the edge blocks idle, the others keep their latency path
  // and the edge blocks' rounds take longer.
  GPUSpec G = handGPU();
  LaunchConfig C;
  C.Block = {1, 64, 1};
  C.Grid = {1, 3, 1};
  Prediction P0 = predict(tiledRows(false), G, C),
             P1 = predict(tiledRows(true), G, C);
  ASSERT_TRUE(P0.Valid && P1.Valid);
  EXPECT_NEAR(P0.ActiveFraction, P1.ActiveFraction, 1e-12);
  EXPECT_NEAR(P0.DramBytes, P1.DramBytes, P1.DramBytes * 1e-9);
  EXPECT_GT(P0.TLatencyS, P1.TLatencyS * 1.01);
  // The three blocks run in one round, which ends with its slowest block,
  // a full one in both launches (since session 45: AStragglerBlock...).
  EXPECT_NEAR(P0.TimeS, P1.TimeS, P1.TimeS * 0.01);
}

TEST(Reuse, LoadIndependentOfThreadIdxYIsSharedInTheBlock) {
  // A 32 x 8 block; a coalesced load whose address does not depend on
  // threadIdx.y: 8 warps read the same 128 bytes, L1 serves 7 of them.
  GPUSpec G = handGPU();
  KernelProfile Dep = copyKernel(4, 100), Indep = copyKernel(4, 100);
  for (KernelProfile *K : {&Dep, &Indep})
    for (MemAccess &A : K->Accesses) {
      A.ThreadDimsKnown = true;
      A.ThreadDims = A.IsStore || K == &Dep ? 3u : 1u;
    }
  finalizeProfile(Dep);
  finalizeProfile(Indep);
  LaunchConfig C;
  C.Block = {32, 8, 1};
  C.Grid = {100, 1, 1};
  Prediction PD = predict(Dep, G, C), PI = predict(Indep, G, C);
  ASSERT_TRUE(PD.Valid && PI.Valid);
  // Loads: 100 x 4 B per thread, stores 100 x 4 B (not shared).
  double Threads = 32.0 * 8 * 100;
  EXPECT_NEAR(PD.L2Bytes, Threads * 800, Threads * 1e-6);
  EXPECT_NEAR(PI.L2Bytes, Threads * (400.0 / 8 + 400), Threads * 1e-6);
  EXPECT_LT(PI.TimeS, PD.TimeS);
}

} // namespace
