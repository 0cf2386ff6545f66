//===- Plan.h - Which edits flipflop-apply makes, and why not -------------===//
//
// The Planner takes what the scanner saw (kernel definitions, bounds already
// written, launch sites) and the recommendations, and decides per definition:
// insert a bound, update one (--update), rewrite literal block sizes at
// launch sites (--rewrite-launch-sites), or refuse with one message saying
// why. It writes nothing; the edits are byte ranges of the files as parsed.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_TOOLS_APPLY_PLAN_H
#define FLIPFLOP_TOOLS_APPLY_PLAN_H

#include "Recommendations.h"
#include "Scanner.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace flipflop {
namespace apply {

/// Replace File[Offset, Offset+Length) with Text.
struct Edit {
  std::string File;
  unsigned Offset, Length;
  std::string Text;
};

struct Counts {
  unsigned Edited = 0, Unchanged = 0, Refused = 0;
};

/// Why a file may not be edited: outside the project (a note) or read-only
/// under -i (an error).
struct FileBlock {
  bool IsError = false;
  std::string Why;
};
using FileGuard =
    std::function<std::optional<FileBlock>(llvm::StringRef File)>;

/// The options that steer planning.
struct PlanOptions {
  bool Update = false;             ///< --update
  bool Force = false;              ///< --force
  bool RewriteLaunchSites = false; ///< --rewrite-launch-sites
};

/// Min blocks 0 and 1 are the same contract: both 0 here.
inline unsigned normMin(uint64_t M) {
  return M <= 1 ? 0 : static_cast<unsigned>(M);
}

/// The arguments of a bound: "256" or "256, 2" (min blocks 0 and 1 are the
/// same contract and are omitted).
std::string boundArgs(unsigned MaxThreads, unsigned MinBlocks);

/// The text of an existing bound changed to \p Rec, keeping the author's
/// expression for every argument whose value stays (a macro, a named
/// constant, 2*128), its spelling and a third argument; "" with \p Why when
/// an argument whose value changes names a macro or a constant (it is never
/// replaced by a literal).
std::string updatedBound(const WrittenBound &B, const Recommendation &Rec,
                         std::string &Why);

/// A launch site's new block argument: "512" for a one-dimensional block
/// written as an integer, else "dim3(16, 16)" (trailing 1s left out).
std::string blockText(const std::array<unsigned, 3> &B, bool Dim3);

class Planner {
public:
  using RecMap = std::map<std::string, std::vector<Recommendation>>;

  Planner(const ScanResult &S, const RecMap &Recs, FileGuard Guard,
          PlanOptions Opts)
      : S(S), Recs(Recs), Guard(std::move(Guard)), Opts(Opts) {}

  std::vector<Edit> Edits;
  Counts N;
  /// Files that may not be edited: why, and the kernels not edited there.
  std::map<std::string, std::pair<FileBlock, std::vector<std::string>>> Blocked;
  /// Each kernel edited, with the files its edits touch, and the
  /// power/clock setting its recommendation goes with (empty: defaults).
  std::vector<std::set<std::string>> EditedFiles;
  std::vector<std::pair<std::string, std::string>> EditedSettings;

  /// Plans every definition, in file and offset order, then reports the
  /// kernels declared but defined in none of the sources.
  void run();

private:
  /// What planning one definition gathers on the way.
  struct KernelPlan {
    const Recommendation *Rec = nullptr;
    bool Agnostic = true;    ///< Every recommendation says block-agnostic.
    std::string Want;        ///< The bound's arguments, "256, 2".
    std::string Setting;     ///< "; <power/clock setting>[; <cap check>]".
    std::vector<std::string> Updated; ///< New text of each written bound.
    std::vector<const LaunchSite *> Sites;
    std::vector<std::string> Problems; ///< Launch sites that break the bound.
    std::vector<Edit> Rewrites;        ///< Launch sites rewritten.
    std::vector<std::string> RewriteNotes;
    std::set<std::string> Files; ///< Every file the edits touch.
  };

  const ScanResult &S;
  const RecMap &Recs;
  FileGuard Guard;
  PlanOptions Opts;
  /// The new block text of each launch site rewritten, by (file, offset).
  std::map<std::pair<std::string, unsigned>, std::string> SiteEdits;
  /// The files that define each mangled name (a kernel local to its file,
  /// static or in an anonymous namespace, may be defined in several).
  std::map<std::string, std::set<std::string>> DefFiles;

  std::vector<const Recommendation *> recsFor(const KernelDef &K,
                                              const std::string &Mangled);
  bool otherFilesLaunch(const KernelDef &K, const LaunchSite &L);
  void refuse(const KernelDef &K, const llvm::Twine &Msg);

  void plan(const KernelDef &K);
  // The steps of plan(), in order; each returns false when the definition
  // is done with (refused, or already as recommended).
  bool chooseRecommendation(const KernelDef &K, KernelPlan &P);
  bool placeBound(const KernelDef &K, KernelPlan &P);
  bool checkLaunchSites(const KernelDef &K, KernelPlan &P);
  bool rewriteSite(const LaunchSite &L, KernelPlan &P);
  bool checkFiles(const KernelDef &K, KernelPlan &P);
  void commit(const KernelDef &K, KernelPlan &P);
};

} // namespace apply
} // namespace flipflop

#endif
