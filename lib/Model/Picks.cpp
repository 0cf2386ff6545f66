//===- Picks.cpp - Objectives, Pareto front, picks and ties ---------------===//
//
// The (time, energy) Pareto front, the named picks (fastest, least energy,
// least energy within a slowdown budget, least energy x delay), the ties
// that let a less intrusive configuration stand in for an optimum inside
// the comparison band, and the neighbours an explanation compares a
// configuration with. docs/MODEL.md section 4.
//
//===----------------------------------------------------------------------===//
#include "SweepImpl.h"
#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace flipflop;
using namespace flipflop::sweepimpl;

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

/// The valid configuration with \p Threads threads, \p MinBlocks and
/// \p Limit under \p P's locked clock; the one with \p P's y extent if
/// there are several.
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

ConfigNeighbours flipflop::configNeighbours(const SweepResult &R, size_t I) {
  ConfigNeighbours N;
  if (I >= R.Configs.size())
    return N;
  const Prediction &P = R.Configs[I];
  const LaunchConfig &C = P.Config;
  unsigned B = C.blockThreads();
  if (!R.ShapeHeld) {
    N.HalfBlock = findNeighbour(R, P, B / 2, C.MinBlocksPerSM, C.PowerLimitW);
    N.DoubleBlock = findNeighbour(R, P, B * 2, C.MinBlocksPerSM, C.PowerLimitW);
  }
  // The next lower power limit.
  double Lower = -1;
  if (C.LockedClockMHz == 0)
    for (double L : R.PowerLimits)
      if (L < C.PowerLimitW - 1e-6 && L > Lower)
        Lower = L;
  if (Lower > 0) {
    for (size_t J = 0; J < R.Configs.size(); ++J) {
      const Prediction &X = R.Configs[J];
      if (X.Valid && X.Config.Block == C.Block &&
          X.Config.MinBlocksPerSM == C.MinBlocksPerSM &&
          X.Config.LockedClockMHz == 0 &&
          std::fabs(X.Config.PowerLimitW - Lower) < 1e-6) {
        N.LowerLimit = long(J);
        N.LowerLimitW = Lower;
        break;
      }
    }
  }
  return N;
}

//===----------------------------------------------------------------------===//
// Picks and ties.
//===----------------------------------------------------------------------===//

StrictPicks sweepimpl::strictPicks(const std::vector<Prediction> &Cs) {
  StrictPicks S;
  long &Fast = S.Fast, &Least = S.Least, &EDP = S.EDP;
  for (size_t I = 0; I < Cs.size(); ++I) {
    const Prediction &P = Cs[I];
    if (!P.Valid)
      continue;
    ++S.NValid;
    auto Better = [&](long Cur, double A, double B, double TA, double TB) {
      return Cur < 0 || A < B || (A == B && TA < TB);
    };
    if (Fast < 0 || Better(Fast, P.TimeS, Cs[Fast].TimeS, P.EnergyJ,
                           Cs[Fast].EnergyJ))
      Fast = long(I);
    if (Least < 0 || Better(Least, P.EnergyJ, Cs[Least].EnergyJ, P.TimeS,
                            Cs[Least].TimeS))
      Least = long(I);
    if (EDP < 0 || Better(EDP, P.EnergyJ * P.TimeS,
                          Cs[EDP].EnergyJ * Cs[EDP].TimeS, P.TimeS,
                          Cs[EDP].TimeS))
      EDP = long(I);
  }
  return S;
}

long sweepimpl::budgetPick(const std::vector<Prediction> &Cs, long Fast,
                           double BudgetS) {
  long Within = Fast;
  for (size_t I = 0; I < Cs.size(); ++I) {
    const Prediction &P = Cs[I];
    if (P.Valid && P.TimeS <= BudgetS &&
        (P.EnergyJ < Cs[Within].EnergyJ ||
         (P.EnergyJ == Cs[Within].EnergyJ && P.TimeS < Cs[Within].TimeS)))
      Within = long(I);
  }
  return Within;
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

void sweepimpl::resolveTies(SweepResult &R, double BudgetS) {
  Bands CB = comparisonBands(), LB = leverComparisonBands();
  auto T = [](const Prediction &P) { return P.TimeS; };
  auto E = [](const Prediction &P) { return P.EnergyJ; };
  auto ED = [](const Prediction &P) { return P.EnergyJ * P.TimeS; };
  auto Any = [](const Prediction &) { return true; };
  auto InBudget = [&](const Prediction &P) { return P.TimeS <= BudgetS; };
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
