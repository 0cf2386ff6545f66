//===- Options.cpp - Command line, environment and config file ------------===//
#include "flipflop/Plugin/Options.h"
#include "flipflop/Target/GPUDatabase.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <functional>
#ifdef LLVM_ON_UNIX
#include <unistd.h>
#endif

using namespace llvm;

namespace flipflop {
namespace {

cl::OptionCategory FlipFlopCat("FlipFlop options");

cl::opt<std::string> ClGPU("flipflop-gpu", cl::cat(FlipFlopCat),
                           cl::desc("Target GPU: a database name, or a spec "
                                    "file (.json); default: from sm_XX"));
cl::opt<std::string> ClObjective(
    "flipflop-objective", cl::cat(FlipFlopCat),
    cl::desc("energy | time | edp | energy-within:<percent>"));
cl::opt<std::string> ClPowerRange("flipflop-power-range", cl::cat(FlipFlopCat),
                                  cl::desc("Power limits to consider, MIN:MAX watts"));
cl::opt<std::string> ClPowerSteps("flipflop-power-steps", cl::cat(FlipFlopCat),
                                  cl::desc("Number of power limits considered"));
cl::opt<std::string> ClProblemSize("flipflop-problem-size", cl::cat(FlipFlopCat),
                                   cl::desc("Threads of work per launch"));
cl::opt<std::string> ClReportDir("flipflop-report-dir", cl::cat(FlipFlopCat),
                                 cl::desc("Write a JSON report per device compile here"));
cl::opt<std::string> ClVerbosity("flipflop-verbosity", cl::cat(FlipFlopCat),
                                 cl::desc("0: summary, 1: +explanation, 2: +Pareto set"));
cl::opt<std::string> ClPtxas("flipflop-ptxas", cl::cat(FlipFlopCat),
                             cl::desc("Run ptxas for exact registers: off "
                                      "(default), on (search), or a path"));
cl::opt<std::string> ClPTX("flipflop-ptx", cl::cat(FlipFlopCat),
                           cl::desc("Analyse the emitted PTX: on | off"));
cl::opt<std::string> ClApplyBounds(
    "flipflop-apply-bounds", cl::cat(FlipFlopCat),
    cl::desc("Write the recommended launch bounds into kernels: on | off"));
cl::opt<std::string> ClArgs("flipflop-args", cl::cat(FlipFlopCat),
                            cl::desc("Kernel argument values for trip counts: "
                                     "INDEX=VALUE[,INDEX=VALUE...]"));
cl::opt<std::string> ClDefaultTrip("flipflop-default-trip", cl::cat(FlipFlopCat),
                                   cl::desc("Trip count assumed for unresolved loops"));
cl::opt<std::string> ClDynamicShared(
    "flipflop-dynamic-shared", cl::cat(FlipFlopCat),
    cl::desc("Dynamic shared memory of a block, for kernels that use it: "
             "BYTES, PER*t (bytes per thread) or BYTES+PER*t"));
cl::opt<std::string> ClLaunch(
    "flipflop-launch", cl::cat(FlipFlopCat),
    cl::desc("Launches to predict into the report: "
             "[GPU@]BX[,BY[,BZ]]:GX[,GY[,GZ]][;...]"));
cl::opt<std::string> ClWarnings(
    "flipflop-warnings", cl::cat(FlipFlopCat),
    cl::desc("FlipFlop's own problems as clang warnings: on (default), off, "
             "error (fail the compile)"));
cl::opt<std::string> ClConfig("flipflop-config", cl::cat(FlipFlopCat),
                              cl::desc("Config file (JSON)"));

bool parseBool(StringRef S, bool &Out) {
  std::string L = S.trim().lower();
  if (L == "1" || L == "on" || L == "true" || L == "yes") {
    Out = true;
    return true;
  }
  if (L == "0" || L == "off" || L == "false" || L == "no") {
    Out = false;
    return true;
  }
  return false;
}

template <typename T> bool parseNumber(StringRef S, T &Out) {
  S = S.trim();
  if constexpr (std::is_floating_point_v<T>) {
    double D;
    if (S.getAsDouble(D) || !(D >= 0))
      return false;
    Out = D;
    return true;
  } else {
    unsigned long long V;
    if (S.getAsInteger(10, V))
      return false;
    Out = static_cast<T>(V);
    return true;
  }
}

/// "X[,Y[,Z]]" with positive integers.
bool parseDims(StringRef S, std::array<unsigned, 3> &D) {
  SmallVector<StringRef, 3> Parts;
  S.split(Parts, ',');
  if (Parts.empty() || Parts.size() > 3)
    return false;
  D = {1, 1, 1};
  for (size_t I = 0; I < Parts.size(); ++I)
    if (Parts[I].trim().getAsInteger(10, D[I]) || D[I] == 0)
      return false;
  return true;
}

/// One option: its three sources and how to apply a textual value.
struct Setting {
  const char *Name;      ///< As in the config file and in messages.
  cl::opt<std::string> *Cl;
  const char *Env;
  std::function<bool(PluginOptions &, StringRef)> Apply;
  const char *Expect;    ///< What a valid value looks like.
  std::string PluginOptions::*From = nullptr;
  /// Names a program to run or a place to write, or changes the generated
  /// code: refused from a config file found by searching (docs/SECURITY.md).
  bool Privileged = false;
};

/// "objective": parsed into locals, so a bad value leaves it as it was.
bool applyObjective(PluginOptions &O, StringRef V) {
  Objective Obj = O.Obj;
  double Budget = O.BudgetPct;
  if (!parseObjective(V.trim().str(), Obj, Budget))
    return false;
  O.Obj = Obj;
  O.BudgetPct = Budget;
  return true;
}

/// "power_range": MIN:MAX in watts.
bool applyPowerRange(PluginOptions &O, StringRef V) {
  auto [A, B] = V.split(':');
  double Lo, Hi;
  if (!parseNumber(A, Lo) || !parseNumber(B, Hi) || Lo > Hi)
    return false;
  O.PowerMinW = Lo;
  O.PowerMaxW = Hi;
  return true;
}

/// "ptxas": on, off or a path.
bool applyPtxas(PluginOptions &O, StringRef V) {
  std::string T = V.trim().str();
  bool B;
  if (parseBool(T, B))
    O.Ptxas = B ? "" : "off"; // "" = search for it
  else
    O.Ptxas = T; // a path
  return true;
}

/// "args": INDEX=VALUE[,INDEX=VALUE...].
bool applyArgs(PluginOptions &O, StringRef V) {
  SmallVector<StringRef, 4> Parts;
  V.split(Parts, ',', -1, /*KeepEmpty=*/false);
  auto Values = O.Facts.ArgValues;
  for (StringRef P : Parts) {
    auto [I, Val] = P.split('=');
    unsigned Idx;
    long long X;
    if (I.trim().getAsInteger(10, Idx) || Val.trim().getAsInteger(10, X))
      return false;
    Values[Idx] = X;
  }
  O.Facts.ArgValues = std::move(Values);
  return true;
}

/// "launch": [GPU@]BX[,BY[,BZ]]:GX[,GY[,GZ]][;...].
bool applyLaunch(PluginOptions &O, StringRef V) {
  SmallVector<StringRef, 4> Parts;
  V.split(Parts, ';', -1, /*KeepEmpty=*/false);
  std::vector<LaunchRequest> Out;
  for (StringRef P : Parts) {
    const StringRef Whole = P.trim();
    LaunchRequest L;
    if (P.contains('@')) {
      auto [G, Rest] = P.split('@');
      L.GPU = G.trim().str();
      P = Rest;
    }
    auto [B, G] = P.split(':');
    if (!parseDims(B, L.Block) || !parseDims(G, L.Grid))
      return false;
    // A GPU no one knows is said here (not only as an error entry of the
    // JSON report), and the option keeps its default: no launch, rather
    // than a problem taken from launches the user did not all mean.
    if (!L.GPU.empty()) {
      if (Expected<GPUSpec> Named = resolveGPU(L.GPU, ""); !Named) {
        O.Errors.push_back("option 'launch': '" + Whole.str() +
                           "': " + toString(Named.takeError()));
        O.Launches.clear();
        O.Facts.Grid = {0, 0, 0};
        return true;
      }
    }
    Out.push_back(L);
  }
  O.Launches = std::move(Out);
  // One grid for every launch: loops whose bounds read gridDim are counted
  // at it (LaunchFacts::Grid).
  O.Facts.Grid = {0, 0, 0};
  if (!O.Launches.empty() &&
      llvm::all_of(O.Launches, [&](const LaunchRequest &L) {
        return L.Grid == O.Launches.front().Grid;
      }))
    O.Facts.Grid = O.Launches.front().Grid;
  return !O.Launches.empty();
}

/// "warnings": on, off or error.
bool applyWarnings(PluginOptions &O, StringRef V) {
  std::string L = V.trim().lower();
  bool B;
  if (L == "error")
    O.Warnings = WarningMode::Error;
  else if (parseBool(L, B))
    O.Warnings = B ? WarningMode::On : WarningMode::Off;
  else
    return false;
  return true;
}

std::vector<Setting> settings() {
  return {
      {"gpu", &ClGPU, "FLIPFLOP_GPU",
       [](PluginOptions &O, StringRef V) {
         O.GPU = V.trim().str();
         return true;
       },
       "a GPU name or spec file", &PluginOptions::GPUFrom},
      {"objective", &ClObjective, "FLIPFLOP_OBJECTIVE",
       applyObjective,
       "energy, time, edp or energy-within:<percent>",
       &PluginOptions::ObjectiveFrom},
      {"power_range", &ClPowerRange, "FLIPFLOP_POWER_RANGE",
       applyPowerRange,
       "MIN:MAX in watts"},
      {"power_steps", &ClPowerSteps, "FLIPFLOP_POWER_STEPS",
       [](PluginOptions &O, StringRef V) {
         unsigned N;
         if (!parseNumber(V, N) || N < 1 || N > 64)
           return false;
         O.PowerSteps = N;
         return true;
       },
       "an integer 1..64"},
      {"problem_size", &ClProblemSize, "FLIPFLOP_PROBLEM_SIZE",
       [](PluginOptions &O, StringRef V) {
         uint64_t N;
         if (!parseNumber(V, N) || N < 1 || N > (uint64_t(1) << 50))
           return false;
         O.ProblemSize = N;
         O.Facts.TotalThreads = N;
         return true;
       },
       "a thread count from 1 to 2^50"},
      {"report_dir", &ClReportDir, "FLIPFLOP_REPORT_DIR",
       [](PluginOptions &O, StringRef V) {
         O.ReportDir = V.trim().str();
         return true;
       },
       "a directory", &PluginOptions::ReportDirFrom, /*Privileged=*/true},
      {"verbosity", &ClVerbosity, "FLIPFLOP_VERBOSITY",
       [](PluginOptions &O, StringRef V) {
         unsigned N;
         if (!parseNumber(V, N) || N > 2)
           return false;
         O.Verbosity = N;
         return true;
       },
       "0, 1 or 2"},
      {"ptxas", &ClPtxas, "FLIPFLOP_PTXAS",
       applyPtxas,
       "on, off or a path", nullptr, /*Privileged=*/true},
      {"ptx_analysis", &ClPTX, "FLIPFLOP_PTX",
       [](PluginOptions &O, StringRef V) { return parseBool(V, O.PTXAnalysis); },
       "on or off"},
      {"apply_bounds", &ClApplyBounds, "FLIPFLOP_APPLY_BOUNDS",
       [](PluginOptions &O, StringRef V) { return parseBool(V, O.ApplyBounds); },
       "on or off", nullptr, /*Privileged=*/true},
      {"args", &ClArgs, "FLIPFLOP_ARGS",
       applyArgs,
       "INDEX=VALUE[,INDEX=VALUE...]"},
      {"dynamic_shared", &ClDynamicShared, "FLIPFLOP_DYNAMIC_SHARED",
       [](PluginOptions &O, StringRef V) {
         std::optional<DynamicSharedSize> S = parseDynamicShared(V.str());
         if (!S)
           return false;
         O.DynamicShared = *S;
         return true;
       },
       "BYTES, PER*t or BYTES+PER*t"},
      {"launch", &ClLaunch, "FLIPFLOP_LAUNCH",
       applyLaunch,
       "[GPU@]BX[,BY[,BZ]]:GX[,GY[,GZ]][;...]"},
      {"default_trip", &ClDefaultTrip, "FLIPFLOP_DEFAULT_TRIP",
       [](PluginOptions &O, StringRef V) {
         // Above MaxPlausibleWorkPerThread a guessed loop makes every
         // prediction implausible; far above it counts overflowed (issue 17).
         double T;
         if (!parseNumber(V, T) || !(T >= 1 && T <= MaxPlausibleWorkPerThread))
           return false;
         O.Facts.DefaultTrip = T;
         return true;
       },
       "a number from 1 to 1e9"},
      {"warnings", &ClWarnings, "FLIPFLOP_WARNINGS",
       applyWarnings,
       "on, off or error"},
  };
}

/// Largest config file read (a config is a few lines; /dev/zero is not).
constexpr uint64_t MaxConfigBytes = 64 * 1024;

/// Why \p Path may not be read as a config file, or "" when it may: it must
/// be a regular file of at most MaxConfigBytes; one found by searching must
/// also be owned by the user and not writable by group or others.
std::string configProblem(StringRef Path, bool Searched) {
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(Path, St))
    return EC.message();
  if (St.type() != sys::fs::file_type::regular_file)
    return "not a regular file";
  if (St.getSize() > MaxConfigBytes)
    return "larger than 64 KiB";
#ifdef LLVM_ON_UNIX
  if (Searched && St.getUser() != ::getuid())
    return "owned by another user";
#endif
  if (Searched &&
      (St.permissions() & (sys::fs::group_write | sys::fs::others_write)))
    return "writable by group or others";
  return "";
}

/// Finds the config file: FLIPFLOP_CONFIG / -flipflop-config (trusted: the
/// user named it), else .flipflop.json in the source's directory or one
/// above it, up to the project root (a directory with .git) or the user's
/// home. \p Searched is set for the second kind; a candidate that may not
/// be read is skipped with a line in \p Errors.
std::string findConfig(StringRef SourceFile, bool &Searched,
                       std::vector<std::string> &Errors) {
  Searched = false;
  if (ClConfig.getNumOccurrences())
    return ClConfig;
  if (auto E = sys::Process::GetEnv("FLIPFLOP_CONFIG"); E && !E->empty())
    return *E;
  if (sys::Process::GetEnv("FLIPFLOP_NO_CONFIG_SEARCH"))
    return "";
  Searched = true;
  SmallString<256> Home;
  sys::path::home_directory(Home);
  SmallString<256> Dir(SourceFile);
  sys::fs::make_absolute(Dir);
  sys::path::remove_filename(Dir);
  for (unsigned I = 0; I < 64 && !Dir.empty(); ++I) {
    SmallString<256> Candidate(Dir);
    sys::path::append(Candidate, ".flipflop.json");
    if (sys::fs::exists(Candidate)) {
      std::string Why = configProblem(Candidate, /*Searched=*/true);
      if (Why.empty())
        return std::string(Candidate);
      Errors.push_back("config file '" + std::string(Candidate) +
                       "' ignored: " + Why);
    }
    SmallString<256> Git(Dir);
    sys::path::append(Git, ".git");
    if (sys::fs::exists(Git) || (!Home.empty() && Dir == Home))
      break; // The project root or the user's home: no further up.
    StringRef Parent = sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent;
  }
  return "";
}

} // namespace

PluginOptions resolveOptions(StringRef SourceFile) {
  PluginOptions O;
  std::vector<Setting> All = settings();
  // Config-file values, as text.
  std::map<std::string, std::string> FromConfig;
  bool Searched = false;
  O.ConfigFile = findConfig(SourceFile, Searched, O.Errors);
  std::string Unreadable =
      O.ConfigFile.empty() ? "" : configProblem(O.ConfigFile, false);
  if (!Unreadable.empty()) {
    O.Errors.push_back("cannot read config file '" + O.ConfigFile +
                       "': " + Unreadable);
  } else if (!O.ConfigFile.empty()) {
    auto Buf = MemoryBuffer::getFile(O.ConfigFile);
    if (!Buf) {
      O.Errors.push_back("cannot read config file '" + O.ConfigFile +
                         "': " + Buf.getError().message());
    } else if (auto V = json::parse((*Buf)->getBuffer()); !V) {
      O.Errors.push_back("config file '" + O.ConfigFile +
                         "': " + toString(V.takeError()));
    } else if (const json::Object *Obj = V->getAsObject()) {
      for (const auto &KV : *Obj) {
        std::string Key = KV.first.str();
        const Setting *Known = nullptr;
        for (const Setting &S : All)
          if (Key == S.Name)
            Known = &S;
        if (!Known) {
          O.Errors.push_back("config file '" + O.ConfigFile +
                             "': unknown option '" + Key + "'");
          continue;
        }
        if (Searched && Known->Privileged) {
          O.Errors.push_back(
              "config file '" + O.ConfigFile + "': option '" + Key +
              "' refused: a config file found in the source tree may not "
              "name a program, a place to write or change the generated "
              "code; set it with -mllvm, FLIPFLOP_" + StringRef(Key).upper() +
              " or FLIPFLOP_CONFIG (docs/SECURITY.md)");
          continue;
        }
        std::string Text;
        if (auto Str = KV.second.getAsString())
          Text = Str->str();
        else if (auto B = KV.second.getAsBoolean())
          Text = *B ? "on" : "off";
        else if (auto I = KV.second.getAsInteger())
          Text = std::to_string(*I);
        else if (auto D = KV.second.getAsNumber())
          Text = formatv("{0}", *D).str();
        else {
          O.Errors.push_back("config file '" + O.ConfigFile + "': option '" +
                             Key + "' must be a string, number or boolean");
          continue;
        }
        FromConfig[Key] = Text;
      }
    } else {
      O.Errors.push_back("config file '" + O.ConfigFile +
                         "': expected a JSON object");
    }
  }
  for (const Setting &S : All) {
    std::string Value, From;
    if (S.Cl->getNumOccurrences()) {
      Value = *S.Cl;
      From = "cl";
    } else if (auto E = sys::Process::GetEnv(S.Env); E && !E->empty()) {
      Value = *E;
      From = "env";
    } else if (auto It = FromConfig.find(S.Name); It != FromConfig.end()) {
      Value = It->second;
      From = "config";
    } else {
      continue;
    }
    if (!S.Apply(O, Value)) {
      O.Errors.push_back("invalid value '" + Value + "' for option '" +
                         S.Name + "' (from " + From + "): expected " +
                         S.Expect);
      continue;
    }
    if (S.From)
      O.*(S.From) = From;
  }
  return O;
}

} // namespace flipflop
