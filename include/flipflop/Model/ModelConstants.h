//===- flipflop/Model/ModelConstants.h - Documented model constants -------===//
//
// Every constant of the time and power model, in one place, each with the
// source docs/MODEL.md gives for it. Tests use them to hand-compute cases.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MODEL_MODELCONSTANTS_H
#define FLIPFLOP_MODEL_MODELCONSTANTS_H

namespace flipflop {
namespace modelconst {

// --- Power against clock, fitted on /work/shared/data/power-vs-clock by
// scripts/fit-power-curve.py (docs/MODEL.md section 5: joint fit, worst point
// 5.7 %; leave-one-GPU-out 14.1 % / 9.5 %). Used when PowerSpec.Curve* are
// zero, i.e. for every GPU without a calibrated curve.
/// Voltage knee as a fraction of the datasheet boost clock: below it the
/// core runs at its floor voltage.
constexpr double CurveKneeFraction = 0.80;
/// Floor voltage / voltage at the board's maximum clock (the V/f curve is
/// linear from the knee to Vmax at GPUSpec::topClockMHz()).
constexpr double CurveFloorRatio = 0.72;
/// Static power grows as (V/Vfloor)^StaticVoltExponent (leakage ~ V x I(V));
/// chosen by leave-one-GPU-out cross-validation over 0..3 (docs/MODEL.md).
constexpr double StaticVoltExponent = 0.5;
/// Background share of peak DRAM power (bandwidth x pJ/B) that a GDDR/LPDDR
/// board draws with its memory clocked up but idle; its idle figure is taken
/// with the memory clock lowered. HBM boards: 0 (their idle holds it).
constexpr double MemBackgroundShare = 0.50;
/// Energy of one FP32 lane operation (FMA) of an FP32-saturating kernel at
/// Vmax, all per-instruction overheads included (J): the reference kernel's
/// dynamic power at the top clock is this x SMs x FP32 lanes x fmax.
constexpr double EnergyPerFP32LaneOpJ = 12.204e-12;
/// Idle power as a share of TDP when a spec gives none (assumption: between
/// the RTX A4000's 0.07 and the A100-PCIe's 0.14).
constexpr double IdleFallbackTdpShare = 0.10;

// --- Dynamic power split (AccelWattch's constant-per-active-SM vs
// activity-proportional split; assumption, docs/MODEL.md).
/// Share of the reference kernel's dynamic power paid per active-SM cycle
/// (clock tree, schedulers, pipeline registers) whatever the instruction mix.
constexpr double CycleDynShare = 0.30;
/// Exponent beta of the FlipFlop paper's P_SM(n) = alpha * n^beta + delta.
constexpr double ActiveSMExponent = 0.90;

// --- Energy per operation relative to one FP32 lane operation (FMA).
constexpr double WFP32 = 1.0, WFP16 = 0.6, WFP64 = 2.5, WInt = 0.8,
                 WIntMul = 1.5, WSFU = 2.0, WConv = 1.0, WShuffle = 1.2,
                 WBranch = 0.4, WOther = 0.5, WBarrier = 0.5, WLdSt = 1.2;
/// Per tensor-core FLOP (an FP32 FMA lane op is 2 FLOPs at weight 1).
constexpr double WTensorFlop = 0.08;
/// Per byte moved between L2 and the SM, per shared-memory byte, per L1
/// (local/spill hit) byte.
constexpr double WL2Byte = 1.5, WSharedByte = 0.3, WL1Byte = 0.3;

// --- DRAM energy, picojoules per byte moved (device + PHY + controller).
constexpr double DramPJPerByteHBM = 48;    // ~3.9 pJ/bit + ~2 pJ/bit I/O.
constexpr double DramPJPerByteGDDR6 = 76;  // ~7.5 pJ/bit + ~2 pJ/bit I/O.
constexpr double DramPJPerByteGDDR5 = 128; // ~14 pJ/bit + ~2 pJ/bit I/O.

// --- Latencies (Jia et al. 2018/2019 microbenchmarks; docs/MODEL.md).
constexpr double LatFP32 = 4, LatInt = 4, LatIntMul = 4, LatFP16 = 6,
                 LatFP64 = 8, LatSFU = 18, LatConv = 12, LatShuffle = 24,
                 LatShared = 24, LatL1 = 32, LatBarrier = 24;
/// L2 hit latency, core cycles.
constexpr double LatL2Cycles = 200;
/// DRAM latency = on-chip part (core cycles) + off-chip part (ns).
constexpr double LatDramCycles = 200, LatDramNs = 250;

// --- Throughput.
/// Achievable fraction of datasheet DRAM bandwidth (STREAM-like copy).
constexpr double DramEfficiency = 0.85;
/// L2 hit rate of global loads that other blocks also read (an operand panel
/// of a tiled GEMM, a filter, K/V shared by queries): the first block brings
/// the data from DRAM, the others find it in L2. Assumption (no cache
/// simulation); docs/MODEL.md "Inter-block reuse".
constexpr double InterBlockL2HitRate = 0.9;
/// Largest table (MemAccess::FootprintBytes) taken to stay in L1 once a
/// block has read it: 16 KB, the smallest L1 data cache of the GPUs in the
/// database when shared memory takes the rest of the SM's array
/// (docs/MODEL.md "Small tables"; a bound, not a fit).
constexpr double SmallTableBytes = 16384;
/// Shared-memory wavefronts per clock per SM (32 banks x 4 B).
constexpr double SharedWavefrontsPerClk = 1.0;
/// Warp shuffle lanes per clock per SM (CUDA guide throughput table).
constexpr double ShuffleLanesPerClk = 32;
/// Fallback lanes/clk for a unit class a spec leaves at 0.
constexpr double FallbackLanes = 16;
/// Kernel launch overhead (s), paid once at static power.
constexpr double LaunchOverheadS = 4e-6;
/// Exponent of the smooth maximum of throughput and latency time of a round
/// (3: the two cost ~26 % more than either when equal). Fitted by
/// scripts/fit-time-model.py (docs/MODEL.md "Rounds").
constexpr double OverlapNorm = 3;
/// Share of a block's own issue that its latency path holds where its warps
/// meet at barriers (docs/MODEL.md "Barrier phases"): 1, the warps of a
/// block wait for a phase's loads together and issue its work together, so
/// only the SM's other blocks hide their waits. Physical, not fitted
/// (docs/FIDELITY.md "Session 54" gives the scan of the forms tried).
constexpr double BarrierPhaseShare = 1;
/// Exponent of the smooth maximum over the functional units and the warp
/// schedulers (issue time of a block): pipes run concurrently but contend
/// for dispatch and operand collection, so two saturated pipes take longer
/// than one; the L2 port joins them in a round. Fitted by
/// scripts/fit-time-model.py (docs/MODEL.md).
constexpr double UnitOverlapNorm = 2;
/// Exponent of the smooth maximum of a block's two issue queues, the
/// schedulers' (math pipes, dispatch) and the MIO's (memory, conversion,
/// special-function and shuffle pipes): they run side by side but not
/// independently (a memory instruction takes a dispatch slot too, and a
/// warp held by a full MIO queue issues no math), so two equal queues take
/// 2^(1/8) = 9 % longer than one. Fitted by scripts/fit-time-model.py
/// (docs/MODEL.md "Issue time", session 27).
constexpr double QueueOverlapNorm = 8;
/// Register operands per instruction; spill accesses per instruction are
/// SpillRefsPerOp x (cut share of the registers)^2 (spill estimate).
constexpr double SpillRefsPerOp = 2.0;
/// Share of a register cut ptxas absorbs without spilling.
constexpr double SpillFreeCut = 0.2;
/// L1 bytes per SM beyond the configurable shared memory (unified L1).
constexpr double L1ExtraBytes = 32 * 1024;

// --- Uncertainty bands and the levers' time scales (docs/MODEL.md "Levers,
// bands and ties").
/// Relative band of a predicted kernel time: the median absolute percentage
/// error of absolute time on the fidelity data, the worst of the 7 (kernel,
/// GPU) pairs (PTX front end, 300 configurations, session 27: 2.0-17.5 %,
/// gemm on the RTX 3060 Laptop; seed 2 17.2 %; the plugin 2.0-16.2 %). The
/// worst pair, not the median (7.9 %): every constant was fitted on these
/// pairs, and a kernel or GPU outside them is not expected to do better than
/// the worst of them (docs/MODEL.md "Levers, bands and ties").
constexpr double TimeBandRel = 0.18;
/// Relative band of a predicted average power: the RMS error of the
/// power-vs-clock curve on the GPU left out of the fit, the worse of the two
/// GPUs (docs/MODEL.md section 5: 6.29 % A100, 6.67 % RTX A4000).
constexpr double PowerBandRel = 0.067;
/// Relative band of a predicted time *ratio* between two configurations of
/// one kernel on one GPU whose code differs (block or register cap): what
/// decides a tie. Errors common to both cancel; what is left is the scatter
/// of the model's error from one configuration to another: the median
/// absolute deviation of log(predicted/measured) about its per-pair median,
/// the worst of the 7 (kernel, GPU) pairs of the fidelity data over both
/// front ends and two samples of 300 (session 27: dedispersion 1.3-2.4 %,
/// gemm 5.7-10.4 %, the worst gemm on the RTX 3060 Laptop, PTX route, seed
/// 2; median pair 6.1 %); worst, not median, for the reason TimeBandRel
/// gives (docs/MODEL.md "Levers, bands and ties").
constexpr double CompareTimeBandRel = 0.10;
/// The same for two configurations with the same code and another lever:
/// only the time model's clock scaling differs. Measured on the FP32 kernel
/// of ../shared/data/power-vs-clock (time x clock constant within 0.15 %
/// median, 0.67 % worst pair); memory-bound work splits its time between
/// clock-bound and clock-free parts, which no data here measures: 5 % is an
/// assumption covering that split, not a fit.
constexpr double CompareLeverTimeBandRel = 0.05;
/// Relative band of a predicted power ratio between two clocks of one GPU:
/// the median absolute difference of the joint power fit's relative
/// residuals between two clocks of the same GPU (docs/MODEL.md section 5,
/// 90 pairs: 2.55 %).
constexpr double ComparePowerBandRel = 0.026;
/// A power limit is enforced on board power averaged over a window: the
/// on-board sensor of A100/H100 reports power over ~100 ms periods (Yang,
/// Adamek, Armour, "Accurate and Convenient Energy Measurements for GPUs",
/// SC'24, arXiv:2312.02741), and NVML's power reading on Ampere and newer is
/// a 1 s average (NVML API reference, nvmlDeviceGetPowerUsage). A launch
/// shorter than the window is not governed by a limit of its own.
constexpr double PowerLimitWindowS = 0.1;
/// Cost of setting (or resetting) a locked SM clock: an assumption of the
/// order of a millisecond (a driver call and a PLL/voltage transition), not
/// measured here (flipflop-measure can time it).
constexpr double ClockSwitchS = 1e-3;
/// A per-kernel clock lock is advised only for launches of at least this
/// many switch costs (set + reset cost at most 10 % of the launch).
constexpr double ClockLockMinSwitches = 20;

} // namespace modelconst
} // namespace flipflop

#endif
