//===- CanonicalCopy.cpp - PTX emission and the module's -O2 copy ---------===//
//
// What the analysis reads when the module is not optimised (-O0: the -O2
// copy, so that every -O level gets the same recommendation) or when no code
// generation follows (-emit-llvm: the PTX of a copy). Every copy lives in a
// context of its own: nothing reaches the compiled module, its context or
// clang's diagnostics.
//
//===----------------------------------------------------------------------===//
#include "PluginImpl.h"

#include "flipflop/Profile/IRProfile.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace flipflop {

bool emitPTX(Module &M, TargetMachine &TM, SmallVectorImpl<char> &PTX) {
  raw_svector_ostream PTXStream(PTX);
  legacy::PassManager CodeGen;
  CodeGen.add(createTargetTransformInfoWrapperPass(TM.getTargetIRAnalysis()));
  TargetLibraryInfoImpl TLII(M.getTargetTriple());
  CodeGen.add(new TargetLibraryInfoWrapperPass(TLII));
  if (TM.addPassesToEmitFile(CodeGen, PTXStream, nullptr,
                             CodeGenFileType::AssemblyFile,
                             /*DisableVerify=*/true))
    return false;
  CodeGen.run(M);
  return true;
}

namespace {

/// Swallows every diagnostic of the copy's context: the copy's remarks and
/// warnings (an unroll pragma the copy cannot honour...) are not the user's.
struct SilentDiagnostics : DiagnosticHandler {
  bool handleDiagnostics(const DiagnosticInfo &) override { return true; }
};

/// A target machine for a copy of \p M: the module's triple, the kernels'
/// CPU and features, code generation level \p Level, and CUDA's default FP
/// contraction (clang compiles CUDA with -ffp-contract=fast).
Expected<std::unique_ptr<TargetMachine>>
copyTargetMachine(const Module &M, CodeGenOptLevel Level) {
  Triple TT(M.getTargetTriple());
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return createStringError(inconvertibleErrorCode(), "no target for '%s': %s",
                             TT.str().c_str(), Err.c_str());
  std::string CPU, Features;
  for (const Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute("target-cpu")) {
      CPU = F.getFnAttribute("target-cpu").getValueAsString().str();
      if (F.hasFnAttribute("target-features"))
        Features = F.getFnAttribute("target-features").getValueAsString().str();
      if (isKernel(F))
        break;
    }
  TargetOptions Options;
  Options.AllowFPOpFusion = FPOpFusion::Fast;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, CPU, Features, Options, std::nullopt, std::nullopt, Level));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create a target machine for '%s'",
                             TT.str().c_str());
  return TM;
}

/// \p Bitcode parsed into \p Ctx, whose diagnostics are then swallowed.
/// Declare the context before the module: the module must go first.
Expected<std::unique_ptr<Module>> parseCopy(StringRef Bitcode,
                                            LLVMContext &Ctx) {
  Ctx.setDiagnosticHandler(std::make_unique<SilentDiagnostics>());
  return parseBitcodeFile(MemoryBufferRef(Bitcode, "flipflop-copy"), Ctx);
}

SmallString<0> bitcodeOf(const Module &M) {
  SmallString<0> Bitcode;
  raw_svector_ostream OS(Bitcode);
  WriteBitcodeToFile(M, OS);
  return Bitcode;
}

/// The PTX of \p C with \p TM.
Expected<std::string> emitPTXOf(Module &C, TargetMachine &TM) {
  SmallString<0> PTX;
  if (!emitPTX(C, TM, PTX))
    return createStringError(inconvertibleErrorCode(),
                             "the target cannot emit PTX");
  return PTX.str().str();
}

/// Bitcode of unoptimised NVPTX modules as clang's front end made them,
/// taken at the start of the -O0 pipeline (before the always-inliner): the
/// -O2 pipeline run on this gives what clang -O2 gives, where a copy taken
/// at the end of the -O0 pipeline would be inlined in another order.
/// Consumed by analyseCanonicalCopy (see PerModule for the lifetime).
PerModule<SmallString<0>> &snapshots() {
  static PerModule<SmallString<0>> S;
  return S;
}

/// Runs clang's -O2 optimisation pipeline on \p C with \p TM and returns the
/// profiles of its kernels.
std::vector<KernelProfile> optimiseAndProfile(Module &C, TargetMachine &TM,
                                              const LaunchFacts &Facts) {
  // clang's -O2 pipeline options (BackendUtil: unrolling, interleaving
  // and both vectorizers are on from -O2).
  PipelineTuningOptions PTO;
  PTO.LoopUnrolling = true;
  PTO.LoopInterleaving = true;
  PTO.LoopVectorization = true;
  PTO.SLPVectorization = true;
  PTO.CallGraphProfile = false;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(&TM, PTO);
  MAM.registerPass([&] { return KernelProfileAnalysis(Facts); });
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM =
      PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2);
  MPM.run(C, MAM);
  std::vector<KernelProfile> Out;
  for (auto &KV : MAM.getResult<KernelProfileAnalysis>(C))
    Out.push_back(std::move(KV.second));
  return Out;
}

} // namespace

void saveSnapshot(const Module &M) { snapshots().put(M, bitcodeOf(M)); }

void dropSnapshot(const Module &M) { snapshots().drop(M); }

/// The copy is stripped of optnone/noinline (clang -O0 puts both on every
/// function) so that the -O2 pipeline makes loops canonical and
/// ScalarEvolution finds their trip counts.
Expected<CanonicalAnalysis>
analyseCanonicalCopy(const Module &M, const LaunchFacts &Facts, bool WantPTX) {
  std::optional<SmallString<0>> Snapshot = snapshots().take(M);
  SmallString<0> Bitcode =
      Snapshot && !Snapshot->empty() ? std::move(*Snapshot) : bitcodeOf(M);
  Expected<std::unique_ptr<TargetMachine>> TM =
      copyTargetMachine(M, CodeGenOptLevel::Default);
  if (!TM)
    return TM.takeError();
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> Copy = parseCopy(Bitcode, Ctx);
  if (!Copy)
    return Copy.takeError();
  Module &C = **Copy;
  for (Function &F : C)
    if (F.hasOptNone()) {
      F.removeFnAttr(Attribute::OptimizeNone);
      F.removeFnAttr(Attribute::NoInline);
    }
  CanonicalAnalysis Out;
  Out.Profiles = optimiseAndProfile(C, **TM, Facts);
  if (WantPTX) {
    Expected<std::string> PTX = emitPTXOf(C, **TM);
    if (!PTX)
      return PTX.takeError();
    Out.PTX = std::move(*PTX);
  }
  return Out;
}

Expected<std::string> emitPTXOfCopy(const Module &M, CodeGenOptLevel Level) {
  Expected<std::unique_ptr<TargetMachine>> TM = copyTargetMachine(M, Level);
  if (!TM)
    return TM.takeError();
  SmallString<0> Bitcode = bitcodeOf(M);
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> Copy = parseCopy(Bitcode, Ctx);
  if (!Copy)
    return Copy.takeError();
  return emitPTXOf(**Copy, **TM);
}

} // namespace flipflop
