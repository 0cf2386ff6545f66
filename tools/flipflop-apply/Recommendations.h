//===- Recommendations.h - FlipFlop recommendations for flipflop-apply ----===//
//
// What flipflop-apply needs from a FlipFlop report: for each kernel (by its
// device-side mangled name), the recommended maximum threads per block and
// minimum resident blocks per SM, and whether the kernel is known to be
// block-size-agnostic. Reports come as FlipFlop JSON (docs/REPORT-SCHEMA.md)
// or as the YAML optimisation record of the plugin's FF001 summary remark.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_TOOLS_APPLY_RECOMMENDATIONS_H
#define FLIPFLOP_TOOLS_APPLY_RECOMMENDATIONS_H

#include "flipflop/Report/JSONReport.h"
#include "flipflop/Report/RemarkArgs.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace flipflop {
namespace apply {

/// Which of a JSON report's picks to apply.
enum class Pick { Energy, Time, EDP, Budget };

/// The plugin's name of the objective behind pick \p P ("energy", ...).
llvm::StringRef objectiveName(Pick P);

/// The report's pick names ("least_energy", ...), in the schema's spelling.
llvm::StringRef pickKey(Pick P);

// The plugin's FF001 summary remark is read through the remark IDs and
// argument keys the plugin writes (flipflop/Report/RemarkArgs.h,
// flipflop::remark). The kernel is the remark's Function (the mangled IR
// name); its "Kernel" argument is only used when the remark has no
// Function; MinBlocks and BlockSizeAgnostic are optional, LockedClockMHz
// present only for a locked-clock pick.

/// How reports are read.
struct ReadOptions {
  Pick Objective = Pick::Energy;
  /// Write a min-blocks cap on the model's word where the report holds no
  /// ptxas fact of the cap (or, for remarks, no figures to compare).
  bool TrustModelCaps = false;
};

struct Recommendation {
  std::string Kernel;                    ///< Device-side mangled name.
  unsigned MaxThreads = 0;               ///< Threads per block (x*y*z).
  /// The minimum blocks per SM to write (0 or 1: none): the pick's minimum
  /// when its gain lies outside the comparison band and ptxas shows no new
  /// spills under its register cap, else 0 (docs/APPLY.md "Min-blocks").
  unsigned MinBlocks = 0;
  unsigned ModelMinBlocks = 0;           ///< The pick's minimum, unchecked.
  /// Why ModelMinBlocks is not written ("min-blocks 5 not written: ...").
  std::string CapNote;
  /// How a written minimum was checked, in a few words ("" when none).
  std::string CapCheck;
  /// The power/clock setting the recommendation was predicted under, in
  /// words: "default power and clocks", "run with power limit 180 W
  /// (nvidia-smi -pl 180, needs root)", "SM clock locked at 1410 MHz
  /// (nvidia-smi -lgc 1410,1410, needs root)".
  std::string Setting;
  bool HasLever = false; ///< Setting names a lever to set.
  /// The report decided the pick by a tie ("ties"): what the model's optimum
  /// was and why the less constraining configuration is applied.
  std::string TieNote;
  std::array<unsigned, 3> Block{0, 0, 0}; ///< Recommended shape; 0 unknown.
  /// True only when the report says so explicitly.
  bool BlockSizeAgnostic = false;
  std::string Origin;                    ///< Report file it came from.
  /// The kernel is local to its file (static, anonymous namespace): the
  /// recommendation applies only to the definition in File/Path
  /// (appliesToFile).
  bool FileLocal = false;
  std::string File; ///< The report's "file" (remarks: the location's file).
  std::string Path; ///< The report's "path": normalised absolute.
  std::string Objective; ///< Remarks: the objective they were made for.
};

/// The one step that turns a report's kernel (read by flipflop::parseReport)
/// into a recommendation: std::nullopt when the kernel has no pick \p P.
/// The min-blocks checks, the setting and the tie are added by
/// readJSONReport, which sees the whole report.
llvm::Expected<std::optional<Recommendation>>
recommendationFromReportKernel(const ReportKernel &Kernel,
                               bool BlockSizeAgnostic, Pick P,
                               llvm::StringRef Origin);

/// Whether \p R, for a kernel local to its file, is for the definition in
/// \p DefFile (a real path). The report's "path" where it exists on this
/// machine, else an absolute "file", is compared as a real path; a relative
/// "file" ("../src/v.cu", "v.cu") matches DefFile by suffix at a directory
/// boundary, its leading ".." dropped. std::nullopt: the report names no
/// file (a remark without a location).
std::optional<bool> appliesToFile(const Recommendation &R,
                                  llvm::StringRef DefFile);

/// Reads a whole JSON report (docs/REPORT-SCHEMA.md).
llvm::Expected<std::vector<Recommendation>>
readJSONReport(llvm::StringRef Text, const ReadOptions &Opts,
               llvm::StringRef Origin);

/// Reads the FF001 remarks of an -fsave-optimization-record YAML file.
llvm::Expected<std::vector<Recommendation>>
readRemarksYAML(llvm::StringRef Text, const ReadOptions &Opts,
                llvm::StringRef Origin);

/// Expands the --reports arguments (files, or directories scanned for *.json
/// and *.opt.yaml, sorted) and reads each one.
llvm::Expected<std::vector<Recommendation>>
readReports(llvm::ArrayRef<std::string> Paths, const ReadOptions &Opts,
            std::vector<std::string> &FilesRead);

} // namespace apply
} // namespace flipflop

#endif
