//===- Report.h - The shared prediction/measurement report schema ---------===//
//
// flipflop-ptx --json (predictions) and flipflop-measure (measurements) write
// the same schema, so that flipflop-validate can line them up field for
// field:
//
//   { "schema_version": 1, "gpu": {"name": ...},
//     "kernels": [ { "name": ..., "configs": [
//        { "block": [x,y,z], "grid": [x,y,z], "min_blocks_per_sm": M,
//          "power_limit_w": W, "occupancy": f, "time_s": t,
//          "avg_power_w": p, "energy_j": e, ... } ] } ] }
//
// This reader keeps the fields validation needs and ignores the rest, so
// either tool may add fields without breaking the other.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_REPORT_H
#define FLIPFLOP_MEASURE_REPORT_H

#include "Json.h"
#include "Result.h"
#include <array>
#include <limits>
#include <string>
#include <vector>

namespace flipflop {
namespace measure {

/// The schema version of include/flipflop/Report/JSONReport.h, repeated
/// because this build has no LLVM; unittests/Report/SchemaVersionTest.cpp
/// checks (static_assert) that the two agree.
constexpr int ReportSchemaVersion = 1;

struct ConfigRecord {
  std::array<unsigned, 3> Block{0, 0, 0};
  std::array<unsigned, 3> Grid{0, 0, 0};
  unsigned MinBlocksPerSM = 0;
  double PowerLimitW = 0; ///< 0: the GPU's default limit.
  double Occupancy = std::numeric_limits<double>::quiet_NaN();
  double TimeS = 0, AvgPowerW = 0, EnergyJ = 0;
  bool Valid = true;
  unsigned blockThreads() const { return Block[0] * Block[1] * Block[2]; }
};

struct KernelRecord {
  std::string Name;
  std::vector<ConfigRecord> Configs;
  /// Block chosen by the driver's occupancy heuristic
  /// (cuOccupancyMaxPotentialBlockSize), when the report records it.
  unsigned HeuristicBlock = 0;
};

struct ReportFile {
  int SchemaVersion = 0;
  std::string Tool;
  std::string GPUName;
  double DefaultPowerLimitW = 0; ///< 0: unknown.
  std::vector<KernelRecord> Kernels;
  const KernelRecord *find(const std::string &Name) const;
};

/// Reads a report; errors name the place ("kernels[1].configs[4].time_s").
Result<ReportFile> parseReport(const json::Value &V);
Result<ReportFile> loadReport(const std::string &Path);

/// JSON of one configuration's common fields (the measurement tool adds its
/// own fields to the returned object).
json::Value configToJSON(const ConfigRecord &C);
json::Value dim3ToJSON(const std::array<unsigned, 3> &D);

} // namespace measure
} // namespace flipflop

#endif
