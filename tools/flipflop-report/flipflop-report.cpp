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
#include "flipflop/Support/WriteFile.h"
#include "flipflop/Report/JSONReport.h"

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
static Expected<json::Value> readJSON(StringRef Path) {
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
  // Validates the schema (version, picks in range) before use.
  if (Expected<Report> R = parseReport((*Buf)->getBuffer()); !R)
    return Err(toString(R.takeError()));
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V)
    return Err(toString(V.takeError()));
  return std::move(*V);
}

/// Reads every input: a bad file named on the command line is an error, one
/// found in a directory is skipped with a one-line warning.
static std::vector<json::Value>
readInputs(const std::vector<InputFile> &Files) {
  std::vector<json::Value> Out;
  for (const InputFile &F : Files) {
    Expected<json::Value> V = readJSON(F.Path);
    if (V) {
      Out.push_back(std::move(*V));
      continue;
    }
    std::string Msg = toString(V.takeError());
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
/// kernel's mangled name.
static std::string fileLocalKey(const json::Object &K) {
  std::string Name = K.getString("name").value_or("").str();
  if (!K.getBoolean("file_local").value_or(false) &&
      !isFileLocalKernelName(Name))
    return "";
  if (auto P = K.getString("path"); P && !P->empty())
    return P->str();
  SmallString<256> F(K.getString("file").value_or(""));
  sys::path::remove_dots(F, /*remove_dot_dot=*/true);
  // Never empty: a file-local kernel with no file is still not merged with
  // an ordinary one.
  return "file:" + std::string(F);
}

/// Merges the inputs into one report.
static json::Value merge(std::vector<json::Value> &Reports) {
  // Key: (GPU, name, file). The file is empty for an ordinary kernel (the
  // same kernel from several translation units is kept once) and the
  // kernel's path for one local to its file (static, anonymous namespace):
  // two files' kernels of the same mangled name are different kernels.
  std::map<std::tuple<std::string, std::string, std::string>, json::Value>
      Kernels;
  json::Value FirstGPU = json::Object();
  std::set<std::string> GPUs;
  bool First = true;
  for (json::Value &V : Reports) {
    json::Object *Top = V.getAsObject();
    std::string GPU;
    if (json::Object *G = Top->getObject("gpu")) {
      GPU = G->getString("name").value_or("").str();
      if (First)
        FirstGPU = json::Value(json::Object(*G));
      First = false;
    }
    GPUs.insert(GPU);
    if (json::Array *KA = Top->getArray("kernels"))
      for (json::Value &K : *KA) {
        json::Object *KO = K.getAsObject();
        if (!KO)
          continue;
        std::string Name = KO->getString("name").value_or("").str();
        (*KO)["gpu"] = GPU;
        Kernels.try_emplace({GPU, Name, fileLocalKey(*KO)}, std::move(K));
      }
  }
  json::Array KA;
  for (auto &KV : Kernels)
    KA.push_back(std::move(KV.second));
  json::Object Out;
  Out["schema_version"] = int64_t(ReportSchemaVersion);
  Out["tool"] = "flipflop-report";
  Out["gpu"] = std::move(FirstGPU);
  if (GPUs.size() > 1) {
    json::Array Names;
    for (const std::string &G : GPUs)
      Names.push_back(G);
    Out["gpus"] = std::move(Names);
  }
  Out["kernels"] = std::move(KA);
  return json::Value(std::move(Out));
}

static void summary(const json::Value &V, raw_ostream &OS) {
  const json::Object *Top = V.getAsObject();
  const json::Array *Kernels = Top->getArray("kernels");
  if (!Kernels)
    return;
  static const std::pair<const char *, const char *> PickNames[] = {
      {"fastest", "fastest"},
      {"least_energy", "least energy"},
      {"energy_within_budget", "energy within budget"},
      {"best_edp", "best energy-delay"},
      {"occupancy_heuristic", "occupancy heuristic"}};
  for (const json::Value &KV : *Kernels) {
    const json::Object *K = KV.getAsObject();
    const json::Array *Configs = K ? K->getArray("configs") : nullptr;
    const json::Object *Picks = K ? K->getObject("picks") : nullptr;
    if (!K || !Configs || !Picks)
      continue;
    OS << K->getString("display_name").value_or("?");
    if (auto F = K->getString("file"); F && !F->empty())
      {
        OS << "  [" << sys::path::filename(*F);
        if (int64_t Line = K->getInteger("line").value_or(0))
          OS << ":" << Line;
        OS << "]";
      }
    if (auto G = K->getString("gpu"))
      OS << "  " << *G;
    OS << "\n";
    auto Cfg = [&](StringRef Pick) -> const json::Object * {
      auto I = Picks->getInteger(Pick);
      return I && *I >= 0 && size_t(*I) < Configs->size()
                 ? (*Configs)[*I].getAsObject()
                 : nullptr;
    };
    OS << format("  %-22s %-14s %-13s %7s %14s %14s  %s\n", "pick", "block",
                 "min-blocks", "limit", "time", "energy",
                 "change vs occupancy heuristic");
    const json::Object *H = Cfg("occupancy_heuristic");
    double HT = H ? H->getNumber("time_s").value_or(0) : 0;
    double HE = H ? H->getNumber("energy_j").value_or(0) : 0;
    for (auto &[Key, Label] : PickNames) {
      const json::Object *C = Cfg(Key);
      if (!C)
        continue;
      const json::Array *B = C->getArray("block");
      std::string Block;
      if (B && B->size() == 3) {
        Block = std::to_string((*B)[0].getAsInteger().value_or(0));
        if ((*B)[1].getAsInteger().value_or(1) > 1 || (*B)[2].getAsInteger().value_or(1) > 1)
          Block += "x" + std::to_string((*B)[1].getAsInteger().value_or(1));
        if ((*B)[2].getAsInteger().value_or(1) > 1)
          Block += "x" + std::to_string((*B)[2].getAsInteger().value_or(1));
      }
      double T = C->getNumber("time_s").value_or(0);
      double E = C->getNumber("energy_j").value_or(0);
      OS << format("  %-22s block %-8s min-blocks %-2lld %5.0f W %11.4g us %11.4g mJ",
                   Label, Block.c_str(),
                   (long long)C->getInteger("min_blocks_per_sm").value_or(0),
                   C->getNumber("power_limit_w").value_or(0), T * 1e6, E * 1e3);
      if (StringRef(Key) != "occupancy_heuristic" && HT > 0 && HE > 0)
        OS << format("  %+6.1f%% energy %+6.1f%% time", 100 * (E - HE) / HE,
                     100 * (T - HT) / HT);
      OS << "\n";
      // The lever, how to set it, the bands, and a tie.
      const json::Object *Rec =
          K->getObject("recommendations")
              ? K->getObject("recommendations")->getObject(Key)
              : nullptr;
      std::string Lever = C->getString("lever").value_or("none").str();
      OS << "  " << std::string(22, ' ') << " lever: ";
      if (Lever == "none")
        OS << "none (default power limit, clocks not locked)";
      else if (Lever == "power_limit")
        OS << format("power limit %.0f W", C->getNumber("lever_value").value_or(0));
      else
        OS << format("SM clock locked at %.0f MHz",
                     C->getNumber("lever_value").value_or(0));
      if (Rec && Rec->getString("command"))
        OS << ": " << *Rec->getString("command") << " ("
           << Rec->getString("nvml").value_or("") << "); needs root/admin";
      auto Band = [&](StringRef F, double Scale) {
        const json::Array *B = C->getArray(F);
        if (!B || B->size() != 2)
          return std::string("?");
        return formatv("{0}-{1}", format("%.4g", (*B)[0].getAsNumber().value_or(0) * Scale),
                       format("%.4g", (*B)[1].getAsNumber().value_or(0) * Scale))
            .str();
      };
      OS << "; band: time " << Band("time_band_s", 1e6) << " us, energy "
         << Band("energy_band_j", 1e3) << " mJ, power "
         << Band("power_band_w", 1) << " W";
      if (Rec && Rec->getString("note"))
        OS << "; " << *Rec->getString("note");
      OS << "\n";
      if (const json::Object *Ties = K->getObject("ties"))
        if (const json::Object *T = Ties->getObject(Key))
          OS << "  " << std::string(22, ' ')
             << format(" tie: the model's optimum (config #%lld) is better by "
                       "%.1f%%, inside the +/-%.0f%% comparison band; the "
                       "less intrusive configuration is recommended\n",
                       (long long)T->getInteger("model_optimum").value_or(-1),
                       T->getNumber("advantage_pct").value_or(0),
                       T->getNumber("band_pct").value_or(0));
    }
    if (auto Why = K->getString("explanation"); Why && !Why->empty())
      OS << "  why: " << *Why << "\n";
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
  std::vector<json::Value> Reports = readInputs(Files);
  if (Reports.empty())
    fail("no readable report in the inputs");
  json::Value Merged =
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
    fail("--advice-at expects one of fastest, least_energy, "
         "energy_within_budget, best_edp, occupancy_heuristic");
  std::vector<std::string> Unmatched;
  std::vector<AppAdvice> Advice = computeAppAdvice(Merged, AO, &Unmatched);
  if (Command == "summary" || Command == "html" || Command == "advice")
    for (const std::string &U : Unmatched)
      WithColor::warning(errs(), ToolName)
          << "launch count for '" << U << "': no such kernel in the reports\n";
  if (Command == "merge")
    emit([&](raw_ostream &OS) { printJSON(Merged, OS); });
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
