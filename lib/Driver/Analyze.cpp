//===- Analyze.cpp - ptxas facts, sweep and cap refinement ----------------===//
#include "flipflop/Driver/Analyze.h"

#include "flipflop/Profile/Ptxas.h"
#include <set>

using namespace llvm;

namespace flipflop {

PtxasStatus applyPtxas(std::vector<KernelProfile> &Kernels, StringRef PTX,
                       const AnalyzeOptions &Opts) {
  PtxasStatus S;
  if (Opts.Ptxas == "off") {
    S.Problem = "ptxas turned off";
    return S;
  }
  Expected<std::string> Path = findPtxas(Opts.Ptxas);
  if (!Path) {
    S.Problem = toString(Path.takeError());
    return S;
  }
  S.Path = *Path;
  PtxasOptions PO;
  PO.PtxasPath = *Path;
  PO.Arch = Opts.Arch;
  Expected<std::vector<PtxasKernelInfo>> Infos = runPtxas(PTX, PO);
  if (!Infos) {
    S.Problem = toString(Infos.takeError());
    return S;
  }
  mergePtxasInfo(Kernels, *Infos);
  S.Used = true;
  return S;
}

/// The sweep's plausibility findings become the kernel's warnings, so every
/// report (remarks, JSON, flipflop-ptx) carries them.
static SweepResult noteWarnings(KernelProfile &K, SweepResult R) {
  if (!R.Implausible.empty())
    K.Warnings.push_back("implausible figures, no recommendation: " +
                         R.Implausible);
  for (const std::string &W : R.Warnings)
    K.Warnings.push_back(W);
  return R;
}

SweepResult recommend(KernelProfile &K, const GPUSpec &GPU, StringRef PTX,
                      const AnalyzeOptions &Opts, const PtxasStatus &Ptxas) {
  SweepResult R = sweep(K, GPU, Opts.Sweep);
  if (!Opts.RefineCaps || !Ptxas.Used || !K.Res.RegistersExact || PTX.empty() ||
      !R.Implausible.empty())
    return noteWarnings(K, std::move(R));
  // Caps below what the kernel uses: only those can spill. A min-blocks
  // cap, or the one a block of more threads than the kernel's registers
  // allow implies (a held block of 1,024 threads: 64 registers).
  std::set<unsigned> Caps;
  for (size_t I : R.Pareto) {
    const Prediction &P = R.Configs[I];
    if (P.RegsPerThread && P.RegsPerThread < K.Res.Registers &&
        !K.capFact(P.RegsPerThread))
      Caps.insert(P.RegsPerThread);
  }
  if (Caps.empty())
    return noteWarnings(K, std::move(R));
  for (unsigned Cap : Caps) {
    PtxasOptions PO;
    PO.PtxasPath = Ptxas.Path;
    PO.Arch = Opts.Arch;
    // The kernel's own .maxnreg: -maxrregcount does not cap a kernel with
    // launch bounds.
    std::optional<std::string> Capped = withEntryMaxNReg(PTX, K.Name, Cap);
    if (!Capped)
      PO.MaxRegCount = Cap;
    Expected<std::vector<PtxasKernelInfo>> Infos =
        runPtxas(Capped ? StringRef(*Capped) : PTX, PO);
    if (!Infos) {
      K.Warnings.push_back("ptxas with " + std::to_string(Cap) +
                           " registers a thread failed: " +
                           toString(Infos.takeError()));
      continue;
    }
    for (const PtxasKernelInfo &I : *Infos)
      if (I.Name == K.Name && I.Registers <= Cap) {
        CapFact F;
        F.Cap = Cap;
        F.Registers = I.Registers;
        F.SpillStoreBytes = I.SpillStoreBytes;
        F.SpillLoadBytes = I.SpillLoadBytes;
        K.CapFacts.push_back(F);
      }
  }
  return noteWarnings(K, sweep(K, GPU, Opts.Sweep));
}

} // namespace flipflop
