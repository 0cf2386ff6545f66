//===- flipflop/Plugin/Options.h - The plugin's options, three routes -----===//
//
// Every option can be given three ways; the first that sets it wins:
//   1. the command line: -mllvm -flipflop-<name>=... (clang also needs
//      -fplugin=FlipFlop.so so the options exist when -mllvm is parsed);
//   2. the environment: FLIPFLOP_GPU, FLIPFLOP_OBJECTIVE, FLIPFLOP_REPORT_DIR,
//      FLIPFLOP_VERBOSITY, FLIPFLOP_PTXAS, FLIPFLOP_APPLY_BOUNDS, ...;
//   3. a config file: FLIPFLOP_CONFIG=path, else `.flipflop.json` found by
//      walking up from the compiled source's directory.
// docs/OPTIONS.md documents each option.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_PLUGIN_OPTIONS_H
#define FLIPFLOP_PLUGIN_OPTIONS_H

#include "flipflop/Model/Recommender.h"
#include "flipflop/Profile/IRProfile.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <string>
#include <vector>

namespace flipflop {

/// A launch to predict as written (option "launch"), on \p GPU or, when
/// empty, on the compile's GPU. The report gives its prediction beside the
/// sweep: what the code does today, or what a tuner measured.
struct LaunchRequest {
  std::string GPU;
  std::array<unsigned, 3> Block{1, 1, 1};
  std::array<unsigned, 3> Grid{1, 1, 1};
};

/// How FlipFlop's own problems (FF900..FF902: a bad option, an unknown GPU,
/// an unusable ptxas, an unwritable report directory, an internal failure)
/// reach the user besides their remarks (docs/remarks/README.md).
enum class WarningMode {
  Off,     ///< Remarks only.
  On,      ///< A clang warning (-Wbackend-plugin), never an error under a
           ///< plain -Werror.
  Error,   ///< A clang error: the compile fails (opt-in).
};

struct PluginOptions {
  std::string GPU;               ///< Name or spec file; empty: from sm_XX.
  Objective Obj = Objective::Energy;
  double BudgetPct = 5;          ///< For Objective::EnergyWithinBudget.
  double PowerMinW = 0, PowerMaxW = 0; ///< 0: the GPU's own range.
  unsigned PowerSteps = 8;
  uint64_t ProblemSize = 0;      ///< Threads of work (0: model default).
  std::string ReportDir;         ///< Empty: no JSON report.
  unsigned Verbosity = 0;        ///< 0: one line per kernel; 1: +why; 2: +Pareto.
  /// ptxas inside the compile: "off" (default: it would add a second ptxas
  /// run to every device compile, +35% compile time, docs/PERFORMANCE.md),
  /// "" (on: search for it), or a path.
  std::string Ptxas = "off";
  bool PTXAnalysis = true;       ///< Analyse the emitted PTX (clang only).
  bool ApplyBounds = false;      ///< Write nvvm.maxntid/minctasm (opt-in).
  WarningMode Warnings = WarningMode::On; ///< Option "warnings".
  LaunchFacts Facts;
  /// The dynamic shared memory of every kernel that uses it (option
  /// "dynamic_shared"); 0 and 0: unknown.
  DynamicSharedSize DynamicShared;
  std::vector<LaunchRequest> Launches; ///< Predicted into the JSON report.
  std::string ConfigFile;        ///< Which config file was read, if any.
  /// Where each option came from ("cl", "env", "config", "default").
  std::string GPUFrom = "default", ObjectiveFrom = "default",
              ReportDirFrom = "default";
  /// Problems found (an unknown value, a broken config file): each becomes
  /// a remark; the defaults stay in force for that option.
  std::vector<std::string> Errors;
};

/// Resolves the options for a module compiled from \p SourceFile.
PluginOptions resolveOptions(llvm::StringRef SourceFile);

} // namespace flipflop

#endif
