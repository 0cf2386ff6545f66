//===- Recommendations.cpp - Read FlipFlop reports for flipflop-apply -----===//
#include "Recommendations.h"

#include "flipflop/Report/Picks.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Remarks/Remark.h"
#include "llvm/Remarks/RemarkFormat.h"
#include "llvm/Remarks/RemarkParser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

using namespace llvm;

namespace flipflop {
namespace apply {

/// The model's objective behind pick \p P.
static Objective objectiveOf(Pick P) {
  switch (P) {
  case Pick::Energy:
    return Objective::Energy;
  case Pick::Time:
    return Objective::Time;
  case Pick::EDP:
    return Objective::EDP;
  case Pick::Budget:
    return Objective::EnergyWithinBudget;
  }
  return Objective::Energy;
}

StringRef pickKey(Pick P) { return reportPickName(objectiveOf(P)); }

StringRef objectiveName(Pick P) {
  return flipflop::objectiveName(objectiveOf(P));
}

static Error schemaError(StringRef Origin, const Twine &Where,
                         const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           Origin + ": " + Where + ": " + What);
}

Expected<std::optional<Recommendation>>
recommendationFromReportKernel(const ReportKernel &K, bool BlockSizeAgnostic,
                               Pick P, StringRef Origin) {
  auto It = K.Picks.find(pickKey(P).str());
  if (It == K.Picks.end())
    return std::nullopt; // Analysed but nothing recommended.
  const ReportPick &Pk = It->second;
  Recommendation R;
  R.Kernel = K.Name;
  R.Origin = Origin.str();
  R.Block = Pk.Block;
  for (unsigned &D : R.Block)
    if (D == 0)
      D = 1;
  uint64_t Threads = uint64_t(R.Block[0]) * R.Block[1] * R.Block[2];
  if (Pk.Block[0] == 0 || Threads > 1024)
    return schemaError(Origin, "kernel '" + K.Name + "'",
                       "picks." + pickKey(P) + ": block of " + Twine(Threads) +
                           " threads is outside 1..1024");
  if (Pk.MinBlocksPerSM > 64)
    return schemaError(Origin, "kernel '" + K.Name + "'",
                       "picks." + pickKey(P) +
                           ": min_blocks_per_sm is above 64");
  R.MaxThreads = static_cast<unsigned>(Threads);
  R.MinBlocks = Pk.MinBlocksPerSM;
  R.BlockSizeAgnostic = BlockSizeAgnostic;
  R.FileLocal = K.FileLocal || isFileLocalKernelName(K.Name);
  R.File = K.File;
  R.Path = K.Path;
  return R;
}

/// \p P as a real path where it exists, else without "." and "..".
static std::string canonicalPath(StringRef P) {
  SmallString<256> Real;
  if (!sys::fs::real_path(P, Real))
    return std::string(Real);
  SmallString<256> N(P);
  sys::path::remove_dots(N, /*remove_dot_dot=*/true);
  return std::string(N);
}

std::optional<bool> appliesToFile(const Recommendation &R, StringRef DefFile) {
  const std::string Def = canonicalPath(DefFile);
  if (!R.Path.empty() && sys::path::is_absolute(R.Path) &&
      sys::fs::exists(R.Path))
    return canonicalPath(R.Path) == Def;
  if (!R.File.empty() && sys::path::is_absolute(R.File))
    return canonicalPath(R.File) == Def;
  if (R.File.empty()) {
    if (!R.Path.empty()) // A path of another machine, and no file.
      return canonicalPath(R.Path) == Def;
    return std::nullopt;
  }
  // Relative to a directory the report does not name: by suffix.
  SmallString<256> Rel(R.File);
  sys::path::remove_dots(Rel, /*remove_dot_dot=*/true);
  StringRef Suffix = Rel;
  while (Suffix.consume_front("../"))
    ;
  return !Suffix.empty() && (Def == Suffix || StringRef(Def).ends_with(
                                                  ("/" + Suffix).str()));
}

namespace {

std::string fmt(const char *Format, double V) {
  char Buf[64];
  snprintf(Buf, sizeof(Buf), Format, V);
  return Buf;
}

/// A percentage with two decimals below 10, one above ("0.02", "31.4").
std::string pctText(double Pct) {
  return fmt(std::fabs(Pct) < 10 ? "%.2f" : "%.1f", Pct);
}

bool sameBlock(const ReportConfig &A, const ReportConfig &B) {
  for (unsigned I = 0; I < 3; ++I)
    if (std::max(A.Block[I], 1u) != std::max(B.Block[I], 1u))
      return false;
  return true;
}

/// The figure an objective minimises, or 0 when the report has none.
double metricOf(const ReportConfig &C, Pick P) {
  double T = C.TimeS, E = C.EnergyJ;
  switch (P) {
  case Pick::Time:
    return T;
  case Pick::Energy:
  case Pick::Budget:
    return E;
  case Pick::EDP:
    return E * T;
  }
  return 0;
}

StringRef metricWords(Pick P) {
  switch (P) {
  case Pick::Time:
    return "faster";
  case Pick::Energy:
  case Pick::Budget:
    return "less energy";
  case Pick::EDP:
    return "better energy-delay product";
  }
  return "better";
}

/// The comparison band of two configurations whose code differs (the
/// report's "bands", docs/MODEL.md "Levers, bands and ties"), as a fraction;
/// -1 when the report has none.
double compareBand(const std::optional<ReportBands> &Bands, Pick P) {
  if (!Bands)
    return -1;
  const std::optional<double> &T = Bands->CompareTimeRel,
                              &Pw = Bands->ComparePowerRel,
                              &E = Bands->CompareEnergyRel;
  switch (P) {
  case Pick::Time:
    return T.value_or(-1);
  case Pick::Energy:
  case Pick::Budget:
    if (E)
      return *E;
    if (T && Pw)
      return std::sqrt(*T * *T + *Pw * *Pw);
    return -1;
  case Pick::EDP:
    // EDP = P x T^2: its relative error is about 2 dT + dP (as the tie).
    if (T && Pw)
      return std::sqrt(4 * *T * *T + *Pw * *Pw);
    return -1;
  }
  return -1;
}

/// The lever of configuration \p C: "power_limit", "locked_clock" or
/// "none", and its value.
std::pair<std::string, double> leverOf(const ReportConfig &C,
                                       double DefaultLimitW) {
  if (!C.Lever.empty())
    return {C.Lever, C.LeverValue};
  // Reports written before levers: a limit other than the default.
  double W = C.PowerLimitW;
  if (W > 0 && DefaultLimitW > 0 && std::fabs(W - DefaultLimitW) >= 0.5)
    return {"power_limit", W};
  return {"none", 0};
}

/// The lever in a few words: "power limit 180 W", "SM clock locked at
/// 1410 MHz", "default power and clocks".
std::string leverWords(const std::pair<std::string, double> &L) {
  if (L.first == "power_limit")
    return "power limit " + fmt("%.0f", L.second) + " W";
  if (L.first == "locked_clock")
    return "SM clock locked at " + fmt("%.0f", L.second) + " MHz";
  return "default power and clocks";
}

/// The power/clock setting configuration \p C was predicted under, with the
/// command that sets it. \p Rec is the report's "recommendations" entry
/// when it is for \p C.
std::string settingOf(const ReportConfig &C, const ReportRecommendation *Rec,
                      double DefaultLimitW, bool &HasLever) {
  std::pair<std::string, double> L = leverOf(C, DefaultLimitW);
  std::string V = fmt("%.0f", L.second);
  HasLever = L.first == "power_limit" || L.first == "locked_clock";
  if (!HasLever)
    return leverWords(L);
  std::string S = (L.first == "locked_clock" ? "run with the " : "run with ") +
                  leverWords(L) + " (" +
                  (L.first == "power_limit" ? "nvidia-smi -pl " + V
                                            : "nvidia-smi -lgc " + V + "," + V) +
                  ", needs root)";
  if (Rec && Rec->ActsPerKernel == false)
    S += ", set for the whole application (one launch is too short for it "
         "to act on this kernel alone)";
  return S;
}

std::string boundText(unsigned MaxThreads, unsigned MinBlocks) {
  std::string S = "__launch_bounds__(" + std::to_string(MaxThreads);
  if (MinBlocks > 1)
    S += ", " + std::to_string(MinBlocks);
  return S + ")";
}

unsigned threadsOf(const ReportConfig &C) {
  uint64_t T = 1;
  for (unsigned D : C.Block)
    T *= std::max(1u, D);
  return T > 1024 ? 0 : unsigned(T);
}

/// The checks of a min-blocks cap (docs/APPLY.md "Min-blocks"): the pick's
/// gain over the best configuration of the same block without a minimum
/// lies outside the comparison band, and ptxas shows no more spill bytes
/// under the cap than without it. Sets R.MinBlocks, R.CapNote, R.CapCheck;
/// returns the index of the configuration whose power/clock setting goes
/// with what is written (the uncapped one when the cap is dropped after a
/// comparison).
size_t checkCap(const ReportKernel &K, size_t PickIdx,
                const std::optional<ReportBands> &Bands,
                const ReadOptions &Opts, Recommendation &R) {
  const unsigned M = R.ModelMinBlocks;
  const std::string Min = "min-blocks " + std::to_string(M);
  R.MinBlocks = M;
  if (M <= 1)
    return PickIdx;
  const std::vector<ReportConfig> &Configs = K.Configs;
  const ReportConfig &Pk = Configs[PickIdx];
  const Pick P = Opts.Objective;
  // 1. The gain against the same block without a minimum.
  const double PM = metricOf(Pk, P);
  const double Band = compareBand(Bands, P);
  double TimeLimit = Pk.TimeS;
  if (P == Pick::Budget)
    if (auto I = K.ModelPicks.find(pickKey(P).str()); I != K.ModelPicks.end())
      TimeLimit = std::max(TimeLimit, Configs[I->second].TimeS);
  long Alt = -1;
  double AltM = 0;
  for (size_t I = 0; I < Configs.size(); ++I) {
    const ReportConfig &C = Configs[I];
    if (I == PickIdx || !C.Valid || C.MinBlocksPerSM > 1 || !sameBlock(C, Pk))
      continue;
    // Energy within the budget: only configurations known to meet it.
    if (P == Pick::Budget && !(C.TimeS <= TimeLimit))
      continue;
    double CM = metricOf(C, P);
    if (CM > 0 && (Alt < 0 || CM < AltM))
      Alt = long(I), AltM = CM;
  }
  std::string Unchecked;
  std::string Gain;
  if (!(PM > 0) || Band < 0) {
    Unchecked = "the report has no predicted figures or bands to compare it "
                "with";
  } else if (Alt < 0) {
    Unchecked = "the report has no configuration of this block without a "
                "minimum to compare it with";
  } else {
    double Adv = (AltM / PM - 1) * 100;
    std::string BandText = "the +/-" + fmt("%.1f", Band * 100) + "% band";
    if (Adv <= Band * 100) {
      R.MinBlocks = 0;
      R.CapNote = Min + " not written: " +
                  (Adv > 0 ? "predicted " + pctText(Adv) + "% " +
                                 metricWords(P).str() +
                                 " than without it, inside " + BandText
                           : std::string("predicted no better than without "
                                         "it"));
      return size_t(Alt);
    }
    Gain = "predicted " + pctText(Adv) + "% " + metricWords(P).str() +
           " than without it, outside " + BandText;
  }
  if (!Unchecked.empty()) {
    if (!Opts.TrustModelCaps) {
      R.MinBlocks = 0;
      R.CapNote = Min + " not written: " + Unchecked +
                  " (see --trust-model-caps)";
      return PickIdx;
    }
    Gain = "not compared: " + Unchecked;
  }
  // 2. ptxas under the cap: the registers the cap leaves
  // ("registers" of the configuration) against the uncapped compile.
  const ReportResources Res = K.Resources.value_or(ReportResources());
  const int64_t Regs = Res.Registers;
  const bool Exact = Res.RegistersExact;
  const int64_t Spill = Res.SpillBytes;
  const int64_t CapRegs = Pk.Registers;
  std::string Ptxas;
  if (Exact && Regs > 0 && CapRegs >= Regs) {
    Ptxas = "ptxas: " + std::to_string(Regs) +
            " registers without a cap, within it";
  } else {
    const ReportCapFact *Fact = nullptr;
    if (CapRegs > 0)
      for (const ReportCapFact &F : Res.CapFacts)
        if (F.Cap == CapRegs)
          Fact = &F;
    if (Fact) {
      int64_t S = Fact->SpillBytes;
      int64_t FR = Fact->Registers;
      if (S > Spill) {
        R.MinBlocks = 0;
        R.CapNote = Min + " not written: ptxas spills " + std::to_string(S) +
                    " bytes under its cap of " + std::to_string(CapRegs) +
                    " registers (" + std::to_string(Spill) + " without it)";
        return Alt >= 0 ? size_t(Alt) : PickIdx;
      }
      Ptxas = "ptxas under the cap: " + std::to_string(FR) + " registers, " +
              std::to_string(S) + " spill bytes (" + std::to_string(Spill) +
              " without it)";
    } else if (!Opts.TrustModelCaps) {
      R.MinBlocks = 0;
      R.CapNote = Min + " not written: no ptxas check of the cap (build with "
                        "-flipflop-ptxas=on / CUDA toolkit, or see "
                        "--trust-model-caps)";
      return Alt >= 0 ? size_t(Alt) : PickIdx;
    } else {
      Ptxas = "no ptxas check of the cap";
    }
  }
  R.CapCheck = Min + ": " + Gain + "; " + Ptxas;
  if (Opts.TrustModelCaps && (!Unchecked.empty() || Ptxas.rfind("no ", 0) == 0))
    R.CapCheck += " (--trust-model-caps)";
  return PickIdx;
}

} // namespace

Expected<std::vector<Recommendation>>
readJSONReport(StringRef Text, const ReadOptions &Opts, StringRef Origin) {
  Expected<Report> R = parseReport(Text);
  if (!R)
    return createStringError(inconvertibleErrorCode(),
                             Origin + ": " + toString(R.takeError()));
  // "block_size_agnostic" is read where the writer puts it, on the kernel.
  const double DefaultW = R->GPU ? R->GPU->PowerDefaultW : 0;
  const std::string Key = pickKey(Opts.Objective).str();
  std::vector<Recommendation> Out;
  for (const ReportKernel &K : R->Kernels) {
    Expected<std::optional<Recommendation>> Rec =
        recommendationFromReportKernel(K, K.BlockSizeAgnostic,
                                       Opts.Objective, Origin);
    if (!Rec)
      return Rec.takeError();
    if (!*Rec)
      continue;
    Recommendation &RC = **Rec;
    RC.ModelMinBlocks = RC.MinBlocks;
    const size_t PickIdx = K.Picks.at(Key).Index;
    size_t SettingIdx = checkCap(K, PickIdx, R->Bands, Opts, RC);
    const ReportRecommendation *RecObj = nullptr;
    if (SettingIdx == PickIdx)
      if (auto It = K.Recommendations.find(Key);
          It != K.Recommendations.end())
        RecObj = &It->second;
    RC.Setting =
        settingOf(K.Configs[SettingIdx], RecObj, DefaultW, RC.HasLever);
    // A pick decided by a tie: say what the model's optimum was.
    if (auto T = K.Ties.find(Key);
        T != K.Ties.end() && T->second.ModelOptimum != PickIdx) {
      const ReportConfig &O = K.Configs[T->second.ModelOptimum];
      RC.TieNote =
          "tie: the model's optimum, " +
          boundText(threadsOf(O), O.MinBlocksPerSM) + " with " +
          leverWords(leverOf(O, DefaultW)) + ", is predicted " +
          pctText(T->second.AdvantagePct) + "% better (" +
          metricWords(Opts.Objective).str() + "), inside the +/-" +
          fmt("%.1f", T->second.BandPct) +
          "% band of a comparison; the less constraining configuration "
          "the report recommends is applied";
    }
    Out.push_back(std::move(RC));
  }
  return Out;
}

namespace {
/// The figures of an FF001 remark's arguments.
struct RemarkFigures {
  std::optional<unsigned> Dims[3], MaxThreads;
  std::optional<double> LimitW, LockMHz;
};
} // namespace

/// The count \p Val of argument \p Key of the remark \p Where.
static Expected<unsigned> remarkCount(StringRef Origin, StringRef Where,
                                      StringRef Key, StringRef Val) {
  unsigned V;
  if (Val.trim().getAsInteger(10, V))
    return schemaError(Origin, Where,
                       "argument " + Key + " is not an integer: '" + Val + "'");
  return V;
}

/// The argument Block, "256", "16x16" or "8x8x4" (blockShapeText), into
/// \p Dims.
static Error remarkBlock(StringRef Origin, StringRef Where,
                         const remarks::Argument &A,
                         std::optional<unsigned> (&Dims)[3]) {
  SmallVector<StringRef, 3> Parts;
  A.Val.trim().split(Parts, 'x');
  if (Parts.size() > 3)
    return schemaError(Origin, Where,
                       "argument Block is not XxYxZ: '" + A.Val + "'");
  for (size_t I = 0; I < Parts.size(); ++I) {
    Expected<unsigned> V = remarkCount(Origin, Where, A.Key, Parts[I]);
    if (!V)
      return V.takeError();
    Dims[I] = *V;
  }
  return Error::success();
}

/// Reads the arguments of the FF001 remark \p Rm into \p R and \p F.
static Error readRemarkArgs(const remarks::Remark &Rm, StringRef Origin,
                            StringRef Where, Recommendation &R,
                            RemarkFigures &F) {
  for (const remarks::Argument &A : Rm.Args) {
    if (A.Key == remark::Kernel) {
      if (R.Kernel.empty())
        R.Kernel = A.Val.str();
    } else if (A.Key == remark::Objective) {
      R.Objective = A.Val.trim().str();
    } else if (A.Key == remark::PowerLimitW ||
               A.Key == remark::LockedClockMHz) {
      double V;
      if (!A.Val.trim().getAsDouble(V))
        (A.Key == remark::PowerLimitW ? F.LimitW : F.LockMHz) = V;
    } else if (A.Key == remark::BlockSizeAgnostic) {
      R.BlockSizeAgnostic = A.Val.trim() == "true" || A.Val.trim() == "1";
    } else if (A.Key == remark::Block) {
      if (Error E = remarkBlock(Origin, Where, A, F.Dims))
        return E;
    } else {
      std::optional<unsigned> *Slot =
          A.Key == remark::BlockX       ? &F.Dims[0]
          : A.Key == remark::BlockY     ? &F.Dims[1]
          : A.Key == remark::BlockZ     ? &F.Dims[2]
          : A.Key == remark::MaxThreads ? &F.MaxThreads
                                        : nullptr;
      bool IsMin = A.Key == remark::MinBlocks;
      if (!Slot && !IsMin)
        continue;
      Expected<unsigned> V = remarkCount(Origin, Where, A.Key, A.Val);
      if (!V)
        return V.takeError();
      if (IsMin)
        R.MinBlocks = *V;
      else
        *Slot = *V;
    }
  }
  return Error::success();
}

/// The minimum of a remark's recommendation: a remark has no figures to
/// compare a cap with and no ptxas fact of it, so it is written only on the
/// model's word.
static void remarkCap(const ReadOptions &Opts, Recommendation &R) {
  R.ModelMinBlocks = R.MinBlocks;
  if (R.MinBlocks <= 1)
    return;
  std::string Min = "min-blocks " + std::to_string(R.MinBlocks);
  if (Opts.TrustModelCaps) {
    R.CapCheck = Min + ": not compared and no ptxas check of the cap, a "
                       "remark carries neither (--trust-model-caps)";
  } else {
    R.MinBlocks = 0;
    R.CapNote = Min + " not written: a remark carries no figures to "
                      "compare it with and no ptxas check of the cap "
                      "(use the JSON report, or see --trust-model-caps)";
  }
}

/// The power/clock setting a remark names.
static void remarkSetting(const RemarkFigures &F, Recommendation &R) {
  if (F.LockMHz) {
    std::string M = fmt("%.0f", *F.LockMHz);
    R.Setting = "run with the SM clock locked at " + M +
                " MHz (nvidia-smi -lgc " + M + "," + M + ", needs root)";
    R.HasLever = true;
  } else if (F.LimitW) {
    std::string W = fmt("%.0f", *F.LimitW);
    R.Setting = "run with power limit " + W + " W, as in the remark "
                "(nvidia-smi -pl " + W + ", needs root, unless that is "
                "the GPU's default)";
    R.HasLever = true;
  } else {
    R.Setting = "default power and clocks (the remark names no lever)";
  }
}

/// The recommendation of remark \p Rm; none when it is not an FF001
/// summary or recommends nothing (e.g. nothing to tune).
static Expected<std::optional<Recommendation>>
recommendationFromRemark(const remarks::Remark &Rm, const ReadOptions &Opts,
                         StringRef Origin) {
  if (Rm.PassName != remark::PassName || Rm.RemarkName != remark::id::Summary)
    return std::nullopt;
  Recommendation R;
  R.Origin = Origin.str();
  R.Kernel = Rm.FunctionName.str();
  if (Rm.Loc)
    R.File = Rm.Loc->SourceFilePath.str();
  std::string Where = "remark FF001 for '" + R.Kernel + "'";
  RemarkFigures F;
  if (Error E = readRemarkArgs(Rm, Origin, Where, R, F))
    return E;
  uint64_t Threads = 0;
  if (F.Dims[0]) {
    R.Block = {*F.Dims[0], F.Dims[1].value_or(1), F.Dims[2].value_or(1)};
    Threads = uint64_t(R.Block[0]) * R.Block[1] * R.Block[2];
  } else if (F.MaxThreads) {
    Threads = *F.MaxThreads;
    R.Block = {*F.MaxThreads, 1, 1};
  } else {
    return std::nullopt; // A summary without a recommendation.
  }
  if (Threads == 0 || Threads > 1024 || R.MinBlocks > 64)
    return schemaError(Origin, Where,
                       "recommendation out of range (" + Twine(Threads) +
                           " threads, " + Twine(R.MinBlocks) + " min blocks)");
  R.MaxThreads = static_cast<unsigned>(Threads);
  if (R.Kernel.empty())
    return schemaError(Origin, "remark FF001", "no kernel name");
  R.FileLocal = isFileLocalKernelName(R.Kernel);
  remarkCap(Opts, R);
  remarkSetting(F, R);
  return R;
}

Expected<std::vector<Recommendation>>
readRemarksYAML(StringRef Text, const ReadOptions &Opts, StringRef Origin) {
  Expected<std::unique_ptr<remarks::RemarkParser>> Parser =
      remarks::createRemarkParser(remarks::Format::YAML, Text);
  if (!Parser)
    return schemaError(Origin, "remarks", toString(Parser.takeError()));
  std::vector<Recommendation> Out;
  while (true) {
    Expected<std::unique_ptr<remarks::Remark>> RemarkOr = (*Parser)->next();
    if (!RemarkOr) {
      Error E = RemarkOr.takeError();
      if (E.isA<remarks::EndOfFileError>()) {
        consumeError(std::move(E));
        break;
      }
      return schemaError(Origin, "remarks", toString(std::move(E)));
    }
    Expected<std::optional<Recommendation>> R =
        recommendationFromRemark(**RemarkOr, Opts, Origin);
    if (!R)
      return R.takeError();
    if (*R)
      Out.push_back(std::move(**R));
  }
  return Out;
}

static bool isReportName(StringRef Name) {
  return Name.ends_with(".json") || Name.ends_with(".opt.yaml");
}

Expected<std::vector<Recommendation>>
readReports(ArrayRef<std::string> Paths, const ReadOptions &Opts,
            std::vector<std::string> &FilesRead) {
  std::vector<std::string> Files;
  for (const std::string &Path : Paths) {
    if (!sys::fs::is_directory(Path)) {
      Files.push_back(Path);
      continue;
    }
    std::vector<std::string> Found;
    std::error_code EC;
    for (sys::fs::recursive_directory_iterator I(Path, EC), E; I != E && !EC;
         I.increment(EC))
      if (isReportName(sys::path::filename(I->path())) &&
          !sys::fs::is_directory(I->path()))
        Found.push_back(I->path());
    if (EC)
      return createStringError(EC, Path + ": " + EC.message());
    llvm::sort(Found);
    Files.insert(Files.end(), Found.begin(), Found.end());
  }
  std::vector<Recommendation> All;
  for (const std::string &File : Files) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(File);
    if (!Buf)
      return createStringError(Buf.getError(),
                               File + ": " + Buf.getError().message());
    StringRef Text = (*Buf)->getBuffer();
    bool IsYAML = StringRef(File).ends_with(".yaml") ||
                  StringRef(File).ends_with(".yml") ||
                  Text.ltrim().starts_with("---");
    Expected<std::vector<Recommendation>> Rs =
        IsYAML ? readRemarksYAML(Text, Opts, File)
               : readJSONReport(Text, Opts, File);
    if (!Rs)
      return Rs.takeError();
    FilesRead.push_back(File);
    All.insert(All.end(), Rs->begin(), Rs->end());
  }
  return All;
}

} // namespace apply
} // namespace flipflop
