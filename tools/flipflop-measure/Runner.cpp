//===- Runner.cpp - Launch, time and measure the energy of a kernel -------===//
#include "Runner.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace flipflop {
namespace measure {

const char *energySourceName(EnergySource S) {
  switch (S) {
  case EnergySource::Auto:
    return "auto";
  case EnergySource::Counter:
    return "counter";
  case EnergySource::Sampled:
    return "sampled";
  case EnergySource::None:
    return "none";
  }
  return "none";
}

Error launchOnce(const CudaApi &Api, const KernelLaunch &L) {
  CU_CHECK(Api, cuLaunchKernelFn(L.Func, L.Grid[0], L.Grid[1], L.Grid[2],
                                 L.Block[0], L.Block[1], L.Block[2],
                                 L.SharedBytes, nullptr,
                                 const_cast<void **>(L.Params.data()), nullptr));
  return Error::success();
}

namespace {
/// Events destroyed on scope exit.
struct EventSet {
  const CudaApi &Api;
  std::vector<CUevent> Events;
  explicit EventSet(const CudaApi &A) : Api(A) {}
  ~EventSet() {
    for (CUevent E : Events)
      Api.cuEventDestroyFn(E);
  }
  Error create(size_t N) {
    while (Events.size() < N) {
      CUevent E;
      CU_CHECK(Api, cuEventCreateFn(&E, CU_EVENT_DEFAULT));
      Events.push_back(E);
    }
    return Error::success();
  }
};

void sleepS(double S) {
  std::this_thread::sleep_for(std::chrono::duration<double>(S));
}
} // namespace

Result<TimingResult> timeKernel(const CudaApi &Api, const KernelLaunch &L,
                                const TimingOptions &Opts) {
  TimingResult R;
  EventSet Ev(Api);
  if (Error E = Ev.create(2))
    return E;
  for (unsigned I = 0; I < std::max(1u, Opts.Warmup); ++I)
    if (Error E = launchOnce(Api, L))
      return E;
  // One timed launch to size the batches.
  CU_CHECK(Api, cuEventRecordFn(Ev.Events[0], nullptr));
  if (Error E = launchOnce(Api, L))
    return E;
  CU_CHECK(Api, cuEventRecordFn(Ev.Events[1], nullptr));
  CU_CHECK(Api, cuEventSynchronizeFn(Ev.Events[1]));
  float Ms = 0;
  CU_CHECK(Api, cuEventElapsedTimeFn(&Ms, Ev.Events[0], Ev.Events[1]));
  double Est = std::max(1e-7, Ms * 1e-3);
  R.Batch = unsigned(std::min(100000.0, std::ceil(Opts.MinBatchS / Est)));
  R.Batch = std::max(1u, R.Batch);
  unsigned Repeats = std::max(1u, Opts.Repeats);
  if (Error E = Ev.create(size_t(Repeats) + 1))
    return E;
  // Back-to-back batches; event I+1 ends batch I.
  CU_CHECK(Api, cuEventRecordFn(Ev.Events[0], nullptr));
  for (unsigned I = 0; I < Repeats; ++I) {
    for (unsigned B = 0; B < R.Batch; ++B)
      if (Error E = launchOnce(Api, L))
        return E;
    CU_CHECK(Api, cuEventRecordFn(Ev.Events[I + 1], nullptr));
  }
  CU_CHECK(Api, cuEventSynchronizeFn(Ev.Events[Repeats]));
  std::vector<double> PerLaunch;
  for (unsigned I = 0; I < Repeats; ++I) {
    CU_CHECK(Api, cuEventElapsedTimeFn(&Ms, Ev.Events[I], Ev.Events[I + 1]));
    PerLaunch.push_back(Ms * 1e-3 / R.Batch);
  }
  R.PerLaunch = summarize(PerLaunch);
  return R;
}

namespace {
/// Keeps the stream busy with chunks of launches, at most MaxInFlight chunks
/// queued.
class BusyLoop {
public:
  BusyLoop(const CudaApi &Api, const KernelLaunch &L, double LaunchTimeS)
      : Api(Api), L(L), Ev(Api) {
    const double ChunkS = 2e-3, QueueS = 16e-3;
    Chunk = unsigned(std::max(1.0, std::min(1e5, std::ceil(ChunkS / std::max(1e-7, LaunchTimeS)))));
    double ChunkTime = Chunk * LaunchTimeS;
    MaxInFlight = unsigned(std::max(2.0, std::min(16.0, std::ceil(QueueS / std::max(1e-9, ChunkTime)))));
  }
  Error init() { return Ev.create(MaxInFlight); }
  /// Tops the queue up and retires finished chunks.
  Error pump() {
    while (InFlight > 0) {
      CUresult R = Api.cuEventQueryFn(Ev.Events[Tail]);
      if (R == CUDA_ERROR_NOT_READY)
        break;
      if (R != CUDA_SUCCESS)
        return makeError(cudaErrorText(Api, "cuEventQuery", R));
      Tail = (Tail + 1) % MaxInFlight;
      --InFlight;
      ++Retired;
    }
    while (InFlight < MaxInFlight) {
      for (unsigned I = 0; I < Chunk; ++I)
        if (Error E = launchOnce(Api, L))
          return E;
      CU_CHECK(Api, cuEventRecordFn(Ev.Events[Head], nullptr));
      Head = (Head + 1) % MaxInFlight;
      ++InFlight;
    }
    return Error::success();
  }
  Error drain() {
    CU_CHECK(Api, cuCtxSynchronizeFn());
    Retired += InFlight;
    InFlight = 0;
    return Error::success();
  }
  uint64_t launchesRetired() const { return Retired * Chunk; }

private:
  const CudaApi &Api;
  const KernelLaunch &L;
  EventSet Ev;
  unsigned Chunk = 1, MaxInFlight = 2;
  unsigned Head = 0, Tail = 0, InFlight = 0;
  uint64_t Retired = 0;
};

void readState(const NvmlDevice &N, EnergyResult &R) {
  R.SMClockMHz = N.clockMHz(NVML_CLOCK_SM);
  R.MemClockMHz = N.clockMHz(NVML_CLOCK_MEM);
  R.TemperatureC = N.temperatureC();
  R.PowerLimitW = N.enforcedLimitW();
  Result<double> P = N.powerW();
  R.PowerUsageW = P ? *P : 0;
  R.HasReasons = N.clockEventReasons(R.ClockEventReasons);
}

Result<EnergyResult> counterWindow(const CudaApi &Api, const NvmlDevice &N,
                                   const KernelLaunch &L, double LaunchTimeS,
                                   const EnergyOptions &Opts) {
  EnergyResult R;
  R.Source = EnergySource::Counter;
  BusyLoop Busy(Api, L, LaunchTimeS);
  if (Error E = Busy.init())
    return E;
  double Start = steadySeconds();
  enum { Warming, WaitStart, Running, WaitEnd } State = Warming;
  double T0 = 0, E0 = 0, WaitSince = 0, Last = -1;
  uint64_t Launches0 = 0;
  while (true) {
    if (Error E = Busy.pump())
      return E;
    double Now = steadySeconds();
    if (State == Warming) {
      if (Busy.launchesRetired() > 0 && Now - Start >= Opts.SettleS) {
        Result<double> E = N.energyJ();
        if (!E)
          return E.takeError();
        Last = *E;
        State = WaitStart;
        WaitSince = Now;
      }
    } else {
      Result<double> E = N.energyJ();
      if (!E)
        return E.takeError();
      bool Tick = *E != Last;
      Last = *E;
      if (State == WaitStart && Tick) {
        T0 = Now;
        E0 = *E;
        Launches0 = Busy.launchesRetired();
        State = Running;
      } else if (State == Running && Now - T0 >= Opts.MinWindowS) {
        State = WaitEnd;
        WaitSince = Now;
        readState(N, R);
      } else if (State == WaitEnd && Tick) {
        R.WindowS = Now - T0;
        R.WindowEnergyJ = *E - E0;
        R.LaunchesPerS = double(Busy.launchesRetired() - Launches0) / R.WindowS;
        break;
      }
      if ((State == WaitStart || State == WaitEnd) &&
          Now - WaitSince > Opts.MaxTickWaitS) {
        Busy.drain();
        return makeError("the NVML energy counter did not advance for " +
                         std::to_string(Opts.MaxTickWaitS) + " s");
      }
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  if (Error E = Busy.drain())
    return E;
  if (!(R.WindowS > 0) || !(R.WindowEnergyJ > 0))
    return makeError("the NVML energy counter went backwards or did not move");
  R.AvgPowerW = R.WindowEnergyJ / R.WindowS;
  return R;
}

Result<EnergyResult> sampledWindow(const CudaApi &Api, const NvmlDevice &N,
                                   const KernelLaunch &L, double LaunchTimeS,
                                   const EnergyOptions &Opts) {
  EnergyResult R;
  R.Source = EnergySource::Sampled;
  BusyLoop Busy(Api, L, LaunchTimeS);
  if (Error E = Busy.init())
    return E;
  PowerSampler Sampler(N, Opts.SamplePeriodS);
  Sampler.start();
  double Start = steadySeconds(), T0 = -1;
  uint64_t Launches0 = 0, Launches1 = 0;
  bool StateRead = false;
  while (true) {
    if (Error E = Busy.pump()) {
      Sampler.stop();
      return E;
    }
    double Now = steadySeconds();
    if (T0 < 0 && Busy.launchesRetired() > 0 && Now - Start >= Opts.SettleS) {
      T0 = Now;
      Launches0 = Busy.launchesRetired();
    }
    if (T0 >= 0 && !StateRead && Now - T0 >= Opts.MinWindowS) {
      readState(N, R);
      Launches1 = Busy.launchesRetired();
      StateRead = true;
    }
    // Keep the GPU busy for two more sample periods so that the samples
    // bracket the window end.
    if (StateRead && Now - T0 >= Opts.MinWindowS + 2 * Opts.SamplePeriodS)
      break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  std::vector<PowerSample> S = Sampler.stop();
  if (Error E = Busy.drain())
    return E;
  R.WindowS = Opts.MinWindowS;
  R.WindowEnergyJ = trapezoidEnergy(S, T0, T0 + R.WindowS);
  R.Samples = S.size();
  R.LaunchesPerS = double(Launches1 - Launches0) / R.WindowS;
  if (S.size() < 2 || !(R.WindowEnergyJ > 0))
    return makeError("too few power samples in the window (" +
                     std::to_string(S.size()) + ")");
  R.AvgPowerW = R.WindowEnergyJ / R.WindowS;
  return R;
}
} // namespace

Result<EnergyResult> measureEnergy(const CudaApi &Api, const NvmlDevice &N,
                                   const KernelLaunch &L, double LaunchTimeS,
                                   const EnergyOptions &Opts) {
  if (Opts.Source == EnergySource::None) {
    EnergyResult R;
    readState(N, R);
    return R;
  }
  bool UseCounter = Opts.Source == EnergySource::Counter ||
                    (Opts.Source == EnergySource::Auto && N.hasEnergyCounter());
  if (Opts.Source == EnergySource::Counter && !N.hasEnergyCounter())
    return makeError("nvmlDeviceGetTotalEnergyConsumption is not supported "
                     "on this GPU (use --energy=sampled)");
  if (UseCounter) {
    Result<EnergyResult> R = counterWindow(Api, N, L, LaunchTimeS, Opts);
    if (R || Opts.Source == EnergySource::Counter)
      return R;
    // A stuck counter under --energy=auto: fall back to sampling.
  }
  return sampledWindow(Api, N, L, LaunchTimeS, Opts);
}

Result<double> measureIdlePower(const NvmlDevice &N, double Seconds,
                                double SamplePeriodS) {
  PowerSampler Sampler(N, SamplePeriodS);
  double T0 = steadySeconds();
  Sampler.start();
  sleepS(Seconds);
  std::vector<PowerSample> S = Sampler.stop();
  double T1 = steadySeconds();
  if (S.size() < 2)
    return makeError("too few idle power samples");
  return trapezoidEnergy(S, T0, T1) / (T1 - T0);
}

Result<Gpu> openGpu(int Ordinal, bool &NoGPU, bool &NvmlFailed) {
  NoGPU = NvmlFailed = false;
  Gpu G;
  Result<CudaDevice *> DevR = openCudaDevice(Ordinal, NoGPU);
  if (!DevR)
    return DevR.takeError();
  G.Dev.reset(*DevR);
  Result<NvmlDevice *> NvR = NvmlDevice::open(G.Dev->PciBusId, NoGPU);
  if (!NvR) {
    NvmlFailed = true;
    return NvR.takeError();
  }
  G.Nvml.reset(*NvR);
  return G;
}

} // namespace measure
} // namespace flipflop
