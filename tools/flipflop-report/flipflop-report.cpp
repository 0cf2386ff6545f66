//===- flipflop-report.cpp - Merge, render and summarise FlipFlop reports
//--===//
//
//   flipflop-report merge   [-o OUT.json] INPUT...   (files or directories)
//   flipflop-report html    [-o OUT.html] INPUT...
//   flipflop-report summary INPUT...
//   flipflop-report advice  [--launches K=N,...] [--launches-file F.json] INPUT...
//
// summary and html end with the application-level advice (one power limit
// or locked clock for the whole program, docs/MODEL.md "Levers, bands and
// ties"); advice prints only that.
//
// Inputs are JSON reports (docs/REPORT-SCHEMA.md); a directory stands for
// every *.flipflop.json / *.json in it. Merging is deterministic: inputs are
// read in sorted path order, kernels sorted by (GPU, name), and a kernel seen
// twice for the same GPU (an inline or template kernel in several translation
// units) is kept once -- unless it is local to its file (static, anonymous
// namespace: "file_local"), where one is kept per (GPU, name, path). A file
// found in a directory that cannot be read or is not a valid report is
// skipped with a warning (one bad file does not lose a build's reports); a
// file named on the command line must be valid.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Report/AppAdvice.h"
#include "flipflop/Report/HTMLReport.h"
#include "flipflop/Support/BlockShape.h"
#include "flipflop/Support/Units.h"
#include "flipflop/Support/WriteFile.h"
#include "flipflop/Report/JSONReport.h"
#include "flipflop/Report/Picks.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using namespace flipflop;

static cl::OptionCategory Cat("flipflop-report options");
static cl::opt<std::string> Command(cl::Positional, cl::Required,
                                    cl::desc("<merge|html|summary|advice>"),
                                    cl::cat(Cat));
static cl::list<std::string> Inputs(cl::Positional, cl::OneOrMore,
                                    cl::desc("<report.json or directory>..."),
                                    cl::cat(Cat));
static cl::opt<std::string> Output("o", cl::desc("Output file ('-': stdout)"),
                                   cl::value_desc("file"), cl::init("-"),
                                   cl::cat(Cat));

static cl::list<std::string>
    LaunchesOpt("launches",
                cl::desc("Launches per kernel for the application-level "
                         "advice: KERNEL=N[,KERNEL=N...] (mangled name, "
                         "demangled name or function name); repeatable. "
                         "Kernels not named count once"),
                cl::value_desc("K=N,..."), cl::cat(Cat));
static cl::opt<std::string>
    LaunchesFile("launches-file",
                 cl::desc("Launches per kernel as a JSON object "
                          "{\"KERNEL\": N, ...}"),
                 cl::value_desc("file.json"), cl::cat(Cat));
static cl::opt<double>
    Slowdown("slowdown",
             cl::desc("Application-level advice: least energy within this "
                      "slowdown (percent) of the default setting"),
             cl::init(5), cl::cat(Cat));
static cl::opt<std::string>
    AdviceAt("advice-at",
             cl::desc("The pick whose block and register cap each kernel is "
                      "taken to launch for the application-level advice"),
             cl::init("occupancy_heuristic"), cl::cat(Cat));

static const char *ToolName = "flipflop-report";

[[noreturn]] static void fail(const Twine &Msg) {
  WithColor::error(errs(), ToolName) << Msg << "\n";
  exit(1);
}

struct InputFile {
  std::string Path;
  bool FromDirectory; ///< Found by listing a directory, not named.
};

/// Expands directories into their report files, sorted.
static std::vector<InputFile> expandInputs() {
  std::vector<InputFile> Files;
  for (const std::string &In : Inputs) {
    if (!sys::fs::is_directory(In)) {
      Files.push_back({In, false});
      continue;
    }
    std::error_code EC;
    std::vector<std::string> Found;
    for (sys::fs::directory_iterator It(In, EC), End; It != End && !EC;
         It.increment(EC))
      if (StringRef(It->path()).ends_with(".json"))
        Found.push_back(It->path());
    if (EC)
      fail(In + ": " + EC.message());
    llvm::sort(Found);
    for (std::string &F : Found)
      Files.push_back({std::move(F), true});
  }
  return Files;
}

/// Reads one report; every error names the file.
static Expected<Report> readReport(StringRef Path) {
  auto Err = [&](const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), Path + ": " + Msg);
  };
  auto Buf = Path == "-" ? MemoryBuffer::getSTDIN() : MemoryBuffer::getFile(Path);
  if (!Buf)
    return Err(Buf.getError().message());
  // An optimization record (-fsave-optimization-record) is YAML: say what
  // was given and what is wanted, not a JSON parse error.
  StringRef Text = (*Buf)->getBuffer().ltrim();
  if (Path.ends_with(".yaml") || Path.ends_with(".yml") ||
      Text.starts_with("---") || Text.starts_with("--- !"))
    return Err("an optimization record (YAML), not a FlipFlop report; "
               "flipflop-report reads the JSON reports written with "
               "FLIPFLOP_REPORT_DIR or flipflop-ptx --json (read remarks "
               "with llvm-remarkutil)");
  // Checks the schema (version, indices in range) as it reads.
  Expected<Report> R = parseReport((*Buf)->getBuffer());
  if (!R)
    return Err(toString(R.takeError()));
  return R;
}

/// Reads every input: a bad file named on the command line is an error, one
/// found in a directory is skipped with a one-line warning.
static std::vector<Report> readInputs(const std::vector<InputFile> &Files) {
  std::vector<Report> Out;
  for (const InputFile &F : Files) {
    Expected<Report> R = readReport(F.Path);
    if (R) {
      Out.push_back(std::move(*R));
      continue;
    }
    std::string Msg = toString(R.takeError());
    if (!F.FromDirectory)
      fail(Msg);
    // One line, whatever the parser said.
    std::replace(Msg.begin(), Msg.end(), '\n', ' ');
    WithColor::warning(errs(), ToolName) << Msg << "; skipped\n";
  }
  return Out;
}

/// The file a kernel local to its file is keyed by in a merge: its "path"
/// (normalised absolute), else its "file" without "." and ".."; "" for
/// an ordinary kernel. Reports written before "file_local" are read by the
/// kernel's mangled name (parseReport).
static std::string fileLocalKey(const ReportKernel &K) {
  if (!K.FileLocal)
    return "";
  if (!K.Path.empty())
    return K.Path;
  SmallString<256> F(K.File);
  sys::path::remove_dots(F, /*remove_dot_dot=*/true);
  // Never empty: a file-local kernel with no file is still not merged with
  // an ordinary one.
  return "file:" + std::string(F);
}

/// Merges the inputs into one report: the first report's "gpu", every GPU
/// in "gpus" when there are several, each kernel once with its "gpu".
static Report merge(std::vector<Report> &Reports) {
  // Key: (GPU, name, file). The file is empty for an ordinary kernel (the
  // same kernel from several translation units is kept once) and the
  // kernel's path for one local to its file (static, anonymous namespace):
  // two files' kernels of the same mangled name are different kernels.
  std::map<std::tuple<std::string, std::string, std::string>, ReportKernel>
      Kernels;
  Report Out;
  Out.SchemaVersion = ReportSchemaVersion;
  Out.Tool = "flipflop-report";
  std::set<std::string> GPUs;
  for (Report &R : Reports) {
    std::string GPU = R.GPU ? R.GPU->Name : "";
    if (R.GPU && !Out.GPU)
      Out.GPU = std::move(R.GPU);
    GPUs.insert(GPU);
    for (ReportKernel &K : R.Kernels) {
      K.GPU = GPU;
      std::string Key = fileLocalKey(K);
      Kernels.try_emplace({GPU, K.Name, std::move(Key)}, std::move(K));
    }
  }
  if (!Out.GPU)
    Out.GPU = ReportGPU(); // Written as "gpu": {}.
  if (GPUs.size() > 1)
    Out.GPUs.assign(GPUs.begin(), GPUs.end());
  for (auto &KV : Kernels)
    Out.Kernels.push_back(std::move(KV.second));
  return Out;
}

static void summary(const Report &R, raw_ostream &OS) {
  const auto &PickLabels = ReportPickLabels;
  for (const ReportKernel &K : R.Kernels) {
    OS << (K.DisplayName.empty() ? "?" : K.DisplayName);
    if (!K.File.empty()) {
      OS << "  [" << sys::path::filename(K.File);
      if (K.Line)
        OS << ":" << K.Line;
      OS << "]";
    }
    if (K.GPU)
      OS << "  " << *K.GPU;
    OS << "\n";
    OS << format("  %-22s %-14s %-13s %7s %14s %14s  %s\n", "pick", "block",
                 "min-blocks", "limit", "time", "energy",
                 "change vs occupancy heuristic");
    const ReportConfig *H = K.pick(ReportPickNames[NumReportPicks - 1]);
    double HT = H ? H->TimeS : 0;
    double HE = H ? H->EnergyJ : 0;
    for (size_t I = 0; I < std::size(PickLabels); ++I) {
      const char *Key = ReportPickNames[I], *Label = PickLabels[I];
      const ReportConfig *C = K.pick(Key);
      if (!C)
        continue;
      std::string Block = blockShapeText(C->Block);
      double T = C->TimeS;
      double E = C->EnergyJ;
      OS << format("  %-22s block %-8s min-blocks %-2lld %5.0f W %11.4g us %11.4g mJ",
                   Label, Block.c_str(), (long long)C->MinBlocksPerSM,
                   C->PowerLimitW, T * 1e6, E * 1e3);
      if (StringRef(Key) != "occupancy_heuristic" && HT > 0 && HE > 0)
        OS << format("  %+6.1f%% energy %+6.1f%% time", 100 * (E - HE) / HE,
                     100 * (T - HT) / HT);
      OS << "\n";
      // The lever, how to set it, the bands, and a tie.
      auto RecIt = K.Recommendations.find(Key);
      const ReportRecommendation *Rec =
          RecIt == K.Recommendations.end() ? nullptr : &RecIt->second;
      StringRef Lever = C->Lever.empty() ? "none" : StringRef(C->Lever);
      OS << "  " << std::string(22, ' ') << " lever: ";
      if (Lever == "none")
        OS << "none (default power limit, clocks not locked)";
      else if (Lever == "power_limit")
        OS << format("power limit %.0f W", C->LeverValue);
      else
        OS << format("SM clock locked at %.0f MHz", C->LeverValue);
      if (Rec && !Rec->Command.empty())
        OS << ": " << Rec->Command << " (" << Rec->NVML
           << "); needs root/admin";
      // A band in one unit, the one its upper end fits (Units.h); \p Scale
      // takes it to the first unit of \p Units.
      auto Band = [&](const std::optional<std::array<double, 2>> &B,
                      double Scale, ArrayRef<const char *> Units) {
        if (!B)
          return std::string("? ") + Units[0];
        unsigned U = unitSteps((*B)[1] * Scale, Units.size());
        double F = Scale / std::pow(1000.0, U);
        return formatv("{0}-{1} {2}", format("%.4g", (*B)[0] * F),
                       format("%.4g", (*B)[1] * F), Units[U])
            .str();
      };
      OS << "; band: time " << Band(C->TimeBandS, 1e6, {"us", "ms", "s"})
         << ", energy " << Band(C->EnergyBandJ, 1e6, {"uJ", "mJ", "J"})
         << ", power " << Band(C->PowerBandW, 1, {"W"});
      if (Rec && !Rec->Note.empty())
        OS << "; " << Rec->Note;
      OS << "\n";
      if (auto T = K.Ties.find(Key); T != K.Ties.end())
        OS << "  " << std::string(22, ' ')
           << format(" tie: the model's optimum (config #%lld) is better by "
                     "%.1f%%, inside the +/-%.0f%% comparison band; the "
                     "less intrusive configuration is recommended\n",
                     (long long)T->second.ModelOptimum,
                     T->second.AdvantagePct, T->second.BandPct);
    }
    if (!K.Explanation.empty())
      OS << "  why: " << K.Explanation << "\n";
    OS << "\n";
  }
}

/// Writes the output: stdout, a device written in place, or a file
/// replaced atomically (writeFileSafely).
static void emit(function_ref<void(raw_ostream &)> Write) {
  if (Error E = writeFileSafely(Output, Write))
    fail(toString(std::move(E)));
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Cat);
  cl::ParseCommandLineOptions(argc, argv,
                              "FlipFlop report tool: merge reports, render "
                              "HTML, print a summary\n");
  std::vector<InputFile> Files = expandInputs();
  if (Files.empty())
    fail("no report found in the inputs");
  std::vector<Report> Reports = readInputs(Files);
  if (Reports.empty())
    fail("no readable report in the inputs");
  Report Merged =
      Files.size() == 1 ? std::move(Reports.front()) : merge(Reports);
  // Application-level advice: launch counts from the user.
  AppAdviceOptions AO;
  for (const std::string &L : LaunchesOpt)
    if (Error E = parseLaunchCounts(L, AO.Launches))
      fail("--launches: " + toString(std::move(E)));
  if (!LaunchesFile.empty())
    if (Error E = readLaunchCountsFile(LaunchesFile, AO.Launches))
      fail("--launches-file: " + toString(std::move(E)));
  if (!(Slowdown >= 0) || Slowdown > 1000)
    fail("--slowdown expects a percentage in 0..1000");
  AO.SlowdownBudgetPct = Slowdown;
  AO.At = AdviceAt;
  bool KnownPick = false;
  for (const char *P : ReportPickNames)
    KnownPick |= AO.At == P;
  if (!KnownPick)
    fail("--advice-at expects one of " +
         join(std::begin(ReportPickNames), std::end(ReportPickNames), ", "));
  std::vector<std::string> Unmatched;
  std::vector<AppAdvice> Advice = computeAppAdvice(Merged, AO, &Unmatched);
  if (Command == "summary" || Command == "html" || Command == "advice")
    for (const std::string &U : Unmatched)
      WithColor::warning(errs(), ToolName)
          << "launch count for '" << U << "': no such kernel in the reports\n";
  if (Command == "merge")
    emit([&](raw_ostream &OS) { printJSON(toJSON(Merged), OS); });
  else if (Command == "html")
    emit([&](raw_ostream &OS) { writeHTMLReport(Merged, OS, AO); });
  else if (Command == "summary")
    emit([&](raw_ostream &OS) {
      summary(Merged, OS);
      printAppAdvice(Advice, OS);
    });
  else if (Command == "advice")
    emit([&](raw_ostream &OS) { printAppAdvice(Advice, OS); });
  else
    fail("unknown command '" + Command +
         "' (expected merge, html, summary or advice)");
  return 0;
}
