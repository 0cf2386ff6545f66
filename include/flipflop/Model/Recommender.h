//===- flipflop/Model/Recommender.h - Configuration space, Pareto, picks ---===//
#ifndef FLIPFLOP_MODEL_RECOMMENDER_H
#define FLIPFLOP_MODEL_RECOMMENDER_H

#include "flipflop/Model/Model.h"
#include <optional>
#include <string>
#include <vector>

namespace flipflop {

enum class Objective : unsigned { Energy, Time, EDP, EnergyWithinBudget };
const char *objectiveName(Objective O);
/// Parses "energy", "time", "edp", "energy-within:5" / "energy<=5%".
bool parseObjective(const std::string &S, Objective &O, double &BudgetPct);

struct SweepOptions {
  ModelOptions Model;
  uint64_t TotalThreads = 0;        ///< 0: Model.DefaultTotalThreads.
  std::array<unsigned, 3> Grid{0, 0, 0}; ///< Known grid (launch facts).
  double PowerMinW = 0, PowerMaxW = 0; ///< 0: the GPU's range.
  unsigned PowerSteps = 8;          ///< Power limits considered.
  double SlowdownBudgetPct = 5;     ///< For EnergyWithinBudget.
  bool SweepPower = true;
  /// Sweep the second lever, a locked SM clock (nvidia-smi -lgc F,F), side
  /// by side with the power limits: the GPU's settable clocks from
  /// MinClockMHz to its top clock, every ClockStepMHz (multiples of it) plus
  /// both ends, each under the default power limit.
  bool SweepClocks = true;
  double ClockStepMHz = 100;
  bool SweepMinBlocks = true;
  /// Ties (docs/MODEL.md "Levers, bands and ties"): a pick whose advantage
  /// over a less intrusive configuration lies inside the comparison band
  /// gives way to the least intrusive one. Off: the picks are the model's
  /// strict optima.
  bool ResolveTies = true;
  /// The objective whose pick the whole-kernel explanation ends with (the
  /// pick FF001 names).
  Objective Obj = Objective::EnergyWithinBudget;
  /// Plausibility (docs/MODEL.md "Plausibility"): a prediction longer than
  /// MaxTimeS (or not finite) is invalid and never picked; a pick longer
  /// than WarnTimeS stands but carries a warning.
  double WarnTimeS = 3600, MaxTimeS = 86400;
};

/// Named picks: indices into SweepResult::Configs.
struct Picks {
  size_t Fastest = 0, LeastEnergy = 0, EnergyWithinBudget = 0, BestEDP = 0,
         OccupancyHeuristic = 0;
};

/// A pick decided by a tie: the model's optimum (Optimum) is better than
/// the recommended configuration by AdvantagePct, which lies inside the
/// comparison band (BandPct), and the recommended one is less intrusive.
struct PickTie {
  bool Tied = false;
  size_t Optimum = 0;
  double AdvantagePct = 0, BandPct = 0;
};

/// How intrusive a configuration is to apply (the order that breaks ties):
/// one point each for a lever (power limit or locked clock: root, device-
/// wide), a block other than \p DefaultBlock (a code or launch change) and a
/// register cap (__launch_bounds__ min blocks).
unsigned intrusiveness(const Prediction &P,
                       const std::array<unsigned, 3> &DefaultBlock);

/// The relative half-widths of the bands of a prediction (docs/MODEL.md
/// "Levers, bands and ties"): absolute figures, and comparisons of two
/// configurations of one kernel on one GPU (which decide ties).
struct Bands {
  double Time = 0, Power = 0, Energy = 0;
};
Bands absoluteBands();
/// Two configurations whose code differs (block or register cap).
Bands comparisonBands();
/// Two configurations with the same code and another lever (only the clock
/// scaling and the power curve differ between them).
Bands leverComparisonBands();
/// [lo, hi] of \p V with relative half-width \p Rel.
std::array<double, 2> band(double V, double Rel);

/// How to apply a lever: the nvidia-smi command, the NVML call, how to undo
/// it, and whether it needs root/admin (every lever does; "none" does not).
struct LeverCommand {
  std::string Lever;   ///< "none", "power_limit", "locked_clock".
  double Value = 0;    ///< W or MHz.
  std::string Unit;    ///< "W", "MHz" or "".
  std::string Command, NVML, Reset;
  bool NeedsRoot = false;
};
LeverCommand leverCommand(const Prediction &P, const GPUSpec &GPU);
/// From a report's fields (lever name, value, the GPU's default limit).
LeverCommand leverCommand(const std::string &Lever, double Value,
                          double DefaultLimitW);
/// What a sweep came to; the report layer words it (flipflop/Report/
/// Explain.h: explainSweep()).
enum class SweepStatus : unsigned {
  NotSwept,           ///< Filled in by a caller, not by sweep().
  GivenConfig,        ///< One configuration the user gave, not a sweep.
  Swept,              ///< Picks made.
  ImplausibleProfile, ///< The profile's counts are outside physical bounds.
  SpaceTooLarge,      ///< The GPU's limits allow too many configurations.
  NoneLaunchable,     ///< No configuration can launch.
  AllImplausible,     ///< Every prediction is implausible.
  NoWork,             ///< The kernel does no work (doesNoWork): no picks.
};

/// What decided the block shapes the sweep tried (the report layer's
/// shapeReason() words it with the profile's ShapeInfo and LaunchBounds).
enum class ShapeSource : unsigned {
  Free,        ///< Every shape the GPU and the kernel's bounds allow.
  Required,    ///< The kernel's reqntid.
  Checks,      ///< Checks of blockDim in the code (ShapeInfo::CheckFacts).
  Tile,        ///< A shared tile's shape (ShapeInfo::FixedBlock).
  TileBounds,  ///< A tile of unknown shape: __launch_bounds__' threads.
  TileUnknown, ///< A tile of unknown shape: 256 threads assumed.
};

struct SweepResult {
  std::vector<Prediction> Configs;
  std::vector<size_t> Pareto;       ///< Sorted by time.
  Picks Pick;
  double SearchSpaceReduction = 0;  ///< 1 - |Pareto| / |space|.
  SweepStatus Status = SweepStatus::NotSwept;
  /// True when the block shape was held at the author's (fixed by a tile,
  /// reqntid, or unknown); Shape says by what. When checks in the code
  /// narrow the shapes without fixing one, ShapeHeld is false and Shape is
  /// ShapeSource::Checks.
  bool ShapeHeld = false;
  ShapeSource Shape = ShapeSource::Free;
  /// SweepOptions::Obj and SlowdownBudgetPct: the pick the whole-kernel
  /// explanation ends with.
  Objective Obj = Objective::EnergyWithinBudget;
  double SlowdownBudgetPct = 5;
  /// Non-empty when the profile's counts or every prediction are outside
  /// physical bounds: the figures are unknown, no configuration is picked
  /// (Configs is empty, or none is valid) and this says why. A diagnostic
  /// (the driver adds it to the kernel's warnings), like Prediction::Invalid.
  std::string Implausible;
  /// Plausibility warnings about the picks (e.g. longer than an hour); the
  /// recommendation stands.
  std::vector<std::string> Warnings;
  /// Pick holds the model's strict optima. Advice holds the recommended
  /// configurations after ties (HasAdvice; SweepOptions::ResolveTies): the
  /// optimum, or a less intrusive configuration whose disadvantage lies
  /// inside the comparison band. The heuristic is the same in both.
  Picks Advice;
  bool HasAdvice = false;
  PickTie TieFastest, TieLeastEnergy, TieBudget, TieEDP;
  const PickTie &tie(Objective O) const;
  /// The recommended configuration for \p O (Advice, else Pick).
  size_t pick(Objective O) const;
  /// Predicted energy saving of Configs[I] against the occupancy heuristic
  /// in percent (positive: less energy), and its speedup (heuristic time /
  /// this time).
  double energySavingPct(size_t I) const;
  double speedup(size_t I) const;
  /// Register caps and power limits the sweep enumerated (for reports).
  std::vector<double> PowerLimits;
  /// Locked SM clocks the sweep enumerated (MHz, ascending).
  std::vector<double> LockedClocks;
  /// The default block: the occupancy heuristic's (the author's when the
  /// shape is held); least intrusive in a tie.
  std::array<unsigned, 3> DefaultBlock{0, 0, 0};
  size_t NumShapes = 0;
};

/// Enumerates the configuration space of \p K on \p GPU and chooses.
SweepResult sweep(const KernelProfile &K, const GPUSpec &GPU,
                  const SweepOptions &Opts = {});

/// The locked clocks swept on \p GPU: the settable range's ends and every
/// multiple of \p StepMHz between them.
std::vector<double> lockableClocks(const GPUSpec &GPU, double StepMHz = 100);

/// Indices of the (time, energy) Pareto-optimal points, sorted by time.
std::vector<size_t> paretoFront(const std::vector<Prediction> &Ps);

/// The configurations an explanation of Configs[I] compares it with
/// (indices into Configs; -1: none): the same cap, limit and clock with a
/// block half or twice as large (the same y extent preferred; none when the
/// shape is held), and the same block and cap under the sweep's next lower
/// power limit (LowerLimitW; none under a locked clock).
struct ConfigNeighbours {
  long HalfBlock = -1, DoubleBlock = -1, LowerLimit = -1;
  double LowerLimitW = 0;
};
ConfigNeighbours configNeighbours(const SweepResult &R, size_t I);

} // namespace flipflop

#endif
