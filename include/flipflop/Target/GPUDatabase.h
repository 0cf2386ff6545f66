//===- flipflop/Target/GPUDatabase.h - Embedded GPU table and spec files --===//
#ifndef FLIPFLOP_TARGET_GPUDATABASE_H
#define FLIPFLOP_TARGET_GPUDATABASE_H

#include "flipflop/Target/GPUSpec.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace flipflop {

/// Every GPU of the embedded table.
llvm::ArrayRef<GPUSpec> allGPUs();

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

/// JSON form of a spec; fromJSON is its exact inverse.
llvm::json::Value toJSON(const GPUSpec &G);
bool fromJSON(const llvm::json::Value &V, GPUSpec &G, llvm::json::Path P);

/// Loads a spec file. A spec file may name a "base" GPU of the database and
/// override any subset of fields; without a base every field is required.
/// Errors name the file and the field: "spec.json: $.Power.MaxLimitW: expected number".
llvm::Expected<GPUSpec> loadGPUSpecFile(llvm::StringRef Path);
/// Writes \p G as JSON to \p Path atomically.
llvm::Error writeGPUSpecFile(const GPUSpec &G, llvm::StringRef Path);

} // namespace flipflop

#endif
