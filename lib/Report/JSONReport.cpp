//===- JSONReport.cpp - The versioned JSON report
//--------------------------===//
#include "flipflop/Report/JSONReport.h"
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

json::Value kernelToJSON(const KernelProfile &K, const SweepResult &R) {
  json::Object Ops;
  for (unsigned C = 0; C < NumOpClasses; ++C)
    if (K.Ops[C] != 0)
      Ops[opClassName(static_cast<OpClass>(C))] = round10(K.Ops[C]);
  json::Array Guesses, Warnings;
  for (const std::string &G : K.Guesses)
    Guesses.push_back(G);
  for (const std::string &W : K.Warnings)
    Warnings.push_back(W);
  json::Object Profile{
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
      {"guesses", std::move(Guesses)},
      {"warnings", std::move(Warnings)},
  };
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
  // ptxas under each register cap the sweep tried (only when ptxas ran):
  // flipflop-apply writes a min-blocks cap only where ptxas shows no new
  // spills.
  if (!K.CapFacts.empty()) {
    json::Array Caps;
    for (const CapFact &F : K.CapFacts)
      Caps.push_back(json::Object{
          {"cap", F.Cap},
          {"registers", F.Registers},
          {"spill_bytes", F.SpillStoreBytes + F.SpillLoadBytes}});
    Res["cap_facts"] = std::move(Caps);
  }
  json::Array Configs, Pareto;
  for (const Prediction &P : R.Configs)
    Configs.push_back(predictionToJSON(P));
  for (size_t I : R.Pareto)
    Pareto.push_back(static_cast<int64_t>(I));
  // The recommended configurations (after ties); "model_picks" keeps the
  // model's strict optima.
  const size_t PickIdx[5] = {R.pick(Objective::Time),
                             R.pick(Objective::Energy),
                             R.pick(Objective::EnergyWithinBudget),
                             R.pick(Objective::EDP),
                             R.Pick.OccupancyHeuristic};
  const size_t OptIdx[5] = {R.Pick.Fastest, R.Pick.LeastEnergy,
                            R.Pick.EnergyWithinBudget, R.Pick.BestEDP,
                            R.Pick.OccupancyHeuristic};
  const PickTie *Ties[4] = {&R.TieFastest, &R.TieLeastEnergy, &R.TieBudget,
                            &R.TieEDP};
  const std::string *Explain[5] = {&R.ExplainFastest, &R.ExplainLeastEnergy,
                                   &R.ExplainBudget, &R.ExplainEDP,
                                   &R.ExplainHeuristic};
  json::Object Picks, Explanations, ModelPicks, TieObj, Recs;
  // The default limit the configurations resolved (for the reset command).
  double DefW = 0;
  if (!R.Configs.empty() &&
      R.Pick.OccupancyHeuristic < R.Configs.size())
    DefW = R.Configs[R.Pick.OccupancyHeuristic].PowerLimitW;
  if (!R.Configs.empty())
    for (unsigned I = 0; I < 5; ++I) {
      Picks[ReportPickNames[I]] = static_cast<int64_t>(PickIdx[I]);
      ModelPicks[ReportPickNames[I]] = static_cast<int64_t>(OptIdx[I]);
      if (!Explain[I]->empty())
        Explanations[ReportPickNames[I]] = *Explain[I];
      if (PickIdx[I] < R.Configs.size())
        Recs[ReportPickNames[I]] =
            recommendationJSON(R.Configs[PickIdx[I]], PickIdx[I], DefW);
      if (I < 4 && Ties[I]->Tied)
        TieObj[ReportPickNames[I]] = json::Object{
            {"model_optimum", static_cast<int64_t>(Ties[I]->Optimum)},
            {"advantage_pct", round10(Ties[I]->AdvantagePct)},
            {"band_pct", round10(Ties[I]->BandPct)}};
    }
  json::Object O{
      {"name", K.Name},
      {"display_name", K.DisplayName.empty() ? K.Name : K.DisplayName},
      {"file", K.File},
      {"line", K.Line},
      {"resources", std::move(Res)},
      {"profile", std::move(Profile)},
      {"configs", std::move(Configs)},
      {"pareto", std::move(Pareto)},
      {"picks", std::move(Picks)},
      {"model_picks", std::move(ModelPicks)},
      {"ties", std::move(TieObj)},
      {"recommendations", std::move(Recs)},
      {"pick_explanations", std::move(Explanations)},
      {"search_space_reduction", round10(R.SearchSpaceReduction)},
      {"shape_held", R.ShapeHeld},
      {"block_size_agnostic", isBlockSizeAgnostic(K)},
      {"shape_reason", R.ShapeReason},
      {"explanation", R.Explanation},
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

bool readKernel(const json::Value &V, ReportKernel &K, json::Path P) {
  json::ObjectMapper O(V, P);
  if (!O || !O.map("name", K.Name) || !O.map("file", K.File) ||
      !O.map("line", K.Line))
    return false;
  if (!O.mapOptional("display_name", K.DisplayName) ||
      !O.mapOptional("explanation", K.Explanation) ||
      !O.mapOptional("path", K.Path) ||
      !O.mapOptional("file_local", K.FileLocal))
    return false;
  // Reports written before "file_local": the mangled name says it.
  K.FileLocal = K.FileLocal || isFileLocalKernelName(K.Name);
  const json::Object *Obj = V.getAsObject();
  if (const json::Object *R = Obj->getObject("resources"))
    if (auto Regs = R->getInteger("registers"))
      K.Registers = static_cast<unsigned>(*Regs);
  const json::Array *Configs = Obj->getArray("configs");
  if (!Configs) {
    P.field("configs").report("expected an array");
    return false;
  }
  K.NumConfigs = Configs->size();
  const json::Object *Picks = Obj->getObject("picks");
  if (!Picks) {
    P.field("picks").report("expected an object");
    return false;
  }
  for (const char *Name : ReportPickNames) {
    const json::Value *PV = Picks->get(Name);
    if (!PV)
      continue;
    json::Path PP = P.field("picks").field(Name);
    auto Idx = PV->getAsInteger();
    if (!Idx) {
      PP.report("expected an index into configs");
      return false;
    }
    if (*Idx < 0 || static_cast<size_t>(*Idx) >= Configs->size()) {
      PP.report("index out of range of configs");
      return false;
    }
    ReportPick Pick;
    Pick.Index = static_cast<size_t>(*Idx);
    const json::Value &C = (*Configs)[Pick.Index];
    json::Path CP = P.field("configs").index(Pick.Index);
    json::ObjectMapper CO(C, CP);
    if (!CO || !CO.map("min_blocks_per_sm", Pick.MinBlocksPerSM))
      return false;
    const json::Object *CObj = C.getAsObject();
    const json::Value *Block = CObj->get("block");
    if (!Block) {
      CP.field("block").report("missing value");
      return false;
    }
    if (!readDims(*Block, Pick.Block, CP.field("block")))
      return false;
    Pick.PowerLimitW = CObj->getNumber("power_limit_w").value_or(0);
    Pick.Lever = CObj->getString("lever").value_or("none").str();
    Pick.LeverValue = CObj->getNumber("lever_value").value_or(0);
    Pick.TimeS = CObj->getNumber("time_s").value_or(0);
    Pick.EnergyJ = CObj->getNumber("energy_j").value_or(0);
    K.Picks[Name] = Pick;
  }
  return true;
}
} // namespace

const ReportKernel *Report::find(StringRef Name) const {
  for (const ReportKernel &K : Kernels)
    if (K.Name == Name || K.DisplayName == Name)
      return &K;
  return nullptr;
}

Expected<Report> parseReport(StringRef Text) {
  Expected<json::Value> V = json::parse(Text);
  if (!V)
    return V.takeError();
  Report R;
  json::Path::Root Root("report");
  json::Path P(Root);
  auto Fail = [&]() -> Error {
    return createStringError(inconvertibleErrorCode(), "%s",
                             toString(Root.getError()).c_str());
  };
  json::ObjectMapper O(*V, P);
  if (!O || !O.map("schema_version", R.SchemaVersion))
    return Fail();
  if (R.SchemaVersion != ReportSchemaVersion)
    return createStringError(inconvertibleErrorCode(),
                             "unsupported report schema_version %u (this "
                             "FlipFlop reads version %u)",
                             R.SchemaVersion, ReportSchemaVersion);
  if (!O.mapOptional("tool", R.Tool))
    return Fail();
  const json::Object *Obj = V->getAsObject();
  if (const json::Object *G = Obj->getObject("gpu")) {
    if (auto N = G->getString("name"))
      R.GPUName = N->str();
  }
  const json::Array *Ks = Obj->getArray("kernels");
  if (!Ks) {
    P.field("kernels").report("expected an array");
    return Fail();
  }
  for (size_t I = 0; I < Ks->size(); ++I) {
    ReportKernel K;
    if (!readKernel((*Ks)[I], K, P.field("kernels").index(I)))
      return Fail();
    R.Kernels.push_back(std::move(K));
  }
  return R;
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

} // namespace flipflop
