//===- BenchSweep.cpp - Time sweep() on synthetic kernel profiles ---------===//
//
// flipflop-bench-sweep: builds a few synthetic KernelProfiles (streaming,
// compute-bound, register-heavy, 2-D shared-memory tile), times sweep() over
// many repetitions on one GPU of the database, and prints milliseconds per
// sweep and configurations per sweep. The target is < 5 ms for a sweep of
// >= 1,000 configurations (docs/MODEL.md "Cost").
//
//===----------------------------------------------------------------------===//
#include "flipflop/Model/Recommender.h"
#include "flipflop/Report/Explain.h"
#include "flipflop/Target/GPUDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace flipflop;
using namespace llvm;

static cl::opt<std::string> GPUName("gpu", cl::desc("GPU of the database"),
                                    cl::init("A100-PCIE-40GB"));
static cl::opt<unsigned> Reps("reps", cl::desc("Sweeps per profile"),
                              cl::init(200));
static cl::opt<unsigned> Steps("power-steps",
                               cl::desc("Power limits per sweep"),
                               cl::init(16));
static cl::opt<bool> Explain("explain", cl::desc("Print each sweep's summary"));

static MemAccess access(bool Store, unsigned Bytes, double Count,
                        AccessPattern Pat = AccessPattern::Coalesced,
                        AddrSpace Space = AddrSpace::Global) {
  MemAccess A;
  A.Space = Space;
  A.IsStore = Store;
  A.Bytes = Bytes;
  A.Count = Count;
  A.Pattern = Pat;
  A.StrideBytes = Pat == AccessPattern::Coalesced ? Bytes : 0;
  return A;
}

static KernelProfile streaming() {
  KernelProfile K;
  K.Name = "vector_add";
  K.op(OpClass::LoadGlobal) = 2;
  K.op(OpClass::StoreGlobal) = 1;
  K.op(OpClass::FP32) = 1;
  K.op(OpClass::Int) = 6;
  K.op(OpClass::Branch) = 1;
  K.Accesses = {access(false, 4, 1), access(false, 4, 1), access(true, 4, 1)};
  K.MLP = 2;
  K.Res.Registers = 16;
  K.Res.RegistersExact = true;
  finalizeProfile(K);
  return K;
}

static KernelProfile computeBound() {
  KernelProfile K;
  K.Name = "fma_chain";
  K.op(OpClass::LoadGlobal) = 1;
  K.op(OpClass::StoreGlobal) = 1;
  K.op(OpClass::FP32) = 4096;
  K.op(OpClass::Int) = 64;
  K.op(OpClass::Branch) = 32;
  K.Flops32 = 8192;
  K.Accesses = {access(false, 4, 1), access(true, 4, 1)};
  K.ILP = 4;
  K.Res.Registers = 32;
  K.Res.RegistersExact = true;
  finalizeProfile(K);
  return K;
}

static KernelProfile registerHeavy() {
  KernelProfile K;
  K.Name = "register_heavy";
  K.op(OpClass::LoadGlobal) = 64;
  K.op(OpClass::StoreGlobal) = 8;
  K.op(OpClass::FP32) = 2048;
  K.op(OpClass::Int) = 256;
  K.Accesses = {access(false, 16, 16), access(true, 16, 2)};
  K.MLP = 4;
  K.ILP = 2;
  K.Res.Registers = 168;
  K.Res.RegistersExact = true;
  finalizeProfile(K);
  return K;
}

static KernelProfile tiled2D() {
  KernelProfile K;
  K.Name = "stencil_2d";
  K.Shape.UsesTid = {true, true, false};
  K.Shape.ReadsBlockDim = true;
  K.op(OpClass::LoadGlobal) = 2;
  K.op(OpClass::StoreGlobal) = 1;
  K.op(OpClass::LoadShared) = 9;
  K.op(OpClass::StoreShared) = 1;
  K.op(OpClass::Barrier) = 1;
  K.op(OpClass::FP32) = 18;
  K.op(OpClass::Int) = 30;
  K.Accesses = {access(false, 4, 2), access(true, 4, 1),
                access(false, 4, 9, AccessPattern::Coalesced, AddrSpace::Shared),
                access(true, 4, 1, AccessPattern::Coalesced, AddrSpace::Shared)};
  K.Res.Registers = 40;
  K.Res.RegistersExact = true;
  K.Res.StaticSharedBytes = 18 * 18 * 4;
  finalizeProfile(K);
  return K;
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "FlipFlop model sweep benchmark\n");
  const GPUSpec *G = findGPU(GPUName);
  if (!G) {
    errs() << "flipflop-bench-sweep: unknown GPU '" << GPUName << "'\n";
    return 1;
  }
  SweepOptions Opts;
  Opts.PowerSteps = Steps;
  KernelProfile Ks[] = {streaming(), computeBound(), registerHeavy(),
                        tiled2D()};
  outs() << "GPU " << G->Name << ", " << Reps << " sweeps per kernel, "
         << Steps << " power steps\n";
  double Worst = 0;
  for (const KernelProfile &K : Ks) {
    SweepResult R = sweep(K, *G, Opts); // Warm up.
    size_t Sink = 0;
    auto T0 = std::chrono::steady_clock::now();
    for (unsigned I = 0; I < Reps; ++I)
      Sink += sweep(K, *G, Opts).Pareto.size();
    auto T1 = std::chrono::steady_clock::now();
    double Ms = std::chrono::duration<double, std::milli>(T1 - T0).count() /
                std::max(1u, unsigned(Reps));
    Worst = std::max(Worst, Ms);
    outs() << format("%-16s %5zu configs/sweep  %7.3f ms/sweep  %6.2f us/config"
                     "  pareto %zu\n",
                     K.Name.c_str(), R.Configs.size(), Ms,
                     Ms * 1e3 / R.Configs.size(), Sink / std::max(1u, unsigned(Reps)));
    if (Explain)
      outs() << "  " << explainSweep(R, K) << "\n";
  }
  outs() << format("worst %.3f ms/sweep\n", Worst);
  return 0;
}
