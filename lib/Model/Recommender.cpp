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
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace flipflop;

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
  switch (O) {
  case Objective::Energy: return Pick.LeastEnergy;
  case Objective::Time: return Pick.Fastest;
  case Objective::EDP: return Pick.BestEDP;
  case Objective::EnergyWithinBudget: return Pick.EnergyWithinBudget;
  }
  return Pick.EnergyWithinBudget;
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
        std::fabs(Q.Config.PowerLimitW - Limit) > 1e-6)
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
  OS << ", " << llvm::format("%.0f", P.PowerLimitW) << " W limit: ";
  printTime(OS, P.TimeS);
  OS << ", ";
  printEnergy(OS, P.EnergyJ);
  OS << llvm::format(" (%.0f W at %.0f MHz)", P.AvgPowerW, P.ClockMHz);
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
  if (P.PowerCapped)
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
  for (double L : R.PowerLimits)
    if (L < C.PowerLimitW - 1e-6 && L > Lower)
      Lower = L;
  if (Lower > 0) {
    long Q = -1;
    for (size_t J = 0; J < R.Configs.size(); ++J) {
      const Prediction &X = R.Configs[J];
      if (X.Valid && X.Config.Block == C.Block &&
          X.Config.MinBlocksPerSM == C.MinBlocksPerSM &&
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

//===----------------------------------------------------------------------===//
// The sweep.
//===----------------------------------------------------------------------===//


static void shapes(const KernelProfile &K, const GPUSpec &G, SweepResult &R,
                   std::vector<std::array<unsigned, 3>> &Out) {
  const LaunchBounds &LB = K.Bounds;
  if (LB.ReqNTid[0]) {
    R.ShapeHeld = true;
    std::array<unsigned, 3> S{LB.ReqNTid[0], std::max(1u, LB.ReqNTid[1]),
                              std::max(1u, LB.ReqNTid[2])};
    std::string Txt;
    llvm::raw_string_ostream OS(Txt);
    OS << "the kernel requires blockDim = (" << S[0] << ", " << S[1] << ", "
       << S[2] << ") (reqntid); only register caps and power limits are tuned";
    R.ShapeReason = Txt;
    Out.push_back(S);
    return;
  }
  if (K.Shape.FixedByTile) {
    R.ShapeHeld = true;
    std::array<unsigned, 3> S{K.Shape.FixedBlock[0],
                              std::max(1u, K.Shape.FixedBlock[1]),
                              std::max(1u, K.Shape.FixedBlock[2])};
    std::string Why = K.Shape.FixedReason.empty()
                          ? "a shared-memory tile indexed by threadIdx fixes "
                            "the block shape"
                          : K.Shape.FixedReason;
    if (!S[0]) {
      unsigned M = LB.maxThreads();
      S = {M ? M : 256u, 1, 1};
      Why += M ? "; shape taken from __launch_bounds__"
               : "; the shape is unknown, 256 threads assumed";
    }
    R.ShapeReason = Why + "; only register caps and power limits are tuned";
    Out.push_back(S);
    return;
  }
  unsigned MaxB = G.MaxThreadsPerBlock ? G.MaxThreadsPerBlock : 1024;
  if (unsigned M = LB.maxThreads())
    MaxB = std::min(MaxB, M);
  unsigned WS = G.WarpSize ? G.WarpSize : 32;
  bool Y = K.Shape.UsesTid[1] || K.Shape.ReadsNTid[1];
  bool Z = K.Shape.UsesTid[2] || K.Shape.ReadsNTid[2];
  if (!Y && !Z) {
    for (unsigned B = WS; B <= MaxB; B += WS)
      Out.push_back({B, 1, 1});
    if (Out.empty())
      Out.push_back({MaxB, 1, 1});
    return;
  }
  for (unsigned X = 8; X <= 1024; X *= 2)
    for (unsigned YY = 1; YY <= (Y ? 1024u : 1u); YY *= 2)
      for (unsigned ZZ = 1; ZZ <= (Z ? 64u : 1u); ZZ *= 2) {
        unsigned P = X * YY * ZZ;
        if (P % WS == 0 && P <= MaxB)
          Out.push_back({X, YY, ZZ});
      }
  if (Out.empty())
    Out.push_back({MaxB, 1, 1});
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
  double Bound = std::max(616.0, double(G.MaxThreadsPerBlock) /
                                     std::max(1u, G.WarpSize)) *
                 (1.0 + G.MaxBlocksPerSM) *
                 (Opts.SweepPower ? 1.0 + Opts.PowerSteps : 1.0);
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
  }
  long HIdx = -1;
  for (size_t I = 0; I < R.Configs.size(); ++I) {
    const LaunchConfig &C = R.Configs[I].Config;
    if (C.Block == HShape && C.MinBlocksPerSM == 0 &&
        std::fabs(C.PowerLimitW - Def) < 0.5) {
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

  R.ExplainFastest = explainConfig(R, R.Pick.Fastest, K, G);
  R.ExplainLeastEnergy = explainConfig(R, R.Pick.LeastEnergy, K, G);
  R.ExplainBudget = explainConfig(R, R.Pick.EnergyWithinBudget, K, G);
  R.ExplainEDP = explainConfig(R, R.Pick.BestEDP, K, G);
  R.ExplainHeuristic = explainConfig(R, R.Pick.OccupancyHeuristic, K, G);
  // A pick longer than WarnTimeS stands, with a warning.
  const std::pair<const char *, size_t> Named[] = {
      {"fastest", R.Pick.Fastest},
      {"least-energy", R.Pick.LeastEnergy},
      {"energy-within-budget", R.Pick.EnergyWithinBudget},
      {"best-EDP", R.Pick.BestEDP}};
  size_t Slowest = R.Pick.Fastest;
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
     << " block shapes x register caps x " << R.PowerLimits.size()
     << " power limits); " << R.Pareto.size() << " are Pareto-optimal ("
     << llvm::format("%.1f%%", R.SearchSpaceReduction * 100)
     << " of the space ruled out)";
  if (R.ShapeHeld)
    OS << "; block shape held: " << R.ShapeReason;
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
