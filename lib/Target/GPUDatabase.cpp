//===- GPUDatabase.cpp - Embedded table of real NVIDIA GPUs ---------------===//
//
// Every figure here comes from a public source cited in docs/GPUS.md:
//  - per-SM limits (registers, shared memory carveouts, blocks, warps): the
//    CUDA C++ Programming Guide, "Compute Capabilities", table "Technical
//    Specifications per Compute Capability", and the values cudaGetDevice-
//    Properties reports (sharedMemPerMultiprocessor, sharedMemPerBlockOptin,
//    reservedSharedMemPerBlock), which cuda_occupancy.h encodes too;
//  - per-SM throughput: the Programming Guide, "Arithmetic Instructions",
//    table "Throughput of Native Arithmetic Instructions"; tensor rates are the
//    datasheet dense TFLOPS divided by (SMs x boost clock);
//  - SM counts, clocks, memory, L2, power: the product datasheets and the
//    architecture whitepapers (Volta, Turing, Ampere GA100/GA102, Ada, Hopper,
//    Blackwell), and the power-limit range nvidia-smi -q reports.
// Figures that no source publishes (idle power, lowest DVFS clock, L2
// bandwidth of most parts) are estimates and marked so in docs/GPUS.md.
//
//===----------------------------------------------------------------------===//

#include "flipflop/Target/GPUDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace flipflop {
namespace {

/// Fills the per-compute-capability facts: SM limits and per-SM throughput.
void setArch(GPUSpec &G, unsigned Major, unsigned Minor) {
  G.CCMajor = Major;
  G.CCMinor = Minor;
  unsigned SM = Major * 10 + Minor;
  G.RegistersPerSM = 65536;
  G.RegistersPerBlock = 65536;
  G.MaxRegistersPerThread = 255;
  G.RegAllocUnitSize = 256;
  G.RegAllocGranularityWarp = 1;
  G.SharedPerBlock = 48 * 1024;
  G.SharedAllocUnit = Major >= 8 ? 128 : 256;
  G.SharedReservedPerBlock = Major >= 8 ? 1024 : 0;
  G.SharedBanks = 32;
  G.MaxThreadsPerBlock = 1024;
  G.WarpSize = 32;
  G.WarpAllocGranularity = 4;
  G.SchedulersPerSM = 4;
  G.L1BytesPerClkPerSM = 128;

  const std::vector<unsigned> Volta = {0, 8, 16, 32, 64, 96};
  const std::vector<unsigned> Turing = {32, 64};
  const std::vector<unsigned> GA100 = {0, 8, 16, 32, 64, 100, 132, 164};
  const std::vector<unsigned> GA10x = {0, 8, 16, 32, 64, 100};
  const std::vector<unsigned> Hopper = {0,   8,   16,  32,  64,
                                        100, 132, 164, 196, 228};
  UnitThroughput &T = G.Throughput;
  switch (SM) {
  case 70: // Volta GV100.
    G.SharedCarveoutsKB = Volta;
    G.MaxThreadsPerSM = 2048;
    G.MaxBlocksPerSM = 32;
    T = {64, 32, 128, 64, 64, 16, 32, 16, 1024, 0, 0, 0};
    break;
  case 75: // Turing TU10x.
    G.SharedCarveoutsKB = Turing;
    G.MaxThreadsPerSM = 1024;
    G.MaxBlocksPerSM = 16;
    T = {64, 2, 128, 64, 64, 16, 16, 16, 1024, 0, 2048, 0};
    G.L1BytesPerClkPerSM = 64;
    break;
  case 80: // Ampere GA100.
    G.SharedCarveoutsKB = GA100;
    G.MaxThreadsPerSM = 2048;
    G.MaxBlocksPerSM = 32;
    T = {64, 32, 256, 64, 64, 16, 32, 16, 2048, 1024, 4096, 128};
    break;
  case 86: // Ampere GA10x.
    G.SharedCarveoutsKB = GA10x;
    G.MaxThreadsPerSM = 1536;
    G.MaxBlocksPerSM = 16;
    T = {128, 2, 128, 64, 64, 16, 16, 16, 1024, 512, 2048, 0};
    break;
  case 87: // Ampere GA10B (Orin).
    G.SharedCarveoutsKB = GA100;
    G.MaxThreadsPerSM = 2048;
    G.MaxBlocksPerSM = 16;
    T = {128, 2, 256, 64, 64, 16, 16, 16, 2048, 1024, 4096, 0};
    break;
  case 89: // Ada AD10x.
    G.SharedCarveoutsKB = GA10x;
    G.MaxThreadsPerSM = 1536;
    G.MaxBlocksPerSM = 24;
    T = {128, 2, 128, 64, 64, 16, 16, 16, 1024, 512, 2048, 0};
    break;
  case 90: // Hopper GH100.
    G.SharedCarveoutsKB = Hopper;
    G.MaxThreadsPerSM = 2048;
    G.MaxBlocksPerSM = 32;
    T = {128, 64, 256, 64, 64, 16, 32, 16, 4096, 2048, 8192, 256};
    break;
  case 100: // Blackwell GB100.
    G.SharedCarveoutsKB = Hopper;
    G.MaxThreadsPerSM = 2048;
    G.MaxBlocksPerSM = 32;
    T = {128, 64, 256, 64, 64, 16, 32, 16, 8192, 4096, 16384, 128};
    break;
  case 120: // Blackwell GB20x.
    G.SharedCarveoutsKB = GA10x;
    G.MaxThreadsPerSM = 1536;
    G.MaxBlocksPerSM = 24;
    T = {128, 2, 128, 128, 64, 16, 16, 16, 1024, 512, 2048, 0};
    break;
  default:
    llvm_unreachable("no per-SM facts for this compute capability");
  }
  G.MaxWarpsPerSM = G.MaxThreadsPerSM / G.WarpSize;
  G.SharedPerSM = G.SharedCarveoutsKB.back() * 1024;
  // The opt-in per-block maximum is the largest carveout less the per-block
  // reservation (cudaDevAttrMaxSharedMemoryPerBlockOptin).
  G.SharedPerBlockOptin = G.SharedPerSM - G.SharedReservedPerBlock;
}

/// One row of the table: the per-product figures.
struct Row {
  const char *Name;
  const char *Aliases; // Space-separated, normalized (see normalizeName).
  const char *Source;
  unsigned Major, Minor, SMs;
  double BaseMHz, BoostMHz, MinMHz;
  const char *MemType;
  double MemClockMHz;
  unsigned BusBits;
  double BandwidthGBs, L2KB, L2BytesPerClkPerSM;
  double MinW, DefaultW, MaxW, IdleW;
};

/// Clock-to-power curves fitted to measured data (shared/data/power-vs-clock,
/// Kernel Tuner; per-GPU fit of scripts/fit-power-curve.py, errors in
/// docs/MODEL.md), as a calibrated spec sets them. CurveDynW is at the top
/// clock (GPUSpec::topClockMHz). Other GPUs derive their curve from datasheet
/// figures and the shared fitted constants.
void applyMeasuredPowerCurve(GPUSpec &G) {
  struct Fit {
    const char *Name;
    double StaticW, DynW, KneeMHz, FloorRatio;
  };
  static const Fit Fits[] = {
      {"A100-PCIE-40GB", 32.43, 114.38, 1072, 0.74},
      {"RTX-A4000", 29.37, 180.39, 1342, 0.66},
  };
  for (const Fit &F : Fits)
    if (G.Name == F.Name) {
      G.Power.CurveStaticW = F.StaticW;
      G.Power.CurveDynW = F.DynW;
      G.Power.VoltKneeMHz = F.KneeMHz;
      G.Power.VoltFloorRatio = F.FloorRatio;
    }
}

/// The board's maximum attainable graphics clock, nvidia-smi "Max Clocks"
/// (docs/GPUS.md, column "max"). Data-centre parts stop at their boost clock;
/// GeForce/RTX boards list a higher maximum and reach it when power and
/// voltage allow. GPUs not listed: the boost clock (also laptop parts, whose
/// firmware holds the clock to the boost of the TGP the maker chose).
double maxClockFor(StringRef Name) {
  struct MaxClock {
    const char *Name;
    double MHz;
  };
  static const MaxClock Table[] = {
      {"RTX-2080-Ti", 2100},  {"TITAN-RTX", 2100},    {"RTX-A4000", 2100},
      {"RTX-A6000", 2100},    {"RTX-3090", 2100},
      {"RTX-4090", 3105},     {"RTX-4000-Ada", 3105}, {"RTX-5000-Ada", 3105},
      {"RTX-6000-Ada", 3105}, {"RTX-5090", 3090},
  };
  for (const MaxClock &M : Table)
    if (Name == M.Name)
      return M.MHz;
  return 0;
}

// clang-format off
const Row Rows[] = {
  // Name, aliases, source, CC, SMs, base/boost/min MHz, memory, clock, bus,
  // GB/s, L2 KB, L2 B/clk/SM, power min/default/max/idle W.
  {"V100-SXM2-16GB", "v100 v100-sxm2 v100-sxm2-16gb tesla-v100-sxm2-16gb",
   "nv-v100-ds nv-volta-wp cuda-pg", 7, 0, 80, 1290, 1530, 135,
   "HBM2", 877, 4096, 900, 6144, 25.6, 150, 300, 300, 40},
  {"V100-PCIE-16GB", "v100-pcie v100-pcie-16gb",
   "nv-v100-ds nv-volta-wp cuda-pg", 7, 0, 80, 1230, 1380, 135,
   "HBM2", 877, 4096, 900, 6144, 25.6, 100, 250, 250, 30},
  {"T4", "t4 tesla-t4", "nv-t4-ds nv-turing-wp cuda-pg", 7, 5, 40,
   585, 1590, 300, "GDDR6", 5001, 256, 320, 4096, 32, 60, 70, 70, 10},
  {"RTX-2080-Ti", "2080ti 2080-ti rtx2080ti rtx-2080ti rtx-2080-ti",
   "nv-turing-wp nv-rtx2080ti-spec cuda-pg", 7, 5, 68, 1350, 1635, 300,
   "GDDR6", 7000, 352, 616, 5632, 32, 100, 260, 320, 15},
  {"TITAN-RTX", "titan-rtx titanrtx",
   "nv-titanrtx-spec nv-turing-wp cuda-pg", 7, 5, 72, 1350, 1770, 300,
   "GDDR6", 7000, 384, 672, 6144, 32, 100, 280, 320, 15},
  {"A100-PCIE-40GB", "a100-pcie a100-pcie-40gb",
   "nv-a100-ds nv-ampere-wp cuda-pg", 8, 0, 108, 765, 1410, 210,
   "HBM2", 1215, 5120, 1555, 40960, 47.4, 150, 250, 250, 35},
  {"A100-SXM4-40GB", "a100 a100-sxm4 a100-40gb a100-sxm4-40gb",
   "nv-a100-ds nv-ampere-wp cuda-pg", 8, 0, 108, 1095, 1410, 210,
   "HBM2", 1215, 5120, 1555, 40960, 47.4, 100, 400, 400, 50},
  {"A100-SXM4-80GB", "a100-80gb a100-sxm4-80gb",
   "nv-a100-ds nv-ampere-wp cuda-pg", 8, 0, 108, 1275, 1410, 210,
   "HBM2e", 1593, 5120, 2039, 40960, 47.4, 100, 400, 400, 60},
  {"A100-SXM4-80GB-500W", "a100-80gb-500w a100-sxm4-80gb-500w",
   "nv-a100-ds nv-ampere-wp cuda-pg", 8, 0, 108, 1275, 1410, 210,
   "HBM2e", 1593, 5120, 2039, 40960, 47.4, 100, 500, 500, 60},
  {"A10", "a10 a10-24gb", "nv-a10-ds nv-ga102-wp cuda-pg", 8, 6, 72,
   885, 1695, 210, "GDDR6", 6251, 384, 600, 6144, 32, 100, 150, 150, 15},
  {"A30", "a30 a30-24gb", "nv-a30-ds nv-ampere-wp cuda-pg", 8, 0, 56,
   930, 1440, 210, "HBM2", 1215, 3072, 933, 24576, 47.4, 100, 165, 165, 30},
  {"A40", "a40 a40-48gb", "nv-a40-ds nv-ga102-wp cuda-pg", 8, 6, 84,
   1305, 1740, 210, "GDDR6", 7251, 384, 696, 6144, 32, 100, 300, 300, 30},
  {"RTX-A4000", "a4000 rtx-a4000", "nv-rtxa4000-ds nv-ga102-wp cuda-pg", 8, 6,
   48, 735, 1560, 210, "GDDR6", 7001, 256, 448, 4096, 32, 100, 140, 140, 10},
  {"RTX-A6000", "a6000 rtx-a6000", "nv-rtxa6000-ds nv-ga102-wp cuda-pg", 8, 6,
   84, 1410, 1800, 210, "GDDR6", 8001, 384, 768, 6144, 32, 100, 300, 300, 20},
  {"RTX-3090", "3090 rtx3090 rtx-3090", "nv-ga102-wp cuda-pg", 8, 6, 82,
   1395, 1695, 210, "GDDR6X", 9751, 384, 936, 6144, 32, 100, 350, 350, 25},
  {"RTX-3060-Laptop",
   "3060-laptop rtx3060-laptop rtx-3060-laptop rtx-3060-laptop-gpu "
   "rtx-3060-mobile",
   "nv-rtx30laptop-spec nv-ga102-wp cuda-pg", 8, 6, 30, 1387, 1703, 210,
   "GDDR6", 7001, 192, 336, 3072, 32, 60, 115, 115, 8},
  {"L4", "l4 l4-24gb", "nv-l4-ds nv-ada-wp cuda-pg", 8, 9, 58, 795, 2040, 210,
   "GDDR6", 6251, 192, 300, 49152, 32, 40, 72, 72, 16},
  {"L40S", "l40s l40s-48gb", "nv-l40s-ds nv-ada-wp cuda-pg", 8, 9, 142,
   1110, 2520, 210, "GDDR6", 9001, 384, 864, 98304, 32, 100, 350, 350, 35},
  {"RTX-4090", "4090 rtx4090 rtx-4090", "nv-ada-wp cuda-pg", 8, 9, 128,
   2235, 2520, 210, "GDDR6X", 10501, 384, 1008, 73728, 32, 150, 450, 600, 25},
  {"RTX-4000-Ada", "rtx4000ada rtx-4000-ada rtx-4000-ada-generation",
   "nv-rtx4000ada-ds nv-ada-wp cuda-pg", 8, 9, 48, 1500, 2175, 210,
   "GDDR6", 9001, 160, 360, 49152, 32, 70, 130, 130, 12},
  {"RTX-5000-Ada", "rtx5000ada rtx-5000-ada rtx-5000-ada-generation",
   "nv-rtx5000ada-ds nv-ada-wp cuda-pg", 8, 9, 100, 1155, 2550, 210,
   "GDDR6", 9001, 256, 576, 65536, 32, 100, 250, 250, 20},
  {"RTX-6000-Ada", "rtx6000ada rtx-6000-ada rtx-6000-ada-generation",
   "nv-rtx6000ada-ds nv-ada-wp cuda-pg", 8, 9, 142, 915, 2505, 210,
   "GDDR6", 10001, 384, 960, 98304, 32, 100, 300, 300, 25},
  {"H100-SXM5-80GB", "h100 h100-sxm h100-sxm5 h100-sxm5-80gb h100-80gb-hbm3",
   "nv-h100-ds nv-hopper-wp cuda-pg", 9, 0, 132, 1590, 1980, 345,
   "HBM3", 2619, 5120, 3352, 51200, 48, 200, 700, 700, 70},
  {"H100-PCIE-80GB", "h100-pcie h100-pcie-80gb",
   "nv-h100-ds nv-hopper-wp cuda-pg", 9, 0, 114, 1125, 1755, 345,
   "HBM2e", 1593, 5120, 2039, 51200, 48, 200, 350, 350, 45},
  {"H200-SXM-141GB", "h200 h200-sxm h200-sxm-141gb",
   "nv-h200-ds nv-hopper-wp cuda-pg", 9, 0, 132, 1590, 1980, 345,
   "HBM3e", 3201, 6144, 4800, 51200, 48, 200, 700, 700, 75},
  {"GH200-96GB", "gh200 gh200-96gb gh200-480gb",
   "nv-gh200-ds nv-hopper-wp cuda-pg", 9, 0, 132, 1590, 1980, 345,
   "HBM3", 2619, 6144, 4000, 51200, 48, 100, 900, 900, 90},
  {"B200", "b200 b200-sxm b200-180gb", "nv-dgxb200-ds nv-blackwell-wp cuda-pg",
   10, 0, 148, 1200, 1965, 345, "HBM3e", 3996, 8192, 8000, 129024, 48,
   200, 1000, 1000, 140},
  {"RTX-5090", "5090 rtx5090 rtx-5090", "nv-rtx5090-spec nv-gb202-wp cuda-pg",
   12, 0, 170, 2010, 2407, 210, "GDDR7", 14001, 512, 1792, 98304, 32,
   400, 575, 575, 30},
  {"Jetson-AGX-Orin-64GB", "orin agx-orin jetson-agx-orin orin-nvgpu",
   "nv-orin-ds nv-orin-wp cuda-pg", 8, 7, 16, 306, 1300, 114,
   "LPDDR5", 3200, 256, 204.8, 4096, 32, 15, 60, 60, 5},
};
// clang-format on

std::vector<GPUSpec> buildTable() {
  std::vector<GPUSpec> Table;
  for (const Row &R : Rows) {
    GPUSpec G;
    G.Name = R.Name;
    SmallVector<StringRef, 8> Parts;
    StringRef(R.Aliases).split(Parts, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef A : Parts)
      G.Aliases.push_back(A.str());
    G.Source = R.Source;
    setArch(G, R.Major, R.Minor);
    G.SMCount = R.SMs;
    G.BaseClockMHz = R.BaseMHz;
    G.BoostClockMHz = R.BoostMHz;
    G.MinClockMHz = R.MinMHz;
    double MaxClk = maxClockFor(R.Name);
    G.MaxClockMHz = MaxClk > 0 ? MaxClk : R.BoostMHz;
    G.MemoryType = R.MemType;
    G.MemoryClockMHz = R.MemClockMHz;
    G.MemoryBusWidthBits = R.BusBits;
    G.MemoryBandwidthGBs = R.BandwidthGBs;
    G.L2SizeKB = R.L2KB;
    // GA100's L2 is two partitions, each caching for the SMs of its own
    // GPCs; a far hit copies the line into the near one (docs/GPUS.md).
    G.L2Partitions = R.Major == 8 && R.Minor == 0 ? 2 : 1;
    G.L2BandwidthBytesPerClkPerSM = R.L2BytesPerClkPerSM;
    G.Power.MinLimitW = R.MinW;
    G.Power.DefaultLimitW = R.DefaultW;
    G.Power.MaxLimitW = R.MaxW;
    G.Power.IdleW = R.IdleW;
    G.Power.IdleMeasured = false; // No datasheet publishes idle power.
    applyMeasuredPowerCurve(G);
    Table.push_back(std::move(G));
  }
  return Table;
}

} // namespace

std::string normalizeGPUName(StringRef Name) {
  std::string S;
  for (char C : Name.trim()) {
    char L = toLower(C);
    if (!isAlnum(L) && L != '.') {
      if (!S.empty() && S.back() != '-')
        S.push_back('-');
      continue;
    }
    S.push_back(L);
  }
  while (!S.empty() && S.back() == '-')
    S.pop_back();
  // Vendor and brand prefixes NVML puts in front of the product name.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (StringRef Prefix : {"nvidia-", "tesla-", "geforce-", "quadro-"}) {
      if (StringRef(S).starts_with(Prefix)) {
        S.erase(0, Prefix.size());
        Changed = true;
      }
    }
  }
  return S;
}

ArrayRef<GPUSpec> allGPUs() {
  static const std::vector<GPUSpec> Table = buildTable();
  return Table;
}

const GPUSpec *findGPU(StringRef Name) {
  std::string Key = normalizeGPUName(Name);
  if (Key.empty())
    return nullptr;
  for (const GPUSpec &G : allGPUs()) {
    if (normalizeGPUName(G.Name) == Key)
      return &G;
    for (const std::string &A : G.Aliases)
      if (normalizeGPUName(A) == Key)
        return &G;
  }
  return nullptr;
}

const GPUSpec *defaultGPUForArch(StringRef SmArch) {
  StringRef S = SmArch.trim();
  std::string Lower = S.lower();
  StringRef L(Lower);
  if (!L.consume_front("sm_") && !L.consume_front("sm"))
    return nullptr;
  // Architecture-specific ("a") and family ("f") variants share the default.
  if (L.ends_with("a") || L.ends_with("f"))
    L = L.drop_back();
  unsigned Num = 0;
  if (L.empty() || L.getAsInteger(10, Num))
    return nullptr;
  const char *Name = nullptr;
  switch (Num) {
  case 70:
    Name = "V100-SXM2-16GB";
    break;
  case 75:
    Name = "T4";
    break;
  case 80:
    Name = "A100-SXM4-40GB";
    break;
  case 86:
    Name = "A10";
    break;
  case 87:
    Name = "Jetson-AGX-Orin-64GB";
    break;
  case 89:
    Name = "L4";
    break;
  case 90:
    Name = "H100-SXM5-80GB";
    break;
  case 100:
    Name = "B200";
    break;
  case 120:
    Name = "RTX-5090";
    break;
  default:
    return nullptr;
  }
  return findGPU(Name);
}

Expected<GPUSpec> resolveGPU(StringRef Choice, StringRef SmArch) {
  Choice = Choice.trim();
  if (Choice.ends_with_insensitive(".json"))
    return loadGPUSpecFile(Choice);
  if (!Choice.empty()) {
    if (const GPUSpec *G = findGPU(Choice))
      return *G;
    return createStringError(
        inconvertibleErrorCode(),
        "unknown GPU '%s': use a name from --list-gpus or a .json spec file",
        Choice.str().c_str());
  }
  if (const GPUSpec *G = defaultGPUForArch(SmArch))
    return *G;
  return createStringError(
      inconvertibleErrorCode(),
      "no default GPU for architecture '%s' (defaults exist for sm_70, sm_75, "
      "sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120): choose a GPU name "
      "or a .json spec file",
      SmArch.empty() ? "(none)" : SmArch.str().c_str());
}

void printGPUList(raw_ostream &OS) {
  OS << format("%-22s %-7s %5s %10s %10s %7s\n", "GPU", "arch", "SMs",
               "boost MHz", "mem GB/s", "TDP W");
  for (const GPUSpec &G : allGPUs())
    OS << format("%-22s sm_%-4u %5u %10.0f %10.1f %7.0f\n", G.Name.c_str(),
                 G.smVersion(), G.SMCount, G.BoostClockMHz,
                 G.MemoryBandwidthGBs, G.Power.DefaultLimitW);
}

void printGPUDetails(const GPUSpec &G, raw_ostream &OS) {
  OS << G.Name << (G.FromFile ? " (from a spec file)" : "") << "\n";
  if (!G.Aliases.empty())
    OS << "  aliases:            " << join(G.Aliases, ", ") << "\n";
  OS << "  source:             " << G.Source << "\n";
  OS << format("  compute capability: %u.%u (sm_%u)\n", G.CCMajor, G.CCMinor,
               G.smVersion());
  OS << format("  SMs:                %u\n", G.SMCount);
  OS << format("  clocks (MHz):       base %.0f, boost %.0f, max %.0f, "
               "min %.0f\n",
               G.BaseClockMHz, G.BoostClockMHz, G.topClockMHz(), G.MinClockMHz);
  OS << format("  memory:             %s, %.0f MHz, %u-bit, %.1f GB/s\n",
               G.MemoryType.c_str(), G.MemoryClockMHz, G.MemoryBusWidthBits,
               G.MemoryBandwidthGBs);
  OS << format("  L2:                 %.0f KB, %.1f B/clk/SM", G.L2SizeKB,
               G.L2BandwidthBytesPerClkPerSM);
  if (G.L2Partitions > 1)
    OS << ", " << G.L2Partitions << " partitions";
  OS << "\n";
  OS << format("  L1/shared path:     %.0f B/clk/SM\n", G.L1BytesPerClkPerSM);
  OS << format("  registers:          %u/SM, %u/block, %u/thread max, "
               "alloc unit %u\n",
               G.RegistersPerSM, G.RegistersPerBlock, G.MaxRegistersPerThread,
               G.RegAllocUnitSize);
  OS << format("  shared memory:      %u B/SM, %u B/block (opt-in %u), "
               "unit %u, reserved %u/block\n",
               G.SharedPerSM, G.SharedPerBlock, G.SharedPerBlockOptin,
               G.SharedAllocUnit, G.SharedReservedPerBlock);
  OS << "  carveouts (KB):     ";
  ListSeparator LS(", ");
  for (unsigned KB : G.SharedCarveoutsKB)
    OS << LS << KB;
  OS << "\n";
  OS << format("  threads/blocks:     %u threads/SM, %u threads/block, "
               "%u blocks/SM, %u warps/SM, %u schedulers\n",
               G.MaxThreadsPerSM, G.MaxThreadsPerBlock, G.MaxBlocksPerSM,
               G.MaxWarpsPerSM, G.SchedulersPerSM);
  const UnitThroughput &T = G.Throughput;
  OS << format("  per SM per clock:   FP32 %g, FP64 %g, FP16 %g, INT32 %g, "
               "IMUL %g, SFU %g, LD/ST %g, CVT %g\n",
               T.FP32, T.FP64, T.FP16, T.INT32, T.IMul, T.SFU, T.LdSt, T.Conv);
  OS << format("  tensor FLOPs/clk/SM: FP16 %g, TF32 %g, INT8 %g, FP64 %g\n",
               T.TensorFP16, T.TensorTF32, T.TensorINT8, T.TensorFP64);
  double PeakFP32 = 2.0 * T.FP32 * G.SMCount * G.BoostClockMHz * 1e-6;
  OS << format("  peak FP32:          %.1f TFLOPS\n", PeakFP32);
  OS << format("  power (W):          min %.0f, default %.0f, max %.0f, "
               "idle %.0f (%s)\n",
               G.Power.MinLimitW, G.Power.DefaultLimitW, G.Power.MaxLimitW,
               G.Power.IdleW, G.Power.IdleMeasured ? "measured" : "estimate");
}

} // namespace flipflop
