//===- flipflop-apply.cpp - Write FlipFlop's launch bounds into CUDA sources ===//
//
// flipflop-apply [-p BUILD_DIR] --reports DIR_OR_FILE... [-i] [--update]
//                [--force] [--export-fixes FILE] [--objective OBJ]
//                [--rewrite-launch-sites] [--project-root DIR]
//                [--header-filter REGEX] SOURCES... [-- FLAGS]
//
// Inserts (or, with --update, changes) __launch_bounds__(maxThreads,
// minBlocks) on the kernels FlipFlop made a recommendation for, after
// checking every launch site it can see. Prints a unified diff by default;
// -i edits the files in place atomically. Only the sources named and the
// headers under the project root (or matching --header-filter) are edited;
// -i refuses read-only files. See docs/APPLY.md and docs/SECURITY.md.
//
//===----------------------------------------------------------------------===//
#include "Compile.h"
#include "Files.h"
#include "Messages.h"
#include "Plan.h"
#include "Recommendations.h"
#include "Scanner.h"
#include "UnifiedDiff.h"

#include "flipflop/Support/WriteFile.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <set>

using namespace llvm;
using namespace clang;
using namespace flipflop::apply;

static cl::OptionCategory ApplyCategory("flipflop-apply options");

static cl::list<std::string>
    Reports("reports", cl::CommaSeparated, cl::value_desc("dir|file"),
            cl::desc("FlipFlop JSON reports or remark YAML files "
                     "(-fsave-optimization-record); a directory is scanned "
                     "for *.json and *.opt.yaml"),
            cl::cat(ApplyCategory));
static cl::opt<bool> InPlace("i", cl::desc("Edit the files in place"),
                             cl::cat(ApplyCategory));
static cl::opt<bool>
    Update("update",
           cl::desc("Change an existing __launch_bounds__ that differs from "
                    "the recommendation"),
           cl::cat(ApplyCategory));
static cl::opt<bool>
    Force("force",
          cl::desc("Edit even when a launch site uses a larger block or one "
                   "not known at compile time"),
          cl::cat(ApplyCategory));
static cl::opt<std::string> ExportFixes(
    "export-fixes", cl::value_desc("file.yaml"),
    cl::desc("Write the edits as clang-apply-replacements YAML"),
    cl::cat(ApplyCategory));
static cl::opt<Pick> Objective(
    "objective", cl::desc("Which pick of a JSON report to apply"),
    cl::values(clEnumValN(Pick::Energy, "energy", "least energy (default)"),
               clEnumValN(Pick::Time, "time", "fastest"),
               clEnumValN(Pick::EDP, "edp", "best energy-delay product"),
               clEnumValN(Pick::Budget, "budget",
                          "least energy within the slowdown budget")),
    cl::init(Pick::Energy), cl::cat(ApplyCategory));
static cl::opt<bool> RewriteLaunchSites(
    "rewrite-launch-sites",
    cl::desc("Also change literal block sizes at launch sites to the "
             "recommended one, for kernels the report shows to be "
             "block-size-agnostic"),
    cl::cat(ApplyCategory));

static cl::opt<bool> TrustModelCaps(
    "trust-model-caps",
    cl::desc("Write a min-blocks cap on the model's word where nothing "
             "checks it: no ptxas fact of the cap in the report, or no "
             "figures to compare it with (remarks); a check that fails still "
             "keeps it out"),
    cl::cat(ApplyCategory));

static cl::opt<std::string> ProjectRoot(
    "project-root", cl::value_desc("dir"),
    cl::desc("Files under this directory may be edited (default: the top of "
             "the checkout holding the current directory, else the current "
             "directory); the sources named are always editable"),
    cl::cat(ApplyCategory));
static cl::opt<std::string> HeaderFilter(
    "header-filter", cl::value_desc("regex"),
    cl::desc("Edit only the headers whose real path matches this regular "
             "expression (instead of those under the project root), as "
             "clang-tidy's -header-filter; the sources named are always "
             "editable"),
    cl::cat(ApplyCategory));

namespace {

/// The recommendations by mangled name; false after an error line when a
/// remark was made for another objective than an explicit --objective.
bool groupRecommendations(std::vector<Recommendation> All,
                          Planner::RecMap &Recs) {
  for (Recommendation &R : All) {
    // Remarks carry one objective's pick: never apply it for another.
    if (!R.Objective.empty() && Objective.getNumOccurrences() &&
        R.Objective != objectiveName(Objective)) {
      error(R.Origin + ": the remark for '" + R.Kernel +
            "' was made for objective '" + R.Objective + "', not '" +
            objectiveName(Objective) + "'");
      return false;
    }
    Recs[R.Kernel].push_back(std::move(R));
  }
  return true;
}

/// One line per file that may not be edited; true when one is an error.
bool reportBlocked(const Planner &Plan) {
  bool Failed = false;
  for (const auto &[File, Entry] : Plan.Blocked) {
    const auto &[Block, Kernels] = Entry;
    errs() << ToolName << (Block.IsError ? ": error: " : ": note: ")
           << shownPath(File) << ": " << Block.Why
           << "; not edited: " << join(Kernels, ", ") << "\n";
    Failed |= Block.IsError;
  }
  return Failed;
}

using EditsByFile = std::map<std::string, tooling::Replacements>;

/// The edits grouped per file; false after an error line when two overlap.
bool groupEdits(ArrayRef<Edit> Edits, EditsByFile &PerFile) {
  for (const Edit &E : Edits) {
    tooling::Replacement R(E.File, E.Offset, E.Length, E.Text);
    if (Error Err = PerFile[E.File].add(R)) {
      error(shownPath(E.File) +
            ": overlapping edits: " + toString(std::move(Err)));
      return false;
    }
  }
  return true;
}

/// Prints each file's diff, or under -i writes it (a file that could not be
/// written goes to \p NotWritten, with an error line). False after an error
/// line when an edit cannot be applied to the text as parsed.
bool writeEdits(const EditsByFile &PerFile, const ScanResult &Scan,
                std::set<std::string> &NotWritten) {
  for (const auto &[File, Repls] : PerFile) {
    auto It = Scan.Contents.find(File);
    if (It == Scan.Contents.end()) {
      error(shownPath(File) + ": contents not recorded");
      return false;
    }
    Expected<std::string> New =
        tooling::applyAllReplacements(It->second, Repls);
    if (!New) {
      error(shownPath(File) + ": " + toString(New.takeError()));
      return false;
    }
    if (!InPlace) {
      std::string Shown = shownPath(File);
      writeUnifiedDiff(outs(), Shown, Shown, It->second, *New);
      continue;
    }
    if (Error E = writeInPlace(File, It->second, *New)) {
      error(toString(std::move(E)));
      NotWritten.insert(File);
    }
  }
  return true;
}

/// --export-fixes: the edits as clang-apply-replacements YAML.
bool exportFixes(const EditsByFile &PerFile, ArrayRef<std::string> Sources) {
  tooling::TranslationUnitReplacements TUR;
  if (Sources.size() == 1) {
    SmallString<256> Main(Sources.front());
    sys::fs::make_absolute(Main);
    TUR.MainSourceFile = std::string(Main);
  }
  for (const auto &FR : PerFile)
    for (const tooling::Replacement &R : FR.second)
      TUR.Replacements.push_back(R);
  if (Error E = flipflop::writeFileSafely(ExportFixes, [&](raw_ostream &OS) {
        yaml::Output YAML(OS);
        YAML << TUR;
      })) {
    error(toString(std::move(E)));
    return false;
  }
  return true;
}

/// A kernel whose file could not be written was not edited. The settings
/// ("KERNEL: SETTING") of the kernels edited under a power/clock lever.
std::vector<std::string>
settleWritten(Planner &Plan, const std::set<std::string> &NotWritten) {
  std::vector<std::string> Levers;
  for (size_t I = 0; I < Plan.EditedFiles.size(); ++I) {
    if (llvm::any_of(Plan.EditedFiles[I], [&](const std::string &F) {
          return NotWritten.count(F);
        })) {
      --Plan.N.Edited;
      ++Plan.N.Refused;
    } else if (!Plan.EditedSettings[I].second.empty()) {
      Levers.push_back(Plan.EditedSettings[I].first + ": " +
                       Plan.EditedSettings[I].second);
    }
  }
  return Levers;
}

void printSummary(const Counts &N, size_t NumRecs, size_t NumReports,
                  ArrayRef<std::string> Levers) {
  errs() << ToolName << ": " << N.Edited << " kernel(s) edited, "
         << N.Unchanged << " already as recommended, " << N.Refused
         << " not edited (" << NumRecs << " recommendation(s) from "
         << NumReports << " report(s))\n";
  // The power/clock settings the edits were chosen for.
  if (N.Edited && Levers.empty())
    errs() << ToolName << ": every edit was chosen for the default power "
           << "limit and clocks\n";
  else if (N.Edited)
    errs() << ToolName << ": the edits were chosen for these power/clock "
           << "settings (others: default power and clocks): "
           << join(Levers, "; ") << "\n";
}

} // namespace

int main(int argc, const char **argv) {
  sys::PrintStackTraceOnErrorSignal(argv[0]);
  ExitOnError Exit(std::string(ToolName) + ": error: ");
  cl::extrahelp More(
      "\nPrints a unified diff of the edits unless -i is given. See "
      "docs/APPLY.md.\n");
  if (!checkBuildDir(argc, argv))
    return 1;
  auto Parser = tooling::CommonOptionsParser::create(
      argc, argv, ApplyCategory, cl::OneOrMore,
      "Inserts FlipFlop's recommended __launch_bounds__ into CUDA sources.\n");
  if (!Parser) {
    error(toString(Parser.takeError()));
    return 1;
  }
  if (Reports.empty()) {
    error("no --reports given");
    return 1;
  }
  const std::vector<std::string> &Sources = Parser->getSourcePathList();

  std::vector<std::string> ReportFiles;
  ReadOptions ReadOpts;
  ReadOpts.Objective = Objective;
  ReadOpts.TrustModelCaps = TrustModelCaps;
  Planner::RecMap Recs;
  if (!groupRecommendations(Exit(readReports(Reports, ReadOpts, ReportFiles)),
                            Recs))
    return 1;

  ScanResult Scan;
  if (std::vector<std::string> Broken =
          scanSources(Parser->getCompilations(), Sources, Scan);
      !Broken.empty()) {
    error("some sources did not compile; nothing was changed (" +
          join(Broken, ", ") + ")");
    return 1;
  }

  std::optional<std::string> Filter;
  if (HeaderFilter.getNumOccurrences())
    Filter = HeaderFilter;
  Expected<FilePolicy> Policy =
      FilePolicy::create(Sources, ProjectRoot, Filter, InPlace);
  if (!Policy) {
    error(toString(Policy.takeError()));
    return 1;
  }
  Planner Plan(Scan, Recs,
               [&](StringRef File) { return Policy->check(File); },
               PlanOptions{Update, Force, RewriteLaunchSites});
  Plan.run();
  bool Failed = reportBlocked(Plan);

  EditsByFile PerFile;
  std::set<std::string> NotWritten;
  if (!groupEdits(Plan.Edits, PerFile) ||
      !writeEdits(PerFile, Scan, NotWritten))
    return 1;
  Failed |= !NotWritten.empty();
  std::vector<std::string> Levers = settleWritten(Plan, NotWritten);
  if (!ExportFixes.empty() && !exportFixes(PerFile, Sources))
    return 1;
  printSummary(Plan.N, Recs.size(), ReportFiles.size(), Levers);
  return Failed ? 1 : 0;
}
