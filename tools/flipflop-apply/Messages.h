//===- Messages.h - How flipflop-apply speaks -----------------------------===//
//
// Every line flipflop-apply writes to standard error starts with its name;
// paths are shown relative to the working directory when inside it.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_TOOLS_APPLY_MESSAGES_H
#define FLIPFLOP_TOOLS_APPLY_MESSAGES_H

#include "Scanner.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <string>

namespace flipflop {
namespace apply {

constexpr const char *ToolName = "flipflop-apply";

/// \p Path relative to the working directory when inside it, else as given.
std::string shownPath(llvm::StringRef Path);

/// "FILE:LINE:COL" of \p P, the file shown as by shownPath.
std::string siteStr(const SourcePos &P);

/// "flipflop-apply: FILE:LINE: KERNEL: MSG".
void message(const SourcePos &P, llvm::StringRef Kernel,
             const llvm::Twine &Msg);

/// "flipflop-apply: error: MSG".
void error(const llvm::Twine &Msg);

} // namespace apply
} // namespace flipflop

#endif
