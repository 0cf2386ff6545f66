//===- VectorRuns.h - Scalar accesses the compiler merges into vectors ----===//
//
// Both code generators between a kernel's source and its SASS merge scalar
// loads (stores) of one base at consecutive constant offsets into vector
// accesses of up to 16 bytes when they know the address is aligned: NVPTX's
// load/store vectorizer on the IR, and ptxas on the PTX (it lays out shared
// memory itself, so it knows the alignment of a shared tile that nvcc left
// as scalar ld.shared, e.g. an 8-float struct per thread). Each front end
// states what alignment it can prove; the merge rule is this one function,
// so that both count the instructions and bank conflicts of the code that
// runs (docs/MODEL.md, "Vector accesses the compiler forms").
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_PROFILE_VECTORRUNS_H
#define FLIPFLOP_PROFILE_VECTORRUNS_H

#include "flipflop/Profile/KernelProfile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <array>
#include <cstdint>
#include <vector>

namespace flipflop {

/// Merges the accesses of one basic block (those of \p As from \p Begin on):
/// 4 x 4 B or 2 x 8 B at a 16-byte-aligned offset, else 2 x 4 B at an
/// 8-byte-aligned one, where \p Alignment(I) (bytes; 0 if unknown) of access
/// I's base allows it. Candidates are scalar, non-atomic accesses with a
/// base id and a known pattern that agree in everything but their offset.
/// Merged accesses are removed; \p Ops loses the instructions they were.
/// \p Residue, when given, is what I's base is modulo its alignment (a
/// pointer 12 bytes into an aligned row): the run's first offset must
/// make up for it.
void mergeVectorRuns(std::vector<MemAccess> &As, size_t Begin,
                     llvm::function_ref<uint64_t(size_t)> Alignment,
                     std::array<double, NumOpClasses> &Ops,
                     llvm::function_ref<uint64_t(size_t)> Residue = nullptr);

/// Whether the assembler proves a shared pointer stepped around a loop
/// aligned when its start and its steps are, and so merges adjacent scalar
/// accesses off it: ptxas does (read off its SASS, and the times of
/// nvcc-built kernels agree), the default. Binaries built by NVIDIA's
/// OpenCL driver behave as if it did not (CLBlast's measured VWM = 1
/// tiles); a harness comparing with such measurements says so with
/// FLIPFLOP_FIT_ASSEMBLER=opencl-driver (docs/MODEL.md, "Vector accesses the
/// compiler forms").
bool assemblerMergesSteppedPointers();

} // namespace flipflop

#endif
