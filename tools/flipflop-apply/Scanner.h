//===- Scanner.h - Kernels, bounds and launch sites of CUDA sources -------===//
//
// The AST half of flipflop-apply. For each translation unit it records, in
// plain data that outlives the AST (file paths and byte offsets):
//  - every __global__ definition it could edit, with the device-side mangled
//    names of the kernels it defines (one, or one per template instance), the
//    insertion point of a new bound and the bounds already written;
//  - every launch site of a kernel it can see (<<<>>>, cudaLaunchKernel,
//    cudaLaunchCooperativeKernel, cudaLaunchKernelEx[C]) with its block size
//    when that is a compile-time constant, and every other use of a kernel's
//    address (an unknown launch).
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_TOOLS_APPLY_SCANNER_H
#define FLIPFLOP_TOOLS_APPLY_SCANNER_H

#include "clang/Tooling/Tooling.h"
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace flipflop {
namespace apply {

struct SourcePos {
  std::string File; ///< Real path.
  unsigned Offset = 0, Line = 0, Col = 0;
};

/// A __launch_bounds__ written in the source.
struct WrittenBound {
  SourcePos Pos;
  std::string Text;      ///< As written, e.g. "__launch_bounds__(128)".
  bool Editable = false; ///< Replace Offset..Offset+Length with a new bound.
  std::string Why;       ///< Why it is not editable.
  unsigned Offset = 0, Length = 0;
  std::string Spelling;  ///< "__launch_bounds__" or "launch_bounds".
  bool Known = false;    ///< Values evaluated (not template-dependent).
  uint64_t MaxThreads = 0, MinBlocks = 0;
  std::string MaxBlocksText; ///< Third argument as written, if any.
  /// The first two arguments as written ("K9_NUM_THREADS", "2*128"; MinText
  /// empty when there is none), kept by --update where their value stays.
  std::string MaxText, MinText;
  /// What an argument names, when it is not literal arithmetic: "macro
  /// 'K9_NUM_THREADS'" or "constant 'kThreads'" (empty otherwise). Such an
  /// argument is never replaced by a literal.
  std::string MaxNamed, MinNamed;
};

/// One place that defines kernels: a non-template kernel, a template's
/// pattern (all its implicit instances) or an explicit specialization.
struct KernelDef {
  std::string Name;   ///< Qualified name for messages.
  SourcePos Pos;      ///< The declared name in the definition.
  bool IsTemplate = false;
  /// Mangled name -> display name ("scale<128>").
  std::map<std::string, std::string> Instances;
  bool Editable = false;
  std::string Why; ///< Why a bound cannot be inserted here.
  unsigned InsertOffset = 0;
  std::vector<WrittenBound> Bounds; ///< On any redeclaration.
};

/// A launch of a kernel, or another use of its address.
struct LaunchSite {
  std::string Kernel; ///< Mangled name of the kernel launched.
  SourcePos Pos;
  std::string Via;    ///< "<<<>>>", "cudaLaunchKernel", ..., "reference".
  bool Known = false; ///< Block size known: at most Block (per dimension).
  std::array<uint64_t, 3> Block{0, 0, 0};
  std::string Why;    ///< Why the block size is not known.
  /// For --rewrite-launch-sites: the block argument's text range.
  bool Rewritable = false;
  std::string NotRewritable;
  unsigned Offset = 0, Length = 0;
  bool Dim3Spelling = false; ///< Written as dim3(...), not an integer.
  uint64_t threads() const { return Block[0] * Block[1] * Block[2]; }
};

/// Everything seen in all translation units, deduplicated.
struct ScanResult {
  std::map<std::string, KernelDef> Kernels; ///< Key: "file:offset".
  /// Kernels declared but defined in no processed source: mangled -> pos.
  std::map<std::string, SourcePos> DeclaredOnly;
  std::vector<LaunchSite> Sites;
  std::set<std::string> SiteKeys;
  /// Content of every file that holds something we may edit, as parsed.
  std::map<std::string, std::string> Contents;
};

/// The factory of the frontend action that fills \p Result.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newScanActionFactory(ScanResult &Result);

} // namespace apply
} // namespace flipflop

#endif
