//===- flipflop/Target/GPUDatabase.h - Embedded GPU table and spec files --===//
#ifndef FLIPFLOP_TARGET_GPUDATABASE_H
#define FLIPFLOP_TARGET_GPUDATABASE_H

#include "flipflop/Target/GPUSpec.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace flipflop {

/// Every GPU of the embedded table.
llvm::ArrayRef<GPUSpec> allGPUs();

/// The key names are compared by: lower case, every run of characters other
/// than letters, digits and '.' becomes one '-', and the prefixes NVML puts in
/// front of product names ("NVIDIA ", "Tesla ", "GeForce ", "Quadro ") are
/// dropped. "NVIDIA GeForce RTX 4090" -> "rtx-4090".
std::string normalizeGPUName(llvm::StringRef Name);

/// Looks a GPU up by name or alias, case-insensitively; also accepts NVML's
/// "NVIDIA <name>" form. Returns nullptr when unknown.
const GPUSpec *findGPU(llvm::StringRef Name);

/// The documented default GPU for an "sm_XX" / "sm_XXa" architecture name
/// (see docs/GPUS.md). Returns nullptr for an unknown architecture.
const GPUSpec *defaultGPUForArch(llvm::StringRef SmArch);

/// Resolves a user's choice: a spec file path (ends in .json), a database
/// name, or empty (then the default for \p SmArch).
llvm::Expected<GPUSpec> resolveGPU(llvm::StringRef Choice,
                                   llvm::StringRef SmArch);

/// One line per GPU of the table: name, sm_XX, SMs, boost clock, DRAM
/// bandwidth, default power limit (flipflop-ptx --list-gpus).
void printGPUList(llvm::raw_ostream &OS);
/// Every figure of \p G, one group per line (flipflop-ptx --show-gpu NAME).
void printGPUDetails(const GPUSpec &G, llvm::raw_ostream &OS);

/// JSON form of a spec; fromJSON is its exact inverse.
llvm::json::Value toJSON(const GPUSpec &G);
bool fromJSON(const llvm::json::Value &V, GPUSpec &G, llvm::json::Path P);

/// Loads a spec file. A spec file may name a "base" GPU of the database and
/// override any subset of fields; without a base every field is required.
/// Errors name the file and the field: "spec.json: $.Power.MaxLimitW: expected
/// number".
llvm::Expected<GPUSpec> loadGPUSpecFile(llvm::StringRef Path);
/// Writes \p G as JSON to \p Path atomically.
llvm::Error writeGPUSpecFile(const GPUSpec &G, llvm::StringRef Path);

} // namespace flipflop

#endif
