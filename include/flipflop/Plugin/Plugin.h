//===- flipflop/Plugin/Plugin.h - The FlipFlop passes ---------------------===//
#ifndef FLIPFLOP_PLUGIN_PLUGIN_H
#define FLIPFLOP_PLUGIN_PLUGIN_H

#include "flipflop/Driver/Analyze.h"
#include "flipflop/Profile/KernelProfile.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Support/CodeGen.h"
#include <vector>

namespace llvm {
class PassBuilder;
class TargetMachine;
class raw_ostream;
class raw_pwrite_stream;
} // namespace llvm

namespace flipflop {

struct PluginOptions;

/// What code generation told the plugin about a module: its PTX and whether
/// ptxas ran on it (empty in opt, where no PTX exists).
struct ModuleFacts {
  std::string PTX;
  PtxasStatus Ptxas;
};

/// The FlipFlop pass: profiles every kernel of an NVPTX module, runs the
/// model and reports. With \p Deferred (clang's pipeline) and PTX analysis
/// on, reporting waits for the PTX: in the PreCodeGen callback, or, when
/// clang writes IR instead (-emit-llvm), before the IR writer, from the PTX
/// of a copy generated at \p Level's code generation level.
/// At \p Level O0 (clang's -O0 pipeline), or outside clang (opt) when the
/// module's functions are optnone, the kernels are analysed on a copy
/// optimised as -O2 would (and its PTX), so every -O level gets the same
/// recommendation; the module itself and its code generation are untouched.
class FlipFlopPass : public llvm::PassInfoMixin<FlipFlopPass> {
public:
  explicit FlipFlopPass(bool Deferred, llvm::OptimizationLevel Level =
                                           llvm::OptimizationLevel::O2)
      : Deferred(Deferred), Level(Level) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  bool Deferred;
  llvm::OptimizationLevel Level;
};

/// At the start of clang's -O0 pipeline: keeps the bitcode of an NVPTX
/// module as the front end made it, from which FlipFlopPass builds its -O2
/// copy (the module is unchanged).
class FlipFlopSnapshotPass : public llvm::PassInfoMixin<FlipFlopSnapshotPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// print<flipflop-profile>: the kernel profiles in a FileCheck-able form.
class ProfilePrinterPass : public llvm::PassInfoMixin<ProfilePrinterPass> {
public:
  explicit ProfilePrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

/// Runs the model on \p Profiles and emits remarks, metadata, the JSON report
/// and (opted in) launch bounds.
void reportModule(llvm::Module &M, std::vector<KernelProfile> &Profiles,
                  const PluginOptions &O, const ModuleFacts &MF);

/// The PreCodeGen callback (see PassPlugin.h): emits the PTX of a module the
/// pass deferred with clang's TargetMachine, reports, and writes the same
/// bytes to \p OS.
bool preCodeGen(llvm::Module &M, llvm::TargetMachine &TM,
                llvm::CodeGenFileType CGFT, llvm::raw_pwrite_stream &OS);

/// Registers the pipeline names and clang's extension-point callback.
void registerFlipFlopCallbacks(llvm::PassBuilder &PB);

} // namespace flipflop

#endif
