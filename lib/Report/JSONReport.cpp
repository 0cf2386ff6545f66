//===- JSONReport.cpp - The versioned JSON report
//--------------------------===//
#include "flipflop/Report/JSONReport.h"
#include "flipflop/Report/Explain.h"
#include "flipflop/Report/Picks.h"
#include "flipflop/Support/WriteFile.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>
#include <set>

using namespace llvm;

namespace flipflop {

const char *const ReportPickNames[5] = {"fastest", "least_energy",
                                        "energy_within_budget", "best_edp",
                                        "occupancy_heuristic"};

namespace {
json::Array dims(const std::array<unsigned, 3> &D) {
  return json::Array{D[0], D[1], D[2]};
}
/// Doubles rounded to 10 significant digits, so that the printed form does
/// not depend on the last bits of a computation.
double round10(double V) {
  if (!std::isfinite(V) || V == 0)
    return std::isfinite(V) ? 0.0 : V;
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%.10g", V);
  return strtod(Buf, nullptr);
}
} // namespace

json::Value predictionToJSON(const Prediction &P) {
  json::Object O{
      {"block", dims(P.Config.Block)},
      {"grid", dims(P.Config.Grid)},
      {"min_blocks_per_sm", P.Config.MinBlocksPerSM},
      {"power_limit_w",
       round10(P.PowerLimitW > 0 ? P.PowerLimitW : P.Config.PowerLimitW)},
      {"occupancy", round10(P.Occ.Occupancy)},
      {"blocks_per_sm", P.Occ.BlocksPerSM},
      {"registers", P.RegsPerThread},
      {"time_s", round10(P.TimeS)},
      {"avg_power_w", round10(P.AvgPowerW)},
      {"energy_j", round10(P.EnergyJ)},
      {"clock_mhz", round10(P.ClockMHz)},
      {"bottleneck", bottleneckName(P.Bound)},
      {"limiter", occLimiterName(P.Occ.Limiter)},
      {"power_capped", P.PowerCapped},
      {"valid", P.Valid},
      {"lever", leverName(P.PowerLever)},
  };
  if (P.SpillBytesPerThread > 0)
    O["spill_bytes_per_thread"] = round10(P.SpillBytesPerThread);
  if (P.PowerLever != Lever::None)
    O["lever_value"] = round10(P.LeverValue);
  if (P.Config.LockedClockMHz > 0)
    O["locked_clock_mhz"] = round10(P.LeverValue);
  if (P.ClockOutOfRange) {
    O["clock_out_of_range"] = true;
    O["requested_locked_clock_mhz"] = round10(P.Config.LockedClockMHz);
  }
  // Bands (docs/MODEL.md "Levers, bands and ties"): [low, high].
  if (P.Valid && P.TimeS > 0) {
    Bands B = absoluteBands();
    auto Arr = [](std::array<double, 2> A) {
      return json::Array{round10(A[0]), round10(A[1])};
    };
    O["time_band_s"] = Arr(band(P.TimeS, B.Time));
    O["power_band_w"] = Arr(band(P.AvgPowerW, B.Power));
    O["energy_band_j"] = Arr(band(P.EnergyJ, B.Energy));
  }
  // The time's components summed over the rounds (docs/MODEL.md): each
  // round lasts a soft maximum of them, so they do not add up to time_s.
  if (P.Valid && P.TimeS > 0)
    O["time_parts_s"] = json::Object{{"issue", round10(P.TComputeS)},
                                     {"shared", round10(P.TSharedS)},
                                     {"l2", round10(P.TL2S)},
                                     {"dram", round10(P.TDramS)},
                                     {"latency", round10(P.TLatencyS)}};
  if (P.Valid && P.TBarrierPhaseS > 0)
    O["time_parts_s"].getAsObject()->try_emplace("barrier_phases",
                                                 round10(P.TBarrierPhaseS));
  if (P.Valid && P.BusiestPipeShare > 0)
    O["busiest_pipe"] =
        json::Object{{"pipe", issuePipeName(P.BusiestPipe)},
                     {"share", round10(P.BusiestPipeShare)}};
  if (P.LimitUnreachable)
    O["limit_unreachable"] = true;
  if (P.LimitOutOfRange) {
    O["limit_out_of_range"] = true;
    O["requested_power_limit_w"] = round10(P.Config.PowerLimitW);
  }
  if (!P.Valid)
    O["invalid"] = P.Invalid;
  return json::Value(std::move(O));
}

/// How to apply the lever of \p P, and whether it can act on a launch this
/// short (docs/REPORT-SCHEMA.md "recommendations").
static json::Object recommendationJSON(const Prediction &P, size_t Index,
                                       double DefaultLimitW) {
  LeverCommand C = leverCommand(leverName(P.PowerLever), P.LeverValue,
                                DefaultLimitW);
  json::Object O{{"config", static_cast<int64_t>(Index)},
                 {"lever", C.Lever},
                 {"needs_root", C.NeedsRoot}};
  if (C.Lever != "none") {
    O["value"] = round10(C.Value);
    O["unit"] = C.Unit;
    O["command"] = C.Command;
    O["nvml"] = C.NVML;
    O["reset"] = C.Reset;
    std::string Note = leverTooShortNote(C.Lever, P.TimeS);
    O["acts_per_kernel"] = Note.empty();
    if (!Note.empty())
      O["note"] = Note;
  }
  return O;
}

bool isFileLocalKernelName(StringRef Name) {
  if (Name.contains("_GLOBAL__N_")) // An anonymous namespace, anywhere.
    return true;
  if (Name.starts_with("_ZL")) // static at namespace scope: _ZL<name>.
    return true;
  // A nested name (_ZN...E): "L" before one of its components marks the
  // internal linkage of a static function in a named namespace
  // (_ZN2nsL1kEPf). Only plain source names are walked; anything else
  // (templates, substitutions) ends the walk.
  if (!Name.consume_front("_ZN"))
    return false;
  while (!Name.empty() && StringRef("rVKRO").contains(Name.front()))
    Name = Name.drop_front();
  while (!Name.empty()) {
    if (Name.front() == 'L')
      return true;
    if (!isDigit(Name.front()))
      return false;
    size_t Len = 0, I = 0;
    while (I < Name.size() && isDigit(Name[I]) && Len < 100000)
      Len = Len * 10 + (Name[I++] - '0');
    Name = Name.drop_front(I);
    if (Len > Name.size())
      return false;
    Name = Name.drop_front(Len);
  }
  return false;
}

std::string normalisedPath(StringRef File) {
  if (File.empty() || File.starts_with("<"))
    return "";
  SmallString<256> Abs(File);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// The kernel's "profile": the summary of what the profile counted.
static json::Object profileJSON(const KernelProfile &K) {
  json::Object Ops;
  for (unsigned C = 0; C < NumOpClasses; ++C)
    if (K.Ops[C] != 0)
      Ops[opClassName(static_cast<OpClass>(C))] = round10(K.Ops[C]);
  json::Array Guesses, Warnings;
  for (const std::string &G : K.Guesses)
    Guesses.push_back(G);
  for (const std::string &W : K.Warnings)
    Warnings.push_back(W);
  json::Array LocalArrays;
  for (const LocalArray &A : K.LocalArrays) {
    json::Object O{{"bytes", static_cast<int64_t>(A.Bytes)},
                   {"function", A.Function}};
    if (!A.PassedTo.empty())
      O["passed_to"] = A.PassedTo;
    else
      O["indexed_at_run_time"] = true;
    LocalArrays.push_back(std::move(O));
  }
  return json::Object{
      {"source", K.Source},
      {"ops", std::move(Ops)},
      {"flops", json::Object{{"fp32", round10(K.Flops32)},
                             {"fp64", round10(K.Flops64)},
                             {"fp16", round10(K.Flops16)},
                             {"tensor", round10(K.TensorFlops)}}},
      {"tensor_type", K.TensorType},
      {"bytes", json::Object{{"global_read", round10(K.GlobalBytesRead)},
                             {"global_written", round10(K.GlobalBytesWritten)},
                             {"global_sectors", round10(K.GlobalSectorBytes)},
                             {"shared", round10(K.SharedBytes)},
                             {"local", round10(K.LocalBytes)}}},
      {"intensity", json::Object{{"dram", round10(K.arithmeticIntensity())},
                                 {"shared", round10(K.sharedIntensity())}}},
      {"loops", static_cast<int64_t>(K.Loops.size())},
      {"rereads", static_cast<int64_t>(llvm::count_if(
                      K.FormLoads,
                      [](const MemAccess &A) { return A.Form.NumLoops > 0; }))},
      {"guesses", std::move(Guesses)},
      {"warnings", std::move(Warnings)},
      {"local_arrays", std::move(LocalArrays)},
  };
}

/// The kernel's "resources", with ptxas under each register cap the sweep
/// tried (only when ptxas ran): flipflop-apply writes a min-blocks cap only
/// where ptxas shows no new spills.
static json::Object resourcesJSON(const KernelProfile &K) {
  json::Object Res{
      {"registers", K.Res.Registers},
      {"registers_exact", K.Res.RegistersExact},
      {"estimated_registers", K.Res.EstimatedRegisters},
      {"shared_bytes", K.Res.StaticSharedBytes},
      {"dynamic_shared", K.Res.UsesDynamicShared},
      {"spill_bytes", K.Res.SpillStoreBytes + K.Res.SpillLoadBytes},
      {"stack_bytes", K.Res.StackFrameBytes},
      {"barriers", K.Res.Barriers},
  };
  if (!K.CapFacts.empty()) {
    json::Array Caps;
    for (const CapFact &F : K.CapFacts)
      Caps.push_back(json::Object{
          {"cap", F.Cap},
          {"registers", F.Registers},
          {"spill_bytes", F.SpillStoreBytes + F.SpillLoadBytes}});
    Res["cap_facts"] = std::move(Caps);
  }
  return Res;
}

namespace {
/// The objects keyed by pick name: "picks", "model_picks", "ties",
/// "recommendations", "pick_explanations".
struct PickObjects {
  json::Object Picks, ModelPicks, Ties, Recs, Explanations;
};
} // namespace

/// The recommended configurations (after ties); "model_picks" keeps the
/// model's strict optima. \p PickTexts: sweepTexts()'s.
static PickObjects
pickObjects(const SweepResult &R,
            const std::array<std::string, NumReportPicks> &PickTexts) {
  PickObjects O;
  if (R.Configs.empty())
    return O;
  const std::array<size_t, NumReportPicks> PickIdx = reportPickIndices(R),
                                           OptIdx = reportModelPickIndices(R);
  // The default limit the configurations resolved (for the reset command).
  double DefW = 0;
  if (R.Pick.OccupancyHeuristic < R.Configs.size())
    DefW = R.Configs[R.Pick.OccupancyHeuristic].PowerLimitW;
  for (size_t I = 0; I < NumReportPicks; ++I) {
    const char *Name = ReportPickNames[I];
    O.Picks[Name] = static_cast<int64_t>(PickIdx[I]);
    O.ModelPicks[Name] = static_cast<int64_t>(OptIdx[I]);
    if (!PickTexts[I].empty())
      O.Explanations[Name] = PickTexts[I];
    if (PickIdx[I] < R.Configs.size())
      O.Recs[Name] =
          recommendationJSON(R.Configs[PickIdx[I]], PickIdx[I], DefW);
    if (I >= ReportPickObjectives.size())
      continue; // The occupancy heuristic is never a tie.
    const PickTie &T = R.tie(ReportPickObjectives[I]);
    if (T.Tied)
      O.Ties[Name] =
          json::Object{{"model_optimum", static_cast<int64_t>(T.Optimum)},
                       {"advantage_pct", round10(T.AdvantagePct)},
                       {"band_pct", round10(T.BandPct)}};
  }
  return O;
}

json::Value kernelToJSON(const KernelProfile &K, const SweepResult &R) {
  json::Array Configs, Pareto;
  for (const Prediction &P : R.Configs)
    Configs.push_back(predictionToJSON(P));
  for (size_t I : R.Pareto)
    Pareto.push_back(static_cast<int64_t>(I));
  SweepTexts Texts = sweepTexts(R, K);
  PickObjects Picks = pickObjects(R, Texts.Picks);
  json::Object O{
      {"name", K.Name},
      {"display_name", K.DisplayName.empty() ? K.Name : K.DisplayName},
      {"file", K.File},
      {"line", K.Line},
      {"resources", resourcesJSON(K)},
      {"profile", profileJSON(K)},
      {"configs", std::move(Configs)},
      {"pareto", std::move(Pareto)},
      {"picks", std::move(Picks.Picks)},
      {"model_picks", std::move(Picks.ModelPicks)},
      {"ties", std::move(Picks.Ties)},
      {"recommendations", std::move(Picks.Recs)},
      {"pick_explanations", std::move(Picks.Explanations)},
      {"search_space_reduction", round10(R.SearchSpaceReduction)},
      {"shape_held", R.ShapeHeld},
      {"block_size_agnostic", isBlockSizeAgnostic(K)},
      {"shape_reason", Texts.ShapeReason},
      {"explanation", Texts.Explanation},
  };
  // Readers tell files apart by "path" ("file" is as the compiler was given
  // it, often relative); a kernel local to its file is keyed by it
  // (flipflop-report merge, flipflop-apply).
  if (std::string Path = normalisedPath(K.File); !Path.empty())
    O["path"] = std::move(Path);
  if (isFileLocalKernelName(K.Name))
    O["file_local"] = true;
  return json::Value(std::move(O));
}

json::Value reportToJSON(const GPUSpec &GPU, std::vector<json::Value> Kernels,
                         StringRef Tool) {
  json::Array KA;
  for (json::Value &K : Kernels)
    KA.push_back(std::move(K));
  json::Object G{
      {"name", GPU.Name},
      {"sm", "sm_" + std::to_string(GPU.smVersion())},
      {"sm_count", GPU.SMCount},
      {"boost_clock_mhz", round10(GPU.BoostClockMHz)},
      {"memory_bandwidth_gbs", round10(GPU.MemoryBandwidthGBs)},
      {"power_default_w", round10(GPU.Power.DefaultLimitW)},
      {"power_min_w", round10(GPU.Power.MinLimitW)},
      {"power_max_w", round10(GPU.Power.MaxLimitW)},
      {"min_clock_mhz", round10(GPU.MinClockMHz)},
      {"max_clock_mhz", round10(GPU.topClockMHz())},
      {"from_file", GPU.FromFile},
  };
  Bands A = absoluteBands(), C = comparisonBands();
  json::Object BandsObj{
      {"time_rel", round10(A.Time)},
      {"power_rel", round10(A.Power)},
      {"energy_rel", round10(A.Energy)},
      {"compare_time_rel", round10(C.Time)},
      {"compare_power_rel", round10(C.Power)},
      {"compare_energy_rel", round10(C.Energy)},
      {"compare_lever_time_rel", round10(leverComparisonBands().Time)},
      {"compare_lever_energy_rel", round10(leverComparisonBands().Energy)},
      {"source", "docs/MODEL.md, Levers, bands and ties"}};
  return json::Value(json::Object{{"schema_version", ReportSchemaVersion},
                                  {"tool", Tool},
                                  {"gpu", std::move(G)},
                                  {"bands", std::move(BandsObj)},
                                  {"kernels", std::move(KA)}});
}

namespace {
void printNumber(double D, raw_ostream &OS) {
  if (!std::isfinite(D)) {
    OS << "null"; // JSON has no inf/nan
    return;
  }
  if (D == std::floor(D) && std::fabs(D) < 1e15) {
    OS << static_cast<int64_t>(D);
    return;
  }
  OS << format("%.10g", D);
}

void printValue(const json::Value &V, raw_ostream &OS, unsigned Indent) {
  auto NewLine = [&](unsigned I) {
    OS << '\n';
    OS.indent(I);
  };
  switch (V.kind()) {
  case json::Value::Null:
    OS << "null";
    return;
  case json::Value::Boolean:
    OS << (*V.getAsBoolean() ? "true" : "false");
    return;
  case json::Value::Number:
    if (auto I = V.getAsInteger())
      OS << *I;
    else if (auto U = V.getAsUINT64())
      OS << *U;
    else
      printNumber(*V.getAsNumber(), OS);
    return;
  case json::Value::String: {
    // llvm::json escapes strings correctly; reuse it for one string.
    OS << V;
    return;
  }
  case json::Value::Array: {
    const json::Array &A = *V.getAsArray();
    if (A.empty()) {
      OS << "[]";
      return;
    }
    bool Flat = std::all_of(A.begin(), A.end(), [](const json::Value &E) {
      return E.kind() == json::Value::Number;
    });
    OS << '[';
    for (size_t I = 0; I < A.size(); ++I) {
      if (I)
        OS << (Flat ? ", " : ",");
      if (!Flat)
        NewLine(Indent + 2);
      printValue(A[I], OS, Indent + 2);
    }
    if (!Flat)
      NewLine(Indent);
    OS << ']';
    return;
  }
  case json::Value::Object: {
    const json::Object &O = *V.getAsObject();
    if (O.empty()) {
      OS << "{}";
      return;
    }
    std::vector<StringRef> Keys;
    for (const auto &KV : O)
      Keys.push_back(KV.first);
    llvm::sort(Keys);
    OS << '{';
    for (size_t I = 0; I < Keys.size(); ++I) {
      if (I)
        OS << ',';
      NewLine(Indent + 2);
      OS << json::Value(Keys[I].str()) << ": ";
      printValue(*O.get(Keys[I]), OS, Indent + 2);
    }
    NewLine(Indent);
    OS << '}';
    return;
  }
  }
}
} // namespace

void printJSON(const json::Value &V, raw_ostream &OS) {
  printValue(V, OS, 0);
  OS << '\n';
}

Error writeJSONFile(const json::Value &V, StringRef Path) {
  return writeFileSafely(Path, [&](raw_ostream &OS) { printJSON(V, OS); });
}

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

namespace {
bool readDims(const json::Value &V, std::array<unsigned, 3> &D, json::Path P) {
  const json::Array *A = V.getAsArray();
  if (!A || A->size() != 3) {
    P.report("expected an array of 3 integers");
    return false;
  }
  for (unsigned I = 0; I < 3; ++I) {
    auto X = (*A)[I].getAsInteger();
    if (!X || *X < 0 || *X > 0xffffffffLL) {
      P.index(I).report("expected a non-negative integer");
      return false;
    }
    D[I] = static_cast<unsigned>(*X);
  }
  return true;
}

/// A number that may be absent, or null (the writer prints a non-finite
/// number as null): \p Out keeps its value then.
bool mapNumber(json::ObjectMapper &O, StringLiteral Key, double &Out) {
  std::optional<double> V;
  if (!O.map(Key, V))
    return false;
  if (V)
    Out = *V;
  return true;
}

/// An uncertainty band [low, high], if present (elements null: 0).
bool mapBand(const json::Object &O, StringLiteral Key,
             std::optional<std::array<double, 2>> &Out, json::Path P) {
  const json::Value *V = O.get(Key);
  if (!V || V->getAsNull())
    return true;
  const json::Array *A = V->getAsArray();
  if (!A || A->size() != 2) {
    P.field(Key).report("expected [low, high]");
    return false;
  }
  std::array<double, 2> B{0, 0};
  for (unsigned I = 0; I < 2; ++I) {
    if ((*A)[I].getAsNull())
      continue;
    std::optional<double> N = (*A)[I].getAsNumber();
    if (!N) {
      P.field(Key).index(I).report("expected number");
      return false;
    }
    B[I] = *N;
  }
  Out = B;
  return true;
}

/// An index into "configs" (\p NumConfigs of them).
bool readIndex(const json::Value &V, size_t NumConfigs, size_t &Out,
               json::Path P) {
  std::optional<int64_t> Idx = V.getAsInteger();
  if (!Idx) {
    P.report("expected an index into configs");
    return false;
  }
  if (*Idx < 0 || static_cast<uint64_t>(*Idx) >= NumConfigs) {
    P.report("index out of range of configs");
    return false;
  }
  Out = static_cast<size_t>(*Idx);
  return true;
}

/// An object keyed by pick name ("picks", "model_picks", "ties",
/// "recommendations"), read in the schema's order of the picks; other keys
/// are ignored. \p Read reads one entry.
template <typename Fn>
bool readPerPick(const json::Object &K, StringLiteral Key, json::Path P,
                 Fn Read, bool Required = false) {
  const json::Value *V = K.get(Key);
  if (!V) {
    if (Required)
      P.field(Key).report("missing value");
    return !Required;
  }
  const json::Object *O = V->getAsObject();
  if (!O) {
    P.field(Key).report("expected an object");
    return false;
  }
  for (const char *Name : ReportPickNames)
    if (const json::Value *E = O->get(Name))
      if (!Read(Name, *E, P.field(Key).field(Name)))
        return false;
  return true;
}
} // namespace

bool fromJSON(const json::Value &V, ReportConfig &C, json::Path P) {
  json::ObjectMapper O(V, P);
  if (!O || !O.map("min_blocks_per_sm", C.MinBlocksPerSM))
    return false;
  const json::Object &Obj = *V.getAsObject();
  const json::Value *Block = Obj.get("block");
  if (!Block) {
    P.field("block").report("missing value");
    return false;
  }
  return readDims(*Block, C.Block, P.field("block")) &&
         O.mapOptional("registers", C.Registers) &&
         mapNumber(O, "power_limit_w", C.PowerLimitW) &&
         mapNumber(O, "clock_mhz", C.ClockMHz) &&
         mapNumber(O, "time_s", C.TimeS) &&
         mapNumber(O, "energy_j", C.EnergyJ) &&
         O.mapOptional("lever", C.Lever) &&
         mapNumber(O, "lever_value", C.LeverValue) &&
         O.mapOptional("valid", C.Valid) &&
         mapBand(Obj, "time_band_s", C.TimeBandS, P) &&
         mapBand(Obj, "power_band_w", C.PowerBandW, P) &&
         mapBand(Obj, "energy_band_j", C.EnergyBandJ, P);
}

bool fromJSON(const json::Value &V, ReportCapFact &F, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("cap", F.Cap) && O.map("registers", F.Registers) &&
         O.map("spill_bytes", F.SpillBytes);
}

bool fromJSON(const json::Value &V, ReportResources &R, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.mapOptional("registers", R.Registers) &&
         O.mapOptional("registers_exact", R.RegistersExact) &&
         O.mapOptional("shared_bytes", R.SharedBytes) &&
         O.mapOptional("spill_bytes", R.SpillBytes) &&
         O.mapOptional("cap_facts", R.CapFacts);
}

bool fromJSON(const json::Value &V, ReportRecommendation &R, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.mapOptional("lever", R.Lever) &&
         O.mapOptional("command", R.Command) &&
         O.mapOptional("nvml", R.NVML) && O.mapOptional("reset", R.Reset) &&
         O.mapOptional("note", R.Note) &&
         O.map("acts_per_kernel", R.ActsPerKernel);
}

bool fromJSON(const json::Value &V, ReportKernel &K, json::Path P) {
  json::ObjectMapper O(V, P);
  if (!O || !O.map("name", K.Name) || !O.map("file", K.File) ||
      !O.map("line", K.Line))
    return false;
  if (!O.mapOptional("display_name", K.DisplayName) ||
      !O.mapOptional("explanation", K.Explanation) ||
      !O.mapOptional("path", K.Path) ||
      !O.mapOptional("file_local", K.FileLocal) || !O.map("gpu", K.GPU) ||
      !O.map("resources", K.Resources) ||
      !mapNumber(O, "search_space_reduction", K.SearchSpaceReduction) ||
      !O.mapOptional("shape_held", K.ShapeHeld) ||
      !O.mapOptional("shape_reason", K.ShapeReason) ||
      !O.mapOptional("block_size_agnostic", K.BlockSizeAgnostic))
    return false;
  // Reports written before "file_local": the mangled name says it.
  K.FileLocal = K.FileLocal || isFileLocalKernelName(K.Name);
  const json::Object &Obj = *V.getAsObject();
  if (const json::Value *Prof = Obj.get("profile")) {
    json::ObjectMapper PO(*Prof, P.field("profile"));
    if (!PO || !PO.mapOptional("guesses", K.Guesses))
      return false;
  }
  const json::Value *Configs = Obj.get("configs");
  if (!Configs || !Configs->getAsArray()) {
    P.field("configs").report("expected an array");
    return false;
  }
  if (!fromJSON(*Configs, K.Configs, P.field("configs")))
    return false;
  const size_t N = K.Configs.size();
  if (const json::Value *Pareto = Obj.get("pareto")) {
    const json::Array *A = Pareto->getAsArray();
    if (!A) {
      P.field("pareto").report("expected an array");
      return false;
    }
    K.Pareto.resize(A->size());
    for (size_t I = 0; I < A->size(); ++I)
      if (!readIndex((*A)[I], N, K.Pareto[I], P.field("pareto").index(I)))
        return false;
  }
  auto ReadPick = [&](const char *Name, const json::Value &E, json::Path PP) {
    size_t Idx = 0;
    if (!readIndex(E, N, Idx, PP))
      return false;
    const ReportConfig &C = K.Configs[Idx];
    ReportPick &Pick = K.Picks[Name];
    Pick.Index = Idx;
    Pick.Block = C.Block;
    Pick.MinBlocksPerSM = C.MinBlocksPerSM;
    Pick.PowerLimitW = C.PowerLimitW;
    Pick.TimeS = C.TimeS;
    Pick.EnergyJ = C.EnergyJ;
    Pick.Lever = C.Lever.empty() ? "none" : C.Lever;
    Pick.LeverValue = C.LeverValue;
    return true;
  };
  auto ReadModelPick = [&](const char *Name, const json::Value &E,
                           json::Path PP) {
    return readIndex(E, N, K.ModelPicks[Name], PP);
  };
  auto ReadTie = [&](const char *Name, const json::Value &E, json::Path PP) {
    ReportTie &T = K.Ties[Name];
    json::ObjectMapper TO(E, PP);
    if (!TO)
      return false;
    const json::Value *Opt = E.getAsObject()->get("model_optimum");
    if (!Opt) {
      PP.field("model_optimum").report("missing value");
      return false;
    }
    return readIndex(*Opt, N, T.ModelOptimum, PP.field("model_optimum")) &&
           mapNumber(TO, "advantage_pct", T.AdvantagePct) &&
           mapNumber(TO, "band_pct", T.BandPct);
  };
  auto ReadRec = [&](const char *Name, const json::Value &E, json::Path PP) {
    return fromJSON(E, K.Recommendations[Name], PP);
  };
  if (!readPerPick(Obj, "picks", P, ReadPick, /*Required=*/true) ||
      !readPerPick(Obj, "model_picks", P, ReadModelPick) ||
      !readPerPick(Obj, "ties", P, ReadTie) ||
      !readPerPick(Obj, "recommendations", P, ReadRec))
    return false;
  K.Raw = Obj;
  return true;
}

bool fromJSON(const json::Value &V, ReportGPU &G, json::Path P) {
  json::ObjectMapper O(V, P);
  if (!O || !O.mapOptional("name", G.Name) ||
      !mapNumber(O, "power_default_w", G.PowerDefaultW))
    return false;
  G.Raw = *V.getAsObject();
  return true;
}

bool fromJSON(const json::Value &V, ReportBands &B, json::Path P) {
  json::ObjectMapper O(V, P);
  if (!O || !O.map("compare_time_rel", B.CompareTimeRel) ||
      !O.map("compare_power_rel", B.ComparePowerRel) ||
      !O.map("compare_energy_rel", B.CompareEnergyRel))
    return false;
  B.Raw = *V.getAsObject();
  return true;
}

bool fromJSON(const json::Value &V, Report &R, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("schema_version", R.SchemaVersion) &&
         O.mapOptional("tool", R.Tool) && O.map("gpu", R.GPU) &&
         O.map("bands", R.Bands) && O.mapOptional("gpus", R.GPUs) &&
         O.map("kernels", R.Kernels);
}

const ReportConfig *ReportKernel::pick(StringRef Name) const {
  auto It = Picks.find(Name.str());
  return It == Picks.end() ? nullptr : &Configs[It->second.Index];
}

const ReportKernel *Report::find(StringRef Name) const {
  for (const ReportKernel &K : Kernels)
    if (K.Name == Name || K.DisplayName == Name)
      return &K;
  return nullptr;
}

Expected<Report> reportFromJSON(const json::Value &V) {
  Report R;
  json::Path::Root Root("report");
  json::Path P(Root);
  auto Fail = [&]() -> Error {
    return createStringError(inconvertibleErrorCode(), "%s",
                             toString(Root.getError()).c_str());
  };
  // The version first: a report of another version is not read further.
  json::ObjectMapper O(V, P);
  if (!O || !O.map("schema_version", R.SchemaVersion))
    return Fail();
  if (R.SchemaVersion != ReportSchemaVersion)
    return createStringError(inconvertibleErrorCode(),
                             "unsupported report schema_version %u (this "
                             "FlipFlop reads version %u)",
                             R.SchemaVersion, ReportSchemaVersion);
  if (!fromJSON(V, R, P))
    return Fail();
  return R;
}

Expected<Report> parseReport(StringRef Text) {
  Expected<json::Value> V = json::parse(Text);
  if (!V)
    return V.takeError();
  return reportFromJSON(*V);
}

Expected<Report> readReportFile(StringRef Path) {
  auto B = MemoryBuffer::getFileOrSTDIN(Path);
  if (!B)
    return createStringError(B.getError(), "cannot read " + Path + ": " +
                                               B.getError().message());
  auto R = parseReport((*B)->getBuffer());
  if (!R)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": " + toString(R.takeError()));
  return R;
}

json::Value toJSON(const Report &R) {
  json::Array Kernels;
  for (const ReportKernel &K : R.Kernels) {
    json::Object O = K.Raw;
    if (K.GPU)
      O["gpu"] = *K.GPU;
    Kernels.push_back(std::move(O));
  }
  json::Object Top{{"schema_version", static_cast<int64_t>(R.SchemaVersion)},
                   {"kernels", std::move(Kernels)}};
  if (!R.Tool.empty())
    Top["tool"] = R.Tool;
  if (R.GPU)
    Top["gpu"] = json::Object(R.GPU->Raw);
  if (R.Bands)
    Top["bands"] = json::Object(R.Bands->Raw);
  if (!R.GPUs.empty()) {
    json::Array Names;
    for (const std::string &G : R.GPUs)
      Names.push_back(G);
    Top["gpus"] = std::move(Names);
  }
  return json::Value(std::move(Top));
}

} // namespace flipflop
