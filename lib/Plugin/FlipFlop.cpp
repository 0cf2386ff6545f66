//===- FlipFlop.cpp - The FlipFlop pass plugin ----------------------------===//
//
// Entry points:
//  - opt:   -load-pass-plugin=FlipFlop.so -passes=flipflop
//           -passes='print<flipflop-profile>' (profile printer for tests)
//  - clang: -fpass-plugin=FlipFlop.so runs `flipflop` at the end of the
//           optimisation pipeline of every module (a no-op unless NVPTX), at
//           every -O level; the PreCodeGen callback then emits the PTX itself
//           with clang's TargetMachine, analyses it, and writes the very same
//           bytes to clang's output stream. When clang writes IR instead
//           (-emit-llvm), a hook before the IR writer does the same from the
//           PTX of a copy, so the IR carries the metadata.
//
// The pass gathers, calls the model and reports; it never changes code
// generation unless -flipflop-apply-bounds is on. An internal problem becomes
// remark FF900 naming the kernel, and a warning (warnUser: never an error
// unless the user opted in); the compile goes on. At -O0 the kernels are
// analysed on a copy optimised as -O2 would (analyseCanonicalCopy), so
// every -O level gets the same recommendation.
//
// The parts: PluginImpl.h (analyzeKernel, annotateIR, applyBounds, the
// report, the copies), Remarks.h (remarks, warnings).
//
//===----------------------------------------------------------------------===//
#include "PluginImpl.h"
#include "Remarks.h"
#include "flipflop/Plugin/Plugin.h"

#include "flipflop/Plugin/Options.h"
#include "flipflop/Profile/IRProfile.h"
#include "flipflop/Profile/ProfilePrinter.h"
#include "flipflop/Target/GPUDatabase.h"

#include "llvm/ADT/Any.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace flipflop {

namespace {

/// Testing only: simulate an internal crash while profiling kernels whose
/// name contains this string (proves the soft-fail path).
cl::opt<std::string>
    ClCrashTest("flipflop-internal-crash-test", cl::Hidden,
                cl::desc("Testing: crash in this kernel's analysis"));

bool isNVPTXModule(const Module &M) {
  return Triple(M.getTargetTriple()).isNVPTX();
}

/// True when the module's code was not optimised: clang -O0 marks every
/// function optnone (and the pass is told the pipeline's level).
bool hasOptNone(const Module &M) {
  for (const Function &F : M)
    if (!F.isDeclaration() && F.hasOptNone())
      return true;
  return false;
}

/// Clang's code generation level for a pipeline level (clang: -O1 Less,
/// -O2/-Os/-Oz Default, -O3 Aggressive).
CodeGenOptLevel codeGenLevel(OptimizationLevel Level) {
  switch (Level.getSpeedupLevel()) {
  case 0:
    return CodeGenOptLevel::None;
  case 1:
    return CodeGenOptLevel::Less;
  case 3:
    return CodeGenOptLevel::Aggressive;
  default:
    return CodeGenOptLevel::Default;
  }
}

/// Profiles parked by the pass for the PreCodeGen callback, or for the IR
/// writer hook, of the same module (see PerModule for their lifetime).
PerModule<DeferredModule> &deferred() {
  static PerModule<DeferredModule> D;
  return D;
}

/// The launch facts of options \p O, for KernelProfileAnalysis.
LaunchFacts launchFacts(const PluginOptions &O) {
  LaunchFacts Facts = O.Facts;
  Facts.CrashTestKernel = ClCrashTest;
  return Facts;
}

/// The launch facts of module \p M (its options), asked by
/// KernelProfileAnalysis in the analysis managers of clang and opt.
LaunchFacts launchFactsOf(const Module &M) {
  return launchFacts(resolveOptions(M.getSourceFileName()));
}

/// The kernels' profiles, in module order (crash-safe: see
/// KernelProfileAnalysis). The analysis' result stays cached, unchanged.
std::vector<KernelProfile> profileKernels(Module &M,
                                          ModuleAnalysisManager &MAM) {
  std::vector<KernelProfile> List;
  for (const auto &KV : MAM.getResult<KernelProfileAnalysis>(M))
    List.push_back(KV.second);
  return List;
}

} // namespace

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

/// One kernel: the model's answer, its remarks, the IR annotations, the
/// opt-in bounds and its report entry.
static void reportKernel(Function &F, const DiagnosticLocation &Loc,
                         KernelProfile &K, const PluginOptions &O,
                         const ModuleFacts &MF, bool OnlyKernel,
                         ModuleReport &Report) {
  KernelRemarks Remarks(F, Loc);
  emitOptionProblems(Remarks, O);
  KernelResult R = analyzeKernel(F, K, O, MF, OnlyKernel);
  Report.add(K, R, O);
  if (!R.Problem.empty())
    return emitInternalProblem(Remarks, F.getContext(), O, K.DisplayName,
                               R.Problem, R.WarnProblem);
  if (R.implausible())
    return emitImplausible(Remarks, K, R);
  if (R.noWork())
    return emitNoWork(Remarks, K);
  emitRecommendation(Remarks, K, R, O);
  annotateIR(F, R, O);
  applyBounds(F, K, R, O, Remarks);
}

void reportModule(Module &M, std::vector<KernelProfile> &Profiles,
                  const PluginOptions &O, const ModuleFacts &MF) {
  ModuleReport Report;
  SourceCache Sources;
  unsigned Defined = 0;
  for (KernelProfile &K : Profiles) {
    stateDynamicShared(K, O.DynamicShared);
    const Function *F = M.getFunction(K.Name);
    Defined += F && !F->isDeclaration();
  }
  for (KernelProfile &K : Profiles) {
    Function *F = M.getFunction(K.Name);
    if (!F || F->isDeclaration())
      continue;
    DiagnosticLocation Loc = kernelLocation(*F, Sources);
    CrashRecoveryContext CRC;
    if (CRC.RunSafely(
            [&] { reportKernel(*F, Loc, K, O, MF, Defined == 1, Report); }))
      continue;
    // A crash: FF900 without a Problem argument (the record as before).
    KernelRemarks Remarks(*F, Loc);
    Remarks.emitRemark(remark::id::InternalProblem, [&](auto R) {
      return R << "FlipFlop could not analyse kernel '"
               << ore::NV(remark::Kernel, K.DisplayName)
               << "': internal error while modelling; no recommendation";
    });
    warnUser(M.getContext(), O, remark::id::InternalProblem,
             "could not analyse kernel '" + K.DisplayName +
                 "': internal error while modelling; no recommendation");
  }
  Report.write(M, O, Sources);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Analyses and reports an unoptimised module from its -O2 copy (with the
/// copy's PTX when \p UsePTX). False, with \p Failure saying why, when the
/// copy could not be analysed: the caller then analyses the module as it is.
static bool reportCanonicalCopy(Module &M, const PluginOptions &O, bool UsePTX,
                                std::string &Failure) {
  std::optional<CanonicalAnalysis> CA;
  CrashRecoveryContext CRC;
  const bool Ran = CRC.RunSafely([&] {
    Expected<CanonicalAnalysis> R =
        analyseCanonicalCopy(M, launchFacts(O), UsePTX);
    if (R)
      CA = std::move(*R);
    else
      Failure = toString(R.takeError());
  });
  if (!Ran)
    Failure = "internal error";
  if (!Ran || !CA) {
    // The unoptimised IR as it is: loops may be misread; the report says so.
    warnUser(M.getContext(), O, remark::id::InternalProblem,
             "the -O2 copy of the unoptimised module could not be built (" +
                 Failure + "): its kernels are analysed as compiled");
    return false;
  }
  DeferredModule State{std::move(CA->Profiles), O, {}};
  if (UsePTX)
    mergeEmittedPTX(M.getContext(), CA->PTX, archOf(M), State);
  reportModule(M, State.Profiles, State.Opts, State.Facts);
  return true;
}

PreservedAnalyses FlipFlopPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!isNVPTXModule(M))
    return PreservedAnalyses::all();
  // Whatever a dead module at this address left is stale.
  deferred().drop(M);
  PluginOptions O = resolveOptions(M.getSourceFileName());
  // Configuration problems are warnings in clang's usual form, visible
  // without any -R flag (warnUser); each kernel's FF901 remark repeats them
  // for the YAML record.
  LLVMContext &Ctx = M.getContext();
  for (const std::string &E : O.Errors)
    warnUser(Ctx, O, remark::id::OptionProblem, E + " (default kept)");
  if (Expected<GPUSpec> GPU = resolveGPU(O.GPU, archOf(M)); !GPU)
    warnUser(Ctx, O, remark::id::OptionProblem,
             toString(GPU.takeError()) + "; no recommendation");
  // Launch bounds must be in the IR before the back end runs, so with
  // -flipflop-apply-bounds the recommendation is made from IR facts here.
  const bool UsePTX = Deferred && O.PTXAnalysis && !O.ApplyBounds;
  // Only metadata and string attributes are added (and, opted in, launch
  // bounds): no analysis is invalidated by them.
  const PreservedAnalyses Done =
      O.ApplyBounds ? PreservedAnalyses::none() : PreservedAnalyses::all();
  // clang tells the pipeline's level; in opt, optnone functions say it (a
  // function the user marks optnone at -O2 stays as compiled in clang).
  std::string CopyFailure; // Why the -O2 copy could not be analysed.
  if (Level == OptimizationLevel::O0 || (!Deferred && hasOptNone(M))) {
    if (reportCanonicalCopy(M, O, UsePTX, CopyFailure))
      return Done;
  } else {
    dropSnapshot(M);
  }
  std::vector<KernelProfile> List = profileKernels(M, MAM);
  if (!CopyFailure.empty())
    for (KernelProfile &K : List)
      K.Warnings.push_back("analysed unoptimised IR (" + CopyFailure +
                           "): loop trip counts may be guesses");
  if (UsePTX) {
    deferred().put(
        M,
        DeferredModule{std::move(List), std::move(O), {}, codeGenLevel(Level)});
    return PreservedAnalyses::all();
  }
  reportModule(M, List, O, ModuleFacts());
  return Done;
}

PreservedAnalyses FlipFlopSnapshotPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  if (isNVPTXModule(M))
    saveSnapshot(M);
  return PreservedAnalyses::all();
}

PreservedAnalyses ProfilePrinterPass::run(Module &M,
                                          ModuleAnalysisManager &MAM) {
  for (const KernelProfile &P : profileKernels(M, MAM))
    printProfile(P, OS);
  return PreservedAnalyses::all();
}

//===----------------------------------------------------------------------===//
// After the pipeline: code generation (PreCodeGen), or an IR writer
//===----------------------------------------------------------------------===//

/// Emits the PTX with clang's TargetMachine, analyses it, and hands the
/// identical bytes to clang.
bool preCodeGen(Module &M, TargetMachine &TM, CodeGenFileType CGFT,
                raw_pwrite_stream &OS) {
  if (!isNVPTXModule(M))
    return false;
  std::optional<DeferredModule> State = deferred().take(M);
  if (!State)
    return false;
  SmallString<0> PTX;
  // Nothing ran (not PTX, or the target cannot emit it): report from the IR
  // and let clang generate code as usual.
  if (CGFT != CodeGenFileType::AssemblyFile || !emitPTX(M, TM, PTX)) {
    reportModule(M, State->Profiles, State->Opts, State->Facts);
    return false;
  }
  OS << PTX;
  mergeEmittedPTX(M.getContext(), PTX, archOf(M), *State);
  reportModule(M, State->Profiles, State->Opts, State->Facts);
  return true;
}

/// Passes that write the module as IR. One running on a module whose
/// report waits for code generation means none follows: clang -emit-llvm
/// (PrintModulePass), -emit-llvm -c (BitcodeWriterPass), an LTO pre-link
/// step (ThinLTOBitcodeWriterPass), opt.
static bool writesIR(StringRef PassID) {
  return PassID == "PrintModulePass" || PassID == "BitcodeWriterPass" ||
         PassID == "ThinLTOBitcodeWriterPass";
}

/// Before an IR writer: reports a module parked for PreCodeGen from the PTX
/// of a copy emitted as clang would have (emitPTXOfCopy), so that the IR
/// written carries the metadata and the remarks are those of a compile to
/// PTX. The module's own code is untouched.
static void reportBeforeIRWriter(Module &M) {
  std::optional<DeferredModule> State = deferred().take(M);
  if (!State)
    return;
  std::optional<std::string> PTX;
  std::string Why = "internal error";
  CrashRecoveryContext CRC;
  CRC.RunSafely([&] {
    Expected<std::string> P = emitPTXOfCopy(M, State->CGLevel);
    if (P)
      PTX = std::move(*P);
    else
      Why = toString(P.takeError());
  });
  if (PTX)
    mergeEmittedPTX(M.getContext(), *PTX, archOf(M), *State);
  else
    for (KernelProfile &K : State->Profiles)
      K.Warnings.push_back("emitted PTX not analysed: " + Why);
  reportModule(M, State->Profiles, State->Opts, State->Facts);
}

} // namespace flipflop

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void flipflop::registerFlipFlopCallbacks(PassBuilder &PB) {
  // The kernels' profiles, cached per module; their launch facts come from
  // each module's options.
  PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
    MAM.registerPass([] { return KernelProfileAnalysis(launchFactsOf); });
  });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "flipflop") {
          MPM.addPass(FlipFlopPass(/*Deferred=*/false));
          return true;
        }
        if (Name == "print<flipflop-profile>") {
          MPM.addPass(ProfilePrinterPass(outs()));
          return true;
        }
        return false;
      });
  // At -O0, the module as the front end made it, for the canonical copy.
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        if (Level == OptimizationLevel::O0)
          MPM.addPass(FlipFlopSnapshotPass());
      });
  // Runs at every -O level, -O0 included (the pass is required).
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level, ThinOrFullLTOPhase) {
        MPM.addPass(FlipFlopPass(/*Deferred=*/true, Level));
      });
  // A module written as IR gets no code generation: report it before the
  // writer runs. The instrumentation sees the module as const; it is the
  // pipeline's module, which the writer is about to print.
  if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks())
    PIC->registerBeforeNonSkippedPassCallback([](StringRef PassID, Any IR) {
      if (!writesIR(PassID))
        return;
      if (const auto *M = any_cast<const Module *>(&IR))
        reportBeforeIRWriter(const_cast<Module &>(**M));
    });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  PassPluginLibraryInfo Info{LLVM_PLUGIN_API_VERSION, "FlipFlop", "0.1.0",
                             flipflop::registerFlipFlopCallbacks};
  Info.PreCodeGenCallback = flipflop::preCodeGen;
  return Info;
}
