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
//   target's permissions (0666 less the umask for a new file);
// - every error names the file.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_SUPPORT_WRITEFILE_H
#define FLIPFLOP_SUPPORT_WRITEFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace flipflop {

llvm::Error writeFileSafely(llvm::StringRef Path,
                            llvm::function_ref<void(llvm::raw_ostream &)> Write);

} // namespace flipflop

#endif
