//===- flipflop/Profile/ProfilePrinter.h - Text form of a profile -*- C++
//-*-===//
//
// A stable, line-oriented text form of a KernelProfile for FileCheck tests and
// --dump-profile: one "key: value" fact per line, zero op classes omitted,
// numbers printed with %.6g. Used by flipflop-ptx and the IR pass's printer.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_PROFILE_PROFILEPRINTER_H
#define FLIPFLOP_PROFILE_PROFILEPRINTER_H

#include "flipflop/Profile/KernelProfile.h"
#include "llvm/Support/raw_ostream.h"

namespace flipflop {

/// Prints \p P; the first line is "kernel NAME", the last "end kernel NAME".
void printProfile(const KernelProfile &P, llvm::raw_ostream &OS);

} // namespace flipflop

#endif
