//===- flipflop/Profile/PTXParser.h - PTX front end -------------*- C++ -*-===//
//
// Parses PTX (ISA up to 8.x/9.0, as written by LLVM's NVPTX back end, nvcc
// and Triton) into one KernelProfile per .entry: the instruction mix by
// functional unit weighted by loop trip counts, memory accesses with their
// lane pattern, shared/local memory, a register estimate, launch bounds,
// block-shape facts and tensor-core work. docs/PTX.md lists what is
// understood and every default.
//
// The parser never reads past its buffer and never crashes: structural
// errors (a malformed .entry, an unterminated body) are llvm::Errors whose
// message reads "LINE: message"; anything it does not know (an unknown
// instruction) is counted as OpClass::Other with a line in Warnings.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_PROFILE_PTXPARSER_H
#define FLIPFLOP_PROFILE_PTXPARSER_H

#include "flipflop/Profile/KernelProfile.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <map>
#include <string>
#include <vector>

namespace flipflop {

/// Trip count assumed for a loop whose count the PTX does not show.
constexpr double PTXDefaultTripCount = 16;
/// Block size at which block-stride loops over a constant range are resolved
/// (ModelOptions::ReferenceBlockThreads, docs/MODEL.md): trip = ceil(N/256).
constexpr unsigned PTXReferenceBlockThreads = 256;

struct PTXParseOptions {
  /// Trip count of loops whose count cannot be recognised.
  double DefaultTripCount = PTXDefaultTripCount;
  /// Add the work of called .func bodies to their callers (call-site
  /// weighted); off: a call counts as one branch.
  bool FollowCalls = true;
  /// Values of the kernel's scalar parameters, by position (0-based), as
  /// the user states them (flipflop-ptx --arg, the plugin's args option):
  /// a parameter loaded with ld.param becomes that constant, so trip counts
  /// and bounds that depend on it are exact instead of guessed.
  std::map<unsigned, int64_t> ArgValues;
  /// The launch's grid as the user states it (flipflop-ptx --grid, the
  /// plugin's one launch); 0: unknown. A loop whose bounds read gridDim (a
  /// block's share of the input, n / gridDim.x) is counted at it instead of
  /// guessed; a grid-stride loop stays the model's (passes = problem size
  /// over the launched threads).
  std::array<unsigned, 3> Grid{0, 0, 0};
};

/// A parsed PTX module: its header and one profile per kernel (.entry with a
/// body), in file order.
struct PTXModule {
  std::string Version; ///< ".version", e.g. "8.8".
  std::string Target;  ///< First ".target" item, e.g. "sm_80".
  unsigned AddressSize = 64;
  std::vector<KernelProfile> Kernels;
  std::vector<std::string> Functions; ///< .func bodies defined in the module.
  std::vector<std::string> Warnings;  ///< Module-level problems.
};

/// Parses a whole module. \p FileName is used where no .file/.loc names the
/// source (KernelProfile::File of kernels without line information).
llvm::Expected<PTXModule> parsePTXModule(llvm::StringRef Text,
                                         llvm::StringRef FileName,
                                         const PTXParseOptions &Opts = {});

/// The kernels of a module (see parsePTXModule).
llvm::Expected<std::vector<KernelProfile>> parsePTX(llvm::StringRef Text,
                                                    llvm::StringRef FileName);

/// The profile of the kernel called \p Name (mangled or demangled) in \p M,
/// or nullptr.
const KernelProfile *findKernel(const PTXModule &M, llvm::StringRef Name);

} // namespace flipflop

#endif
