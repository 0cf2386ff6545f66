//===- Annotate.cpp - The recommendation in the IR ------------------------===//
//
// annotateIR: !flipflop metadata and flipflop.* attributes (docs/METADATA.md),
// which change no code generation; applyBounds: the opt-in nvvm.maxntid /
// nvvm.minctasm launch bounds, which do.
//
//===----------------------------------------------------------------------===//
#include "PluginImpl.h"
#include "Remarks.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace flipflop {

/// "X,Y,Z".
static std::string commaDims(const std::array<unsigned, 3> &B) {
  return formatv("{0},{1},{2}", B[0], B[1], B[2]).str();
}

void annotateIR(Function &F, const KernelResult &R, const PluginOptions &O) {
  assert(R.recommends() && "annotating a kernel without a recommendation");
  const Prediction &Best = R.best(), &Heur = R.heuristic();
  const LaunchConfig &C = Best.Config;
  LLVMContext &Ctx = F.getContext();
  auto *I32 = Type::getInt32Ty(Ctx);
  auto *F64 = Type::getDoubleTy(Ctx);
  Metadata *MDs[] = {
      MDString::get(Ctx, "flipflop.v1"),
      MDString::get(Ctx, R.GPU->Name),
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
  F.setMetadata("flipflop", MDNode::get(Ctx, MDs));
  F.addFnAttr("flipflop.block", commaDims(C.Block));
  F.addFnAttr("flipflop.min-blocks", std::to_string(C.MinBlocksPerSM));
  F.addFnAttr("flipflop.power-limit-w",
              std::to_string(static_cast<int64_t>(C.PowerLimitW + 0.5)));
}

void applyBounds(Function &F, const KernelProfile &K, const KernelResult &R,
                 const PluginOptions &O, KernelRemarks &Remarks) {
  if (!O.ApplyBounds)
    return;
  assert(R.recommends() && "bounds for a kernel without a recommendation");
  const LaunchConfig &C = R.best().Config;
  // Never over the author's bounds.
  if (K.Bounds.any()) {
    Remarks.emitRemark<OptimizationRemarkMissed>(
        remark::id::BoundsKept, [&](auto Rem) {
          return Rem << "kernel '" << ore::NV(remark::Kernel, K.DisplayName)
                     << "' keeps its author's launch bounds; recommended "
                     << ore::NV(remark::MaxThreads, C.blockThreads()) << ", "
                     << ore::NV(remark::MinBlocks, C.MinBlocksPerSM)
                     << " not applied";
        });
    return;
  }
  // "X" for a one-dimensional block, else "X,Y,Z".
  F.addFnAttr("nvvm.maxntid", C.Block[1] > 1 || C.Block[2] > 1
                                  ? commaDims(C.Block)
                                  : std::to_string(C.Block[0]));
  if (C.MinBlocksPerSM)
    F.addFnAttr("nvvm.minctasm", std::to_string(C.MinBlocksPerSM));
  Remarks.emitRemark<OptimizationRemark>(
      remark::id::BoundsApplied, [&](auto Rem) {
        return Rem << "applied launch bounds to kernel '"
                   << ore::NV(remark::Kernel, K.DisplayName) << "': maxntid "
                   << ore::NV(remark::MaxThreads, C.blockThreads())
                   << ", minctasm "
                   << ore::NV(remark::MinBlocks, C.MinBlocksPerSM);
      });
}

} // namespace flipflop
