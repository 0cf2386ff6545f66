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

TEST(Guards, TiledLoopOverIterations) {
  // i = blockIdx.x * 512 + threadIdx.x + 128 * t, t < 4; work where
  // i <= 9999. 20 blocks of 128 cover 10240 outputs: 10000 pass.
  KernelProfile K = copyKernel();
  AffineGuard G;
  G.Coef[GVCtaid + 0] = 512;
  G.Coef[GVTid + 0] = 1;
  G.Coef[GVIter + 0] = 128;
  G.Const = -9999;
  G.Strict = false;
  G.IterTrip = {4, 1, 1, 1};
  K.Guards.push_back(G);
  K.Guarded.push_back({{0}, 1.0});
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
