//===- Recommender.cpp - Configuration space, Pareto front, named picks ---===//
//
// sweep() enumerates the launch configurations a kernel supports (block
// shapes, register caps that actually differ, power limits), predicts each
// with predict(), and chooses: the (time, energy) Pareto front, the named
// picks, NVIDIA's occupancy heuristic as the baseline, and an explanation of
// each pick in the model's own terms. See docs/MODEL.md "Recommender".
//
//===----------------------------------------------------------------------===//
#include "flipflop/Model/Recommender.h"
#include "flipflop/Model/ModelConstants.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace flipflop;
namespace mc = flipflop::modelconst;

const char *flipflop::objectiveName(Objective O) {
  switch (O) {
  case Objective::Energy: return "energy";
  case Objective::Time: return "time";
  case Objective::EDP: return "edp";
  case Objective::EnergyWithinBudget: return "energy-within";
  }
  return "unknown";
}

bool flipflop::parseObjective(const std::string &S, Objective &O,
                              double &BudgetPct) {
  if (S == "energy") {
    O = Objective::Energy;
    return true;
  }
  if (S == "time") {
    O = Objective::Time;
    return true;
  }
  if (S == "edp") {
    O = Objective::EDP;
    return true;
  }
  std::string Num;
  if (S.rfind("energy-within:", 0) == 0)
    Num = S.substr(14);
  else if (S.rfind("energy<=", 0) == 0)
    Num = S.substr(8);
  else
    return false;
  if (!Num.empty() && Num.back() == '%')
    Num.pop_back();
  if (Num.empty())
    return false;
  char *End = nullptr;
  double V = std::strtod(Num.c_str(), &End);
  if (!End || *End != '\0' || !(V >= 0) || V > 1000)
    return false;
  O = Objective::EnergyWithinBudget;
  BudgetPct = V;
  return true;
}

size_t SweepResult::pick(Objective O) const {
  const Picks &P = HasAdvice ? Advice : Pick;
  switch (O) {
  case Objective::Energy: return P.LeastEnergy;
  case Objective::Time: return P.Fastest;
  case Objective::EDP: return P.BestEDP;
  case Objective::EnergyWithinBudget: return P.EnergyWithinBudget;
  }
  return P.EnergyWithinBudget;
}

const PickTie &SweepResult::tie(Objective O) const {
  switch (O) {
  case Objective::Energy: return TieLeastEnergy;
  case Objective::Time: return TieFastest;
  case Objective::EDP: return TieEDP;
  case Objective::EnergyWithinBudget: return TieBudget;
  }
  return TieBudget;
}

//===----------------------------------------------------------------------===//
// Levers, bands, intrusiveness.
//===----------------------------------------------------------------------===//

unsigned flipflop::intrusiveness(const Prediction &P,
                                 const std::array<unsigned, 3> &DefaultBlock) {
  return unsigned(P.PowerLever != Lever::None) +
         unsigned(P.Config.Block != DefaultBlock) +
         unsigned(P.Config.MinBlocksPerSM != 0);
}

/// Energy = power x time: their relative errors add in quadrature.
static Bands bandsOf(double Time, double Power) {
  return {Time, Power, std::sqrt(Time * Time + Power * Power)};
}

Bands flipflop::absoluteBands() {
  return bandsOf(mc::TimeBandRel, mc::PowerBandRel);
}

Bands flipflop::comparisonBands() {
  return bandsOf(mc::CompareTimeBandRel, mc::ComparePowerBandRel);
}

Bands flipflop::leverComparisonBands() {
  return bandsOf(mc::CompareLeverTimeBandRel, mc::ComparePowerBandRel);
}

std::array<double, 2> flipflop::band(double V, double Rel) {
  return {V * (1 - Rel), V * (1 + Rel)};
}

static std::string fmt0(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.0f", V);
  return Buf;
}

LeverCommand flipflop::leverCommand(const std::string &Lever, double Value,
                                    double DefaultLimitW) {
  LeverCommand C;
  C.Lever = Lever;
  C.Value = Value;
  if (Lever == "power_limit") {
    C.Unit = "W";
    C.Command = "nvidia-smi -pl " + fmt0(Value);
    C.NVML = "nvmlDeviceSetPowerManagementLimit(device, " +
             fmt0(std::round(Value) * 1000) + ") /* mW */";
    C.Reset = DefaultLimitW > 0 ? "nvidia-smi -pl " + fmt0(DefaultLimitW)
                                : "nvidia-smi -pl <default limit>";
    C.NeedsRoot = true;
  } else if (Lever == "locked_clock") {
    C.Unit = "MHz";
    C.Command = "nvidia-smi -lgc " + fmt0(Value) + "," + fmt0(Value);
    C.NVML = "nvmlDeviceSetGpuLockedClocks(device, " + fmt0(Value) + ", " +
             fmt0(Value) + ")";
    C.Reset = "nvidia-smi -rgc (nvmlDeviceResetGpuLockedClocks)";
    C.NeedsRoot = true;
  } else {
    C.Lever = "none";
    C.Value = 0;
  }
  return C;
}

LeverCommand flipflop::leverCommand(const Prediction &P, const GPUSpec &G) {
  return leverCommand(leverName(P.PowerLever), P.LeverValue,
                      G.Power.DefaultLimitW);
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

std::vector<double> flipflop::lockableClocks(const GPUSpec &G,
                                             double StepMHz) {
  std::vector<double> Out;
  double Top = G.topClockMHz();
  double Lo = G.MinClockMHz > 0 ? std::min(G.MinClockMHz, Top) : 0;
  if (Top <= 0 || Lo <= 0)
    return Out;
  Out.push_back(std::round(Lo));
  if (!(StepMHz > 0))
    StepMHz = 100;
  for (double F = std::ceil(Lo / StepMHz) * StepMHz; F < Top; F += StepMHz)
    if (F - Out.back() >= StepMHz / 2)
      Out.push_back(F);
  if (std::round(Top) - Out.back() >= 1) {
    // The top clock replaces a grid point closer than half a step.
    if (Out.size() > 1 && std::round(Top) - Out.back() < StepMHz / 2)
      Out.back() = std::round(Top);
    else
      Out.push_back(std::round(Top));
  }
  return Out;
}

double SweepResult::energySavingPct(size_t I) const {
  if (I >= Configs.size() || Pick.OccupancyHeuristic >= Configs.size())
    return 0;
  double H = Configs[Pick.OccupancyHeuristic].EnergyJ;
  return H > 0 ? (H - Configs[I].EnergyJ) / H * 100 : 0;
}

double SweepResult::speedup(size_t I) const {
  if (I >= Configs.size() || Pick.OccupancyHeuristic >= Configs.size())
    return 1;
  double T = Configs[I].TimeS;
  return T > 0 ? Configs[Pick.OccupancyHeuristic].TimeS / T : 1;
}

std::vector<size_t> flipflop::paretoFront(const std::vector<Prediction> &Ps) {
  std::vector<size_t> Idx;
  Idx.reserve(Ps.size());
  for (size_t I = 0; I < Ps.size(); ++I)
    if (Ps[I].Valid)
      Idx.push_back(I);
  std::sort(Idx.begin(), Idx.end(), [&](size_t A, size_t B) {
    if (Ps[A].TimeS != Ps[B].TimeS)
      return Ps[A].TimeS < Ps[B].TimeS;
    if (Ps[A].EnergyJ != Ps[B].EnergyJ)
      return Ps[A].EnergyJ < Ps[B].EnergyJ;
    return A < B;
  });
  std::vector<size_t> Front;
  double BestE = INFINITY;
  for (size_t I : Idx)
    if (Ps[I].EnergyJ < BestE) {
      Front.push_back(I);
      BestE = Ps[I].EnergyJ;
    }
  return Front;
}

//===----------------------------------------------------------------------===//
// Explanations.
//===----------------------------------------------------------------------===//

static void printShape(llvm::raw_ostream &OS, const LaunchConfig &C) {
  OS << C.Block[0];
  if (C.Block[1] > 1 || C.Block[2] > 1)
    OS << "x" << C.Block[1];
  if (C.Block[2] > 1)
    OS << "x" << C.Block[2];
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

static long findNeighbour(const SweepResult &R, const Prediction &P,
                          unsigned Threads, unsigned MinBlocks, double Limit) {
  long Best = -1;
  for (size_t I = 0; I < R.Configs.size(); ++I) {
    const Prediction &Q = R.Configs[I];
    if (!Q.Valid || Q.Config.blockThreads() != Threads ||
        Q.Config.MinBlocksPerSM != MinBlocks ||
        std::fabs(Q.Config.PowerLimitW - Limit) > 1e-6 ||
        Q.Config.LockedClockMHz != P.Config.LockedClockMHz)
      continue;
    if (Best < 0 || Q.Config.Block[1] == P.Config.Block[1])
      Best = long(I);
  }
  return Best;
}

static void printDelta(llvm::raw_ostream &OS, const Prediction &P,
                       const Prediction &Q) {
  double DT = (Q.TimeS / P.TimeS - 1) * 100, DE = (Q.EnergyJ / P.EnergyJ - 1) * 100;
  OS << llvm::format("%+.1f%% time, %+.1f%% energy", DT, DE);
}

std::string flipflop::explainConfig(const SweepResult &R, size_t I,
                                    const KernelProfile &K, const GPUSpec &G) {
  std::string Out;
  if (I >= R.Configs.size())
    return Out;
  llvm::raw_string_ostream OS(Out);
  const Prediction &P = R.Configs[I];
  if (!P.Valid) {
    OS << "not launchable: " << P.Invalid << ".";
    return Out;
  }
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
  LeverCommand LC = leverCommand(P, G);
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
  OS << ". Bound by " << boundPhrase(P.Bound);
  if (P.Bound == Bottleneck::Tail)
    OS << llvm::format(" (%.2f waves, tail costs %.0f%%)", P.Waves,
                       (P.TailFactor - 1) * 100);
  else if (P.Bound != Bottleneck::Launch)
    OS << llvm::format(" (%.0f%% of the time)", P.BoundShare * 100);
  if (P.PowerCapped && P.PowerLever == Lever::LockedClock)
    OS << "; the default power limit holds the clock below the lock, at "
       << llvm::format("%.0f MHz", P.ClockMHz);
  else if (P.PowerCapped)
    OS << "; the power limit lowers the clock to "
       << llvm::format("%.0f MHz", P.ClockMHz);
  double ES = P.PStaticW, EC = P.PComputeW, ED = P.PMemoryW,
         Tot = std::max(1e-30, ES + EC + ED);
  const char *Dom = ES >= EC && ES >= ED ? "static power"
                    : EC >= ED          ? "SM dynamic power"
                                        : "DRAM traffic";
  OS << ". The largest share of energy is " << Dom
     << llvm::format(" (%.0f%%; static %.0f%%, SM dynamic %.0f%%, DRAM %.0f%%)",
                     std::max(ES, std::max(EC, ED)) / Tot * 100, ES / Tot * 100,
                     EC / Tot * 100, ED / Tot * 100);
  OS << ". Occupancy " << llvm::format("%.0f%%", P.Occ.Occupancy * 100) << " ("
     << P.Occ.ActiveWarps << " warps/SM, limited by "
     << occLimiterName(P.Occ.Limiter) << ", " << P.RegsPerThread
     << " registers)";
  if (P.SpillBytesPerThread > 0)
    OS << llvm::format(", %.0f B/thread spilled", P.SpillBytesPerThread);
  OS << ".";
  unsigned B = C.blockThreads();
  if (!R.ShapeHeld) {
    long Sm = findNeighbour(R, P, B / 2, C.MinBlocksPerSM, C.PowerLimitW);
    long Lg = findNeighbour(R, P, B * 2, C.MinBlocksPerSM, C.PowerLimitW);
    if (Sm >= 0) {
      const Prediction &Q = R.Configs[Sm];
      OS << " A " << B / 2 << "-thread block: ";
      printDelta(OS, P, Q);
      OS << " (" << bottleneckName(Q.Bound) << "-bound, occupancy "
         << llvm::format("%.0f%%", Q.Occ.Occupancy * 100) << ").";
    }
    if (Lg >= 0) {
      const Prediction &Q = R.Configs[Lg];
      OS << " A " << B * 2 << "-thread block: ";
      printDelta(OS, P, Q);
      OS << " (" << bottleneckName(Q.Bound) << "-bound, occupancy "
         << llvm::format("%.0f%%", Q.Occ.Occupancy * 100) << ").";
    }
  }
  // The next lower power limit.
  double Lower = -1;
  if (C.LockedClockMHz == 0)
    for (double L : R.PowerLimits)
      if (L < C.PowerLimitW - 1e-6 && L > Lower)
        Lower = L;
  if (Lower > 0) {
    long Q = -1;
    for (size_t J = 0; J < R.Configs.size(); ++J) {
      const Prediction &X = R.Configs[J];
      if (X.Valid && X.Config.Block == C.Block &&
          X.Config.MinBlocksPerSM == C.MinBlocksPerSM &&
          X.Config.LockedClockMHz == 0 &&
          std::fabs(X.Config.PowerLimitW - Lower) < 1e-6) {
        Q = long(J);
        break;
      }
    }
    if (Q >= 0) {
      const Prediction &X = R.Configs[Q];
      OS << " A " << llvm::format("%.0f", Lower) << " W limit: ";
      printDelta(OS, P, X);
      OS << llvm::format(" (%.0f MHz).", X.ClockMHz);
    }
  }
  if (!K.Guesses.empty()) {
    OS << " Guessed: ";
    for (size_t J = 0; J < K.Guesses.size(); ++J)
      OS << (J ? "; " : "") << K.Guesses[J];
    OS << ".";
  }
  return Out;
}

/// The least intrusive valid configuration whose disadvantage against the
/// optimum \p Opt in \p Metric lies inside \p BandRel (and that meets
/// \p Allowed); \p Opt itself when none is less intrusive.
template <typename MetricFn, typename AllowFn>
static size_t resolveTie(const SweepResult &R, size_t Opt, MetricFn Metric,
                         double CodeBand, double LeverBand, AllowFn Allowed,
                         PickTie &Tie) {
  Tie = PickTie();
  Tie.Optimum = Opt;
  const Prediction &O = R.Configs[Opt];
  const double MO = Metric(O);
  const unsigned OptIn = intrusiveness(O, R.DefaultBlock);
  size_t Chosen = Opt;
  unsigned ChosenIn = OptIn;
  double ChosenM = MO;
  if (!(MO > 0))
    return Opt;
  for (size_t I = 0; I < R.Configs.size(); ++I) {
    const Prediction &P = R.Configs[I];
    if (!P.Valid || !Allowed(P))
      continue;
    unsigned In = intrusiveness(P, R.DefaultBlock);
    double M = Metric(P);
    // Same code (block and cap), another lever: only the clock scaling and
    // the power curve differ between the two; else the time model's
    // configuration-to-configuration scatter counts too.
    bool SameCode = P.Config.Block == O.Config.Block &&
                    P.Config.MinBlocksPerSM == O.Config.MinBlocksPerSM;
    double BandRel = SameCode ? LeverBand : CodeBand;
    if (In >= OptIn || M / MO - 1 > BandRel)
      continue;
    // Least intrusive first, then the better figure (then the index).
    if (In < ChosenIn || (In == ChosenIn && M < ChosenM)) {
      Chosen = I;
      ChosenIn = In;
      ChosenM = M;
      Tie.BandPct = BandRel * 100;
    }
  }
  if (Chosen != Opt) {
    Tie.Tied = true;
    Tie.AdvantagePct = (ChosenM / MO - 1) * 100;
  } else {
    Tie.BandPct = 0;
  }
  return Chosen;
}

/// The explanation of the recommended configuration for \p Obj, with the
/// tie that chose it.
static std::string explainPick(const SweepResult &R, Objective Obj,
                               const KernelProfile &K, const GPUSpec &G) {
  std::string Out = explainConfig(R, R.pick(Obj), K, G);
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


/// Every shape the sweep may try when nothing in the code fixes it: 1-D,
/// one per warp up to the block limit; 2-D/3-D, powers of two.
static std::vector<std::array<unsigned, 3>>
freeShapes(const KernelProfile &K, const GPUSpec &G) {
  std::vector<std::array<unsigned, 3>> Out;
  unsigned MaxB = G.MaxThreadsPerBlock ? G.MaxThreadsPerBlock : 1024;
  if (unsigned M = K.Bounds.maxThreads())
    MaxB = std::min(MaxB, M);
  unsigned WS = G.WarpSize ? G.WarpSize : 32;
  const ShapeInfo &SI = K.Shape;
  bool Y = SI.UsesTid[1] || SI.ReadsNTid[1] || SI.CheckedDim[1] > 1;
  bool Z = SI.UsesTid[2] || SI.ReadsNTid[2] || SI.CheckedDim[2] > 1;
  if (!Y && !Z) {
    for (unsigned B = WS; B <= MaxB; B += WS)
      Out.push_back({B, 1, 1});
  } else {
    for (unsigned X = 8; X <= 1024; X *= 2)
      for (unsigned YY = 1; YY <= (Y ? 1024u : 1u); YY *= 2)
        for (unsigned ZZ = 1; ZZ <= (Z ? 64u : 1u); ZZ *= 2) {
          unsigned P = X * YY * ZZ;
          if (P % WS == 0 && P <= MaxB)
            Out.push_back({X, YY, ZZ});
        }
  }
  // The shape the checks name exactly, when it is off the grid above
  // (blockDim.x == 48, or a product of dimensions the kernel uses as 1-D).
  std::array<unsigned, 3> Exact{0, 0, 0};
  bool Known = true;
  for (unsigned D = 0; D < 3; ++D) {
    bool Used = SI.UsesTid[D] || SI.ReadsNTid[D];
    Exact[D] = SI.CheckedDim[D] ? SI.CheckedDim[D] : Used && D ? 0 : 1;
    if (!Exact[D])
      Known = false;
  }
  if (!SI.CheckedDim[0]) {
    if (SI.CheckedThreads && Exact[1] && Exact[2] &&
        SI.CheckedThreads % (Exact[1] * Exact[2]) == 0)
      Exact[0] = SI.CheckedThreads / (Exact[1] * Exact[2]);
    else
      Known = false;
  }
  uint64_t Threads = uint64_t(Exact[0]) * Exact[1] * Exact[2];
  if (Known && Threads <= MaxB &&
      std::find(Out.begin(), Out.end(), Exact) == Out.end())
    Out.push_back(Exact);
  if (Out.empty())
    Out.push_back({MaxB, 1, 1});
  return Out;
}

/// The checks of \p SI in one line.
static std::string checkFacts(const ShapeInfo &SI) {
  std::string Out;
  for (const std::string &F : SI.CheckFacts)
    Out += (Out.empty() ? "" : "; ") + F;
  return Out;
}

static void shapes(const KernelProfile &K, const GPUSpec &G, SweepResult &R,
                   std::vector<std::array<unsigned, 3>> &Out) {
  const LaunchBounds &LB = K.Bounds;
  const ShapeInfo &SI = K.Shape;
  const char *Tuned = "; only register caps and power limits are tuned";
  if (LB.ReqNTid[0]) {
    R.ShapeHeld = true;
    std::array<unsigned, 3> S{LB.ReqNTid[0], std::max(1u, LB.ReqNTid[1]),
                              std::max(1u, LB.ReqNTid[2])};
    std::string Txt;
    llvm::raw_string_ostream OS(Txt);
    OS << "the kernel requires blockDim = (" << S[0] << ", " << S[1] << ", "
       << S[2] << ") (reqntid)" << Tuned;
    R.ShapeReason = Txt;
    Out.push_back(S);
    return;
  }
  // Checks in the code (asserts, traps, early returns on blockDim) are facts:
  // only the shapes that pass them are tried.
  if (SI.anyCheck()) {
    std::vector<std::array<unsigned, 3>> Pass;
    for (const auto &S : freeShapes(K, G))
      if (SI.passesChecks(S))
        Pass.push_back(S);
    if (!Pass.empty()) {
      // A tile's shape, when it passes the checks too, narrows them further.
      std::array<unsigned, 3> T{SI.FixedBlock[0], std::max(1u, SI.FixedBlock[1]),
                                std::max(1u, SI.FixedBlock[2])};
      if (SI.FixedByTile && T[0] && SI.passesChecks(T))
        Pass = {T};
      R.ShapeHeld = Pass.size() == 1;
      R.ShapeReason = checkFacts(SI) + (R.ShapeHeld ? Tuned : "");
      Out = std::move(Pass);
      return;
    }
  }
  if (SI.FixedByTile) {
    R.ShapeHeld = true;
    std::array<unsigned, 3> S{SI.FixedBlock[0], std::max(1u, SI.FixedBlock[1]),
                              std::max(1u, SI.FixedBlock[2])};
    std::string Why = SI.FixedReason.empty()
                          ? "a shared-memory tile indexed by threadIdx fixes "
                            "the block shape"
                          : SI.FixedReason;
    if (!S[0]) {
      unsigned M = LB.maxThreads();
      S = {M ? M : 256u, 1, 1};
      Why += M ? "; shape taken from __launch_bounds__"
               : "; the shape is unknown, 256 threads assumed";
    }
    R.ShapeReason = Why + Tuned;
    Out.push_back(S);
    return;
  }
  Out = freeShapes(K, G);
}

SweepResult flipflop::sweep(const KernelProfile &K, const GPUSpec &G,
                            const SweepOptions &Opts) {
  SweepResult R;
  // Counts outside physical bounds give figures that mean nothing: no
  // configuration is predicted, so none can be recommended.
  R.Implausible = implausibility(K);
  if (!R.Implausible.empty()) {
    R.Explanation = "no recommendation: the profile is implausible (" +
                    R.Implausible + ")";
    return R;
  }
  // A cap on configurations per sweep: shapes (1-D: one per warp up to
  // MaxThreadsPerBlock; 2-D/3-D: at most 8 x 11 x 7) x (1 + min blocks) x
  // power limits. A validated spec file stays below it (docs/SECURITY.md);
  // a GPUSpec built otherwise might not.
  const double MaxSweepConfigs = 4e6;
  if (Opts.SweepClocks)
    R.LockedClocks = lockableClocks(G, Opts.ClockStepMHz);
  double Bound = std::max(616.0, double(G.MaxThreadsPerBlock) /
                                     std::max(1u, G.WarpSize)) *
                 (1.0 + G.MaxBlocksPerSM) *
                 ((Opts.SweepPower ? 1.0 + Opts.PowerSteps : 1.0) +
                  double(R.LockedClocks.size()));
  if (Bound > MaxSweepConfigs) {
    llvm::raw_string_ostream(R.Implausible)
        << "the GPU's limits allow up to " << llvm::format("%.3g", Bound)
        << " configurations, above the cap of 4e6 per sweep";
    R.Explanation = "no recommendation: " + R.Implausible;
    return R;
  }
  std::vector<std::array<unsigned, 3>> Shapes;
  shapes(K, G, R, Shapes);
  R.NumShapes = Shapes.size();

  // Power limits.
  const PowerSpec &PS = G.Power;
  double Def = PS.DefaultLimitW > 0 ? PS.DefaultLimitW : 250;
  double PMin = Opts.PowerMinW > 0 ? Opts.PowerMinW
                : PS.MinLimitW > 0 ? PS.MinLimitW
                                   : Def;
  double PMax = Opts.PowerMaxW > 0 ? Opts.PowerMaxW
                : PS.MaxLimitW > 0 ? PS.MaxLimitW
                                   : Def;
  if (PMax < PMin)
    std::swap(PMin, PMax);
  if (Opts.SweepPower && Opts.PowerSteps >= 2 && PMax > PMin) {
    for (unsigned I = 0; I < Opts.PowerSteps; ++I)
      R.PowerLimits.push_back(PMin + (PMax - PMin) * I / (Opts.PowerSteps - 1));
    bool HasDef = false;
    for (double L : R.PowerLimits)
      HasDef |= std::fabs(L - Def) < 0.5;
    if (!HasDef && Def >= PMin && Def <= PMax) {
      R.PowerLimits.push_back(Def);
      std::sort(R.PowerLimits.begin(), R.PowerLimits.end());
    }
  } else {
    R.PowerLimits.push_back(Def);
  }

  const unsigned Need = K.registersNeeded();
  LaunchConfig Base;
  Base.TotalThreads = Opts.TotalThreads ? Opts.TotalThreads
                                        : Opts.Model.DefaultTotalThreads;
  Base.Grid = Opts.Grid;
  Base.DynamicSharedBytes = K.Res.DynamicSharedBytes;

  std::vector<unsigned> MinBlocks;
  R.Configs.reserve(Shapes.size() * 4 * R.PowerLimits.size() + 1);
  for (const auto &S : Shapes) {
    unsigned B = S[0] * S[1] * S[2];
    MinBlocks.clear();
    MinBlocks.push_back(0);
    if (Opts.SweepMinBlocks) {
      unsigned Prev = std::min(Need, registerCapForBounds(G, B, 1));
      unsigned MaxM = G.MaxBlocksPerSM ? G.MaxBlocksPerSM : 32;
      for (unsigned M = 2; M <= MaxM && uint64_t(M) * B <= G.MaxThreadsPerSM;
           ++M) {
        unsigned Cap = registerCapForBounds(G, B, M);
        if (Cap < 16)
          break;
        unsigned Regs = std::min(Need, Cap);
        if (Regs < Prev) {
          MinBlocks.push_back(M);
          Prev = Regs;
        }
      }
    }
    for (unsigned M : MinBlocks) {
      LaunchConfig C = Base;
      C.Block = S;
      C.MinBlocksPerSM = M;
      predictLimits(K, G, C, R.PowerLimits, Opts.Model, R.Configs);
      // The second lever: the SM clock locked, under the default limit.
      if (!R.LockedClocks.empty()) {
        C.PowerLimitW = Def;
        predictLockedClocks(K, G, C, R.LockedClocks, Opts.Model, R.Configs);
      }
    }
  }

  // The occupancy heuristic: its block size, no min-blocks, default limit.
  std::array<unsigned, 3> HShape = Shapes.front();
  if (!R.ShapeHeld) {
    unsigned MaxB = G.MaxThreadsPerBlock;
    if (unsigned M = K.Bounds.maxThreads())
      MaxB = std::min(MaxB, M);
    HeuristicResult H = occupancyHeuristic(G, Need, K.Res.StaticSharedBytes,
                                           K.Res.DynamicSharedBytes, MaxB);
    if (H.BlockSize)
      HShape = {H.BlockSize, 1, 1};
    // The heuristic's block, if the kernel's own checks reject it, is not a
    // configuration the kernel can run.
    if (!K.Shape.passesChecks(HShape))
      HShape = Shapes.front();
  }
  long HIdx = -1;
  for (size_t I = 0; I < R.Configs.size(); ++I) {
    const LaunchConfig &C = R.Configs[I].Config;
    if (C.Block == HShape && C.MinBlocksPerSM == 0 &&
        C.LockedClockMHz == 0 && std::fabs(C.PowerLimitW - Def) < 0.5) {
      HIdx = long(I);
      break;
    }
  }
  if (HIdx < 0) {
    LaunchConfig C = Base;
    C.Block = HShape;
    C.PowerLimitW = Def;
    R.Configs.push_back(predict(K, G, C, Opts.Model));
    HIdx = long(R.Configs.size() - 1);
  }
  R.Pick.OccupancyHeuristic = size_t(HIdx);
  R.DefaultBlock = HShape;

  // Plausibility: a non-finite prediction, or one longer than MaxTimeS, is
  // not a figure; it is never picked.
  std::string Longest;
  for (Prediction &P : R.Configs) {
    if (!P.Valid)
      continue;
    bool Finite = std::isfinite(P.TimeS) && std::isfinite(P.EnergyJ) &&
                  std::isfinite(P.AvgPowerW);
    if (Finite && P.TimeS <= Opts.MaxTimeS)
      continue;
    std::string Why;
    llvm::raw_string_ostream OS(Why);
    if (Finite)
      OS << "implausible prediction: "
         << llvm::format("%.3g s", P.TimeS) << ", beyond "
         << llvm::format("%.3g s", Opts.MaxTimeS);
    else
      OS << "implausible prediction: not a finite time or energy";
    P.Valid = false;
    P.Invalid = Why;
    if (Longest.empty())
      Longest = Why;
  }

  // Pareto front and picks.
  R.Pareto = paretoFront(R.Configs);
  size_t NValid = 0;
  long Fast = -1, Least = -1, EDP = -1;
  for (size_t I = 0; I < R.Configs.size(); ++I) {
    const Prediction &P = R.Configs[I];
    if (!P.Valid)
      continue;
    ++NValid;
    auto Better = [&](long Cur, double A, double B, double TA, double TB) {
      return Cur < 0 || A < B || (A == B && TA < TB);
    };
    if (Fast < 0 || Better(Fast, P.TimeS, R.Configs[Fast].TimeS, P.EnergyJ,
                           R.Configs[Fast].EnergyJ))
      Fast = long(I);
    if (Least < 0 || Better(Least, P.EnergyJ, R.Configs[Least].EnergyJ,
                            P.TimeS, R.Configs[Least].TimeS))
      Least = long(I);
    if (EDP < 0 || Better(EDP, P.EnergyJ * P.TimeS,
                          R.Configs[EDP].EnergyJ * R.Configs[EDP].TimeS,
                          P.TimeS, R.Configs[EDP].TimeS))
      EDP = long(I);
  }
  if (Fast < 0) {
    R.Explanation = "no configuration can launch";
    if (!Longest.empty()) {
      R.Implausible = "every prediction is implausible (" + Longest +
                      "); check the loop trip counts";
      R.Explanation = "no recommendation: " + R.Implausible;
    } else if (!R.Configs.empty()) {
      R.Explanation += ": " + R.Configs.front().Invalid;
    }
    R.Pick.Fastest = R.Pick.LeastEnergy = R.Pick.BestEDP =
        R.Pick.EnergyWithinBudget = R.Pick.OccupancyHeuristic;
    return R;
  }
  double Budget = R.Configs[Fast].TimeS * (1 + Opts.SlowdownBudgetPct / 100);
  long Within = Fast;
  for (size_t I = 0; I < R.Configs.size(); ++I) {
    const Prediction &P = R.Configs[I];
    if (P.Valid && P.TimeS <= Budget &&
        (P.EnergyJ < R.Configs[Within].EnergyJ ||
         (P.EnergyJ == R.Configs[Within].EnergyJ &&
          P.TimeS < R.Configs[Within].TimeS)))
      Within = long(I);
  }
  R.Pick.Fastest = size_t(Fast);
  R.Pick.LeastEnergy = size_t(Least);
  R.Pick.BestEDP = size_t(EDP);
  R.Pick.EnergyWithinBudget = size_t(Within);
  R.SearchSpaceReduction =
      NValid ? 1 - double(R.Pareto.size()) / double(NValid) : 0;

  // Ties: each pick against the less intrusive configurations.
  R.Advice = R.Pick;
  R.HasAdvice = Opts.ResolveTies;
  if (Opts.ResolveTies) {
    Bands CB = comparisonBands(), LB = leverComparisonBands();
    auto T = [](const Prediction &P) { return P.TimeS; };
    auto E = [](const Prediction &P) { return P.EnergyJ; };
    auto ED = [](const Prediction &P) { return P.EnergyJ * P.TimeS; };
    auto Any = [](const Prediction &) { return true; };
    auto InBudget = [&](const Prediction &P) { return P.TimeS <= Budget; };
    // EDP = P x T^2: its relative error is about 2 dT + dP.
    auto EDPBand = [](const Bands &B) {
      return std::sqrt(4 * B.Time * B.Time + B.Power * B.Power);
    };
    R.Advice.Fastest = resolveTie(R, R.Pick.Fastest, T, CB.Time, LB.Time, Any,
                                  R.TieFastest);
    R.Advice.LeastEnergy = resolveTie(R, R.Pick.LeastEnergy, E, CB.Energy,
                                      LB.Energy, Any, R.TieLeastEnergy);
    R.Advice.EnergyWithinBudget =
        resolveTie(R, R.Pick.EnergyWithinBudget, E, CB.Energy, LB.Energy,
                   InBudget, R.TieBudget);
    R.Advice.BestEDP = resolveTie(R, R.Pick.BestEDP, ED, EDPBand(CB),
                                  EDPBand(LB), Any, R.TieEDP);
  }

  R.ExplainFastest = explainPick(R, Objective::Time, K, G);
  R.ExplainLeastEnergy = explainPick(R, Objective::Energy, K, G);
  R.ExplainBudget = explainPick(R, Objective::EnergyWithinBudget, K, G);
  R.ExplainEDP = explainPick(R, Objective::EDP, K, G);
  R.ExplainHeuristic = explainConfig(R, R.Pick.OccupancyHeuristic, K, G);
  // A pick longer than WarnTimeS stands, with a warning.
  const std::pair<const char *, size_t> Named[] = {
      {"fastest", R.pick(Objective::Time)},
      {"least-energy", R.pick(Objective::Energy)},
      {"energy-within-budget", R.pick(Objective::EnergyWithinBudget)},
      {"best-EDP", R.pick(Objective::EDP)}};
  size_t Slowest = R.pick(Objective::Time);
  const char *SlowestName = "fastest";
  for (const auto &[Name, I] : Named)
    if (R.Configs[I].TimeS > R.Configs[Slowest].TimeS) {
      Slowest = I;
      SlowestName = Name;
    }
  if (R.Configs[Slowest].TimeS > Opts.WarnTimeS) {
    std::string W;
    llvm::raw_string_ostream WS(W);
    WS << "the " << SlowestName << " configuration is predicted to run "
       << llvm::format("%.3g s", R.Configs[Slowest].TimeS) << ", above "
       << llvm::format("%.3g s", Opts.WarnTimeS)
       << ": the figures rest on the profile's trip counts";
    if (!K.Guesses.empty())
      WS << " (guessed: " << K.Guesses.front() << ")";
    R.Warnings.push_back(W);
  }
  llvm::raw_string_ostream OS(R.Explanation);
  OS << NValid << " launchable configurations (" << R.NumShapes
     << " block shapes x register caps x (" << R.PowerLimits.size()
     << " power limits + " << R.LockedClocks.size()
     << " locked clocks)); " << R.Pareto.size() << " are Pareto-optimal ("
     << llvm::format("%.1f%%", R.SearchSpaceReduction * 100)
     << " of the space ruled out)";
  if (R.ShapeHeld)
    OS << "; block shape held: " << R.ShapeReason;
  else if (!R.ShapeReason.empty())
    OS << "; block shapes limited by the code: " << R.ShapeReason;
  // The pick of the objective FF001 names.
  switch (Opts.Obj) {
  case Objective::Time:
    OS << ". Fastest: " << R.ExplainFastest;
    break;
  case Objective::Energy:
    OS << ". Least energy: " << R.ExplainLeastEnergy;
    break;
  case Objective::EDP:
    OS << ". Least energy x delay: " << R.ExplainEDP;
    break;
  case Objective::EnergyWithinBudget:
    OS << ". Least energy within "
       << llvm::format("%.0f%%", Opts.SlowdownBudgetPct)
       << " of the fastest: " << R.ExplainBudget;
    break;
  }
  return R;
}
