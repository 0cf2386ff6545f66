//===- PluginImpl.h - The plugin's parts (internal to FlipFlop.so) -------===//
//
// The pass (FlipFlop.cpp) gathers the kernels' profiles, then for each
// kernel: analyzeKernel (model; plain result) -> the remarks (Remarks.cpp)
// -> annotateIR (metadata, attributes) and applyBounds (opt-in nvvm bounds,
// Annotate.cpp) -> the module's JSON report (PluginReport.cpp). The -O2 copy
// of an unoptimised module and PTX emission live in CanonicalCopy.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_LIB_PLUGIN_PLUGINIMPL_H
#define FLIPFLOP_LIB_PLUGIN_PLUGINIMPL_H

#include "flipflop/Driver/Analyze.h"
#include "flipflop/Model/Recommender.h"
#include "flipflop/Plugin/Options.h"
#include "flipflop/Plugin/Plugin.h"
#include "flipflop/Profile/KernelProfile.h"
#include "flipflop/Target/GPUSpec.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class LLVMContext;
class Module;
class TargetMachine;
class raw_pwrite_stream;
} // namespace llvm

namespace flipflop {

class KernelRemarks;
class SourceCache;

/// The sm_XX a kernel is compiled for ("target-cpu"), or empty.
std::string archOf(const llvm::Function &F);
/// The sm_XX of the module's first kernel, or empty.
std::string archOf(const llvm::Module &M);

//===----------------------------------------------------------------------===//
// State kept between two callbacks on the same module
//===----------------------------------------------------------------------===//

/// A value handed from one plugin callback to a later one on the same
/// module, keyed by the module's address (clang gives the callbacks no other
/// identity). take() erases the entry: whoever consumes it frees it. An
/// entry nobody consumes (a compile that neither generates code nor writes
/// IR, e.g. -emit-llvm-only) is replaced or dropped by the next run of the
/// pass on a module at that address, so at most one per address outlives
/// its module.
template <typename T> class PerModule {
public:
  void put(const llvm::Module &M, T V) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Map.insert_or_assign(&M, std::move(V));
  }
  std::optional<T> take(const llvm::Module &M) {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Map.find(&M);
    if (It == Map.end())
      return std::nullopt;
    std::optional<T> V(std::move(It->second));
    Map.erase(It);
    return V;
  }
  void drop(const llvm::Module &M) { (void)take(M); }

private:
  std::mutex Mutex;
  std::map<const llvm::Module *, T> Map;
};

/// What the pass leaves for the PreCodeGen callback (or the IR writer hook)
/// of the same module: the profiles, the options, and what code generation
/// tells (filled in by mergeEmittedPTX).
struct DeferredModule {
  std::vector<KernelProfile> Profiles;
  PluginOptions Opts;
  ModuleFacts Facts;
  /// Clang's code generation level for this module, for the PTX of a copy
  /// when no code generation follows (-emit-llvm).
  llvm::CodeGenOptLevel CGLevel = llvm::CodeGenOptLevel::Default;
};

/// Merges what the emitted PTX (and ptxas, when asked for and found) says
/// into the IR profiles of \p State, matched by kernel name. A PTX that does
/// not parse leaves the profiles as they are and says so in their warnings.
void mergeEmittedPTX(llvm::LLVMContext &Ctx, llvm::StringRef PTX,
                     const std::string &Arch, DeferredModule &State);

//===----------------------------------------------------------------------===//
// One kernel: analysis, then its outputs
//===----------------------------------------------------------------------===//

/// What the model says about one kernel (analyzeKernel): plain data from
/// which the remarks, the metadata, the opt-in bounds and the report are
/// written.
/// The launch every stated launch (option "launch") agrees on, block and
/// grid, or null when none is stated or they differ: the launch the code
/// is run with, which the sweep of a module's only kernel takes as its
/// problem size and, for a kernel written for one block shape that neither
/// front end can read, as its block. (The option names no kernel: in a
/// module of several, the launch is predicted for each but is none's
/// problem.)
const LaunchRequest *statedLaunch(const PluginOptions &O);

/// Launch \p L of kernel \p K predicted on \p G as it is (default power
/// limit), not Valid where the GPU, the launch bounds or the kernel's own
/// checks on blockDim refuse it (Invalid says why): FF021 and the JSON
/// report's `launches` alike.
Prediction predictLaunch(const KernelProfile &K, const GPUSpec &G,
                         const LaunchRequest &L);

/// The GPU launch \p L is for: the one it names, or \p Compile (the
/// compile's) where it names none; an error where the name is unknown.
llvm::Expected<GPUSpec> launchGPU(const LaunchRequest &L,
                                  const GPUSpec &Compile);

struct KernelResult {
  /// Why there is no recommendation (remark FF900), or empty.
  std::string Problem;
  /// Problem is also a warning (not for an unknown GPU: the pass said it
  /// once for the module).
  bool WarnProblem = true;
  std::optional<GPUSpec> GPU;
  /// The sweep, when it ran (with or without a recommendation: the report
  /// lists the kernel either way).
  std::optional<SweepResult> Sweep;
  /// With a recommendation: the pick for the objective and the occupancy
  /// heuristic's configuration, as indices in Sweep->Configs.
  size_t Best = 0, Heuristic = 0;
  /// Loops whose trip count was guessed (FF012).
  unsigned GuessedLoops = 0;
  /// The sweep's problem is the stated launch's (statedLaunch), not
  /// -flipflop-problem-size, a grid-stride loop's elements or the default.
  bool ProblemFromLaunch = false;
  /// The stated launch (statedLaunch) predicted on the compile's GPU at
  /// its default power limit (FF021), when one is for this GPU; not Valid
  /// (Invalid says why) when it cannot run or the kernel's own checks on
  /// blockDim stop it.
  std::optional<Prediction> Launch;
  /// The author's __launch_bounds__ predicted at the recommendation's power
  /// limit and problem size (FF020: only with bounds and verbosity >= 1).
  std::optional<Prediction> Author;

  /// The figures are implausible: no pick (FF013).
  bool implausible() const {
    return Problem.empty() && Sweep && !Sweep->Implausible.empty();
  }
  /// The kernel does no work: nothing to pick (FF017).
  bool noWork() const {
    return Problem.empty() && Sweep && Sweep->Status == SweepStatus::NoWork;
  }
  bool recommends() const {
    return Problem.empty() && Sweep && !implausible() && !noWork();
  }
  const Prediction &best() const { return Sweep->Configs[Best]; }
  const Prediction &heuristic() const { return Sweep->Configs[Heuristic]; }
};

/// Runs the model on kernel \p F's profile \p K (recommend() may refine \p K
/// with ptxas facts). Emits nothing. \p OnlyKernel: the module defines no
/// other kernel, so that a stated launch (statedLaunch) is this kernel's.
KernelResult analyzeKernel(const llvm::Function &F, KernelProfile &K,
                           const PluginOptions &O, const ModuleFacts &MF,
                           bool OnlyKernel);

/// Attaches the recommendation to \p F: !flipflop metadata and flipflop.*
/// string attributes (docs/METADATA.md). Changes no code generation.
void annotateIR(llvm::Function &F, const KernelResult &R,
                const PluginOptions &O);

/// Opt-in (-flipflop-apply-bounds): writes the recommended launch bounds as
/// nvvm.maxntid / nvvm.minctasm unless the author gave bounds (FF030,
/// FF031).
void applyBounds(llvm::Function &F, const KernelProfile &K,
                 const KernelResult &R, const PluginOptions &O,
                 KernelRemarks &Remarks);

/// The module's JSON report: one entry per analysed kernel, written once at
/// the end (docs/REPORT-SCHEMA.md).
class ModuleReport {
public:
  /// Adds kernel \p K when its sweep ran and a report directory is set.
  void add(const KernelProfile &K, const KernelResult &R,
           const PluginOptions &O);
  /// Writes the report file of \p M; a failure is a warning and remark
  /// FF902.
  void write(const llvm::Module &M, const PluginOptions &O,
             SourceCache &Sources);

private:
  std::vector<llvm::json::Value> Kernels;
  std::optional<GPUSpec> GPU;
};

//===----------------------------------------------------------------------===//
// Code generation and the -O2 copy (CanonicalCopy.cpp)
//===----------------------------------------------------------------------===//

/// Emits \p M as PTX into \p PTX with \p TM (clang's passes: TTI and TLI).
/// False when the target cannot emit the file (nothing ran).
bool emitPTX(llvm::Module &M, llvm::TargetMachine &TM,
             llvm::SmallVectorImpl<char> &PTX);

/// The PTX clang would emit for \p M at \p Level, from a copy of \p M in a
/// context of its own (its diagnostics swallowed) on an NVPTX target machine
/// made from the module's triple, CPU and features; \p M is untouched. For
/// -emit-llvm, where clang generates no code.
llvm::Expected<std::string> emitPTXOfCopy(const llvm::Module &M,
                                          llvm::CodeGenOptLevel Level);

/// At the start of clang's -O0 pipeline: keeps \p M's bitcode for
/// analyseCanonicalCopy. dropSnapshot forgets it.
void saveSnapshot(const llvm::Module &M);
void dropSnapshot(const llvm::Module &M);

/// What the analysis of the canonical copy gives: the kernels' profiles and,
/// when asked, the copy's PTX (for the PTX facts: registers, MLP, guards).
struct CanonicalAnalysis {
  std::vector<KernelProfile> Profiles;
  std::string PTX;
};

/// Analyses the kernels of an unoptimised module \p M as clang -O2 would
/// have compiled them (its snapshot, else \p M itself, optimised at -O2 in a
/// context of its own); its PTX from -O2 code generation when \p WantPTX.
llvm::Expected<CanonicalAnalysis> analyseCanonicalCopy(const llvm::Module &M,
                                                       const LaunchFacts &Facts,
                                                       bool WantPTX);

} // namespace flipflop

#endif
