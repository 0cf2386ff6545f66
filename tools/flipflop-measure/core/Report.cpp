//===- Report.cpp - The shared prediction/measurement report schema -------===//
#include "Report.h"
#include <cmath>

namespace flipflop {
namespace measure {

const KernelRecord *ReportFile::find(const std::string &Name) const {
  for (const KernelRecord &K : Kernels)
    if (K.Name == Name)
      return &K;
  return nullptr;
}

json::Value dim3ToJSON(const std::array<unsigned, 3> &D) {
  return json::Array{json::Value(D[0]), json::Value(D[1]), json::Value(D[2])};
}

json::Value configToJSON(const ConfigRecord &C) {
  json::Value O = json::Value::object();
  O["block"] = dim3ToJSON(C.Block);
  O["grid"] = dim3ToJSON(C.Grid);
  O["min_blocks_per_sm"] = C.MinBlocksPerSM;
  O["power_limit_w"] = C.PowerLimitW;
  O["occupancy"] =
      std::isnan(C.Occupancy) ? json::Value() : json::Value(C.Occupancy);
  O["time_s"] = C.TimeS;
  O["avg_power_w"] = C.AvgPowerW;
  O["energy_j"] = C.EnergyJ;
  if (!C.Valid)
    O["valid"] = false;
  return O;
}

namespace {
Error parseConfig(const json::Value &V, ConfigRecord &C) {
  if (!V.is_object())
    return makeError("expected an object");
  unsigned B[3] = {0, 0, 0}, G[3] = {0, 0, 0};
  if (Error E = json::getDim3(V, "block", B))
    return E;
  if (Error E = json::getDim3(V, "grid", G, /*Required=*/false))
    return E;
  C.Block = {B[0], B[1], B[2]};
  C.Grid = {G[0], G[1], G[2]};
  double M = 0;
  if (Error E = json::getNumber(V, "min_blocks_per_sm", M, false))
    return E;
  if (M < 0 || M != std::floor(M))
    return makeError("\"min_blocks_per_sm\": expected a non-negative integer");
  C.MinBlocksPerSM = unsigned(M);
  if (Error E = json::getNumber(V, "power_limit_w", C.PowerLimitW, false))
    return E;
  // "occupancy" is a fraction; an object form {"fraction": f} is accepted.
  if (const json::Value *O = json::find(V, "occupancy")) {
    if (O->is_number())
      C.Occupancy = O->get<double>();
    else if (O->is_object())
      for (const char *K : {"fraction", "theoretical", "value"})
        if (const json::Value *F = json::find(*O, K))
          if (F->is_number()) {
            C.Occupancy = F->get<double>();
            break;
          }
  }
  if (const json::Value *Valid = json::find(V, "valid")) {
    if (!Valid->is_boolean())
      return makeError("\"valid\": expected true or false");
    C.Valid = Valid->get<bool>();
  }
  bool Req = C.Valid;
  if (Error E = json::getNumber(V, "time_s", C.TimeS, Req))
    return E;
  if (Error E = json::getNumber(V, "energy_j", C.EnergyJ, Req))
    return E;
  if (Error E = json::getNumber(V, "avg_power_w", C.AvgPowerW, false))
    return E;
  if (C.Valid && (!(C.TimeS > 0) || !(C.EnergyJ > 0)))
    return makeError("time_s and energy_j must be positive");
  return Error::success();
}
} // namespace

Result<ReportFile> parseReport(const json::Value &V) {
  ReportFile R;
  if (!V.is_object())
    return makeError("expected an object at the top level");
  double SV = 0;
  if (Error E = json::getNumber(V, "schema_version", SV))
    return E;
  R.SchemaVersion = int(SV);
  if (R.SchemaVersion != ReportSchemaVersion)
    return makeError("schema_version " + json::formatNumber(SV) +
                     " is not supported (expected " +
                     std::to_string(ReportSchemaVersion) + ")");
  if (Error E = json::getString(V, "tool", R.Tool, false))
    return E;
  if (const json::Value *G = json::find(V, "gpu")) {
    if (!G->is_object())
      return makeError("gpu: expected an object");
    if (Error E = json::getString(*G, "name", R.GPUName, false))
      return E.prefix("gpu: ");
    if (Error E = json::getNumber(*G, "default_power_limit_w",
                                  R.DefaultPowerLimitW, false))
      return E.prefix("gpu: ");
  }
  const json::Value *Ks = json::find(V, "kernels");
  if (!Ks || !Ks->is_array())
    return makeError("missing \"kernels\" array");
  for (size_t I = 0; I < json::elements(*Ks).size(); ++I) {
    const json::Value &KV = json::elements(*Ks)[I];
    std::string Where = "kernels[" + std::to_string(I) + "]";
    KernelRecord K;
    if (!KV.is_object())
      return makeError(Where + ": expected an object");
    if (Error E = json::getString(KV, "name", K.Name))
      return E.prefix(Where + ": ");
    if (const json::Value *H = json::find(KV, "occupancy_heuristic")) {
      unsigned B[3] = {0, 0, 0};
      if (H->is_object() && json::find(*H, "block")) {
        if (Error E = json::getDim3(*H, "block", B))
          return E.prefix(Where + ".occupancy_heuristic: ");
        K.HeuristicBlock = B[0] * B[1] * B[2];
      }
    }
    const json::Value *Cs = json::find(KV, "configs");
    if (!Cs || !Cs->is_array())
      return makeError(Where + ": missing \"configs\" array");
    for (size_t J = 0; J < json::elements(*Cs).size(); ++J) {
      ConfigRecord C;
      if (Error E = parseConfig(json::elements(*Cs)[J], C))
        return E.prefix(Where + ".configs[" + std::to_string(J) + "]: ");
      K.Configs.push_back(C);
    }
    R.Kernels.push_back(std::move(K));
  }
  return R;
}

Result<ReportFile> loadReport(const std::string &Path) {
  Result<json::Value> V = json::readFile(Path);
  if (!V)
    return V.takeError();
  Result<ReportFile> R = parseReport(*V);
  if (!R)
    return R.takeError().prefix(Path + ": ");
  return R;
}

} // namespace measure
} // namespace flipflop
