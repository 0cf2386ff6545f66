//===- Merge.cpp - IR and PTX facts of one kernel into one profile --------===//
#include "flipflop/Profile/KernelProfile.h"

namespace flipflop {

void mergePTXFacts(KernelProfile &Into, const KernelProfile &PTX) {
  Into.Source = "ir+ptx";
  // Without ptxas, the liveness estimate over the final PTX is the better
  // one (26 example kernels: mean error 6.3 registers against 8.6 for the
  // IR's; docs/REGISTERS.md).
  unsigned Est = PTX.Res.EstimatedRegisters ? PTX.Res.EstimatedRegisters
                                            : Into.Res.EstimatedRegisters;
  bool DynamicShared = Into.Res.UsesDynamicShared || PTX.Res.UsesDynamicShared;
  if (PTX.Res.RegistersExact) {
    Into.Res = PTX.Res;
  } else {
    // After code generation the static shared memory is exact.
    Into.Res.StaticSharedBytes = PTX.Res.StaticSharedBytes;
    Into.Res.Registers = Est;
  }
  Into.Res.EstimatedRegisters = Est;
  // The IR knows about dynamic shared memory even when ptxas cannot.
  Into.Res.UsesDynamicShared = DynamicShared;
  if (PTX.Bounds.any())
    Into.Bounds = PTX.Bounds;
  // The PTX's .loc lines (with -g or -gline-tables-only) locate a kernel
  // the IR could not (no debug info).
  if (Into.Line == 0 && PTX.Line > 0 && !PTX.File.empty()) {
    Into.File = PTX.File;
    Into.Line = PTX.Line;
  }
  for (const std::string &W : PTX.Warnings)
    Into.Warnings.push_back("ptx: " + W);
}

} // namespace flipflop
