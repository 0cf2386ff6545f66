//===- flipflop/Profile/Ptxas.h - Exact resources from ptxas ----*- C++ -*-===//
//
// Runs NVIDIA's ptxas -v on PTX text and reads, per kernel, the registers,
// spill bytes, stack frame, static shared memory and barriers it reports.
// The output parser is a separate pure function so that it is tested on
// captured text from CUDA 11, 12 and 13.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_PROFILE_PTXAS_H
#define FLIPFLOP_PROFILE_PTXAS_H

#include "flipflop/Profile/KernelProfile.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace flipflop {

/// What ptxas -v says about one entry function.
struct PtxasKernelInfo {
  std::string Name;
  std::string Arch; ///< "sm_80" as ptxas names it.
  unsigned Registers = 0;
  unsigned SpillStoreBytes = 0, SpillLoadBytes = 0;
  unsigned StackFrameBytes = 0;
  unsigned SharedBytes = 0; ///< Static shared memory ("N bytes smem").
  unsigned Barriers = 0;
  unsigned ConstBank0Bytes = 0; ///< "N bytes cmem[0]" (kernel parameters).
  bool HasRegisters = false;    ///< A "Used N registers" line was seen.
};

/// Parses the text ptxas -v prints (stdout and stderr together). Lines it
/// does not know are ignored; kernels appear in the order ptxas compiled them.
std::vector<PtxasKernelInfo> parsePtxasOutput(llvm::StringRef Text);

/// Finds ptxas: \p Explicit when not empty (must exist), else $FLIPFLOP_PTXAS,
/// $CUDA_PATH/bin/ptxas, ptxas on PATH, /usr/local/cuda/bin/ptxas.
llvm::Expected<std::string> findPtxas(llvm::StringRef Explicit = "");

struct PtxasOptions {
  std::string PtxasPath;    ///< Empty: findPtxas().
  std::string Arch;         ///< "sm_80"; empty: the PTX's .target.
  unsigned MaxRegCount = 0; ///< -maxrregcount (0: none).
};

/// Runs ptxas -arch=ARCH -v [-maxrregcount=N] on \p PTX (no shell, temporary
/// files) and returns one record per entry function. Results are cached in
/// memory by (hash of the PTX, arch, maxreg), so nothing runs twice.
llvm::Expected<std::vector<PtxasKernelInfo>> runPtxas(llvm::StringRef PTX,
                                                      const PtxasOptions &Opts);

/// \p PTX with the entry \p Kernel limited to \p Regs registers a thread
/// by a .maxnreg directive of its own (any earlier one replaced): ptxas
/// ignores -maxrregcount for an entry with launch bounds (.maxntid,
/// .reqntid; ptxas 13.0), not .maxnreg. None when there is no such entry.
std::optional<std::string> withEntryMaxNReg(llvm::StringRef PTX,
                                            llvm::StringRef Kernel,
                                            unsigned Regs);

/// Number of ptxas processes started so far (for tests of the cache).
unsigned ptxasInvocations();

/// Copies what ptxas reported into \p R: Registers (RegistersExact = true),
/// spills, stack frame, static shared memory, barriers.
void mergePtxasInfo(Resources &R, const PtxasKernelInfo &Info);

/// Merges every kernel of \p Kernels that ptxas reported, by name; returns the
/// number merged.
unsigned mergePtxasInfo(std::vector<KernelProfile> &Kernels,
                        llvm::ArrayRef<PtxasKernelInfo> Infos);

} // namespace flipflop

#endif
