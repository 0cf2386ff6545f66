//===- flipflop/Report/JSONReport.h - The versioned JSON report -*- C++ -*-===//
//
// One schema for every FlipFlop tool (docs/REPORT-SCHEMA.md): the pass's
// report directory, flipflop-ptx --json, the merge command and
// flipflop-apply all read and write it. Output is deterministic: object keys
// sorted, numbers printed with a fixed format.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_REPORT_JSONREPORT_H
#define FLIPFLOP_REPORT_JSONREPORT_H

#include "flipflop/Model/Recommender.h"
#include "flipflop/Profile/KernelProfile.h"
#include "flipflop/Target/GPUSpec.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <map>
#include <string>
#include <vector>

namespace flipflop {

/// Version of the schema written; readers accept this version only.
constexpr unsigned ReportSchemaVersion = 1;

/// Names of the picks, in the order the schema lists them.
extern const char *const ReportPickNames[5];

/// The JSON of one configuration (an element of "configs").
llvm::json::Value predictionToJSON(const Prediction &P);
/// Whether the mangled name \p Name is that of a kernel local to its
/// translation unit: a static function (Itanium "L" before its name:
/// "_ZL12local_kernelPf", "_ZN2nsL1kEPf") or one whose name involves an
/// anonymous namespace ("_GLOBAL__N_"). Two files may each define one of
/// that name; the device IR gives both external linkage, so the mangling
/// is what tells them apart.
bool isFileLocalKernelName(llvm::StringRef Name);

/// \p File as a normalised absolute path (made absolute against the current
/// directory, "." and ".." removed); "" for an empty name or a pseudo-file
/// ("<stdin>").
std::string normalisedPath(llvm::StringRef File);

/// The JSON of one kernel: identity, resources, profile summary and the
/// sweep (configs, pareto, picks, explanation). A file-local kernel
/// (isFileLocalKernelName) carries "file_local": true; "path" is "file" as
/// a normalised absolute path.
llvm::json::Value kernelToJSON(const KernelProfile &K, const SweepResult &R);
/// The whole report.
llvm::json::Value reportToJSON(const GPUSpec &GPU,
                               std::vector<llvm::json::Value> Kernels,
                               llvm::StringRef Tool);

/// Prints \p V deterministically: keys sorted, two-space indentation,
/// integral numbers as integers, others with %.10g.
void printJSON(const llvm::json::Value &V, llvm::raw_ostream &OS);
/// Writes \p V to \p Path atomically (temporary file in the same directory,
/// then rename).
llvm::Error writeJSONFile(const llvm::json::Value &V, llvm::StringRef Path);

/// What a reader needs of a pick.
struct ReportPick {
  size_t Index = 0;
  std::array<unsigned, 3> Block{0, 0, 0};
  unsigned MinBlocksPerSM = 0;
  double PowerLimitW = 0;
  double TimeS = 0, EnergyJ = 0;
  std::string Lever = "none"; ///< "none", "power_limit", "locked_clock".
  double LeverValue = 0;      ///< W or MHz.
};

/// What a reader needs of a kernel.
struct ReportKernel {
  std::string Name, DisplayName, File;
  /// "path": the normalised absolute path of File ("" in older reports).
  std::string Path;
  /// "file_local": local to its translation unit (static, anonymous
  /// namespace); also true when the report predates the field and the
  /// mangled name says so.
  bool FileLocal = false;
  unsigned Line = 0;
  unsigned Registers = 0;
  size_t NumConfigs = 0;
  std::map<std::string, ReportPick> Picks; ///< By name ("fastest", ...).
  std::string Explanation;
};

struct Report {
  unsigned SchemaVersion = 0;
  std::string Tool;
  std::string GPUName;
  std::vector<ReportKernel> Kernels;
  const ReportKernel *find(llvm::StringRef Name) const;
};

/// Reads a report; errors name the JSON path ("$.kernels[0].picks.fastest:
/// index 7 out of range").
llvm::Expected<Report> parseReport(llvm::StringRef Text);
llvm::Expected<Report> readReportFile(llvm::StringRef Path);

} // namespace flipflop

#endif
