//===- Compile.h - Parsing the sources with their compile commands --------===//
//
// flipflop-apply parses each source host-side with clang's LibTooling: the
// commands come from a compilation database (-p) or from the flags after
// "--"; CUDA commands get --cuda-host-only, -w and clang's resource
// directory.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_TOOLS_APPLY_COMPILE_H
#define FLIPFLOP_TOOLS_APPLY_COMPILE_H

#include "Scanner.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace flipflop {
namespace apply {

/// Checks the -p BUILD_DIR given on the command line (before "--"), if
/// any: a folder that does not exist or holds no readable compilation
/// database is one error line (printed here) and false, before
/// CommonOptionsParser would print several lines and go on without flags.
bool checkBuildDir(int argc, const char **argv);

/// Parses every source (one at a time, so that an error names those that
/// failed) into \p Scan; the sources that did not compile, as shown.
std::vector<std::string>
scanSources(const clang::tooling::CompilationDatabase &DB,
            llvm::ArrayRef<std::string> Sources, ScanResult &Scan);

} // namespace apply
} // namespace flipflop

#endif
