//===- RecommenderTest.cpp - Configuration space, Pareto, picks -----------===//
#include "ModelTestUtil.h"
#include "flipflop/Model/Recommender.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace flipflop;
using namespace flipflop::test;

namespace {

Prediction point(double T, double E, bool Valid = true) {
  Prediction P;
  P.TimeS = T;
  P.EnergyJ = E;
  P.Valid = Valid;
  return P;
}

TEST(Pareto, HandCase) {
  std::vector<Prediction> Ps = {point(1, 10), point(2, 5), point(3, 6),
                                point(1.5, 10), point(4, 1), point(0.5, 1, false),
                                point(2, 5)};
  // (1,10) (2,5) (4,1) survive; (3,6) and (1.5,10) are dominated; the
  // invalid point is ignored; the duplicate (2,5) is kept once.
  EXPECT_EQ(paretoFront(Ps), (std::vector<size_t>{0, 1, 4}));
}

TEST(Objective, Parse) {
  Objective O;
  double B = 0;
  EXPECT_TRUE(parseObjective("edp", O, B));
  EXPECT_EQ(O, Objective::EDP);
  EXPECT_TRUE(parseObjective("energy-within:7", O, B));
  EXPECT_EQ(O, Objective::EnergyWithinBudget);
  EXPECT_DOUBLE_EQ(B, 7);
  EXPECT_TRUE(parseObjective("energy<=2.5%", O, B));
  EXPECT_DOUBLE_EQ(B, 2.5);
  EXPECT_FALSE(parseObjective("energy<=x", O, B));
  EXPECT_FALSE(parseObjective("speed", O, B));
}

TEST(Sweep, SpaceOfA1DKernel) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel();
  K.Res.Registers = 64;
  SweepOptions O;
  O.PowerSteps = 6; // 50, 60, ..., 100 W.
  SweepResult R = sweep(K, G, O);
  EXPECT_EQ(R.NumShapes, 32u); // 32, 64, ..., 1024.
  EXPECT_EQ(R.PowerLimits, (std::vector<double>{50, 60, 70, 80, 90, 100}));
  // Every (shape, min-blocks) pair changes the register count.
  for (const Prediction &P : R.Configs)
    if (P.Config.MinBlocksPerSM) {
      EXPECT_LT(P.RegsPerThread, 64u);
      EXPECT_GE(P.RegsPerThread, 16u);
    }
  // 256 threads: caps 64 (none), then m = 5: 48, 6: 40, 7: 32 (m = 8 is 32
  // too, deduplicated): four register counts.
  unsigned N256 = 0;
  for (const Prediction &P : R.Configs)
    N256 += P.Config.Block[0] == 256 && P.Config.PowerLimitW == 100 &&
            P.PowerLever == Lever::None;
  EXPECT_EQ(N256, 4u);
  EXPECT_FALSE(R.ShapeHeld);
  // Picks are consistent.
  const Prediction &F = R.Configs[R.Pick.Fastest];
  const Prediction &L = R.Configs[R.Pick.LeastEnergy];
  const Prediction &W = R.Configs[R.Pick.EnergyWithinBudget];
  EXPECT_LE(W.TimeS, F.TimeS * 1.05);
  EXPECT_LE(L.EnergyJ, W.EnergyJ);
  EXPECT_DOUBLE_EQ(R.SearchSpaceReduction,
                   1 - double(R.Pareto.size()) / R.Configs.size());
  // The heuristic: no min-blocks, the default limit.
  const Prediction &H = R.Configs[R.Pick.OccupancyHeuristic];
  EXPECT_EQ(H.Config.MinBlocksPerSM, 0u);
  EXPECT_DOUBLE_EQ(H.Config.PowerLimitW, 100);
  EXPECT_GE(R.energySavingPct(R.Pick.LeastEnergy), 0);
  EXPECT_NE(R.ExplainBudget.find("Bound by"), std::string::npos);
  EXPECT_NE(R.ExplainBudget.find("Occupancy"), std::string::npos);
}

TEST(Sweep, HeldShape) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel();
  K.Bounds.ReqNTid = {16, 16, 1};
  K.Guesses.push_back("trip count of the loop at line 7 (n unknown)");
  SweepResult R = sweep(K, G);
  EXPECT_TRUE(R.ShapeHeld);
  EXPECT_NE(R.ShapeReason.find("reqntid"), std::string::npos);
  for (const Prediction &P : R.Configs)
    EXPECT_EQ(P.Config.Block, (std::array<unsigned, 3>{16, 16, 1}));
  EXPECT_NE(R.ExplainFastest.find("Guessed: trip count"), std::string::npos);
  KernelProfile T = fmaKernel();
  T.Shape.FixedByTile = true;
  T.Shape.FixedBlock = {32, 8, 1};
  T.Shape.FixedReason = "tile[8][32] indexed by threadIdx";
  SweepResult RT = sweep(T, G);
  EXPECT_TRUE(RT.ShapeHeld);
  EXPECT_EQ(RT.NumShapes, 1u);
  EXPECT_NE(RT.ShapeReason.find("tile[8][32]"), std::string::npos);
}

TEST(Sweep, ExplanationFollowsTheObjective) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel();
  SweepOptions O;
  O.Obj = Objective::Time;
  SweepResult R = sweep(K, G, O);
  EXPECT_NE(R.Explanation.find(". Fastest: " + R.ExplainFastest),
            std::string::npos);
  O.Obj = Objective::Energy;
  R = sweep(K, G, O);
  EXPECT_NE(R.Explanation.find(". Least energy: " + R.ExplainLeastEnergy),
            std::string::npos);
  O.Obj = Objective::EDP;
  R = sweep(K, G, O);
  EXPECT_NE(R.Explanation.find(". Least energy x delay: " + R.ExplainEDP),
            std::string::npos);
  O.Obj = Objective::EnergyWithinBudget;
  R = sweep(K, G, O);
  EXPECT_NE(R.Explanation.find(" of the fastest: " + R.ExplainBudget),
            std::string::npos);
}

TEST(Plausibility, ProfileOutOfBoundsIsNotPredicted) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(2e9); // Beyond 1e9 instructions per thread.
  EXPECT_NE(implausibility(K).find("instructions per thread"),
            std::string::npos);
  SweepResult R = sweep(K, G);
  EXPECT_TRUE(R.Configs.empty());
  EXPECT_NE(R.Implausible.find("2e+09 instructions per thread"),
            std::string::npos);
  KernelProfile N = fmaKernel();
  N.op(OpClass::Int) = std::nan("");
  EXPECT_NE(implausibility(N).find("non-finite"), std::string::npos);
  KernelProfile T = fmaKernel();
  LoopRecord L;
  L.Trip = 2.3e18; // An unsigned wrap.
  T.Loops.push_back(L);
  EXPECT_NE(implausibility(T).find("2.3e+18 iterations"), std::string::npos);
  EXPECT_EQ(implausibility(fmaKernel()), "");
}

TEST(Plausibility, LongPredictionsWarnOrAreNeverPicked) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel();
  SweepOptions O;
  O.SweepPower = false;
  SweepResult Base = sweep(K, G, O);
  ASSERT_FALSE(Base.Configs.empty());
  EXPECT_TRUE(Base.Warnings.empty());
  EXPECT_TRUE(Base.Implausible.empty());
  double Fastest = Base.Configs[Base.Pick.Fastest].TimeS;
  // Above the warning time: the picks stand, with a warning.
  O.WarnTimeS = Fastest / 2;
  SweepResult W = sweep(K, G, O);
  EXPECT_TRUE(W.Implausible.empty());
  ASSERT_EQ(W.Warnings.size(), 1u);
  EXPECT_NE(W.Warnings[0].find("is predicted to run"), std::string::npos);
  // Above the limit: every configuration invalid, nothing picked.
  O.MaxTimeS = Fastest / 2;
  SweepResult X = sweep(K, G, O);
  EXPECT_NE(X.Implausible.find("every prediction is implausible"),
            std::string::npos);
  for (const Prediction &P : X.Configs)
    EXPECT_FALSE(P.Valid);
}

TEST(Sweep, TwoDimensionalShapes) {
  GPUSpec G = handGPU();
  KernelProfile K = copyKernel();
  K.Shape.UsesTid = {true, true, false};
  SweepOptions O;
  O.SweepPower = false;
  SweepResult R = sweep(K, G, O);
  bool Saw16x16 = false;
  for (const Prediction &P : R.Configs) {
    EXPECT_EQ(P.Config.blockThreads() % 32, 0u);
    Saw16x16 |= P.Config.Block == std::array<unsigned, 3>{16, 16, 1};
  }
  EXPECT_TRUE(Saw16x16);
  EXPECT_EQ(R.PowerLimits.size(), 1u);
}

TEST(Sweep, ThousandConfigsWithPowerLimits) {
  // The benchmark's size: >= 1,000 configurations of one kernel.
  const GPUSpec &G = *findGPU("A100-PCIE-40GB");
  KernelProfile K = fmaKernel();
  K.Res.Registers = 96;
  SweepOptions O;
  O.PowerSteps = 16;
  SweepResult R = sweep(K, G, O);
  EXPECT_GE(R.Configs.size(), 1000u);
}

TEST(Sweep, CapOnConfigurationsPerSweep) {
  // A GPUSpec built in code (not a validated spec file) whose limits allow
  // more than 4e6 configurations is refused with one sentence, before any
  // configuration is allocated; a real GPU stays far below the cap.
  GPUSpec G = *findGPU("A100-PCIE-40GB");
  G.MaxThreadsPerBlock = 1u << 20;
  G.MaxBlocksPerSM = 1024;
  SweepResult R = sweep(fmaKernel(), G, SweepOptions());
  EXPECT_TRUE(R.Configs.empty());
  EXPECT_NE(R.Implausible.find("above the cap of 4e6 per sweep"),
            std::string::npos)
      << R.Implausible;
  EXPECT_EQ(R.Explanation.rfind("no recommendation: ", 0), 0u);
  SweepResult Real = sweep(fmaKernel(), *findGPU("H100-SXM5-80GB"),
                           SweepOptions());
  EXPECT_TRUE(Real.Implausible.empty());
  EXPECT_FALSE(Real.Configs.empty());
}

} // namespace
