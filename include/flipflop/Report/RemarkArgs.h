//===- flipflop/Report/RemarkArgs.h - Remark IDs and argument keys -------===//
//
// The names FlipFlop's remarks carry in an optimization record (YAML), in
// one place for the writer (the plugin, lib/Plugin) and the readers
// (flipflop-apply reads FF001 from a record). docs/remarks/ has a page per
// ID; the keys are part of that interface: renaming one breaks readers.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_REPORT_REMARKARGS_H
#define FLIPFLOP_REPORT_REMARKARGS_H

namespace flipflop {
namespace remark {

/// The remarks' pass name (-Rpass-analysis=flipflop, the record's Pass).
inline constexpr const char *PassName = "flipflop";

/// Remark IDs: the record's Name, "[ID]" at the start of the text, and the
/// page docs/remarks/<ID>.md.
namespace id {
inline constexpr const char *Summary = "FF001";         ///< The pick.
inline constexpr const char *Why = "FF002";             ///< Its explanation.
inline constexpr const char *Pareto = "FF003";          ///< A Pareto point.
inline constexpr const char *ShapeKept = "FF010";       ///< Shape held.
inline constexpr const char *DynamicShared = "FF011";   ///< Unknown size.
inline constexpr const char *GuessedTrips = "FF012";    ///< Guessed loops.
inline constexpr const char *Implausible = "FF013";     ///< No pick.
inline constexpr const char *CheckPrediction = "FF014"; ///< Doubtful pick.
inline constexpr const char *LocalArray = "FF015";      ///< Array on the stack.
inline constexpr const char *Spills = "FF016";          ///< Register spills.
inline constexpr const char *NoWork = "FF017";          ///< Nothing to tune.
inline constexpr const char *AuthorBounds = "FF020";    ///< vs the author.
inline constexpr const char *StatedLaunch = "FF021";    ///< vs the launch.
inline constexpr const char *BoundsApplied = "FF030";   ///< Opt-in bounds.
inline constexpr const char *BoundsKept = "FF031";      ///< Author's kept.
inline constexpr const char *InternalProblem = "FF900";
inline constexpr const char *OptionProblem = "FF901";
inline constexpr const char *ReportProblem = "FF902";
} // namespace id

// Argument keys. The kernel is also the remark's Function (its mangled IR
// name); readers use Kernel (the demangled name) only when it has none.
inline constexpr const char *Kernel = "Kernel";
inline constexpr const char *GPU = "GPU";
inline constexpr const char *Objective = "Objective"; ///< "energy", "time"...
inline constexpr const char *Block = "Block"; ///< "256", "16x16", "8x8x4".
inline constexpr const char *BlockX = "BlockX"; ///< The block by axis.
inline constexpr const char *BlockY = "BlockY";
inline constexpr const char *BlockZ = "BlockZ";
inline constexpr const char *MaxThreads = "MaxThreads"; ///< x*y*z.
inline constexpr const char *MinBlocks = "MinBlocks";   ///< 0: none.
inline constexpr const char *Grid = "Grid";
inline constexpr const char *GridX = "GridX";
inline constexpr const char *GridY = "GridY";
inline constexpr const char *GridZ = "GridZ";
inline constexpr const char *PowerLimitW = "PowerLimitW";
inline constexpr const char *LockedClockMHz = "LockedClockMHz"; ///< If any.
inline constexpr const char *BlockSizeAgnostic = "BlockSizeAgnostic";
/// Shown in the text with their unit ("156.5 us", "20.72 ms", "3.412 s";
/// "22.35 mJ", "62.96 J"); the record keeps the fixed-unit copies below.
inline constexpr const char *Time = "Time";
inline constexpr const char *Energy = "Energy";
inline constexpr const char *TimeUs = "TimeUs";
inline constexpr const char *EnergyMJ = "EnergyMJ";
inline constexpr const char *Bottleneck = "Bottleneck";
inline constexpr const char *Occupancy = "Occupancy"; ///< A fraction.
inline constexpr const char *OccupancyPct = "OccupancyPct";
inline constexpr const char *Registers = "Registers";
inline constexpr const char *RegisterSource = "RegisterSource";
inline constexpr const char *ClockMHz = "ClockMHz";
inline constexpr const char *HeuristicBlock = "HeuristicBlock";
inline constexpr const char *HeuristicGrid = "HeuristicGrid";
inline constexpr const char *HeuristicPowerLimitW = "HeuristicPowerLimitW";
inline constexpr const char *HeuristicTime = "HeuristicTime";
inline constexpr const char *HeuristicEnergy = "HeuristicEnergy";
inline constexpr const char *HeuristicTimeUs = "HeuristicTimeUs";
inline constexpr const char *HeuristicEnergyMJ = "HeuristicEnergyMJ";
inline constexpr const char *EnergyChangePct = "EnergyChangePct";
inline constexpr const char *TimeChangePct = "TimeChangePct";
inline constexpr const char *ProblemThreads = "ProblemThreads";
inline constexpr const char *ArgIndex = "ArgIndex";
inline constexpr const char *ArgValue = "ArgValue";
inline constexpr const char *Guess = "Guess";
inline constexpr const char *MoreGuesses = "MoreGuesses";
inline constexpr const char *GuessedLoops = "GuessedLoops";
// Integer copies of the figures in fixed units (record only).
inline constexpr const char *TimeNs = "TimeNs";
inline constexpr const char *EnergyUJ = "EnergyUJ";
inline constexpr const char *PowerMW = "PowerMW";
inline constexpr const char *PowerLimitMW = "PowerLimitMW";
inline constexpr const char *HeuristicTimeNs = "HeuristicTimeNs";
inline constexpr const char *HeuristicEnergyUJ = "HeuristicEnergyUJ";
inline constexpr const char *HeuristicPowerMW = "HeuristicPowerMW";
inline constexpr const char *HeuristicPowerLimitMW = "HeuristicPowerLimitMW";
// FF002, FF003, FF010, FF014.
inline constexpr const char *Explanation = "Explanation";
inline constexpr const char *Rank = "Rank";
inline constexpr const char *Reason = "Reason";
inline constexpr const char *Warning = "Warning";
// FF020: the author's __launch_bounds__.
inline constexpr const char *AuthorMaxThreads = "AuthorMaxThreads";
inline constexpr const char *AuthorMinBlocks = "AuthorMinBlocks";
inline constexpr const char *AuthorBlock = "AuthorBlock";
inline constexpr const char *AuthorTime = "AuthorTime";
inline constexpr const char *AuthorEnergy = "AuthorEnergy";
inline constexpr const char *AuthorTimeUs = "AuthorTimeUs";
inline constexpr const char *AuthorEnergyMJ = "AuthorEnergyMJ";
inline constexpr const char *AuthorTimeNs = "AuthorTimeNs";
inline constexpr const char *AuthorEnergyUJ = "AuthorEnergyUJ";
inline constexpr const char *Invalid = "Invalid";
// FF021: the stated launch.
inline constexpr const char *LaunchBlock = "LaunchBlock";
inline constexpr const char *LaunchGrid = "LaunchGrid";
inline constexpr const char *LaunchTime = "LaunchTime";
inline constexpr const char *LaunchEnergy = "LaunchEnergy";
inline constexpr const char *LaunchTimeNs = "LaunchTimeNs";
inline constexpr const char *LaunchEnergyUJ = "LaunchEnergyUJ";
// FF015: a per-thread array in local memory.
inline constexpr const char *ArrayBytes = "ArrayBytes";
inline constexpr const char *Holder = "Holder";
inline constexpr const char *Callee = "Callee";
inline constexpr const char *LocalSharePct = "LocalSharePct";
// FF016: register spills.
inline constexpr const char *SpillBytes = "SpillBytes"; ///< Static, as ptxas -v.
inline constexpr const char *SpillSource = "SpillSource"; ///< ptxas/estimated.
inline constexpr const char *SpillBytesPerThread = "SpillBytesPerThread";
inline constexpr const char *SpillSharePct = "SpillSharePct";
/// FF016: loaded values held across the blocks that read them
/// (KernelProfile::Held), and the most blocks that read one.
inline constexpr const char *HeldLoads = "HeldLoads";
inline constexpr const char *HeldLoadReaders = "HeldLoadReaders";
// FF013, FF900..FF902.
inline constexpr const char *Problem = "Problem";

} // namespace remark
} // namespace flipflop

#endif
