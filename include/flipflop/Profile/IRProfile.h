//===- flipflop/Profile/IRProfile.h - KernelProfile from NVPTX IR ---------===//
//
// The IR front end: an LLVM module analysis that builds one KernelProfile per
// kernel (calling convention PTX_Kernel) of an NVPTX module.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_PROFILE_IRPROFILE_H
#define FLIPFLOP_PROFILE_IRPROFILE_H

#include "flipflop/Profile/KernelProfile.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/IR/PassManager.h"
#include <cstdint>
#include <functional>
#include <array>
#include <map>
#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace flipflop {

/// Facts known about launches, used to resolve symbolic trip counts.
struct LaunchFacts {
  /// Kernel argument values by index (all kernels) for SCEV evaluation.
  std::map<unsigned, int64_t> ArgValues;
  /// Block size assumed when evaluating counts that depend on blockDim
  /// (the model rescales them per configuration).
  unsigned AssumedBlockX = 256;
  /// Total threads of the launch, for grid-stride loops (0: unknown).
  uint64_t TotalThreads = 0;
  /// The launch's grid, where the user states one (the plugin's launches,
  /// when they all share it); 0: unknown. Loops whose bounds read gridDim
  /// (not grid-stride loops) are counted at it.
  std::array<unsigned, 3> Grid{0, 0, 0};
  /// Trip count used when a count cannot be resolved (documented default).
  double DefaultTrip = 16;
  /// Testing only: simulate an internal crash while profiling kernels whose
  /// name contains this string (proves the soft-fail path).
  std::string CrashTestKernel;
};

/// Builds the profile of kernel \p F. Needs the function analyses of \p F and
/// of the device functions it calls through \p FAM.
KernelProfile buildIRProfile(llvm::Function &F,
                             llvm::FunctionAnalysisManager &FAM,
                             const LaunchFacts &Facts);

/// Finds comparisons of blockDim against constants in \p F whose failing
/// side does no work (an assert, a trap, an early return) and records them in
/// \p S (CheckedDim, CheckedMax, CheckedMin, CheckedThreads, CheckFacts).
void findBlockDimChecks(const llvm::Function &F, ShapeInfo &S);

/// True for a CUDA kernel (PTX_Kernel calling convention or nvvm annotation).
bool isKernel(const llvm::Function &F);

/// Module analysis: the profiles of every kernel of an NVPTX module. Each
/// kernel is profiled inside a crash-recovery context: a kernel whose
/// analysis fails gets a profile with only its name and Internal set, and the
/// other kernels are unaffected. (Inside clang the driver has crash recovery
/// enabled; elsewhere the analysis simply runs.)
class KernelProfileAnalysis
    : public llvm::AnalysisInfoMixin<KernelProfileAnalysis> {
  friend llvm::AnalysisInfoMixin<KernelProfileAnalysis>;
  static llvm::AnalysisKey Key;

public:
  /// Where each module's launch facts come from: the plugin registers the
  /// analysis with its analysis managers once, and resolves the facts from
  /// the options of each module it is asked about.
  using FactsFn = std::function<LaunchFacts(const llvm::Module &)>;

  explicit KernelProfileAnalysis(LaunchFacts Facts = {}) : Facts(Facts) {}
  explicit KernelProfileAnalysis(FactsFn GetFacts)
      : GetFacts(std::move(GetFacts)) {}
  using Result = llvm::MapVector<const llvm::Function *, KernelProfile>;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

private:
  LaunchFacts Facts;
  FactsFn GetFacts; ///< When set, replaces Facts.
};

} // namespace flipflop

#endif
