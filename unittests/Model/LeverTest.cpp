//===- LeverTest.cpp - Locked clocks, lever commands, bands and ties ------===//
//
// docs/MODEL.md "Levers, bands and ties": the second lever (a locked SM
// clock) beside the power limit, the commands that set them, the bands of
// every figure, and ties decided in favour of the least intrusive
// configuration.
//
//===----------------------------------------------------------------------===//
#include "ModelTestUtil.h"
#include "flipflop/Model/Recommender.h"
#include "flipflop/Target/GPUDatabase.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace flipflop;
using namespace flipflop::test;

namespace {

LaunchConfig config256(double LimitW = 0, double LockMHz = 0) {
  LaunchConfig C;
  C.Block = {256, 1, 1};
  C.TotalThreads = 1 << 22;
  C.PowerLimitW = LimitW;
  C.LockedClockMHz = LockMHz;
  return C;
}

// A locked clock f runs the kernel at min(f, the clock the power limit
// allows), never above it: on a hand GPU whose default limit holds the
// FP32-saturating kernel below its top clock, and on every GPU of the
// database for a streaming kernel.
TEST(Levers, LockedClockNeverExceedsThePowerLimitedClock) {
  GPUSpec G = handGPU();
  G.Power.DefaultLimitW = 60; // The FP32 kernel draws 100 W at 1000 MHz.
  KernelProfile K = fmaKernel(4000);
  Prediction Free = predict(K, G, config256());
  ASSERT_TRUE(Free.Valid);
  ASSERT_TRUE(Free.PowerCapped) << "the hand case needs a binding limit";
  EXPECT_EQ(Free.PowerLever, Lever::None);
  for (double F : lockableClocks(G)) {
    Prediction P = predict(K, G, config256(0, F));
    ASSERT_TRUE(P.Valid);
    EXPECT_EQ(P.PowerLever, Lever::LockedClock);
    EXPECT_DOUBLE_EQ(P.LeverValue, F);
    EXPECT_LE(P.ClockMHz, std::min(F, Free.ClockMHz) + 0.5) << F;
    EXPECT_GE(P.ClockMHz, std::min(F, Free.ClockMHz) - 1.0) << F;
    EXPECT_LE(P.AvgPowerW, G.Power.DefaultLimitW + 1e-6) << F;
  }
  for (const GPUSpec &D : allGPUs()) {
    Prediction Def = predict(copyKernel(), D, config256());
    for (double F : lockableClocks(D)) {
      Prediction P = predict(copyKernel(), D, config256(0, F));
      EXPECT_LE(P.ClockMHz, std::min(F, Def.ClockMHz) + 0.5)
          << D.Name << " " << F;
    }
  }
}

// A lower locked clock never makes a kernel faster.
TEST(Levers, LockedClockSlowsMonotonically) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel();
  double Prev = 0;
  for (double F : lockableClocks(G)) {
    Prediction P = predict(K, G, config256(0, F));
    if (Prev > 0) {
      EXPECT_LE(P.TimeS, Prev * (1 + 1e-9)) << F;
    }
    Prev = P.TimeS;
  }
}

TEST(Levers, ClockGridHasBothEndsAndRoundSteps) {
  GPUSpec G = handGPU(); // 200..1000 MHz.
  EXPECT_EQ(lockableClocks(G), (std::vector<double>{200, 300, 400, 500, 600,
                                                    700, 800, 900, 1000}));
  const GPUSpec &A = *findGPU("A100-PCIE-40GB");
  std::vector<double> C = lockableClocks(A);
  ASSERT_GE(C.size(), 3u);
  EXPECT_DOUBLE_EQ(C.front(), A.MinClockMHz);
  EXPECT_DOUBLE_EQ(C.back(), A.topClockMHz());
  for (size_t I = 1; I + 1 < C.size(); ++I)
    EXPECT_EQ(std::fmod(C[I], 100.0), 0.0) << C[I];
  for (size_t I = 1; I < C.size(); ++I)
    EXPECT_GE(C[I] - C[I - 1], 50.0);
}

TEST(Levers, OutOfRangeClockIsSaidNotClamped) {
  GPUSpec G = handGPU();
  Prediction P = predict(fmaKernel(), G, config256(0, 5000));
  // Flagged, with the request kept and the clock the board would lock
  // (the report layer words it: powerLimitNote).
  EXPECT_TRUE(P.ClockOutOfRange);
  EXPECT_DOUBLE_EQ(P.LeverValue, 1000);
  EXPECT_DOUBLE_EQ(P.Config.LockedClockMHz, 5000);
  EXPECT_LE(P.ClockMHz, 1000);
  Prediction In = predict(fmaKernel(), G, config256(0, 500));
  EXPECT_FALSE(In.ClockOutOfRange);
  EXPECT_DOUBLE_EQ(In.LeverValue, 500);
  // Below the range: locked at the lowest clock.
  Prediction Low = predict(fmaKernel(), G, config256(0, 100));
  EXPECT_TRUE(Low.ClockOutOfRange);
  EXPECT_DOUBLE_EQ(Low.LeverValue, 200);
  EXPECT_DOUBLE_EQ(Low.ClockMHz, 200);
}

TEST(Levers, PowerLimitLeverIsNamedUnlessDefault) {
  GPUSpec G = handGPU();
  EXPECT_EQ(predict(fmaKernel(), G, config256(100)).PowerLever, Lever::None);
  EXPECT_EQ(predict(fmaKernel(), G, config256(0)).PowerLever, Lever::None);
  Prediction P = predict(fmaKernel(), G, config256(60));
  EXPECT_EQ(P.PowerLever, Lever::PowerLimit);
  EXPECT_DOUBLE_EQ(P.LeverValue, 60);
  // predictLimits' shortcut (a limit above one that did not bind) names
  // its lever too.
  std::vector<Prediction> Out;
  predictLimits(copyKernel(), G, config256(), {50, 60, 100}, {}, Out);
  ASSERT_EQ(Out.size(), 3u);
  EXPECT_EQ(Out[0].PowerLever, Lever::PowerLimit);
  EXPECT_EQ(Out[1].PowerLever, Lever::PowerLimit);
  EXPECT_DOUBLE_EQ(Out[1].LeverValue, 60);
  EXPECT_EQ(Out[2].PowerLever, Lever::None);
}

TEST(Levers, CommandsNameNvidiaSmiAndNVMLAndRoot) {
  LeverCommand PL = leverCommand("power_limit", 200, 250);
  EXPECT_EQ(PL.Command, "nvidia-smi -pl 200");
  EXPECT_NE(PL.NVML.find("nvmlDeviceSetPowerManagementLimit(device, 200000)"),
            std::string::npos);
  EXPECT_EQ(PL.Reset, "nvidia-smi -pl 250");
  EXPECT_TRUE(PL.NeedsRoot);
  LeverCommand LC = leverCommand("locked_clock", 1200, 250);
  EXPECT_EQ(LC.Command, "nvidia-smi -lgc 1200,1200");
  EXPECT_EQ(LC.NVML, "nvmlDeviceSetGpuLockedClocks(device, 1200, 1200)");
  EXPECT_NE(LC.Reset.find("nvidia-smi -rgc"), std::string::npos);
  EXPECT_TRUE(LC.NeedsRoot);
  LeverCommand None = leverCommand("none", 7, 250);
  EXPECT_FALSE(None.NeedsRoot);
  EXPECT_EQ(None.Command, "");
}

TEST(Levers, BandsComeFromTheMeasuredResiduals) {
  // docs/MODEL.md section 8's table: time +/-18 % (fidelity data, worst
  // pair), power +/-6.7 % (the power fit); energy = power x time, so their
  // relative errors add in quadrature: sqrt(0.18^2 + 0.067^2) = 0.19207.
  Bands A = absoluteBands(), C = comparisonBands();
  EXPECT_DOUBLE_EQ(A.Time, 0.18);
  EXPECT_DOUBLE_EQ(A.Power, 0.067);
  EXPECT_NEAR(A.Energy, 0.192065, 1e-6);
  // Two configurations of one kernel: time +/-10 %, power +/-2.6 %,
  // energy sqrt(0.10^2 + 0.026^2) = 0.10332; narrower than absolute.
  EXPECT_DOUBLE_EQ(C.Time, 0.10);
  EXPECT_NEAR(C.Energy, 0.103325, 1e-6);
  EXPECT_LT(C.Time, A.Time);
  EXPECT_LT(C.Energy, A.Energy);
  // The same code under another lever: time +/-5 %, energy 0.05636.
  Bands L = leverComparisonBands();
  EXPECT_DOUBLE_EQ(L.Time, 0.05);
  EXPECT_NEAR(L.Energy, 0.056356, 1e-6);
  EXPECT_LT(L.Time, C.Time);
  EXPECT_DOUBLE_EQ(L.Power, C.Power);
  auto B = band(2.0, 0.25);
  EXPECT_DOUBLE_EQ(B[0], 1.5);
  EXPECT_DOUBLE_EQ(B[1], 2.5);
}

// The sweep has both levers side by side; every configuration names its
// lever, and the Pareto front is taken over all of them.
TEST(Sweep, BothLeversSideBySide) {
  GPUSpec G = handGPU();
  KernelProfile K = copyKernel();
  SweepOptions O;
  O.PowerSteps = 6;
  SweepResult R = sweep(K, G, O);
  EXPECT_EQ(R.LockedClocks.size(), 9u);
  size_t N[3] = {0, 0, 0};
  for (const Prediction &P : R.Configs) {
    ++N[unsigned(P.PowerLever)];
    if (P.PowerLever == Lever::LockedClock) {
      EXPECT_GT(P.Config.LockedClockMHz, 0);
      EXPECT_DOUBLE_EQ(P.Config.PowerLimitW, G.Power.DefaultLimitW);
    }
  }
  EXPECT_GT(N[unsigned(Lever::None)], 0u);
  EXPECT_GT(N[unsigned(Lever::PowerLimit)], 0u);
  EXPECT_EQ(N[unsigned(Lever::LockedClock)],
            (N[unsigned(Lever::None)]) * R.LockedClocks.size());
  // The heuristic runs without a lever.
  EXPECT_EQ(R.Configs[R.Pick.OccupancyHeuristic].PowerLever, Lever::None);
  // The front is Pareto over both levers: no valid configuration, of
  // either lever, is strictly better in time and energy than a point of it.
  ASSERT_FALSE(R.Pareto.empty());
  for (size_t I : R.Pareto)
    for (const Prediction &P : R.Configs)
      if (P.Valid) {
        EXPECT_FALSE(P.TimeS < R.Configs[I].TimeS &&
                     P.EnergyJ < R.Configs[I].EnergyJ);
      }
  O.SweepClocks = false;
  SweepResult P = sweep(K, G, O);
  for (const Prediction &X : P.Configs)
    EXPECT_NE(X.PowerLever, Lever::LockedClock);
}

// A tie: a recommended configuration that differs from the model's optimum
// is strictly less intrusive and its disadvantage is inside the comparison
// band; a pick without a tie has no less intrusive configuration inside the
// band. Checked on every GPU of the database for two kernels.
TEST(Ties, LeastIntrusiveWinsInsideTheBand) {
  Bands CB = comparisonBands(), LB = leverComparisonBands();
  for (const GPUSpec &G : allGPUs())
    for (const KernelProfile &K : {copyKernel(), fmaKernel()}) {
      SweepResult R = sweep(K, G);
      ASSERT_TRUE(R.HasAdvice);
      struct {
        Objective O;
        double Code, Lever;
        double (*M)(const Prediction &);
      } Cases[] = {
          {Objective::Time, CB.Time, LB.Time,
           [](const Prediction &P) { return P.TimeS; }},
          {Objective::Energy, CB.Energy, LB.Energy,
           [](const Prediction &P) { return P.EnergyJ; }},
      };
      for (const auto &C : Cases) {
        size_t Opt = C.O == Objective::Time ? R.Pick.Fastest
                                            : R.Pick.LeastEnergy;
        const Prediction &O = R.Configs[Opt];
        auto BandFor = [&](const Prediction &P) {
          bool Same = P.Config.Block == O.Config.Block &&
                      P.Config.MinBlocksPerSM == O.Config.MinBlocksPerSM;
          return Same ? C.Lever : C.Code;
        };
        size_t Adv = R.pick(C.O);
        const PickTie &T = R.tie(C.O);
        unsigned InOpt = intrusiveness(O, R.DefaultBlock);
        unsigned InAdv = intrusiveness(R.Configs[Adv], R.DefaultBlock);
        if (Adv != Opt) {
          EXPECT_TRUE(T.Tied) << G.Name;
          EXPECT_EQ(T.Optimum, Opt);
          EXPECT_LT(InAdv, InOpt) << G.Name;
          EXPECT_LE(C.M(R.Configs[Adv]) / C.M(O) - 1,
                    BandFor(R.Configs[Adv]) + 1e-12)
              << G.Name;
          EXPECT_NEAR(T.BandPct, BandFor(R.Configs[Adv]) * 100, 1e-9);
        } else {
          EXPECT_FALSE(T.Tied);
        }
        // Nothing less intrusive than the recommendation is inside the
        // band of the optimum.
        for (const Prediction &P : R.Configs)
          if (P.Valid && intrusiveness(P, R.DefaultBlock) < InAdv) {
            EXPECT_GT(C.M(P) / C.M(O) - 1, BandFor(P)) << G.Name;
          }
      }
    }
}

// A hand case: a DRAM-bound copy, where the heuristic's block (no cap, no
// lever) is within the band of the fastest, is recommended as the fastest.
TEST(Ties, DefaultWinsATieForTheStreamingCopy) {
  GPUSpec G = handGPU();
  KernelProfile K = copyKernel();
  SweepResult R = sweep(K, G);
  const Prediction &H = R.Configs[R.Pick.OccupancyHeuristic];
  const Prediction &F = R.Configs[R.Pick.Fastest];
  ASSERT_LE(H.TimeS / F.TimeS - 1, comparisonBands().Time)
      << "the heuristic must be inside the band of the fastest";
  const Prediction &A = R.Configs[R.pick(Objective::Time)];
  EXPECT_EQ(intrusiveness(A, R.DefaultBlock), 0u);
  EXPECT_EQ(A.PowerLever, Lever::None);
  EXPECT_EQ(A.Config.MinBlocksPerSM, 0u);
  // A recommendation other than the optimum is a tie, and says which.
  const PickTie &T = R.tie(Objective::Time);
  EXPECT_EQ(T.Tied, R.Pick.Fastest != R.pick(Objective::Time));
  if (T.Tied) {
    EXPECT_EQ(T.Optimum, R.Pick.Fastest);
    EXPECT_LE(T.AdvantagePct, T.BandPct);
  }
  // Without ties the pick is the model's optimum.
  SweepOptions O;
  O.ResolveTies = false;
  SweepResult S = sweep(K, G, O);
  EXPECT_FALSE(S.HasAdvice);
  EXPECT_EQ(S.pick(Objective::Time), S.Pick.Fastest);
  EXPECT_EQ(S.pick(Objective::Energy), S.Pick.LeastEnergy);
}

TEST(Ties, IntrusivenessOrder) {
  Prediction P;
  P.Config.Block = {256, 1, 1};
  std::array<unsigned, 3> D{256, 1, 1};
  EXPECT_EQ(intrusiveness(P, D), 0u);
  P.PowerLever = Lever::LockedClock;
  EXPECT_EQ(intrusiveness(P, D), 1u);
  P.Config.MinBlocksPerSM = 2;
  EXPECT_EQ(intrusiveness(P, D), 2u);
  P.Config.Block = {512, 1, 1};
  EXPECT_EQ(intrusiveness(P, D), 3u);
}

} // namespace
