//===- ExplainTest.cpp - A sweep's facts in words -------------------------===//
//
// The wording of flipflop/Report/Explain.h: exact sentences for hand-built
// sweep results (every figure chosen so its printed form is known), the
// reason a shape is held for each source, the explanation of each sweep
// status, and the notes on levers. These are the texts of remarks FF002 and
// FF010, the JSON report and flipflop-ptx.
//
//===----------------------------------------------------------------------===//
#include "../Model/ModelTestUtil.h"
#include "flipflop/Report/Explain.h"
#include "flipflop/Support/Units.h"
#include "gtest/gtest.h"

using namespace flipflop;
using namespace flipflop::test;

namespace {

const char *Tuned = "; only register caps and power limits are tuned";

Prediction pred(unsigned B, unsigned MinBlocks, double LimitW, double TimeS,
                double EnergyJ) {
  Prediction P;
  P.Config.Block = {B, 1, 1};
  P.Config.MinBlocksPerSM = MinBlocks;
  P.Config.PowerLimitW = LimitW;
  P.PowerLimitW = LimitW;
  P.TimeS = TimeS;
  P.EnergyJ = EnergyJ;
  return P;
}

/// 0: the occupancy heuristic (128 threads, no cap, no lever, 100 W);
/// 1: 256 threads, min 2 blocks, an 80 W limit; 2: the same under 60 W;
/// 3: 128 threads, min 2, 80 W.
SweepResult handSweep() {
  SweepResult R;
  R.Status = SweepStatus::Swept;
  R.PowerLimits = {60, 80, 100};
  R.NumShapes = 2;
  Prediction H = pred(128, 0, 100, 2e-3, 0.15);
  H.AvgPowerW = 75;
  H.ClockMHz = 1200;
  H.Bound = Bottleneck::DRAM;
  H.BoundShare = 0.8;
  H.PStaticW = 30; // A tie between static and SM dynamic: static.
  H.PComputeW = 30;
  H.PMemoryW = 15;
  H.Occ.Occupancy = 0.5;
  H.Occ.ActiveWarps = 32;
  H.Occ.Limiter = OccLimiter::Registers;
  H.RegsPerThread = 64;

  Prediction P = pred(256, 2, 80, 2.2e-3, 0.12);
  P.RegisterCap = 32;
  P.RegsPerThread = 32;
  P.PowerLever = Lever::PowerLimit;
  P.LeverValue = 80;
  P.AvgPowerW = 55;
  P.ClockMHz = 1000;
  P.PowerCapped = true;
  P.Bound = Bottleneck::Tail;
  P.Waves = 1.25;
  P.TailFactor = 1.6;
  P.PStaticW = 20;
  P.PComputeW = 10;
  P.PMemoryW = 30;
  P.Occ.Occupancy = 1;
  P.Occ.ActiveWarps = 64;
  P.Occ.Limiter = OccLimiter::Warps;
  P.SpillBytesPerThread = 8;

  Prediction Lower = P; // +10 % time, -5 % energy.
  Lower.Config.PowerLimitW = Lower.PowerLimitW = Lower.LeverValue = 60;
  Lower.TimeS = 2.42e-3;
  Lower.EnergyJ = 0.114;
  Lower.ClockMHz = 900;

  Prediction Half = P; // +20 % time, +10 % energy.
  Half.Config.Block = {128, 1, 1};
  Half.TimeS = 2.64e-3;
  Half.EnergyJ = 0.132;
  Half.Bound = Bottleneck::L2;
  Half.Occ.Occupancy = 0.75;

  R.Configs = {H, P, Lower, Half};
  R.Pareto = {0, 1, 2};
  R.SearchSpaceReduction = 0.25;
  R.Pick.OccupancyHeuristic = 0;
  R.Pick.Fastest = 0;
  R.Pick.LeastEnergy = R.Pick.BestEDP = R.Pick.EnergyWithinBudget = 2;
  // Recommended for the budget: 1, a tie against the optimum 2.
  R.Advice = R.Pick;
  R.Advice.EnergyWithinBudget = 1;
  R.HasAdvice = true;
  R.TieBudget.Tied = true;
  R.TieBudget.Optimum = 2;
  R.TieBudget.AdvantagePct = 3.04;
  R.TieBudget.BandPct = 10.3;
  return R;
}

KernelProfile guessingKernel() {
  KernelProfile K;
  K.Guesses = {"trip count of loop 1 assumed 16", "n unknown"};
  return K;
}

const std::string HeuristicText =
    "128 threads, no register cap, no lever (default power limit, clocks not "
    "locked), 100 W limit: 2 ms (+/-18%), 150 mJ (+/-19%) (75 W +/-7% at "
    "1200 MHz). Bound by DRAM bandwidth (80% of the time). The largest share "
    "of energy is static power (40%; static 40%, SM dynamic 40%, DRAM 20%). "
    "Occupancy 50% (32 warps/SM, limited by registers, 64 registers). "
    "Guessed: trip count of loop 1 assumed 16; n unknown.";

const std::string PickText =
    "256 threads, __launch_bounds__ min 2 blocks/SM (cap 32 registers), "
    "lever power limit 80 W (nvidia-smi -pl 80, "
    "nvmlDeviceSetPowerManagementLimit(device, 80000) /* mW */; needs root), "
    "80 W limit: 2.2 ms (+/-18%), 120 mJ (+/-19%) (55 W +/-7% at 1000 MHz); "
    "20.0% less energy and 0.91x the speed of the occupancy heuristic. Bound "
    "by the partial last wave (1.25 waves, tail costs 60%); the power limit "
    "lowers the clock to 1000 MHz. The largest share of energy is DRAM "
    "traffic (50%; static 33%, SM dynamic 17%, DRAM 50%). Occupancy 100% (64 "
    "warps/SM, limited by warps, 32 registers), 8 B/thread spilled. A "
    "128-thread block: +20.0% time, +10.0% energy (l2-bound, occupancy 75%). "
    "A 60 W limit: +10.0% time, -5.0% energy (900 MHz). Guessed: trip count "
    "of loop 1 assumed 16; n unknown.";

const std::string TieText =
    " Tie: the model's optimum (256 threads, min-blocks 2, power_limit 60 W) "
    "is better by 3.0%, inside the +/-10% band of a comparison, so the less "
    "intrusive configuration is recommended.";

// Spill traffic a thread, as the explanation and FF016 print it.
TEST(Explain, BytesText) {
  EXPECT_EQ(flipflop::bytesText(8), "8 B");
  EXPECT_EQ(flipflop::bytesText(9999), "9999 B");
  EXPECT_EQ(flipflop::bytesText(90432), "90.4 KB");
  EXPECT_EQ(flipflop::bytesText(999960), "1.0 MB"); // Not "1000.0 KB".
  EXPECT_EQ(flipflop::bytesText(1398784), "1.4 MB");
  EXPECT_EQ(flipflop::bytesText(2.1e9), "2.1 GB");
}

TEST(Explain, ConfigurationByHand) {
  SweepResult R = handSweep();
  KernelProfile K = guessingKernel();
  EXPECT_EQ(explainConfig(R, 0, K), HeuristicText);
  EXPECT_EQ(explainConfig(R, 1, K), PickText);
  EXPECT_EQ(explainConfig(R, 4, K), "");
  // A held shape is not compared with other blocks.
  R.ShapeHeld = true;
  EXPECT_EQ(explainConfig(R, 1, K).find("-thread block"), std::string::npos);
  R.Configs[3].Valid = false;
  R.Configs[3].Invalid = "no block fits on an SM";
  EXPECT_EQ(explainConfig(R, 3, K), "not launchable: no block fits on an SM.");
}

TEST(Explain, LockedClockAndLaunchBound) {
  SweepResult R;
  Prediction P = pred(256, 0, 100, 5e-6, 2e-4);
  P.Config.LockedClockMHz = 1100;
  P.PowerLever = Lever::LockedClock;
  P.LeverValue = 1100;
  P.PowerCapped = true;
  P.ClockMHz = 1050;
  P.AvgPowerW = 40;
  P.Bound = Bottleneck::Launch;
  R.Configs = {P};
  std::string S = explainConfig(R, 0, KernelProfile());
  EXPECT_EQ(S.rfind("256 threads, no register cap, lever SM clock locked at "
                    "1100 MHz under the default power limit (nvidia-smi -lgc "
                    "1100,1100, nvmlDeviceSetGpuLockedClocks(device, 1100, "
                    "1100); needs root), 100 W limit: 5 us (+/-18%), 200 uJ "
                    "(+/-19%) (40 W +/-7% at 1050 MHz). Bound by launch "
                    "overhead; the default power limit holds the clock below "
                    "the lock, at 1050 MHz. ",
                    0),
            0u)
      << S;
}

/// A 2 ms, 100 mJ configuration at 50 W and 1400 MHz bound by \p B for
/// \p Share of its time.
static Prediction boundPred(unsigned Block, Bottleneck B, double Share) {
  Prediction P = pred(Block, 0, 100, 2e-3, 0.1);
  P.AvgPowerW = 50;
  P.ClockMHz = 1400;
  P.Bound = B;
  P.BoundShare = Share;
  return P;
}

TEST(Explain, IssueBoundNamesItsBusiestPipe) {
  SweepResult R;
  Prediction P = boundPred(256, Bottleneck::Issue, 0.9);
  P.BusiestPipe = IssuePipe::SFU;
  P.BusiestPipeShare = 0.8;
  R.Configs = {P};
  std::string S = explainConfig(R, 0, KernelProfile());
  EXPECT_NE(S.find("Bound by instruction issue (90% of the time); busiest: "
                   "the special-function unit (sin/cos/exp/rsqrt/division), "
                   "80% of the issue time. "),
            std::string::npos)
      << S;
  // Not named when another part bounds the time.
  R.Configs[0].Bound = Bottleneck::DRAM;
  EXPECT_EQ(explainConfig(R, 0, KernelProfile()).find("busiest"),
            std::string::npos);
  EXPECT_STREQ(issuePipeName(IssuePipe::Conversion), "conversion");
  EXPECT_STREQ(issuePipeName(IssuePipe::Dispatch), "dispatch");
  EXPECT_STREQ(issuePipeName(IssuePipe::MioPort), "mio_port");
}

TEST(Explain, LatencyBehindBarriersSaysWhatHidesIt) {
  SweepResult R;
  Prediction P = boundPred(1024, Bottleneck::Latency, 0.8);
  P.TLatencyS = 1.6e-3;
  P.TBarrierPhaseS = 1.0e-3;
  R.Configs = {P};
  std::string S = explainConfig(R, 0, KernelProfile());
  EXPECT_NE(S.find("Bound by latency behind barriers (80% of the time): a "
                   "block's warps wait for each phase's loads together, so "
                   "only the SM's other blocks hide them (more resident "
                   "blocks, or fewer barrier phases such as double-buffered "
                   "tiles, would). "),
            std::string::npos)
      << S;
  // Where the phases are the smaller part, the usual words.
  R.Configs[0].TBarrierPhaseS = 0.2e-3;
  EXPECT_NE(explainConfig(R, 0, KernelProfile())
                .find("Bound by latency (too few resident warps"),
            std::string::npos);
}

TEST(Explain, PickWithItsTie) {
  SweepResult R = handSweep();
  KernelProfile K = guessingKernel();
  EXPECT_EQ(explainPick(R, Objective::EnergyWithinBudget, K),
            PickText + TieText);
  // No tie: the configuration alone.
  EXPECT_EQ(explainPick(R, Objective::Time, K), HeuristicText);
}

TEST(Explain, SweepWithPicks) {
  SweepResult R = handSweep();
  KernelProfile K = guessingKernel();
  const std::string Space =
      "4 launchable configurations (2 block shapes x register caps x (3 "
      "power limits + 0 locked clocks)); 3 are Pareto-optimal (25.0% of the "
      "space ruled out)";
  SweepTexts T = sweepTexts(R, K);
  EXPECT_EQ(T.ShapeReason, "");
  EXPECT_EQ(T.Picks[0], HeuristicText);
  EXPECT_EQ(T.Picks[2], PickText + TieText);
  EXPECT_EQ(T.Picks[4], HeuristicText);
  EXPECT_EQ(T.Explanation, Space + ". Least energy within 5% of the "
                                   "fastest: " + PickText + TieText);
  EXPECT_EQ(explainSweep(R, K), T.Explanation);
  R.Obj = Objective::Time;
  EXPECT_EQ(explainSweep(R, K), Space + ". Fastest: " + HeuristicText);
  R.Obj = Objective::Energy;
  EXPECT_EQ(explainSweep(R, K), Space + ". Least energy: " + T.Picks[1]);
  R.Obj = Objective::EDP;
  EXPECT_EQ(explainSweep(R, K),
            Space + ". Least energy x delay: " + T.Picks[3]);
  R.Obj = Objective::EnergyWithinBudget;
  R.SlowdownBudgetPct = 7.5;
  EXPECT_NE(explainSweep(R, K).find(". Least energy within 8% of the "
                                    "fastest: "),
            std::string::npos);
  // The shape: held, or narrowed by checks.
  R.ShapeHeld = true;
  R.Shape = ShapeSource::Tile;
  EXPECT_EQ(explainSweep(R, K).find(Space + "; block shape held: a "
                                            "shared-memory tile"),
            0u);
  R.ShapeHeld = false;
  R.Shape = ShapeSource::Checks;
  K.Shape.CheckFacts = {"blockDim.x <= 64 is asserted at line 3"};
  EXPECT_EQ(explainSweep(R, K).find(
                Space + "; block shapes limited by the code: blockDim.x <= "
                        "64 is asserted at line 3. "),
            0u);
}

TEST(Explain, SweepWithoutPicks) {
  SweepResult R;
  KernelProfile K;
  EXPECT_EQ(explainSweep(R, K), ""); // Not a sweep.
  R.Status = SweepStatus::GivenConfig;
  EXPECT_EQ(explainSweep(R, K), "single configuration given with --block");
  R.Status = SweepStatus::ImplausibleProfile;
  R.Implausible = "2e+09 instructions per thread";
  EXPECT_EQ(explainSweep(R, K), "no recommendation: the profile is "
                                "implausible (2e+09 instructions per thread)");
  R.Status = SweepStatus::SpaceTooLarge;
  R.Implausible = "too many";
  EXPECT_EQ(explainSweep(R, K), "no recommendation: too many");
  R.Status = SweepStatus::AllImplausible;
  EXPECT_EQ(explainSweep(R, K), "no recommendation: too many");
  R.Status = SweepStatus::NoneLaunchable;
  EXPECT_EQ(explainSweep(R, K), "no configuration can launch");
  R.Configs = {Prediction()};
  R.Configs[0].Valid = false;
  R.Configs[0].Invalid = "empty block";
  EXPECT_EQ(explainSweep(R, K), "no configuration can launch: empty block");
  // No pick explanations without picks.
  SweepTexts T = sweepTexts(R, K);
  for (const std::string &S : T.Picks)
    EXPECT_EQ(S, "");
}

TEST(Explain, ShapeReasonBySource) {
  SweepResult R;
  KernelProfile K;
  EXPECT_EQ(shapeReason(R, K), "");
  R.Shape = ShapeSource::Required;
  K.Bounds.ReqNTid = {16, 16, 0};
  EXPECT_EQ(shapeReason(R, K),
            std::string("the kernel requires blockDim = (16, 16, 1) (reqntid)") +
                Tuned);
  R.Shape = ShapeSource::Checks;
  K.Shape.CheckFacts = {"blockDim.x == 128 is required", "blockDim.y <= 4"};
  EXPECT_EQ(shapeReason(R, K),
            "blockDim.x == 128 is required; blockDim.y <= 4");
  R.ShapeHeld = true;
  EXPECT_EQ(shapeReason(R, K),
            std::string("blockDim.x == 128 is required; blockDim.y <= 4") +
                Tuned);
  R.Shape = ShapeSource::Tile;
  EXPECT_EQ(shapeReason(R, K), std::string("a shared-memory tile indexed by "
                                           "threadIdx fixes the block shape") +
                                   Tuned);
  K.Shape.FixedReason = "tile[8][32] indexed by threadIdx";
  R.Shape = ShapeSource::TileBounds;
  EXPECT_EQ(shapeReason(R, K), std::string("tile[8][32] indexed by threadIdx; "
                                           "shape taken from "
                                           "__launch_bounds__") +
                                   Tuned);
  R.Shape = ShapeSource::TileUnknown;
  EXPECT_EQ(shapeReason(R, K), std::string("tile[8][32] indexed by threadIdx; "
                                           "the shape is unknown, 256 threads "
                                           "assumed") +
                                   Tuned);
}

TEST(Explain, RealSweepNamesItsPicks) {
  // A sweep of the model, worded: the reqntid shape, the guesses, the tie.
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel();
  K.Bounds.ReqNTid = {16, 16, 1};
  K.Guesses.push_back("trip count of the loop at line 7 (n unknown)");
  SweepResult R = sweep(K, G);
  SweepTexts T = sweepTexts(R, K);
  EXPECT_EQ(T.ShapeReason.rfind("the kernel requires blockDim = (16, 16, 1) "
                                "(reqntid)",
                                0),
            0u);
  for (unsigned I = 0; I < 5; ++I) {
    EXPECT_EQ(T.Picks[I].rfind("16x16 threads, ", 0), 0u) << I;
    EXPECT_NE(T.Picks[I].find("Bound by"), std::string::npos) << I;
    EXPECT_NE(T.Picks[I].find(". Occupancy "), std::string::npos) << I;
    EXPECT_NE(T.Picks[I].find("Guessed: trip count"), std::string::npos) << I;
    const Objective Obj[4] = {Objective::Time, Objective::Energy,
                              Objective::EnergyWithinBudget, Objective::EDP};
    EXPECT_EQ(T.Picks[I].find("Tie: ") != std::string::npos,
              I < 4 && R.tie(Obj[I]).Tied)
        << I;
  }
  EXPECT_NE(T.Explanation.find("; block shape held: the kernel requires"),
            std::string::npos);
}

TEST(Explain, PowerLimitNotes) {
  const GPUSpec &A = *findGPU("RTX-A4000");
  Prediction P;
  P.Config.PowerLimitW = 5000;
  P.PowerLimitW = 140;
  P.LimitOutOfRange = true;
  EXPECT_EQ(powerLimitNote(A, P),
            "power limit 5000 W is outside the 100-140 W that RTX-A4000 "
            "accepts (nvidia-smi -pl refuses it); modelled at 140 W");
  Prediction U;
  U.Config.PowerLimitW = U.PowerLimitW = 20;
  U.LimitUnreachable = true;
  U.AvgPowerW = 43.4;
  U.ClockMHz = 210;
  EXPECT_EQ(powerLimitNote(A, U),
            "power limit 20 W is unreachable for this kernel on RTX-A4000: it "
            "draws 43 W even at the lowest clock (210 MHz), where it is "
            "modelled");
  GPUSpec G = handGPU(); // 200..1000 MHz.
  Prediction C = predict(fmaKernel(), G, [] {
    LaunchConfig L;
    L.LockedClockMHz = 5000;
    return L;
  }());
  EXPECT_EQ(powerLimitNote(G, C),
            "locked clock 5000 MHz is outside the 200-1000 MHz of hand "
            "(nvidia-smi -lgc refuses it); modelled at 1000 MHz");
  EXPECT_EQ(powerLimitNote(G, Prediction()), "");
}

TEST(Explain, LeverTooShortNotes) {
  // A power limit acts on ~100 ms averages; a clock lock costs ~1 ms to set
  // and to reset, worth it from 20 of them.
  EXPECT_EQ(leverTooShortNote("power_limit", 50e-6),
            "too short for a power limit of its own: 0.05 ms per launch, "
            "while the limit is enforced on power averaged over ~100 ms; set "
            "it for the whole application instead");
  EXPECT_EQ(leverTooShortNote("power_limit", 0.5), "");
  EXPECT_EQ(leverTooShortNote("locked_clock", 5e-3),
            "too short to lock the clock around it: 5 ms per launch, while "
            "setting and resetting the clock costs ~1 ms each; set it for "
            "the whole application instead");
  EXPECT_EQ(leverTooShortNote("locked_clock", 0.05), "");
  EXPECT_EQ(leverTooShortNote("none", 1e-6), "");
}

} // namespace
