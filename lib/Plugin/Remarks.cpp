//===- Remarks.cpp - FlipFlop's remarks and warnings ----------------------===//
//
// The remarks' text and arguments (docs/remarks/), their location, and the
// warnings of FlipFlop's own problems.
//
//===----------------------------------------------------------------------===//
#include "Remarks.h"
#include "PluginImpl.h"

#include "flipflop/Plugin/Options.h"
#include "flipflop/Report/Explain.h"
#include "flipflop/Support/BlockShape.h"
#include "flipflop/Support/Units.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>

using namespace llvm;

namespace flipflop {

//===----------------------------------------------------------------------===//
// Location
//===----------------------------------------------------------------------===//

namespace {

/// The unqualified name of a function as written in the source ("saxpy",
/// "conv2dTiled" for conv2dTiled<1>), or the symbol itself (extern "C").
std::string sourceBaseName(StringRef Symbol) {
  std::string Mangled = Symbol.str();
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Mangled.c_str()))
    return Mangled;
  size_t N = 0;
  char *Buf = D.getFunctionBaseName(nullptr, &N);
  if (!Buf)
    return Mangled;
  std::string Base(Buf);
  std::free(Buf);
  return Base;
}

/// 1-based column of the first whole-word \p Name in \p Line, or 0.
unsigned nameColumn(StringRef Line, StringRef Name) {
  auto IsIdent = [](char C) { return isAlnum(C) || C == '_'; };
  for (size_t Pos = Line.find(Name); !Name.empty() && Pos != StringRef::npos;
       Pos = Line.find(Name, Pos + 1)) {
    size_t End = Pos + Name.size();
    if ((Pos == 0 || !IsIdent(Line[Pos - 1])) &&
        (End == Line.size() || !IsIdent(Line[End])))
      return static_cast<unsigned>(Pos + 1);
  }
  return 0;
}

} // namespace

StringRef SourceCache::line(StringRef Path, unsigned Line) {
  auto [It, New] = Files.try_emplace(Path);
  if (New && sys::fs::is_regular_file(Path)) {
    uint64_t Size = 0;
    // The compiler has just read it; anything huge is not worth a caret.
    if (!sys::fs::file_size(Path, Size) && Size < (64u << 20))
      if (auto B = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false))
        It->second = std::move(*B);
  }
  if (!It->second || Line == 0)
    return "";
  StringRef Rest = It->second->getBuffer();
  for (unsigned I = 1; I < Line && !Rest.empty(); ++I)
    Rest = Rest.split('\n').second;
  return Rest.split('\n').first;
}

/// The line of the name is the subprogram's declaration line (LLVM's
/// default is the scope line, the line of the opening brace, which for a
/// signature spanning lines is a continuation line); the column of the name
/// puts clang's caret on it. No debug info: an invalid location, for which
/// clang itself points at the function's declaration.
DiagnosticLocation kernelLocation(const Function &F, SourceCache &Sources) {
  const DISubprogram *SP = F.getSubprogram();
  if (!SP || !SP->getLine())
    return DiagnosticLocation(SP);
  SmallString<256> Path;
  StringRef File = SP->getFilename();
  if (!sys::path::is_absolute(File) && !SP->getDirectory().empty())
    Path = SP->getDirectory();
  sys::path::append(Path, File);
  unsigned Column = nameColumn(Sources.line(Path, SP->getLine()),
                               sourceBaseName(F.getName()));
  // A location node only: it is attached to nothing, so the IR and the
  // generated code are unchanged.
  return DiagnosticLocation(DebugLoc(DILocation::get(
      F.getContext(), SP->getLine(), Column, const_cast<DISubprogram *>(SP))));
}

//===----------------------------------------------------------------------===//
// Warnings: FlipFlop's own problems (FF900..FF902) said without any -R flag
//===----------------------------------------------------------------------===//

namespace {

/// What the compiler's command line says about warnings of clang's
/// backend-plugin group, where FlipFlop's warnings land
/// (DiagnosticInfoGeneric with DS_Warning becomes warn_fe_backend_plugin).
/// A pass plugin cannot ask clang's DiagnosticsEngine, so the command line
/// of the process is read: the clang driver running cc1 in process, or cc1
/// itself (Linux: /proc/self/cmdline; elsewhere nothing is known).
struct WarningFlags {
  bool AllErrors = false; ///< -Werror (last of -Werror / -Wno-error).
  int GroupError = -1;    ///< -Werror=backend-plugin (1), -Wno-error=... (0).
  bool Silenced = false;  ///< -w, -Wno-everything or -Wno-backend-plugin.

  /// A plain -Werror would turn the warning into an error the user did not
  /// ask for: FlipFlop then prints it itself, as a warning.
  bool wouldEscalate() const { return AllErrors && GroupError != 1; }
};

WarningFlags parseWarningFlags(ArrayRef<const char *> Args) {
  WarningFlags W;
  bool NoWarnings = false, GroupOff = false;
  for (StringRef A : Args) {
    if (A == "-Werror")
      W.AllErrors = true;
    else if (A == "-Wno-error")
      W.AllErrors = false;
    else if (A == "-Werror=backend-plugin")
      W.GroupError = 1, GroupOff = false; // -Werror=X also enables X.
    else if (A == "-Wno-error=backend-plugin")
      W.GroupError = 0;
    else if (A == "-w" || A == "-Wno-everything")
      NoWarnings = true;
    else if (A == "-Wno-backend-plugin")
      GroupOff = true;
    else if (A == "-Wbackend-plugin")
      GroupOff = false;
  }
  W.Silenced = NoWarnings || GroupOff;
  return W;
}

const WarningFlags &processWarningFlags() {
  static const WarningFlags Flags = [] {
    SmallVector<const char *, 64> Args;
    if (const auto &Line = processCommandLine())
      for (const std::string &A : *Line)
        Args.push_back(A.c_str());
    return parseWarningFlags(Args);
  }();
  return Flags;
}

} // namespace

/// Used for the warning flags and the report's name.
const std::optional<std::vector<std::string>> &processCommandLine() {
  static const std::optional<std::vector<std::string>> Line =
      []() -> std::optional<std::vector<std::string>> {
    auto Buf = MemoryBuffer::getFileAsStream("/proc/self/cmdline");
    if (!Buf)
      return std::nullopt;
    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    SmallVector<const char *, 64> Args;
    StringRef Rest = (*Buf)->getBuffer();
    while (!Rest.empty()) {
      auto [Arg, Tail] = Rest.split('\0');
      Args.push_back(Saver.save(Arg).data());
      Rest = Tail;
    }
    // Response files (@file) as the driver reads them; errors ignored.
    (void)cl::ExpandResponseFiles(Saver, cl::TokenizeGNUCommandLine, Args);
    return std::vector<std::string>(Args.begin(), Args.end());
  }();
  return Line;
}

///  - warnings=off: nothing (the remark still goes to -R and the YAML);
///  - warnings=error: an error through clang (the compile fails: opt-in);
///  - otherwise a warning through clang, in clang's backend-plugin group
///    (-Wno-backend-plugin silences it, -Werror=backend-plugin makes it an
///    error) -- except under a plain -Werror, which would fail the build
///    for a FlipFlop problem: FlipFlop then prints the same line itself on
///    stderr, still a warning.
void warnUser(LLVMContext &Ctx, const PluginOptions &O, StringRef ID,
              const Twine &Text) {
  if (O.Warnings == WarningMode::Off)
    return;
  // "FlipFlop: <problem> [FF901]": the ID names the page in docs/remarks/,
  // where clang puts a warning's flag.
  std::string Msg = ("FlipFlop: " + Text + " [" + ID + "]").str();
  if (O.Warnings == WarningMode::Error) {
    Ctx.diagnose(DiagnosticInfoGeneric(Msg, DS_Error));
    return;
  }
  const WarningFlags &Flags = processWarningFlags();
  if (!Flags.wouldEscalate()) {
    Ctx.diagnose(DiagnosticInfoGeneric(Msg, DS_Warning));
    return;
  }
  if (Flags.Silenced)
    return;
  WithColor::warning(errs()) << Msg << " [-Wbackend-plugin]\n";
}

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

namespace {

using Argument = DiagnosticInfoOptimizationBase::Argument;

/// A remark argument holding a number printed with 4 significant digits
/// (remark YAML stores every value as text).
Argument numArg(StringRef Key, double V) {
  return Argument(Key, formatv("{0}", llvm::format("%.4g", V)).str());
}

/// A figure shown with the unit that keeps it short (flipflop/Support/
/// Units.h): \p V, in the first of \p Units, scaled by 1000 per step up
/// the ladder ("156.5 us", "20.72 ms", "3.412 s"), 4 significant digits.
Argument unitArg(StringRef Key, double V, ArrayRef<const char *> Units) {
  unsigned U = unitSteps(V, Units.size());
  V /= std::pow(1000.0, U);
  return Argument(
      Key, formatv("{0} {1}", llvm::format("%.4g", V), Units[U]).str());
}

/// A time (seconds) and an energy (joules) as shown in the text.
Argument timeArg(StringRef Key, double Seconds) {
  return unitArg(Key, Seconds * 1e6, {"us", "ms", "s"});
}
Argument energyArg(StringRef Key, double Joules) {
  return unitArg(Key, Joules * 1e6, {"uJ", "mJ", "J"});
}

/// A signed percentage change, one decimal ("+3.1", "-21.4").
Argument pctArg(StringRef Key, double V) {
  return Argument(Key, formatv("{0}", llvm::format("%+.1f", V)).str());
}

double pct(double New, double Old) {
  return Old > 0 ? 100.0 * (New - Old) / Old : 0;
}

/// A figure as an integer in a fixed unit (TimeNs, EnergyUJ, PowerMW...) for
/// tools that aggregate remark arguments (llvm-remarkutil count
/// --count-by=arg reads only integers). Rounded; clamped to int64.
Argument intArg(StringRef Key, double V) {
  double R = std::round(V);
  int64_t I = !(R == R)      ? 0
              : R >= 9.2e18  ? INT64_MAX
              : R <= -9.2e18 ? INT64_MIN
                             : static_cast<int64_t>(R);
  return Argument(Key, I);
}

/// A power limit in whole watts, as shown.
int64_t watts(double W) { return static_cast<int64_t>(W + 0.5); }

} // namespace

//===----------------------------------------------------------------------===//
// Problems
//===----------------------------------------------------------------------===//

void emitOptionProblems(KernelRemarks &Remarks, const PluginOptions &O) {
  for (const std::string &E : O.Errors)
    Remarks.emitRemark(remark::id::OptionProblem, [&](auto R) {
      return R << "FlipFlop option problem (default kept): "
               << ore::NV(remark::Problem, E);
    });
}

void emitInternalProblem(KernelRemarks &Remarks, LLVMContext &Ctx,
                         const PluginOptions &O, StringRef Kernel,
                         const std::string &Why, bool Warn) {
  if (Warn)
    warnUser(Ctx, O, remark::id::InternalProblem,
             "could not analyse kernel '" + Kernel + "': " + Why +
                 "; no recommendation");
  Remarks.emitRemark(remark::id::InternalProblem, [&](auto R) {
    return R << "FlipFlop could not analyse kernel '"
             << ore::NV(remark::Kernel, Kernel)
             << "': " << ore::NV(remark::Problem, Why) << "; no recommendation";
  });
}

void emitImplausible(KernelRemarks &Remarks, const KernelProfile &K,
                     const KernelResult &R) {
  Remarks.emitRemark(remark::id::Implausible, [&](auto Rem) {
    return Rem << "kernel '" << ore::NV(remark::Kernel, K.DisplayName)
               << "': implausible figures, no recommendation: "
               << ore::NV(remark::Problem, R.Sweep->Implausible);
  });
}

void emitNoWork(KernelRemarks &Remarks, const KernelProfile &K) {
  Remarks.emitRemark(remark::id::NoWork, [&](auto Rem) {
    return Rem << "kernel '" << ore::NV(remark::Kernel, K.DisplayName)
               << "': nothing to tune: it does no work (no instruction but "
                  "its return), so every launch costs only the launch "
                  "overhead, whatever its block, register cap or power "
                  "setting";
  });
}

//===----------------------------------------------------------------------===//
// FF001: the summary
//===----------------------------------------------------------------------===//

namespace {

/// The recommendation and its figures. Clauses separated by "; ": the
/// recommendation; the figures at that configuration (block, grid, limit
/// named again); the heuristic's figures at its own configuration and the
/// change against them (closed by streamAssumptions).
void streamPick(OptimizationRemarkAnalysis &Rem, const KernelProfile &K,
                const KernelResult &R, const PluginOptions &O) {
  const Prediction &Best = R.best(), &Heur = R.heuristic();
  const LaunchConfig &C = Best.Config;
  Rem << "kernel '" << ore::NV(remark::Kernel, K.DisplayName) << "' on "
      << ore::NV(remark::GPU, R.GPU->Name) << ": for "
      << ore::NV(remark::Objective, objectiveName(O.Obj)) << " use block "
      << ore::NV(remark::Block, blockShapeText(C.Block));
  // The code fixes its block but does not say which: the block named is
  // an assumption, and the user must know it is one.
  if (R.Sweep && R.Sweep->Shape == ShapeSource::TileUnknown)
    Rem << " (assumed: the code is written for one block shape that "
           "FlipFlop cannot read; state its thread count with "
           "__launch_bounds__)";
  Rem << ", min-blocks "
      << ore::NV(remark::MinBlocks, C.MinBlocksPerSM) << ", power limit "
      << ore::NV(remark::PowerLimitW, watts(C.PowerLimitW)) << " W";
  // A locked-clock pick names its lever and how to set it (the limit is
  // the default one it runs under).
  if (Best.PowerLever == Lever::LockedClock) {
    LeverCommand LC = leverCommand(Best, *R.GPU);
    Rem << ", SM clock locked at "
        << ore::NV(remark::LockedClockMHz, static_cast<int64_t>(LC.Value + 0.5))
        << " MHz (" << LC.Command << ", needs root)";
  }
  Rem << "; at block " << blockShapeText(C.Block) << ", grid "
      << ore::NV(remark::Grid, blockShapeText(C.Grid)) << ", "
      << std::to_string(watts(C.PowerLimitW))
      << " W: " << timeArg(remark::Time, Best.TimeS) << ", "
      << energyArg(remark::Energy, Best.EnergyJ) << ", "
      << ore::NV(remark::Bottleneck, bottleneckName(Best.Bound))
      << "-bound, occupancy "
      << intArg(remark::OccupancyPct, Best.Occ.Occupancy * 100) << "%, "
      << ore::NV(remark::Registers, Best.RegsPerThread) << " registers ("
      << ore::NV(remark::RegisterSource,
                 K.Res.RegistersExact ? "ptxas" : "estimated")
      << "), clock " << intArg(remark::ClockMHz, Best.ClockMHz)
      << " MHz; occupancy heuristic at block "
      << ore::NV(remark::HeuristicBlock, blockShapeText(Heur.Config.Block))
      << ", grid " << ore::NV(remark::HeuristicGrid, blockShapeText(Heur.Config.Grid))
      << ", "
      << ore::NV(remark::HeuristicPowerLimitW, watts(Heur.Config.PowerLimitW))
      << " W: " << timeArg(remark::HeuristicTime, Heur.TimeS) << ", "
      << energyArg(remark::HeuristicEnergy, Heur.EnergyJ)
      << " (recommendation "
      << pctArg(remark::EnergyChangePct, pct(Best.EnergyJ, Heur.EnergyJ))
      << "% energy, "
      << pctArg(remark::TimeChangePct, pct(Best.TimeS, Heur.TimeS));
}

/// The assumptions: the problem size, the stated arguments, and every
/// distinct guess in its own words, up to three (an unrolled loop and its
/// remainder give the same one); the report lists all.
void streamAssumptions(OptimizationRemarkAnalysis &Rem, const KernelProfile &K,
                       const KernelResult &R, const PluginOptions &O) {
  // Continues the pick's last clause (one text piece in the record).
  Rem << "% time); problem size "
      << ore::NV(remark::ProblemThreads, R.best().Config.TotalThreads)
      << " threads ("
      << (O.ProblemSize         ? "-flipflop-problem-size"
          : R.ProblemFromLaunch ? "the stated launch, -flipflop-launch"
          : gridStrideElements(K) > 0
              ? (gridStrideByBlocks(K)
                     ? "its grid-stride loop's units of a block, each a "
                       "block's threads"
                     : "its grid-stride loop's elements")
              : "assumed: set -flipflop-problem-size")
      << ")";
  if (!O.Facts.ArgValues.empty()) {
    Rem << ", arguments";
    for (const auto &[Index, Value] : O.Facts.ArgValues)
      Rem << " #" << ore::NV(remark::ArgIndex, Index) << "="
          << ore::NV(remark::ArgValue, static_cast<int64_t>(Value));
    Rem << " (-flipflop-args)";
  }
  std::vector<StringRef> Guesses;
  for (const std::string &G : K.Guesses)
    if (!is_contained(Guesses, StringRef(G)))
      Guesses.push_back(G);
  const size_t Shown = std::min<size_t>(Guesses.size(), 3);
  for (size_t I = 0; I < Shown; ++I)
    Rem << (I ? " | " : "; guessed: ") << ore::NV(remark::Guess, Guesses[I]);
  if (Guesses.size() > Shown)
    Rem << " | " << ore::NV(remark::MoreGuesses, Guesses.size() - Shown)
        << " more";
}

/// Record only: integers in fixed units, the block by axis for readers that
/// want numbers, and the occupancy as a fraction (kept for existing
/// readers).
void streamSummaryRecord(OptimizationRemarkAnalysis &Rem,
                         const KernelProfile &K, const KernelResult &R) {
  const Prediction &Best = R.best(), &Heur = R.heuristic();
  const LaunchConfig &C = Best.Config;
  Rem << ore::setExtraArgs() << numArg(remark::TimeUs, Best.TimeS * 1e6)
      << numArg(remark::EnergyMJ, Best.EnergyJ * 1e3)
      << numArg(remark::HeuristicTimeUs, Heur.TimeS * 1e6)
      << numArg(remark::HeuristicEnergyMJ, Heur.EnergyJ * 1e3)
      << intArg(remark::TimeNs, Best.TimeS * 1e9)
      << intArg(remark::EnergyUJ, Best.EnergyJ * 1e6)
      << intArg(remark::PowerMW, Best.AvgPowerW * 1e3)
      << intArg(remark::PowerLimitMW, C.PowerLimitW * 1e3)
      << intArg(remark::HeuristicTimeNs, Heur.TimeS * 1e9)
      << intArg(remark::HeuristicEnergyUJ, Heur.EnergyJ * 1e6)
      << intArg(remark::HeuristicPowerMW, Heur.AvgPowerW * 1e3)
      << intArg(remark::HeuristicPowerLimitMW, Heur.Config.PowerLimitW * 1e3)
      << ore::NV(remark::BlockX, C.Block[0])
      << ore::NV(remark::BlockY, C.Block[1])
      << ore::NV(remark::BlockZ, C.Block[2])
      << ore::NV(remark::MaxThreads, C.blockThreads())
      << ore::NV(remark::GridX, C.Grid[0]) << ore::NV(remark::GridY, C.Grid[1])
      << ore::NV(remark::GridZ, C.Grid[2])
      << ore::NV(remark::BlockSizeAgnostic, isBlockSizeAgnostic(K))
      << numArg(remark::Occupancy, Best.Occ.Occupancy);
}

//===----------------------------------------------------------------------===//
// FF002, FF003, FF010..FF014, FF020
//===----------------------------------------------------------------------===//

/// FF003: the Pareto set, one remark per point.
void emitPareto(KernelRemarks &Remarks, const SweepResult &S) {
  for (size_t Rank = 0; Rank < S.Pareto.size(); ++Rank) {
    const Prediction &Pt = S.Configs[S.Pareto[Rank]];
    Remarks.emitRemark(remark::id::Pareto, [&](auto R) {
      return R << "pareto "
               << ore::NV(remark::Rank, static_cast<unsigned>(Rank))
               << ": block " << ore::NV(remark::Block, blockShapeText(Pt.Config.Block))
               << ", min-blocks "
               << ore::NV(remark::MinBlocks, Pt.Config.MinBlocksPerSM) << ", "
               << ore::NV(remark::PowerLimitW, watts(Pt.Config.PowerLimitW))
               << " W: " << timeArg(remark::Time, Pt.TimeS) << ", "
               << energyArg(remark::Energy, Pt.EnergyJ) << ore::setExtraArgs()
               << numArg(remark::TimeUs, Pt.TimeS * 1e6)
               << numArg(remark::EnergyMJ, Pt.EnergyJ * 1e3)
               << intArg(remark::TimeNs, Pt.TimeS * 1e9)
               << intArg(remark::EnergyUJ, Pt.EnergyJ * 1e6)
               << intArg(remark::PowerMW, Pt.AvgPowerW * 1e3)
               << intArg(remark::PowerLimitMW, Pt.Config.PowerLimitW * 1e3)
               << intArg(remark::ClockMHz, Pt.ClockMHz);
    });
  }
}

/// FF010..FF012: what limited the recommendation.
void emitLimits(KernelRemarks &Remarks, const KernelProfile &K,
                const KernelResult &R) {
  if (R.Sweep->ShapeHeld)
    Remarks.emitRemark<OptimizationRemarkMissed>(
        remark::id::ShapeKept, [&](auto Rem) {
          return Rem << "kernel '" << ore::NV(remark::Kernel, K.DisplayName)
                     << "': block shape kept at "
                     << ore::NV(remark::Block, blockShapeText(R.best().Config.Block))
                     << ": "
                     << ore::NV(remark::Reason, shapeReason(*R.Sweep, K));
        });
  if (!K.Res.dynamicSharedKnown())
    Remarks.emitRemark<OptimizationRemarkMissed>(
        remark::id::DynamicShared, [&](auto Rem) {
          return Rem << "kernel '" << ore::NV(remark::Kernel, K.DisplayName)
                     << "' uses dynamic shared memory of unknown size; "
                        "occupancy assumes 0 bytes; give "
                        "-flipflop-dynamic-shared=BYTES[+PER*t]";
        });
  if (R.GuessedLoops)
    Remarks.emitRemark<OptimizationRemarkMissed>(
        remark::id::GuessedTrips, [&](auto Rem) {
          return Rem << "kernel '" << ore::NV(remark::Kernel, K.DisplayName)
                     << "': " << ore::NV(remark::GuessedLoops, R.GuessedLoops)
                     << " loop trip count(s) guessed ("
                     << ore::NV(remark::Guess, K.Guesses.empty()
                                                   ? std::string()
                                                   : K.Guesses.front())
                     << "); give -flipflop-args or -flipflop-problem-size";
        });
}

/// Share (0..1) of \p K's predicted time at \p C that \p Without, the
/// same kernel without some of its work, no longer takes.
double shareWithout(const KernelProfile &K, const KernelProfile &Without,
                    const GPUSpec &GPU, const LaunchConfig &C) {
  Prediction With = predict(K, GPU, C), Less = predict(Without, GPU, C);
  if (!With.Valid || !Less.Valid || With.TimeS <= 0)
    return 0;
  return std::clamp(1 - Less.TimeS / With.TimeS, 0.0, 1.0);
}

/// Share (0..1) of the predicted time at \p C that goes away when the
/// kernel's local-memory arrays (KernelProfile::LocalArrays) live in
/// registers: the prediction again without the local loads and stores of
/// the profile and without the arrays' stack bytes. Registers are left as
/// they are, so this is an upper bound on the gain.
double localArrayShare(const KernelProfile &K, const GPUSpec &GPU,
                       const LaunchConfig &C) {
  KernelProfile Without = K;
  Without.op(OpClass::LoadLocal) = 0;
  Without.op(OpClass::StoreLocal) = 0;
  llvm::erase_if(Without.Accesses, [](const MemAccess &A) {
    return A.Space == AddrSpace::Local;
  });
  uint64_t Bytes = 0;
  for (const LocalArray &A : K.LocalArrays)
    Bytes += A.Bytes;
  Without.Res.StackFrameBytes -=
      unsigned(std::min<uint64_t>(Bytes, Without.Res.StackFrameBytes));
  finalizeProfile(Without);
  return shareWithout(K, Without, GPU, C);
}

/// FF015: a per-thread array left in local memory, with what keeps it
/// there and what it costs at the recommendation; only when it costs at
/// least LocalArrayMinShare of the predicted time.
void emitLocalArrays(KernelRemarks &Remarks, const KernelProfile &K,
                     const KernelResult &R) {
  constexpr double LocalArrayMinShare = 0.02;
  if (K.LocalArrays.empty())
    return;
  double Share = localArrayShare(K, *R.GPU, R.best().Config);
  if (Share < LocalArrayMinShare)
    return;
  // The largest array speaks for the rest (their share is counted
  // together).
  const LocalArray &A = *std::max_element(
      K.LocalArrays.begin(), K.LocalArrays.end(),
      [](const LocalArray &X, const LocalArray &Y) { return X.Bytes < Y.Bytes; });
  Remarks.emitRemark<OptimizationRemarkMissed>(
      remark::id::LocalArray, [&](auto Rem) {
        Rem << "kernel '" << ore::NV(remark::Kernel, K.DisplayName) << "': a "
            << ore::NV(remark::ArrayBytes, A.Bytes) << "-byte per-thread array"
            << " in '" << ore::NV(remark::Holder, A.Function)
            << "' stays in local memory";
        if (K.LocalArrays.size() > 1)
          Rem << " (with " << std::to_string(K.LocalArrays.size() - 1)
              << " more)";
        Rem << ": its local loads and stores are up to "
            << ore::NV(remark::LocalSharePct, unsigned(std::lround(Share * 100)))
            << "% of the predicted time at block "
            << blockShapeText(R.best().Config.Block) << "; ";
        if (!A.PassedTo.empty())
          Rem << "it is passed to '" << ore::NV(remark::Callee, A.PassedTo)
              << "', which was not inlined: force-inline it "
                 "(__forceinline__) so the array can live in registers";
        else
          Rem << "it is indexed by a value known only at run time: make the "
                 "loops over it fully unrollable (constant trip counts, "
                 "#pragma unroll) so every index is a constant";
        return Rem;
      });
}

/// Share (0..1) of the predicted time at \p C that the code's own spills
/// (the static spill bytes of KernelProfile::Res, ptxas's or estimated)
/// account for: the prediction again without them. Spills a register cap
/// of \p C adds stay in both.
double spillShare(const KernelProfile &K, const GPUSpec &GPU,
                  const LaunchConfig &C) {
  KernelProfile Without = K;
  Without.Res.SpillStoreBytes = Without.Res.SpillLoadBytes = 0;
  for (CapFact &F : Without.CapFacts)
    F.SpillStoreBytes = F.SpillLoadBytes = 0;
  Without.CapSpills.Blocks.clear();
  return shareWithout(K, Without, GPU, C);
}

/// Loaded values held across blocks that FF016 names as the cause: fewer
/// are ordinary (a value loaded before a branch and read after it).
constexpr unsigned HeldLoadsMin = 32;

/// "210 from shared memory, 15 from global memory" (the spaces present).
std::string heldLoadsText(const HeldLoads &H) {
  std::string Out;
  auto Add = [&](unsigned N, const char *Where) {
    if (N)
      Out += (Out.empty() ? "" : ", ") + std::to_string(N) + " from " + Where;
  };
  Add(H.Shared, "shared memory");
  Add(H.Global, "global memory");
  Add(H.Other, "other memory");
  return Out;
}

/// FF016: the code holds more values at once than a thread's registers,
/// with what its spills cost at the recommendation; only when they cost at
/// least SpillMinShare of the predicted time.
void emitSpills(KernelRemarks &Remarks, const KernelProfile &K,
                const KernelResult &R) {
  constexpr double SpillMinShare = 0.02;
  const Prediction &Best = R.best();
  // The code that runs at the recommendation: under its register cap, the
  // compile under that cap.
  std::optional<KernelProfile::SpillCode> Code =
      K.spillCodeAt(Best.RegsPerThread);
  if (!Code || Code->Bytes == 0)
    return;
  unsigned Bytes = Code->Bytes;
  double Share = spillShare(K, *R.GPU, Best.Config);
  if (Share < SpillMinShare)
    return;
  Remarks.emitRemark<OptimizationRemarkMissed>(
      remark::id::Spills, [&](auto Rem) {
        Rem << "kernel '" << ore::NV(remark::Kernel, K.DisplayName)
            << "' holds more values at once than the "
            << ore::NV(remark::Registers, Best.RegsPerThread)
            << " registers a thread gets, so they spill: "
            << ore::NV(remark::SpillBytes, Bytes) << " bytes of spill code ("
            << ore::NV(remark::SpillSource, Code->Ptxas
                                                ? "ptxas"
                                                : "estimated from the PTX")
            << "), " << bytesText(Best.SpillBytesPerThread)
            << " a thread of local-memory traffic at block "
            << blockShapeText(Best.Config.Block) << ", up to "
            << ore::NV(remark::SpillSharePct, unsigned(std::lround(Share * 100)))
            << "% of the predicted time; ";
        const HeldLoads &H = K.Held;
        if (H.Values >= HeldLoadsMin && H.Readers >= 2) {
          // Loads left above the branches that read them (docs/remarks/
          // FF016.md): the advice is about where the code is, not its size.
          Rem << ore::NV(remark::HeldLoads, H.Values) << " of the values it "
              << "holds were loaded in one block and are read in up to "
              << ore::NV(remark::HeldLoadReaders, H.Readers)
              << " later ones (" << heldLoadsText(H)
              << "), so they stay live across them: keep the arithmetic that "
                 "reads a load in one block (clang's MachineSink moves each "
                 "guarded result's arithmetic into its own guard; -mllvm "
                 "-disable-machine-sink leaves it where the loads are) or "
                 "load them again where they are read";
        } else {
          Rem << "keep fewer values live at once (fewer accumulators or a "
                 "smaller tile a thread)";
        }
        if (!Code->Ptxas)
          Rem << ", and check ptxas -v for the binary you ship";
        Rem << ore::setExtraArgs()
            << ore::NV(remark::SpillBytesPerThread,
                       uint64_t(std::llround(Best.SpillBytesPerThread)));
        return Rem;
      });
}

/// FF020: the author's bounds against the recommendation.
void emitAuthorBounds(KernelRemarks &Remarks, const KernelProfile &K,
                      const KernelResult &R) {
  const Prediction &Best = R.best();
  const Prediction &AuthorP = *R.Author;
  Remarks.emitRemark(
      remark::id::AuthorBounds, [&](OptimizationRemarkAnalysis Rem) {
        Rem << "kernel '" << ore::NV(remark::Kernel, K.DisplayName)
            << "' has __launch_bounds__("
            << ore::NV(remark::AuthorMaxThreads, K.Bounds.maxThreads()) << ", "
            << ore::NV(remark::AuthorMinBlocks, K.Bounds.MinCTAsPerSM) << ")";
        if (!AuthorP.Valid) {
          Rem << ": this configuration cannot launch on " << R.GPU->Name << " ("
              << ore::NV(remark::Invalid, AuthorP.Invalid) << ")";
          return Rem;
        }
        Rem << ": predicted " << timeArg(remark::AuthorTime, AuthorP.TimeS)
            << ", " << energyArg(remark::AuthorEnergy, AuthorP.EnergyJ)
            << " at block "
            << ore::NV(remark::AuthorBlock, blockShapeText(AuthorP.Config.Block))
            << ", " << std::to_string(watts(Best.Config.PowerLimitW))
            << " W against the recommendation's "
            << timeArg(remark::Time, Best.TimeS) << ", "
            << energyArg(remark::Energy, Best.EnergyJ) << " at block "
            << blockShapeText(Best.Config.Block) << ore::setExtraArgs()
            << numArg(remark::AuthorTimeUs, AuthorP.TimeS * 1e6)
            << numArg(remark::AuthorEnergyMJ, AuthorP.EnergyJ * 1e3)
            << numArg(remark::TimeUs, Best.TimeS * 1e6)
            << numArg(remark::EnergyMJ, Best.EnergyJ * 1e3)
            << intArg(remark::AuthorTimeNs, AuthorP.TimeS * 1e9)
            << intArg(remark::AuthorEnergyUJ, AuthorP.EnergyJ * 1e6)
            << intArg(remark::TimeNs, Best.TimeS * 1e9)
            << intArg(remark::EnergyUJ, Best.EnergyJ * 1e6);
        return Rem;
      });
}

/// FF021: the launch the user states, as it is, against the pick.
void emitStatedLaunch(KernelRemarks &Remarks, const KernelProfile &K,
                      const KernelResult &R) {
  const Prediction &Best = R.best();
  const Prediction &LP = *R.Launch;
  Remarks.emitRemark(
      remark::id::StatedLaunch, [&](OptimizationRemarkAnalysis Rem) {
        Rem << "kernel '" << ore::NV(remark::Kernel, K.DisplayName)
            << "' as launched (-flipflop-launch), block "
            << ore::NV(remark::LaunchBlock, blockShapeText(LP.Config.Block))
            << ", grid "
            << ore::NV(remark::LaunchGrid, blockShapeText(LP.Config.Grid));
        if (!LP.Valid) {
          Rem << ": this launch cannot run on " << R.GPU->Name << " ("
              << ore::NV(remark::Invalid, LP.Invalid)
              << "); the recommendation is not compared with it";
          return Rem;
        }
        Rem << ", at the default power limit ("
            << std::to_string(watts(LP.PowerLimitW > 0 ? LP.PowerLimitW
                                                       : LP.Config.PowerLimitW))
            << " W): predicted " << timeArg(remark::LaunchTime, LP.TimeS)
            << ", " << energyArg(remark::LaunchEnergy, LP.EnergyJ)
            << "; the recommendation " << timeArg(remark::Time, Best.TimeS)
            << ", " << energyArg(remark::Energy, Best.EnergyJ) << " ("
            << pctArg(remark::EnergyChangePct, pct(Best.EnergyJ, LP.EnergyJ))
            << "% energy, "
            << pctArg(remark::TimeChangePct, pct(Best.TimeS, LP.TimeS))
            << "% time)" << ore::setExtraArgs()
            << intArg(remark::LaunchTimeNs, LP.TimeS * 1e9)
            << intArg(remark::LaunchEnergyUJ, LP.EnergyJ * 1e6)
            << intArg(remark::TimeNs, Best.TimeS * 1e9)
            << intArg(remark::EnergyUJ, Best.EnergyJ * 1e6);
        return Rem;
      });
}

} // namespace

void emitRecommendation(KernelRemarks &Remarks, const KernelProfile &K,
                        const KernelResult &R, const PluginOptions &O) {
  // FF001: the summary, then what was assumed and guessed; integer copies
  // of the figures in fixed units follow as record-only arguments
  // (docs/remarks/FF001.md).
  Remarks.emitRemark(remark::id::Summary, [&](OptimizationRemarkAnalysis Rem) {
    streamPick(Rem, K, R, O);
    streamAssumptions(Rem, K, R, O);
    streamSummaryRecord(Rem, K, R);
    return Rem;
  });
  // FF014: a pick that stands but is hard to believe.
  for (const std::string &W : R.Sweep->Warnings)
    Remarks.emitRemark(remark::id::CheckPrediction, [&](auto Rem) {
      return Rem << "kernel '" << ore::NV(remark::Kernel, K.DisplayName)
                 << "': check this prediction: " << ore::NV(remark::Warning, W);
    });
  if (O.Verbosity >= 1)
    Remarks.emitRemark(remark::id::Why, [&](auto Rem) {
      return Rem << "why: "
                 << ore::NV(remark::Explanation, explainSweep(*R.Sweep, K));
    });
  if (O.Verbosity >= 2)
    emitPareto(Remarks, *R.Sweep);
  emitLimits(Remarks, K, R);
  emitLocalArrays(Remarks, K, R);
  emitSpills(Remarks, K, R);
  if (R.Author)
    emitAuthorBounds(Remarks, K, R);
  // The launch against the pick where both do the launch's work, or why
  // the launch cannot run.
  if (R.Launch && (R.ProblemFromLaunch || !R.Launch->Valid))
    emitStatedLaunch(Remarks, K, R);
}

} // namespace flipflop
