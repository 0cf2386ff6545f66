//===- AppAdvice.cpp - One power setting for a whole program -------------===//
//
// Application-level advice (AppAdvice.h; docs/MODEL.md "Levers, bands and
// ties"), computed from the JSON report alone.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Report/AppAdvice.h"
#include "flipflop/Report/Explain.h"
#include "flipflop/Report/JSONReport.h"
#include "flipflop/Report/Picks.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <cmath>
#include <set>

using namespace llvm;

namespace flipflop {

Error parseLaunchCounts(StringRef Text, std::map<std::string, double> &Out) {
  SmallVector<StringRef, 8> Pieces;
  Text.split(Pieces, ',');
  std::string Pending;
  for (StringRef Piece : Pieces) {
    if (!Pending.empty())
      Pending += ",";
    Pending += Piece.str();
    // A piece without '=' is part of a demangled name with commas.
    if (Piece.find('=') == StringRef::npos)
      continue;
    StringRef Item(Pending);
    auto [Name, Num] = Item.rsplit('=');
    Name = Name.trim();
    Num = Num.trim();
    double V = 0;
    if (Name.empty() || Num.getAsDouble(V) || !std::isfinite(V) || V < 0)
      return createStringError(inconvertibleErrorCode(),
                               "launch counts: expected KERNEL=COUNT (a "
                               "non-negative number), got '" +
                                   Item + "'");
    Out[Name.str()] = V;
    Pending.clear();
  }
  if (!StringRef(Pending).trim().empty())
    return createStringError(inconvertibleErrorCode(),
                             "launch counts: expected KERNEL=COUNT, got '" +
                                 Pending + "'");
  return Error::success();
}

Error readLaunchCountsFile(StringRef Path, std::map<std::string, double> &Out) {
  auto B = MemoryBuffer::getFile(Path);
  if (!B)
    return createStringError(B.getError(),
                             Path + ": " + B.getError().message());
  Expected<json::Value> V = json::parse((*B)->getBuffer());
  if (!V)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": " + toString(V.takeError()));
  const json::Object *O = V->getAsObject();
  if (!O)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": expected an object {\"KERNEL\": "
                                    "COUNT, ...}");
  for (const auto &KV : *O) {
    std::optional<double> N = KV.second.getAsNumber();
    if (!N || !std::isfinite(*N) || *N < 0)
      return createStringError(inconvertibleErrorCode(),
                               Path + ": launch count of '" + KV.first.str() +
                                   "' is not a non-negative number");
    Out[KV.first.str()] = *N;
  }
  return Error::success();
}

namespace {
/// A program-wide setting: lever and value (0.1 W/MHz resolution).
using SettingKey = std::pair<std::string, int64_t>;

/// The lever of a configuration; reports written before levers existed have
/// power limits only (the default limit is no lever).
SettingKey settingOf(const ReportConfig &C, double DefW) {
  std::string L = C.Lever;
  double V = C.LeverValue;
  if (L.empty()) {
    double W = C.PowerLimitW;
    if (DefW > 0 && std::fabs(W - DefW) < 0.5)
      L = "none";
    else {
      L = "power_limit";
      V = W;
    }
  }
  if (L == "none")
    V = 0;
  return {L, int64_t(std::llround(V * 10))};
}

std::string leverPhrase(const std::string &Lever, double V) {
  if (Lever == "power_limit")
    return formatv("power limit {0} W", format("%.0f", V)).str();
  if (Lever == "locked_clock")
    return formatv("SM clock locked at {0} MHz", format("%.0f", V)).str();
  return "no lever (default power limit, clocks not locked)";
}

std::string timeText(double S) {
  if (S >= 1)
    return formatv("{0} s", format("%.3g", S)).str();
  if (S >= 1e-3)
    return formatv("{0} ms", format("%.3g", S * 1e3)).str();
  return formatv("{0} us", format("%.3g", S * 1e6)).str();
}

std::string energyText(double J) {
  if (J >= 1)
    return formatv("{0} J", format("%.3g", J)).str();
  if (J >= 1e-3)
    return formatv("{0} mJ", format("%.3g", J * 1e3)).str();
  return formatv("{0} uJ", format("%.3g", J * 1e6)).str();
}

bool launchesOf(const AppAdviceOptions &O, StringRef Name, StringRef Display,
                double &N, std::string &Key) {
  for (StringRef K : {Name, Display, Display.split('(').first}) {
    auto It = O.Launches.find(K.str());
    if (!K.empty() && It != O.Launches.end()) {
      N = It->second;
      Key = It->first;
      return true;
    }
  }
  return false;
}

/// Predicted (time, energy) per setting.
using SettingFigures = std::map<SettingKey, std::pair<double, double>>;

/// The kernel's own lever: its recommended configuration (least energy
/// within the slowdown budget), if it runs long enough.
void kernelLever(const ReportKernel &K, double DefW, AppKernel &AK) {
  const ReportConfig *Rec =
      K.pick(reportPickName(Objective::EnergyWithinBudget));
  if (!Rec)
    return;
  SettingKey S = settingOf(*Rec, DefW);
  AK.Lever = S.first;
  AK.LeverValue = double(S.second) / 10;
  AK.PickTimeS = Rec->TimeS;
  if (AK.Lever == "none") {
    AK.Advice = "its recommended configuration uses no lever";
    return;
  }
  std::string Note = leverTooShortNote(AK.Lever, AK.PickTimeS);
  LeverCommand LC = leverCommand(AK.Lever, AK.LeverValue, DefW);
  AK.Acts = Note.empty();
  AK.Advice = AK.Acts ? "may set " + leverPhrase(AK.Lever, AK.LeverValue) +
                            " around its launches: " + LC.Command + " (" +
                            LC.NVML + "; needs root; undo: " + LC.Reset + ")"
                      : "its recommended " +
                            leverPhrase(AK.Lever, AK.LeverValue) +
                            " is not advised per kernel: " + Note;
}

/// Adds kernel \p K to \p A, at its O.At configuration (else the occupancy
/// heuristic's), with the figures of each setting it was predicted at (to
/// \p PerKernel) and the launch count it was given (its key to \p Used). A
/// kernel without a prediction at the default setting is left out.
void addKernel(const ReportKernel &K, const AppAdviceOptions &O, AppAdvice &A,
               std::vector<SettingFigures> &PerKernel,
               std::set<std::string> &Used) {
  if (K.Configs.empty())
    return;
  // The last pick is the occupancy heuristic's (ReportPickNames).
  const ReportConfig *H = K.pick(ReportPickNames[NumReportPicks - 1]);
  const ReportConfig *At = K.pick(O.At);
  if (!At)
    At = H;
  if (!At || !H)
    return;
  double DefW = H->PowerLimitW;
  if (A.DefaultLimitW == 0)
    A.DefaultLimitW = DefW;
  SettingFigures Settings;
  for (const ReportConfig &C : K.Configs) {
    if (!C.Valid || C.Block != At->Block ||
        C.MinBlocksPerSM != At->MinBlocksPerSM)
      continue;
    if (C.TimeS > 0 && C.EnergyJ > 0)
      Settings.try_emplace(settingOf(C, DefW), C.TimeS, C.EnergyJ);
  }
  auto None = Settings.find({"none", 0});
  if (None == Settings.end())
    return;
  AppKernel AK;
  AK.Name = K.Name;
  AK.DisplayName = K.DisplayName.empty() ? AK.Name : K.DisplayName;
  std::string Key;
  AK.LaunchesGiven = launchesOf(O, AK.Name, AK.DisplayName, AK.Launches, Key);
  if (AK.LaunchesGiven)
    Used.insert(Key);
  AK.TimeS = None->second.first;
  AK.EnergyJ = None->second.second;
  kernelLever(K, DefW, AK);
  A.Kernels.push_back(std::move(AK));
  PerKernel.push_back(std::move(Settings));
}

/// The settings every kernel was predicted at, with the program's time and
/// energy there (each kernel's weighted by its launches).
SettingFigures commonSettings(const std::vector<SettingFigures> &PerKernel,
                              const std::vector<AppKernel> &Kernels) {
  SettingFigures Totals;
  for (const auto &KV : PerKernel.front()) {
    double T = 0, E = 0;
    bool All = true;
    for (size_t I = 0; I < PerKernel.size() && All; ++I) {
      auto It = PerKernel[I].find(KV.first);
      if (It == PerKernel[I].end()) {
        All = false;
        break;
      }
      T += Kernels[I].Launches * It->second.first;
      E += Kernels[I].Launches * It->second.second;
    }
    if (All)
      Totals[KV.first] = {T, E};
  }
  return Totals;
}

/// The program's setting, from \p Totals (commonSettings()): least energy
/// within the slowdown budget, the default winning equality; a saving
/// inside the comparison band is a tie.
void chooseSetting(SettingFigures &Totals, const AppAdviceOptions &O,
                   AppAdvice &A) {
  // Settings of one program differ only in the lever.
  Bands CB = leverComparisonBands();
  A.NumSettings = Totals.size();
  auto Def = Totals.find({"none", 0});
  A.Default.TimeS = Def->second.first;
  A.Default.EnergyJ = Def->second.second;
  double Budget = A.Default.TimeS * (1 + O.SlowdownBudgetPct / 100);
  SettingKey Best = Def->first;
  double BestE = A.Default.EnergyJ;
  for (const auto &KV : Totals)
    if (KV.second.first <= Budget && KV.second.second < BestE) {
      Best = KV.first;
      BestE = KV.second.second;
    }
  A.Best.Lever = Best.first;
  A.Best.Value = double(Best.second) / 10;
  A.Best.TimeS = Totals[Best].first;
  A.Best.EnergyJ = Totals[Best].second;
  A.BandPct = CB.Energy * 100;
  if (A.Default.EnergyJ > 0 && A.Default.TimeS > 0) {
    A.SavingPct = (1 - A.Best.EnergyJ / A.Default.EnergyJ) * 100;
    A.SlowdownPct = (A.Best.TimeS / A.Default.TimeS - 1) * 100;
  }
  // A saving inside the band is a tie: no lever is least intrusive.
  A.Tie = Best.first != "none" && A.Best.EnergyJ > 0 &&
          A.Default.EnergyJ / A.Best.EnergyJ - 1 <= CB.Energy;
}

/// Each kernel's share of the program's time, and the notes on launch
/// counts not given and on kernels left out (of \p NumKernels).
void shareAndNotes(size_t NumKernels, AppAdvice &A) {
  unsigned Given = 0;
  for (AppKernel &K : A.Kernels) {
    K.Share = A.Default.TimeS > 0 ? K.Launches * K.TimeS / A.Default.TimeS : 0;
    Given += K.LaunchesGiven;
  }
  A.AnyLaunchesGiven = Given > 0;
  A.AllLaunchesGiven = Given == A.Kernels.size();
  if (!A.AllLaunchesGiven)
    A.Notes.push_back(
        formatv("launch counts not given for {0} of {1} kernel(s): each "
                "taken to run once (give --launches KERNEL=N,... or "
                "--launches-file FILE.json; shares of run time depend on "
                "them)",
                A.Kernels.size() - Given, A.Kernels.size())
            .str());
  if (A.Kernels.size() < NumKernels)
    A.Notes.push_back(formatv("{0} kernel(s) without a default-setting "
                              "prediction were left out",
                              NumKernels - A.Kernels.size())
                          .str());
}
} // namespace

std::vector<AppAdvice> computeAppAdvice(const Report &R,
                                        const AppAdviceOptions &O,
                                        std::vector<std::string> *Unmatched) {
  std::vector<AppAdvice> Out;
  std::string TopGPU = R.GPU ? R.GPU->Name : "";
  std::set<std::string> Used;
  // Kernels by GPU (a merged report may hold several).
  std::map<std::string, std::vector<const ReportKernel *>> ByGPU;
  for (const ReportKernel &K : R.Kernels)
    ByGPU[K.GPU.value_or(TopGPU)].push_back(&K);
  for (auto &[GPU, Kernels] : ByGPU) {
    AppAdvice A;
    A.GPU = GPU;
    A.At = O.At;
    std::vector<SettingFigures> PerKernel;
    for (const ReportKernel *K : Kernels)
      addKernel(*K, O, A, PerKernel, Used);
    if (A.Kernels.empty())
      continue;
    SettingFigures Totals = commonSettings(PerKernel, A.Kernels);
    chooseSetting(Totals, O, A);
    shareAndNotes(Kernels.size(), A);
    Out.push_back(std::move(A));
  }
  if (Unmatched)
    for (const auto &KV : O.Launches)
      if (!Used.count(KV.first))
        Unmatched->push_back(KV.first);
  return Out;
}

void printAppAdvice(const std::vector<AppAdvice> &Advice, raw_ostream &OS) {
  Bands AB = absoluteBands();
  for (const AppAdvice &A : Advice) {
    OS << "application-level advice for " << A.GPU << " ("
       << A.Kernels.size() << " kernel(s), " << A.NumSettings
       << " settings common to all; each kernel at its " << A.At
       << " configuration)\n";
    OS << format("  %-44s %10s %14s %8s\n", "kernel", "launches",
                 "time/launch", "share");
    for (const AppKernel &K : A.Kernels) {
      std::string Name = K.DisplayName.size() > 44
                             ? K.DisplayName.substr(0, 41) + "..."
                             : K.DisplayName;
      OS << format("  %-44s %9.0f%s %14s %7.1f%%\n", Name.c_str(),
                   K.Launches, K.LaunchesGiven ? " " : "*",
                   timeText(K.TimeS).c_str(), K.Share * 100);
    }
    if (!A.AllLaunchesGiven)
      OS << "  (* launch count not given: 1 assumed)\n";
    OS << "  default (no lever): " << timeText(A.Default.TimeS)
       << format(" +/-%.0f%%, ", AB.Time * 100) << energyText(A.Default.EnergyJ)
       << format(" +/-%.0f%%\n", AB.Energy * 100);
    LeverCommand LC = leverCommand(A.Best.Lever, A.Best.Value, A.DefaultLimitW);
    if (A.Best.Lever == "none") {
      OS << "  advice: keep the default; no power limit or locked clock "
            "saves energy within "
         << "the slowdown budget\n";
    } else if (A.Tie) {
      OS << "  advice: tie, keep the default (no lever): the best setting, "
         << leverPhrase(A.Best.Lever, A.Best.Value) << ", saves "
         << format("%.1f%%", A.SavingPct)
         << " energy, inside the "
         << format("+/-%.0f%%", A.BandPct) << " band of a comparison\n";
    } else {
      OS << "  advice: " << leverPhrase(A.Best.Lever, A.Best.Value)
         << " for the whole application: " << timeText(A.Best.TimeS)
         << format(" (%+.1f%% time), ", A.SlowdownPct)
         << energyText(A.Best.EnergyJ)
         << format(" (%+.1f%% energy; comparison band +/-%.0f%%)\n",
                   -A.SavingPct, A.BandPct);
      OS << "    apply: " << LC.Command << "   (NVML: " << LC.NVML
         << "); needs root/admin\n";
      OS << "    undo:  " << LC.Reset << "\n";
    }
    OS << "  per kernel:\n";
    for (const AppKernel &K : A.Kernels)
      OS << "    " << K.DisplayName << ": " << K.Advice << "\n";
    for (const std::string &N : A.Notes)
      OS << "  note: " << N << "\n";
  }
}

} // namespace flipflop
