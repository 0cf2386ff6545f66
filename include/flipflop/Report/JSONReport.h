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
#include <optional>
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

/// One element of "configs": what the readers use of a configuration.
/// Numbers absent or null (the writer prints non-finite numbers as null)
/// read as 0.
struct ReportConfig {
  std::array<unsigned, 3> Block{0, 0, 0};
  unsigned MinBlocksPerSM = 0;
  unsigned Registers = 0; ///< Per thread after the cap; 0: not reported.
  double PowerLimitW = 0, ClockMHz = 0;
  double TimeS = 0, EnergyJ = 0;
  /// "lever" as written: "none", "power_limit", "locked_clock"; "" in
  /// reports written before levers, where each reader decides from
  /// PowerLimitW against a default limit.
  std::string Lever;
  double LeverValue = 0; ///< W or MHz.
  bool Valid = true;
  /// [low, high] of time_s, avg_power_w, energy_j (valid configurations).
  std::optional<std::array<double, 2>> TimeBandS, PowerBandW, EnergyBandJ;
};

/// What a reader needs of a pick: its index into "configs" and that
/// configuration's figures.
struct ReportPick {
  size_t Index = 0;
  std::array<unsigned, 3> Block{0, 0, 0};
  unsigned MinBlocksPerSM = 0;
  double PowerLimitW = 0;
  double TimeS = 0, EnergyJ = 0;
  std::string Lever = "none"; ///< "none", "power_limit", "locked_clock".
  double LeverValue = 0;      ///< W or MHz.
};

/// An element of "ties": the pick was decided by a tie.
struct ReportTie {
  size_t ModelOptimum = 0; ///< Index into "configs".
  double AdvantagePct = 0, BandPct = 0;
};

/// An element of "recommendations": how to set a pick's lever. The command
/// fields are empty for a pick without a lever.
struct ReportRecommendation {
  std::string Lever = "none";
  std::string Command, NVML, Reset, Note;
  /// "acts_per_kernel" where written (with a lever).
  std::optional<bool> ActsPerKernel;
};

/// An element of "resources.cap_facts": ptxas under one register cap.
struct ReportCapFact {
  int64_t Cap = 0, Registers = 0, SpillBytes = 0;
};

/// "resources".
struct ReportResources {
  int64_t Registers = 0, SharedBytes = 0, SpillBytes = 0;
  bool RegistersExact = false;
  std::vector<ReportCapFact> CapFacts;
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
  /// "gpu": the kernel's GPU in a merged report (flipflop-report merge
  /// writes it); std::nullopt in a report of one compile.
  std::optional<std::string> GPU;
  std::optional<ReportResources> Resources;
  std::vector<ReportConfig> Configs;
  std::vector<size_t> Pareto; ///< Indices into Configs.
  std::map<std::string, ReportPick> Picks;  ///< By name ("fastest", ...).
  std::map<std::string, size_t> ModelPicks; ///< Indices into Configs.
  std::map<std::string, ReportTie> Ties;
  std::map<std::string, ReportRecommendation> Recommendations;
  double SearchSpaceReduction = 0;
  bool ShapeHeld = false;
  std::string ShapeReason;
  bool BlockSizeAgnostic = false;
  std::string Explanation;
  std::vector<std::string> Guesses; ///< "profile.guesses".
  /// The kernel's object as read. Readers use the typed fields above; the
  /// object is kept only so that toJSON(Report) (flipflop-report merge)
  /// re-emits a kernel byte for byte, with the fields no reader types
  /// ("profile", "launches", the configurations' other figures, fields of
  /// a newer writer) included.
  llvm::json::Object Raw;

  const ReportConfig *pick(llvm::StringRef Name) const;
};

/// "gpu".
struct ReportGPU {
  std::string Name;
  double PowerDefaultW = 0; ///< "power_default_w"; 0: not written.
  /// The object as read, re-emitted by toJSON(Report) (see ReportKernel).
  llvm::json::Object Raw;
};

/// "bands": the comparison bands a reader uses (fractions).
struct ReportBands {
  std::optional<double> CompareTimeRel, ComparePowerRel, CompareEnergyRel;
  /// The object as read, re-emitted by toJSON(Report) (see ReportKernel).
  llvm::json::Object Raw;
};

struct Report {
  unsigned SchemaVersion = 0;
  std::string Tool;
  std::optional<ReportGPU> GPU; ///< std::nullopt: the report has none.
  std::optional<ReportBands> Bands;
  /// "gpus": every GPU of a merged report with more than one.
  std::vector<std::string> GPUs;
  std::vector<ReportKernel> Kernels;
  const ReportKernel *find(llvm::StringRef Name) const;
};

/// The mappings (llvm::json::ObjectMapper) parseReport reads with; on
/// failure they report the error at \p P. Indices into "configs" are
/// checked.
bool fromJSON(const llvm::json::Value &V, ReportConfig &C,
              llvm::json::Path P);
bool fromJSON(const llvm::json::Value &V, ReportCapFact &F,
              llvm::json::Path P);
bool fromJSON(const llvm::json::Value &V, ReportResources &R,
              llvm::json::Path P);
bool fromJSON(const llvm::json::Value &V, ReportRecommendation &R,
              llvm::json::Path P);
bool fromJSON(const llvm::json::Value &V, ReportKernel &K,
              llvm::json::Path P);
bool fromJSON(const llvm::json::Value &V, ReportGPU &G, llvm::json::Path P);
bool fromJSON(const llvm::json::Value &V, ReportBands &B, llvm::json::Path P);
/// Does not check the version; parseReport does.
bool fromJSON(const llvm::json::Value &V, Report &R, llvm::json::Path P);

/// Reads a report; errors name the JSON path ("index out of range of
/// configs at report.kernels[0].picks.fastest").
llvm::Expected<Report> parseReport(llvm::StringRef Text);
/// The same for a report already parsed as JSON (reportToJSON's value).
llvm::Expected<Report> reportFromJSON(const llvm::json::Value &V);
llvm::Expected<Report> readReportFile(llvm::StringRef Path);

/// The JSON of a report read by parseReport (and perhaps merged): the typed
/// top level ("schema_version", "tool" when not empty, "gpus" when not
/// empty) and the objects as read ("gpu", "bands", each kernel, with the
/// kernel's "gpu" from ReportKernel::GPU).
llvm::json::Value toJSON(const Report &R);

} // namespace flipflop

#endif
