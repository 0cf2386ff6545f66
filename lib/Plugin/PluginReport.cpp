//===- PluginReport.cpp - The plugin's JSON report files ------------------===//
//
// One report per device compilation, written atomically into the report
// directory (docs/REPORT-SCHEMA.md "Report files").
//
//===----------------------------------------------------------------------===//
#include "PluginImpl.h"
#include "Remarks.h"

#include "flipflop/Profile/IRProfile.h"
#include "flipflop/Report/JSONReport.h"
#include "flipflop/Target/GPUDatabase.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace flipflop {

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

/// The predictions of the launches the user asked for (option "launch"),
/// as "launches": [{"gpu", "prediction"}] in the kernel's report entry.
static void addLaunches(json::Object &Kernel, const KernelProfile &K,
                        const GPUSpec &CompileGPU, const PluginOptions &O) {
  json::Array Out;
  for (const LaunchRequest &L : O.Launches) {
    Expected<GPUSpec> G = launchGPU(L, CompileGPU);
    if (!G) {
      Out.push_back(
          json::Object{{"gpu", L.GPU}, {"error", toString(G.takeError())}});
      continue;
    }
    Out.push_back(json::Object{
        {"gpu", G->Name},
        {"prediction", predictionToJSON(predictLaunch(K, *G, L))}});
  }
  Kernel["launches"] = std::move(Out);
}

void ModuleReport::add(const KernelProfile &K, const KernelResult &R,
                       const PluginOptions &O) {
  if (O.ReportDir.empty() || !R.Sweep)
    return;
  Kernels.push_back(kernelToJSON(K, *R.Sweep));
  if (!O.Launches.empty())
    addLaunches(*Kernels.back().getAsObject(), K, *R.GPU, O);
  if (!GPU)
    GPU = R.GPU;
}

/// The name is <source file name>-<hash>.<sm_XX>.flipflop.json (clang does
/// not tell plugins the output path). The hash (16 hex digits, xxh3) is of
/// the source's normalised absolute path and of the compile's options
/// (compileOptions): one source compiled twice with other -D or GPU options
/// gives two reports, the same compile run again replaces its report, and
/// ../dir/v.cu and v.cu (from dir) are one. A failure is a remark, not an
/// error.
void ModuleReport::write(const Module &M, const PluginOptions &O,
                         SourceCache &Sources) {
  if (O.ReportDir.empty() || !GPU)
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
  for (json::Value &KV : Kernels)
    if (json::Object *KO = KV.getAsObject())
      if (auto N = KO->getString("name"))
        if (const Function *F = M.getFunction(*N); F && F->hasLocalLinkage())
          (*KO)["file_local"] = true;
  SmallString<256> Path(O.ReportDir);
  sys::path::append(Path, Name);
  std::error_code EC = sys::fs::create_directories(O.ReportDir);
  Error E = EC ? createStringError(EC, "cannot create '%s'", O.ReportDir.c_str())
               : writeJSONFile(reportToJSON(*GPU, std::move(Kernels),
                                            "flipflop-plugin"),
                               Path);
  Kernels.clear();
  if (!E)
    return;
  std::string Why = toString(std::move(E));
  warnUser(M.getContext(), O, remark::id::ReportProblem,
           "could not write the report of '" + M.getSourceFileName() +
               "': " + Why);
  // One remark, at the first kernel.
  for (const Function &F : M)
    if (isKernel(F) && !F.isDeclaration()) {
      KernelRemarks Remarks(F, kernelLocation(F, Sources));
      Remarks.emitRemark(remark::id::ReportProblem, [&](auto R) {
        return R << "FlipFlop could not write its report: "
                 << ore::NV(remark::Problem, Why);
      });
      break;
    }
}

} // namespace flipflop
