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
// remark FF900 naming the kernel, and a warning (warnUser: never an error
// unless the user opted in); the compile goes on. At -O0 the kernels are
// analysed on a copy optimised as -O2 would (analyseCanonicalCopy), so
// every -O level gets the same recommendation.
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
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
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
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/WithColor.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <optional>
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <cmath>
#include <cstdlib>
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

/// A figure as an integer in a fixed unit (TimeNs, EnergyUJ, PowerMW...) for
/// tools that aggregate remark arguments (llvm-remarkutil count
/// --count-by=arg reads only integers). Rounded; clamped to int64.
DiagnosticInfoOptimizationBase::Argument intArg(StringRef Key, double V) {
  double R = std::round(V);
  int64_t I = !(R == R)      ? 0
              : R >= 9.2e18  ? INT64_MAX
              : R <= -9.2e18 ? INT64_MIN
                             : static_cast<int64_t>(R);
  return DiagnosticInfoOptimizationBase::Argument(Key, I);
}

/// The unqualified name of a function as written in the source ("saxpy",
/// "conv2dTiled" for conv2dTiled<1>), or the symbol itself (extern "C").
std::string sourceBaseName(StringRef Symbol) {
  std::string Mangled = Symbol.str();
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Mangled.c_str()))
    return Mangled;
  size_t N = 0;
  char *Buf = D.getFunctionBaseName(nullptr, &N);
  if (!Buf)
    return Mangled;
  std::string Base(Buf);
  std::free(Buf);
  return Base;
}

/// Source files read to find the column of kernel names, kept for the
/// module being reported.
class SourceCache {
  StringMap<std::unique_ptr<MemoryBuffer>> Files;

public:
  /// Line \p Line (1-based) of \p Path, or empty when unreadable.
  StringRef line(StringRef Path, unsigned Line) {
    auto [It, New] = Files.try_emplace(Path);
    if (New && sys::fs::is_regular_file(Path)) {
      uint64_t Size = 0;
      // The compiler has just read it; anything huge is not worth a caret.
      if (!sys::fs::file_size(Path, Size) && Size < (64u << 20))
        if (auto B = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false))
          It->second = std::move(*B);
    }
    if (!It->second || Line == 0)
      return "";
    StringRef Rest = It->second->getBuffer();
    for (unsigned I = 1; I < Line && !Rest.empty(); ++I)
      Rest = Rest.split('\n').second;
    return Rest.split('\n').first;
  }
};

/// 1-based column of the first whole-word \p Name in \p Line, or 0.
unsigned nameColumn(StringRef Line, StringRef Name) {
  auto IsIdent = [](char C) { return isAlnum(C) || C == '_'; };
  for (size_t Pos = Line.find(Name); !Name.empty() && Pos != StringRef::npos;
       Pos = Line.find(Name, Pos + 1)) {
    size_t End = Pos + Name.size();
    if ((Pos == 0 || !IsIdent(Line[Pos - 1])) &&
        (End == Line.size() || !IsIdent(Line[End])))
      return static_cast<unsigned>(Pos + 1);
  }
  return 0;
}

/// Where a kernel's remarks point: the line of its name (the subprogram's
/// declaration line; LLVM's default is the scope line, the line of the
/// opening brace, which for a signature spanning lines is a continuation
/// line) and the column of the name when the source line can be read, so
/// clang's caret lands on the name. No debug info: an invalid location,
/// for which clang itself points at the function's declaration.
DiagnosticLocation kernelLocation(const Function &F, SourceCache &Sources) {
  const DISubprogram *SP = F.getSubprogram();
  if (!SP || !SP->getLine())
    return DiagnosticLocation(SP);
  SmallString<256> Path;
  StringRef File = SP->getFilename();
  if (!sys::path::is_absolute(File) && !SP->getDirectory().empty())
    Path = SP->getDirectory();
  sys::path::append(Path, File);
  unsigned Column = nameColumn(Sources.line(Path, SP->getLine()),
                               sourceBaseName(F.getName()));
  // A location node only: it is attached to nothing, so the IR and the
  // generated code are unchanged.
  return DiagnosticLocation(DebugLoc(DILocation::get(
      F.getContext(), SP->getLine(), Column, const_cast<DISubprogram *>(SP))));
}

/// A remark of kind \p RemarkT at \p Loc whose text starts with its ID in
/// brackets ("[FF001] "), as the remark pages (docs/remarks/) are named.
template <typename RemarkT>
RemarkT ffRemark(const char *ID, const DiagnosticLocation &Loc,
                 const Function *F) {
  RemarkT R(DEBUG_TYPE, ID, Loc, &F->getEntryBlock());
  R << (Twine("[") + ID + "] ").str();
  return R;
}

//===----------------------------------------------------------------------===//
// Warnings: FlipFlop's own problems (FF900..FF902) said without any -R flag
//===----------------------------------------------------------------------===//

/// What the compiler's command line says about warnings of clang's
/// backend-plugin group, where FlipFlop's warnings land
/// (DiagnosticInfoGeneric with DS_Warning becomes warn_fe_backend_plugin).
/// A pass plugin cannot ask clang's DiagnosticsEngine, so the command line
/// of the process is read: the clang driver running cc1 in process, or cc1
/// itself (Linux: /proc/self/cmdline; elsewhere nothing is known).
struct WarningFlags {
  bool AllErrors = false;     ///< -Werror (last of -Werror / -Wno-error).
  int GroupError = -1;        ///< -Werror=backend-plugin (1), -Wno-error=... (0).
  bool Silenced = false;      ///< -w, -Wno-everything or -Wno-backend-plugin.

  /// A plain -Werror would turn the warning into an error the user did not
  /// ask for: FlipFlop then prints it itself, as a warning.
  bool wouldEscalate() const { return AllErrors && GroupError != 1; }
};

WarningFlags parseWarningFlags(ArrayRef<const char *> Args) {
  WarningFlags W;
  bool NoWarnings = false, GroupOff = false;
  for (StringRef A : Args) {
    if (A == "-Werror")
      W.AllErrors = true;
    else if (A == "-Wno-error")
      W.AllErrors = false;
    else if (A == "-Werror=backend-plugin")
      W.GroupError = 1, GroupOff = false; // -Werror=X also enables X.
    else if (A == "-Wno-error=backend-plugin")
      W.GroupError = 0;
    else if (A == "-w" || A == "-Wno-everything")
      NoWarnings = true;
    else if (A == "-Wno-backend-plugin")
      GroupOff = true;
    else if (A == "-Wbackend-plugin")
      GroupOff = false;
  }
  W.Silenced = NoWarnings || GroupOff;
  return W;
}

/// The command line of the process (Linux: /proc/self/cmdline, response
/// files expanded as the driver reads them), read once; std::nullopt where
/// it cannot be read. Used for the warning flags and the report's name.
const std::optional<std::vector<std::string>> &processCommandLine() {
  static const std::optional<std::vector<std::string>> Line =
      []() -> std::optional<std::vector<std::string>> {
    auto Buf = MemoryBuffer::getFileAsStream("/proc/self/cmdline");
    if (!Buf)
      return std::nullopt;
    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    SmallVector<const char *, 64> Args;
    StringRef Rest = (*Buf)->getBuffer();
    while (!Rest.empty()) {
      auto [Arg, Tail] = Rest.split('\0');
      Args.push_back(Saver.save(Arg).data());
      Rest = Tail;
    }
    // Response files (@file) as the driver reads them; errors ignored.
    (void)cl::ExpandResponseFiles(Saver, cl::TokenizeGNUCommandLine, Args);
    return std::vector<std::string>(Args.begin(), Args.end());
  }();
  return Line;
}

const WarningFlags &processWarningFlags() {
  static const WarningFlags Flags = [] {
    SmallVector<const char *, 64> Args;
    if (const auto &Line = processCommandLine())
      for (const std::string &A : *Line)
        Args.push_back(A.c_str());
    return parseWarningFlags(Args);
  }();
  return Flags;
}

/// Says FlipFlop problem \p ID (FF900..FF902, docs/remarks/) as a compiler
/// diagnostic, visible without any -R flag:
///  - warnings=off: nothing (the remark still goes to -R and the YAML);
///  - warnings=error: an error through clang (the compile fails: opt-in);
///  - otherwise a warning through clang, in clang's backend-plugin group
///    (-Wno-backend-plugin silences it, -Werror=backend-plugin makes it an
///    error) -- except under a plain -Werror, which would fail the build
///    for a FlipFlop problem: FlipFlop then prints the same line itself on
///    stderr, still a warning.
void warnUser(LLVMContext &Ctx, const PluginOptions &O, StringRef ID,
              const Twine &Text) {
  if (O.Warnings == WarningMode::Off)
    return;
  // "FlipFlop: <problem> [FF901]": the ID names the page in docs/remarks/,
  // where clang puts a warning's flag.
  std::string Msg = ("FlipFlop: " + Text + " [" + ID + "]").str();
  if (O.Warnings == WarningMode::Error) {
    Ctx.diagnose(DiagnosticInfoGeneric(Msg, DS_Error));
    return;
  }
  const WarningFlags &Flags = processWarningFlags();
  if (!Flags.wouldEscalate()) {
    Ctx.diagnose(DiagnosticInfoGeneric(Msg, DS_Warning));
    return;
  }
  if (Flags.Silenced)
    return;
  WithColor::warning(errs()) << Msg << " [-Wbackend-plugin]\n";
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
void mergeEmittedPTX(LLVMContext &Ctx, StringRef PTX, const std::string &Arch,
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
  // ptxas was asked for (on, or a path) and could not be used.
  if (State.Opts.Ptxas != "off" && !State.Facts.Ptxas.Used)
    warnUser(Ctx, State.Opts, "FF901",
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


} // namespace

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

static void reportKernel(Function &F, const DiagnosticLocation &Loc,
                         KernelProfile &K, const PluginOptions &O,
                         const ModuleFacts &MF,
                         std::vector<json::Value> &KernelsJSON,
                         std::optional<GPUSpec> &ReportGPU);
static void writeReport(const Module &M, const PluginOptions &O,
                        std::vector<json::Value> KernelsJSON,
                        const std::optional<GPUSpec> &GPU,
                        SourceCache &Sources);

void reportModule(Module &M, std::vector<KernelProfile> &Profiles,
                  const PluginOptions &O, const ModuleFacts &MF) {
  std::vector<json::Value> KernelsJSON;
  std::optional<GPUSpec> ReportGPU;
  SourceCache Sources;
  for (KernelProfile &K : Profiles) {
    Function *F = M.getFunction(K.Name);
    if (!F || F->isDeclaration())
      continue;
    DiagnosticLocation Loc = kernelLocation(*F, Sources);
    CrashRecoveryContext CRC;
    if (!CRC.RunSafely([&] {
          reportKernel(*F, Loc, K, O, MF, KernelsJSON, ReportGPU);
        })) {
      OptimizationRemarkEmitter ORE(F);
      ORE.emit([&] {
        return ffRemark<OptimizationRemarkAnalysis>("FF900", Loc, F)
               << "FlipFlop could not analyse kernel '"
               << ore::NV("Kernel", K.DisplayName)
               << "': internal error while modelling; no recommendation";
      });
      warnUser(M.getContext(), O, "FF900",
               "could not analyse kernel '" + K.DisplayName +
                   "': internal error while modelling; no recommendation");
    }
  }
  if (!O.ReportDir.empty())
    writeReport(M, O, std::move(KernelsJSON), ReportGPU, Sources);
}

/// The arguments of the compile that change what is compiled, for the
/// report's name: the process's command line (the clang driver running cc1
/// in process, cc1, or opt) without the program, the output (-o), the
/// dependency-file options (-M*, -dependency-file) and the compilation
/// directory (-fdebug-compilation-dir & co., the current directory), and
/// without the source file itself (its path is hashed, normalised, apart).
/// Where the command line cannot be read: the module's target triple, CPU
/// and features. The GPU the report predicts for ends the list.
static std::vector<std::string> compileOptions(const Module &M,
                                               StringRef NormSource,
                                               const GPUSpec &GPU) {
  std::vector<std::string> Out;
  if (const auto &Line = processCommandLine()) {
    static const char *const WithValue[] = {
        "-o",  "--output",        "-MF",          "-MT",
        "-MQ", "-MJ",             "-dependency-file", "-dependency-dot",
        "-main-file-name", "-fdebug-compilation-dir",
        "-fcoverage-compilation-dir", "-ffile-compilation-dir"};
    static const char *const Joined[] = {
        "--output=", "-MF", "-MT", "-MQ", "-MJ", "-dependency-file=",
        "-fdebug-compilation-dir=", "-fcoverage-compilation-dir=",
        "-ffile-compilation-dir="};
    static const char *const Alone[] = {"-MD", "-MMD", "-MP", "-MV", "-MG"};
    const std::vector<std::string> &Args = *Line;
    for (size_t I = 1; I < Args.size(); ++I) {
      StringRef A = Args[I];
      if (is_contained(WithValue, A)) {
        ++I; // And its value.
        continue;
      }
      if (is_contained(Alone, A) ||
          (A.starts_with("-o") && !A.starts_with("-obj")) ||
          any_of(Joined, [&](const char *J) { return A.starts_with(J); }))
        continue;
      if (!A.starts_with("-") && normalisedPath(A) == NormSource)
        continue; // The source: hashed by its normalised path.
      Out.push_back(A.str());
    }
  } else {
    Out.push_back(M.getTargetTriple().str());
    for (const Function &F : M)
      if (isKernel(F)) {
        Out.push_back(F.getFnAttribute("target-cpu").getValueAsString().str());
        Out.push_back(
            F.getFnAttribute("target-features").getValueAsString().str());
        break;
      }
  }
  Out.push_back(GPU.Name);
  return Out;
}

/// Writes the module's JSON report to the report directory, atomically, as
/// <source file name>-<hash>.<sm_XX>.flipflop.json (docs/REPORT-SCHEMA.md
/// "Report files"; clang does not tell plugins the output path). The hash
/// (16 hex digits, xxh3) is of the source's normalised absolute path and of
/// the compile's options (compileOptions): one source compiled twice with
/// other -D or GPU options gives two reports, the same compile run again
/// replaces its report, and ../dir/v.cu and v.cu (from dir) are one. A
/// failure is a remark, not an error.
static void writeReport(const Module &M, const PluginOptions &O,
                        std::vector<json::Value> KernelsJSON,
                        const std::optional<GPUSpec> &GPU,
                        SourceCache &Sources) {
  if (!GPU)
    return;
  std::string Source = M.getSourceFileName();
  std::string Norm = normalisedPath(Source);
  std::string Key = Norm;
  for (const std::string &A : compileOptions(M, Norm, *GPU))
    Key += '\0' + A;
  std::string Hash;
  raw_string_ostream(Hash) << format_hex_no_prefix(xxh3_64bits(Key), 16);
  std::string Name = (sys::path::filename(Source) + "-" + Hash + "." +
                      archOf(M) + ".flipflop.json")
                         .str();
  // A kernel of internal linkage is local to its file too (the mangling,
  // which kernelToJSON reads, says so for static and anonymous-namespace
  // kernels).
  for (json::Value &KV : KernelsJSON)
    if (json::Object *KO = KV.getAsObject())
      if (auto N = KO->getString("name"))
        if (const Function *F = M.getFunction(*N); F && F->hasLocalLinkage())
          (*KO)["file_local"] = true;
  SmallString<256> Path(O.ReportDir);
  sys::path::append(Path, Name);
  std::error_code EC = sys::fs::create_directories(O.ReportDir);
  Error E = EC ? createStringError(EC, "cannot create '%s'", O.ReportDir.c_str())
               : writeJSONFile(reportToJSON(*GPU, std::move(KernelsJSON),
                                            "flipflop-plugin"),
                               Path);
  if (E) {
    std::string Why = toString(std::move(E));
    warnUser(M.getContext(), O, "FF902",
             "could not write the report of '" + M.getSourceFileName() +
                 "': " + Why);
    for (const Function &F : M)
      if (isKernel(F) && !F.isDeclaration()) {
        DiagnosticLocation Loc = kernelLocation(F, Sources);
        OptimizationRemarkEmitter ORE(&F);
        ORE.emit([&] {
          return ffRemark<OptimizationRemarkAnalysis>("FF902", Loc, &F)
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

static void reportKernel(Function &FRef, const DiagnosticLocation &Loc,
                         KernelProfile &K, const PluginOptions &O,
                         const ModuleFacts &MF,
                         std::vector<json::Value> &KernelsJSON,
                         std::optional<GPUSpec> &ReportGPU) {
  Function *F = &FRef;
  Module &M = *F->getParent();
  {
    OptimizationRemarkEmitter ORE(F);
    for (const std::string &E : O.Errors)
      ORE.emit([&] {
        return ffRemark<OptimizationRemarkAnalysis>("FF901", Loc, F)
               << "FlipFlop option problem (default kept): "
               << ore::NV("Problem", E);
      });
    // An internal failure is also a warning; an unknown GPU was already
    // one (FF901, once per module, in the pass).
    auto InternalProblem = [&](const std::string &Why, bool Warn = true) {
      if (Warn)
        warnUser(M.getContext(), O, "FF900",
                 "could not analyse kernel '" + K.DisplayName + "': " + Why +
                     "; no recommendation");
      ORE.emit([&] {
        return ffRemark<OptimizationRemarkAnalysis>("FF900", Loc, F)
               << "FlipFlop could not analyse kernel '"
               << ore::NV("Kernel", K.DisplayName) << "': "
               << ore::NV("Problem", Why) << "; no recommendation";
      });
    };
    if (!K.Internal.empty())
      return InternalProblem(K.Internal);
    Expected<GPUSpec> GPU = resolveGPU(O.GPU, archOf(*F));
    if (!GPU)
      return InternalProblem(toString(GPU.takeError()), /*Warn=*/false);
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
        return ffRemark<OptimizationRemarkAnalysis>("FF013", Loc, F)
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

    // FF001: the summary. Clauses separated by "; ": the recommendation;
    // the figures at that configuration (block, grid, limit named again);
    // the heuristic's figures at its own configuration; the problem size
    // assumed; what was guessed. Integer copies of the figures in fixed units
    // follow as YAML-only arguments (docs/remarks/FF001.md).
    ORE.emit([&] {
      OptimizationRemarkAnalysis Rem =
          ffRemark<OptimizationRemarkAnalysis>("FF001", Loc, F);
      const int64_t LimitW = static_cast<int64_t>(C.PowerLimitW + 0.5);
      const int64_t HeurLimitW =
          static_cast<int64_t>(Heur.Config.PowerLimitW + 0.5);
      Rem << "kernel '" << ore::NV("Kernel", K.DisplayName) << "' on "
          << ore::NV("GPU", GPU->Name) << ": for "
          << ore::NV("Objective", objectiveName(O.Obj)) << " use block "
          << ore::NV("Block", fmtDims(C.Block)) << ", min-blocks "
          << ore::NV("MinBlocks", C.MinBlocksPerSM) << ", power limit "
          << ore::NV("PowerLimitW", LimitW) << " W";
      // A locked-clock pick names its lever and how to set it (the limit is
      // the default one it runs under).
      if (Best.PowerLever == Lever::LockedClock) {
        LeverCommand LC = leverCommand(Best, *GPU);
        Rem << ", SM clock locked at "
            << ore::NV("LockedClockMHz", static_cast<int64_t>(LC.Value + 0.5))
            << " MHz (" << LC.Command << ", needs root)";
      }
      Rem << "; at block "
          << fmtDims(C.Block) << ", grid " << ore::NV("Grid", fmtDims(C.Grid))
          << ", " << std::to_string(LimitW)
          << " W: " << numArg("TimeUs", Best.TimeS * 1e6) << " us, "
          << numArg("EnergyMJ", Best.EnergyJ * 1e3) << " mJ, "
          << ore::NV("Bottleneck", bottleneckName(Best.Bound))
          << "-bound, occupancy "
          << intArg("OccupancyPct", Best.Occ.Occupancy * 100) << "%, "
          << ore::NV("Registers", Best.RegsPerThread) << " registers ("
          << ore::NV("RegisterSource",
                     K.Res.RegistersExact ? "ptxas" : "estimated")
          << "), clock " << intArg("ClockMHz", Best.ClockMHz)
          << " MHz; occupancy heuristic at block "
          << ore::NV("HeuristicBlock", fmtDims(Heur.Config.Block)) << ", grid "
          << ore::NV("HeuristicGrid", fmtDims(Heur.Config.Grid)) << ", "
          << ore::NV("HeuristicPowerLimitW", HeurLimitW)
          << " W: " << numArg("HeuristicTimeUs", Heur.TimeS * 1e6) << " us, "
          << numArg("HeuristicEnergyMJ", Heur.EnergyJ * 1e3)
          << " mJ (recommendation "
          << pctArg("EnergyChangePct", pct(Best.EnergyJ, Heur.EnergyJ))
          << "% energy, "
          << pctArg("TimeChangePct", pct(Best.TimeS, Heur.TimeS))
          << "% time); problem size "
          << ore::NV("ProblemThreads", C.TotalThreads) << " threads ("
          << (O.ProblemSize ? "-flipflop-problem-size"
                            : "assumed: set -flipflop-problem-size")
          << ")";
      if (!O.Facts.ArgValues.empty()) {
        Rem << ", arguments";
        for (const auto &[Index, Value] : O.Facts.ArgValues)
          Rem << " #" << ore::NV("ArgIndex", Index) << "="
              << ore::NV("ArgValue", static_cast<int64_t>(Value));
        Rem << " (-flipflop-args)";
      }
      // Every distinct guess in its own words, up to three (an unrolled
      // loop and its remainder give the same one); the report lists all.
      std::vector<StringRef> Guesses;
      for (const std::string &G : K.Guesses)
        if (!is_contained(Guesses, StringRef(G)))
          Guesses.push_back(G);
      const size_t Shown = std::min<size_t>(Guesses.size(), 3);
      for (size_t I = 0; I < Shown; ++I)
        Rem << (I ? " | " : "; guessed: ") << ore::NV("Guess", Guesses[I]);
      if (Guesses.size() > Shown)
        Rem << " | " << ore::NV("MoreGuesses", Guesses.size() - Shown)
            << " more";
      // YAML only: integers in fixed units, the block by axis for readers
      // that want numbers, and the occupancy as a fraction (kept for
      // existing readers).
      Rem << ore::setExtraArgs() << intArg("TimeNs", Best.TimeS * 1e9)
          << intArg("EnergyUJ", Best.EnergyJ * 1e6)
          << intArg("PowerMW", Best.AvgPowerW * 1e3)
          << intArg("PowerLimitMW", C.PowerLimitW * 1e3)
          << intArg("HeuristicTimeNs", Heur.TimeS * 1e9)
          << intArg("HeuristicEnergyUJ", Heur.EnergyJ * 1e6)
          << intArg("HeuristicPowerMW", Heur.AvgPowerW * 1e3)
          << intArg("HeuristicPowerLimitMW", Heur.Config.PowerLimitW * 1e3)
          << ore::NV("BlockX", C.Block[0]) << ore::NV("BlockY", C.Block[1])
          << ore::NV("BlockZ", C.Block[2])
          << ore::NV("MaxThreads", C.blockThreads())
          << ore::NV("GridX", C.Grid[0]) << ore::NV("GridY", C.Grid[1])
          << ore::NV("GridZ", C.Grid[2])
          << ore::NV("BlockSizeAgnostic", isBlockSizeAgnostic(K))
          << numArg("Occupancy", Best.Occ.Occupancy);
      return Rem;
    });
    // FF014: a pick that stands but is hard to believe.
    for (const std::string &W : R.Warnings)
      ORE.emit([&] {
        return ffRemark<OptimizationRemarkAnalysis>("FF014", Loc, F)
               << "kernel '" << ore::NV("Kernel", K.DisplayName)
               << "': check this prediction: " << ore::NV("Warning", W);
      });
    // FF002: why.
    if (O.Verbosity >= 1)
      ORE.emit([&] {
        return ffRemark<OptimizationRemarkAnalysis>("FF002", Loc, F)
               << "why: " << ore::NV("Explanation", R.Explanation);
      });
    // FF003: the Pareto set.
    if (O.Verbosity >= 2)
      for (size_t Rank = 0; Rank < R.Pareto.size(); ++Rank) {
        const Prediction &Pt = R.Configs[R.Pareto[Rank]];
        ORE.emit([&] {
          return ffRemark<OptimizationRemarkAnalysis>("FF003", Loc, F)
                 << "pareto " << ore::NV("Rank", static_cast<unsigned>(Rank))
                 << ": block " << ore::NV("Block", fmtDims(Pt.Config.Block))
                 << ", min-blocks "
                 << ore::NV("MinBlocks", Pt.Config.MinBlocksPerSM) << ", "
                 << ore::NV("PowerLimitW",
                            static_cast<int64_t>(Pt.Config.PowerLimitW + 0.5))
                 << " W: " << numArg("TimeUs", Pt.TimeS * 1e6) << " us, "
                 << numArg("EnergyMJ", Pt.EnergyJ * 1e3) << " mJ"
                 << ore::setExtraArgs() << intArg("TimeNs", Pt.TimeS * 1e9)
                 << intArg("EnergyUJ", Pt.EnergyJ * 1e6)
                 << intArg("PowerMW", Pt.AvgPowerW * 1e3)
                 << intArg("PowerLimitMW", Pt.Config.PowerLimitW * 1e3)
                 << intArg("ClockMHz", Pt.ClockMHz);
        });
      }
    // FF010..FF012: what limited the recommendation.
    if (R.ShapeHeld)
      ORE.emit([&] {
        return ffRemark<OptimizationRemarkMissed>("FF010", Loc, F)
               << "kernel '" << ore::NV("Kernel", K.DisplayName)
               << "': block shape kept at "
               << ore::NV("Block", fmtDims(C.Block)) << ": "
               << ore::NV("Reason", R.ShapeReason);
      });
    if (K.Res.UsesDynamicShared && !K.Res.DynamicSharedBytes)
      ORE.emit([&] {
        return ffRemark<OptimizationRemarkMissed>("FF011", Loc, F)
               << "kernel '" << ore::NV("Kernel", K.DisplayName)
               << "' uses dynamic shared memory of unknown size; occupancy "
                  "assumes 0 bytes";
      });
    unsigned GuessedLoops = 0;
    for (const LoopRecord &L : K.Loops)
      GuessedLoops += L.Guessed;
    if (GuessedLoops)
      ORE.emit([&] {
        return ffRemark<OptimizationRemarkMissed>("FF012", Loc, F)
               << "kernel '" << ore::NV("Kernel", K.DisplayName) << "': "
               << ore::NV("GuessedLoops", GuessedLoops)
               << " loop trip count(s) guessed ("
               << ore::NV("Guess", K.Guesses.empty() ? std::string()
                                                     : K.Guesses.front())
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
        OptimizationRemarkAnalysis Rem =
            ffRemark<OptimizationRemarkAnalysis>("FF020", Loc, F);
        Rem << "kernel '" << ore::NV("Kernel", K.DisplayName)
            << "' has __launch_bounds__("
            << ore::NV("AuthorMaxThreads", K.Bounds.maxThreads()) << ", "
            << ore::NV("AuthorMinBlocks", K.Bounds.MinCTAsPerSM) << ")";
        if (Author)
          Rem << ": predicted " << numArg("AuthorTimeUs", Author->TimeS * 1e6)
              << " us, " << numArg("AuthorEnergyMJ", Author->EnergyJ * 1e3)
              << " mJ at block "
              << ore::NV("AuthorBlock", fmtDims(Author->Config.Block)) << ", "
              << std::to_string(static_cast<int64_t>(C.PowerLimitW + 0.5))
              << " W against the recommendation's "
              << numArg("TimeUs", Best.TimeS * 1e6) << " us, "
              << numArg("EnergyMJ", Best.EnergyJ * 1e3) << " mJ at block "
              << fmtDims(C.Block) << ore::setExtraArgs()
              << intArg("AuthorTimeNs", Author->TimeS * 1e9)
              << intArg("AuthorEnergyUJ", Author->EnergyJ * 1e6)
              << intArg("TimeNs", Best.TimeS * 1e9)
              << intArg("EnergyUJ", Best.EnergyJ * 1e6);
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
          return ffRemark<OptimizationRemarkMissed>("FF031", Loc, F)
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
          return ffRemark<OptimizationRemark>("FF030", Loc, F)
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
// The canonical copy: what the analysis reads when the module was not
// optimised (-O0), so that every -O level gets the same recommendation
//===----------------------------------------------------------------------===//

namespace {

/// True when the module's code was not optimised: clang -O0 marks every
/// function optnone (and the pass is told the pipeline's level).
bool hasOptNone(const Module &M) {
  for (const Function &F : M)
    if (!F.isDeclaration() && F.hasOptNone())
      return true;
  return false;
}

/// Swallows every diagnostic of the copy's context: the copy's remarks and
/// warnings (an unroll pragma the copy cannot honour...) are not the user's.
struct SilentDiagnostics : DiagnosticHandler {
  bool handleDiagnostics(const DiagnosticInfo &) override { return true; }
};

/// A target machine for the copy: the module's triple, the kernels' CPU and
/// features, clang's -O2 code generation level, and CUDA's default FP
/// contraction (clang compiles CUDA with -ffp-contract=fast).
Expected<std::unique_ptr<TargetMachine>> copyTargetMachine(const Module &M) {
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
      TT, CPU, Features, Options, std::nullopt, std::nullopt,
      CodeGenOptLevel::Default));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create a target machine for '%s'",
                             TT.str().c_str());
  return TM;
}

/// Bitcode of unoptimised NVPTX modules as clang's front end made them,
/// taken at the start of the -O0 pipeline (before the always-inliner), keyed
/// by module: the -O2 pipeline run on this gives what clang -O2 gives, where
/// a copy taken at the end of the -O0 pipeline would be inlined in another
/// order.
std::mutex SnapshotMutex;
std::map<const Module *, SmallString<0>> &snapshots() {
  static std::map<const Module *, SmallString<0>> S;
  return S;
}

/// What the analysis of the canonical copy gives: the kernels' profiles and,
/// when asked, the copy's PTX (for the PTX facts: registers, MLP, guards).
struct CanonicalAnalysis {
  std::vector<KernelProfile> Profiles;
  std::string PTX;
};

/// Analyses the kernels of an unoptimised module \p M as clang -O2 would
/// have compiled them: a copy of \p M in a context of its own (bitcode round
/// trip: nothing reaches \p M, its context or clang's diagnostics), without
/// optnone/noinline (clang -O0 puts both on every function), through LLVM's
/// -O2 pipeline on NVPTX's target machine, so that loops are canonical and
/// ScalarEvolution finds their trip counts; its PTX from -O2 code
/// generation when \p WantPTX. \p M and its code generation are untouched.
Expected<CanonicalAnalysis> analyseCanonicalCopy(const Module &M,
                                                 const LaunchFacts &Facts,
                                                 bool WantPTX) {
  Expected<std::unique_ptr<TargetMachine>> TM = copyTargetMachine(M);
  if (!TM)
    return TM.takeError();
  SmallString<0> Bitcode;
  {
    std::lock_guard<std::mutex> Lock(SnapshotMutex);
    auto It = snapshots().find(&M);
    if (It != snapshots().end()) {
      Bitcode = std::move(It->second);
      snapshots().erase(It);
    }
  }
  if (Bitcode.empty()) {
    raw_svector_ostream OS(Bitcode);
    WriteBitcodeToFile(M, OS);
  }
  LLVMContext Ctx;
  Ctx.setDiagnosticHandler(std::make_unique<SilentDiagnostics>());
  Expected<std::unique_ptr<Module>> Copy = parseBitcodeFile(
      MemoryBufferRef(StringRef(Bitcode.data(), Bitcode.size()), "flipflop-copy"),
      Ctx);
  if (!Copy)
    return Copy.takeError();
  Module &C = **Copy;
  for (Function &F : C)
    if (F.hasOptNone()) {
      F.removeFnAttr(Attribute::OptimizeNone);
      F.removeFnAttr(Attribute::NoInline);
    }
  CanonicalAnalysis Out;
  {
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
    PassBuilder PB(TM->get(), PTO);
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    ModulePassManager MPM =
        PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2);
    MPM.run(C, MAM);
    for (auto &KV : KernelProfileAnalysis(Facts).run(C, MAM))
      Out.Profiles.push_back(std::move(KV.second));
  }
  if (WantPTX) {
    SmallString<0> PTX;
    raw_svector_ostream PTXStream(PTX);
    legacy::PassManager CodeGen;
    CodeGen.add(createTargetTransformInfoWrapperPass((*TM)->getTargetIRAnalysis()));
    TargetLibraryInfoImpl TLII(C.getTargetTriple());
    CodeGen.add(new TargetLibraryInfoWrapperPass(TLII));
    if ((*TM)->addPassesToEmitFile(CodeGen, PTXStream, nullptr,
                                   CodeGenFileType::AssemblyFile,
                                   /*DisableVerify=*/true))
      return createStringError(inconvertibleErrorCode(),
                               "the target cannot emit PTX");
    CodeGen.run(C);
    Out.PTX = PTX.str().str();
  }
  // The copy is destroyed before its context (declared after it).
  Copy->reset();
  return Out;
}

} // namespace

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
  // Configuration problems are warnings in clang's usual form, visible
  // without any -R flag (warnUser); each kernel's FF901 remark repeats them
  // for the YAML record.
  LLVMContext &Ctx = M.getContext();
  for (const std::string &E : O.Errors)
    warnUser(Ctx, O, "FF901", E + " (default kept)");
  if (Expected<GPUSpec> GPU = resolveGPU(O.GPU, archOf(M)); !GPU)
    warnUser(Ctx, O, "FF901",
             toString(GPU.takeError()) + "; no recommendation");
  // Launch bounds must be in the IR before the back end runs, so with
  // -flipflop-apply-bounds the recommendation is made from IR facts here.
  const bool UsePTX = Deferred && O.PTXAnalysis && !O.ApplyBounds;
  // clang tells the pipeline's level; in opt, optnone functions say it (a
  // function the user marks optnone at -O2 stays as compiled in clang).
  std::string CopyFailure; // Why the -O2 copy could not be analysed.
  if (Unoptimised || (!Deferred && hasOptNone(M))) {
    LaunchFacts Facts = O.Facts;
    Facts.CrashTestKernel = ClCrashTest;
    std::optional<CanonicalAnalysis> CA;
    std::string Why;
    CrashRecoveryContext CRC;
    const bool Ran = CRC.RunSafely([&] {
      Expected<CanonicalAnalysis> R = analyseCanonicalCopy(M, Facts, UsePTX);
      if (R)
        CA = std::move(*R);
      else
        Why = toString(R.takeError());
    });
    if (!Ran)
      Why = "internal error";
    if (Ran && CA) {
      DeferredModule State{std::move(CA->Profiles), std::move(O), {}};
      if (UsePTX)
        mergeEmittedPTX(Ctx, CA->PTX, archOf(M), State);
      reportModule(M, State.Profiles, State.Opts, State.Facts);
      return State.Opts.ApplyBounds ? PreservedAnalyses::none()
                                    : PreservedAnalyses::all();
    }
    // The unoptimised IR as it is: loops may be misread; the report says so.
    warnUser(Ctx, O, "FF900",
             "the -O2 copy of the unoptimised module could not be built (" +
                 Why + "): its kernels are analysed as compiled");
    CopyFailure = Why;
  }
  std::vector<KernelProfile> List = profileKernels(M, MAM, O);
  if (!CopyFailure.empty())
    for (KernelProfile &K : List)
      K.Warnings.push_back("analysed unoptimised IR (" + CopyFailure +
                           "): loop trip counts may be guesses");
  if (UsePTX) {
    std::lock_guard<std::mutex> Lock(DeferredMutex);
    deferred()[&M] = DeferredModule{std::move(List), std::move(O), {}};
    return PreservedAnalyses::all();
  }
  reportModule(M, List, O, ModuleFacts());
  // Only metadata and string attributes were added (and, opted in, launch
  // bounds): no analysis is invalidated by them.
  return O.ApplyBounds ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses FlipFlopSnapshotPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  if (!isNVPTXModule(M))
    return PreservedAnalyses::all();
  SmallString<0> Bitcode;
  raw_svector_ostream OS(Bitcode);
  WriteBitcodeToFile(M, OS);
  std::lock_guard<std::mutex> Lock(SnapshotMutex);
  snapshots()[&M] = std::move(Bitcode);
  return PreservedAnalyses::all();
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
  mergeEmittedPTX(M.getContext(), PTX, archOf(M), State);
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
  // At -O0, the module as the front end made it, for the canonical copy.
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        if (Level == OptimizationLevel::O0)
          MPM.addPass(FlipFlopSnapshotPass());
      });
  // Runs at every -O level, -O0 included (the pass is required).
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level, ThinOrFullLTOPhase) {
        MPM.addPass(FlipFlopPass(/*Deferred=*/true,
                                 /*Unoptimised=*/Level == OptimizationLevel::O0));
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  PassPluginLibraryInfo Info{LLVM_PLUGIN_API_VERSION, "FlipFlop", "0.1.0",
                             flipflop::registerFlipFlopCallbacks};
  Info.PreCodeGenCallback = flipflop::preCodeGen;
  return Info;
}
