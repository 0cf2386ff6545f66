//===- Compile.cpp - Parsing the sources with their compile commands ------===//
#include "Compile.h"
#include "Messages.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace clang;

namespace flipflop {
namespace apply {

namespace {

/// -p DIR as given on the command line (before "--"), or "".
std::string buildPathArg(int argc, const char **argv) {
  for (int I = 1; I < argc; ++I) {
    StringRef A = argv[I];
    if (A == "--")
      break;
    if ((A == "-p" || A == "--p") && I + 1 < argc)
      return argv[I + 1];
    if (A.consume_front("-p=") || A.consume_front("--p="))
      return A.str();
  }
  return "";
}

/// Adds the flags flipflop-apply needs to every compile command: parse the
/// host side only (one job per CUDA file), no warnings, and clang's resource
/// directory (LibTooling looks for it next to this binary otherwise).
tooling::ArgumentsAdjuster cudaAdjuster() {
  return [](const tooling::CommandLineArguments &Args, StringRef File) {
    tooling::CommandLineArguments Out = Args;
    bool Cuda = StringRef(File).ends_with(".cu") ||
                StringRef(File).ends_with(".cuh");
    bool Side = false, Resource = false;
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef A = Args[I];
      if (A == "-xcuda" || (A == "-x" && I + 1 < Args.size() &&
                            Args[I + 1] == "cuda"))
        Cuda = true;
      if (A.starts_with("--cuda-host-only") ||
          A.starts_with("--cuda-device-only") ||
          A.starts_with("--offload-host-only") ||
          A.starts_with("--offload-device-only"))
        Side = true;
      if (A.starts_with("-resource-dir"))
        Resource = true;
    }
    std::vector<std::string> Extra = {"-w"};
    if (Cuda && !Side)
      Extra.push_back("--cuda-host-only");
#ifdef FLIPFLOP_CLANG_RESOURCE_DIR
    if (!Resource && sys::fs::is_directory(FLIPFLOP_CLANG_RESOURCE_DIR))
      Extra.push_back("-resource-dir=" FLIPFLOP_CLANG_RESOURCE_DIR);
#endif
    auto Pos = llvm::find(Out, "--");
    Out.insert(Pos, Extra.begin(), Extra.end());
    return Out;
  };
}

} // namespace

bool checkBuildDir(int argc, const char **argv) {
  std::string Build = buildPathArg(argc, argv);
  if (Build.empty())
    return true;
  if (!sys::fs::is_directory(Build)) {
    error("-p " + Build + ": no such build directory");
    return false;
  }
  SmallString<256> CDB(Build);
  sys::path::append(CDB, "compile_commands.json");
  // Clang's reader prints YAML diagnostics of its own on malformed JSON.
  if (sys::fs::exists(CDB)) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(CDB);
    std::string Bad;
    if (!Text)
      Bad = Text.getError().message();
    else if (Expected<json::Value> V = json::parse((*Text)->getBuffer()); !V)
      Bad = "malformed JSON: " + toString(V.takeError());
    if (!Bad.empty()) {
      error(CDB + ": " + Bad);
      return false;
    }
  }
  std::string Why;
  if (!tooling::CompilationDatabase::autoDetectFromDirectory(Build, Why)) {
    std::string Detail = "no compilation database (compile_commands.json) "
                         "in it or any parent directory";
    if (sys::fs::exists(CDB)) {
      // Keep the JSON reader's reason, on one line.
      StringRef W(Why);
      size_t At = W.find("json-compilation-database: ");
      Detail = "compile_commands.json cannot be read";
      if (At != StringRef::npos)
        Detail += ": " + W.substr(At + 27).split('\n').first.str();
    }
    error("-p " + Build + ": " + Detail);
    return false;
  }
  return true;
}

std::vector<std::string> scanSources(const tooling::CompilationDatabase &DB,
                                     ArrayRef<std::string> Sources,
                                     ScanResult &Scan) {
  std::unique_ptr<tooling::FrontendActionFactory> Factory =
      newScanActionFactory(Scan);
  std::vector<std::string> Broken;
  for (const std::string &Src : Sources) {
    tooling::ClangTool ClangTool(DB, {Src});
    ClangTool.appendArgumentsAdjuster(cudaAdjuster());
    if (ClangTool.run(Factory.get()) != 0)
      Broken.push_back(shownPath(Src));
  }
  return Broken;
}

} // namespace apply
} // namespace flipflop
