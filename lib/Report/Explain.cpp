//===- Explain.cpp - A sweep's facts in words -----------------------------===//
//
// The sentences of remarks FF002/FF010, the JSON report's explanations and
// flipflop-ptx's text, from the facts the model returns (docs/MODEL.md
// "Recommender": explanations).
//
//===----------------------------------------------------------------------===//
#include "flipflop/Report/Explain.h"
#include "flipflop/Model/ModelConstants.h"
#include "flipflop/Report/Picks.h"
#include "flipflop/Support/BlockShape.h"
#include "flipflop/Support/Units.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstdio>

using namespace flipflop;
namespace mc = flipflop::modelconst;

//===----------------------------------------------------------------------===//
// Figures.
//===----------------------------------------------------------------------===//

static void printShape(llvm::raw_ostream &OS, const LaunchConfig &C) {
  OS << blockShapeText(C.Block);
}

static void printTime(llvm::raw_ostream &OS, double S) {
  if (S >= 1)
    OS << llvm::format("%.3g s", S);
  else if (S >= 1e-3)
    OS << llvm::format("%.3g ms", S * 1e3);
  else
    OS << llvm::format("%.3g us", S * 1e6);
}

static void printEnergy(llvm::raw_ostream &OS, double J) {
  if (J >= 1)
    OS << llvm::format("%.3g J", J);
  else if (J >= 1e-3)
    OS << llvm::format("%.3g mJ", J * 1e3);
  else
    OS << llvm::format("%.3g uJ", J * 1e6);
}

static const char *boundPhrase(Bottleneck B) {
  switch (B) {
  case Bottleneck::DRAM: return "DRAM bandwidth";
  case Bottleneck::L2: return "L2 bandwidth";
  case Bottleneck::SharedMemory: return "shared-memory bandwidth";
  case Bottleneck::Issue: return "instruction issue";
  case Bottleneck::Latency:
    return "latency (too few resident warps x loads in flight to hide it)";
  case Bottleneck::Tail: return "the partial last wave";
  case Bottleneck::Launch: return "launch overhead";
  }
  return "?";
}

/// The busiest pipe of an issue-bound configuration, in words a CUDA
/// programmer maps to instructions.
static const char *issuePipePhrase(IssuePipe U) {
  switch (U) {
  case IssuePipe::FP32: return "the FP32 pipe (fadd/fmul/ffma)";
  case IssuePipe::FP64: return "the FP64 pipe";
  case IssuePipe::FP16: return "the FP16 pipe";
  case IssuePipe::Int: return "the integer pipe (index and address arithmetic)";
  case IssuePipe::IntMul: return "the integer multiply pipe";
  case IssuePipe::SFU:
    return "the special-function unit (sin/cos/exp/rsqrt/division)";
  case IssuePipe::Conversion:
    return "the conversion pipe (int<->float and width conversions)";
  case IssuePipe::Shuffle: return "warp shuffles";
  case IssuePipe::Memory:
    return "the load/store pipe (memory instructions and their L1/shared "
           "wavefronts)";
  case IssuePipe::Tensor: return "the tensor cores";
  case IssuePipe::MioPort:
    return "the MIO's port (memory, conversion and special-function "
           "instructions take turns at the load/store unit's rate)";
  case IssuePipe::Dispatch:
    return "instruction dispatch (one warp instruction per scheduler per "
           "clock)";
  }
  return "?";
}

static const char *energyPartPhrase(EnergyPart E) {
  switch (E) {
  case EnergyPart::Static: return "static power";
  case EnergyPart::SMDynamic: return "SM dynamic power";
  case EnergyPart::DRAM: return "DRAM traffic";
  }
  return "?";
}

static void printDelta(llvm::raw_ostream &OS, const Prediction &P,
                       const Prediction &Q) {
  double DT = (Q.TimeS / P.TimeS - 1) * 100, DE = (Q.EnergyJ / P.EnergyJ - 1) * 100;
  OS << llvm::format("%+.1f%% time, %+.1f%% energy", DT, DE);
}

//===----------------------------------------------------------------------===//
// One configuration.
//===----------------------------------------------------------------------===//

/// The configuration, its lever and how to set it.
static void printConfigLever(llvm::raw_ostream &OS, const Prediction &P) {
  const LaunchConfig &C = P.Config;
  printShape(OS, C);
  OS << " threads, ";
  if (C.MinBlocksPerSM)
    OS << "__launch_bounds__ min " << C.MinBlocksPerSM << " blocks/SM (cap "
       << P.RegisterCap << " registers)";
  else
    OS << "no register cap";
  // The lever, its value and how to set it (no ':' before the limit: the
  // remark tests read "<limit> W limit:").
  LeverCommand LC = leverCommand(leverName(P.PowerLever), P.LeverValue, 0);
  switch (P.PowerLever) {
  case Lever::None:
    OS << ", no lever (default power limit, clocks not locked)";
    break;
  case Lever::PowerLimit:
    OS << ", lever power limit " << llvm::format("%.0f", P.LeverValue)
       << " W (" << LC.Command << ", " << LC.NVML << "; needs root)";
    break;
  case Lever::LockedClock:
    OS << ", lever SM clock locked at " << llvm::format("%.0f", P.LeverValue)
       << " MHz under the default power limit (" << LC.Command << ", "
       << LC.NVML << "; needs root)";
    break;
  }
}

/// Time, energy and power with their bands, and the comparison with the
/// occupancy heuristic.
static void printFigures(llvm::raw_ostream &OS, const SweepResult &R,
                         size_t I) {
  const Prediction &P = R.Configs[I];
  OS << ", " << llvm::format("%.0f", P.PowerLimitW) << " W limit: ";
  Bands AB = absoluteBands();
  printTime(OS, P.TimeS);
  OS << llvm::format(" (+/-%.0f%%)", AB.Time * 100) << ", ";
  printEnergy(OS, P.EnergyJ);
  OS << llvm::format(" (+/-%.0f%%)", AB.Energy * 100);
  OS << llvm::format(" (%.0f W +/-%.0f%% at %.0f MHz)", P.AvgPowerW,
                     AB.Power * 100, P.ClockMHz);
  if (I != R.Pick.OccupancyHeuristic)
    OS << llvm::format("; %.1f%% less energy and %.2fx the speed of the "
                       "occupancy heuristic",
                       R.energySavingPct(I), R.speedup(I));
}

/// The bottleneck and the clock the limit leaves; the largest share of
/// energy; occupancy and its limiter.
static void printBottlenecks(llvm::raw_ostream &OS, const Prediction &P) {
  // Latency that the block's barrier phases make (its warps wait together)
  // is not cured by more warps of the same block: say what is.
  bool Phases = P.Bound == Bottleneck::Latency && P.TLatencyS > 0 &&
                P.TBarrierPhaseS >= 0.5 * P.TLatencyS;
  if (Phases)
    OS << ". Bound by latency behind barriers";
  else
    OS << ". Bound by " << boundPhrase(P.Bound);
  if (P.Bound == Bottleneck::Tail)
    OS << llvm::format(" (%.2f waves, tail costs %.0f%%)", P.Waves,
                       (P.TailFactor - 1) * 100);
  else if (P.Bound != Bottleneck::Launch)
    OS << llvm::format(" (%.0f%% of the time)", P.BoundShare * 100);
  if (Phases)
    OS << ": a block's warps wait for each phase's loads together, so only "
          "the SM's other blocks hide them (more resident blocks, or fewer "
          "barrier phases such as double-buffered tiles, would)";
  if (P.Bound == Bottleneck::Issue && P.BusiestPipeShare > 0)
    OS << "; busiest: " << issuePipePhrase(P.BusiestPipe)
       << llvm::format(", %.0f%% of the issue time",
                       P.BusiestPipeShare * 100);
  if (P.PowerCapped && P.PowerLever == Lever::LockedClock)
    OS << "; the default power limit holds the clock below the lock, at "
       << llvm::format("%.0f MHz", P.ClockMHz);
  else if (P.PowerCapped)
    OS << "; the power limit lowers the clock to "
       << llvm::format("%.0f MHz", P.ClockMHz);
  double ES = P.PStaticW, EC = P.PComputeW, ED = P.PMemoryW,
         Tot = std::max(1e-30, ES + EC + ED);
  OS << ". The largest share of energy is "
     << energyPartPhrase(dominantEnergyPart(P))
     << llvm::format(" (%.0f%%; static %.0f%%, SM dynamic %.0f%%, DRAM %.0f%%)",
                     std::max(ES, std::max(EC, ED)) / Tot * 100, ES / Tot * 100,
                     EC / Tot * 100, ED / Tot * 100);
  OS << ". Occupancy " << llvm::format("%.0f%%", P.Occ.Occupancy * 100) << " ("
     << P.Occ.ActiveWarps << " warps/SM, limited by "
     << occLimiterName(P.Occ.Limiter) << ", " << P.RegsPerThread
     << " registers)";
  if (P.SpillBytesPerThread > 0)
    OS << ", " << bytesText(P.SpillBytesPerThread) << "/thread spilled";
  OS << ".";
}

/// What a block half or twice as large and the next lower power limit
/// would cost.
static void printNeighbours(llvm::raw_ostream &OS, const SweepResult &R,
                            size_t I) {
  const Prediction &P = R.Configs[I];
  const unsigned B = P.Config.blockThreads();
  ConfigNeighbours N = configNeighbours(R, I);
  auto Block = [&](long J, unsigned Threads) {
    if (J < 0)
      return;
    const Prediction &Q = R.Configs[J];
    OS << " A " << Threads << "-thread block: ";
    printDelta(OS, P, Q);
    OS << " (" << bottleneckName(Q.Bound) << "-bound, occupancy "
       << llvm::format("%.0f%%", Q.Occ.Occupancy * 100) << ").";
  };
  Block(N.HalfBlock, B / 2);
  Block(N.DoubleBlock, B * 2);
  if (N.LowerLimit >= 0) {
    const Prediction &X = R.Configs[N.LowerLimit];
    OS << " A " << llvm::format("%.0f", N.LowerLimitW) << " W limit: ";
    printDelta(OS, P, X);
    OS << llvm::format(" (%.0f MHz).", X.ClockMHz);
  }
}

std::string flipflop::explainConfig(const SweepResult &R, size_t I,
                                    const KernelProfile &K) {
  std::string Out;
  if (I >= R.Configs.size())
    return Out;
  llvm::raw_string_ostream OS(Out);
  const Prediction &P = R.Configs[I];
  if (!P.Valid) {
    OS << "not launchable: " << P.Invalid << ".";
    return Out;
  }
  printConfigLever(OS, P);
  printFigures(OS, R, I);
  printBottlenecks(OS, P);
  printNeighbours(OS, R, I);
  if (!K.Guesses.empty()) {
    OS << " Guessed: ";
    for (size_t J = 0; J < K.Guesses.size(); ++J)
      OS << (J ? "; " : "") << K.Guesses[J];
    OS << ".";
  }
  return Out;
}

std::string flipflop::explainPick(const SweepResult &R, Objective Obj,
                                  const KernelProfile &K) {
  std::string Out = explainConfig(R, R.pick(Obj), K);
  const PickTie &T = R.tie(Obj);
  if (!T.Tied)
    return Out;
  const Prediction &O = R.Configs[T.Optimum];
  llvm::raw_string_ostream OS(Out);
  OS << " Tie: the model's optimum (";
  printShape(OS, O.Config);
  OS << " threads, min-blocks " << O.Config.MinBlocksPerSM << ", "
     << leverName(O.PowerLever);
  if (O.PowerLever != Lever::None)
    OS << " " << llvm::format("%.0f", O.LeverValue)
       << (O.PowerLever == Lever::PowerLimit ? " W" : " MHz");
  OS << ") is better by "
     << llvm::format("%.1f%%, inside the +/-%.0f%%", T.AdvantagePct, T.BandPct)
     << " band of a comparison, so the less intrusive configuration is "
        "recommended.";
  return Out;
}

//===----------------------------------------------------------------------===//
// The sweep.
//===----------------------------------------------------------------------===//

std::string flipflop::shapeReason(const SweepResult &R,
                                  const KernelProfile &K) {
  const LaunchBounds &LB = K.Bounds;
  const ShapeInfo &SI = K.Shape;
  const char *Tuned = "; only register caps and power limits are tuned";
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  switch (R.Shape) {
  case ShapeSource::Free:
    break;
  case ShapeSource::Required:
    OS << "the kernel requires blockDim = (" << LB.ReqNTid[0] << ", "
       << std::max(1u, LB.ReqNTid[1]) << ", " << std::max(1u, LB.ReqNTid[2])
       << ") (reqntid)" << Tuned;
    break;
  case ShapeSource::Checks: {
    std::string Facts;
    for (const std::string &F : SI.CheckFacts)
      Facts += (Facts.empty() ? "" : "; ") + F;
    OS << Facts;
    if (R.ShapeHeld)
      OS << Tuned;
    break;
  }
  case ShapeSource::Tile:
  case ShapeSource::TileBounds:
  case ShapeSource::TileUnknown:
    OS << (SI.FixedReason.empty()
               ? "a shared-memory tile indexed by threadIdx fixes the block "
                 "shape"
               : SI.FixedReason);
    if (R.Shape == ShapeSource::TileBounds)
      OS << "; shape taken from __launch_bounds__";
    else if (R.Shape == ShapeSource::TileUnknown)
      OS << "; the shape is unknown, 256 threads assumed";
    OS << Tuned;
    break;
  }
  return Out;
}

/// The explanation of a sweep that recommends nothing, or of one that
/// was not a sweep.
static std::string explainNoPicks(const SweepResult &R) {
  switch (R.Status) {
  case SweepStatus::NotSwept:
  case SweepStatus::Swept:
    return "";
  case SweepStatus::GivenConfig:
    return "single configuration given with --block";
  case SweepStatus::ImplausibleProfile:
    return "no recommendation: the profile is implausible (" + R.Implausible +
           ")";
  case SweepStatus::SpaceTooLarge:
  case SweepStatus::AllImplausible:
    return "no recommendation: " + R.Implausible;
  case SweepStatus::NoWork:
    return "nothing to tune: the kernel does no work (no instruction but its "
           "return), so every launch costs only the launch overhead, whatever "
           "its block, register cap or power setting";
  case SweepStatus::NoneLaunchable:
    return R.Configs.empty()
               ? std::string("no configuration can launch")
               : "no configuration can launch: " + R.Configs.front().Invalid;
  }
  return "";
}

/// The whole-kernel explanation of a sweep with picks: the space, the
/// Pareto front, the shape, and the pick of R.Obj (\p Picks: sweepTexts()'s).
static std::string explainSwept(const SweepResult &R,
                                const std::string &ShapeWhy,
                                const std::array<std::string, 5> &Picks) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  size_t NValid = 0;
  for (const Prediction &P : R.Configs)
    NValid += P.Valid;
  OS << NValid << " launchable configurations (" << R.NumShapes
     << " block shapes x register caps x (" << R.PowerLimits.size()
     << " power limits + " << R.LockedClocks.size()
     << " locked clocks)); " << R.Pareto.size() << " are Pareto-optimal ("
     << llvm::format("%.1f%%", R.SearchSpaceReduction * 100)
     << " of the space ruled out)";
  if (R.ShapeHeld)
    OS << "; block shape held: " << ShapeWhy;
  else if (!ShapeWhy.empty())
    OS << "; block shapes limited by the code: " << ShapeWhy;
  // The pick of the objective FF001 names.
  switch (R.Obj) {
  case Objective::Time:
    OS << ". Fastest: " << Picks[0];
    break;
  case Objective::Energy:
    OS << ". Least energy: " << Picks[1];
    break;
  case Objective::EDP:
    OS << ". Least energy x delay: " << Picks[3];
    break;
  case Objective::EnergyWithinBudget:
    OS << ". Least energy within "
       << llvm::format("%.0f%%", R.SlowdownBudgetPct)
       << " of the fastest: " << Picks[2];
    break;
  }
  return Out;
}

SweepTexts flipflop::sweepTexts(const SweepResult &R, const KernelProfile &K) {
  SweepTexts T;
  T.ShapeReason = shapeReason(R, K);
  if (R.Status != SweepStatus::Swept) {
    T.Explanation = explainNoPicks(R);
    return T;
  }
  for (size_t I = 0; I < ReportPickObjectives.size(); ++I)
    T.Picks[I] = explainPick(R, ReportPickObjectives[I], K);
  T.Picks[NumReportPicks - 1] = explainConfig(R, R.Pick.OccupancyHeuristic, K);
  T.Explanation = explainSwept(R, T.ShapeReason, T.Picks);
  return T;
}

std::string flipflop::explainSweep(const SweepResult &R,
                                   const KernelProfile &K) {
  return sweepTexts(R, K).Explanation;
}

//===----------------------------------------------------------------------===//
// Notes on levers.
//===----------------------------------------------------------------------===//

std::string flipflop::powerLimitNote(const GPUSpec &GPU, const Prediction &P) {
  char Buf[320];
  if (P.ClockOutOfRange) {
    std::snprintf(Buf, sizeof(Buf),
                  "locked clock %.0f MHz is outside the %.0f-%.0f MHz of %s "
                  "(nvidia-smi -lgc refuses it); modelled at %.0f MHz",
                  P.Config.LockedClockMHz, GPU.MinClockMHz, GPU.topClockMHz(),
                  GPU.Name.c_str(), P.LeverValue);
    return Buf;
  }
  double Asked = P.Config.PowerLimitW;
  if (P.LimitOutOfRange) {
    std::snprintf(Buf, sizeof(Buf),
                  "power limit %.0f W is outside the %.0f-%.0f W that %s "
                  "accepts (nvidia-smi -pl refuses it); modelled at %.0f W",
                  Asked, GPU.Power.MinLimitW, GPU.Power.MaxLimitW,
                  GPU.Name.c_str(), P.PowerLimitW);
    return Buf;
  }
  if (P.LimitUnreachable) {
    std::snprintf(Buf, sizeof(Buf),
                  "power limit %.0f W is unreachable for this kernel on %s: "
                  "it draws %.0f W even at the lowest clock (%.0f MHz), "
                  "where it is modelled",
                  P.PowerLimitW, GPU.Name.c_str(), P.AvgPowerW, P.ClockMHz);
    return Buf;
  }
  return "";
}

std::string flipflop::leverTooShortNote(const std::string &Lever,
                                        double TimeS) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (Lever == "power_limit" && TimeS < mc::PowerLimitWindowS)
    OS << "too short for a power limit of its own: "
       << llvm::format("%.3g", TimeS * 1e3)
       << " ms per launch, while the limit is enforced on power averaged "
          "over ~"
       << llvm::format("%.0f", mc::PowerLimitWindowS * 1e3)
       << " ms; set it for the whole application instead";
  else if (Lever == "locked_clock" &&
           TimeS < mc::ClockLockMinSwitches * mc::ClockSwitchS)
    OS << "too short to lock the clock around it: "
       << llvm::format("%.3g", TimeS * 1e3)
       << " ms per launch, while setting and resetting the clock costs ~"
       << llvm::format("%.0f", mc::ClockSwitchS * 1e3)
       << " ms each; set it for the whole application instead";
  return Out;
}
