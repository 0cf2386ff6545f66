//===- flipflop-calibrate.cpp - Measure a GPU's model parameters ----------===//
//
// Runs hand-written PTX microbenchmarks (CalibKernels.h) and writes
//  - a GPU spec file (docs/GPUS.md format: "base" plus overridden GPUSpec
//    fields) that flipflop-ptx and the plugin load with --gpu=FILE, and
//  - a calibration report with every raw figure: per-unit throughput and
//    power, DRAM/L2/shared bandwidth, latencies (pointer chase), coalesced
//    against strided access, bank conflicts, idle power, and board power
//    against active SMs fitted to P(n) = alpha * n^beta + delta.
//
//===----------------------------------------------------------------------===//
#include "CalibKernels.h"
#include "CudaDriver.h"
#include "Json.h"
#include "Nvml.h"
#include "Options.h"
#include "Runner.h"
#include "Stats.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <thread>

using namespace flipflop::measure;

namespace {

const std::vector<OptionSpec> Specs = {
    {"o", true, "GPU spec file to write (default flipflop-calibration.json)"},
    {"report", true, "calibration report with all raw figures (default: <o>.report.json)"},
    {"base", true, "database GPU the spec overrides (default: NVML's name)"},
    {"compare", true, "a JSON export of the base GPU's spec, printed beside the measurements"},
    {"quick", false, "shorter runs (about a minute)"},
    {"skip-power", false, "skip idle power and the power-versus-SMs sweep"},
    {"min-duration", true, "energy window per benchmark, s (default 0.2; quick 0.1)"},
    {"device", true, "CUDA device ordinal (default 0)"},
    {"dump-ptx", true, "write the benchmark PTX into this directory and exit (no GPU)"},
    {"help", false, "this help"},
};

[[noreturn]] void die(int Code, const std::string &Msg) {
  std::fprintf(stderr, "flipflop-calibrate: %s\n", Msg.c_str());
  std::exit(Code);
}
template <typename T> T check(Result<T> R) {
  if (!R)
    die(ExitFailure, R.error().message());
  return std::move(*R);
}
void check(Error E) {
  if (E)
    die(ExitFailure, E.message());
}

/// Device memory freed on scope exit.
struct DeviceBuffer {
  const CudaApi &Api;
  CUdeviceptr Ptr = 0;
  explicit DeviceBuffer(const CudaApi &A) : Api(A) {}
  ~DeviceBuffer() {
    if (Ptr)
      Api.cuMemFreeFn(Ptr);
  }
  Error alloc(size_t Bytes) {
    CU_CHECK(Api, cuMemAllocFn(&Ptr, Bytes));
    CU_CHECK(Api, cuMemsetD8Fn(Ptr, 0, Bytes));
    return Error::success();
  }
};

struct Calibrator {
  CudaDevice &Dev;
  const CudaApi &Api;
  NvmlDevice &Nvml;
  CUmodule Module = nullptr;
  bool Quick = false;
  EnergyOptions EO;
  TimingOptions TO;
  json::Value Report = json::Value::object();

  Calibrator(CudaDevice &D, NvmlDevice &N) : Dev(D), Api(*D.Api), Nvml(N) {}

  CUfunction fn(const char *Name) {
    CUfunction F;
    CUresult R = Api.cuModuleGetFunctionFn(&F, Module, Name);
    if (R != CUDA_SUCCESS)
      die(ExitFailure, cudaErrorText(Api, "cuModuleGetFunction", R) + " (" + Name + ")");
    return F;
  }

  unsigned blocksPerSM(CUfunction F, unsigned Threads, size_t Smem) {
    int N = 0;
    CUresult R = Api.cuOccupancyMaxActiveBlocksPerMultiprocessorFn(&N, F, int(Threads), Smem);
    if (R != CUDA_SUCCESS || N == 0)
      die(ExitFailure, cudaErrorText(Api, "cuOccupancyMaxActiveBlocksPerMultiprocessor", R));
    return unsigned(N);
  }

  /// One full wave of 256-thread blocks of \p F (every SM at its occupancy),
  /// fewer when the scratch buffer of \p OutBytes cannot hold
  /// \p BytesPerThread for every thread. Params are the caller's.
  KernelLaunch fullWave(CUfunction F, size_t OutBytes,
                        unsigned BytesPerThread) {
    const unsigned Block = 256;
    unsigned Grid = unsigned(Dev.SMCount) * blocksPerSM(F, Block, 0);
    if (size_t(Grid) * Block * BytesPerThread > OutBytes)
      Grid = unsigned(OutBytes / (size_t(Block) * BytesPerThread));
    KernelLaunch L;
    L.Func = F;
    L.Grid = {Grid, 1, 1};
    L.Block = {Block, 1, 1};
    return L;
  }

  /// Median time of one launch.
  double timeIt(const KernelLaunch &L, unsigned Repeats = 5) {
    TimingOptions T = TO;
    T.Repeats = Repeats;
    return check(timeKernel(Api, L, T)).PerLaunch.Median;
  }

  /// Scales the iteration count at *IterParam so that one launch takes about
  /// \p TargetS seconds.
  double tune(KernelLaunch &L, unsigned *IterParam, double TargetS) {
    *IterParam = 64;
    double T = 0;
    for (int Round = 0; Round < 6; ++Round) {
      T = timeIt(L, 1);
      if (T >= TargetS * 0.5 || *IterParam >= (1u << 30))
        break;
      double Scale = std::min(64.0, std::max(2.0, TargetS / std::max(T, 1e-7)));
      *IterParam = unsigned(std::min(double(1u << 30), *IterParam * Scale));
    }
    return T;
  }

  json::Value stateJSON(const EnergyResult &E) {
    json::Value O = json::Value::object();
    O["avg_power_w"] = E.AvgPowerW;
    O["sm_clock_mhz"] = E.SMClockMHz;
    O["mem_clock_mhz"] = E.MemClockMHz;
    O["temperature_c"] = E.TemperatureC;
    O["power_limit_w"] = E.PowerLimitW;
    O["energy_source"] = energySourceName(E.Source);
    return O;
  }
};

/// Sattolo's algorithm: a random cyclic permutation, so a pointer chase
/// visits every element once before repeating.
std::vector<uint32_t> cyclicChain(uint32_t Lines, uint32_t WordsPerLine,
                                  uint64_t Seed) {
  std::vector<uint32_t> Order(Lines);
  for (uint32_t I = 0; I < Lines; ++I)
    Order[I] = I;
  uint64_t S = Seed;
  for (uint32_t I = Lines - 1; I > 0; --I) {
    S = S * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t J = uint32_t((S >> 33) % I);
    std::swap(Order[I], Order[J]);
  }
  std::vector<uint32_t> Buf(size_t(Lines) * WordsPerLine, 0);
  for (uint32_t I = 0; I < Lines; ++I)
    Buf[size_t(Order[I]) * WordsPerLine] =
        Order[(I + 1) % Lines] * WordsPerLine;
  return Buf;
}

//===-- The sections of a calibration run ---------------------------------===//

/// Where the results go and how long to run.
struct CalibOptions {
  std::string SpecPath, ReportPath;
  bool Quick = false;
  int Ordinal = 0;
};

CalibOptions readOptions(const ParsedOptions &O) {
  CalibOptions CO;
  CO.SpecPath = O.get("o", "flipflop-calibration.json");
  CO.ReportPath = O.get("report", CO.SpecPath + ".report.json");
  CO.Quick = O.has("quick");
  if (O.has("device")) {
    Result<std::vector<unsigned>> D = parseUnsignedList(O.get("device"));
    if (!D || D->size() != 1)
      die(ExitUsage, "--device takes one ordinal");
    CO.Ordinal = int((*D)[0]);
  }
  return CO;
}

int dumpPtx(const ParsedOptions &O, const std::string &Ptx) {
  std::string Path = O.get("dump-ptx") + "/flipflop-calibration.ptx";
  std::ofstream Out(Path);
  if (!(Out << Ptx))
    die(ExitFailure, Path + ": cannot write");
  std::printf("%s\n", Path.c_str());
  return ExitOk;
}

Gpu openGpuOrExit(int Ordinal) {
  bool NoGPU = false, NvmlFailed = false;
  Result<Gpu> G = openGpu(Ordinal, NoGPU, NvmlFailed);
  if (!G)
    die(NoGPU ? ExitNoGPU : ExitFailure, G.error().message());
  return std::move(*G);
}

/// Timing options and the benchmark module.
void setUp(Calibrator &C, const ParsedOptions &O, const std::string &Ptx) {
  C.TO.Warmup = 2;
  C.EO.MinWindowS = C.Quick ? 0.1 : 0.2;
  if (O.has("min-duration")) {
    Result<double> D = parseNumber(O.get("min-duration"));
    if (!D || *D <= 0)
      die(ExitUsage, "--min-duration: expected a positive number of seconds");
    C.EO.MinWindowS = *D;
  }
  char Log[8192] = {0};
  CUjit_option JO[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *JV[] = {Log, reinterpret_cast<void *>(uintptr_t(sizeof(Log) - 1))};
  CUresult R = C.Api.cuModuleLoadDataExFn(&C.Module, Ptx.c_str(), 2, JO, JV);
  if (R != CUDA_SUCCESS)
    die(ExitFailure, cudaErrorText(C.Api, "cuModuleLoadDataEx", R) + ": " + Log);
}

/// The spec file being built and its two sub-objects.
struct SpecOut {
  json::Value Spec = json::Value::object();
  json::Value Thru = json::Value::object();
  json::Value Power = json::Value::object();
};

/// The report's header and the spec's fixed fields.
SpecOut describeGpu(Calibrator &C, const ParsedOptions &O, const CalibOptions &CO) {
  const unsigned SMs = unsigned(C.Dev.SMCount);
  std::string GpuName = C.Nvml.name().empty() ? C.Dev.Name : C.Nvml.name();
  std::fprintf(stderr, "flipflop-calibrate: %s, %u SMs, CC %d.%d\n", GpuName.c_str(),
               SMs, C.Dev.CCMajor, C.Dev.CCMinor);
  json::Value &Rep = C.Report;
  Rep["schema_version"] = 1;
  Rep["tool"] = "flipflop-calibrate";
  json::Value G = json::Value::object();
  G["name"] = GpuName;
  G["sm_count"] = SMs;
  G["compute_capability"] = std::to_string(C.Dev.CCMajor) + "." + std::to_string(C.Dev.CCMinor);
  G["l2_bytes"] = C.Dev.L2Bytes;
  G["max_sm_clock_mhz"] = C.Nvml.maxClockMHz(NVML_CLOCK_SM);
  G["max_mem_clock_mhz"] = C.Nvml.maxClockMHz(NVML_CLOCK_MEM);
  G["energy_counter"] = C.Nvml.hasEnergyCounter();
  Rep["gpu"] = G;

  SpecOut S;
  S.Spec["base"] = O.get("base", GpuName);
  S.Spec["Comment"] = "Measured by flipflop-calibrate on " + GpuName +
                      "; raw figures in " + CO.ReportPath;
  S.Spec["SMCount"] = SMs;
  S.Spec["L2SizeKB"] = C.Dev.L2Bytes / 1024;
  // NVML's max SM clock is the board's maximum attainable clock, above the
  // datasheet boost clock on GeForce/RTX boards (docs/GPUS.md).
  if (unsigned MaxClk = C.Nvml.maxClockMHz(NVML_CLOCK_SM))
    S.Spec["MaxClockMHz"] = MaxClk;
  return S;
}

/// Idle power (first, before the benchmarks heat the card) and the limits.
void measureIdleAndLimits(Calibrator &C, bool SkipPower, SpecOut &S) {
  if (!SkipPower) {
    std::this_thread::sleep_for(std::chrono::milliseconds(C.Quick ? 500 : 1500));
    double Idle = check(measureIdlePower(C.Nvml, C.Quick ? 1.0 : 2.0, 0.01));
    C.Report["idle_power_w"] = Idle;
    S.Power["IdleW"] = Idle;
    S.Power["IdleMeasured"] = true;
    std::fprintf(stderr, "  idle power %.1f W\n", Idle);
  }
  double MinW = 0, MaxW = 0;
  if (C.Nvml.limitConstraintsW(MinW, MaxW)) {
    S.Power["MinLimitW"] = MinW;
    S.Power["MaxLimitW"] = MaxW;
  }
  if (double Def = C.Nvml.defaultLimitW())
    S.Power["DefaultLimitW"] = Def;
}

/// Where the benchmarks write: one buffer shared by all of them.
struct Scratch {
  CUdeviceptr Ptr = 0;
  size_t Bytes = 0;
};

/// Functional-unit throughput and power.
void measureUnits(Calibrator &C, const Scratch &Out, SpecOut &S) {
  const unsigned SMs = unsigned(C.Dev.SMCount);
  struct Unit {
    const char *Kernel, *Field;
    double InstrPerOp; // PTX instructions per op line.
  } Units[] = {{"ff_fp32", "FP32", 1}, {"ff_fp64", "FP64", 1},
               {"ff_int32", "INT32", 2}, {"ff_imul", "IMul", 1},
               {"ff_sfu", "SFU", 1}};
  json::Value UnitsRep = json::Value::object();
  for (const Unit &U : Units) {
    KernelLaunch L = C.fullWave(C.fn(U.Kernel), Out.Bytes, 8);
    const unsigned Block = L.Block[0], Grid = L.Grid[0];
    uint64_t OutPtr = Out.Ptr;
    unsigned Iters = 64;
    L.Params = {&OutPtr, &Iters};
    C.tune(L, &Iters, C.Quick ? 2e-3 : 5e-3);
    double T = C.timeIt(L);
    EnergyResult E = check(measureEnergy(C.Api, C.Nvml, L, T, C.EO));
    double Ops = double(Grid) * Block * Iters * CalibOpsPerIter * U.InstrPerOp;
    double ClockHz = (E.SMClockMHz ? E.SMClockMHz : C.Nvml.maxClockMHz(NVML_CLOCK_SM)) * 1e6;
    double PerClk = ClockHz > 0 ? Ops / (T * SMs * ClockHz) : 0;
    json::Value R = C.stateJSON(E);
    R["time_s"] = T;
    R["ops"] = Ops;
    R["ops_per_s"] = Ops / T;
    R["lanes_per_clock_per_sm"] = PerClk;
    UnitsRep[U.Field] = R;
    S.Thru[U.Field] = PerClk;
    std::fprintf(stderr, "  %-5s %8.1f lanes/clk/SM  %7.1f W  (SM %u MHz)\n", U.Field,
                 PerClk, E.AvgPowerW, E.SMClockMHz);
  }
  C.Report["units"] = UnitsRep;
}

/// The streaming kernel and its launch shape.
struct ReadKernel {
  CUfunction Read;
  unsigned RBlock, RGrid;
};

/// Streams \p Bytes \p Passes times through ff_read: achieved GB/s and the
/// report's record.
std::pair<double, json::Value> readBandwidth(Calibrator &C, const Scratch &Out,
                                             const ReadKernel &K, size_t Bytes,
                                             unsigned Passes, const char *What) {
  CUfunction Read = K.Read;
  unsigned RBlock = K.RBlock, RGrid = K.RGrid;
  DeviceBuffer In(C.Api);
  check(In.alloc(Bytes));
  uint64_t InPtr = In.Ptr, OutPtr = Out.Ptr, NVec = Bytes / 16;
  KernelLaunch L;
  L.Func = Read;
  L.Grid = {RGrid, 1, 1};
  L.Block = {RBlock, 1, 1};
  L.Params = {&InPtr, &OutPtr, &NVec, &Passes};
  double T = C.timeIt(L);
  EnergyResult E = check(measureEnergy(C.Api, C.Nvml, L, T, C.EO));
  double GBs = double(Bytes) * Passes / T / 1e9;
  json::Value R = C.stateJSON(E);
  R["bytes"] = Bytes;
  R["passes"] = Passes;
  R["time_s"] = T;
  R["gb_per_s"] = GBs;
  std::fprintf(stderr, "  %-5s %8.1f GB/s  %7.1f W\n", What, GBs, E.AvgPowerW);
  return std::make_pair(GBs, R);
}

/// DRAM and L2 bandwidth.
void measureBandwidth(Calibrator &C, const Scratch &Out, SpecOut &S) {
  const unsigned SMs = unsigned(C.Dev.SMCount);
  KernelLaunch RL = C.fullWave(C.fn("ff_read"), Out.Bytes, 4);
  ReadKernel K{RL.Func, RL.Block[0], RL.Grid[0]};
  size_t DramBytes = std::max<size_t>(size_t(1) << 30, size_t(C.Dev.L2Bytes) * 16);
  auto Dram = readBandwidth(C, Out, K, DramBytes, 1, "DRAM");
  C.Report["dram"] = Dram.second;
  // Measured (achieved) bandwidth: the model must not scale it down again.
  S.Spec["MemoryBandwidthGBs"] = Dram.first;
  S.Spec["DramEfficiency"] = 1.0;
  size_t L2Bytes = std::max<size_t>(size_t(C.Dev.L2Bytes) / 4, 1 << 20) & ~size_t(15);
  auto L2 = readBandwidth(C, Out, K, L2Bytes, C.Quick ? 50 : 200, "L2");
  double Clk = 0;
  if (const json::Value *V = json::find(L2.second, "sm_clock_mhz"))
    if (V->is_number())
      Clk = V->get<double>();
  if (Clk > 0) {
    double PerClk = L2.first * 1e9 / (Clk * 1e6 * SMs);
    L2.second["bytes_per_clock_per_sm"] = PerClk;
    S.Spec["L2BandwidthBytesPerClkPerSM"] = PerClk;
  }
  C.Report["l2"] = L2.second;
}

/// Coalesced against strided access.
void measureStrided(Calibrator &C, const Scratch &Out) {
  DeviceBuffer In(C.Api);
  const uint64_t Elems = uint64_t(1) << 26; // 256 MiB of floats.
  check(In.alloc(Elems * 4));
  uint64_t InPtr = In.Ptr, OutPtr = Out.Ptr, Mask = Elems - 1;
  unsigned Stride = 1, Iters = C.Quick ? 16 : 64;
  KernelLaunch L = C.fullWave(C.fn("ff_strided"), Out.Bytes, 4);
  const unsigned Block = L.Block[0], Grid = L.Grid[0];
  L.Params = {&InPtr, &OutPtr, &Mask, &Stride, &Iters};
  json::Value Rows = json::Value::array();
  double Base = 0;
  for (unsigned S : {1u, 2u, 4u, 8u, 16u, 32u}) {
    Stride = S;
    double T = C.timeIt(L);
    double GBs = double(Grid) * Block * Iters * 4 / T / 1e9;
    if (S == 1)
      Base = GBs;
    json::Value R = json::Value::object();
    R["stride_elements"] = S;
    R["time_s"] = T;
    R["useful_gb_per_s"] = GBs;
    R["efficiency_vs_coalesced"] = Base > 0 ? GBs / Base : 0;
    Rows.push_back(R);
  }
  C.Report["strided_access"] = Rows;
}

/// Shared memory bandwidth and bank conflicts.
void measureSharedMemory(Calibrator &C, const Scratch &Out) {
  const unsigned SMs = unsigned(C.Dev.SMCount);
  uint64_t OutPtr = Out.Ptr;
  unsigned Iters = 64, Stride = 1;
  KernelLaunch L = C.fullWave(C.fn("ff_smem"), Out.Bytes, 4);
  const unsigned Block = L.Block[0], Grid = L.Grid[0];
  L.Params = {&OutPtr, &Iters, &Stride};
  C.tune(L, &Iters, C.Quick ? 2e-3 : 5e-3);
  json::Value Rows = json::Value::array();
  double T1 = 0;
  for (unsigned S : {1u, 2u, 4u, 8u, 16u, 32u}) {
    Stride = S;
    double T = C.timeIt(L);
    if (S == 1) {
      T1 = T;
      EnergyResult E = check(measureEnergy(C.Api, C.Nvml, L, T, C.EO));
      double Clk = E.SMClockMHz * 1e6;
      double Bytes = double(Grid) * Block * Iters * 4 * 4;
      json::Value R = C.stateJSON(E);
      R["time_s"] = T;
      R["bytes_per_clock_per_sm"] = Clk > 0 ? Bytes / (T * Clk * SMs) : 0;
      C.Report["shared_bandwidth"] = R;
    }
    json::Value R = json::Value::object();
    R["stride_words"] = S;
    R["time_s"] = T;
    R["slowdown_vs_conflict_free"] = T1 > 0 ? T / T1 : 0;
    Rows.push_back(R);
  }
  C.Report["bank_conflicts"] = Rows;
}

/// A pointer chase through \p Bytes of global memory with \p Kernel.
void chaseGlobal(Calibrator &C, const Scratch &Out, json::Value &Lat,
                 const char *Kernel, size_t Bytes, const char *What) {
  CUfunction F = C.fn(Kernel);
  uint32_t Lines = uint32_t(Bytes / 128);
  std::vector<uint32_t> Host = cyclicChain(Lines, 32, 12345);
  DeviceBuffer Buf(C.Api);
  check(Buf.alloc(Host.size() * 4));
  CUresult R = C.Api.cuMemcpyHtoDFn(Buf.Ptr, Host.data(), Host.size() * 4);
  if (R != CUDA_SUCCESS)
    die(ExitFailure, cudaErrorText(C.Api, "cuMemcpyHtoD", R));
  uint64_t BufPtr = Buf.Ptr, OutPtr = Out.Ptr;
  unsigned Steps = C.Quick ? 20000 : 100000;
  KernelLaunch L;
  L.Func = F;
  L.Params = {&BufPtr, &OutPtr, &Steps};
  double T = C.timeIt(L, 3);
  double Ns = T / Steps * 1e9;
  unsigned Clk = C.Nvml.clockMHz(NVML_CLOCK_SM);
  json::Value O = json::Value::object();
  O["bytes"] = Bytes;
  O["ns"] = Ns;
  O["cycles_at_current_clock"] = Ns * Clk / 1000.0;
  O["sm_clock_mhz"] = Clk;
  Lat[What] = O;
  std::fprintf(stderr, "  %-5s latency %6.1f ns\n", What, Ns);
}

/// Latency: pointer chases through L1, L2, DRAM and shared memory.
void measureLatency(Calibrator &C, const Scratch &Out) {
  json::Value Lat = json::Value::object();
  chaseGlobal(C, Out, Lat, "ff_chase_ca", 16 * 1024, "L1");
  chaseGlobal(C, Out, Lat, "ff_chase_cg",
              std::min<size_t>(4u << 20, size_t(C.Dev.L2Bytes) / 4), "L2");
  chaseGlobal(C, Out, Lat, "ff_chase_cg", 256u << 20, "DRAM");
  CUfunction F = C.fn("ff_chase_smem");
  uint64_t OutPtr = Out.Ptr;
  unsigned Steps = C.Quick ? 20000 : 100000, Words = 8192;
  KernelLaunch L;
  L.Func = F;
  L.Params = {&OutPtr, &Steps, &Words};
  double T = C.timeIt(L, 3);
  // The kernel also fills 8192 words with one thread; subtract a run
  // with no steps.
  unsigned Zero = 0;
  KernelLaunch L0 = L;
  L0.Params = {&OutPtr, &Zero, &Words};
  double T0 = C.timeIt(L0, 3);
  double Ns = std::max(0.0, T - T0) / Steps * 1e9;
  unsigned Clk = C.Nvml.clockMHz(NVML_CLOCK_SM);
  json::Value O = json::Value::object();
  O["ns"] = Ns;
  O["cycles_at_current_clock"] = Ns * Clk / 1000.0;
  O["sm_clock_mhz"] = Clk;
  Lat["shared"] = O;
  std::fprintf(stderr, "  smem  latency %6.1f ns\n", Ns);
  C.Report["latency"] = Lat;
}

/// The active-SM counts of the power sweep: powers of two and quarters of
/// the card, each at most \p SMs.
std::vector<unsigned> activeSMCounts(unsigned SMs) {
  std::vector<unsigned> Ns = {1, 2, 4, 8, 16, 32, 64, 128, 256,
                              SMs / 4, SMs / 2, 3 * SMs / 4, SMs};
  std::sort(Ns.begin(), Ns.end());
  Ns.erase(std::unique(Ns.begin(), Ns.end()), Ns.end());
  Ns.erase(std::remove_if(Ns.begin(), Ns.end(), [&](unsigned N) { return N == 0 || N > SMs; }),
           Ns.end());
  return Ns;
}

/// Board power against active SMs, fitted to P(n) = alpha * n^beta + delta.
void measurePowerVsSMs(Calibrator &C, const Scratch &Out) {
  const unsigned SMs = unsigned(C.Dev.SMCount);
  CUfunction F = C.fn("ff_fp32");
  unsigned Block = 1024;
  size_t Smem = size_t(C.Dev.MaxSharedPerBlockOptin);
  CUresult R = C.Api.cuFuncSetAttributeFn(F, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                          int(Smem));
  if (R != CUDA_SUCCESS)
    die(ExitFailure, cudaErrorText(C.Api, "cuFuncSetAttribute", R));
  if (C.blocksPerSM(F, Block, Smem) != 1)
    die(ExitFailure, "cannot pin one block per SM with dynamic shared memory");
  std::vector<unsigned> Ns = activeSMCounts(SMs);
  uint64_t OutPtr = Out.Ptr;
  unsigned Iters = 64;
  KernelLaunch L;
  L.Func = F;
  L.Block = {Block, 1, 1};
  L.SharedBytes = unsigned(Smem);
  L.Params = {&OutPtr, &Iters};
  L.Grid = {SMs, 1, 1};
  C.tune(L, &Iters, C.Quick ? 5e-3 : 10e-3);
  std::vector<double> X, Y;
  json::Value Rows = json::Value::array();
  EnergyOptions PE = C.EO;
  PE.MinWindowS = std::max(PE.MinWindowS, C.Quick ? 0.2 : 0.4);
  PE.SettleS = C.Quick ? 0.05 : 0.2;
  for (unsigned N : Ns) {
    L.Grid = {N, 1, 1};
    double T = C.timeIt(L, 3);
    EnergyResult E = check(measureEnergy(C.Api, C.Nvml, L, T, PE));
    X.push_back(N);
    Y.push_back(E.AvgPowerW);
    json::Value Row = C.stateJSON(E);
    Row["active_sms"] = N;
    Row["time_s"] = T;
    Rows.push_back(Row);
    std::fprintf(stderr, "  %3u SMs  %7.1f W  (SM %u MHz)\n", N, E.AvgPowerW, E.SMClockMHz);
  }
  json::Value P = json::Value::object();
  P["points"] = Rows;
  PowerLawFit Fit = fitPowerLaw(X, Y);
  if (Fit.Ok) {
    P["alpha_w"] = Fit.Alpha;
    P["beta"] = Fit.Beta;
    P["delta_w"] = Fit.Delta;
    P["r2"] = Fit.R2;
    P["rmse_w"] = Fit.RMSE;
    std::fprintf(stderr, "  P(n) = %.3f * n^%.3f + %.1f W  (R^2 %.4f)\n", Fit.Alpha,
                 Fit.Beta, Fit.Delta, Fit.R2);
  }
  C.Report["power_vs_active_sms"] = P;
}

/// Prints the spec's figures, beside the database's when --compare names an
/// export.
void printComparison(const ParsedOptions &O, const json::Value &Spec) {
  json::Value Base;
  bool HaveBase = false;
  if (O.has("compare")) {
    Result<json::Value> B = json::readFile(O.get("compare"));
    if (!B)
      die(ExitFailure, B.error().message());
    Base = *B;
    HaveBase = true;
  }
  std::printf("%-34s %14s %14s %8s\n", "field", "measured", HaveBase ? "database" : "", HaveBase ? "ratio" : "");
  auto Row = [&](const std::string &Key, const json::Value &V, const json::Value *B) {
    if (!V.is_number())
      return;
    std::printf("%-34s %14.4g", Key.c_str(), V.get<double>());
    if (B && B->is_number() && B->get<double>() != 0)
      std::printf(" %14.4g %8.3f", B->get<double>(), V.get<double>() / B->get<double>());
    std::printf("\n");
  };
  for (const json::Member &M : json::members(Spec)) {
    if (M.second.is_object()) {
      const json::Value *BO = HaveBase ? json::find(Base, M.first) : nullptr;
      for (const json::Member &N : json::members(M.second))
        Row(M.first + "." + N.first, N.second, BO ? json::find(*BO, N.first) : nullptr);
    } else {
      Row(M.first, M.second, HaveBase ? json::find(Base, M.first) : nullptr);
    }
  }
}

} // namespace

int main(int Argc, char **Argv) {
  Result<ParsedOptions> OR = parseCommandLine(Argc, Argv, Specs);
  if (!OR)
    die(ExitUsage, OR.error().message());
  ParsedOptions &O = *OR;
  if (O.has("help")) {
    std::printf("%s", formatHelp("flipflop-calibrate [options]", Specs).c_str());
    return ExitOk;
  }
  if (!O.Positional.empty())
    die(ExitUsage, "unexpected argument " + O.Positional[0]);
  std::string Ptx = calibrationPtx();
  if (O.has("dump-ptx"))
    return dumpPtx(O, Ptx);
  CalibOptions CO = readOptions(O);
  Gpu G = openGpuOrExit(CO.Ordinal);
  Calibrator C(*G.Dev, *G.Nvml);
  C.Quick = CO.Quick;
  setUp(C, O, Ptx);
  SpecOut S = describeGpu(C, O, CO);
  bool SkipPower = O.has("skip-power");
  measureIdleAndLimits(C, SkipPower, S);

  DeviceBuffer OutBuf(C.Api);
  Scratch Out;
  Out.Bytes = size_t(G.Dev->SMCount) * 2048 * 8 * 4;
  check(OutBuf.alloc(Out.Bytes));
  Out.Ptr = OutBuf.Ptr;
  measureUnits(C, Out, S);
  measureBandwidth(C, Out, S);
  measureStrided(C, Out);
  measureSharedMemory(C, Out);
  measureLatency(C, Out);
  if (!SkipPower)
    measurePowerVsSMs(C, Out);

  S.Spec["Throughput"] = S.Thru;
  if (!json::members(S.Power).empty())
    S.Spec["Power"] = S.Power;
  check(json::writeFile(S.Spec, CO.SpecPath));
  check(json::writeFile(C.Report, CO.ReportPath));
  printComparison(O, S.Spec);
  std::printf("spec: %s\nreport: %s\n", CO.SpecPath.c_str(), CO.ReportPath.c_str());
  return ExitOk;
}
