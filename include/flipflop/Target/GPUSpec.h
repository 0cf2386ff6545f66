//===- flipflop/Target/GPUSpec.h - Hardware facts of one NVIDIA GPU -------===//
//
// Plain data: everything the model needs to know about a GPU. No LLVM IR
// types. Figures come from datasheets, whitepapers and the CUDA programming
// guide; docs/GPUS.md cites each one.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_TARGET_GPUSPEC_H
#define FLIPFLOP_TARGET_GPUSPEC_H

#include <string>
#include <vector>

namespace flipflop {

/// Per-SM, per-clock throughput of each functional-unit class, in operations
/// (lanes) per cycle per SM. FMA counts as one operation here (the model
/// multiplies by two when it reports FLOPs).
struct UnitThroughput {
  double FP32 = 0;    ///< FP32 add/mul/fma lanes per clock per SM.
  double FP64 = 0;    ///< FP64 lanes.
  double FP16 = 0;    ///< FP16/BF16 scalar lanes (a packed half2 op = 2).
  double INT32 = 0;   ///< INT32 add/logic/shift lanes.
  double IMul = 0;    ///< 32-bit integer multiply lanes.
  double SFU = 0;     ///< Special-function (MUFU) lanes.
  double LdSt = 0;    ///< Load/store unit lanes (addresses per clock).
  double Conv = 0;    ///< Conversion lanes.
  double TensorFP16 = 0; ///< Dense FP16/BF16 tensor FLOPs per clock per SM.
  double TensorTF32 = 0; ///< Dense TF32 tensor FLOPs per clock per SM.
  double TensorINT8 = 0; ///< Dense INT8 tensor ops per clock per SM.
  double TensorFP64 = 0; ///< FP64 tensor FLOPs per clock per SM (0: none).
};

/// Board power figures in watts.
struct PowerSpec {
  double MinLimitW = 0;     ///< Lowest settable power limit.
  double DefaultLimitW = 0; ///< TDP / default power limit.
  double MaxLimitW = 0;     ///< Highest settable power limit.
  double IdleW = 0;         ///< Idle board power (published or estimated).
  bool IdleMeasured = false; ///< IdleW comes from a measurement/datasheet.
  /// Clock-to-power curve of a saturating kernel (see docs/MODEL.md):
  /// P(f) = Static * (V(f)/Vfloor)^lambda + Dyn * (f/fmax) * (V(f)/Vmax)^2,
  /// V at its floor up to the knee, then linear to Vmax at the top clock
  /// (GPUSpec::topClockMHz). Zero values mean "derive": Static from IdleW
  /// plus the memory background, Dyn from the fitted energy per FP32 lane
  /// operation, knee and floor from the architecture's V/f curve.
  double CurveStaticW = 0;  ///< Board power at the floor voltage, no work.
  double CurveDynW = 0;     ///< FP32-saturating dynamic power at fmax, Vmax.
  double VoltKneeMHz = 0;   ///< Below this clock the voltage is at its floor.
  double VoltFloorRatio = 0; ///< V_min / V_max.
};

/// Everything FlipFlop knows about one GPU.
struct GPUSpec {
  std::string Name;                 ///< Canonical name, e.g. "A100-PCIE-40GB".
  std::vector<std::string> Aliases; ///< Lower-case aliases.
  std::string Source;               ///< Citation key(s), see docs/GPUS.md.
  unsigned CCMajor = 0, CCMinor = 0; ///< Compute capability.
  unsigned SMCount = 0;
  double BaseClockMHz = 0, BoostClockMHz = 0;
  double MinClockMHz = 0;           ///< Lowest graphics clock DVFS reaches.
  /// Highest graphics clock the board may run (nvidia-smi "Max Clocks",
  /// NVML maxClock(SM)): GeForce/RTX boards boost well above BoostClockMHz
  /// when power allows. The model's top clock; 0 means BoostClockMHz.
  double MaxClockMHz = 0;
  // Memory.
  std::string MemoryType;           ///< "HBM2", "GDDR6X", ...
  double MemoryClockMHz = 0;
  unsigned MemoryBusWidthBits = 0;
  double MemoryBandwidthGBs = 0;    ///< Peak DRAM bandwidth (datasheet).
  /// Achievable fraction of MemoryBandwidthGBs; 0: the model's default
  /// (0.85, docs/MODEL.md). A calibrated spec writes its measured bandwidth
  /// with 1.0 here, so the loss is not counted twice.
  double DramEfficiency = 0;
  double L2SizeKB = 0;
  /// L2 partitions that each cache the lines their own GPCs' SMs read: a
  /// line that SMs of every partition read is held once per partition
  /// (GA100: two halves of 20 MB, docs/GPUS.md). 1 for a single L2.
  unsigned L2Partitions = 1;
  double L2BandwidthBytesPerClkPerSM = 0; ///< L2 -> SM bytes per clock per SM.
  /// L1/shared data path per SM, bytes per clock (hits included): 128 on
  /// Volta, Ampere, Ada, Hopper, Blackwell; 64 on Turing (docs/GPUS.md).
  double L1BytesPerClkPerSM = 128;
  // Registers.
  unsigned RegistersPerSM = 65536;
  unsigned RegistersPerBlock = 65536;
  unsigned MaxRegistersPerThread = 255;
  unsigned RegAllocUnitSize = 256;  ///< Registers, allocated per warp.
  unsigned RegAllocGranularityWarp = 1; ///< 1: per-warp allocation.
  // Shared memory (bytes).
  unsigned SharedPerSM = 0;         ///< Max configurable per SM.
  unsigned SharedPerBlock = 49152;  ///< Default per-block limit.
  unsigned SharedPerBlockOptin = 0; ///< Opt-in per-block maximum.
  unsigned SharedAllocUnit = 256;
  unsigned SharedReservedPerBlock = 0; ///< Per-block system reservation.
  std::vector<unsigned> SharedCarveoutsKB; ///< Legal per-SM sizes (KB).
  unsigned SharedBanks = 32;
  // Threads and blocks.
  unsigned MaxThreadsPerSM = 2048;
  unsigned MaxThreadsPerBlock = 1024;
  unsigned MaxBlocksPerSM = 32;
  unsigned MaxWarpsPerSM = 64;
  unsigned WarpSize = 32;
  unsigned WarpAllocGranularity = 4; ///< cuda_occupancy.h: warp alloc granularity.
  unsigned SchedulersPerSM = 4;
  UnitThroughput Throughput;
  PowerSpec Power;
  /// Whether this spec was loaded from a (calibration) file rather than the
  /// embedded table.
  bool FromFile = false;

  unsigned smVersion() const { return CCMajor * 10 + CCMinor; }
  /// The highest clock the model lets DVFS choose.
  double topClockMHz() const {
    return MaxClockMHz > 0 ? MaxClockMHz
                           : (BoostClockMHz > 0 ? BoostClockMHz : BaseClockMHz);
  }
};

} // namespace flipflop

#endif
