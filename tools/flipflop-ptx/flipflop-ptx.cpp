//===- flipflop-ptx.cpp - Launch configurations from PTX ------------------===//
//
// Reads PTX (from the NVPTX back end, nvcc or Triton), takes exact resources
// from ptxas when it is available, and prints per kernel the Pareto-optimal
// (time, energy) launch configurations and the named picks, or the prediction
// for one configuration (--block).
//
//===----------------------------------------------------------------------===//
#include "flipflop/Driver/Analyze.h"
#include "flipflop/Model/Model.h"
#include "flipflop/Model/Recommender.h"
#include "flipflop/Profile/PTXParser.h"
#include "flipflop/Profile/ProfilePrinter.h"
#include "flipflop/Profile/Ptxas.h"
#include "flipflop/Report/Explain.h"
#include "flipflop/Report/HTMLReport.h"
#include "flipflop/Report/JSONReport.h"
#include "flipflop/Report/Picks.h"
#include "flipflop/Report/ReportStream.h"
#include "flipflop/Support/BlockShape.h"
#include "flipflop/Support/WriteFile.h"
#include "flipflop/Target/GPUDatabase.h"
#include "flipflop/Target/Occupancy.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

using namespace llvm;
using namespace flipflop;

namespace {
cl::OptionCategory Cat("flipflop-ptx options");
cl::opt<std::string> Input(cl::Positional, cl::desc("<file.ptx | ->"),
                           cl::cat(Cat));
cl::opt<std::string> GPUName("gpu", cl::desc("GPU of the embedded table"),
                             cl::value_desc("name"), cl::cat(Cat));
cl::opt<std::string> SpecFile("spec", cl::desc("GPU spec file (JSON)"),
                              cl::value_desc("file.json"), cl::cat(Cat));
cl::opt<std::string> KernelName("kernel",
                                cl::desc("Only this kernel (mangled or "
                                         "demangled name)"),
                                cl::cat(Cat));
cl::opt<std::string> BlockOpt("block",
                              cl::desc("Predict this block shape X[,Y[,Z]] "
                                       "instead of sweeping"),
                              cl::cat(Cat));
cl::opt<std::string> GridOpt(
    "grid",
    cl::desc("Grid shape X[,Y[,Z]] (loops whose bounds read gridDim are "
             "counted at it; a sweep launches it at every block)"),
    cl::cat(Cat));
// Registered as "flipflop-threads" and renamed to "threads" by
// claimThreadsOption(): libLLVM already owns an option of that name.
cl::opt<uint64_t> Threads("flipflop-threads",
                          cl::desc("Problem size in threads (grid derived)"),
                          cl::init(0), cl::cat(Cat));
cl::opt<unsigned> MinBlocks("min-blocks",
                            cl::desc("__launch_bounds__ min blocks per SM "
                                     "(with --block)"),
                            cl::init(0), cl::cat(Cat));
cl::opt<double> PowerLimit("power-limit",
                           cl::desc("GPU power limit in watts (0: default)"),
                           cl::init(0), cl::cat(Cat));
cl::opt<double> LockedClock(
    "locked-clock",
    cl::desc("With --block: the SM clock locked at this many MHz "
             "(nvidia-smi -lgc F,F) under the power limit (0: not locked)"),
    cl::init(0), cl::cat(Cat));
cl::list<std::string>
    ArgOpt("arg",
           cl::desc("Kernel parameter values for trip counts and bounds: "
                    "INDEX=VALUE[,INDEX=VALUE...] (0-based; the PTX name "
                    "KERNEL_param_N is accepted for N); repeatable"),
           cl::value_desc("N=V"), cl::CommaSeparated, cl::cat(Cat));
cl::opt<bool> JSON("json", cl::desc("Print the JSON report"), cl::cat(Cat));
cl::opt<bool> CSV("csv", cl::desc("Print every configuration as CSV"),
                  cl::cat(Cat));
cl::opt<std::string> HTML("html", cl::desc("Write an HTML report"),
                          cl::value_desc("out.html"), cl::cat(Cat));
cl::opt<std::string> PtxasPath("ptxas", cl::desc("Path of ptxas"),
                               cl::cat(Cat));
cl::opt<bool> NoPtxas("no-ptxas",
                      cl::desc("Do not run ptxas (estimated registers)"),
                      cl::cat(Cat));
cl::opt<bool> ListGPUs("list-gpus", cl::desc("List the embedded GPUs"),
                       cl::cat(Cat));
cl::opt<std::string> ShowGPU("show-gpu", cl::desc("Print one GPU's figures"),
                             cl::value_desc("name"), cl::cat(Cat));
cl::opt<std::string> DynamicSharedOpt(
    "dynamic-shared",
    cl::desc("Dynamic shared memory of a block, for kernels that use it: "
             "BYTES, PER*t (bytes per thread) or BYTES+PER*t"),
    cl::value_desc("size"), cl::cat(Cat));
cl::opt<bool> DumpProfile("dump-profile",
                          cl::desc("Print the parsed kernel profiles"),
                          cl::cat(Cat));

const char *Tool = "flipflop-ptx";

[[noreturn]] void fail(const Twine &Msg) {
  WithColor::error(errs(), Tool) << Msg << "\n";
  exit(1);
}

std::array<unsigned, 3> parseDims(StringRef Opt, StringRef S) {
  SmallVector<StringRef, 3> Parts;
  S.split(Parts, ',');
  std::array<unsigned, 3> D{1, 1, 1};
  if (Parts.empty() || Parts.size() > 3)
    fail("--" + Opt + " expects X[,Y[,Z]], got '" + S + "'");
  for (size_t I = 0; I < Parts.size(); ++I) {
    unsigned V;
    if (Parts[I].trim().getAsInteger(10, V) || V == 0)
      fail("--" + Opt + " expects positive integers, got '" + S + "'");
    D[I] = V;
  }
  return D;
}

/// The architecture ptxas compiles for: the GPU's, unless the PTX targets a
/// newer one (ptxas cannot lower a .target).
std::string ptxasArch(const GPUSpec &G, StringRef Target) {
  unsigned PtxSm = 0;
  if (Target.starts_with("sm_"))
    Target.drop_front(3).take_while(isDigit).getAsInteger(10, PtxSm);
  if (PtxSm > G.smVersion() || G.smVersion() == 0)
    return Target.str();
  std::string A = "sm_" + std::to_string(G.smVersion());
  if (Target.ends_with("a") && PtxSm == G.smVersion())
    A += "a";
  return A;
}

/// The power limit a prediction ran under (the default resolved).
double limitOf(const Prediction &P) {
  return P.PowerLimitW > 0 ? P.PowerLimitW : P.Config.PowerLimitW;
}

/// "lever none", "lever power limit 200 W", "lever locked clock 1200 MHz".
std::string leverText(const Prediction &P) {
  switch (P.PowerLever) {
  case Lever::None: return "lever none";
  case Lever::PowerLimit:
    return formatv("lever power limit {0} W", format("%.0f", P.LeverValue));
  case Lever::LockedClock:
    return formatv("lever locked clock {0} MHz", format("%.0f", P.LeverValue));
  }
  return "lever none";
}
/// How to set the lever of \p P (and that it needs root), or nothing.
void printLeverCommand(const Prediction &P, const GPUSpec &G, StringRef Indent,
                       raw_ostream &OS) {
  LeverCommand C = leverCommand(P, G);
  if (C.Lever == "none")
    return;
  OS << Indent << "set with: " << C.Command << "  (NVML: " << C.NVML
     << "); needs root/admin; undo: " << C.Reset << "\n";
  if (std::string Note = leverTooShortNote(C.Lever, P.TimeS); !Note.empty())
    OS << Indent << "note: " << Note << "\n";
}
/// "time 61.1-113 us, power 233-267 W, energy 14.5-27.3 mJ".
void printBands(const Prediction &P, StringRef Indent, raw_ostream &OS) {
  Bands B = absoluteBands();
  auto T = band(P.TimeS, B.Time), W = band(P.AvgPowerW, B.Power),
       E = band(P.EnergyJ, B.Energy);
  OS << Indent
     << format("band: time %.4g-%.4g s (+/-%.0f%%), power %.4g-%.4g W "
               "(+/-%.0f%%), energy %.4g-%.4g J (+/-%.0f%%)\n",
               T[0], T[1], B.Time * 100, W[0], W[1], B.Power * 100, E[0], E[1],
               B.Energy * 100);
}
void printPrediction(const Prediction &P, const GPUSpec &G, raw_ostream &OS) {
  OS << format("  block %-10s grid %-14s min-blocks %-2u power-limit %5.0f W",
               blockShapeText(P.Config.Block).c_str(),
               blockShapeText(P.Config.Grid).c_str(),
               P.Config.MinBlocksPerSM, limitOf(P))
     << "  " << leverText(P) << "\n";
  if (!P.Valid) {
    OS << "  cannot launch: " << P.Invalid << "\n";
    return;
  }
  OS << format("  occupancy %.3f (%u blocks/SM, limited by %s), %u registers\n",
               P.Occ.Occupancy, P.Occ.BlocksPerSM,
               occLimiterName(P.Occ.Limiter), P.RegsPerThread);
  OS << format("  time %.6g s, average power %.1f W, energy %.6g J, clock %.0f "
               "MHz, bound by %s\n",
               P.TimeS, P.AvgPowerW, P.EnergyJ, P.ClockMHz,
               bottleneckName(P.Bound));
  printBands(P, "  ", OS);
  printLeverCommand(P, G, "  ", OS);
  if (std::string Note = powerLimitNote(G, P); !Note.empty())
    OS << "  note: " << Note << "\n";
}

void printRow(size_t I, const Prediction &P, raw_ostream &OS) {
  auto Value = format("%.0f", P.LeverValue);
  std::string Lever =
      P.PowerLever == Lever::PowerLimit ? formatv("limit {0} W", Value).str()
      : P.PowerLever == Lever::LockedClock
          ? formatv("lock {0} MHz", Value).str()
          : std::string("-");
  OS << format("  %5zu  %-10s %4u  %6.0f  %5.3f  %12.6g  %8.1f  %12.6g  %6.0f  "
               "%-9s %-10s %s\n",
               I, blockShapeText(P.Config.Block).c_str(),
               P.Config.MinBlocksPerSM,
               limitOf(P), P.Occ.Occupancy, P.TimeS, P.AvgPowerW, P.EnergyJ,
               P.ClockMHz, bottleneckName(P.Bound),
               occLimiterName(P.Occ.Limiter), Lever.c_str());
}

void printSweep(const KernelProfile &K, const SweepResult &R, const GPUSpec &G,
                raw_ostream &OS) {
  OS << "kernel " << K.DisplayName << " [" << K.File << ":" << K.Line << "] on "
     << G.Name << "\n";
  OS << "  resources: " << K.Res.Registers << " registers ("
     << (K.Res.RegistersExact ? "ptxas" : "estimated") << "), "
     << K.Res.StaticSharedBytes << " B static shared"
     << (!K.Res.UsesDynamicShared ? ""
         : K.Res.dynamicSharedKnown()
             ? " + dynamic " + dynamicSharedText(K.Res)
             : std::string(" + dynamic (size unknown: 0 B assumed; "
                           "--dynamic-shared)"))
     << ", "
     << K.Res.SpillStoreBytes + K.Res.SpillLoadBytes << " B spills\n";
  SweepTexts Texts = sweepTexts(R, K);
  if (R.Configs.empty()) {
    // Nothing was predicted: only why (an implausible profile, a kernel
    // that does no work, none launchable).
    if (!Texts.Explanation.empty())
      OS << "  " << Texts.Explanation << "\n";
    return;
  }
  OS << "  " << R.Configs.size() << " configurations, " << R.Pareto.size()
     << " Pareto-optimal"
     << format(" (search space reduced by %.1f%%)",
               R.SearchSpaceReduction * 100)
     << "\n";
  if (R.ShapeHeld)
    OS << "  block shape held: " << Texts.ShapeReason << "\n";
  OS << "  Pareto front:\n";
  OS << "      #  block      minB   power    occ      time(s)  power(W)"
        "     energy(J)   clock  bound     limiter    lever\n";
  for (size_t I : R.Pareto)
    printRow(I, R.Configs[I], OS);
  // The recommended configurations (ties resolved).
  const std::array<size_t, NumReportPicks> Idx = reportPickIndices(R);
  const PickTie *Ties[5] = {&R.TieFastest, &R.TieLeastEnergy, &R.TieBudget,
                            &R.TieEDP, nullptr};
  const auto &Labels = ReportPickLabels;
  const std::string *Why[5] = {&Texts.Picks[0], &Texts.Picks[1],
                               &Texts.Picks[2], &Texts.Picks[3],
                               &Texts.Picks[4]};
  if (R.Configs.empty())
    return;
  OS << "  picks:\n";
  for (unsigned I = 0; I < NumReportPicks; ++I) {
    const Prediction &P = R.Configs[Idx[I]];
    OS << format("    %-21s #%-5zu block %-10s min-blocks %-2u power %4.0f W  "
                 "time %.6g s  energy %.6g J\n",
                 Labels[I], Idx[I], blockShapeText(P.Config.Block).c_str(),
                 P.Config.MinBlocksPerSM, limitOf(P), P.TimeS, P.EnergyJ);
    OS << "      " << leverText(P) << "\n";
    printLeverCommand(P, G, "      ", OS);
    printBands(P, "      ", OS);
    if (Ties[I] && Ties[I]->Tied)
      OS << format("      tie: the model's optimum #%zu is better by %.1f%%, "
                   "inside the +/-%.0f%% comparison band; the less intrusive "
                   "configuration is recommended\n",
                   Ties[I]->Optimum, Ties[I]->AdvantagePct, Ties[I]->BandPct);
    if (!Why[I]->empty())
      OS << "      " << *Why[I] << "\n";
  }
  if (!Texts.Explanation.empty())
    OS << "  " << Texts.Explanation << "\n";
}

void printCSVHeader(raw_ostream &OS) {
  OS << "kernel,index,block_x,block_y,block_z,grid_x,grid_y,grid_z,"
        "min_blocks_per_sm,power_limit_w,occupancy,blocks_per_sm,registers,"
        "time_s,avg_power_w,energy_j,clock_mhz,bottleneck,limiter,valid,"
        "pareto,picks,lever,lever_value,t_issue_s,t_shared_s,t_l2_s,"
        "t_dram_s,t_latency_s,dram_bytes,l2_bytes,busiest_pipe,"
        "busiest_pipe_share\n";
}

void printCSV(const KernelProfile &K, const SweepResult &R, raw_ostream &OS) {
  std::vector<bool> InPareto(R.Configs.size(), false);
  for (size_t I : R.Pareto)
    InPareto[I] = true;
  const std::array<size_t, NumReportPicks> Idx = reportPickIndices(R);
  for (size_t I = 0; I < R.Configs.size(); ++I) {
    const Prediction &P = R.Configs[I];
    std::string Picks;
    for (unsigned J = 0; J < NumReportPicks; ++J)
      if (Idx[J] == I)
        Picks += (Picks.empty() ? "" : ";") + std::string(ReportPickNames[J]);
    OS << K.Name << ',' << I;
    for (unsigned D : P.Config.Block)
      OS << ',' << D;
    for (unsigned D : P.Config.Grid)
      OS << ',' << D;
    OS << ',' << P.Config.MinBlocksPerSM
       << format(",%g,%.6g,%u,%u,%.6g,%.6g,%.6g,%.6g", limitOf(P),
                 P.Occ.Occupancy, P.Occ.BlocksPerSM, P.RegsPerThread, P.TimeS,
                 P.AvgPowerW, P.EnergyJ, P.ClockMHz)
       << ',' << bottleneckName(P.Bound) << ',' << occLimiterName(P.Occ.Limiter)
       << ',' << (P.Valid ? 1 : 0) << ',' << (InPareto[I] ? 1 : 0) << ','
       << Picks << ',' << leverName(P.PowerLever) << ','
       << format("%g", P.LeverValue)
       << format(",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g", P.TComputeS,
                 P.TSharedS, P.TL2S, P.TDramS, P.TLatencyS, P.DramBytes,
                 P.L2Bytes)
       << ',' << issuePipeName(P.BusiestPipe)
       << format(",%.4g", P.BusiestPipeShare) << "\n";
  }
}

//===----------------------------------------------------------------------===//
// main's sections: options, inputs, the analysis of each kernel, outputs.
//===----------------------------------------------------------------------===//

/// Gives "threads" to this tool: libLLVM already owns an option of that name,
/// which becomes "llvm-threads".
void claimThreadsOption() {
  auto Opts = cl::getRegisteredOptions();
  auto It = Opts.find("threads");
  if (It != Opts.end() && It->second != &Threads)
    It->second->setArgStr("llvm-threads");
  Threads.setArgStr("threads");
}

/// --list-gpus and --show-gpu, which need no input; whether one was given.
bool printGPUInfo() {
  if (ListGPUs) {
    printGPUList(outs());
    return true;
  }
  if (ShowGPU.empty())
    return false;
  const GPUSpec *G = findGPU(ShowGPU);
  if (!G)
    fail("unknown GPU '" + ShowGPU + "' (see --list-gpus)");
  printGPUDetails(*G, outs());
  return true;
}

/// Options that exclude or need one another.
void checkOptions() {
  if (Input.empty())
    fail("no input file (use - for standard input)");
  if (!GPUName.empty() && !SpecFile.empty())
    fail("--gpu and --spec are mutually exclusive");
  if (!GridOpt.empty() && Threads)
    fail("--grid and --threads are mutually exclusive");
  if (JSON && CSV)
    fail("--json and --csv are mutually exclusive");
  if (!PtxasPath.empty() && NoPtxas)
    fail("--ptxas and --no-ptxas are mutually exclusive");
  if (MinBlocks && BlockOpt.empty())
    fail("--min-blocks needs --block");
  if (LockedClock != 0 && BlockOpt.empty())
    fail("--locked-clock needs --block (the sweep already tries locked "
         "clocks)");
  if (!(LockedClock >= 0))
    fail("--locked-clock expects a clock in MHz");
}

/// --arg as parser options.
PTXParseOptions parseArgOptions() {
  PTXParseOptions PO;
  for (StringRef A : ArgOpt) {
    auto [Key, Val] = A.split('=');
    Key = Key.trim();
    if (size_t At = Key.rfind("_param_"); At != StringRef::npos)
      Key = Key.drop_front(At + 7);
    unsigned Idx;
    long long V;
    if (Key.getAsInteger(10, Idx) || Val.trim().getAsInteger(10, V))
      fail("--arg expects INDEX=INTEGER, got '" + A + "'");
    PO.ArgValues[Idx] = V;
  }
  if (!GridOpt.empty())
    PO.Grid = parseDims("grid", GridOpt);
  return PO;
}

/// The PTX, its kernels to analyse (the module itself is not kept) and the
/// GPU.
struct Inputs {
  std::unique_ptr<MemoryBuffer> Buf;
  std::string Target; ///< The module's .target.
  std::vector<KernelProfile> Kernels;
  GPUSpec GPU;
  StringRef text() const { return Buf->getBuffer(); }
};

Inputs readInputs() {
  Inputs In;
  auto Buf = MemoryBuffer::getFileOrSTDIN(Input, /*IsText=*/true);
  if (!Buf)
    fail(Input + ": " + Buf.getError().message());
  In.Buf = std::move(*Buf);
  StringRef DisplayFile = Input == "-" ? "<stdin>" : StringRef(Input);
  auto M = parsePTXModule(In.text(), DisplayFile, parseArgOptions());
  if (!M)
    fail(DisplayFile + ":" + toString(M.takeError()));
  if (M->Kernels.empty())
    fail(DisplayFile + ": no kernel (.entry with a body) in the PTX");
  if (!KernelName.empty()) {
    const KernelProfile *K = findKernel(*M, KernelName);
    if (!K)
      fail(DisplayFile + ": no kernel named '" + KernelName + "'");
    In.Kernels.push_back(*K);
  } else {
    In.Kernels = std::move(M->Kernels);
  }
  if (!DynamicSharedOpt.empty()) {
    std::optional<DynamicSharedSize> S = parseDynamicShared(DynamicSharedOpt);
    if (!S)
      fail("--dynamic-shared expects BYTES, PER*t or BYTES+PER*t, got '" +
           DynamicSharedOpt + "'");
    for (KernelProfile &K : In.Kernels)
      stateDynamicShared(K, *S);
  }
  In.Target = M->Target;
  auto GPU = resolveGPU(
      !SpecFile.empty() ? StringRef(SpecFile) : StringRef(GPUName), In.Target);
  if (!GPU)
    fail(toString(GPU.takeError()));
  In.GPU = std::move(*GPU);
  return In;
}

/// A power limit or a locked clock the GPU does not accept is said, never
/// silently clamped.
void warnOutOfRange(const GPUSpec &G) {
  if (PowerLimit > 0 &&
      ((G.Power.MinLimitW > 0 && PowerLimit < G.Power.MinLimitW) ||
       (G.Power.MaxLimitW > 0 && PowerLimit > G.Power.MaxLimitW)))
    WithColor::warning(errs(), Tool)
        << format("--power-limit %.0f W is outside the %.0f-%.0f W that %s "
                  "accepts (nvidia-smi -pl refuses it); predictions use the "
                  "nearest settable limit\n",
                  double(PowerLimit), G.Power.MinLimitW, G.Power.MaxLimitW,
                  G.Name.c_str());
  if (LockedClock > 0 && ((G.MinClockMHz > 0 && LockedClock < G.MinClockMHz) ||
                          LockedClock > G.topClockMHz()))
    WithColor::warning(errs(), Tool)
        << format("--locked-clock %.0f MHz is outside the %.0f-%.0f MHz of "
                  "%s (nvidia-smi -lgc refuses it); predictions use the "
                  "nearest clock\n",
                  double(LockedClock), G.MinClockMHz, G.topClockMHz(),
                  G.Name.c_str());
}

/// Runs ptxas over the module (exact resources into In.Kernels); fails when
/// the ptxas named by --ptxas cannot be used.
PtxasStatus runPtxas(Inputs &In, AnalyzeOptions &AO) {
  AO.Ptxas = NoPtxas ? std::string("off") : PtxasPath.getValue();
  AO.Arch = ptxasArch(In.GPU, In.Target);
  PtxasStatus PS = applyPtxas(In.Kernels, In.text(), AO);
  if (!PS.Used && !NoPtxas) {
    if (!PtxasPath.empty())
      fail(PS.Problem);
    if (!PS.Path.empty()) // found but failed
      WithColor::warning(errs(), Tool)
          << PS.Problem << "; using estimated registers\n";
  }
  return PS;
}

/// How every kernel is analysed: the sweep's options, or the one
/// configuration of --block.
struct Analysis {
  AnalyzeOptions AO;
  PtxasStatus PS;
  LaunchConfig Base;
  std::optional<std::array<unsigned, 3>> Block;
};

/// The launch configuration from --grid, --threads, --power-limit,
/// --min-blocks and --locked-clock.
LaunchConfig baseConfig() {
  LaunchConfig Base;
  if (!GridOpt.empty())
    Base.Grid = parseDims("grid", GridOpt);
  Base.TotalThreads = Threads;
  Base.PowerLimitW = PowerLimit;
  Base.MinBlocksPerSM = MinBlocks;
  Base.LockedClockMHz = LockedClock;
  return Base;
}

SweepResult analyseKernel(KernelProfile &K, const Inputs &In,
                          const Analysis &A) {
  SweepResult R;
  if (A.Block) {
    LaunchConfig C = A.Base;
    C.Block = *A.Block;
    R.Configs.push_back(predict(K, In.GPU, C));
    R.Pareto.push_back(0);
    R.Status = SweepStatus::GivenConfig;
    return R;
  }
  AnalyzeOptions KO = A.AO;
  KO.Sweep.Grid = A.Base.Grid;
  KO.Sweep.TotalThreads = Threads;
  if (PowerLimit > 0) {
    // The user fixed the power setting: neither lever is swept.
    KO.Sweep.SweepPower = false;
    KO.Sweep.SweepClocks = false;
    KO.Sweep.PowerMinW = KO.Sweep.PowerMaxW = PowerLimit;
  }
  // recommend() adds ptxas facts for the register caps it tries.
  SweepResult Out = recommend(K, In.GPU, In.text(), KO, A.PS);
  // The stated grid is launched at every block swept: unless the shape is
  // held or a grid-stride loop covers the elements whatever the threads, a
  // smaller block then runs a smaller problem (saxpy at --grid 4096 was
  // "7.76x the speed" of the occupancy heuristic at 32 threads a block),
  // except where a block-stride loop makes each block a unit of the
  // problem (a row a block), which the profile cannot tell from a setup
  // loop over a shared array.
  if (KO.Sweep.Grid[0] && !Out.ShapeHeld && Out.Configs.size() > 1 &&
      !K.Shape.GridStrideLoop && gridStrideElements(K) <= 0)
    K.Warnings.push_back(
        std::string("the stated grid is held at every block swept") +
        (K.Shape.WorkScalesWithBlock
             ? ": unless each block is a unit of the problem (a row a "
               "block), blocks"
             : ", so blocks") +
        " of other sizes run problems of other sizes; for one problem size "
        "give --threads (or --block for this launch alone)");
  return Out;
}

/// Where each kernel's results go as soon as the kernel is analysed: text,
/// CSV rows or the JSON report, streamed. --html needs every kernel at once
/// (the page's kernel count and advice span them), so with it the kernels'
/// JSON is held and written, with --json's report, at the end.
class Output {
public:
  explicit Output(const GPUSpec &GPU) : GPU(GPU) {}
  void add(const KernelProfile &K, const SweepResult &R);
  void finish();

private:
  void printText(const KernelProfile &K, const SweepResult &R);

  const GPUSpec &GPU;
  std::optional<ReportStreamWriter> Stream; ///< --json without --html.
  std::vector<json::Value> Held;            ///< With --html.
  bool First = true;
};

void Output::add(const KernelProfile &K, const SweepResult &R) {
  if (!HTML.empty()) {
    Held.push_back(kernelToJSON(K, R));
  } else if (JSON) {
    if (!Stream)
      Stream.emplace(outs(), GPU, Tool);
    Stream->add(kernelToJSON(K, R));
  }
  if (JSON)
    return;
  if (CSV)
    printCSV(K, R, outs());
  else
    printText(K, R);
}

void Output::printText(const KernelProfile &K, const SweepResult &R) {
  if (!First)
    outs() << "\n";
  First = false;
  if (!BlockOpt.empty()) {
    outs() << "kernel " << K.DisplayName << " [" << K.File << ":" << K.Line
           << "] on " << GPU.Name << "\n";
    printPrediction(R.Configs[0], GPU, outs());
  } else {
    printSweep(K, R, GPU, outs());
  }
  for (const std::string &W : K.Warnings)
    outs() << "  warning: " << W << "\n";
}

void Output::finish() {
  if (HTML.empty()) {
    if (JSON) {
      if (!Stream)
        Stream.emplace(outs(), GPU, Tool);
      Stream->finish();
    }
    return;
  }
  json::Value Report = reportToJSON(GPU, std::move(Held), Tool);
  // Atomically: a failed write leaves no partial page, and an existing page
  // as it was. The error reads "FILE: reason", as it always has.
  if (Error E = writeFileSafely(
          HTML, [&](raw_ostream &OS) { writeHTMLReport(Report, OS); }))
    fail(HTML + ": " + errorToErrorCode(std::move(E)).message());
  if (JSON)
    printJSON(Report, outs());
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  claimThreadsOption();
  cl::HideUnrelatedOptions(Cat);
  cl::ParseCommandLineOptions(argc, argv,
                              "FlipFlop: Pareto-optimal (time, energy) launch "
                              "configurations from PTX\n");
  if (printGPUInfo())
    return 0;
  checkOptions();
  Inputs In = readInputs();
  warnOutOfRange(In.GPU);
  Analysis A;
  A.PS = runPtxas(In, A.AO);
  if (DumpProfile) {
    for (const KernelProfile &K : In.Kernels)
      printProfile(K, outs());
    return 0;
  }
  A.Base = baseConfig();
  if (CSV)
    printCSVHeader(outs());
  // After the CSV header, as ever; before any other output.
  if (!BlockOpt.empty())
    A.Block = parseDims("block", BlockOpt);
  Output Out(In.GPU);
  for (KernelProfile &K : In.Kernels) {
    Out.add(K, analyseKernel(K, In, A));
    K = KernelProfile(); // Its sweep is gone too: hold one kernel at a time.
  }
  Out.finish();
  return 0;
}
