//===- AnalyzeKernel.cpp - The model's answer for one kernel --------------===//
//
// analyzeKernel: profile in, KernelResult out (no remark, no IR change);
// mergeEmittedPTX: the PTX facts of a module into its IR profiles.
//
//===----------------------------------------------------------------------===//
#include "PluginImpl.h"
#include "Remarks.h"

#include "flipflop/Profile/IRProfile.h"
#include "flipflop/Profile/PTXParser.h"
#include "flipflop/Target/GPUDatabase.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace flipflop {

std::string archOf(const Function &F) {
  Attribute A = F.getFnAttribute("target-cpu");
  return A.isStringAttribute() ? A.getValueAsString().str() : std::string();
}

std::string archOf(const Module &M) {
  for (const Function &F : M)
    if (isKernel(F))
      return archOf(F);
  return "";
}

void mergeEmittedPTX(LLVMContext &Ctx, StringRef PTX, const std::string &Arch,
                     DeferredModule &State) {
  PTXParseOptions PO;
  PO.ArgValues = State.Opts.Facts.ArgValues;
  PO.DefaultTripCount = State.Opts.Facts.DefaultTrip;
  PO.Grid = State.Opts.Facts.Grid;
  Expected<std::vector<KernelProfile>> Parsed =
      [&]() -> Expected<std::vector<KernelProfile>> {
    Expected<PTXModule> M = parsePTXModule(PTX, "<emitted>", PO);
    if (!M)
      return M.takeError();
    return std::move(M->Kernels);
  }();
  if (!Parsed) {
    std::string Why = toString(Parsed.takeError());
    for (KernelProfile &K : State.Profiles)
      K.Warnings.push_back("emitted PTX not analysed: " + Why);
    return;
  }
  AnalyzeOptions AO;
  AO.Ptxas = State.Opts.Ptxas;
  AO.Arch = Arch;
  State.Facts.Ptxas = applyPtxas(*Parsed, PTX, AO);
  // ptxas was asked for (on, or a path) and could not be used.
  if (State.Opts.Ptxas != "off" && !State.Facts.Ptxas.Used)
    warnUser(Ctx, State.Opts, remark::id::OptionProblem,
             "ptxas not used (" + State.Facts.Ptxas.Problem +
                 "): registers are estimated");
  // The PTX is kept only for ptxas under register caps (Driver::recommend).
  if (State.Facts.Ptxas.Used)
    State.Facts.PTX = PTX.str();
  for (KernelProfile &K : State.Profiles)
    for (const KernelProfile &P : *Parsed)
      if (P.Name == K.Name)
        mergePTXFacts(K, P);
}

/// The author's configuration, predicted at the recommendation \p Best's
/// power limit and problem size: the block the bounds allow (the required
/// shape, else the maximum) and their register cap.
static Prediction predictAuthorBounds(const KernelProfile &K,
                                      const GPUSpec &GPU,
                                      const Prediction &Best) {
  LaunchConfig AC = Best.Config;
  const std::array<unsigned, 3> &Dims =
      K.Bounds.ReqNTid[0] ? K.Bounds.ReqNTid : K.Bounds.MaxNTid;
  if (Dims[0])
    AC.Block = {Dims[0], std::max(1u, Dims[1]), std::max(1u, Dims[2])};
  AC.Grid = {0, 0, 0};
  AC.MinBlocksPerSM = K.Bounds.MinCTAsPerSM;
  return predict(K, GPU, AC);
}

KernelResult analyzeKernel(const Function &F, KernelProfile &K,
                           const PluginOptions &O, const ModuleFacts &MF) {
  KernelResult R;
  if (!K.Internal.empty()) {
    R.Problem = K.Internal;
    return R;
  }
  Expected<GPUSpec> GPU = resolveGPU(O.GPU, archOf(F));
  if (!GPU) {
    // Already a warning (FF901, once per module, in the pass).
    R.Problem = toString(GPU.takeError());
    R.WarnProblem = false;
    return R;
  }
  R.GPU = *GPU;
  AnalyzeOptions AO;
  AO.Ptxas = O.Ptxas;
  AO.Arch = archOf(F);
  AO.Sweep.TotalThreads = O.ProblemSize;
  AO.Sweep.PowerMinW = O.PowerMinW;
  AO.Sweep.PowerMaxW = O.PowerMaxW;
  AO.Sweep.PowerSteps = O.PowerSteps;
  AO.Sweep.SlowdownBudgetPct = O.BudgetPct;
  AO.Sweep.Obj = O.Obj;
  R.Sweep = recommend(K, *R.GPU, MF.PTX, AO, MF.Ptxas);
  // Figures outside physical bounds never drive a recommendation (FF013).
  if (!R.Sweep->Implausible.empty() || R.Sweep->Status == SweepStatus::NoWork)
    return R;
  if (R.Sweep->Configs.empty()) {
    R.Problem = "no configuration of this kernel can launch on " + R.GPU->Name;
    return R;
  }
  R.Best = R.Sweep->pick(O.Obj);
  R.Heuristic = R.Sweep->Pick.OccupancyHeuristic;
  for (const LoopRecord &L : K.Loops)
    R.GuessedLoops += L.Guessed && !L.UnrollRemainder;
  if (K.Bounds.any() && O.Verbosity >= 1)
    R.Author = predictAuthorBounds(K, *R.GPU, R.best());
  return R;
}

} // namespace flipflop
