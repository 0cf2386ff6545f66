//===- flipflop/Model/Model.h - Time, power and energy of a configuration -===//
//
// Pure functions from (KernelProfile, GPUSpec, LaunchConfig) to a Prediction.
// Every equation is written down in docs/MODEL.md with its source.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MODEL_MODEL_H
#define FLIPFLOP_MODEL_MODEL_H

#include "flipflop/Profile/KernelProfile.h"
#include "flipflop/Target/GPUSpec.h"
#include "flipflop/Target/Occupancy.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace flipflop {

/// One point of the configuration space.
struct LaunchConfig {
  std::array<unsigned, 3> Block{256, 1, 1};
  /// Grid; when all zero it is derived from TotalThreads and Block.
  std::array<unsigned, 3> Grid{0, 0, 0};
  uint64_t TotalThreads = 0;  ///< Problem size in threads (0: model default).
  unsigned MinBlocksPerSM = 0; ///< __launch_bounds__ min blocks (0: none).
  double PowerLimitW = 0;      ///< 0: the GPU's default limit.
  /// SM clock locked with nvidia-smi -lgc F,F (0: not locked). The kernel
  /// runs at min(F, the clock PowerLimitW allows) (docs/MODEL.md "Levers").
  double LockedClockMHz = 0;
  unsigned DynamicSharedBytes = 0;
  unsigned blockThreads() const { return Block[0] * Block[1] * Block[2]; }
};

/// The power lever a configuration uses: none (default power limit, clocks
/// not locked), a power limit (nvidia-smi -pl) or a locked SM clock
/// (nvidia-smi -lgc).
enum class Lever : unsigned { None, PowerLimit, LockedClock };
/// "none", "power_limit", "locked_clock".
const char *leverName(Lever L);

enum class Bottleneck : unsigned {
  DRAM, L2, SharedMemory, Issue, Latency, Tail, Launch
};
const char *bottleneckName(Bottleneck B);

/// The pipe (or the schedulers' dispatch) with the most busy cycles in a
/// block's issue time: what to cut when a kernel is bound by issue.
enum class IssuePipe : unsigned {
  FP32, FP64, FP16, Int, IntMul, SFU, Conversion, Shuffle, Memory, Tensor,
  Dispatch,
  /// The MIO's port: memory, conversion and special-function instructions
  /// in turn at the LSU's instruction rate (docs/MODEL.md, "Issue time").
  MioPort
};
/// "fp32", "fp64", "fp16", "int", "int_mul", "sfu", "conversion",
/// "shuffle", "memory", "tensor", "dispatch", "mio_port".
const char *issuePipeName(IssuePipe U);

/// The components of a prediction's energy (Prediction::PStaticW,
/// PComputeW, PMemoryW).
enum class EnergyPart : unsigned { Static, SMDynamic, DRAM };

/// Everything the model predicts for one configuration.
struct Prediction {
  LaunchConfig Config;           ///< With Grid resolved.
  OccupancyResult Occ;
  unsigned RegsPerThread = 0;    ///< After the register cap.
  unsigned RegisterCap = 0;      ///< From MinBlocksPerSM (0: none).
  double SpillBytesPerThread = 0; ///< Extra local traffic from the cap.
  double ClockMHz = 0;           ///< Core clock under the power limit.
  double Waves = 0;              ///< Grid blocks / (SMs x blocks per SM).
  double TimeS = 0, AvgPowerW = 0, EnergyJ = 0;
  // Components of the time (seconds), for explanations.
  double TComputeS = 0, TDramS = 0, TL2S = 0, TSharedS = 0, TLatencyS = 0,
         TBarrierS = 0, TLaunchS = 0, TailFactor = 1;
  /// The part of TLatencyS that barrier phases add: a block's warps wait
  /// for a phase's loads together, so its own issue does not hide them
  /// (docs/MODEL.md "Barrier phases").
  double TBarrierPhaseS = 0;
  Bottleneck Bound = Bottleneck::Issue;
  /// The busiest pipe of the issue time, and its busy cycles over the issue
  /// time (0..1; the issue time is a soft maximum over the pipes, so it is
  /// at least their largest).
  IssuePipe BusiestPipe = IssuePipe::Dispatch;
  double BusiestPipeShare = 0;
  // Components of the power (watts).
  double PStaticW = 0, PComputeW = 0, PMemoryW = 0;
  bool PowerCapped = false;      ///< The limit lowered the clock.
  /// The power limit could not be met even at the lowest clock.
  bool LimitUnreachable = false;
  /// The requested limit was outside [MinLimitW, MaxLimitW]; PowerLimitW
  /// holds the limit the board would apply (the report layer's
  /// powerLimitNote() words it, flipflop/Report/Explain.h).
  bool LimitOutOfRange = false;
  double PowerLimitW = 0;        ///< The limit applied (default resolved).
  /// The lever and its value (W for a power limit, MHz for a locked clock,
  /// 0 for none): a limit equal to the default is no lever.
  Lever PowerLever = Lever::None;
  double LeverValue = 0;
  /// The requested locked clock was outside the GPU's clock range;
  /// LeverValue holds the clock the board would lock (powerLimitNote()).
  bool ClockOutOfRange = false;
  // Traffic the model counted (whole launch, bytes), for reports and tests.
  double DramBytes = 0, L2Bytes = 0, SharedBytes = 0, LocalBytes = 0;
  /// Per-thread work multiplier relative to the profile's counts (block-
  /// or grid-stride loops conserve total work; 1 otherwise).
  double WorkScale = 1;
  /// Share of the work this launch's threads do past their bounds checks
  /// (activeFraction(); included in WorkScale).
  double ActiveFraction = 1;
  /// Share of each time component in the sum of the per-round maxima, used
  /// by the explanations (0..1).
  double BoundShare = 0;
  bool Valid = true;             ///< False if the config cannot launch.
  std::string Invalid;           ///< Why not.
};

struct ModelOptions {
  /// Default problem size (threads) when neither the config nor the profile
  /// gives one; picks are per unit of work so they do not hinge on it.
  uint64_t DefaultTotalThreads = uint64_t(1) << 24;
  /// Block size at which a profile's blockDim-dependent trip counts were
  /// resolved (the profile convention, docs/MODEL.md "Work that depends on
  /// the block shape").
  unsigned ReferenceBlockThreads = 256;
};

/// The clock-to-power curve of the FP32-saturating reference kernel,
/// P(f) = StaticW * (V(f)/Vfloor)^StaticVoltExp + DynW * (f/fmax) *
/// (V(f)/Vmax)^2 (docs/MODEL.md section 3), fmax = GPUSpec::topClockMHz().
/// Taken from GPUSpec::Power when its Curve* fields are set, else derived
/// from datasheet figures (idle power, memory, SMs x FP32 lanes) and the
/// constants fitted by scripts/fit-power-curve.py.
struct PowerCurve {
  double StaticW = 0; ///< Static power at the floor voltage (idle + memory).
  double DynW = 0;    ///< Dynamic power of the reference kernel at fmax.
  double KneeMHz = 0, FloorRatio = 1;
  double StaticVoltExp = 0; ///< Growth of static power with voltage.
  double FMinMHz = 0, FMaxMHz = 0;
  bool Derived = false; ///< From datasheet figures, not a calibrated spec.
};
PowerCurve powerCurve(const GPUSpec &GPU);
/// V(f)/Vmax of the curve: the floor below the knee, linear above it.
double voltageRatio(const PowerCurve &C, double ClockMHz);
/// Static (leakage + board + memory background) power at \p ClockMHz:
/// StaticW at the floor voltage, growing as (V/Vfloor)^StaticVoltExp.
double staticPower(const PowerCurve &C, double ClockMHz);

/// Predicts one configuration.
Prediction predict(const KernelProfile &K, const GPUSpec &GPU,
                   const LaunchConfig &C, const ModelOptions &Opts = {});

/// predict() for each power limit of \p LimitsW (sorted ascending is fastest),
/// sharing the limit-independent work; appends to \p Out.
void predictLimits(const KernelProfile &K, const GPUSpec &GPU,
                   const LaunchConfig &C, const std::vector<double> &LimitsW,
                   const ModelOptions &Opts, std::vector<Prediction> &Out);

/// Core clock (MHz) the GPU runs at under \p PowerLimitW for a kernel whose
/// dynamic power is \p ActivityFraction times the reference kernel's (1 =
/// FP32-saturating): the highest clock with boardPower() <= the limit.
double clockUnderPowerLimit(const GPUSpec &GPU, double PowerLimitW,
                            double ActivityFraction);
/// Board power (W) at clock \p ClockMHz for activity 0..1 (1 = saturating).
double boardPower(const GPUSpec &GPU, double ClockMHz, double ActivityFraction);

/// The largest component of \p P's energy (static first, then SM dynamic,
/// on a tie).
EnergyPart dominantEnergyPart(const Prediction &P);

/// predict() with the SM clock locked at each of \p ClocksMHz (under
/// C.PowerLimitW, 0: the default), sharing the clock-independent work;
/// appends to \p Out.
void predictLockedClocks(const KernelProfile &K, const GPUSpec &GPU,
                         const LaunchConfig &C,
                         const std::vector<double> &ClocksMHz,
                         const ModelOptions &Opts,
                         std::vector<Prediction> &Out);

/// Share of the kernel's work that a launch of \p Block x \p Grid threads
/// does, given its bounds checks (KernelProfile::Guarded): 1 when every
/// thread does all the work. Exact for up to 2^16 enumerated index points,
/// sampled beyond.
double activeFraction(const KernelProfile &K,
                      const std::array<unsigned, 3> &Block,
                      const std::array<unsigned, 3> &Grid);
/// The same share over the checks on block indices and arguments alone,
/// those on thread indices taken as passed: the block's tensor-memory MMAs
/// (KernelProfile::EngineTensorFlops), which one thread issues for the
/// block whichever the checks pick.
double activeBlockFraction(const KernelProfile &K,
                           const std::array<unsigned, 3> &Block,
                           const std::array<unsigned, 3> &Grid);
/// The same share of the kernel's global-memory bytes (GuardedWork::
/// MemShare where the front end counted it).
double activeMemoryFraction(const KernelProfile &K,
                            const std::array<unsigned, 3> &Block,
                            const std::array<unsigned, 3> &Grid);
/// Share of a launch's threads that pass every check of \p Guards
/// (indices into KernelProfile::Guards; 1 when empty).
double guardsPassShare(const KernelProfile &K,
                       const std::vector<unsigned> &Guards,
                       const std::array<unsigned, 3> &Block,
                       const std::array<unsigned, 3> &Grid);

/// A class of a launch's blocks by the work they do past the bounds checks.
struct BlockShare {
  double Weight = 1;  ///< Share of the grid's blocks.
  double Active = 1;  ///< Work share of the block's average thread.
  double Busiest = 1; ///< Work share of its busiest thread (>= Active).
  /// Share of the average thread's global-memory bytes (GuardedWork::
  /// MemShare; Active where the front end did not count them).
  double ActiveMem = 1;
};

/// The launch's blocks in classes of equal work past the bounds checks
/// (empty when the kernel has none). A block runs as long as its busiest
/// warp: where whole threads of a block skip the work (a tile row past the
/// problem's edge), Active falls and Busiest stays. Along each grid
/// dimension, the blocks that some guard cuts are taken one by one (64
/// strata beyond 64), and each stretch between them by its middle; at most
/// 64 blocks in all, else (fewer strata failing) empty.
std::vector<BlockShare> blockShares(const KernelProfile &K,
                                    const std::array<unsigned, 3> &Block,
                                    const std::array<unsigned, 3> &Grid);

} // namespace flipflop

#endif
