//===- Files.h - Which files flipflop-apply may edit, and how -------------===//
//
// The sources named are always editable; other files (headers) only under
// the project root, or matching --header-filter instead; under -i none that
// is read-only. An edited file is written in place atomically, and only if
// it still holds the text that was parsed (docs/APPLY.md "In place,
// atomically").
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_TOOLS_APPLY_FILES_H
#define FLIPFLOP_TOOLS_APPLY_FILES_H

#include "Plan.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"
#include <optional>
#include <set>
#include <string>

namespace flipflop {
namespace apply {

class FilePolicy {
public:
  /// \p ProjectRoot "" is the top of the checkout holding the working
  /// directory (else the working directory); \p HeaderFilter, when given,
  /// replaces the project root for files other than \p Sources. The error
  /// is one line naming the option.
  static llvm::Expected<FilePolicy>
  create(llvm::ArrayRef<std::string> Sources, llvm::StringRef ProjectRoot,
         std::optional<std::string> HeaderFilter, bool InPlace);

  /// Why \p File (a real path) may not be edited, or std::nullopt.
  std::optional<FileBlock> check(llvm::StringRef File) const;

private:
  std::set<std::string> MainFiles; ///< Real paths of the sources named.
  std::string Root;
  std::string FilterText;
  std::optional<llvm::Regex> Filter;
  bool InPlace = false;
};

/// Why \p Path may not be replaced under -i, or "": read-only files (mode
/// without owner write, e.g. 0444) are refused even when their folder is
/// writable, and even for root, who may write anything.
std::string readOnlyProblem(llvm::StringRef Path);

/// Replaces \p Path (its real file) with \p NewText, unless it no longer
/// holds \p Parsed or has become read-only. Errors name the file.
llvm::Error writeInPlace(llvm::StringRef Path, llvm::StringRef Parsed,
                         llvm::StringRef NewText);

} // namespace apply
} // namespace flipflop

#endif
