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

namespace flipflop {

/// One point of the configuration space.
struct LaunchConfig {
  std::array<unsigned, 3> Block{256, 1, 1};
  /// Grid; when all zero it is derived from TotalThreads and Block.
  std::array<unsigned, 3> Grid{0, 0, 0};
  uint64_t TotalThreads = 0;  ///< Problem size in threads (0: model default).
  unsigned MinBlocksPerSM = 0; ///< __launch_bounds__ min blocks (0: none).
  double PowerLimitW = 0;      ///< 0: the GPU's default limit.
  unsigned DynamicSharedBytes = 0;
  unsigned blockThreads() const { return Block[0] * Block[1] * Block[2]; }
};

enum class Bottleneck : unsigned {
  DRAM, L2, SharedMemory, Issue, Latency, Tail, Launch
};
const char *bottleneckName(Bottleneck B);

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
  Bottleneck Bound = Bottleneck::Issue;
  // Components of the power (watts).
  double PStaticW = 0, PComputeW = 0, PMemoryW = 0;
  bool PowerCapped = false;      ///< The limit lowered the clock.
  bool Valid = true;             ///< False if the config cannot launch.
  std::string Invalid;           ///< Why not.
};

struct ModelOptions {
  /// Default problem size (threads) when neither the config nor the profile
  /// gives one; picks are per unit of work so they do not hinge on it.
  uint64_t DefaultTotalThreads = uint64_t(1) << 24;
};

/// Predicts one configuration.
Prediction predict(const KernelProfile &K, const GPUSpec &GPU,
                   const LaunchConfig &C, const ModelOptions &Opts = {});

/// Core clock (MHz) the GPU runs at under \p PowerLimitW for a kernel whose
/// activity at full clock would draw \p DynamicAtMaxW of dynamic power.
double clockUnderPowerLimit(const GPUSpec &GPU, double PowerLimitW,
                            double ActivityFraction);
/// Board power (W) at clock \p ClockMHz for activity 0..1 (1 = saturating).
double boardPower(const GPUSpec &GPU, double ClockMHz, double ActivityFraction);

} // namespace flipflop

#endif
