//===- Remarks.h - FlipFlop's remarks and warnings (internal) -------------===//
//
// Every remark goes through KernelRemarks::emitRemark (one place builds a
// remark for an ID, as LLVM's OpenMPOpt does): pass name "flipflop", located
// at the kernel's name, text starting with "[ID] " (docs/remarks/<ID>.md),
// figures as typed arguments whose keys are in flipflop/Report/RemarkArgs.h.
// FlipFlop's own problems (FF900..FF902) are also warnings (warnUser).
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_LIB_PLUGIN_REMARKS_H
#define FLIPFLOP_LIB_PLUGIN_REMARKS_H

#include "flipflop/Report/RemarkArgs.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/MemoryBuffer.h"
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace flipflop {

struct KernelProfile;
struct KernelResult;
struct PluginOptions;

/// Source files read to find the column of kernel names, kept for the
/// module being reported.
class SourceCache {
public:
  /// Line \p Line (1-based) of \p Path, or empty when unreadable.
  llvm::StringRef line(llvm::StringRef Path, unsigned Line);

private:
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> Files;
};

/// Where a kernel's remarks point: the line of its name and, when the
/// source can be read, the column of the name (docs/remarks/README.md).
llvm::DiagnosticLocation kernelLocation(const llvm::Function &F,
                                        SourceCache &Sources);

/// The remarks about one kernel.
class KernelRemarks {
public:
  KernelRemarks(const llvm::Function &F, llvm::DiagnosticLocation Loc)
      : F(F), Loc(std::move(Loc)), ORE(&F) {}

  /// Emits remark \p ID (RemarkName, a remark::id) of kind \p RemarkKind
  /// when remarks are on: the remark is built at the kernel's location, its
  /// text started with "[ID] ", and handed to \p Stream, which streams the
  /// text and arguments into it and returns it. Lazily: nothing is built
  /// when no remark is asked for.
  template <typename RemarkKind = llvm::OptimizationRemarkAnalysis,
            typename StreamFn>
  void emitRemark(const char *ID, StreamFn &&Stream) {
    ORE.emit([&] {
      RemarkKind R(remark::PassName, ID, Loc, &F.getEntryBlock());
      R << (llvm::Twine("[") + ID + "] ").str();
      return Stream(std::move(R));
    });
  }

private:
  const llvm::Function &F;
  llvm::DiagnosticLocation Loc;
  llvm::OptimizationRemarkEmitter ORE;
};


/// The command line of the process (Linux: /proc/self/cmdline, response
/// files expanded), read once; std::nullopt where it cannot be read.
const std::optional<std::vector<std::string>> &processCommandLine();

/// Says FlipFlop problem \p ID (FF900..FF902) as a compiler diagnostic,
/// visible without any -R flag, as option "warnings" and the compiler's
/// warning flags say (docs/remarks/README.md).
void warnUser(llvm::LLVMContext &Ctx, const PluginOptions &O,
              llvm::StringRef ID, const llvm::Twine &Text);

/// FF901: each option problem, for the record (the pass warned once).
void emitOptionProblems(KernelRemarks &Remarks, const PluginOptions &O);

/// FF900: kernel \p Kernel gets no recommendation because of \p Why; also a
/// warning when \p Warn.
void emitInternalProblem(KernelRemarks &Remarks, llvm::LLVMContext &Ctx,
                         const PluginOptions &O, llvm::StringRef Kernel,
                         const std::string &Why, bool Warn);

/// FF013: the figures are implausible, no recommendation.
void emitImplausible(KernelRemarks &Remarks, const KernelProfile &K,
                     const KernelResult &R);

/// FF017: the kernel does no work, nothing to tune.
void emitNoWork(KernelRemarks &Remarks, const KernelProfile &K);

/// The remarks of a recommendation: FF001 (summary), FF014, FF002 and FF003
/// (by verbosity), FF010..FF012 (what limited it), FF020 (the author's
/// bounds).
void emitRecommendation(KernelRemarks &Remarks, const KernelProfile &K,
                        const KernelResult &R, const PluginOptions &O);

} // namespace flipflop

#endif
