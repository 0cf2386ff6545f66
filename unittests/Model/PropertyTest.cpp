//===- PropertyTest.cpp - Model properties over the whole GPU database ----===//
#include "ModelTestUtil.h"
#include "flipflop/Model/Recommender.h"
#include "gtest/gtest.h"
#include <algorithm>

using namespace flipflop;
using namespace flipflop::test;

namespace {

LaunchConfig config(unsigned B, uint64_t Threads, double Limit = 0,
                    unsigned MinBlocks = 0) {
  LaunchConfig C;
  C.Block = {B, 1, 1};
  C.TotalThreads = Threads;
  C.PowerLimitW = Limit;
  C.MinBlocksPerSM = MinBlocks;
  return C;
}

KernelProfile streaming() {
  KernelProfile K = copyKernel(4, 1);
  K.Accesses.push_back(globalAccess(false, 4, 1));
  K.op(OpClass::LoadGlobal) = 2;
  K.op(OpClass::FP32) = 1;
  K.op(OpClass::Int) = 6;
  K.MLP = 2;
  K.Res.Registers = 16;
  finalizeProfile(K);
  return K;
}

TEST(Properties, MoreBytesIsNeverFaster) {
  for (const GPUSpec &G : allGPUs())
    for (unsigned B : {64u, 256u, 1024u}) {
      double Prev = 0;
      for (unsigned Bytes : {1u, 2u, 4u, 8u, 16u}) {
        Prediction P = predict(copyKernel(Bytes), G, config(B, 1 << 24));
        ASSERT_TRUE(P.Valid) << G.Name;
        EXPECT_GE(P.TimeS, Prev * (1 - 1e-12)) << G.Name << " B=" << B
                                               << " bytes=" << Bytes;
        Prev = P.TimeS;
      }
    }
}

TEST(Properties, LowerLimitNeverFasterNorMorePower) {
  for (const GPUSpec &G : allGPUs())
    for (const KernelProfile &K : {fmaKernel(4000), streaming()}) {
      double Lo = G.Power.MinLimitW, Hi = G.Power.MaxLimitW;
      Prediction Prev;
      for (int I = 0; I <= 10; ++I) {
        double L = Lo + (Hi - Lo) * I / 10;
        Prediction P = predict(K, G, config(256, 1 << 24, L));
        ASSERT_TRUE(P.Valid) << G.Name;
        if (!P.LimitUnreachable) {
          EXPECT_LE(P.AvgPowerW, L + 1e-6) << G.Name << " " << L;
        }
        if (I) {
          EXPECT_LE(P.TimeS, Prev.TimeS * (1 + 1e-9)) << G.Name << " " << L;
          EXPECT_GE(P.AvgPowerW, Prev.AvgPowerW - 1e-6) << G.Name << " " << L;
          EXPECT_GE(P.ClockMHz, Prev.ClockMHz) << G.Name << " " << L;
        }
        Prev = P;
      }
    }
}

TEST(Properties, CapSlowsComputeByClockMemoryMuchLess) {
  for (GPUSpec G : allGPUs()) {
    G.Power.MinLimitW = 1; // Let the test force a deep cap.
    KernelProfile C = fmaKernel(4000);
    KernelProfile M = copyKernel(16, 8);
    M.MLP = 8;
    for (const KernelProfile *K : {&C, &M}) {
      Prediction Free = predict(*K, G, config(256, 1 << 24, G.Power.MaxLimitW));
      PowerCurve Curve = powerCurve(G);
      // Cut the dynamic power by 40 %.
      double L = Curve.StaticW + 0.6 * (Free.AvgPowerW - Curve.StaticW);
      Prediction Cap = predict(*K, G, config(256, 1 << 24, L));
      ASSERT_TRUE(Cap.PowerCapped) << G.Name;
      double ClockRatio = Free.ClockMHz / Cap.ClockMHz;
      double TimeRatio = Cap.TimeS / Free.TimeS;
      if (K == &C) // About in proportion to the clock.
        EXPECT_NEAR(TimeRatio, ClockRatio, 0.05 * ClockRatio) << G.Name;
      else // Much less than the clock.
        EXPECT_LT(TimeRatio - 1, 0.35 * (ClockRatio - 1)) << G.Name;
    }
  }
}

TEST(Properties, StreamingEnergyNearlyFlatInBlockSize) {
  for (const GPUSpec &G : allGPUs()) {
    double Min = 1e300, Max = 0;
    for (unsigned B = 128; B <= G.MaxThreadsPerBlock; B += 32) {
      Prediction P = predict(streaming(), G, config(B, 1 << 24));
      ASSERT_TRUE(P.Valid) << G.Name;
      Min = std::min(Min, P.EnergyJ);
      Max = std::max(Max, P.EnergyJ);
    }
    EXPECT_LT(Max / Min, 1.10) << G.Name;
  }
}

TEST(Properties, RegisterHeavyGainsFromACapUntilSpills) {
  // 128 registers, latency-bound (two loads in flight per warp).
  KernelProfile K;
  K.op(OpClass::LoadGlobal) = 32;
  K.op(OpClass::StoreGlobal) = 1;
  K.op(OpClass::FP32) = 512;
  K.Accesses = {globalAccess(false, 4, 32), globalAccess(true, 4, 1)};
  K.Accesses[0].Pattern = AccessPattern::Unknown;
  K.Accesses[0].SectorsPerRequest = 4;
  K.MLP = 2;
  K.Res.Registers = 128;
  K.Res.RegistersExact = true;
  finalizeProfile(K);
  for (const GPUSpec &G : allGPUs()) {
    unsigned B = 128;
    Prediction None = predict(K, G, config(B, 1 << 22));
    // A mild cap: one more resident block (about 1/4 of registers cut).
    unsigned M = None.Occ.BlocksPerSM + 1;
    Prediction Mild = predict(K, G, config(B, 1 << 22, 0, M));
    // The deepest cap the SM's thread and block limits allow.
    unsigned MX = std::min(G.MaxBlocksPerSM, G.MaxThreadsPerSM / B);
    Prediction Deep = predict(K, G, config(B, 1 << 22, 0, MX));
    ASSERT_LT(Deep.RegsPerThread, Mild.RegsPerThread) << G.Name;
    ASSERT_TRUE(Mild.Valid && Deep.Valid) << G.Name;
    EXPECT_GT(Mild.Occ.ActiveWarps, None.Occ.ActiveWarps) << G.Name;
    EXPECT_LT(Mild.TimeS, None.TimeS) << G.Name;
    EXPECT_GT(Deep.SpillBytesPerThread, Mild.SpillBytesPerThread) << G.Name;
    EXPECT_GT(Deep.TimeS, Mild.TimeS) << G.Name;
  }
}

TEST(Properties, SweepOnEveryGPU) {
  SweepOptions O;
  for (const GPUSpec &G : allGPUs()) {
    SweepResult R = sweep(streaming(), G, O);
    ASSERT_FALSE(R.Pareto.empty()) << G.Name;
    const Prediction &F = R.Configs[R.Pick.Fastest];
    for (const Prediction &P : R.Configs)
      if (P.Valid) {
        EXPECT_GE(P.TimeS, F.TimeS) << G.Name;
        EXPECT_GE(P.EnergyJ, R.Configs[R.Pick.LeastEnergy].EnergyJ) << G.Name;
      }
    EXPECT_LE(R.Configs[R.Pick.EnergyWithinBudget].TimeS, F.TimeS * 1.05 + 1e-15);
  }
}

} // namespace
