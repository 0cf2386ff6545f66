//===- flipflop/Report/AppAdvice.h - One power setting for a program -*- C++ -*-===//
//
// Application-level advice (docs/MODEL.md "Levers, bands and ties"): one
// power limit or one locked SM clock for a whole program, chosen from every
// kernel of a (merged) report weighted by its share of the program's GPU
// time, and per-kernel advice only where a kernel runs long enough for the
// setting to act. Computed from the report alone (read by parseReport), so
// flipflop-report and the HTML page give the same answer. Implemented in
// AppAdvice.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_REPORT_APPADVICE_H
#define FLIPFLOP_REPORT_APPADVICE_H

#include "flipflop/Report/JSONReport.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>
#include <vector>

namespace flipflop {

struct AppAdviceOptions {
  /// Launches per kernel, keyed by mangled name, display name, or the
  /// display name's function name (before '('). Kernels not named run once.
  std::map<std::string, double> Launches;
  /// Least energy among settings whose total time is within this many
  /// percent of the default setting's.
  double SlowdownBudgetPct = 5;
  /// The pick whose block and register cap each kernel is taken to run at
  /// (the configuration the program is assumed to launch).
  std::string At = "occupancy_heuristic";
};

/// Parses "KERNEL=N[,KERNEL=N...]" into \p Out. Commas inside a demangled
/// name ("saxpy(float, float*)=10") are kept: a piece without '=' belongs to
/// the next one. Errors name the bad item.
llvm::Error parseLaunchCounts(llvm::StringRef Text,
                              std::map<std::string, double> &Out);
/// Reads a JSON object {"KERNEL": N, ...} into \p Out.
llvm::Error readLaunchCountsFile(llvm::StringRef Path,
                                 std::map<std::string, double> &Out);

/// One kernel's part in the program.
struct AppKernel {
  std::string Name, DisplayName;
  double Launches = 1;
  bool LaunchesGiven = false;   ///< From the user, not the default of 1.
  double TimeS = 0, EnergyJ = 0; ///< Per launch, default setting.
  double Share = 0;             ///< Of the program's GPU time (default).
  /// The kernel's own recommended lever (pick "energy_within_budget") and
  /// whether the kernel runs long enough for it to act.
  std::string Lever = "none";
  double LeverValue = 0;
  double PickTimeS = 0;
  bool Acts = true;
  std::string Advice; ///< One sentence: the per-kernel setting, or why not.
};

/// One program-wide setting: no lever, a power limit or a locked clock.
struct AppSetting {
  std::string Lever = "none";
  double Value = 0;             ///< W or MHz.
  double TimeS = 0, EnergyJ = 0; ///< Whole program (launch-weighted).
};

struct AppAdvice {
  std::string GPU;
  std::string At; ///< The pick each kernel was taken to run at.
  double DefaultLimitW = 0;
  std::vector<AppKernel> Kernels;
  AppSetting Default, Best;
  size_t NumSettings = 0; ///< Settings evaluated (common to all kernels).
  /// The best setting's saving is inside the energy comparison band: a
  /// tie, and the default (no lever) is recommended.
  bool Tie = false;
  double SavingPct = 0, SlowdownPct = 0, BandPct = 0;
  bool AnyLaunchesGiven = false, AllLaunchesGiven = false;
  std::vector<std::string> Notes;
};

/// Advice per GPU of \p R (a report, or a merged one with several GPUs),
/// in GPU name order. \p Unmatched receives the names in Options.Launches
/// that match no kernel.
std::vector<AppAdvice> computeAppAdvice(const Report &R,
                                        const AppAdviceOptions &Options,
                                        std::vector<std::string> *Unmatched =
                                            nullptr);

/// The text form (flipflop-report summary / advice).
void printAppAdvice(const std::vector<AppAdvice> &Advice,
                    llvm::raw_ostream &OS);

} // namespace flipflop

#endif
