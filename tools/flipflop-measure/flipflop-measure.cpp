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
#include <sys/wait.h>
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
/// The command line and the input files, checked.
struct Inputs {
  bool Quiet = false;
  std::string KernelPath;
  std::string Image; ///< The PTX or cubin bytes.
  bool IsPtx = false;
  ArgsSpec Args;
  std::string Kernel;
};

/// The entry to measure; a PTX entry's parameters must match the args file.
std::string chooseKernel(const ParsedOptions &O, const Inputs &In) {
  std::string Kernel = O.get("kernel", In.Args.Kernel);
  if (!In.IsPtx) {
    if (Kernel.empty())
      die(ExitUsage, "a cubin needs --kernel (or \"kernel\" in the args file)");
    return Kernel;
  }
  std::vector<PtxEntry> Entries = check(listPtxEntries(In.Image));
  if (Entries.empty())
    die(ExitFailure, In.KernelPath + ": no .entry in the PTX");
  if (Kernel.empty()) {
    if (Entries.size() != 1)
      die(ExitUsage, In.KernelPath + " has " + std::to_string(Entries.size()) +
                         " entries; choose one with --kernel");
    Kernel = Entries[0].Name;
  }
  const PtxEntry *E = nullptr;
  for (const PtxEntry &X : Entries)
    if (X.Name == Kernel)
      E = &X;
  if (!E)
    die(ExitFailure, In.KernelPath + ": no entry named " + Kernel);
  check(checkParams(*E, In.Args).prefix(O.get("args", "(no args file)") + ": "));
  return Kernel;
}

Inputs readInputs(const ParsedOptions &O) {
  if (O.Positional.size() != 1)
    die(ExitUsage, "expected one kernel file (.ptx or .cubin); see --help");
  Inputs In;
  In.Quiet = O.has("quiet");
  In.KernelPath = O.Positional[0];
  In.Image = readBinary(In.KernelPath);
  In.IsPtx = In.Image.find(".entry") != std::string::npos &&
             In.Image.compare(0, 4, "\x7f" "ELF") != 0;
  if (O.has("args"))
    In.Args = check(loadArgsSpec(O.get("args")));
  if (O.has("threads")) {
    std::array<unsigned, 3> T = check(parseDim3(O.get("threads")), ExitUsage);
    In.Args.Total = {T[0], T[1], T[2]};
    In.Args.HasTotal = true;
  }
  if (O.has("grid")) {
    In.Args.Grid = check(parseDim3(O.get("grid")), ExitUsage);
    In.Args.HasGrid = true;
  }
  In.Kernel = chooseKernel(O, In);
  return In;
}

/// Keeps the configurations whose \p Field is in the list option \p Name.
template <typename T, typename F>
void keepListed(std::vector<Config> &Configs, const std::vector<T> &Keep, F Field) {
  Configs.erase(std::remove_if(Configs.begin(), Configs.end(),
                               [&](const Config &C) {
                                 return std::find(Keep.begin(), Keep.end(), Field(C)) ==
                                        Keep.end();
                               }),
                Configs.end());
}

/// Block shapes and min blocks, from a report or from --blocks/--min-blocks.
std::vector<Config> shapeConfigs(const ParsedOptions &O, const std::string &Kernel) {
  std::vector<Config> Configs;
  if (O.has("configs-from")) {
    Configs = configsFromReport(O.get("configs-from"), Kernel);
    if (O.has("blocks"))
      keepListed(Configs, check(parseDim3List(O.get("blocks")), ExitUsage),
                 [](const Config &C) { return C.Block; });
    if (O.has("min-blocks"))
      keepListed(Configs, check(parseUnsignedList(O.get("min-blocks")), ExitUsage),
                 [](const Config &C) { return C.MinBlocks; });
    return Configs;
  }
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
  return Configs;
}

/// Crosses \p Configs with explicit power-limit and clock sweeps (each only
/// with its --allow-set-... consent).
std::vector<Config> sweepSettings(const ParsedOptions &O, std::vector<Config> Configs,
                                  bool &LocksClocks) {
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
  LocksClocks = !Clocks.empty();
  if (Limits.empty() && Clocks.empty())
    return Configs;
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
  return Swept;
}

/// The configurations to measure, in order, with their grids.
struct Plan {
  std::vector<Config> Configs;
  std::vector<std::array<unsigned, 3>> Grids;
  bool LocksClocks = false;
  unsigned MaxConfigs = 0; ///< 0: no cap.
};

Plan planConfigs(const ParsedOptions &O, const Inputs &In) {
  Plan P;
  P.Configs = sweepSettings(O, shapeConfigs(O, In.Kernel), P.LocksClocks);
  for (const Config &C : P.Configs)
    if (C.MinBlocks && !In.IsPtx)
      die(ExitUsage, "min_blocks_per_sm > 0 needs PTX input (a cubin's "
                     "registers are fixed)");
  // Group configurations by power limit (highest first) so the limit changes
  // as rarely as possible.
  std::stable_sort(P.Configs.begin(), P.Configs.end(),
                   [](const Config &A, const Config &B) { return A.PowerLimitW > B.PowerLimitW; });
  P.MaxConfigs = parseCount(O, "max-configs", 0);
  if (P.Configs.empty())
    die(ExitUsage, "no configuration to measure");
  // Grids are known before any GPU work: check them all now.
  for (const Config &C : P.Configs)
    P.Grids.push_back(check(computeGrid(In.Args, C.Block)));
  return P;
}

/// Whether a run of \p P may change the card's power limit or clocks (then
/// it runs under the supervisor, Supervisor.h).
bool mayChangeSettings(const ParsedOptions &O, const Plan &P) {
  if (P.LocksClocks)
    return true;
  if (!O.has("allow-set-power-limit"))
    return false; // Configurations at other limits are dropped on the GPU.
  for (const Config &C : P.Configs)
    if (C.PowerLimitW > 0)
      return true;
  return false;
}

struct Method {
  TimingOptions TO;
  EnergyOptions EO;
};

Method readMethod(const ParsedOptions &O) {
  Method M;
  M.TO.Warmup = parseCount(O, "warmup", 3);
  M.TO.Repeats = std::max(1u, parseCount(O, "repeats", 20));
  M.EO.MinWindowS = check(parseNumber(O.get("min-duration", "0.1")), ExitUsage);
  M.EO.SamplePeriodS = check(parseNumber(O.get("sample-period-ms", "5")), ExitUsage) / 1000;
  std::string Src = O.get("energy", "auto");
  if (Src == "auto")
    M.EO.Source = EnergySource::Auto;
  else if (Src == "counter")
    M.EO.Source = EnergySource::Counter;
  else if (Src == "sampled")
    M.EO.Source = EnergySource::Sampled;
  else if (Src == "none")
    M.EO.Source = EnergySource::None;
  else
    die(ExitUsage, "--energy must be auto, counter, sampled or none");
  if (M.EO.SamplePeriodS <= 0 || M.EO.MinWindowS <= 0)
    die(ExitUsage, "--min-duration and --sample-period-ms must be positive");
  return M;
}

int printDryRun(const Inputs &In, Plan P) {
  if (P.MaxConfigs && P.Configs.size() > P.MaxConfigs)
    P.Configs.resize(P.MaxConfigs);
  std::printf("kernel %s: %zu configuration(s)\n", In.Kernel.c_str(), P.Configs.size());
  for (size_t I = 0; I < P.Configs.size(); ++I) {
    const Config &C = P.Configs[I];
    std::printf("  block %s grid %s min_blocks %u dyn_smem %llu%s%s\n",
                shapeText(C.Block).c_str(), shapeText(P.Grids[I]).c_str(), C.MinBlocks,
                (unsigned long long)In.Args.dynamicShared(C.Block[0] * C.Block[1] * C.Block[2]),
                C.PowerLimitW > 0 ? (" power " + json::formatNumber(C.PowerLimitW) + " W").c_str() : "",
                C.ClockMHz > 0 ? (" clock " + std::to_string(C.ClockMHz) + " MHz").c_str() : "");
  }
  return ExitOk;
}

//===-- On the GPU (the worker, when supervised) --------------------------===//

Gpu openGpuOrExit(const ParsedOptions &O) {
  bool NoGPU = false, NvmlFailed = false;
  Result<Gpu> G = openGpu(int(parseCount(O, "device", 0)), NoGPU, NvmlFailed);
  if (!G)
    die(NoGPU ? ExitNoGPU : ExitFailure,
        G.error().message() +
            (NvmlFailed && NoGPU ? " (energy cannot be measured)" : ""));
  return std::move(*G);
}

/// Predicted configurations at other power limits are measured only when
/// changing the limit is allowed; the rest run at the limit in force.
void keepLimitInForce(const ParsedOptions &O, bool Quiet, const NvmlDevice &Nvml, Plan &P) {
  if (O.has("allow-set-power-limit"))
    return;
  double Cur = Nvml.enforcedLimitW();
  std::vector<Config> Kept;
  std::vector<std::array<unsigned, 3>> KeptGrids;
  for (size_t I = 0; I < P.Configs.size(); ++I) {
    double W = P.Configs[I].PowerLimitW;
    if (W > 0 && !(Cur > 0 && std::fabs(W - Cur) <= std::max(1.0, 0.01 * Cur)))
      continue;
    Kept.push_back(P.Configs[I]);
    Kept.back().PowerLimitW = 0;
    KeptGrids.push_back(P.Grids[I]);
  }
  if (Kept.size() != P.Configs.size() && !Quiet)
    std::fprintf(stderr, "flipflop-measure: %zu of %zu configurations are at the "
                 "power limit in force (%.0f W); the others need --allow-set-power-limit\n",
                 Kept.size(), P.Configs.size(), Cur);
  P.Configs = Kept;
  P.Grids = KeptGrids;
  if (P.Configs.empty())
    die(ExitUsage, "no configuration at the power limit in force");
}

/// One module per (block, min blocks) PTX edit, loaded on first use.
class KernelLoader {
public:
  KernelLoader(const CudaApi &Api, const Inputs &In) : Api(Api), In(In) {}
  ~KernelLoader() {
    for (auto &M : Modules)
      Api.cuModuleUnloadFn(M.second);
  }
  Result<CUfunction> functionFor(const Config &C) {
    auto Key = std::make_pair(C.MinBlocks ? C.Block : std::array<unsigned, 3>{0, 0, 0},
                              C.MinBlocks);
    auto It = Modules.find(Key);
    if (It == Modules.end()) {
      std::string Img = In.Image;
      if (C.MinBlocks) {
        Result<std::string> P = setPtxLaunchBounds(In.Image, In.Kernel, C.Block, C.MinBlocks);
        if (!P)
          return P.takeError();
        Img = *P;
      }
      Result<CUmodule> M = loadModule(Api, Img);
      if (!M)
        return M.takeError();
      It = Modules.emplace(Key, *M).first;
    }
    CUfunction F;
    CU_CHECK(Api, cuModuleGetFunctionFn(&F, It->second, In.Kernel.c_str()));
    return F;
  }

private:
  const CudaApi &Api;
  const Inputs &In;
  std::map<std::pair<std::array<unsigned, 3>, unsigned>, CUmodule> Modules;
};

json::Value gpuJSON(const CudaDevice &Dev, const NvmlDevice &Nvml) {
  json::Value Gpu = json::Value::object();
  Gpu["name"] = Nvml.name().empty() ? Dev.Name : Nvml.name();
  Gpu["cuda_name"] = Dev.Name;
  Gpu["compute_capability"] = std::to_string(Dev.CCMajor) + "." + std::to_string(Dev.CCMinor);
  Gpu["sm_count"] = Dev.SMCount;
  Gpu["pci_bus_id"] = Dev.PciBusId;
  Gpu["driver_version"] = Dev.DriverVersion;
  Gpu["default_power_limit_w"] = Nvml.defaultLimitW();
  Gpu["power_limit_at_start_w"] = Nvml.enforcedLimitW();
  Gpu["max_sm_clock_mhz"] = Nvml.maxClockMHz(NVML_CLOCK_SM);
  Gpu["max_mem_clock_mhz"] = Nvml.maxClockMHz(NVML_CLOCK_MEM);
  Gpu["energy_counter"] = Nvml.hasEnergyCounter();
  return Gpu;
}

json::Value methodJSON(const Method &M) {
  json::Value J = json::Value::object();
  J["warmup"] = M.TO.Warmup;
  J["repeats"] = M.TO.Repeats;
  J["min_batch_s"] = M.TO.MinBatchS;
  J["energy"] = energySourceName(M.EO.Source);
  J["min_window_s"] = M.EO.MinWindowS;
  J["sample_period_s"] = M.EO.SamplePeriodS;
  return J;
}

/// The kernel's record without its configurations, with NVIDIA's occupancy
/// heuristic for the unmodified kernel.
json::Value kernelJSON(const ParsedOptions &O, const Inputs &In, const CudaApi &Api,
                       KernelLoader &Loader) {
  json::Value K = json::Value::object();
  K["name"] = In.Kernel;
  K["source"] = In.KernelPath;
  if (O.has("args"))
    K["args"] = O.get("args");
  K["total_threads"] = json::Array{json::Value(In.Args.Total[0]), json::Value(In.Args.Total[1]),
                                   json::Value(In.Args.Total[2])};
  CUfunction F = check(Loader.functionFor(Config{{1, 1, 1}, 0, 0, 0}));
  int MinGrid = 0, Block = 0;
  static uint64_t PerThread, Fixed;
  PerThread = In.Args.DynamicSharedPerThread;
  Fixed = In.Args.DynamicSharedBytes;
  CUoccupancyB2DSize Fn = [](int B) -> size_t { return size_t(Fixed + PerThread * uint64_t(B)); };
  CUresult R = Api.cuOccupancyMaxPotentialBlockSizeFn(&MinGrid, &Block, F, Fn, 0, 0);
  if (R == CUDA_SUCCESS) {
    json::Value H = json::Value::object();
    H["block"] = dim3ToJSON({unsigned(Block), 1, 1});
    H["min_grid"] = MinGrid;
    H["source"] = "cuOccupancyMaxPotentialBlockSize";
    K["occupancy_heuristic"] = H;
  }
  return K;
}

/// What one configuration's measurement needs.
struct SweepContext {
  const CudaApi &Api;
  const Gpu &G;
  const Inputs &In;
  const Method &M;
  KernelLoader &Loader;
  const DeviceArgs &DArgs;
  size_t Total; ///< Configurations in the sweep (for progress lines).
};

json::Value invalidConfig(const SweepContext &X, size_t I, const Config &C,
                          ConfigRecord Rec, const std::string &Why) {
  Rec.Valid = false;
  Rec.PowerLimitW = X.G.Nvml->enforcedLimitW();
  json::Value J = configToJSON(Rec);
  J["invalid"] = Why;
  if (!X.In.Quiet)
    std::fprintf(stderr, "[%zu/%zu] block %s: not launchable: %s\n", I + 1, X.Total,
                 shapeText(C.Block).c_str(), Why.c_str());
  return J;
}

struct FuncAttrs {
  int MaxThreads = 0, Regs = 0, Local = 0, StaticSmem = 0;
};

FuncAttrs funcAttrs(const CudaApi &Api, CUfunction F) {
  FuncAttrs A;
  for (auto P : {std::make_pair(&A.MaxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
                 std::make_pair(&A.Regs, CU_FUNC_ATTRIBUTE_NUM_REGS),
                 std::make_pair(&A.Local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
                 std::make_pair(&A.StaticSmem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)}) {
    CUresult R = Api.cuFuncGetAttributeFn(P.first, P.second, F);
    if (R != CUDA_SUCCESS)
      die(ExitFailure, cudaErrorText(Api, "cuFuncGetAttribute", R));
  }
  return A;
}

/// The JSON of a measured configuration, and its progress line.
json::Value measuredJSON(const SweepContext &X, size_t I, const Config &C,
                         const ConfigRecord &Rec, const FuncAttrs &A, int BlocksPerSM,
                         uint64_t Dyn, const TimingResult &T, const EnergyResult &E) {
  json::Value J = configToJSON(Rec);
  J["blocks_per_sm"] = BlocksPerSM;
  J["registers"] = A.Regs;
  J["local_bytes"] = A.Local;
  J["static_shared_bytes"] = A.StaticSmem;
  J["dynamic_shared_bytes"] = Dyn;
  J["time_min_s"] = T.PerLaunch.Min;
  J["time_max_s"] = T.PerLaunch.Max;
  J["time_q1_s"] = T.PerLaunch.Q1;
  J["time_q3_s"] = T.PerLaunch.Q3;
  J["time_iqr_s"] = T.PerLaunch.iqr();
  J["repeats"] = X.M.TO.Repeats;
  J["batch"] = T.Batch;
  J["energy_source"] = energySourceName(E.Source);
  J["energy_window_s"] = E.WindowS;
  J["energy_window_j"] = E.WindowEnergyJ;
  if (E.Source == EnergySource::Sampled)
    J["power_samples"] = E.Samples;
  J["window_launches_per_s"] = E.LaunchesPerS;
  J["power_usage_w"] = E.PowerUsageW;
  J["sm_clock_mhz"] = E.SMClockMHz;
  J["mem_clock_mhz"] = E.MemClockMHz;
  J["temperature_c"] = E.TemperatureC;
  if (C.ClockMHz)
    J["locked_clock_mhz"] = C.ClockMHz;
  if (E.HasReasons)
    J["clock_event_reasons"] = E.ClockEventReasons;
  if (!X.In.Quiet)
    std::fprintf(stderr,
                 "[%zu/%zu] block %s min %u: %.3f us (IQR %.1f%%), %.1f W, %.3g J, "
                 "SM %u MHz, limit %.0f W\n",
                 I + 1, X.Total, shapeText(C.Block).c_str(), C.MinBlocks, Rec.TimeS * 1e6,
                 Rec.TimeS > 0 ? 100 * T.PerLaunch.iqr() / Rec.TimeS : 0.0, Rec.AvgPowerW,
                 Rec.EnergyJ, E.SMClockMHz, E.PowerLimitW);
  return J;
}

/// Checks that configuration \p I launches, then times it and measures its
/// energy at the settings in force.
json::Value measureConfig(const SweepContext &X, size_t I, const Config &C,
                          const std::array<unsigned, 3> &Grid) {
  const CudaApi &Api = X.Api;
  ConfigRecord Rec;
  Rec.Block = C.Block;
  Rec.Grid = Grid;
  Rec.MinBlocksPerSM = C.MinBlocks;
  unsigned Threads = C.Block[0] * C.Block[1] * C.Block[2];
  uint64_t Dyn = X.In.Args.dynamicShared(Threads);
  Result<CUfunction> F = X.Loader.functionFor(C);
  if (!F)
    return invalidConfig(X, I, C, Rec, F.error().message());
  FuncAttrs A = funcAttrs(Api, *F);
  if (int(Threads) > A.MaxThreads)
    return invalidConfig(X, I, C, Rec,
                         "block of " + std::to_string(Threads) + " threads exceeds the kernel's " +
                             std::to_string(A.MaxThreads));
  if (Dyn > 48 * 1024) {
    CUresult R = Api.cuFuncSetAttributeFn(*F, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(Dyn));
    if (R != CUDA_SUCCESS)
      return invalidConfig(X, I, C, Rec, cudaErrorText(Api, "cuFuncSetAttribute", R));
  }
  int BlocksPerSM = 0;
  CUresult OR = Api.cuOccupancyMaxActiveBlocksPerMultiprocessorFn(&BlocksPerSM, *F, int(Threads), Dyn);
  if (OR != CUDA_SUCCESS || BlocksPerSM == 0)
    return invalidConfig(X, I, C, Rec,
                         OR != CUDA_SUCCESS
                             ? cudaErrorText(Api, "cuOccupancyMaxActiveBlocksPerMultiprocessor", OR)
                             : "zero resident blocks per SM");
  unsigned WarpsPerBlock = (Threads + 31) / 32;
  Rec.Occupancy = double(BlocksPerSM) * WarpsPerBlock / (X.G.Dev->MaxThreadsPerSM / 32.0);
  KernelLaunch L;
  L.Func = *F;
  L.Grid = Grid;
  L.Block = C.Block;
  L.SharedBytes = unsigned(Dyn);
  L.Params = X.DArgs.Params;
  TimingResult T = check(timeKernel(Api, L, X.M.TO));
  EnergyResult E = check(measureEnergy(Api, *X.G.Nvml, L, T.PerLaunch.Median, X.M.EO));
  Rec.TimeS = T.PerLaunch.Median;
  Rec.AvgPowerW = E.AvgPowerW;
  Rec.EnergyJ = E.AvgPowerW * Rec.TimeS;
  Rec.PowerLimitW = E.PowerLimitW;
  return measuredJSON(X, I, C, Rec, A, BlocksPerSM, Dyn, T, E);
}

/// Applies configuration \p C's power limit and clock lock when they differ
/// from the ones in force; \p Changer records each before it is changed.
void applySettings(SettingsChanger *Changer, const Config &C, double &CurrentLimit,
                   unsigned &CurrentClock) {
  if (C.PowerLimitW > 0 && C.PowerLimitW != CurrentLimit) {
    check(Changer->setPowerLimitMilliW(unsigned(C.PowerLimitW * 1000 + 0.5)));
    CurrentLimit = C.PowerLimitW;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  if (C.ClockMHz > 0 && C.ClockMHz != CurrentClock) {
    check(Changer->lockClocksMHz(C.ClockMHz, C.ClockMHz));
    CurrentClock = C.ClockMHz;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

/// Measures every configuration of \p P on the GPU and writes the report.
/// \p Rec is the supervisor's record when supervised (Supervisor.h); a run
/// that changes no setting may have none.
int measureOnGpu(const ParsedOptions &O, const Inputs &In, Plan P, const Method &M,
                 SettingsRecord *Rec) {
  Gpu G = openGpuOrExit(O);
  const CudaApi &Api = *G.Dev->Api;
  keepLimitInForce(O, In.Quiet, *G.Nvml, P);
  if (P.MaxConfigs && P.Configs.size() > P.MaxConfigs) {
    P.Configs.resize(P.MaxConfigs);
    P.Grids.resize(P.MaxConfigs);
  }
  bool ChangesSettings = P.LocksClocks;
  for (const Config &C : P.Configs)
    ChangesSettings |= C.PowerLimitW > 0;
  SettingsRecord Unsupervised; // Only if the planning missed a change.
  assert((Rec || !ChangesSettings) && "settings change without a supervisor");
  NvmlSettingsControl Control(*G.Nvml);
  std::unique_ptr<SettingsChanger> Changer;
  if (ChangesSettings) {
    SettingsRecord &R = Rec ? *Rec : Unsupervised;
    R.setDevice(G.Dev->PciBusId);
    Changer.reset(new SettingsChanger(Control, R));
  }
  double Budget = 0;
  if (O.has("time-budget"))
    Budget = check(parseNumber(O.get("time-budget")), ExitUsage);
  double StartS = steadySeconds();
  bool Truncated = false;

  DeviceArgs DArgs;
  check(setupArgs(Api, In.Args, DArgs));
  KernelLoader Loader(Api, In);
  json::Value Root = json::Value::object();
  Root["schema_version"] = ReportSchemaVersion;
  Root["tool"] = "flipflop-measure";
  Root["gpu"] = gpuJSON(*G.Dev, *G.Nvml);
  Root["method"] = methodJSON(M);
  json::Value K = kernelJSON(O, In, Api, Loader);

  SweepContext X{Api, G, In, M, Loader, DArgs, P.Configs.size()};
  json::Value Out = json::Value::array();
  double CurrentLimit = -1;
  unsigned CurrentClock = 0;
  for (size_t I = 0; I < P.Configs.size(); ++I) {
    if (Budget > 0 && steadySeconds() - StartS > Budget) {
      Truncated = true;
      if (!In.Quiet)
        std::fprintf(stderr, "flipflop-measure: time budget spent after %zu of %zu "
                     "configurations\n", I, P.Configs.size());
      break;
    }
    applySettings(Changer.get(), P.Configs[I], CurrentLimit, CurrentClock);
    Out.push_back(measureConfig(X, I, P.Configs[I], P.Grids[I]));
  }
  K["configs"] = Out;
  if (Truncated)
    K["truncated"] = true;
  Root["kernels"] = json::Array{K};
  if (Changer)
    check(Changer->restore());
  if (O.has("o"))
    check(json::writeFile(Root, O.get("o")));
  else
    std::printf("%s\n", json::write(Root).c_str());
  return ExitOk;
}

/// Runs measureOnGpu in a worker process and restores the card's settings
/// after it, however it ends (Supervisor.h); exits as the worker did.
[[noreturn]] void superviseMeasurement(const ParsedOptions &O, const Inputs &In,
                                       const Plan &P, const Method &M) {
  Result<SupervisedRun> R = runSupervised(
      [&](SettingsRecord &Rec) { return measureOnGpu(O, In, P, M, &Rec); },
      [](SettingsRecord &Rec) { return restoreRecordedSettings(Rec); });
  if (!R)
    die(ExitFailure, "cannot start the measuring process: " + R.error().message());
  int Status = R->WaitStatus;
  if (R->RestoreCalled && R->RestoreError) {
    std::string Bus = R->Device.empty() ? "" : " -i " + R->Device;
    std::fprintf(stderr,
                 "flipflop-measure: error: the measuring process ended (%s) and the "
                 "GPU's settings could not be restored: %s\n",
                 describeWaitStatus(Status).c_str(), R->RestoreError.message().c_str());
    if (R->LimitSaved)
      std::fprintf(stderr, "flipflop-measure: restore the power limit (root): "
                   "nvidia-smi%s -pl %s\n", Bus.c_str(),
                   json::formatNumber(R->SavedLimitMilliW / 1000.0).c_str());
    if (R->ClocksLocked)
      std::fprintf(stderr, "flipflop-measure: reset the locked clocks (root): "
                   "nvidia-smi%s -rgc\n", Bus.c_str());
    if (WIFEXITED(Status) && WEXITSTATUS(Status) == ExitOk)
      std::exit(ExitFailure);
  } else if (R->RestoreCalled) {
    std::fprintf(stderr, "flipflop-measure: the measuring process ended (%s); the GPU's "
                 "power limit and clocks were restored\n",
                 describeWaitStatus(Status).c_str());
  }
  exitLikeChild(Status);
}

} // namespace

int main(int Argc, char **Argv) {
  ParsedOptions O = check(parseCommandLine(Argc, Argv, Specs), ExitUsage);
  if (O.has("help")) {
    std::printf("%s", formatHelp("flipflop-measure [options] kernel.ptx|kernel.cubin",
                                 Specs).c_str());
    return ExitOk;
  }
  Inputs In = readInputs(O);
  Plan P = planConfigs(O, In);
  Method M = readMethod(O);
  if (O.has("dry-run"))
    return printDryRun(In, P);
  if (mayChangeSettings(O, P))
    superviseMeasurement(O, In, P, M);
  return measureOnGpu(O, In, P, M, nullptr);
}
