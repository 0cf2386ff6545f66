//===- UnifiedDiff.h - A small unified line diff --------------------------===//
#ifndef FLIPFLOP_TOOLS_APPLY_UNIFIEDDIFF_H
#define FLIPFLOP_TOOLS_APPLY_UNIFIEDDIFF_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace flipflop {
namespace apply {

/// Writes a unified diff of \p Old and \p New (shortest edit script over
/// lines, Myers' algorithm) with \p Context lines around each change, under
/// the headers "--- OldName" / "+++ NewName". Writes nothing when the texts
/// are equal. A last line without a newline is marked as diff(1) does.
void writeUnifiedDiff(llvm::raw_ostream &OS, llvm::StringRef OldName,
                      llvm::StringRef NewName, llvm::StringRef Old,
                      llvm::StringRef New, unsigned Context = 3);

} // namespace apply
} // namespace flipflop

#endif
