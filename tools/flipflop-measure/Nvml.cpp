//===- Nvml.cpp - NVML loaded at run time ---------------------------------===//
#include "Nvml.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <memory>

namespace flipflop {
namespace measure {

double steadySeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

std::string NvmlDevice::errorText(const char *What, nvmlReturn_t R) const {
  const char *S = Api.ErrorString ? Api.ErrorString(R) : nullptr;
  return std::string(What) + ": " +
         (S ? S : ("NVML error " + std::to_string(R)));
}

Result<NvmlDevice *> NvmlDevice::open(const std::string &PciBusId,
                                      bool &NoNvml) {
  NoNvml = false;
  void *H = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!H) {
    NoNvml = true;
    return makeError(std::string("no NVML: cannot load libnvidia-ml.so.1 (") +
                     dlerror() + ")");
  }
  NvmlDevice *D = new NvmlDevice();
  NvmlApi &A = D->Api;
  auto Sym = [&](auto &Fn, const char *Name) {
    Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(dlsym(H, Name));
  };
  Sym(A.Init, "nvmlInit_v2");
  Sym(A.Shutdown, "nvmlShutdown");
  Sym(A.ErrorString, "nvmlErrorString");
  Sym(A.GetHandleByPciBusId, "nvmlDeviceGetHandleByPciBusId_v2");
  Sym(A.GetHandleByIndex, "nvmlDeviceGetHandleByIndex_v2");
  Sym(A.GetName, "nvmlDeviceGetName");
  Sym(A.GetTotalEnergyConsumption, "nvmlDeviceGetTotalEnergyConsumption");
  Sym(A.GetPowerUsage, "nvmlDeviceGetPowerUsage");
  Sym(A.GetClockInfo, "nvmlDeviceGetClockInfo");
  Sym(A.GetMaxClockInfo, "nvmlDeviceGetMaxClockInfo");
  Sym(A.GetTemperature, "nvmlDeviceGetTemperature");
  Sym(A.GetEnforcedPowerLimit, "nvmlDeviceGetEnforcedPowerLimit");
  Sym(A.GetPowerManagementLimit, "nvmlDeviceGetPowerManagementLimit");
  Sym(A.GetPowerManagementDefaultLimit, "nvmlDeviceGetPowerManagementDefaultLimit");
  Sym(A.GetPowerManagementLimitConstraints,
      "nvmlDeviceGetPowerManagementLimitConstraints");
  Sym(A.SetPowerManagementLimit, "nvmlDeviceSetPowerManagementLimit");
  Sym(A.SetGpuLockedClocks, "nvmlDeviceSetGpuLockedClocks");
  Sym(A.ResetGpuLockedClocks, "nvmlDeviceResetGpuLockedClocks");
  Sym(A.GetClocksEventReasons, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!A.GetClocksEventReasons)
    Sym(A.GetClocksEventReasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  if (!A.Init || !A.Shutdown || !A.GetPowerUsage || !A.GetName ||
      (!A.GetHandleByPciBusId && !A.GetHandleByIndex)) {
    delete D;
    NoNvml = true;
    return makeError("NVML too old: libnvidia-ml.so.1 lacks nvmlInit_v2, "
                     "nvmlDeviceGetPowerUsage or a device lookup");
  }
  nvmlReturn_t R = A.Init();
  if (R != NVML_SUCCESS) {
    Error E = makeError(D->errorText("nvmlInit_v2", R));
    A.Shutdown = nullptr; // Not initialised: nothing to shut down.
    delete D;
    NoNvml = true;
    return E;
  }
  if (A.GetHandleByPciBusId && !PciBusId.empty())
    R = A.GetHandleByPciBusId(PciBusId.c_str(), &D->Dev);
  else
    R = A.GetHandleByIndex(0, &D->Dev);
  if (R != NVML_SUCCESS) {
    Error E = makeError(D->errorText("nvmlDeviceGetHandleByPciBusId_v2", R) +
                        " (bus " + PciBusId + ")");
    delete D;
    return E;
  }
  unsigned long long E0 = 0;
  D->EnergyCounter = A.GetTotalEnergyConsumption &&
                     A.GetTotalEnergyConsumption(D->Dev, &E0) == NVML_SUCCESS;
  return D;
}

NvmlDevice::~NvmlDevice() {
  if (Api.Shutdown)
    Api.Shutdown();
}

std::string NvmlDevice::name() const {
  char Buf[128] = {0};
  if (Api.GetName(Dev, Buf, sizeof(Buf) - 1) != NVML_SUCCESS)
    return "";
  return Buf;
}

Result<double> NvmlDevice::energyJ() const {
  unsigned long long MilliJ = 0;
  if (!Api.GetTotalEnergyConsumption)
    return makeError("nvmlDeviceGetTotalEnergyConsumption: not available");
  nvmlReturn_t R = Api.GetTotalEnergyConsumption(Dev, &MilliJ);
  if (R != NVML_SUCCESS)
    return makeError(errorText("nvmlDeviceGetTotalEnergyConsumption", R));
  return double(MilliJ) / 1000.0;
}

Result<double> NvmlDevice::powerW() const {
  unsigned MilliW = 0;
  nvmlReturn_t R = Api.GetPowerUsage(Dev, &MilliW);
  if (R != NVML_SUCCESS)
    return makeError(errorText("nvmlDeviceGetPowerUsage", R));
  return double(MilliW) / 1000.0;
}

unsigned NvmlDevice::clockMHz(int Type) const {
  unsigned V = 0;
  if (!Api.GetClockInfo || Api.GetClockInfo(Dev, Type, &V) != NVML_SUCCESS)
    return 0;
  return V;
}

unsigned NvmlDevice::maxClockMHz(int Type) const {
  unsigned V = 0;
  if (!Api.GetMaxClockInfo || Api.GetMaxClockInfo(Dev, Type, &V) != NVML_SUCCESS)
    return 0;
  return V;
}

unsigned NvmlDevice::temperatureC() const {
  unsigned V = 0;
  if (!Api.GetTemperature ||
      Api.GetTemperature(Dev, NVML_TEMPERATURE_GPU, &V) != NVML_SUCCESS)
    return 0;
  return V;
}

double NvmlDevice::enforcedLimitW() const {
  unsigned V = 0;
  if (!Api.GetEnforcedPowerLimit ||
      Api.GetEnforcedPowerLimit(Dev, &V) != NVML_SUCCESS)
    return 0;
  return V / 1000.0;
}

double NvmlDevice::defaultLimitW() const {
  unsigned V = 0;
  if (!Api.GetPowerManagementDefaultLimit ||
      Api.GetPowerManagementDefaultLimit(Dev, &V) != NVML_SUCCESS)
    return 0;
  return V / 1000.0;
}

bool NvmlDevice::limitConstraintsW(double &Min, double &Max) const {
  unsigned A = 0, B = 0;
  if (!Api.GetPowerManagementLimitConstraints ||
      Api.GetPowerManagementLimitConstraints(Dev, &A, &B) != NVML_SUCCESS)
    return false;
  Min = A / 1000.0;
  Max = B / 1000.0;
  return true;
}

bool NvmlDevice::clockEventReasons(unsigned long long &Bits) const {
  return Api.GetClocksEventReasons &&
         Api.GetClocksEventReasons(Dev, &Bits) == NVML_SUCCESS;
}

//===-- PowerSampler ------------------------------------------------------===//

void PowerSampler::start() {
  Samples.clear();
  Samples.reserve(4096);
  Running = true;
  Thread = std::thread([this] {
    while (Running.load()) {
      double T = steadySeconds();
      Result<double> P = Dev.powerW();
      if (P)
        Samples.push_back({T, *P});
      std::this_thread::sleep_for(std::chrono::duration<double>(PeriodS));
    }
  });
}

std::vector<PowerSample> PowerSampler::stop() {
  if (Running.exchange(false) || Thread.joinable()) {
    if (Thread.joinable())
      Thread.join();
  }
  return Samples;
}

//===-- NvmlSettingsControl -----------------------------------------------===//
//
// No signal handler here: the supervisor (core/Supervisor.h) restores in
// normal context after the measuring process has ended, however it ended.

Result<unsigned> NvmlSettingsControl::powerLimitMilliW() {
  const NvmlApi &A = Dev.api();
  if (!A.GetPowerManagementLimit || !A.SetPowerManagementLimit)
    return makeError("this NVML cannot set power limits");
  unsigned Cur = 0;
  nvmlReturn_t R = A.GetPowerManagementLimit(Dev.handle(), &Cur);
  if (R != NVML_SUCCESS)
    return makeError(Dev.errorText("nvmlDeviceGetPowerManagementLimit", R));
  return Cur;
}

Error NvmlSettingsControl::setPowerLimitMilliW(unsigned MilliW) {
  const NvmlApi &A = Dev.api();
  if (!A.SetPowerManagementLimit)
    return makeError("this NVML cannot set power limits");
  double W = MilliW / 1000.0, Min = 0, Max = 0;
  if (Dev.limitConstraintsW(Min, Max) && (W < Min - 0.5 || W > Max + 0.5))
    return makeError("power limit " + std::to_string(int(W)) +
                     " W is outside the card's range [" + std::to_string(int(Min)) +
                     ", " + std::to_string(int(Max)) + "] W");
  nvmlReturn_t R = A.SetPowerManagementLimit(Dev.handle(), MilliW);
  if (R == NVML_ERROR_NO_PERMISSION)
    return makeError("nvmlDeviceSetPowerManagementLimit: no permission "
                     "(setting a power limit needs root)");
  if (R != NVML_SUCCESS)
    return makeError(Dev.errorText("nvmlDeviceSetPowerManagementLimit", R));
  return Error::success();
}

Error NvmlSettingsControl::lockClocksMHz(unsigned MinMHz, unsigned MaxMHz) {
  const NvmlApi &A = Dev.api();
  if (!A.SetGpuLockedClocks || !A.ResetGpuLockedClocks)
    return makeError("this NVML cannot lock clocks");
  nvmlReturn_t R = A.SetGpuLockedClocks(Dev.handle(), MinMHz, MaxMHz);
  if (R == NVML_ERROR_NO_PERMISSION)
    return makeError("nvmlDeviceSetGpuLockedClocks: no permission "
                     "(locking clocks needs root)");
  if (R != NVML_SUCCESS)
    return makeError(Dev.errorText("nvmlDeviceSetGpuLockedClocks", R));
  return Error::success();
}

Error NvmlSettingsControl::resetLockedClocks() {
  const NvmlApi &A = Dev.api();
  if (!A.ResetGpuLockedClocks)
    return makeError("this NVML cannot reset locked clocks");
  nvmlReturn_t R = A.ResetGpuLockedClocks(Dev.handle());
  if (R != NVML_SUCCESS)
    return makeError(Dev.errorText("nvmlDeviceResetGpuLockedClocks", R));
  return Error::success();
}

Error restoreRecordedSettings(SettingsRecord &Rec) {
  bool NoNvml = false;
  Result<NvmlDevice *> D = NvmlDevice::open(Rec.Device, NoNvml);
  if (!D)
    return D.takeError();
  std::unique_ptr<NvmlDevice> Owned(*D);
  NvmlSettingsControl C(*Owned);
  return restoreSettings(C, Rec);
}

} // namespace measure
} // namespace flipflop
