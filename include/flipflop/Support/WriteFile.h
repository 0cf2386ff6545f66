//===- flipflop/Support/WriteFile.h - One careful file writer ---*- C++ -*-===//
//
// Every file FlipFlop writes (reports, HTML, spec files) goes through here,
// because its tools run as root on shared machines (docs/SECURITY.md):
// - "-" is standard output;
// - a device node or FIFO (/dev/null, a pipe) is written in place, never
//   replaced by a regular file;
// - a symbolic link stays a link: its target is what gets replaced;
// - a regular file is replaced atomically, from a temporary created
//   exclusively next to it (no planted symlink is followed) with the
//   target's permissions (0666 less the umask for a new file), removed on a
//   signal (replaceFileAtomically, which flipflop-apply -i shares);
// - every error names the file.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_SUPPORT_WRITEFILE_H
#define FLIPFLOP_SUPPORT_WRITEFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace flipflop {

llvm::Error writeFileSafely(llvm::StringRef Path,
                            llvm::function_ref<void(llvm::raw_ostream &)> Write);

/// How replaceFileAtomically names, syncs and reports.
struct ReplaceOptions {
  /// The temporary's name is the target's followed by this; each '%' becomes
  /// a random hexadecimal digit.
  llvm::StringRef TempSuffix = ".tmp-%%%%%%%%";
  /// The file's name in errors (default: the target).
  llvm::StringRef Shown;
  /// fsync the temporary before it is renamed over the target.
  bool Sync = false;
};

/// The one place a regular file is replaced: \p Write's output goes to a
/// temporary created exclusively next to \p Target (O_EXCL: no planted link
/// is followed), with permission bits \p Perms from the start (0666 less the
/// umask when there are none), removed on an error and on SIGINT/SIGTERM;
/// \p Perms are then set exactly (undoing the umask), and the temporary is
/// renamed over \p Target once complete. \p Target must be the real file,
/// not a link. Errors: "FILE: what: reason".
llvm::Error
replaceFileAtomically(llvm::StringRef Target, std::optional<unsigned> Perms,
                      llvm::function_ref<void(llvm::raw_ostream &)> Write,
                      const ReplaceOptions &Opts = {});

} // namespace flipflop

#endif
