//===- Runner.h - Launch, time and measure the energy of a kernel ---------===//
//
// Shared by flipflop-measure and flipflop-calibrate.
//
// Time: CUDA events around batches of launches (a batch is long enough for
// the event resolution), after warm-up launches; the per-launch times of the
// repeats are summarised (median, min/max, quartiles).
//
// Energy: the kernel is relaunched back to back, keeping the queue full, for
// at least the minimum window. With NVML's total-energy counter the window
// starts and ends on counter updates observed while the GPU is busy, so the
// counter's update period does not bias the result and no idle time is
// included; the average power is dE/dt over the window and the energy of one
// launch is that power times the median launch time. Without the counter a
// thread samples nvmlDeviceGetPowerUsage and the window's energy is the
// trapezoid integral of the samples.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_RUNNER_H
#define FLIPFLOP_MEASURE_RUNNER_H

#include "CudaDriver.h"
#include "Nvml.h"
#include "Stats.h"
#include <array>
#include <memory>
#include <vector>

namespace flipflop {
namespace measure {

struct KernelLaunch {
  CUfunction Func = nullptr;
  std::array<unsigned, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  unsigned SharedBytes = 0;
  std::vector<void *> Params; ///< Pointers to each argument's value.
};

Error launchOnce(const CudaApi &Api, const KernelLaunch &L);

struct TimingOptions {
  unsigned Warmup = 3;
  unsigned Repeats = 20;
  double MinBatchS = 1e-4; ///< Batches shorter than this are lengthened.
};

struct TimingResult {
  Summary PerLaunch;  ///< Seconds per launch over the repeats.
  unsigned Batch = 1; ///< Launches per timed batch.
};

Result<TimingResult> timeKernel(const CudaApi &Api, const KernelLaunch &L,
                                const TimingOptions &Opts);

enum class EnergySource { Auto, Counter, Sampled, None };
const char *energySourceName(EnergySource S);

struct EnergyOptions {
  EnergySource Source = EnergySource::Auto;
  double MinWindowS = 0.1;     ///< Busy window length.
  double SamplePeriodS = 0.005;
  double SettleS = 0;          ///< Busy time before the window starts.
  double MaxTickWaitS = 1.0;   ///< Give up on a counter that does not move.
};

struct EnergyResult {
  EnergySource Source = EnergySource::None;
  double WindowS = 0, WindowEnergyJ = 0, AvgPowerW = 0;
  size_t Samples = 0;          ///< Power samples (sampled mode).
  double LaunchesPerS = 0;     ///< Throughput over the run.
  unsigned SMClockMHz = 0, MemClockMHz = 0, TemperatureC = 0;
  double PowerLimitW = 0;
  double PowerUsageW = 0;      ///< nvmlDeviceGetPowerUsage at the window end.
  bool HasReasons = false;
  unsigned long long ClockEventReasons = 0;
};

/// Runs \p L back to back and measures the board power while it runs.
/// \p LaunchTimeS (from timeKernel) sizes the chunks that keep the queue full.
Result<EnergyResult> measureEnergy(const CudaApi &Api, const NvmlDevice &Nvml,
                                   const KernelLaunch &L, double LaunchTimeS,
                                   const EnergyOptions &Opts);

/// Average board power over \p Seconds with the GPU idle (sampled or from the
/// counter).
Result<double> measureIdlePower(const NvmlDevice &Nvml, double Seconds,
                                double SamplePeriodS);

/// A GPU opened for measuring: its CUDA context and its NVML handle.
struct Gpu {
  std::unique_ptr<CudaDevice> Dev;
  std::unique_ptr<NvmlDevice> Nvml;
};

/// Opens CUDA device \p Ordinal and its NVML handle (flipflop-measure and
/// flipflop-calibrate). On failure \p NoGPU says whether the GPU, its driver
/// or NVML is missing (the tools' ExitNoGPU) and \p NvmlFailed whether it
/// was NVML that failed.
Result<Gpu> openGpu(int Ordinal, bool &NoGPU, bool &NvmlFailed);

} // namespace measure
} // namespace flipflop

#endif
