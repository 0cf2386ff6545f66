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

const LaunchRequest *statedLaunch(const PluginOptions &O) {
  if (O.Launches.empty())
    return nullptr;
  const LaunchRequest &First = O.Launches.front();
  for (const LaunchRequest &L : O.Launches)
    if (L.Block != First.Block || L.Grid != First.Grid)
      return nullptr;
  return &First;
}

Prediction predictLaunch(const KernelProfile &K, const GPUSpec &G,
                         const LaunchRequest &L) {
  LaunchConfig C;
  C.Block = L.Block;
  C.Grid = L.Grid;
  Prediction P = predict(K, G, C);
  // predict() refuses what the GPU and the launch bounds refuse; the
  // kernel's own checks on blockDim stop the rest.
  if (P.Valid && !K.Shape.passesChecks(L.Block)) {
    P.Valid = false;
    P.Invalid = "its block fails the kernel's own check on blockDim";
    for (size_t I = 0; I < K.Shape.CheckFacts.size(); ++I)
      P.Invalid += (I ? "; " : ": ") + K.Shape.CheckFacts[I];
  }
  return P;
}

Expected<GPUSpec> launchGPU(const LaunchRequest &L, const GPUSpec &Compile) {
  if (L.GPU.empty())
    return Compile;
  return resolveGPU(L.GPU, "");
}

/// Whether launch \p L is for \p G: it names no GPU, or that one.
static bool launchOnGPU(const LaunchRequest &L, const GPUSpec &G) {
  Expected<GPUSpec> Named = launchGPU(L, G);
  if (!Named) {
    consumeError(Named.takeError());
    return false;
  }
  return Named->Name == G.Name;
}

/// A kernel written for one block shape (ShapeInfo::FixedByTile) whose
/// block neither front end read off the code (none, or a guess from a
/// tile's dimensions or the launch bounds) is run with the block its
/// launch states: the sweep holds that block instead of assuming one
/// (CLBlast's Xgemm compiled by clang, whose stores stay in a call, was
/// told to use 32 x 8 threads where it was written and launched for 16 x
/// 8). A block read off the code that the launch contradicts is kept, and
/// a warning says so.
static std::string holdStatedBlock(KernelProfile &K, const LaunchRequest &L) {
  ShapeInfo &S = K.Shape;
  if (!S.FixedByTile || K.Bounds.ReqNTid[0])
    return "";
  std::string Stated = std::to_string(L.Block[0]) + " x " +
                       std::to_string(L.Block[1]) + " x " +
                       std::to_string(L.Block[2]);
  if (S.FixedBlock[0] && !S.FixedGuessed) {
    if (S.FixedBlock == L.Block)
      return "";
    return "the stated launch's block (" + Stated +
           ") is not the block the code is written for (" +
           std::to_string(S.FixedBlock[0]) + " x " +
           std::to_string(S.FixedBlock[1]) + " x " +
           std::to_string(S.FixedBlock[2]) + ": " + S.FixedReason + ")";
  }
  S.FixedBlock = L.Block; // Valid there (predictLaunch checked it).
  S.FixedGuessed = false;
  S.FixedReason +=
      "; the stated launch's block " + Stated + " (-flipflop-launch)";
  return "";
}

KernelResult analyzeKernel(const Function &F, KernelProfile &K,
                           const PluginOptions &O, const ModuleFacts &MF,
                           bool OnlyKernel) {
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
  // The stated launch is the problem where that is unambiguous: a held
  // block (the launch's grid at that block: the same work), or a 1-D
  // launch of a kernel indexed along x alone whose work per thread does
  // not depend on the block (its threads at every block swept). A 2-D
  // launch's area, a block-stride loop (a row a block, or a setup loop
  // over a shared array: which, the profile cannot tell), a grid-stride
  // loop or a stated size leave the default problem, and FF021 is not
  // said there. A launch that cannot run, or that the kernel's own checks
  // on blockDim stop, is neither held nor the problem: FF021 says why.
  std::string LaunchConflict;
  const LaunchRequest *L = OnlyKernel ? statedLaunch(O) : nullptr;
  if (L) {
    // Whether it can run; its figures come after the sweep, with the facts
    // the sweep gathers (ptxas under a cap its block implies), as the
    // report's `launches` are.
    Prediction LP = predictLaunch(K, *R.GPU, *L);
    if (LP.Valid) {
      LaunchConflict = holdStatedBlock(K, *L);
      const bool Held =
          K.Bounds.ReqNTid[0]
              ? K.Bounds.ReqNTid == L->Block
              : K.Shape.FixedByTile && K.Shape.FixedBlock == L->Block;
      const bool OneD = L->Block[1] == 1 && L->Block[2] == 1 &&
                        L->Grid[1] == 1 && L->Grid[2] == 1 &&
                        !K.Shape.UsesTid[1] && !K.Shape.UsesTid[2];
      if (!O.ProblemSize && !K.Shape.GridStrideLoop &&
          gridStrideElements(K) <= 0 &&
          (Held || (OneD && !K.Shape.WorkScalesWithBlock))) {
        AO.Sweep.TotalThreads = uint64_t(L->Block[0]) * L->Block[1] *
                                L->Block[2] * L->Grid[0] * L->Grid[1] *
                                L->Grid[2];
        if (Held)
          AO.Sweep.Grid = L->Grid;
        R.ProblemFromLaunch = true;
      }
    }
  }
  AO.Sweep.PowerMinW = O.PowerMinW;
  AO.Sweep.PowerMaxW = O.PowerMaxW;
  AO.Sweep.PowerSteps = O.PowerSteps;
  AO.Sweep.SlowdownBudgetPct = O.BudgetPct;
  AO.Sweep.Obj = O.Obj;
  R.Sweep = recommend(K, *R.GPU, MF.PTX, AO, MF.Ptxas);
  // Said with the pick (FF014) and in the report.
  if (!LaunchConflict.empty()) {
    R.Sweep->Warnings.push_back(LaunchConflict);
    K.Warnings.push_back(LaunchConflict);
  }
  if (L && llvm::any_of(O.Launches, [&](const LaunchRequest &Each) {
        return launchOnGPU(Each, *R.GPU);
      }))
    R.Launch = predictLaunch(K, *R.GPU, *L);
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
