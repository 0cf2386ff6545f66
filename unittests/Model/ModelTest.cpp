//===- ModelTest.cpp - Each equation of the model on hand-computed cases --===//
//
// The GPU and kernels come from ModelTestUtil.h; every expected figure is
// worked out by hand in the comments from docs/MODEL.md's equations and the
// constants of ModelConstants.h, and written down as a number: a changed
// equation or constant changes the figure and fails the test.
//
//===----------------------------------------------------------------------===//
#include "ModelTestUtil.h"
#include "flipflop/Model/ModelConstants.h"
#include "flipflop/Profile/LaneSplit.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace flipflop;
using namespace flipflop::test;
namespace mc = flipflop::modelconst;

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

TEST(PowerCurve, VoltageFloorAndRamp) {
  PowerCurve C = powerCurve(handGPU());
  EXPECT_FALSE(C.Derived);
  EXPECT_DOUBLE_EQ(voltageRatio(C, 500), 0.8);  // Below the knee: floor.
  EXPECT_DOUBLE_EQ(voltageRatio(C, 600), 0.8);
  EXPECT_DOUBLE_EQ(voltageRatio(C, 800), 0.9);  // 0.8 + 0.2 * 200/400.
  EXPECT_DOUBLE_EQ(voltageRatio(C, 1000), 1.0);
}

TEST(PowerCurve, BoardPower) {
  GPUSpec G = handGPU();
  // Static grows as (V/Vfloor)^0.5: 20 * sqrt(0.9/0.8) = 21.2132 W, plus
  // 80 * (800/1000) * 0.9^2 = 51.84 W.
  EXPECT_NEAR(boardPower(G, 800, 1.0), 73.053203, 1e-6);
  // Half the activity: 21.2132 + 40 * 0.648 = 47.1332 W.
  EXPECT_NEAR(boardPower(G, 800, 0.5), 47.133203, 1e-6);
  EXPECT_NEAR(staticPower(powerCurve(G), 800), 21.213203, 1e-6);
  // Below the knee power is linear in the clock: 20 + 80 * 0.5 * 0.64.
  EXPECT_NEAR(boardPower(G, 500, 1.0), 45.6, 1e-9);
}

TEST(PowerCurve, ClockUnderLimit) {
  GPUSpec G = handGPU();
  // 20 sqrt(v/0.8) + 80 x v^2 = 70 with v = 0.5 + 0.5 x  =>  x = 0.77581
  // (bisection by hand).
  EXPECT_NEAR(clockUnderPowerLimit(G, 70, 1.0), 775.81, 0.01);
  EXPECT_DOUBLE_EQ(clockUnderPowerLimit(G, 110, 1.0), 1000); // Fits.
  EXPECT_DOUBLE_EQ(clockUnderPowerLimit(G, 10, 1.0), 200);   // Floor.
}

TEST(PowerCurve, DerivedFromDatasheet) {
  GPUSpec G = handGPU();
  G.Power.CurveStaticW = G.Power.CurveDynW = 0;
  G.Power.VoltKneeMHz = G.Power.VoltFloorRatio = 0;
  PowerCurve C = powerCurve(G);
  EXPECT_TRUE(C.Derived);
  // Static: the idle figure of the A100-PCIe it is built from (HBM2: no
  // memory background). Dynamic: 12.204 pJ per FP32 lane op x 10 SMs x 64
  // lanes x 1000 MHz. Knee 0.80 x boost, floor 0.72 (fit-power-curve.py).
  // 12.204e-12 J x 640 lanes x 1e9 /s = 7.81056 W.
  EXPECT_NEAR(C.StaticW, 35, 1e-9);
  EXPECT_NEAR(C.DynW, 7.81056, 1e-9);
  EXPECT_NEAR(C.KneeMHz, 800, 1e-9);
  EXPECT_NEAR(C.FloorRatio, 0.72, 1e-12);
  EXPECT_DOUBLE_EQ(C.StaticVoltExp, 0.5);
}

// out[i] = in[i], 256 threads, 204,800 threads: 8 blocks/SM (64 warps), 800
// blocks = exactly 10 full waves on 10 SMs.
TEST(Time, StreamingHandCase) {
  GPUSpec G = handGPU();
  Prediction P = predict(copyKernel(), G, config(256, 204800));
  ASSERT_TRUE(P.Valid) << P.Invalid;
  EXPECT_EQ(P.Occ.BlocksPerSM, 8u);
  EXPECT_DOUBLE_EQ(P.Waves, 10.0);
  EXPECT_EQ(P.Config.Grid[0], 800u);
  // Per round: DRAM 8 blocks x 10 SMs x 2048 B / (100 GB/s x 0.85) =
  // 1927.53 ns; ten rounds.
  EXPECT_NEAR(P.TDramS, 19.27529e-6, 1e-11);
  // Latency of one warp: one load at 200 cycles + 250 ns = 450 ns.
  EXPECT_NEAR(P.TLatencyS, 4.5e-6, 1e-15);
  // Issue: 2 LSU warp instructions x 8 warps x 32 lanes / 32 lanes = 16
  // cycles per block, 128 per round of 8 blocks; the schedulers' 2 x 8 / 4
  // = 4 cycles per block (32 per round) join them in the unit soft maximum
  // (p = 2): sqrt(128^2 + 32^2) = 131.939 cycles. The MIO's queue holds
  // the LSU's 128; the two queues' soft maximum (8-norm): 131.939 x (1 +
  // 0.97015^8)^(1/8) = 141.847 cycles = 141.847 ns at 1 GHz.
  static_assert(mc::UnitOverlapNorm == 2, "hand cases assume p = 2");
  static_assert(mc::QueueOverlapNorm == 8, "hand cases assume an 8-norm");
  EXPECT_NEAR(P.TComputeS, 1.418466e-6, 1e-12);
  // L2: 8 x 2048 B / 64 B/clk = 256 cycles per round.
  EXPECT_NEAR(P.TL2S, 2.56e-6, 1e-15);
  // Throughput of a round: the L2 port joins issue in the soft maximum,
  // hypot(141.85, 256) = 292.7 ns, below DRAM's 1927.53 ns. A round: the
  // 3-norm of 1927.53 ns (DRAM) and 450 ns (latency) = 1927.53 x (1 +
  // 0.23346^3)^(1/3) = 1935.67 ns; ten rounds plus the 4 us launch:
  // 23.3567 us.
  static_assert(mc::OverlapNorm == 3, "hand cases assume a 3-norm");
  EXPECT_NEAR(P.TimeS, 23.35670e-6, 1e-11);
  EXPECT_EQ(P.Bound, Bottleneck::DRAM);
  EXPECT_FALSE(P.PowerCapped);
  EXPECT_DOUBLE_EQ(P.ClockMHz, 1000);
  EXPECT_DOUBLE_EQ(P.DramBytes, 1638400);
}

TEST(Energy, StreamingHandCase) {
  GPUSpec G = handGPU();
  Prediction P = predict(copyKernel(), G, config(256, 204800));
  // Static 20 W x sqrt(1/0.8) = 22.3607 W (at the top clock, V = Vmax)
  // for the 23.3567 us: 522.272 uJ.
  EXPECT_NEAR(P.PStaticW, 22.36068, 1e-5);
  // Cycle power 0.3 x 80 W = 24 W on all SMs for the 19.3567 us of rounds:
  // 464.561 uJ. Work: 800 blocks x (256 lanes x 2 LSU ops x 1.2 + 2048 L2
  // bytes x 1.5 = 3686.4 units) x 80 W x 0.7 / (10 SMs x 64 lanes x 1 GHz)
  // = 87.5 pJ per unit: 258.048 uJ. DRAM: 1,638,400 B x 48 pJ = 78.6432 uJ.
  EXPECT_NEAR(P.PMemoryW * P.TimeS, 78.6432e-6, 1e-12);
  // Total 1323.52 uJ.
  EXPECT_NEAR(P.EnergyJ, 1.323524e-3, 1e-9);
  EXPECT_NEAR(P.AvgPowerW, P.EnergyJ / P.TimeS, 1e-9);
}

// 1000 FP32 FMAs per thread at ILP 4: the FP32 pipes are the limit, exactly
// the reference kernel of the power curve.
TEST(Time, ComputeHandCase) {
  GPUSpec G = handGPU();
  G.Power.DefaultLimitW = G.Power.MaxLimitW = 150;
  Prediction P = predict(fmaKernel(), G, config(256, 204800));
  // Issue: 8 warps x 1000 x 32 / 64 = 4000 FP32 cycles per block and
  // 8 x 1000 / 4 = 2000 scheduler cycles, soft maximum (p = 2), 8 blocks:
  // sqrt(32000^2 + 16000^2) = 35777.09 cycles per round. Latency path:
  // max(1000 x 4 / 4, 1000 x (32 x 4 / 64)) = 2000 cycles. No L2 bytes. A
  // round, the 3-norm: 35777.09 x (1 + 0.0559^3)^(1/3) = 35779.17 ns; ten
  // rounds plus the launch: 361.7917 us.
  EXPECT_NEAR(P.TimeS, 361.7917e-6, 1e-10);
  EXPECT_EQ(P.Bound, Bottleneck::Issue);
  // Energy: 22.3607 W static x 361.79 us = 8.0899 mJ, 24 W cycle power x
  // 357.79 us = 8.5870 mJ, 2.048e8 lane ops x 87.5 pJ = 17.92 mJ.
  EXPECT_NEAR(P.EnergyJ, 34.59691e-3, 1e-8);
  // 34.597 mJ / 361.79 us = 95.63 W: below the curve's 22.36 + 80 W at the
  // top clock, which belongs to a kernel that saturates the FP32 pipes;
  // this one is stretched by scheduler contention.
  EXPECT_NEAR(P.AvgPowerW, 95.6266, 1e-3);
}

/// A kernel of \p Ops instructions per thread of each class, ILP 4, MLP 8,
/// 32 registers (exact).
static KernelProfile opsKernel(
    const char *Name, std::initializer_list<std::pair<OpClass, double>> Ops) {
  KernelProfile K;
  K.Name = Name;
  for (auto [C, N] : Ops)
    K.op(C) = N;
  K.ILP = 4;
  K.MLP = 8;
  K.Res.Registers = 32;
  K.Res.RegistersExact = true;
  finalizeProfile(K);
  return K;
}

/// Conversions to f32 from 32-bit integers: I2F on the conversion pipe up to
/// compute capability 8.0, I2FP on the integer pipe from 8.6 on (ptxas 13.0
/// SASS; docs/MODEL.md, "Conversions").
TEST(Time, IntToFloatConversionsFollowTheArchitecture) {
  KernelProfile K = opsKernel("i2f", {{OpClass::Conv, 1000}});
  K.ConvIntToF32 = 1000;
  KernelProfile F2I = K; // The other way round: F2I everywhere.
  F2I.ConvIntToF32 = 0;
  GPUSpec G80 = handGPU(); // sm_80: 16 conversion lanes.
  GPUSpec G86 = handGPU();
  G86.CCMinor = 6;
  LaunchConfig C = config(256, 204800);
  // sm_80: both run on the conversion pipe, 8 warps x 1000 x 32 / 16 =
  // 16000 cycles a block.
  EXPECT_DOUBLE_EQ(predict(K, G80, C).TimeS, predict(F2I, G80, C).TimeS);
  EXPECT_DOUBLE_EQ(predict(F2I, G86, C).TimeS, predict(F2I, G80, C).TimeS);
  // sm_86: I2FP on the 64 integer lanes, 4000 cycles a block, in the soft
  // maximum (p = 2) with the schedulers' 2000: sqrt(4000^2 + 2000^2) =
  // 4472.1 cycles. F2I stays on the conversion pipe, which runs beside the
  // schedulers (the MIO queue's pipes contend only with one another): 16000
  // cycles, a ratio of 3.578; the launch overhead both carry brings the
  // times' ratio to 3.549.
  double Ratio = predict(F2I, G86, C).TimeS / predict(K, G86, C).TimeS;
  EXPECT_NEAR(Ratio, 3.549, 0.005);
  EXPECT_LT(Ratio, 16000 / 4472.1);
}

/// The MIO hands memory, conversion and special-function instructions to
/// their pipes at the LSU's warp-instruction rate (docs/MODEL.md, "Issue
/// time", session 26): 1000 shared loads and 1000 F2I conversions a thread.
TEST(Time, TheMioPortRunsAtTheLsuRate) {
  KernelProfile K = opsKernel(
      "ld+cvt", {{OpClass::LoadShared, 1000}, {OpClass::Conv, 1000}});
  // Shuffles instead of conversions.
  KernelProfile Shfl = opsKernel(
      "ld+shfl", {{OpClass::LoadShared, 1000}, {OpClass::Shuffle, 1000}});
  GPUSpec Wide = handGPU(); // 32 LSU lanes (GA100).
  Wide.Power.DefaultLimitW = Wide.Power.MaxLimitW = 150;
  GPUSpec Half = Wide;      // 16 LSU lanes (Turing, GA10x).
  Half.Throughput.LdSt = 16;
  LaunchConfig C = config(256, 204800); // 10 rounds of 8 blocks a SM.
  auto Issue = [&](const KernelProfile &P, const GPUSpec &G) {
    Prediction R = predict(P, G, C);
    EXPECT_TRUE(R.Valid);
    EXPECT_DOUBLE_EQ(R.ClockMHz, 1000);
    return R.TComputeS / (10 * 8) * 1e9; // Cycles a block.
  };
  // The schedulers' queue: its 8 x 2000 / 4 = 4000 cycles with the LSU's
  // (p = 2); the MIO's as below; the issue time is the two queues' 8-norm.
  // 32 lanes: the LSU 8 warps x 1000 x 32 / 32 = 8000 cycles, the
  // conversions 8 x 1000 x 32 / 16 = 16000; the port, one instruction a
  // clock, 16000; the MIO's soft maximum (p = 2) 17888.5 is the larger,
  // against the schedulers' hypot(8000, 4000) = 8944.3: 17897.3.
  EXPECT_NEAR(Issue(K, Wide), 17897.3, 1);
  // 16 lanes: LSU and conversions 16000 each, soft maximum 22627.4; the
  // port, one instruction per 2 clocks, takes both in turn: 32000; against
  // the schedulers' hypot(16000, 4000) = 16492.4: 32019.9.
  EXPECT_NEAR(Issue(K, Half), 32019.9, 1);
  // Shuffles (32 lanes a clock on both) stay off the port: the soft
  // maximum of the LSU's 16000 and the shuffles' 8000, 17888.5; the two
  // queues nearly equal (16492.4): 18852.9.
  EXPECT_NEAR(Issue(Shfl, Half), 18852.9, 1);
}

/// A byte gather whose offset is loaded data (dedispersion's
/// input[channel][sample + shift]): the warp's run starts anywhere in a
/// sector, and its rows (y) read 0.16 B apart. Each sector beyond what the
/// aligned run needs holds the MIO's port for one sector at the L1's rate,
/// 32 B / 128 B = a quarter clock (docs/MODEL.md, "Issue time", session 28).
TEST(Time, ARunShiftedByDataCostsThePortItsExtraSectors) {
  KernelProfile K = opsKernel(
      "gather", {{OpClass::LoadGlobal, 1000}, {OpClass::Conv, 1000}});
  MemAccess A = globalAccess(false, 1, 1000);
  A.ThreadDims = 1; // x
  A.ThreadDimsKnown = true;
  A.SmoothDims = 2; // y: a data-scaled coordinate
  A.SmoothStepBytes[1] = 0.16;
  A.ReadOnly = true;
  K.Accesses.push_back(A);
  finalizeProfile(K);
  GPUSpec G = handGPU();
  G.Power.DefaultLimitW = G.Power.MaxLimitW = 150;
  G.Throughput.LdSt = 16; // The port binds: 2 clocks a warp instruction.
  GPUSpec Slow = G;       // An L1 of 64 B a clock: half a clock a sector.
  Slow.L1BytesPerClkPerSM = 64;
  auto Cycles = [&](const GPUSpec &Gpu, unsigned X, unsigned Y) {
    LaunchConfig C = config(X, 204800);
    C.Block = {X, Y, 1};
    Prediction R = predict(K, Gpu, C);
    EXPECT_TRUE(R.Valid);
    return R.TComputeS / (10 * 8) * 1e9; // Cycles a block (1000 MHz).
  };
  // The port: 8 warps x 1000 loads x 2 clocks plus the conversions'
  // 8 x 1000 x 2 = 32000 cycles, and the extra sectors. A 16 x 16 block:
  // the run is 16 B, its two rows 0.16 B apart, 1 + 15/32 + 0.16/32 =
  // 1.49375 sectors against 1 aligned: 8 x 1000 x 0.49375 = 3950 extra
  // sectors a block, 987.5 cycles at 128 B a clock, 1975 at 64 B.
  double Wide16 = Cycles(G, 16, 16), Slow16 = Cycles(Slow, 16, 16);
  // A 4 x 64 block: a 4 B run over 8 rows, 1 + 3/32 + 7 x 0.16/32 =
  // 1.12875 sectors, 1030 extra sectors a block: 257.5 cycles.
  double Wide4 = Cycles(G, 4, 64), Slow4 = Cycles(Slow, 4, 64);
  // The port sets the issue time here (the queues' and the round's soft
  // maxima pass on 95-100 % of a port cycle), so each shape's time moves
  // by about its extra sectors' cycles.
  EXPECT_NEAR(Slow16 - Wide16, 987.5, 0.06 * 987.5);
  EXPECT_NEAR(Slow4 - Wide4, 257.5, 0.06 * 257.5);
  // So the wide rows cost the block 730 port cycles more, about 700 after
  // the soft maxima (687.4).
  EXPECT_NEAR(Wide16 - Wide4, 700, 0.04 * 700);
}

TEST(DVFS, ComputeBoundFollowsTheCurve) {
  GPUSpec G = handGPU();
  G.Power.DefaultLimitW = G.Power.MaxLimitW = 150;
  Prediction Free = predict(fmaKernel(), G, config(256, 204800, 150));
  Prediction Cap = predict(fmaKernel(), G, config(256, 204800, 70));
  EXPECT_TRUE(Cap.PowerCapped);
  EXPECT_LE(Cap.AvgPowerW, 70 + 1e-6);
  EXPECT_GT(Cap.AvgPowerW, 69.5);
  // Above the clock the reference curve gives for 70 W (784.8 MHz): the
  // kernel runs at 1/hypot(1, 0.5) = 89% of the reference activity (issue
  // contention), so 70 W buys more clock.
  EXPECT_GT(Cap.ClockMHz, 784.8);
  EXPECT_LT(Cap.ClockMHz, 840);
  // Compute-bound: time scales with 1 / clock.
  double Ratio = (Cap.TimeS - mc::LaunchOverheadS) /
                 (Free.TimeS - mc::LaunchOverheadS);
  EXPECT_NEAR(Ratio, 1000 / Cap.ClockMHz, 1e-3);
}

TEST(DVFS, MemoryBoundBarelySlows) {
  GPUSpec G = handGPU();
  G.Power.MinLimitW = 1;
  KernelProfile K = copyKernel(16, 8); // 16 B vectors, 8 per thread.
  K.MLP = 8;
  Prediction Free = predict(K, G, config(256, 1 << 22));
  double Dyn = Free.AvgPowerW - 20;
  Prediction Cap = predict(K, G, config(256, 1 << 22, 20 + 0.6 * Dyn));
  ASSERT_TRUE(Cap.PowerCapped);
  double ClockDrop = 1000 / Cap.ClockMHz - 1;
  double Slowdown = Cap.TimeS / Free.TimeS - 1;
  EXPECT_GT(ClockDrop, 0.2);
  EXPECT_LT(Slowdown, 0.25 * ClockDrop);
  EXPECT_EQ(Cap.Bound, Bottleneck::DRAM);
}

TEST(Time, TailOfThePartialWave) {
  GPUSpec G = handGPU();
  // 81 blocks: one full wave of 80 (8 per SM on 10 SMs) and one block alone.
  Prediction P = predict(fmaKernel(), G, config(256, 81 * 256));
  // The full wave: 35779.17 ns (Time.ComputeHandCase). The lone block:
  // sqrt(4000^2 + 2000^2) = 4472.14 issue cycles against the 2000-cycle
  // latency path, 4472.14 x (1 + 0.4472^3)^(1/3) = 4601.68 ns.
  EXPECT_NEAR(P.TimeS - mc::LaunchOverheadS, 40.38085e-6, 1e-11);
  // Against 81/80 of a full wave (36226.41 ns): 1.11468.
  EXPECT_NEAR(P.TailFactor, 1.114680, 1e-6);
  EXPECT_NEAR(P.Waves, 81.0 / 80, 1e-12);
}

TEST(Time, BarrierPhasesHoldTheBlocksOwnIssue) {
  GPUSpec G = handGPU();
  // The FMA kernel (Time.ComputeHandCase: 4472.14 issue cycles a block,
  // 8 blocks an SM) with four barriers: its warps wait together, so the
  // latency path holds the block's own issue beyond its ALU part
  // (docs/MODEL.md "Barrier phases").
  KernelProfile K = fmaKernel();
  K.op(OpClass::Barrier) = 4;
  finalizeProfile(K);
  Prediction P = predict(K, G, config(256, 204800));
  ASSERT_TRUE(P.Valid);
  double OwnS = P.TComputeS / P.Occ.BlocksPerSM;
  EXPECT_GE(P.TLatencyS, OwnS);
  // Without barriers the warps interleave and the path is one warp's.
  Prediction Q = predict(fmaKernel(), G, config(256, 204800));
  EXPECT_LT(Q.TLatencyS, 0.5 * OwnS);
  EXPECT_GT(P.TimeS, Q.TimeS);
  // One block an SM (1024 threads, 2 per SM at most on this GPU, capped to
  // one by its registers here): the block's issue and its waits add up.
  K.Res.Registers = 64;
  Prediction One = predict(K, G, config(1024, 1024 * 10));
  ASSERT_TRUE(One.Valid);
  EXPECT_EQ(One.Occ.BlocksPerSM, 1u);
  EXPECT_GE(One.TLatencyS, One.TComputeS);
  // Nothing else on the SM overlaps them: the round is that sum (one round
  // of ten blocks on ten SMs, plus the launch), not a soft maximum of it
  // and the issue it holds, which would add up to a quarter again.
  EXPECT_NEAR(One.TimeS, One.TLatencyS + One.TLaunchS, 1e-9);
}

TEST(Time, PhasesHoldTheBlockForTheirCopiesOnly) {
  GPUSpec G = handGPU();
  // The FMA kernel with 64 dependent loads (MLP 1, one line re-read) and
  // four barriers, one block an SM. Loads that feed its arithmetic are one
  // warp's waits, which the block's other warps fill with their FMAs; loads
  // that a phase copies to shared memory hold the whole block until they
  // are stored (docs/MODEL.md "Barrier phases").
  KernelProfile K = fmaKernel();
  K.MLP = 1;
  K.op(OpClass::LoadGlobal) = 64;
  K.Accesses = {globalAccess(false, 4, 64)};
  K.Accesses[0].LoopInvariant = true;
  K.op(OpClass::Barrier) = 4;
  K.Res.Registers = 64;
  finalizeProfile(K);
  Prediction Arith = predict(K, G, config(1024, 1024 * 10));
  ASSERT_TRUE(Arith.Valid);
  EXPECT_EQ(Arith.Occ.BlocksPerSM, 1u);
  // The same loads stored to shared memory: every round trip holds the
  // block, in series with its issue.
  KernelProfile C = K;
  C.op(OpClass::StoreShared) = 64;
  finalizeProfile(C);
  Prediction Copy = predict(C, G, config(1024, 1024 * 10));
  ASSERT_TRUE(Copy.Valid);
  double StoreIssueS = Copy.TComputeS - Arith.TComputeS;
  EXPECT_GT(Copy.TLatencyS - StoreIssueS, Arith.TLatencyS * 1.2);
  // The arithmetic's loads add no phase: the path is the barrier-free
  // kernel's plus its barriers' cycles.
  EXPECT_EQ(Arith.TBarrierPhaseS, 0);
  EXPECT_GT(Copy.TBarrierPhaseS, 0);
  KernelProfile N = K;
  N.op(OpClass::Barrier) = 0;
  finalizeProfile(N);
  Prediction None = predict(N, G, config(1024, 1024 * 10));
  ASSERT_TRUE(None.Valid);
  EXPECT_NEAR(Arith.TLatencyS, None.TLatencyS + Arith.TBarrierS,
              1e-3 * Arith.TLatencyS);
}

TEST(Time, LatencyBoundWithFewWarps) {
  GPUSpec G = handGPU();
  KernelProfile K = copyKernel();
  // 32-thread blocks: 32 blocks x 1 warp = 32 warps/SM (limited by blocks).
  Prediction P = predict(K, G, config(32, 204800));
  EXPECT_EQ(P.Occ.BlocksPerSM, 32u);
  EXPECT_EQ(P.Occ.Limiter, OccLimiter::Blocks);
  // Per round only 32 x 32 x 8 B per SM: latency (450 ns) exceeds DRAM
  // (10 x 8192 B / 85 GB/s = 964 ns)?  No: DRAM still dominates here.
  K.MLP = 1;
  K.op(OpClass::LoadGlobal) = 8; // Eight dependent loads of the same data.
  K.Accesses[0].Count = 8;
  K.Accesses[0].LoopInvariant = true;
  finalizeProfile(K);
  Prediction L = predict(K, G, config(32, 204800));
  EXPECT_EQ(L.Bound, Bottleneck::Latency);
}

TEST(Traffic, CoalescingAndStrides) {
  GPUSpec G = handGPU();
  KernelProfile K = copyKernel();
  // A 128-byte stride between lanes: every lane its own sector (8x bytes).
  KernelProfile S = K;
  S.Accesses[0].Pattern = AccessPattern::Strided;
  S.Accesses[0].StrideBytes = 128;
  S.Accesses[0].SectorsPerRequest = 32;
  finalizeProfile(S);
  Prediction PK = predict(K, G, config(256, 204800));
  Prediction PS = predict(S, G, config(256, 204800));
  // Load: 32 sectors x 32 B / 32 lanes = 32 B per thread (was 4), store 4.
  EXPECT_DOUBLE_EQ(PS.DramBytes, 204800.0 * 36);
  EXPECT_GT(PS.TimeS, PK.TimeS);
}

TEST(Traffic, NarrowBlocksOf2DKernels) {
  GPUSpec G = handGPU();
  KernelProfile K = copyKernel();
  K.Shape.UsesTid = {true, true, false};
  LaunchConfig C = config(256, 204800);
  C.Block = {8, 32, 1};
  // A warp spans 4 rows of 8 x 4 B = 32 B: 4 sectors per request, as wide
  // as a coalesced warp; 4 x 8 lanes of 2 B would be 4 x ceil(16/32).
  EXPECT_DOUBLE_EQ(predict(K, G, C).DramBytes, 204800.0 * 8);
  KernelProfile H = copyKernel(2);
  H.Shape.UsesTid = {true, true, false};
  // 2-byte elements: 4 rows x 1 sector = 4 sectors, vs 2 when coalesced.
  EXPECT_DOUBLE_EQ(predict(H, G, C).DramBytes, 204800.0 * 8);
}

/// A thread reading its own row of 16 floats (lane stride 64 B) as 16
/// scalar loads, plus 64 FMAs per row: the L1 data path and the sibling
/// loads' shared lines (docs/MODEL.md, "L1 data path").
KernelProfile rowKernel(unsigned Bytes, int64_t OffsetStep) {
  KernelProfile K = fmaKernel(64);
  unsigned N = 64 / Bytes;
  for (unsigned I = 0; I < N; ++I) {
    MemAccess A = globalAccess(false, Bytes, 1, AccessPattern::Strided);
    A.StrideBytes = 64;
    A.SectorsPerRequest = 32;
    A.ThreadDims = 1;
    A.ThreadDimsKnown = true;
    A.BaseId = 1;
    A.Offset = I * OffsetStep;
    K.Accesses.push_back(A);
  }
  K.op(OpClass::LoadGlobal) = N;
  finalizeProfile(K);
  return K;
}

TEST(Traffic, SiblingLoadsShareTheirLines) {
  GPUSpec G = handGPU();
  // 16 loads at offsets 0, 4, .. 60 of a 64-byte lane stride: the row moves
  // once, 64 B per thread, not 16 sectors of 32 B.
  Prediction Row = predict(rowKernel(4, 4), G, config(256, 204800));
  EXPECT_DOUBLE_EQ(Row.DramBytes, 204800.0 * 64);
  // The same loads 1 MiB apart are 16 separate sectors per thread.
  Prediction Far = predict(rowKernel(4, 1 << 20), G, config(256, 204800));
  EXPECT_DOUBLE_EQ(Far.DramBytes, 204800.0 * 16 * 32);
  EXPECT_LT(Row.TimeS, Far.TimeS);
}

TEST(Traffic, FieldsOfOneGatheredElementShareItsSector) {
  // pos[idx[j]] of a float4 whose x, y, z clang loads as a v2 at +0 and a
  // scalar at +8: one sector per lane, as nvcc's single v4 load; the
  // same two loads 1 MiB apart are two sectors.
  GPUSpec G = handGPU();
  auto Kernel = [](std::vector<std::pair<unsigned, int64_t>> Loads) {
    KernelProfile K = fmaKernel(64);
    for (auto [Bytes, Offset] : Loads) {
      MemAccess A = globalAccess(false, Bytes, 1, AccessPattern::Unknown);
      A.SectorsPerRequest = 32;
      A.BlockDims = AddrDependsOnData;
      A.BaseId = 1;
      A.Offset = Offset;
      K.Accesses.push_back(A);
    }
    K.op(OpClass::LoadGlobal) = double(Loads.size());
    finalizeProfile(K);
    return K;
  };
  LaunchConfig C = config(256, 204800);
  double Split = predict(Kernel({{8, 0}, {4, 8}}), G, C).DramBytes;
  double Whole = predict(Kernel({{16, 0}}), G, C).DramBytes;
  double Far = predict(Kernel({{8, 0}, {4, 1 << 20}}), G, C).DramBytes;
  EXPECT_DOUBLE_EQ(Split, Whole);
  EXPECT_DOUBLE_EQ(Far, 2 * Whole);
}

TEST(Traffic, DataScaledRowsSpreadTheirRun) {
  // A byte load at x plus a data-scaled shift of the row (docs/MODEL.md,
  // "Data-scaled coordinates"): in a block one column wide, 256 rows read
  // one place when the shift does not move between rows, and a run of
  // 1 + 255 x 4 bytes when it moves 4 bytes per row. The block's eight
  // warps share what they read (the L1), so the L2 delivers the block's
  // union: 1 + 1020 / 32 sectors on average, not 1; a warp alone would
  // have spread over 1 + 124 / 32.
  GPUSpec G = handGPU();
  auto Kernel = [](double Step) {
    KernelProfile K = fmaKernel(64);
    MemAccess A = globalAccess(false, 1, 16);
    A.ThreadDims = 1;
    A.ThreadDimsKnown = true;
    A.SmoothDims = 2;
    A.SmoothStepBytes[1] = Step;
    K.Accesses = {A};
    K.op(OpClass::LoadGlobal) = 16;
    finalizeProfile(K);
    return K;
  };
  LaunchConfig C = config(256, 204800);
  C.Block = {1, 256, 1};
  Prediction Flat = predict(Kernel(0), G, C), Moving = predict(Kernel(4), G, C);
  EXPECT_NEAR(Moving.DramBytes / Flat.DramBytes, 1 + 1020.0 / 32, 1e-9);
  EXPECT_GT(Moving.TimeS, Flat.TimeS);
  // A warp 32 wide along x is one row of 32 bytes, which the data shift
  // starts anywhere in a sector (1 + 31 / 32 sectors on average); the
  // block's 8 rows spread its union by 7 x 4 bytes.
  C.Block = {32, 8, 1};
  EXPECT_NEAR(predict(Kernel(4), G, C).DramBytes /
                  predict(Kernel(0), G, C).DramBytes,
              (1 + 31.0 / 32 + 28.0 / 32) / (1 + 31.0 / 32), 1e-9);
}

TEST(Time, L1DataPathBytesPerClock) {
  // Four 16-byte loads per row at lane stride 64: each pass of 8 lanes
  // touches 4 lines, 16 wavefronts per load per warp. Halving the data path
  // (Turing's 64 B/clk) slows this kernel; an FMA-only kernel is unchanged.
  // Blocks of 8 x 32: the 32 rows share each address (L2 sees it once per
  // block), so the data path, not DRAM, bounds the kernel.
  GPUSpec Fast = handGPU(), Slow = handGPU();
  Slow.L1BytesPerClkPerSM = 64;
  KernelProfile K = rowKernel(16, 16);
  LaunchConfig C = config(256, 204800);
  C.Block = {8, 32, 1};
  double TFast = predict(K, Fast, C).TimeS, TSlow = predict(K, Slow, C).TimeS;
  EXPECT_GT(TSlow, 1.5 * TFast);
  KernelProfile F = fmaKernel(1000);
  EXPECT_DOUBLE_EQ(predict(F, Fast, C).TimeS, predict(F, Slow, C).TimeS);
}

TEST(Time, TileRowsCostTheLinesTheyTouch) {
  // A[(r0 + t / 16) * lda + t % 16] with lda unknown (rows=16xfar): a warp
  // reads two rows of 64 B in lines of their own, 2 wavefronts per request,
  // against 1 for 32 consecutive floats; both move 4 sectors. With the L1
  // data path made the bottleneck (8 B per clock), the rows take twice as
  // long; 8 rows of 4 lanes (the same 128 bytes' worth of lanes, 8 lines)
  // four times longer again.
  GPUSpec G = handGPU();
  G.L1BytesPerClkPerSM = 8;
  auto Kernel = [](unsigned Mod) {
    KernelProfile K = fmaKernel(1);
    MemAccess A = globalAccess(false, 4, 256, AccessPattern::Coalesced);
    if (Mod) {
      A.Pattern = AccessPattern::Strided;
      A.LaneMod = Mod;
      A.LaneDivStrideBytes = FarRowPitch;
    }
    A.ThreadDims = 1;
    A.ThreadDimsKnown = true;
    A.ReusedAcrossBlocks = true;
    K.Accesses.push_back(A);
    K.op(OpClass::LoadGlobal) = 256;
    finalizeProfile(K);
    return K;
  };
  KernelProfile Plain = Kernel(0), Rows = Kernel(16), Narrow = Kernel(4);
  EXPECT_EQ(Rows.Accesses[0].SectorsPerRequest, 4);
  EXPECT_EQ(Narrow.Accesses[0].SectorsPerRequest, 8);
  LaunchConfig C = config(256, 204800);
  double TPlain = predict(Plain, G, C).TimeS;
  double TRows = predict(Rows, G, C).TimeS;
  double TNarrow = predict(Narrow, G, C).TimeS;
  EXPECT_NEAR(TRows / TPlain, 2.0, 0.1);
  EXPECT_NEAR(TNarrow / TRows, 4.0, 0.2);
}

TEST(Registers, SpillsRunInTheInnermostNest) {
  // ptxas reports static spill bytes; they execute once per iteration of
  // the deepest nest (128 x 16), not of its longest single loop (128).
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(1000);
  K.Res.SpillLoadBytes = 8;
  LoopRecord Outer, Inner;
  Outer.Depth = 1;
  Outer.Trip = 128;
  Inner.Depth = 2;
  Inner.Trip = 16;
  K.Loops = {Outer, Inner};
  Prediction P = predict(K, G, config(256, 204800));
  EXPECT_DOUBLE_EQ(P.SpillBytesPerThread, 8.0 * 128 * 16);
}

TEST(Registers, CapAndSpillEstimate) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(1000);
  K.Res.Registers = 96;
  // __launch_bounds__(256, 4): 65536 / (4 x 256) = 64 registers.
  Prediction P = predict(K, G, config(256, 204800, 0, 4));
  EXPECT_EQ(P.RegisterCap, 64u);
  EXPECT_EQ(P.RegsPerThread, 64u);
  // Cut 32/96; ptxas absorbs 0.2: effective (1/3 - 0.2) / 0.8 = 1/6.
  // 2 operands per op x 1000 ops x (1/6)^2 spill accesses, 4 B each.
  EXPECT_NEAR(P.SpillBytesPerThread, 2 * 1000 * (1.0 / 36) * 4, 1e-9);
  EXPECT_EQ(P.Occ.BlocksPerSM, 4u);
  Prediction N = predict(K, G, config(256, 204800));
  EXPECT_EQ(N.RegsPerThread, 96u);
  EXPECT_DOUBLE_EQ(N.SpillBytesPerThread, 0);
  EXPECT_EQ(N.Occ.Limiter, OccLimiter::Registers);
}

TEST(Work, BlockStrideLoopConservesWork) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(1000);
  K.Shape.WorkScalesWithBlock = true;
  // Profile counts are per thread at 256 threads; the grid is fixed by
  // the problem (204800 / 256 = 800 blocks).
  Prediction A = predict(K, G, config(256, 204800));
  Prediction B = predict(K, G, config(512, 204800));
  EXPECT_DOUBLE_EQ(A.WorkScale, 1.0);
  EXPECT_DOUBLE_EQ(B.WorkScale, 0.5);
  EXPECT_EQ(B.Config.Grid[0], 800u);
  // Same total FP32 work: issue-bound time equal, 4 blocks/SM of 512.
  EXPECT_NEAR(B.TComputeS, A.TComputeS, 1e-12);
}

// The loop steps by blockDim.x alone (BlockStrideDims = x): in a 32 x 8
// block, where threadIdx.y picks a row, each thread runs 256 / 32 = 8 times
// the reference's passes; a loop that does not say which dimensions its
// step spans is taken over the block's threads (256 / 256).
TEST(Work, BlockStrideLoopFollowsItsOwnDimension) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(1000);
  K.Shape.WorkScalesWithBlock = true;
  LoopRecord L;
  L.Trip = 4;
  L.DependsOnBlockDim = true;
  L.BlockStrideDims = 1;
  K.Loops.push_back(L);
  LaunchConfig C = config(32, 204800);
  C.Block = {32, 8, 1};
  EXPECT_DOUBLE_EQ(predict(K, G, C).WorkScale, 8.0);
  K.Loops[0].BlockStrideDims = 2; // Rows stepped by blockDim.y: 1 / 8.
  EXPECT_DOUBLE_EQ(predict(K, G, C).WorkScale, 0.125);
  K.Loops[0].BlockStrideDims = 0;
  EXPECT_DOUBLE_EQ(predict(K, G, C).WorkScale, 1.0);
}

// A loop over rows by blocks (`for (r = blockIdx.x; r < rows; r +=
// gridDim.x)`) with a row loop stepped by blockDim.x inside: each block
// runs rows / gridDim.x passes of it, and the row loop follows the block.
// Taken for a loop over the launched threads, it ran rows / (gridDim.x *
// blockDim.x) passes.
TEST(Work, GridStrideLoopOverBlocks) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(1000);
  K.Shape.GridStrideLoop = K.Shape.WorkScalesWithBlock = true;
  LoopRecord Rows;
  Rows.Trip = 16;
  Rows.GridStride = Rows.GridStrideBlocks = true;
  Rows.GridStrideElements = 32768;
  Rows.GridStrideDims = 1;
  LoopRecord Cols;
  Cols.Depth = 2;
  Cols.Trip = 4;
  Cols.DependsOnBlockDim = true;
  Cols.BlockStrideDims = 1;
  K.Loops = {Rows, Cols};
  LaunchConfig C;
  C.Block = {256, 1, 1};
  C.Grid = {1024, 1, 1};
  // 32 rows a block, at the reference block: 32 / 16.
  EXPECT_DOUBLE_EQ(predict(K, G, C).WorkScale, 2.0);
  // Twice the threads a row: half the row loop's passes.
  C.Block = {512, 1, 1};
  EXPECT_DOUBLE_EQ(predict(K, G, C).WorkScale, 1.0);
  // No grid: at most the resident blocks, each over its share of the rows;
  // the launch's work is that of the stated grid.
  C.Grid = {0, 0, 0};
  C.Block = {256, 1, 1};
  Prediction P = predict(K, G, C);
  EXPECT_LE(P.Config.Grid[0], G.SMCount * P.Occ.BlocksPerSM);
  EXPECT_NEAR(P.WorkScale * P.Config.Grid[0], 2.0 * 1024, 1e-6);
  // Over the launched threads instead: 32768 / (1024 x 256) of a pass.
  K.Loops[0].GridStrideBlocks = false;
  C.Grid = {1024, 1, 1};
  EXPECT_DOUBLE_EQ(predict(K, G, C).WorkScale, 1.0 / 16);
}

/// A loop of TripPerBlockDim * blockDim[Dim] passes (as many at the
/// reference block, where blockDim[Dim] = 1) holding \p Share of the work.
static LoopRecord blockDimLoop(int Dim, double PerDim, double Share) {
  LoopRecord L;
  L.TripBlockDim = Dim;
  L.TripPerBlockDim = PerDim;
  L.Trip = PerDim;
  L.WorkShare = Share;
  return L;
}

TEST(Work, LoopBoundedByBlockDimY) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(1000);
  K.Shape.ReadsNTid = {false, true, false};
  // for (j = 0; j < blockDim.y; ++j) unrolled by 8: 1/8 pass at the
  // reference block (256, 1, 1), holding 80% of the thread's work.
  K.Loops.push_back(blockDimLoop(1, 0.125, 0.8));
  LaunchConfig C = config(32, 204800);
  C.Block = {32, 8, 1};
  // block.y = 8: the loop runs 1 pass, 8x the reference:
  // 1 - 0.8 + 0.8 * 1 / 0.125 = 6.6.
  EXPECT_DOUBLE_EQ(predict(K, G, C).WorkScale, 6.6);
  C.Block = {256, 1, 1};
  EXPECT_DOUBLE_EQ(predict(K, G, C).WorkScale, 1.0);
  // An offset: for (j = 1; j < blockDim.y; ++j) does nothing at y = 1.
  K.Loops[0].TripPerBlockDim = 1;
  K.Loops[0].TripBlockOffset = -1;
  K.Loops[0].Trip = 1;
  EXPECT_NEAR(predict(K, G, C).WorkScale, 0.2, 1e-12);
  C.Block = {32, 4, 1};
  EXPECT_NEAR(predict(K, G, C).WorkScale, 0.2 + 0.8 * 3, 1e-12);
}

TEST(Work, BlockDimLoopWithoutGlobalMemoryKeepsTraffic) {
  GPUSpec G = handGPU();
  KernelProfile K = copyKernel();
  K.Shape.ReadsNTid = {false, false, true};
  // A reduction over blockDim.z in shared memory (llm.c's
  // matmul_backward_bias kernels 8/9): half the instructions, none of the
  // global bytes.
  K.Loops.push_back(blockDimLoop(2, 1, 0.5));
  K.Loops.back().MemShare = 0;
  KernelProfile NoLoop = K;
  NoLoop.Loops.clear();
  LaunchConfig C = config(32, 204800);
  C.Block = {4, 8, 8};
  Prediction A = predict(NoLoop, G, C);
  Prediction B = predict(K, G, C);
  EXPECT_DOUBLE_EQ(B.WorkScale, 0.5 + 0.5 * 8);
  EXPECT_DOUBLE_EQ(B.DramBytes, A.DramBytes);
  EXPECT_DOUBLE_EQ(B.L2Bytes, A.L2Bytes);
  // Unknown (a profile that does not say): the work share stands for it.
  K.Loops[0].MemShare = -1;
  EXPECT_DOUBLE_EQ(predict(K, G, C).DramBytes, A.DramBytes * 4.5);
}

TEST(Work, GridStrideLoop) {
  GPUSpec G = handGPU();
  KernelProfile K = fmaKernel(1000);
  LoopRecord L;
  L.GridStride = true;
  L.Trip = 10; // Profile resolved the trip count at 10.
  K.Loops.push_back(L);
  // Grid = one full wave: 10 SMs x 8 blocks = 80 blocks of 256.
  Prediction P = predict(K, G, config(256, 204800));
  EXPECT_EQ(P.Config.Grid[0], 80u);
  // 204800 / (80 x 256) = 10 iterations per thread = the profile's trip.
  EXPECT_DOUBLE_EQ(P.WorkScale, 1.0);
  Prediction Q = predict(K, G, config(128, 204800));
  EXPECT_EQ(Q.Config.Grid[0], 160u); // 16 blocks/SM of 128.
  EXPECT_DOUBLE_EQ(Q.WorkScale, 1.0);
}

TEST(Validity, RejectsWhatCannotLaunch) {
  GPUSpec G = handGPU();
  KernelProfile K = copyKernel();
  EXPECT_FALSE(predict(K, G, config(2048, 1 << 20)).Valid);
  K.Bounds.MaxNTid = {128, 0, 0};
  Prediction P = predict(K, G, config(256, 1 << 20));
  EXPECT_FALSE(P.Valid);
  EXPECT_NE(P.Invalid.find("launch_bounds"), std::string::npos);
  KernelProfile S = copyKernel();
  S.Res.StaticSharedBytes = 1 << 20;
  EXPECT_FALSE(predict(S, G, config(256, 1 << 20)).Valid);
}

TEST(Energy, DominantPart) {
  // The largest of static, SM dynamic and DRAM power; a tie goes to static,
  // then to SM dynamic.
  Prediction P;
  P.PStaticW = 20;
  P.PComputeW = 10;
  P.PMemoryW = 30;
  EXPECT_EQ(dominantEnergyPart(P), EnergyPart::DRAM);
  P.PComputeW = 40;
  EXPECT_EQ(dominantEnergyPart(P), EnergyPart::SMDynamic);
  P.PStaticW = 40;
  EXPECT_EQ(dominantEnergyPart(P), EnergyPart::Static);
  P.PStaticW = 0;
  P.PMemoryW = 40;
  EXPECT_EQ(dominantEnergyPart(P), EnergyPart::SMDynamic);
  // The FP32 hand case draws 22.36 W static, 24 W cycle + 49.54 W work
  // (SM dynamic) and nothing from DRAM.
  GPUSpec G = handGPU();
  G.Power.DefaultLimitW = G.Power.MaxLimitW = 150;
  EXPECT_EQ(dominantEnergyPart(predict(fmaKernel(), G, config(256, 204800))),
            EnergyPart::SMDynamic);
}

TEST(Names, Bottlenecks) {
  EXPECT_STREQ(bottleneckName(Bottleneck::DRAM), "dram");
  EXPECT_STREQ(bottleneckName(Bottleneck::Latency), "latency");
  EXPECT_STREQ(bottleneckName(Bottleneck::Tail), "tail");
}

} // namespace
