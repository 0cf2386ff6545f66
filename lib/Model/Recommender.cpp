//===- Recommender.cpp - The sweep: configuration space to picks ----------===//
//
// sweep() enumerates the launch configurations a kernel supports (block
// shapes, register caps that actually differ, power limits, locked clocks),
// predicts each with predict(), and chooses: the (time, energy) Pareto
// front, the named picks, NVIDIA's occupancy heuristic as the baseline, and
// the ties that let a less intrusive configuration stand in for an optimum.
// It returns facts; the report layer words them (flipflop/Report/Explain.h).
// See docs/MODEL.md "Recommender".
//
//===----------------------------------------------------------------------===//
#include "SweepImpl.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>

using namespace flipflop;
using namespace flipflop::sweepimpl;

/// Why the GPU's limits allow too many configurations for one sweep; empty
/// when they do not. The cap: shapes (1-D: one per warp up to
/// MaxThreadsPerBlock; 2-D/3-D: at most 8 x 11 x 7) x (1 + min blocks) x
/// (power limits + locked clocks). A validated spec file stays below it
/// (docs/SECURITY.md); a GPUSpec built otherwise might not.
static std::string spaceTooLarge(const GPUSpec &G, const SweepOptions &Opts,
                                 size_t NumClocks) {
  const double MaxSweepConfigs = 4e6;
  double Bound = std::max(616.0, double(G.MaxThreadsPerBlock) /
                                     std::max(1u, G.WarpSize)) *
                 (1.0 + G.MaxBlocksPerSM) *
                 ((Opts.SweepPower ? 1.0 + Opts.PowerSteps : 1.0) +
                  double(NumClocks));
  std::string Why;
  if (Bound > MaxSweepConfigs)
    llvm::raw_string_ostream(Why)
        << "the GPU's limits allow up to " << llvm::format("%.3g", Bound)
        << " configurations, above the cap of 4e6 per sweep";
  return Why;
}

/// The GPU's default power limit (250 W when the spec has none).
static double defaultLimit(const GPUSpec &G) {
  return G.Power.DefaultLimitW > 0 ? G.Power.DefaultLimitW : 250;
}

/// The power limits to sweep: PowerSteps evenly over the range, plus the
/// default limit; only the default when power is not swept.
static std::vector<double> powerLimits(const GPUSpec &G,
                                       const SweepOptions &Opts) {
  const PowerSpec &PS = G.Power;
  double Def = defaultLimit(G);
  double PMin = Opts.PowerMinW > 0 ? Opts.PowerMinW
                : PS.MinLimitW > 0 ? PS.MinLimitW
                                   : Def;
  double PMax = Opts.PowerMaxW > 0 ? Opts.PowerMaxW
                : PS.MaxLimitW > 0 ? PS.MaxLimitW
                                   : Def;
  if (PMax < PMin)
    std::swap(PMin, PMax);
  std::vector<double> Limits;
  if (Opts.SweepPower && Opts.PowerSteps >= 2 && PMax > PMin) {
    for (unsigned I = 0; I < Opts.PowerSteps; ++I)
      Limits.push_back(PMin + (PMax - PMin) * I / (Opts.PowerSteps - 1));
    bool HasDef = false;
    for (double L : Limits)
      HasDef |= std::fabs(L - Def) < 0.5;
    if (!HasDef && Def >= PMin && Def <= PMax) {
      Limits.push_back(Def);
      std::sort(Limits.begin(), Limits.end());
    }
  } else {
    Limits.push_back(Def);
  }
  return Limits;
}

/// __launch_bounds__ min blocks per SM to try with \p B threads: 0, then
/// every m >= 2 whose cap lowers the registers of a kernel that needs
/// \p Need (caps below 16 are not considered).
static std::vector<unsigned> minBlocksFor(const GPUSpec &G, unsigned Need,
                                          unsigned B, bool Sweep) {
  std::vector<unsigned> MinBlocks{0};
  if (!Sweep)
    return MinBlocks;
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
  return MinBlocks;
}

/// Predicts every configuration of \p Shapes x min blocks x (R.PowerLimits
/// + R.LockedClocks under the default limit \p Def) into R.Configs.
static void predictSpace(const KernelProfile &K, const GPUSpec &G,
                         const SweepOptions &Opts, const LaunchConfig &Base,
                         const std::vector<std::array<unsigned, 3>> &Shapes,
                         double Def, SweepResult &R) {
  const unsigned Need = K.registersNeeded();
  R.Configs.reserve(Shapes.size() * 4 * R.PowerLimits.size() + 1);
  for (const auto &S : Shapes) {
    unsigned B = S[0] * S[1] * S[2];
    for (unsigned M : minBlocksFor(G, Need, B, Opts.SweepMinBlocks)) {
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
}

/// The occupancy heuristic's block: NVIDIA's block size, unless the shape
/// is held or the kernel's own checks reject it.
static std::array<unsigned, 3>
heuristicShape(const KernelProfile &K, const GPUSpec &G,
               const std::vector<std::array<unsigned, 3>> &Shapes, bool Held) {
  std::array<unsigned, 3> HShape = Shapes.front();
  if (Held)
    return HShape;
  unsigned MaxB = G.MaxThreadsPerBlock;
  if (unsigned M = K.Bounds.maxThreads())
    MaxB = std::min(MaxB, M);
  HeuristicResult H =
      occupancyHeuristic(G, K.registersNeeded(), K.Res.StaticSharedBytes,
                         K.Res.DynamicSharedBytes, MaxB, /*Carveout=*/-1,
                         K.Res.DynamicSharedPerThread);
  if (H.BlockSize)
    HShape = {H.BlockSize, 1, 1};
  // The heuristic's block, if the kernel's own checks reject it, is not a
  // configuration the kernel can run.
  if (!K.Shape.passesChecks(HShape))
    HShape = Shapes.front();
  return HShape;
}

/// The index of the occupancy heuristic's configuration (\p HShape, no min
/// blocks, the default limit \p Def), predicted into R.Configs when the
/// sweep did not hold it.
static size_t heuristicIndex(const KernelProfile &K, const GPUSpec &G,
                             const SweepOptions &Opts, const LaunchConfig &Base,
                             const std::array<unsigned, 3> &HShape, double Def,
                             SweepResult &R) {
  for (size_t I = 0; I < R.Configs.size(); ++I) {
    const LaunchConfig &C = R.Configs[I].Config;
    if (C.Block == HShape && C.MinBlocksPerSM == 0 &&
        C.LockedClockMHz == 0 && std::fabs(C.PowerLimitW - Def) < 0.5)
      return I;
  }
  LaunchConfig C = Base;
  C.Block = HShape;
  C.PowerLimitW = Def;
  R.Configs.push_back(predict(K, G, C, Opts.Model));
  return R.Configs.size() - 1;
}

/// Plausibility: a non-finite prediction, or one longer than \p MaxTimeS,
/// is not a figure; it becomes invalid and is never picked. Returns the
/// first such reason (empty: none).
static std::string markImplausible(std::vector<Prediction> &Cs,
                                   double MaxTimeS) {
  std::string First;
  for (Prediction &P : Cs) {
    if (!P.Valid)
      continue;
    bool Finite = std::isfinite(P.TimeS) && std::isfinite(P.EnergyJ) &&
                  std::isfinite(P.AvgPowerW);
    if (Finite && P.TimeS <= MaxTimeS)
      continue;
    std::string Why;
    llvm::raw_string_ostream OS(Why);
    if (Finite)
      OS << "implausible prediction: "
         << llvm::format("%.3g s", P.TimeS) << ", beyond "
         << llvm::format("%.3g s", MaxTimeS);
    else
      OS << "implausible prediction: not a finite time or energy";
    P.Valid = false;
    P.Invalid = Why;
    if (First.empty())
      First = Why;
  }
  return First;
}

/// A recommended configuration longer than WarnTimeS stands, with a
/// warning naming the slowest of them.
static void warnLongPicks(const KernelProfile &K, const SweepOptions &Opts,
                          SweepResult &R) {
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
  if (!(R.Configs[Slowest].TimeS > Opts.WarnTimeS))
    return;
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

/// Picks over the predicted configurations: the strict optima, the budget
/// pick, the search-space reduction and the ties. When nothing valid is
/// left every pick is the heuristic and R.Status says why.
static void choose(const SweepOptions &Opts, const std::string &Implausible,
                   SweepResult &R) {
  R.Pareto = paretoFront(R.Configs);
  StrictPicks SP = strictPicks(R.Configs);
  if (SP.Fast < 0) {
    R.Status = SweepStatus::NoneLaunchable;
    if (!Implausible.empty()) {
      R.Status = SweepStatus::AllImplausible;
      R.Implausible = "every prediction is implausible (" + Implausible +
                      "); check the loop trip counts";
    }
    R.Pick.Fastest = R.Pick.LeastEnergy = R.Pick.BestEDP =
        R.Pick.EnergyWithinBudget = R.Pick.OccupancyHeuristic;
    return;
  }
  double Budget =
      R.Configs[SP.Fast].TimeS * (1 + Opts.SlowdownBudgetPct / 100);
  R.Pick.Fastest = size_t(SP.Fast);
  R.Pick.LeastEnergy = size_t(SP.Least);
  R.Pick.BestEDP = size_t(SP.EDP);
  R.Pick.EnergyWithinBudget = size_t(budgetPick(R.Configs, SP.Fast, Budget));
  R.SearchSpaceReduction =
      SP.NValid ? 1 - double(R.Pareto.size()) / double(SP.NValid) : 0;
  // Ties: each pick against the less intrusive configurations.
  R.Advice = R.Pick;
  R.HasAdvice = Opts.ResolveTies;
  if (Opts.ResolveTies)
    resolveTies(R, Budget);
  R.Status = SweepStatus::Swept;
}

SweepResult flipflop::sweep(const KernelProfile &K, const GPUSpec &G,
                            const SweepOptions &Opts) {
  SweepResult R;
  R.Obj = Opts.Obj;
  R.SlowdownBudgetPct = Opts.SlowdownBudgetPct;
  // Counts outside physical bounds give figures that mean nothing: no
  // configuration is predicted, so none can be recommended.
  R.Implausible = implausibility(K);
  if (!R.Implausible.empty()) {
    R.Status = SweepStatus::ImplausibleProfile;
    return R;
  }
  // A kernel that does nothing costs the launch at every configuration:
  // nothing to choose, and a clock or power setting picked for it would
  // only slow the kernels around it.
  if (doesNoWork(K)) {
    R.Status = SweepStatus::NoWork;
    return R;
  }
  if (Opts.SweepClocks)
    R.LockedClocks = lockableClocks(G, Opts.ClockStepMHz);
  R.Implausible = spaceTooLarge(G, Opts, R.LockedClocks.size());
  if (!R.Implausible.empty()) {
    R.Status = SweepStatus::SpaceTooLarge;
    return R;
  }
  ShapeChoice SC = chooseShapes(K, G);
  R.ShapeHeld = SC.Held;
  R.Shape = SC.Source;
  R.NumShapes = SC.Shapes.size();
  R.PowerLimits = powerLimits(G, Opts);
  const double Def = defaultLimit(G);

  LaunchConfig Base;
  // A grid-stride loop's stated elements stand for the problem size
  // (gridPlan) where none is given.
  bool Elements = gridStrideElements(K) > 0;
  Base.TotalThreads = Opts.TotalThreads ? Opts.TotalThreads
                      : Elements        ? 0
                                        : Opts.Model.DefaultTotalThreads;
  Base.Grid = Opts.Grid;
  predictSpace(K, G, Opts, Base, SC.Shapes, Def, R);

  // The occupancy heuristic: its block size, no min-blocks, default limit.
  std::array<unsigned, 3> HShape =
      heuristicShape(K, G, SC.Shapes, R.ShapeHeld);
  R.Pick.OccupancyHeuristic = heuristicIndex(K, G, Opts, Base, HShape, Def, R);
  R.DefaultBlock = HShape;

  std::string Implausible = markImplausible(R.Configs, Opts.MaxTimeS);
  choose(Opts, Implausible, R);
  if (R.Status == SweepStatus::Swept)
    warnLongPicks(K, Opts, R);
  return R;
}
