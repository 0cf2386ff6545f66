//===- Nvml.h - NVML loaded at run time: energy, power, clocks, limits ----===//
//
// No nvml.h ships with the CUDA toolkit here, so the few entry points the
// tools use are declared from NVML's documented API and looked up with
// dlopen("libnvidia-ml.so.1") / dlsym. Units follow NVML: energy in mJ,
// power in mW, clocks in MHz, temperature in degrees C.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_NVML_H
#define FLIPFLOP_MEASURE_NVML_H

#include "Result.h"
#include "Stats.h"
#include "Supervisor.h"
#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace flipflop {
namespace measure {

using nvmlReturn_t = int;
struct nvmlDevice_st;
using nvmlDevice_t = nvmlDevice_st *;
constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr nvmlReturn_t NVML_ERROR_NOT_SUPPORTED = 3;
constexpr nvmlReturn_t NVML_ERROR_NO_PERMISSION = 4;
constexpr int NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2;
constexpr int NVML_TEMPERATURE_GPU = 0;

struct NvmlApi {
  nvmlReturn_t (*Init)() = nullptr;                 // nvmlInit_v2
  nvmlReturn_t (*Shutdown)() = nullptr;
  const char *(*ErrorString)(nvmlReturn_t) = nullptr;
  nvmlReturn_t (*GetHandleByPciBusId)(const char *, nvmlDevice_t *) = nullptr;
  nvmlReturn_t (*GetHandleByIndex)(unsigned, nvmlDevice_t *) = nullptr;
  nvmlReturn_t (*GetName)(nvmlDevice_t, char *, unsigned) = nullptr;
  nvmlReturn_t (*GetTotalEnergyConsumption)(nvmlDevice_t, unsigned long long *) = nullptr;
  nvmlReturn_t (*GetPowerUsage)(nvmlDevice_t, unsigned *) = nullptr;
  nvmlReturn_t (*GetClockInfo)(nvmlDevice_t, int, unsigned *) = nullptr;
  nvmlReturn_t (*GetMaxClockInfo)(nvmlDevice_t, int, unsigned *) = nullptr;
  nvmlReturn_t (*GetTemperature)(nvmlDevice_t, int, unsigned *) = nullptr;
  nvmlReturn_t (*GetEnforcedPowerLimit)(nvmlDevice_t, unsigned *) = nullptr;
  nvmlReturn_t (*GetPowerManagementLimit)(nvmlDevice_t, unsigned *) = nullptr;
  nvmlReturn_t (*GetPowerManagementDefaultLimit)(nvmlDevice_t, unsigned *) = nullptr;
  nvmlReturn_t (*GetPowerManagementLimitConstraints)(nvmlDevice_t, unsigned *, unsigned *) = nullptr;
  nvmlReturn_t (*SetPowerManagementLimit)(nvmlDevice_t, unsigned) = nullptr;
  nvmlReturn_t (*SetGpuLockedClocks)(nvmlDevice_t, unsigned, unsigned) = nullptr;
  nvmlReturn_t (*ResetGpuLockedClocks)(nvmlDevice_t) = nullptr;
  nvmlReturn_t (*GetClocksEventReasons)(nvmlDevice_t, unsigned long long *) = nullptr;
};

/// One NVML device: the GPU the CUDA device ordinal names (matched by PCI
/// bus id, since CUDA and NVML may number devices differently).
class NvmlDevice {
public:
  /// Loads NVML and finds the device. \p NoNvml is set when NVML itself is
  /// missing (exit 77 territory).
  static Result<NvmlDevice *> open(const std::string &PciBusId, bool &NoNvml);
  ~NvmlDevice();

  const NvmlApi &api() const { return Api; }
  nvmlDevice_t handle() const { return Dev; }
  std::string errorText(const char *What, nvmlReturn_t R) const;

  std::string name() const;
  bool hasEnergyCounter() const { return EnergyCounter; }
  /// Total energy since the driver loaded, in joules.
  Result<double> energyJ() const;
  Result<double> powerW() const;
  /// Current clock (SM or memory), MHz; 0 if unsupported.
  unsigned clockMHz(int Type) const;
  unsigned maxClockMHz(int Type) const;
  unsigned temperatureC() const;
  /// The enforced power limit, W (0 if unsupported).
  double enforcedLimitW() const;
  double defaultLimitW() const;
  /// Settable range, W; false if unsupported.
  bool limitConstraintsW(double &Min, double &Max) const;
  /// Why the clocks are below maximum (NVML clock-event reason bits); false
  /// if unsupported.
  bool clockEventReasons(unsigned long long &Bits) const;

private:
  NvmlApi Api;
  nvmlDevice_t Dev = nullptr;
  bool EnergyCounter = false;
};

/// Samples board power in a background thread.
class PowerSampler {
public:
  PowerSampler(const NvmlDevice &D, double PeriodS) : Dev(D), PeriodS(PeriodS) {}
  ~PowerSampler() { stop(); }
  void start();
  /// Stops and returns the samples (seconds on the steady clock).
  std::vector<PowerSample> stop();

private:
  const NvmlDevice &Dev;
  double PeriodS;
  std::thread Thread;
  std::atomic<bool> Running{false};
  std::vector<PowerSample> Samples;
};

/// Seconds on the steady clock (the sampler's time base).
double steadySeconds();

/// The power limit and locked clocks of one NVML device, for a
/// SettingsChanger (which records what to restore before each change) and
/// for the supervisor's restore (Supervisor.h).
class NvmlSettingsControl : public SettingsControl {
public:
  explicit NvmlSettingsControl(const NvmlDevice &D) : Dev(D) {}
  Result<unsigned> powerLimitMilliW() override;
  /// Checks the card's settable range, then sets.
  Error setPowerLimitMilliW(unsigned MilliW) override;
  Error lockClocksMHz(unsigned MinMHz, unsigned MaxMHz) override;
  Error resetLockedClocks() override;

private:
  const NvmlDevice &Dev;
};

/// The supervisor's restore: opens NVML on the device \p Rec names and puts
/// back what it records. Runs in the supervisor after the worker has ended.
Error restoreRecordedSettings(SettingsRecord &Rec);

} // namespace measure
} // namespace flipflop

#endif
