//===- flipflop/Driver/Analyze.h - One analysis for the plugin and tools --===//
//
// The steps every front end shares once it holds kernel profiles and their
// PTX: exact resources from ptxas, the sweep, and ptxas again under the
// register caps the Pareto front proposes (to learn whether they spill).
// The plugin and flipflop-ptx both call these, so nothing is computed twice
// in two places.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_DRIVER_ANALYZE_H
#define FLIPFLOP_DRIVER_ANALYZE_H

#include "flipflop/Model/Recommender.h"
#include "flipflop/Profile/KernelProfile.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace flipflop {

struct AnalyzeOptions {
  std::string Ptxas;      ///< "off", a path, or empty (search).
  std::string Arch;       ///< sm_XX for ptxas; empty: the PTX's .target.
  SweepOptions Sweep;
  bool RefineCaps = true; ///< ptxas under the Pareto front's register caps.
};

/// What happened with ptxas, for reports ("registers estimated: ...").
struct PtxasStatus {
  bool Used = false;
  std::string Path;
  std::string Problem; ///< Why not used (not found, failed), or empty.
};

/// Runs ptxas -v on \p PTX (unless off or not found) and merges the exact
/// resources into the kernels of the same name.
PtxasStatus applyPtxas(std::vector<KernelProfile> &Kernels, llvm::StringRef PTX,
                       const AnalyzeOptions &Opts);

/// Sweeps \p K on \p GPU. With ptxas available and RefineCaps, every register
/// cap on the Pareto front that is below the kernel's need is compiled by
/// ptxas with -maxrregcount; the facts are added to K.CapFacts and the sweep
/// is redone once with them. The sweep's plausibility findings
/// (SweepResult::Implausible, SweepResult::Warnings) are added to K.Warnings.
SweepResult recommend(KernelProfile &K, const GPUSpec &GPU, llvm::StringRef PTX,
                      const AnalyzeOptions &Opts, const PtxasStatus &Ptxas);

} // namespace flipflop

#endif
