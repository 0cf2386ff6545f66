//===- FlipFlop.cpp - The FlipFlop pass plugin ----------------------------===//
//
// Entry points:
//  - opt:   -load-pass-plugin=FlipFlop.so -passes=flipflop
//           -passes='print<flipflop-profile>' (profile printer for tests)
//  - clang: -fpass-plugin=FlipFlop.so runs `flipflop` at the end of the
//           optimisation pipeline of every module (a no-op unless NVPTX), at
//           every -O level; the PreCodeGen callback then emits the PTX itself
//           with clang's TargetMachine, analyses it, and writes the very same
//           bytes to clang's output stream.
//
// The pass gathers, calls the model and reports; it never changes code
// generation unless -flipflop-apply-bounds is on. An internal problem becomes
// remark FF900 naming the kernel; the compile goes on.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Plugin/Plugin.h"

#include "flipflop/Driver/Analyze.h"
#include "flipflop/Model/Recommender.h"
#include "flipflop/Report/JSONReport.h"
#include "flipflop/Plugin/Options.h"
#include "flipflop/Profile/IRProfile.h"
#include "flipflop/Profile/PTXParser.h"
#include "flipflop/Profile/ProfilePrinter.h"
#include "flipflop/Target/GPUDatabase.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <optional>
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <map>
#include <mutex>

using namespace llvm;

#define DEBUG_TYPE "flipflop"

namespace flipflop {

namespace {

/// Testing only: simulate an internal crash while profiling kernels whose
/// name contains this string (proves the soft-fail path).
cl::opt<std::string> ClCrashTest("flipflop-internal-crash-test", cl::Hidden,
                                 cl::desc("Testing: crash in this kernel's analysis"));

bool isNVPTXModule(const Module &M) {
  return Triple(M.getTargetTriple()).isNVPTX();
}

/// The sm_XX a kernel is compiled for ("target-cpu"), or empty.
std::string archOf(const Function &F) {
  Attribute A = F.getFnAttribute("target-cpu");
  return A.isStringAttribute() ? A.getValueAsString().str() : std::string();
}

std::string fmtDims(const std::array<unsigned, 3> &B) {
  std::string S = std::to_string(B[0]);
  if (B[1] > 1 || B[2] > 1)
    S += "x" + std::to_string(B[1]);
  if (B[2] > 1)
    S += "x" + std::to_string(B[2]);
  return S;
}

/// A remark argument holding a number printed with 4 significant digits
/// (remark YAML stores every value as text).
DiagnosticInfoOptimizationBase::Argument numArg(StringRef Key, double V) {
  return DiagnosticInfoOptimizationBase::Argument(
      Key, formatv("{0}", llvm::format("%.4g", V)).str());
}

/// A signed percentage change, one decimal ("+3.1", "-21.4").
DiagnosticInfoOptimizationBase::Argument pctArg(StringRef Key, double V) {
  return DiagnosticInfoOptimizationBase::Argument(
      Key, formatv("{0}", llvm::format("%+.1f", V)).str());
}

double pct(double New, double Old) {
  return Old > 0 ? 100.0 * (New - Old) / Old : 0;
}

/// Profiles kept between the optimisation pipeline and the PreCodeGen
/// callback of the same module (clang), keyed by module identity.
struct DeferredModule {
  std::vector<KernelProfile> Profiles;
  PluginOptions Opts;
  ModuleFacts Facts;
};
std::mutex DeferredMutex;
std::map<const Module *, DeferredModule> &deferred() {
  static std::map<const Module *, DeferredModule> D;
  return D;
}

/// The sm_XX of the module's first kernel.
std::string archOf(const Module &M) {
  for (const Function &F : M)
    if (isKernel(F))
      return archOf(F);
  return "";
}

/// Merges what the emitted PTX (and ptxas, when found) says into the IR
/// profiles, matched by kernel name. A PTX that does not parse leaves the IR
/// profiles as they are and says so in their warnings.
void mergeEmittedPTX(StringRef PTX, const std::string &Arch,
                     DeferredModule &State) {
  PTXParseOptions PO;
  PO.ArgValues = State.Opts.Facts.ArgValues;
  PO.DefaultTripCount = State.Opts.Facts.DefaultTrip;
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
  // The PTX is kept only for ptxas under register caps (Driver::recommend).
  if (State.Facts.Ptxas.Used)
    State.Facts.PTX = PTX.str();
  for (KernelProfile &K : State.Profiles)
    for (const KernelProfile &P : *Parsed)
      if (P.Name == K.Name)
        mergePTXFacts(K, P);
}


} // namespace

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

static void reportKernel(Function &F, KernelProfile &K, const PluginOptions &O,
                         const ModuleFacts &MF,
                         std::vector<json::Value> &KernelsJSON,
                         std::optional<GPUSpec> &ReportGPU);
static void writeReport(const Module &M, const PluginOptions &O,
                        std::vector<json::Value> KernelsJSON,
                        const std::optional<GPUSpec> &GPU);

void reportModule(Module &M, std::vector<KernelProfile> &Profiles,
                  const PluginOptions &O, const ModuleFacts &MF) {
  std::vector<json::Value> KernelsJSON;
  std::optional<GPUSpec> ReportGPU;
  for (KernelProfile &K : Profiles) {
    Function *F = M.getFunction(K.Name);
    if (!F)
      continue;
    CrashRecoveryContext CRC;
    if (!CRC.RunSafely([&] { reportKernel(*F, K, O, MF, KernelsJSON, ReportGPU); })) {
      OptimizationRemarkEmitter ORE(F);
      ORE.emit([&] {
        return OptimizationRemarkAnalysis(DEBUG_TYPE, "FF900", F)
               << "FlipFlop could not analyse kernel '"
               << ore::NV("Kernel", K.DisplayName)
               << "': internal error while modelling; no recommendation";
      });
    }
  }
  if (!O.ReportDir.empty())
    writeReport(M, O, std::move(KernelsJSON), ReportGPU);
}

/// Writes the module's JSON report to the report directory, atomically, as
/// <source stem>-<hash of the source path>.<sm_XX>.flipflop.json (clang does
/// not tell plugins the output path). A failure is a remark, not an error.
static void writeReport(const Module &M, const PluginOptions &O,
                        std::vector<json::Value> KernelsJSON,
                        const std::optional<GPUSpec> &GPU) {
  if (!GPU)
    return;
  std::string Source = M.getSourceFileName();
  SmallString<256> Abs(Source);
  sys::fs::make_absolute(Abs);
  std::string Name = (sys::path::filename(Source) + "-" +
                      utohexstr(xxh3_64bits(Abs.str()) & 0xffffffffu, true) +
                      "." + archOf(M) + ".flipflop.json")
                         .str();
  SmallString<256> Path(O.ReportDir);
  sys::path::append(Path, Name);
  std::error_code EC = sys::fs::create_directories(O.ReportDir);
  Error E = EC ? createStringError(EC, "cannot create '%s'", O.ReportDir.c_str())
               : writeJSONFile(reportToJSON(*GPU, std::move(KernelsJSON),
                                            "flipflop-plugin"),
                               Path);
  if (E) {
    std::string Why = toString(std::move(E));
    for (const Function &F : M)
      if (isKernel(F)) {
        OptimizationRemarkEmitter ORE(&F);
        ORE.emit([&] {
          return OptimizationRemarkAnalysis(DEBUG_TYPE, "FF902", &F)
                 << "FlipFlop could not write its report: "
                 << ore::NV("Problem", Why);
        });
        break;
      }
  }
}

/// The predictions of the launches the user asked for (option "launch"),
/// as "launches": [{"gpu", "prediction"}] in the kernel's report entry.
static void addLaunches(json::Object &Kernel, const KernelProfile &K,
                        const GPUSpec &CompileGPU, const PluginOptions &O) {
  json::Array Out;
  for (const LaunchRequest &L : O.Launches) {
    std::optional<GPUSpec> G = CompileGPU;
    if (!L.GPU.empty()) {
      Expected<GPUSpec> Named = resolveGPU(L.GPU, "");
      if (!Named) {
        Out.push_back(json::Object{{"gpu", L.GPU},
                                   {"error", toString(Named.takeError())}});
        continue;
      }
      G = *Named;
    }
    LaunchConfig C;
    C.Block = L.Block;
    C.Grid = L.Grid;
    C.DynamicSharedBytes = K.Res.DynamicSharedBytes;
    Out.push_back(json::Object{{"gpu", G->Name},
                               {"prediction", predictionToJSON(predict(K, *G, C))}});
  }
  Kernel["launches"] = std::move(Out);
}

static void reportKernel(Function &FRef, KernelProfile &K,
                         const PluginOptions &O, const ModuleFacts &MF,
                         std::vector<json::Value> &KernelsJSON,
                         std::optional<GPUSpec> &ReportGPU) {
  Function *F = &FRef;
  Module &M = *F->getParent();
  {
    OptimizationRemarkEmitter ORE(F);
    for (const std::string &E : O.Errors)
      ORE.emit([&] {
        return OptimizationRemarkAnalysis(DEBUG_TYPE, "FF901", F)
               << "FlipFlop option problem (default kept): "
               << ore::NV("Problem", E);
      });
    auto InternalProblem = [&](const std::string &Why) {
      ORE.emit([&] {
        return OptimizationRemarkAnalysis(DEBUG_TYPE, "FF900", F)
               << "FlipFlop could not analyse kernel '"
               << ore::NV("Kernel", K.DisplayName) << "': "
               << ore::NV("Problem", Why) << "; no recommendation";
      });
    };
    if (!K.Internal.empty())
      return InternalProblem(K.Internal);
    Expected<GPUSpec> GPU = resolveGPU(O.GPU, archOf(*F));
    if (!GPU)
      return InternalProblem(toString(GPU.takeError()));
    AnalyzeOptions AO;
    AO.Ptxas = O.Ptxas;
    AO.Arch = archOf(*F);
    AO.Sweep.TotalThreads = O.ProblemSize;
    AO.Sweep.PowerMinW = O.PowerMinW;
    AO.Sweep.PowerMaxW = O.PowerMaxW;
    AO.Sweep.PowerSteps = O.PowerSteps;
    AO.Sweep.SlowdownBudgetPct = O.BudgetPct;
    AO.Sweep.Obj = O.Obj;
    SweepResult R = recommend(K, *GPU, MF.PTX, AO, MF.Ptxas);
    if (!O.ReportDir.empty()) {
      KernelsJSON.push_back(kernelToJSON(K, R));
      if (!O.Launches.empty())
        addLaunches(*KernelsJSON.back().getAsObject(), K, *GPU, O);
      if (!ReportGPU)
        ReportGPU = *GPU;
    }
    // FF013: figures outside physical bounds never drive a recommendation.
    if (!R.Implausible.empty()) {
      ORE.emit([&] {
        return OptimizationRemarkAnalysis(DEBUG_TYPE, "FF013", F)
               << "kernel '" << ore::NV("Kernel", K.DisplayName)
               << "': implausible figures, no recommendation: "
               << ore::NV("Problem", R.Implausible);
      });
      return;
    }
    if (R.Configs.empty())
      return InternalProblem("no configuration of this kernel can launch on " +
                             GPU->Name);
    const Prediction &Best = R.Configs[R.pick(O.Obj)];
    const Prediction &Heur = R.Configs[R.Pick.OccupancyHeuristic];
    const LaunchConfig &C = Best.Config;

    // FF001: the one-line summary.
    ORE.emit([&] {
      OptimizationRemarkAnalysis Rem(DEBUG_TYPE, "FF001", F);
      Rem << "kernel '" << ore::NV("Kernel", K.DisplayName) << "' on "
          << ore::NV("GPU", GPU->Name) << ": for "
          << ore::NV("Objective", objectiveName(O.Obj)) << " use block "
          << ore::NV("Block", fmtDims(C.Block)) << ", min-blocks "
          << ore::NV("MinBlocks", C.MinBlocksPerSM) << ", power limit "
          << ore::NV("PowerLimitW", static_cast<int64_t>(C.PowerLimitW + 0.5))
          << " W: " << numArg("TimeUs", Best.TimeS * 1e6) << " us, "
          << numArg("EnergyMJ", Best.EnergyJ * 1e3) << " mJ ("
          << pctArg("EnergyChangePct", pct(Best.EnergyJ, Heur.EnergyJ))
          << "% energy, " << pctArg("TimeChangePct", pct(Best.TimeS, Heur.TimeS))
          << "% time vs occupancy heuristic block "
          << ore::NV("HeuristicBlock", fmtDims(Heur.Config.Block)) << " at "
          << ore::NV("HeuristicPowerLimitW",
                     static_cast<int64_t>(Heur.Config.PowerLimitW + 0.5))
          << " W); " << ore::NV("Bottleneck", bottleneckName(Best.Bound))
          << "-bound, occupancy " << numArg("Occupancy", Best.Occ.Occupancy)
          << ", " << ore::NV("Registers", Best.RegsPerThread) << " registers ("
          << ore::NV("RegisterSource",
                     K.Res.RegistersExact ? "ptxas" : "estimated")
          << ")";
      return Rem;
    });
    // FF014: a pick that stands but is hard to believe.
    for (const std::string &W : R.Warnings)
      ORE.emit([&] {
        return OptimizationRemarkAnalysis(DEBUG_TYPE, "FF014", F)
               << "kernel '" << ore::NV("Kernel", K.DisplayName)
               << "': check this prediction: " << ore::NV("Warning", W);
      });
    // FF002: why.
    if (O.Verbosity >= 1)
      ORE.emit([&] {
        return OptimizationRemarkAnalysis(DEBUG_TYPE, "FF002", F)
               << "why: " << ore::NV("Explanation", R.Explanation);
      });
    // FF003: the Pareto set.
    if (O.Verbosity >= 2)
      for (size_t Rank = 0; Rank < R.Pareto.size(); ++Rank) {
        const Prediction &Pt = R.Configs[R.Pareto[Rank]];
        ORE.emit([&] {
          return OptimizationRemarkAnalysis(DEBUG_TYPE, "FF003", F)
                 << "pareto " << ore::NV("Rank", static_cast<unsigned>(Rank))
                 << ": block " << ore::NV("Block", fmtDims(Pt.Config.Block))
                 << ", min-blocks "
                 << ore::NV("MinBlocks", Pt.Config.MinBlocksPerSM) << ", "
                 << ore::NV("PowerLimitW",
                            static_cast<int64_t>(Pt.Config.PowerLimitW + 0.5))
                 << " W: " << numArg("TimeUs", Pt.TimeS * 1e6) << " us, "
                 << numArg("EnergyMJ", Pt.EnergyJ * 1e3) << " mJ";
        });
      }
    // FF010..FF012: what limited the recommendation.
    if (R.ShapeHeld)
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "FF010", F)
               << "kernel '" << ore::NV("Kernel", K.DisplayName)
               << "': block shape kept at "
               << ore::NV("Block", fmtDims(C.Block)) << ": "
               << ore::NV("Reason", R.ShapeReason);
      });
    if (K.Res.UsesDynamicShared && !K.Res.DynamicSharedBytes)
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "FF011", F)
               << "kernel '" << ore::NV("Kernel", K.DisplayName)
               << "' uses dynamic shared memory of unknown size; occupancy "
                  "assumes 0 bytes";
      });
    unsigned GuessedLoops = 0;
    for (const LoopRecord &L : K.Loops)
      GuessedLoops += L.Guessed;
    if (GuessedLoops)
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "FF012", F)
               << "kernel '" << ore::NV("Kernel", K.DisplayName) << "': "
               << ore::NV("GuessedLoops", GuessedLoops)
               << " loop trip count(s) guessed (" << ore::NV("Guess", K.Guesses.front())
               << "); give -flipflop-args or -flipflop-problem-size";
      });
    // FF020: the author's bounds against the recommendation.
    if (K.Bounds.any() && O.Verbosity >= 1) {
      // The author's configuration, predicted at the recommendation's power
      // limit and problem size: the block the bounds allow (the required
      // shape, else the maximum) and their register cap.
      LaunchConfig AC = C;
      const std::array<unsigned, 3> &Dims =
          K.Bounds.ReqNTid[0] ? K.Bounds.ReqNTid : K.Bounds.MaxNTid;
      if (Dims[0])
        AC.Block = {Dims[0], std::max(1u, Dims[1]), std::max(1u, Dims[2])};
      AC.Grid = {0, 0, 0};
      AC.MinBlocksPerSM = K.Bounds.MinCTAsPerSM;
      Prediction AuthorP = predict(K, *GPU, AC);
      const Prediction *Author = AuthorP.Valid ? &AuthorP : nullptr;
      ORE.emit([&] {
        OptimizationRemarkAnalysis Rem(DEBUG_TYPE, "FF020", F);
        Rem << "kernel '" << ore::NV("Kernel", K.DisplayName)
            << "' has __launch_bounds__("
            << ore::NV("AuthorMaxThreads", K.Bounds.maxThreads()) << ", "
            << ore::NV("AuthorMinBlocks", K.Bounds.MinCTAsPerSM) << ")";
        if (Author)
          Rem << ": predicted " << numArg("AuthorTimeUs", Author->TimeS * 1e6)
              << " us, " << numArg("AuthorEnergyMJ", Author->EnergyJ * 1e3)
              << " mJ against the recommendation's "
              << numArg("TimeUs", Best.TimeS * 1e6) << " us, "
              << numArg("EnergyMJ", Best.EnergyJ * 1e3) << " mJ";
        else
          Rem << ": this configuration cannot launch on " << GPU->Name << " ("
              << ore::NV("Invalid", AuthorP.Invalid) << ")";
        return Rem;
      });
    }
    // Metadata and attributes: the recommendation, documented in
    // docs/METADATA.md. Neither changes code generation.
    LLVMContext &Ctx = M.getContext();
    auto *I32 = Type::getInt32Ty(Ctx);
    auto *F64 = Type::getDoubleTy(Ctx);
    Metadata *MDs[] = {
        MDString::get(Ctx, "flipflop.v1"),
        MDString::get(Ctx, GPU->Name),
        MDString::get(Ctx, objectiveName(O.Obj)),
        ConstantAsMetadata::get(ConstantInt::get(I32, C.Block[0])),
        ConstantAsMetadata::get(ConstantInt::get(I32, C.Block[1])),
        ConstantAsMetadata::get(ConstantInt::get(I32, C.Block[2])),
        ConstantAsMetadata::get(ConstantInt::get(I32, C.MinBlocksPerSM)),
        ConstantAsMetadata::get(ConstantFP::get(F64, C.PowerLimitW)),
        ConstantAsMetadata::get(ConstantFP::get(F64, Best.TimeS)),
        ConstantAsMetadata::get(ConstantFP::get(F64, Best.EnergyJ)),
        ConstantAsMetadata::get(ConstantFP::get(F64, Heur.TimeS)),
        ConstantAsMetadata::get(ConstantFP::get(F64, Heur.EnergyJ)),
    };
    F->setMetadata("flipflop", MDNode::get(Ctx, MDs));
    F->addFnAttr("flipflop.block", formatv("{0},{1},{2}", C.Block[0],
                                           C.Block[1], C.Block[2]).str());
    F->addFnAttr("flipflop.min-blocks", std::to_string(C.MinBlocksPerSM));
    F->addFnAttr("flipflop.power-limit-w",
                 std::to_string(static_cast<int64_t>(C.PowerLimitW + 0.5)));
    // Opt-in: the recommended launch bounds, never over the author's.
    if (O.ApplyBounds) {
      if (K.Bounds.any()) {
        ORE.emit([&] {
          return OptimizationRemarkMissed(DEBUG_TYPE, "FF031", F)
                 << "kernel '" << ore::NV("Kernel", K.DisplayName)
                 << "' keeps its author's launch bounds; recommended "
                 << ore::NV("MaxThreads", C.blockThreads()) << ", "
                 << ore::NV("MinBlocks", C.MinBlocksPerSM) << " not applied";
        });
      } else {
        F->addFnAttr("nvvm.maxntid", fmtDims(C.Block) == std::to_string(C.Block[0])
                                         ? std::to_string(C.Block[0])
                                         : formatv("{0},{1},{2}", C.Block[0],
                                                   C.Block[1], C.Block[2]).str());
        if (C.MinBlocksPerSM)
          F->addFnAttr("nvvm.minctasm", std::to_string(C.MinBlocksPerSM));
        ORE.emit([&] {
          return OptimizationRemark(DEBUG_TYPE, "FF030", F)
                 << "applied launch bounds to kernel '"
                 << ore::NV("Kernel", K.DisplayName) << "': maxntid "
                 << ore::NV("MaxThreads", C.blockThreads()) << ", minctasm "
                 << ore::NV("MinBlocks", C.MinBlocksPerSM);
        });
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// The kernels' profiles, in module order (crash-safe: see
/// KernelProfileAnalysis).
static std::vector<KernelProfile> profileKernels(Module &M,
                                                 ModuleAnalysisManager &MAM,
                                                 const PluginOptions &O) {
  LaunchFacts Facts = O.Facts;
  Facts.CrashTestKernel = ClCrashTest;
  std::vector<KernelProfile> List;
  for (auto &KV : KernelProfileAnalysis(Facts).run(M, MAM))
    List.push_back(std::move(KV.second));
  return List;
}

PreservedAnalyses FlipFlopPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!isNVPTXModule(M))
    return PreservedAnalyses::all();
  PluginOptions O = resolveOptions(M.getSourceFileName());
  // Option problems are warnings in clang's usual form, visible without any
  // -R flag (-Wno-backend-plugin silences them); each kernel's FF901 remark
  // repeats them for the YAML record.
  for (const std::string &E : O.Errors)
    M.getContext().diagnose(DiagnosticInfoGeneric(
        Twine("FlipFlop: ") + E + " (default kept)", DS_Warning));
  std::vector<KernelProfile> List = profileKernels(M, MAM, O);
  // Launch bounds must be in the IR before the back end runs, so with
  // -flipflop-apply-bounds the recommendation is made from IR facts here.
  if (Deferred && O.PTXAnalysis && !O.ApplyBounds) {
    std::lock_guard<std::mutex> Lock(DeferredMutex);
    deferred()[&M] = DeferredModule{std::move(List), std::move(O)};
    return PreservedAnalyses::all();
  }
  reportModule(M, List, O, ModuleFacts());
  // Only metadata and string attributes were added (and, opted in, launch
  // bounds): no analysis is invalidated by them.
  return O.ApplyBounds ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses ProfilePrinterPass::run(Module &M,
                                          ModuleAnalysisManager &MAM) {
  PluginOptions O = resolveOptions(M.getSourceFileName());
  for (const KernelProfile &P : profileKernels(M, MAM, O))
    printProfile(P, OS);
  return PreservedAnalyses::all();
}

//===----------------------------------------------------------------------===//
// PreCodeGen: emit the PTX with clang's TargetMachine, analyse it, and hand
// the identical bytes to clang.
//===----------------------------------------------------------------------===//

bool preCodeGen(Module &M, TargetMachine &TM, CodeGenFileType CGFT,
                raw_pwrite_stream &OS) {
  if (!isNVPTXModule(M))
    return false;
  DeferredModule State;
  {
    std::lock_guard<std::mutex> Lock(DeferredMutex);
    auto It = deferred().find(&M);
    if (It == deferred().end())
      return false;
    State = std::move(It->second);
    deferred().erase(It);
  }
  if (CGFT != CodeGenFileType::AssemblyFile) {
    reportModule(M, State.Profiles, State.Opts, State.Facts);
    return false;
  }
  SmallString<0> PTX;
  raw_svector_ostream PTXStream(PTX);
  legacy::PassManager CodeGenPasses;
  CodeGenPasses.add(createTargetTransformInfoWrapperPass(TM.getTargetIRAnalysis()));
  TargetLibraryInfoImpl TLII(M.getTargetTriple());
  CodeGenPasses.add(new TargetLibraryInfoWrapperPass(TLII));
  if (TM.addPassesToEmitFile(CodeGenPasses, PTXStream, nullptr, CGFT,
                             /*DisableVerify=*/true)) {
    // Nothing ran: report from the IR and let clang generate code as usual.
    reportModule(M, State.Profiles, State.Opts, State.Facts);
    return false;
  }
  CodeGenPasses.run(M);
  OS << PTX;
  mergeEmittedPTX(PTX, archOf(M), State);
  reportModule(M, State.Profiles, State.Opts, State.Facts);
  return true;
}

} // namespace flipflop

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void flipflop::registerFlipFlopCallbacks(PassBuilder &PB) {
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
  // Runs at every -O level, -O0 included (the pass is required).
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        MPM.addPass(FlipFlopPass(/*Deferred=*/true));
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  PassPluginLibraryInfo Info{LLVM_PLUGIN_API_VERSION, "FlipFlop", "0.1.0",
                             flipflop::registerFlipFlopCallbacks};
  Info.PreCodeGenCallback = flipflop::preCodeGen;
  return Info;
}
