//===- flipflop-ptx-fuzz.cpp - libFuzzer target for the PTX front end -----===//
//
// Feeds arbitrary bytes to the PTX parser and, when it accepts them, each
// kernel's profile to the printer, to the model (one configuration at a
// 1-D and at a 2-D block, with a stated grid and under a register cap) and
// to the recommender's sweep; the bytes also go to the ptxas output
// parser. None may crash, hang or read outside what it was given, and
// every prediction the sweep keeps must be finite. The GPU is chosen from
// the input's size, so that a corpus reaches every architecture the model
// treats apart. docs/FUZZING.md says how to build and run it.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Model/Model.h"
#include "flipflop/Model/Recommender.h"
#include "flipflop/Profile/PTXParser.h"
#include "flipflop/Profile/ProfilePrinter.h"
#include "flipflop/Profile/Ptxas.h"
#include "flipflop/Target/GPUDatabase.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {
/// One GPU of each architecture the model distinguishes (and one that
/// runs under a tight power limit).
const char *const GPUs[] = {
    "V100-SXM2-16GB", "T4",       "A100-PCIE-40GB",
    "RTX-3090",       "L4",       "H100-SXM5-80GB",
    "B200",           "RTX-5090", "Jetson-AGX-Orin-64GB"};

/// A prediction the model keeps must be a number: a NaN or an infinity in
/// a valid prediction is a defect the sanitizer cannot see.
void checkFinite(const flipflop::Prediction &P) {
  if (!P.Valid)
    return;
  if (!std::isfinite(P.TimeS) || !std::isfinite(P.EnergyJ) ||
      !std::isfinite(P.AvgPowerW) || P.TimeS < 0 || P.EnergyJ < 0)
    std::abort();
}

void model(const flipflop::KernelProfile &K, const flipflop::GPUSpec &G) {
  flipflop::LaunchConfig C;
  C.Block = {128, 1, 1};
  checkFinite(flipflop::predict(K, G, C));
  C.Block = {32, 8, 1};
  C.Grid = {64, 32, 1};
  C.MinBlocksPerSM = 4;
  checkFinite(flipflop::predict(K, G, C));
  flipflop::SweepOptions O;
  O.PowerSteps = 2;
  O.ClockStepMHz = 500;
  flipflop::SweepResult R = flipflop::sweep(K, G, O);
  for (const flipflop::Prediction &P : R.Configs)
    checkFinite(P);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // A copy of exactly Size bytes: AddressSanitizer catches any read past it.
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  auto M = flipflop::parsePTXModule(Text, "fuzz.ptx");
  if (M) {
    llvm::raw_null_ostream OS;
    const flipflop::GPUSpec *G =
        flipflop::findGPU(GPUs[Size % (sizeof(GPUs) / sizeof(GPUs[0]))]);
    unsigned N = 0;
    for (const flipflop::KernelProfile &K : M->Kernels) {
      flipflop::printProfile(K, OS);
      if (G && N++ < 4)
        model(K, *G);
    }
  } else {
    llvm::consumeError(M.takeError());
  }
  (void)flipflop::parsePtxasOutput(Text);
  return 0;
}
