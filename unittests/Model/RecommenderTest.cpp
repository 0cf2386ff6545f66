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
  // Every configuration off the front is matched or beaten in both time and
  // energy by a point of it: those are what the front rules out.
  std::vector<bool> OnFront(R.Configs.size(), false);
  for (size_t I : R.Pareto)
    OnFront[I] = true;
  size_t RuledOut = 0, NValid = 0;
  for (size_t I = 0; I < R.Configs.size(); ++I) {
    NValid += R.Configs[I].Valid;
    if (OnFront[I] || !R.Configs[I].Valid)
      continue;
    ++RuledOut;
    bool Dominated = false;
    for (size_t J : R.Pareto)
      Dominated |= R.Configs[J].TimeS <= R.Configs[I].TimeS &&
                   R.Configs[J].EnergyJ <= R.Configs[I].EnergyJ;
    EXPECT_TRUE(Dominated) << I;
  }
  EXPECT_GT(RuledOut, 0u);
  EXPECT_DOUBLE_EQ(R.SearchSpaceReduction, double(RuledOut) / NValid);
  // The heuristic: no min-blocks, the default limit.
  const Prediction &H = R.Configs[R.Pick.OccupancyHeuristic];
  EXPECT_EQ(H.Config.MinBlocksPerSM, 0u);
  EXPECT_DOUBLE_EQ(H.Config.PowerLimitW, 100);
  EXPECT_GE(R.energySavingPct(R.Pick.LeastEnergy), 0);
  EXPECT_EQ(R.Status, SweepStatus::Swept);
  EXPECT_EQ(R.Shape, ShapeSource::Free);
}

TEST(Sweep, HeldShape) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel();
  K.Bounds.ReqNTid = {16, 16, 1};
  K.Guesses.push_back("trip count of the loop at line 7 (n unknown)");
  SweepResult R = sweep(K, G);
  EXPECT_TRUE(R.ShapeHeld);
  EXPECT_EQ(R.Shape, ShapeSource::Required);
  for (const Prediction &P : R.Configs)
    EXPECT_EQ(P.Config.Block, (std::array<unsigned, 3>{16, 16, 1}));
  EXPECT_EQ(R.DefaultBlock, (std::array<unsigned, 3>{16, 16, 1}));
  KernelProfile T = fmaKernel();
  T.Shape.FixedByTile = true;
  T.Shape.FixedBlock = {32, 8, 1};
  T.Shape.FixedReason = "tile[8][32] indexed by threadIdx";
  SweepResult RT = sweep(T, G);
  EXPECT_TRUE(RT.ShapeHeld);
  EXPECT_EQ(RT.NumShapes, 1u);
  EXPECT_EQ(RT.Shape, ShapeSource::Tile);
  for (const Prediction &P : RT.Configs)
    EXPECT_EQ(P.Config.Block, (std::array<unsigned, 3>{32, 8, 1}));
  // A tile of unknown shape: __launch_bounds__' threads, else 256.
  T.Shape.FixedBlock = {0, 0, 0};
  SweepResult RU = sweep(T, G);
  EXPECT_EQ(RU.Shape, ShapeSource::TileUnknown);
  EXPECT_EQ(RU.DefaultBlock, (std::array<unsigned, 3>{256, 1, 1}));
  T.Bounds.MaxNTid = {128, 1, 1};
  SweepResult RB = sweep(T, G);
  EXPECT_EQ(RB.Shape, ShapeSource::TileBounds);
  EXPECT_EQ(RB.DefaultBlock, (std::array<unsigned, 3>{128, 1, 1}));
}

TEST(Sweep, ChecksNarrowTheShapes) {
  // assert(blockDim.x <= 64) in a 1-D kernel: 32 and 64 pass; the shape is
  // narrowed, not held.
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel();
  K.Shape.CheckedMax = {64, 0, 0};
  K.Shape.CheckFacts = {"blockDim.x <= 64 is asserted at line 3"};
  SweepResult R = sweep(K, G);
  EXPECT_EQ(R.Shape, ShapeSource::Checks);
  EXPECT_FALSE(R.ShapeHeld);
  EXPECT_EQ(R.NumShapes, 2u);
  for (const Prediction &P : R.Configs)
    EXPECT_LE(P.Config.Block[0], 64u);
  // One shape passing holds it.
  K.Shape.CheckedDim = {64, 0, 0};
  SweepResult H = sweep(K, G);
  EXPECT_EQ(H.Shape, ShapeSource::Checks);
  EXPECT_TRUE(H.ShapeHeld);
  EXPECT_EQ(H.NumShapes, 1u);
}

TEST(Sweep, RecordsTheObjective) {
  // The whole-kernel explanation ends with the pick of the objective
  // (unittests/Report/ExplainTest.cpp); the sweep keeps it with the budget.
  SweepOptions O;
  O.Obj = Objective::EDP;
  O.SlowdownBudgetPct = 7.5;
  SweepResult R = sweep(fmaKernel(), handGPU(), O);
  EXPECT_EQ(R.Obj, Objective::EDP);
  EXPECT_DOUBLE_EQ(R.SlowdownBudgetPct, 7.5);
}

/// Configurations for configNeighbours(): a block of \p B threads (x
/// extent \p X), no cap, under \p Limit W or the clock \p Lock.
Prediction config(unsigned B, unsigned X, double Limit, double Lock = 0) {
  Prediction P;
  P.Config.Block = {X, B / X, 1};
  P.Config.PowerLimitW = Limit;
  P.Config.LockedClockMHz = Lock;
  return P;
}

TEST(Sweep, NeighboursAnExplanationComparesWith) {
  SweepResult R;
  R.PowerLimits = {50, 75, 100};
  R.Configs = {config(256, 256, 100), // 0: the configuration explained.
               config(128, 128, 100), // 1: half the block.
               config(128, 16, 100),  // 2: half, 16 x 8.
               config(512, 512, 100), // 3: twice the block.
               config(256, 256, 75),  // 4: the next lower limit.
               config(256, 256, 50),  // 5: a lower limit, not the next.
               config(128, 128, 75),  // 6: half, another limit.
               config(256, 256, 100, 900), // 7: a locked clock.
               config(512, 512, 100, 900)}; // 8: twice, locked.
  ConfigNeighbours N = configNeighbours(R, 0);
  EXPECT_EQ(N.HalfBlock, 1); // The same y extent (1) preferred over 16x8.
  EXPECT_EQ(N.DoubleBlock, 3);
  EXPECT_EQ(N.LowerLimit, 4);
  EXPECT_DOUBLE_EQ(N.LowerLimitW, 75);
  // 32 x 8: the half with 8 rows too (16 x 8), not the first one found.
  R.Configs[0] = config(256, 32, 100);
  EXPECT_EQ(configNeighbours(R, 0).HalfBlock, 2);
  R.Configs[0] = config(256, 256, 100);
  // Under a locked clock: blocks under the same lock, no lower limit.
  ConfigNeighbours L = configNeighbours(R, 7);
  EXPECT_EQ(L.DoubleBlock, 8);
  EXPECT_EQ(L.HalfBlock, -1);
  EXPECT_EQ(L.LowerLimit, -1);
  // The lowest limit has none below it; invalid neighbours do not count.
  EXPECT_EQ(configNeighbours(R, 5).LowerLimit, -1);
  R.Configs[4].Valid = false;
  EXPECT_EQ(configNeighbours(R, 0).LowerLimit, -1);
  // A held shape has no block neighbours.
  R.ShapeHeld = true;
  N = configNeighbours(R, 0);
  EXPECT_EQ(N.HalfBlock, -1);
  EXPECT_EQ(N.DoubleBlock, -1);
  EXPECT_EQ(configNeighbours(R, 99).LowerLimit, -1); // Out of range.
}

TEST(Plausibility, ProfileOutOfBoundsIsNotPredicted) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(2e9); // Beyond 1e9 instructions per thread.
  EXPECT_NE(implausibility(K).find("instructions per thread"),
            std::string::npos);
  SweepResult R = sweep(K, G);
  EXPECT_TRUE(R.Configs.empty());
  EXPECT_EQ(R.Status, SweepStatus::ImplausibleProfile);
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

TEST(Plausibility, KernelThatDoesNoWorkIsNotSwept) {
  GPUSpec G = handGPU();
  KernelProfile E;
  E.Name = "empty";
  E.op(OpClass::Branch) = 1; // Its return.
  E.op(OpClass::LoadParam) = 2;
  EXPECT_TRUE(doesNoWork(E));
  SweepResult R = sweep(E, G);
  EXPECT_EQ(R.Status, SweepStatus::NoWork);
  EXPECT_TRUE(R.Configs.empty());
  EXPECT_TRUE(R.Implausible.empty());
  // Any instruction of another class is work; so are a loop, a memory
  // access and tensor work.
  for (OpClass C : {OpClass::Int, OpClass::StoreGlobal, OpClass::Barrier,
                    OpClass::Other}) {
    KernelProfile W = E;
    W.op(C) = 1;
    EXPECT_FALSE(doesNoWork(W)) << opClassName(C);
  }
  KernelProfile L = E;
  L.Loops.push_back(LoopRecord());
  EXPECT_FALSE(doesNoWork(L));
  KernelProfile T = E;
  T.TensorFlops = 1;
  EXPECT_FALSE(doesNoWork(T));
  EXPECT_FALSE(doesNoWork(fmaKernel()));
  EXPECT_EQ(sweep(fmaKernel(), G).Status, SweepStatus::Swept);
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
  EXPECT_EQ(X.Status, SweepStatus::AllImplausible);
  EXPECT_NE(X.Implausible.find("every prediction is implausible"),
            std::string::npos);
  for (const Prediction &P : X.Configs)
    EXPECT_FALSE(P.Valid);
  // Nothing can launch (a block's shared memory beyond the GPU's): no
  // pick, and not an implausibility.
  KernelProfile S = fmaKernel();
  S.Res.StaticSharedBytes = 1u << 30;
  SweepResult N = sweep(S, G);
  EXPECT_EQ(N.Status, SweepStatus::NoneLaunchable);
  EXPECT_TRUE(N.Implausible.empty());
  EXPECT_FALSE(N.Configs.empty());
  EXPECT_EQ(N.Pick.Fastest, N.Pick.OccupancyHeuristic);
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
  EXPECT_EQ(R.Status, SweepStatus::SpaceTooLarge);
  SweepResult Real = sweep(fmaKernel(), *findGPU("H100-SXM5-80GB"),
                           SweepOptions());
  EXPECT_TRUE(Real.Implausible.empty());
  EXPECT_FALSE(Real.Configs.empty());
}

} // namespace
