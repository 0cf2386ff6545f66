//===- flipflop-measure.cpp - Measure a kernel's time and energy ----------===//
//
// Loads a kernel from PTX or a cubin through the CUDA driver API, launches it
// over a list or sweep of configurations with the arguments an args file
// describes, and writes time, power and energy per configuration in the
// report schema of flipflop-ptx --json (docs/MEASUREMENT.md).
//
//===----------------------------------------------------------------------===//
#include "ArgsSpec.h"
#include "CudaDriver.h"
#include "Json.h"
#include "Nvml.h"
#include "Options.h"
#include "PtxEdit.h"
#include "Report.h"
#include "Runner.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

using namespace flipflop::measure;

namespace {

const std::vector<OptionSpec> Specs = {
    {"args", true, "kernel arguments (JSON, see docs/MEASUREMENT.md)"},
    {"kernel", true, "entry name (default: the args file's, or the only entry)"},
    {"configs-from", true, "measure the configurations of this flipflop-ptx --json report"},
    {"blocks", true, "block shapes: 32:1024:32 or 256;16x16;8x8x4 (default 32:1024:32)"},
    {"min-blocks", true, "__launch_bounds__ min blocks per SM to sweep (default 0; PTX only)"},
    {"threads", true, "problem size in threads (overrides the args file)"},
    {"grid", true, "fixed grid, e.g. 1024 or 64x64 (overrides the args file)"},
    {"power-limits", true, "power limits to sweep, W (needs --allow-set-power-limit)"},
    {"allow-set-power-limit", false, "permit changing the power limit (root; restored at exit)"},
    {"lock-clocks", true, "graphics clocks to sweep, MHz (needs --allow-set-clocks)"},
    {"allow-set-clocks", false, "permit locking the graphics clock (root; reset at exit)"},
    {"warmup", true, "warm-up launches per configuration (default 3)"},
    {"repeats", true, "timed repeats per configuration (default 20)"},
    {"min-duration", true, "energy window per configuration, s (default 0.1)"},
    {"energy", true, "auto | counter | sampled | none (default auto)"},
    {"sample-period-ms", true, "power sampling period in sampled mode (default 5)"},
    {"max-configs", true, "measure at most this many configurations"},
    {"time-budget", true, "stop starting new configurations after this many seconds"},
    {"device", true, "CUDA device ordinal (default 0)"},
    {"o", true, "output file (default: standard output)"},
    {"dry-run", false, "check the inputs and list the configurations; no GPU needed"},
    {"quiet", false, "no progress on standard error"},
    {"help", false, "this help"},
};

[[noreturn]] void die(int Code, const std::string &Msg) {
  std::fprintf(stderr, "flipflop-measure: %s\n", Msg.c_str());
  std::exit(Code);
}
template <typename T> T check(Result<T> R, int Code = ExitFailure) {
  if (!R)
    die(Code, R.error().message());
  return std::move(*R);
}
void check(Error E, int Code = ExitFailure) {
  if (E)
    die(Code, E.message());
}

struct Config {
  std::array<unsigned, 3> Block{256, 1, 1};
  unsigned MinBlocks = 0;
  double PowerLimitW = 0; ///< 0: leave the card's limit alone.
  unsigned ClockMHz = 0;  ///< 0: no lock.
};

unsigned parseCount(const ParsedOptions &O, const char *Name, unsigned Default) {
  if (!O.has(Name))
    return Default;
  std::vector<unsigned> V = check(parseUnsignedList(O.get(Name)), ExitUsage);
  if (V.size() != 1)
    die(ExitUsage, std::string("--") + Name + " takes one number");
  return V[0];
}

std::string readBinary(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    die(ExitFailure, Path + ": cannot open");
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

/// Configurations from a predictions report, for kernel \p Name.
std::vector<Config> configsFromReport(const std::string &Path,
                                      const std::string &Name) {
  ReportFile R = check(loadReport(Path));
  const KernelRecord *K = R.find(Name);
  if (!K)
    die(ExitFailure, Path + ": no kernel named " + Name);
  std::vector<Config> Out;
  for (const ConfigRecord &C : K->Configs) {
    if (!C.Valid)
      continue;
    Config X;
    X.Block = C.Block;
    X.MinBlocks = C.MinBlocksPerSM;
    X.PowerLimitW = C.PowerLimitW;
    bool Dup = false;
    for (const Config &Y : Out)
      Dup |= Y.Block == X.Block && Y.MinBlocks == X.MinBlocks &&
             Y.PowerLimitW == X.PowerLimitW;
    if (!Dup)
      Out.push_back(X);
  }
  return Out;
}

/// Buffers and scalar storage of the kernel's arguments.
struct DeviceArgs {
  const CudaApi *Api = nullptr;
  std::vector<CUdeviceptr> Buffers;
  std::vector<std::vector<unsigned char>> Storage; // One per argument.
  std::vector<void *> Params;
  ~DeviceArgs() {
    for (CUdeviceptr P : Buffers)
      if (P)
        Api->cuMemFreeFn(P);
  }
};

Error setupArgs(const CudaApi &Api, const ArgsSpec &S, DeviceArgs &D) {
  D.Api = &Api;
  D.Storage.resize(S.Args.size());
  for (size_t I = 0; I < S.Args.size(); ++I) {
    const ArgSpec &A = S.Args[I];
    if (!A.IsBuffer) {
      Result<std::vector<unsigned char>> B = scalarBytes(A, S.Total);
      if (!B)
        return B.takeError().prefix("args[" + std::to_string(I) + "]: ");
      D.Storage[I] = *B;
      continue;
    }
    Result<std::vector<unsigned char>> Host = fillBuffer(A, S.Total);
    if (!Host)
      return Host.takeError().prefix("args[" + std::to_string(I) + "]: ");
    CUdeviceptr P = 0;
    size_t Bytes = std::max<size_t>(Host->size(), 1);
    CU_CHECK(Api, cuMemAllocFn(&P, Bytes));
    D.Buffers.push_back(P);
    if (!Host->empty())
      CU_CHECK(Api, cuMemcpyHtoDFn(P, Host->data(), Host->size()));
    D.Storage[I].resize(sizeof(CUdeviceptr));
    std::memcpy(D.Storage[I].data(), &P, sizeof(P));
  }
  for (std::vector<unsigned char> &St : D.Storage)
    D.Params.push_back(St.data());
  return Error::success();
}

/// The args file must match the PTX parameter list.
Error checkParams(const PtxEntry &E, const ArgsSpec &S) {
  if (E.Params.size() != S.Args.size())
    return makeError("kernel " + E.Name + " takes " +
                     std::to_string(E.Params.size()) + " parameters; the args file gives " +
                     std::to_string(S.Args.size()));
  for (size_t I = 0; I < S.Args.size(); ++I) {
    unsigned Want = S.Args[I].IsBuffer ? 8 : scalarTypeBytes(S.Args[I].Type);
    if (E.Params[I].Bytes != Want)
      return makeError("args[" + std::to_string(I) + "]: parameter " +
                       E.Params[I].Name + " is " + E.Params[I].Type + " (" +
                       std::to_string(E.Params[I].Bytes) + " bytes), the args file gives " +
                       std::to_string(Want) + " bytes");
  }
  return Error::success();
}

struct ModuleCache {
  const CudaApi *Api = nullptr;
  std::map<std::pair<std::array<unsigned, 3>, unsigned>, CUmodule> Modules;
  ~ModuleCache() {
    for (auto &M : Modules)
      Api->cuModuleUnloadFn(M.second);
  }
};

Result<CUmodule> loadModule(const CudaApi &Api, const std::string &Image) {
  char Log[8192] = {0};
  CUjit_option Opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Vals[] = {Log, reinterpret_cast<void *>(uintptr_t(sizeof(Log) - 1))};
  CUmodule M;
  CUresult R = Api.cuModuleLoadDataExFn(&M, Image.c_str(), 2, Opts, Vals);
  if (R != CUDA_SUCCESS) {
    std::string L = Log;
    size_t NL = L.find('\n');
    if (NL != std::string::npos)
      L.resize(NL);
    return makeError(cudaErrorText(Api, "cuModuleLoadDataEx", R) +
                     (L.empty() ? "" : ": " + L));
  }
  return M;
}

std::string shapeText(const std::array<unsigned, 3> &B) {
  return std::to_string(B[0]) + "x" + std::to_string(B[1]) + "x" + std::to_string(B[2]);
}

} // namespace

int main(int Argc, char **Argv) {
  ParsedOptions O = check(parseCommandLine(Argc, Argv, Specs), ExitUsage);
  if (O.has("help")) {
    std::printf("%s", formatHelp("flipflop-measure [options] kernel.ptx|kernel.cubin",
                                 Specs).c_str());
    return ExitOk;
  }
  if (O.Positional.size() != 1)
    die(ExitUsage, "expected one kernel file (.ptx or .cubin); see --help");
  bool Quiet = O.has("quiet");
  const std::string KernelPath = O.Positional[0];
  std::string Image = readBinary(KernelPath);
  bool IsPtx = Image.find(".entry") != std::string::npos &&
               Image.compare(0, 4, "\x7f" "ELF") != 0;

  // Arguments.
  ArgsSpec Args;
  if (O.has("args"))
    Args = check(loadArgsSpec(O.get("args")));
  if (O.has("threads")) {
    std::array<unsigned, 3> T = check(parseDim3(O.get("threads")), ExitUsage);
    Args.Total = {T[0], T[1], T[2]};
    Args.HasTotal = true;
  }
  if (O.has("grid")) {
    Args.Grid = check(parseDim3(O.get("grid")), ExitUsage);
    Args.HasGrid = true;
  }

  // The kernel.
  std::string Kernel = O.get("kernel", Args.Kernel);
  std::vector<PtxEntry> Entries;
  if (IsPtx) {
    Entries = check(listPtxEntries(Image));
    if (Entries.empty())
      die(ExitFailure, KernelPath + ": no .entry in the PTX");
    if (Kernel.empty()) {
      if (Entries.size() != 1)
        die(ExitUsage, KernelPath + " has " + std::to_string(Entries.size()) +
                           " entries; choose one with --kernel");
      Kernel = Entries[0].Name;
    }
    const PtxEntry *E = nullptr;
    for (const PtxEntry &X : Entries)
      if (X.Name == Kernel)
        E = &X;
    if (!E)
      die(ExitFailure, KernelPath + ": no entry named " + Kernel);
    check(checkParams(*E, Args).prefix(O.get("args", "(no args file)") + ": "));
  } else if (Kernel.empty()) {
    die(ExitUsage, "a cubin needs --kernel (or \"kernel\" in the args file)");
  }

  // Configurations.
  std::vector<Config> Configs;
  if (O.has("configs-from")) {
    Configs = configsFromReport(O.get("configs-from"), Kernel);
    if (O.has("blocks")) {
      auto Keep = check(parseDim3List(O.get("blocks")), ExitUsage);
      Configs.erase(std::remove_if(Configs.begin(), Configs.end(),
                                   [&](const Config &C) {
                                     return std::find(Keep.begin(), Keep.end(), C.Block) == Keep.end();
                                   }),
                    Configs.end());
    }
    if (O.has("min-blocks")) {
      auto Keep = check(parseUnsignedList(O.get("min-blocks")), ExitUsage);
      Configs.erase(std::remove_if(Configs.begin(), Configs.end(),
                                   [&](const Config &C) {
                                     return std::find(Keep.begin(), Keep.end(), C.MinBlocks) == Keep.end();
                                   }),
                    Configs.end());
    }
  } else {
    std::vector<std::array<unsigned, 3>> Blocks;
    std::string B = O.get("blocks", "32:1024:32");
    bool Shapes = B.find(';') != std::string::npos || B.find('x') != std::string::npos;
    if (!Shapes) {
      for (unsigned X : check(parseUnsignedList(B), ExitUsage))
        Blocks.push_back({X, 1, 1});
    } else {
      Blocks = check(parseDim3List(B), ExitUsage);
    }
    std::vector<unsigned> Mins = check(parseUnsignedList(O.get("min-blocks", "0")), ExitUsage);
    for (const auto &Bl : Blocks)
      for (unsigned M : Mins) {
        Config C;
        C.Block = Bl;
        C.MinBlocks = M;
        Configs.push_back(C);
      }
  }
  // Power limits and clocks: explicit sweeps only.
  std::vector<double> Limits;
  if (O.has("power-limits")) {
    if (!O.has("allow-set-power-limit"))
      die(ExitUsage, "--power-limits changes the card's settings: add "
                     "--allow-set-power-limit to confirm");
    Limits = check(parseDoubleList(O.get("power-limits")), ExitUsage);
  }
  std::vector<unsigned> Clocks;
  if (O.has("lock-clocks")) {
    if (!O.has("allow-set-clocks"))
      die(ExitUsage, "--lock-clocks changes the card's settings: add "
                     "--allow-set-clocks to confirm");
    Clocks = check(parseUnsignedList(O.get("lock-clocks")), ExitUsage);
  }
  if (!Limits.empty() || !Clocks.empty()) {
    std::vector<Config> Swept;
    std::vector<double> Ls = Limits.empty() ? std::vector<double>{0} : Limits;
    std::vector<unsigned> Cs = Clocks.empty() ? std::vector<unsigned>{0} : Clocks;
    for (double L : Ls)
      for (unsigned Ck : Cs)
        for (Config C : Configs) {
          C.PowerLimitW = L;
          C.ClockMHz = Ck;
          bool Dup = false;
          for (const Config &Y : Swept)
            Dup |= Y.Block == C.Block && Y.MinBlocks == C.MinBlocks &&
                   Y.PowerLimitW == C.PowerLimitW && Y.ClockMHz == C.ClockMHz;
          if (!Dup)
            Swept.push_back(C);
        }
    Configs = Swept;
  }
  for (const Config &C : Configs)
    if (C.MinBlocks && !IsPtx)
      die(ExitUsage, "min_blocks_per_sm > 0 needs PTX input (a cubin's "
                     "registers are fixed)");
  // Group configurations by power limit (highest first) so the limit changes
  // as rarely as possible.
  std::stable_sort(Configs.begin(), Configs.end(), [](const Config &A, const Config &B) {
    return A.PowerLimitW > B.PowerLimitW;
  });
  unsigned MaxConfigs = parseCount(O, "max-configs", 0);
  if (Configs.empty())
    die(ExitUsage, "no configuration to measure");
  // Grids are known before any GPU work: check them all now.
  std::vector<std::array<unsigned, 3>> Grids;
  for (const Config &C : Configs)
    Grids.push_back(check(computeGrid(Args, C.Block)));

  TimingOptions TO;
  TO.Warmup = parseCount(O, "warmup", 3);
  TO.Repeats = std::max(1u, parseCount(O, "repeats", 20));
  EnergyOptions EO;
  EO.MinWindowS = check(parseNumber(O.get("min-duration", "0.1")), ExitUsage);
  EO.SamplePeriodS = check(parseNumber(O.get("sample-period-ms", "5")), ExitUsage) / 1000;
  std::string Src = O.get("energy", "auto");
  if (Src == "auto")
    EO.Source = EnergySource::Auto;
  else if (Src == "counter")
    EO.Source = EnergySource::Counter;
  else if (Src == "sampled")
    EO.Source = EnergySource::Sampled;
  else if (Src == "none")
    EO.Source = EnergySource::None;
  else
    die(ExitUsage, "--energy must be auto, counter, sampled or none");
  if (EO.SamplePeriodS <= 0 || EO.MinWindowS <= 0)
    die(ExitUsage, "--min-duration and --sample-period-ms must be positive");

  if (O.has("dry-run")) {
    if (MaxConfigs && Configs.size() > MaxConfigs)
      Configs.resize(MaxConfigs);
    std::printf("kernel %s: %zu configuration(s)\n", Kernel.c_str(), Configs.size());
    for (size_t I = 0; I < Configs.size(); ++I) {
      const Config &C = Configs[I];
      std::printf("  block %s grid %s min_blocks %u dyn_smem %llu%s%s\n",
                  shapeText(C.Block).c_str(), shapeText(Grids[I]).c_str(), C.MinBlocks,
                  (unsigned long long)Args.dynamicShared(C.Block[0] * C.Block[1] * C.Block[2]),
                  C.PowerLimitW > 0 ? (" power " + json::formatNumber(C.PowerLimitW) + " W").c_str() : "",
                  C.ClockMHz > 0 ? (" clock " + std::to_string(C.ClockMHz) + " MHz").c_str() : "");
    }
    return ExitOk;
  }

  // The GPU.
  bool NoGPU = false;
  Result<CudaDevice *> DevR = openCudaDevice(int(parseCount(O, "device", 0)), NoGPU);
  if (!DevR)
    die(NoGPU ? ExitNoGPU : ExitFailure, DevR.error().message());
  std::unique_ptr<CudaDevice> Dev(*DevR);
  const CudaApi &Api = *Dev->Api;
  bool NoNvml = false;
  Result<NvmlDevice *> NvR = NvmlDevice::open(Dev->PciBusId, NoNvml);
  if (!NvR)
    die(NoNvml ? ExitNoGPU : ExitFailure,
        NvR.error().message() + (NoNvml ? " (energy cannot be measured)" : ""));
  std::unique_ptr<NvmlDevice> Nvml(*NvR);
  // Predicted configurations at other power limits are measured only when
  // changing the limit is allowed; the rest run at the limit in force.
  if (!O.has("allow-set-power-limit")) {
    double Cur = Nvml->enforcedLimitW();
    std::vector<Config> Kept;
    std::vector<std::array<unsigned, 3>> KeptGrids;
    for (size_t I = 0; I < Configs.size(); ++I) {
      double W = Configs[I].PowerLimitW;
      if (W > 0 && !(Cur > 0 && std::fabs(W - Cur) <= std::max(1.0, 0.01 * Cur)))
        continue;
      Kept.push_back(Configs[I]);
      Kept.back().PowerLimitW = 0;
      KeptGrids.push_back(Grids[I]);
    }
    if (Kept.size() != Configs.size() && !Quiet)
      std::fprintf(stderr, "flipflop-measure: %zu of %zu configurations are at the "
                   "power limit in force (%.0f W); the others need --allow-set-power-limit\n",
                   Kept.size(), Configs.size(), Cur);
    Configs = Kept;
    Grids = KeptGrids;
    if (Configs.empty())
      die(ExitUsage, "no configuration at the power limit in force");
  }
  if (MaxConfigs && Configs.size() > MaxConfigs) {
    Configs.resize(MaxConfigs);
    Grids.resize(MaxConfigs);
  }
  std::unique_ptr<DeviceSettingsGuard> Guard;
  bool ChangesSettings = !Clocks.empty();
  for (const Config &C : Configs)
    ChangesSettings |= C.PowerLimitW > 0;
  if (ChangesSettings)
    Guard.reset(new DeviceSettingsGuard(*Nvml));
  double Budget = 0;
  if (O.has("time-budget"))
    Budget = check(parseNumber(O.get("time-budget")), ExitUsage);
  double StartS = steadySeconds();
  bool Truncated = false;

  DeviceArgs DArgs;
  check(setupArgs(Api, Args, DArgs));
  ModuleCache Mods;
  Mods.Api = &Api;
  auto FunctionFor = [&](const Config &C) -> Result<CUfunction> {
    auto Key = std::make_pair(C.MinBlocks ? C.Block : std::array<unsigned, 3>{0, 0, 0},
                              C.MinBlocks);
    auto It = Mods.Modules.find(Key);
    if (It == Mods.Modules.end()) {
      std::string Img = Image;
      if (C.MinBlocks) {
        Result<std::string> P = setPtxLaunchBounds(Image, Kernel, C.Block, C.MinBlocks);
        if (!P)
          return P.takeError();
        Img = *P;
      }
      Result<CUmodule> M = loadModule(Api, Img);
      if (!M)
        return M.takeError();
      It = Mods.Modules.emplace(Key, *M).first;
    }
    CUfunction F;
    CU_CHECK(Api, cuModuleGetFunctionFn(&F, It->second, Kernel.c_str()));
    return F;
  };

  json::Value Root = json::Value::object();
  Root.set("schema_version", ReportSchemaVersion);
  Root.set("tool", "flipflop-measure");
  json::Value Gpu = json::Value::object();
  Gpu.set("name", Nvml->name().empty() ? Dev->Name : Nvml->name());
  Gpu.set("cuda_name", Dev->Name);
  Gpu.set("compute_capability", std::to_string(Dev->CCMajor) + "." + std::to_string(Dev->CCMinor));
  Gpu.set("sm_count", Dev->SMCount);
  Gpu.set("pci_bus_id", Dev->PciBusId);
  Gpu.set("driver_version", Dev->DriverVersion);
  Gpu.set("default_power_limit_w", Nvml->defaultLimitW());
  Gpu.set("power_limit_at_start_w", Nvml->enforcedLimitW());
  Gpu.set("max_sm_clock_mhz", Nvml->maxClockMHz(NVML_CLOCK_SM));
  Gpu.set("max_mem_clock_mhz", Nvml->maxClockMHz(NVML_CLOCK_MEM));
  Gpu.set("energy_counter", Nvml->hasEnergyCounter());
  Root.set("gpu", Gpu);
  json::Value Method = json::Value::object();
  Method.set("warmup", TO.Warmup);
  Method.set("repeats", TO.Repeats);
  Method.set("min_batch_s", TO.MinBatchS);
  Method.set("energy", energySourceName(EO.Source));
  Method.set("min_window_s", EO.MinWindowS);
  Method.set("sample_period_s", EO.SamplePeriodS);
  Root.set("method", Method);

  json::Value K = json::Value::object();
  K.set("name", Kernel);
  K.set("source", KernelPath);
  if (O.has("args"))
    K.set("args", O.get("args"));
  K.set("total_threads", json::Array{json::Value(Args.Total[0]), json::Value(Args.Total[1]),
                                     json::Value(Args.Total[2])});
  // NVIDIA's occupancy heuristic for the unmodified kernel.
  {
    CUfunction F = check(FunctionFor(Config{{1, 1, 1}, 0, 0, 0}));
    int MinGrid = 0, Block = 0;
    static uint64_t PerThread, Fixed;
    PerThread = Args.DynamicSharedPerThread;
    Fixed = Args.DynamicSharedBytes;
    CUoccupancyB2DSize Fn = [](int B) -> size_t { return size_t(Fixed + PerThread * uint64_t(B)); };
    CUresult R = Api.cuOccupancyMaxPotentialBlockSizeFn(&MinGrid, &Block, F, Fn, 0, 0);
    if (R == CUDA_SUCCESS) {
      json::Value H = json::Value::object();
      H.set("block", dim3ToJSON({unsigned(Block), 1, 1}));
      H.set("min_grid", MinGrid);
      H.set("source", "cuOccupancyMaxPotentialBlockSize");
      K.set("occupancy_heuristic", H);
    }
  }

  json::Value Out = json::Value::array();
  double CurrentLimit = -1;
  unsigned CurrentClock = 0;
  for (size_t I = 0; I < Configs.size(); ++I) {
    const Config &C = Configs[I];
    if (Budget > 0 && steadySeconds() - StartS > Budget) {
      Truncated = true;
      if (!Quiet)
        std::fprintf(stderr, "flipflop-measure: time budget spent after %zu of %zu "
                     "configurations\n", I, Configs.size());
      break;
    }
    if (C.PowerLimitW > 0 && C.PowerLimitW != CurrentLimit) {
      check(Guard->setPowerLimitW(C.PowerLimitW));
      CurrentLimit = C.PowerLimitW;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    if (C.ClockMHz > 0 && C.ClockMHz != CurrentClock) {
      check(Guard->lockClocksMHz(C.ClockMHz, C.ClockMHz));
      CurrentClock = C.ClockMHz;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    ConfigRecord Rec;
    Rec.Block = C.Block;
    Rec.Grid = Grids[I];
    Rec.MinBlocksPerSM = C.MinBlocks;
    unsigned Threads = C.Block[0] * C.Block[1] * C.Block[2];
    uint64_t Dyn = Args.dynamicShared(Threads);
    json::Value J;
    auto Invalid = [&](const std::string &Why) {
      Rec.Valid = false;
      Rec.PowerLimitW = Nvml->enforcedLimitW();
      J = configToJSON(Rec);
      J.set("invalid", Why);
      if (!Quiet)
        std::fprintf(stderr, "[%zu/%zu] block %s: not launchable: %s\n", I + 1,
                     Configs.size(), shapeText(C.Block).c_str(), Why.c_str());
    };
    Result<CUfunction> F = FunctionFor(C);
    if (!F) {
      Invalid(F.error().message());
      Out.push(J);
      continue;
    }
    int MaxThreads = 0, Regs = 0, Local = 0, StaticSmem = 0;
    for (auto A : {std::make_pair(&MaxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
                   std::make_pair(&Regs, CU_FUNC_ATTRIBUTE_NUM_REGS),
                   std::make_pair(&Local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
                   std::make_pair(&StaticSmem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)}) {
      CUresult R = Api.cuFuncGetAttributeFn(A.first, A.second, *F);
      if (R != CUDA_SUCCESS)
        die(ExitFailure, cudaErrorText(Api, "cuFuncGetAttribute", R));
    }
    if (int(Threads) > MaxThreads) {
      Invalid("block of " + std::to_string(Threads) + " threads exceeds the kernel's " +
              std::to_string(MaxThreads));
      Out.push(J);
      continue;
    }
    if (Dyn > 48 * 1024) {
      CUresult R = Api.cuFuncSetAttributeFn(*F, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(Dyn));
      if (R != CUDA_SUCCESS) {
        Invalid(cudaErrorText(Api, "cuFuncSetAttribute", R));
        Out.push(J);
        continue;
      }
    }
    int BlocksPerSM = 0;
    CUresult OR = Api.cuOccupancyMaxActiveBlocksPerMultiprocessorFn(&BlocksPerSM, *F, int(Threads), Dyn);
    if (OR != CUDA_SUCCESS || BlocksPerSM == 0) {
      Invalid(OR != CUDA_SUCCESS ? cudaErrorText(Api, "cuOccupancyMaxActiveBlocksPerMultiprocessor", OR)
                                 : "zero resident blocks per SM");
      Out.push(J);
      continue;
    }
    unsigned WarpsPerBlock = (Threads + 31) / 32;
    Rec.Occupancy = double(BlocksPerSM) * WarpsPerBlock / (Dev->MaxThreadsPerSM / 32.0);
    KernelLaunch L;
    L.Func = *F;
    L.Grid = Grids[I];
    L.Block = C.Block;
    L.SharedBytes = unsigned(Dyn);
    L.Params = DArgs.Params;
    TimingResult T = check(timeKernel(Api, L, TO));
    EnergyResult E = check(measureEnergy(Api, *Nvml, L, T.PerLaunch.Median, EO));
    Rec.TimeS = T.PerLaunch.Median;
    Rec.AvgPowerW = E.AvgPowerW;
    Rec.EnergyJ = E.AvgPowerW * Rec.TimeS;
    Rec.PowerLimitW = E.PowerLimitW;
    J = configToJSON(Rec);
    J.set("blocks_per_sm", BlocksPerSM);
    J.set("registers", Regs);
    J.set("local_bytes", Local);
    J.set("static_shared_bytes", StaticSmem);
    J.set("dynamic_shared_bytes", Dyn);
    J.set("time_min_s", T.PerLaunch.Min);
    J.set("time_max_s", T.PerLaunch.Max);
    J.set("time_q1_s", T.PerLaunch.Q1);
    J.set("time_q3_s", T.PerLaunch.Q3);
    J.set("time_iqr_s", T.PerLaunch.iqr());
    J.set("repeats", TO.Repeats);
    J.set("batch", T.Batch);
    J.set("energy_source", energySourceName(E.Source));
    J.set("energy_window_s", E.WindowS);
    J.set("energy_window_j", E.WindowEnergyJ);
    if (E.Source == EnergySource::Sampled)
      J.set("power_samples", E.Samples);
    J.set("window_launches_per_s", E.LaunchesPerS);
    J.set("power_usage_w", E.PowerUsageW);
    J.set("sm_clock_mhz", E.SMClockMHz);
    J.set("mem_clock_mhz", E.MemClockMHz);
    J.set("temperature_c", E.TemperatureC);
    if (C.ClockMHz)
      J.set("locked_clock_mhz", C.ClockMHz);
    if (E.HasReasons)
      J.set("clock_event_reasons", E.ClockEventReasons);
    Out.push(J);
    if (!Quiet)
      std::fprintf(stderr,
                   "[%zu/%zu] block %s min %u: %.3f us (IQR %.1f%%), %.1f W, %.3g J, "
                   "SM %u MHz, limit %.0f W\n",
                   I + 1, Configs.size(), shapeText(C.Block).c_str(), C.MinBlocks,
                   Rec.TimeS * 1e6,
                   Rec.TimeS > 0 ? 100 * T.PerLaunch.iqr() / Rec.TimeS : 0.0,
                   Rec.AvgPowerW, Rec.EnergyJ, E.SMClockMHz, E.PowerLimitW);
  }
  K.set("configs", Out);
  if (Truncated)
    K.set("truncated", true);
  Root.set("kernels", json::Array{K});
  if (Guard)
    check(Guard->restore());
  if (O.has("o"))
    check(json::writeFile(Root, O.get("o")));
  else
    std::printf("%s\n", json::write(Root).c_str());
  return ExitOk;
}
