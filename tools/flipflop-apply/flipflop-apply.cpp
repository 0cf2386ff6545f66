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
#include "Recommendations.h"
#include "Scanner.h"
#include "UnifiedDiff.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unistd.h>

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

static const char *const Tool = "flipflop-apply";

namespace {

/// Paths in messages and diffs: relative to the working directory when
/// inside it.
std::string shownPath(StringRef Path) {
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd)) {
    SmallString<256> Real;
    if (!sys::fs::real_path(Cwd, Real))
      Cwd = Real;
    StringRef P(Path);
    if (P.consume_front(Cwd) && P.consume_front("/"))
      return P.str();
  }
  return Path.str();
}

void message(const SourcePos &P, StringRef Kernel, const Twine &Msg) {
  errs() << Tool << ": " << shownPath(P.File) << ":" << P.Line << ": "
         << Kernel << ": " << Msg << "\n";
}

std::string siteStr(const SourcePos &P) {
  return (shownPath(P.File) + ":" + Twine(P.Line) + ":" + Twine(P.Col)).str();
}

unsigned normMin(uint64_t M) { return M <= 1 ? 0 : static_cast<unsigned>(M); }

/// The arguments of a bound: "256" or "256, 2" (min blocks 0 and 1 are the
/// same contract and are omitted).
std::string boundArgs(unsigned MaxThreads, unsigned MinBlocks) {
  std::string S = std::to_string(MaxThreads);
  if (normMin(MinBlocks))
    S += ", " + std::to_string(MinBlocks);
  return S;
}

std::string blockText(const std::array<unsigned, 3> &B, bool Dim3) {
  if (!Dim3 && B[1] == 1 && B[2] == 1)
    return std::to_string(B[0]);
  std::string S = "dim3(" + std::to_string(B[0]);
  if (B[1] != 1 || B[2] != 1)
    S += ", " + std::to_string(B[1]);
  if (B[2] != 1)
    S += ", " + std::to_string(B[2]);
  return S + ")";
}

/// The text of an existing bound changed to \p Rec, keeping the author's
/// expression for every argument whose value stays (a macro, a named
/// constant, 2*128), its spelling and a third argument; "" with \p Why when
/// an argument whose value changes names a macro or a constant (it is never
/// replaced by a literal).
std::string updatedBound(const WrittenBound &B, const Recommendation &Rec,
                         std::string &Why) {
  std::string Max;
  if (B.MaxThreads == Rec.MaxThreads)
    Max = B.MaxText;
  else if (!B.MaxNamed.empty()) {
    Why = "its max threads is written through " + B.MaxNamed + " (" +
          std::to_string(B.MaxThreads) + ") where FlipFlop recommends " +
          std::to_string(Rec.MaxThreads) +
          "; the author's expression is not replaced by a literal";
    return "";
  } else
    Max = std::to_string(Rec.MaxThreads);
  const bool Third = !B.MaxBlocksText.empty();
  const unsigned Want = normMin(Rec.MinBlocks), Have = normMin(B.MinBlocks);
  std::string Min;
  if (Want == Have)
    Min = B.MinText;
  else if (!B.MinNamed.empty()) {
    Why = "its min blocks is written through " + B.MinNamed + " (" +
          std::to_string(B.MinBlocks) + ") where FlipFlop recommends " +
          (Want ? std::to_string(Want) : std::string("none")) +
          "; the author's expression is not replaced by a literal";
    return "";
  } else if (Want)
    Min = std::to_string(Want);
  else if (Third)
    Min = "1";
  std::string S = B.Spelling + "(" + Max;
  if (!Min.empty())
    S += ", " + Min;
  if (Third)
    S += ", " + B.MaxBlocksText;
  return S + ")";
}

struct Edit {
  std::string File;
  unsigned Offset, Length;
  std::string Text;
};

/// One recommendation per mangled name, or why not.
struct Resolved {
  const Recommendation *Rec = nullptr;
  std::string Conflict;
};

Resolved resolve(ArrayRef<const Recommendation *> Rs) {
  Resolved R;
  R.Rec = Rs.front();
  for (const Recommendation *OP : Rs)
    if (const Recommendation &O = *OP; O.MaxThreads != R.Rec->MaxThreads ||
        normMin(O.MinBlocks) != normMin(R.Rec->MinBlocks)) {
      R.Conflict = "reports disagree: " + R.Rec->Origin + " recommends (" +
                   boundArgs(R.Rec->MaxThreads, R.Rec->MinBlocks) + "), " +
                   O.Origin + " recommends (" +
                   boundArgs(O.MaxThreads, O.MinBlocks) + "); not edited";
      R.Rec = nullptr;
      return R;
    }
  return R;
}

struct Counts {
  unsigned Edited = 0, Unchanged = 0, Refused = 0;
};

/// Why a file may not be edited: outside the project (a note) or read-only
/// under -i (an error).
struct FileBlock {
  bool IsError = false;
  std::string Why;
};
using FileGuard = std::function<std::optional<FileBlock>(StringRef File)>;

class Planner {
public:
  Planner(const ScanResult &S,
          const std::map<std::string, std::vector<Recommendation>> &Recs,
          FileGuard Guard)
      : S(S), Recs(Recs), Guard(std::move(Guard)) {}

  std::vector<Edit> Edits;
  Counts N;
  /// Files that may not be edited: why, and the kernels not edited there.
  std::map<std::string, std::pair<FileBlock, std::vector<std::string>>> Blocked;
  /// Each kernel edited, with the files its edits touch, and the
  /// power/clock setting its recommendation goes with (empty: defaults).
  std::vector<std::set<std::string>> EditedFiles;
  std::vector<std::pair<std::string, std::string>> EditedSettings;

  void run() {
    std::vector<const KernelDef *> Order;
    for (const auto &KV : S.Kernels)
      Order.push_back(&KV.second);
    llvm::sort(Order, [](const KernelDef *A, const KernelDef *B) {
      return std::tie(A->Pos.File, A->Pos.Offset) <
             std::tie(B->Pos.File, B->Pos.Offset);
    });
    std::set<std::string> Defined;
    for (const KernelDef *K : Order)
      for (const auto &I : K->Instances)
        DefFiles[I.first].insert(K->Pos.File);
    for (const KernelDef *K : Order) {
      for (const auto &I : K->Instances)
        Defined.insert(I.first);
      plan(*K);
    }
    for (const auto &D : S.DeclaredOnly)
      if (!Defined.count(D.first) && Recs.count(D.first)) {
        message(D.second, D.first,
                "declared here but defined in none of the processed sources; "
                "not edited");
        ++N.Refused;
      }
  }

private:
  const ScanResult &S;
  const std::map<std::string, std::vector<Recommendation>> &Recs;
  FileGuard Guard;
  std::map<std::pair<std::string, unsigned>, std::string> SiteEdits;
  /// The files that define each mangled name (a kernel local to its file,
  /// static or in an anonymous namespace, may be defined in several).
  std::map<std::string, std::set<std::string>> DefFiles;

  /// The recommendations for kernel \p Mangled of definition \p K: all of
  /// them for an ordinary kernel; for one local to its file, those whose
  /// report names K's file (a report naming no file only where K is the
  /// one definition of that name).
  std::vector<const Recommendation *> recsFor(const KernelDef &K,
                                              const std::string &Mangled) {
    std::vector<const Recommendation *> Out;
    auto It = Recs.find(Mangled);
    if (It == Recs.end())
      return Out;
    for (const Recommendation &R : It->second) {
      if (R.FileLocal) {
        std::optional<bool> Same = appliesToFile(R, K.Pos.File);
        if (Same ? !*Same : DefFiles[Mangled].size() != 1)
          continue;
      }
      Out.push_back(&R);
    }
    return Out;
  }

  /// A launch of a kernel local to another file that defines one of the
  /// same name: not a launch of \p K's kernel.
  bool otherFilesLaunch(const KernelDef &K, const LaunchSite &L) {
    if (L.Pos.File == K.Pos.File || !flipflop::isFileLocalKernelName(L.Kernel))
      return false;
    return DefFiles[L.Kernel].count(L.Pos.File) != 0;
  }

  void refuse(const KernelDef &K, const Twine &Msg) {
    message(K.Pos, K.Name, Msg);
    ++N.Refused;
  }

  void plan(const KernelDef &K) {
    // 1. One recommendation common to every kernel this definition makes.
    std::vector<std::string> With, Without;
    const Recommendation *Rec = nullptr;
    bool Disagree = false, Agnostic = true;
    for (const auto &[Mangled, Disp] : K.Instances) {
      std::vector<const Recommendation *> Mine = recsFor(K, Mangled);
      if (Mine.empty()) {
        Without.push_back(Disp);
        continue;
      }
      Resolved R = resolve(Mine);
      if (!R.Rec)
        return refuse(K, Disp + ": " + R.Conflict);
      With.push_back(Disp + " (" +
                     boundArgs(R.Rec->MaxThreads, R.Rec->MinBlocks) + ")");
      for (const Recommendation *O : Mine)
        Agnostic &= O->BlockSizeAgnostic;
      if (Rec && (Rec->MaxThreads != R.Rec->MaxThreads ||
                  normMin(Rec->MinBlocks) != normMin(R.Rec->MinBlocks)))
        Disagree = true;
      if (!Rec)
        Rec = R.Rec;
    }
    if (!Rec)
      return; // Nothing recommended for this kernel.
    if (Disagree)
      return refuse(K, "template instances disagree: " + join(With, ", ") +
                           "; no common bound, not edited");
    if (!Without.empty())
      return refuse(K, "template instances without a recommendation: " +
                           join(Without, ", ") +
                           "; a bound on the template would apply to them "
                           "too, not edited");
    std::string Want = boundArgs(Rec->MaxThreads, Rec->MinBlocks);
    // What the report's tie and the min-blocks checks decided.
    for (const std::string *Note : {&Rec->TieNote, &Rec->CapNote})
      if (!Note->empty())
        message(K.Pos, K.Name, *Note);
    // Every edit states the power/clock setting it was chosen for.
    std::string Setting = "; " + Rec->Setting;
    if (!Rec->CapCheck.empty())
      Setting += "; " + Rec->CapCheck;

    // 2. Where to write it.
    if (!K.Editable)
      return refuse(K, K.Why);
    std::vector<std::string> Updated;
    if (!K.Bounds.empty()) {
      bool AllEqual = true;
      for (const WrittenBound &B : K.Bounds) {
        if (!B.Known || !B.Editable)
          return refuse(K, "has " + B.Text + " at " + siteStr(B.Pos) + ", " +
                               B.Why + "; not edited");
        AllEqual &= B.MaxThreads == Rec->MaxThreads &&
                    normMin(B.MinBlocks) == normMin(Rec->MinBlocks);
      }
      if (AllEqual) {
        message(K.Pos, K.Name,
                "already has " + K.Bounds.front().Text + ", as recommended; " +
                    Rec->Setting);
        ++N.Unchanged;
        return;
      }
      if (!Update)
        return refuse(K, "has " + K.Bounds.front().Text +
                             " where FlipFlop recommends "
                             "__launch_bounds__(" +
                             Want + "); not changed (use --update)");
      for (const WrittenBound &B : K.Bounds) {
        std::string Why;
        Updated.push_back(updatedBound(B, *Rec, Why));
        if (Updated.back().empty())
          return refuse(K, "has " + B.Text + " at " + siteStr(B.Pos) + ", " +
                               Why + "; not changed");
      }
    }

    // 3. The launch sites it can see.
    std::vector<const LaunchSite *> Sites;
    for (const LaunchSite &L : S.Sites)
      if (K.Instances.count(L.Kernel) && !otherFilesLaunch(K, L))
        Sites.push_back(&L);
    std::vector<std::string> Problems;
    std::vector<Edit> Rewrites;
    std::vector<std::string> RewriteNotes;
    bool Rewrite = RewriteLaunchSites && Agnostic;
    if (RewriteLaunchSites && !Agnostic && !Sites.empty())
      message(K.Pos, K.Name,
              "the report does not show it block-size-agnostic; launch "
              "sites not rewritten");
    for (const LaunchSite *L : Sites) {
      std::string Where = siteStr(L->Pos);
      if (Rewrite && L->Known && L->Rewritable) {
        std::array<unsigned, 3> New = Rec->Block;
        if (New[0] == 0)
          New = {Rec->MaxThreads, 1, 1};
        uint64_t NewT = uint64_t(New[0]) * New[1] * New[2];
        bool Same = L->Block[0] == New[0] && L->Block[1] == New[1] &&
                    L->Block[2] == New[2];
        if (!Same && NewT <= Rec->MaxThreads) {
          std::string Text = blockText(New, L->Dim3Spelling);
          auto Key = std::make_pair(L->Pos.File, L->Offset);
          auto It = SiteEdits.find(Key);
          if (It != SiteEdits.end() && It->second != Text) {
            Problems.push_back(Where + " (shared with another kernel's "
                                       "launch; not rewritten)");
            continue;
          }
          if (It == SiteEdits.end()) {
            SiteEdits[Key] = Text;
            Rewrites.push_back({L->Pos.File, L->Offset, L->Length, Text});
            RewriteNotes.push_back("rewrote launch site " + Where +
                                   " block " +
                                   std::to_string(L->threads()) + " -> " +
                                   Text);
          }
          continue;
        }
      }
      std::string Why;
      if (!L->Known) {
        Why = L->Why;
      } else if (L->threads() > Rec->MaxThreads) {
        Why = std::to_string(L->threads()) + " threads";
      } else {
        if (Rewrite && !L->Rewritable)
          RewriteNotes.push_back("kept launch site " + Where + " (" +
                                 L->NotRewritable + ")");
        continue;
      }
      if (Rewrite && L->Known && !L->Rewritable)
        Why += "; not rewritten: " + L->NotRewritable;
      Problems.push_back(Where + " (" + Why + ")");
    }
    if (!Problems.empty() && !Force)
      return refuse(K, "not edited: launch sites with more than " +
                           std::to_string(Rec->MaxThreads) +
                           " threads per block or a block size not known "
                           "here: " +
                           join(Problems, ", ") +
                           "; use --force to edit anyway");

    // 4. Every file the edit touches must be editable: under the project
    // root or the header filter, and writable under -i. Otherwise the whole
    // kernel is left alone (a bound without its launch-site rewrites would
    // not be safe); the file is reported once, after planning.
    std::set<std::string> Files;
    if (K.Bounds.empty())
      Files.insert(K.Pos.File);
    for (const WrittenBound &B : K.Bounds)
      Files.insert(B.Pos.File);
    for (const Edit &E : Rewrites)
      Files.insert(E.File);
    for (const std::string &F : Files)
      if (std::optional<FileBlock> B = Guard(F)) {
        auto &Entry = Blocked[F];
        Entry.first = *B;
        Entry.second.push_back(K.Name);
        for (const Edit &E : Rewrites)
          SiteEdits.erase({E.File, E.Offset});
        ++N.Refused;
        return;
      }
    if (!Problems.empty())
      message(K.Pos, K.Name,
              "--force: edited despite launch sites " + join(Problems, ", "));

    // 5. The edit.
    EditedFiles.push_back(Files);
    EditedSettings.push_back(
        {K.Name, Rec->HasLever ? Rec->Setting : std::string()});
    if (K.Bounds.empty()) {
      Edits.push_back({K.Pos.File, K.InsertOffset, 0,
                       "__launch_bounds__(" + Want + ") "});
      message(K.Pos, K.Name,
              "inserted __launch_bounds__(" + Want + ")" + Setting +
                  (Sites.empty() ? "; no launch site seen in the processed "
                                   "sources, check launches elsewhere"
                                 : ""));
    } else {
      for (size_t I = 0; I < K.Bounds.size(); ++I) {
        const WrittenBound &B = K.Bounds[I];
        Edits.push_back({B.Pos.File, B.Offset, B.Length, Updated[I]});
        message(B.Pos, K.Name,
                "updated " + B.Text + " to " + Updated[I] + Setting);
      }
    }
    for (const std::string &Note : RewriteNotes)
      message(K.Pos, K.Name, Note);
    Edits.insert(Edits.end(), Rewrites.begin(), Rewrites.end());
    ++N.Edited;
  }
};

/// Why \p Path may not be replaced under -i, or "": read-only files (mode
/// without owner write, e.g. 0444) are refused even when their folder is
/// writable, and even for root, who may write anything.
std::string readOnlyProblem(StringRef Path) {
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(Path, St))
    return EC.message();
  if (St.type() != sys::fs::file_type::regular_file)
    return "not a regular file";
  unsigned Perms = unsigned(St.permissions()) & sys::fs::all_perms;
  SmallString<8> Mode;
  raw_svector_ostream(Mode) << format("%04o", Perms);
  if (!(Perms & sys::fs::owner_write))
    return ("read-only (mode " + Mode + ")").str();
  if (!sys::fs::can_write(Path))
    return ("not writable by this user (mode " + Mode + ")").str();
  return "";
}

Error writeAtomically(StringRef Path, StringRef Parsed, StringRef NewText) {
  auto Err = [&](const Twine &What, std::error_code EC = {}) -> Error {
    std::string Msg = (shownPath(Path) + ": " + What).str();
    if (EC)
      Msg += ": " + EC.message();
    return createStringError(EC ? EC : inconvertibleErrorCode(), Msg);
  };
  SmallString<256> Real;
  if (std::error_code EC = sys::fs::real_path(Path, Real))
    return Err("cannot resolve", EC);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Now = MemoryBuffer::getFile(Real);
  if (!Now)
    return Err("cannot read", Now.getError());
  if ((*Now)->getBuffer() != Parsed)
    return Err("changed on disk since it was parsed; not written");
  // Checked again here: the file may have changed since planning.
  if (std::string Why = readOnlyProblem(Real); !Why.empty())
    return Err(Why + "; not written");
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Real, Status))
    return Err("cannot stat", EC);
  unsigned Perms = unsigned(Status.permissions()) & sys::fs::all_perms;
  // A temporary file next to the original, created exclusively (O_EXCL: no
  // planted link is followed) with the original's permissions from the
  // start (the umask may only narrow them), removed on a signal, renamed
  // over the original only once complete. (writeFileSafely does the same
  // but neither removes its temporary on a signal nor syncs it.)
  Expected<sys::fs::TempFile> Tmp =
      sys::fs::TempFile::create(Real + ".flipflop-apply-%%%%%%", Perms);
  if (!Tmp)
    return Err("cannot create a temporary file next to it",
               errorToErrorCode(Tmp.takeError()));
  auto Fail = [&](const Twine &What, std::error_code EC = {}) -> Error {
    consumeError(Tmp->discard());
    return Err(What, EC);
  };
  {
    raw_fd_ostream OS(Tmp->FD, /*shouldClose=*/false);
    OS << NewText;
    OS.flush();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      return Fail("cannot write", EC);
    }
  }
  if (::fsync(Tmp->FD) != 0)
    return Fail("cannot sync the temporary file",
                std::error_code(errno, std::generic_category()));
  // Exactly the original's permissions (undoing the umask), set on the open
  // descriptor, so never broader than the original's.
  if (std::error_code EC =
          sys::fs::setPermissions(Tmp->FD, static_cast<sys::fs::perms>(Perms)))
    return Fail("cannot set permissions", EC);
  if (Error E = Tmp->keep(Real))
    return Err("cannot replace", errorToErrorCode(std::move(E)));
  return Error::success();
}

/// The top of the checkout holding \p Dir (a folder with .git, .hg or
/// .svn), or "" when there is none.
std::string checkoutTop(StringRef Dir) {
  SmallString<256> D(Dir);
  while (!D.empty()) {
    for (const char *VCS : {".git", ".hg", ".svn"}) {
      SmallString<256> P(D);
      sys::path::append(P, VCS);
      if (sys::fs::exists(P))
        return std::string(D);
    }
    StringRef Parent = sys::path::parent_path(D);
    if (Parent == D)
      break;
    D = Parent;
  }
  return "";
}

/// Whether \p File is \p Dir or under it (both real paths).
bool isUnder(StringRef File, StringRef Dir) {
  if (Dir == "/")
    return true;
  return File.starts_with(Dir) &&
         (File.size() == Dir.size() || File[Dir.size()] == '/');
}

/// -p DIR as given on the command line (before "--"), or "".
std::string buildPathArg(int argc, const char **argv) {
  for (int I = 1; I < argc; ++I) {
    StringRef A = argv[I];
    if (A == "--")
      break;
    if ((A == "-p" || A == "--p") && I + 1 < argc)
      return argv[I + 1];
    if (A.consume_front("-p=") || A.consume_front("--p="))
      return A.str();
  }
  return "";
}

/// Adds the flags flipflop-apply needs to every compile command: parse the
/// host side only (one job per CUDA file), no warnings, and clang's resource
/// directory (LibTooling looks for it next to this binary otherwise).
tooling::ArgumentsAdjuster cudaAdjuster() {
  return [](const tooling::CommandLineArguments &Args, StringRef File) {
    tooling::CommandLineArguments Out = Args;
    bool Cuda = StringRef(File).ends_with(".cu") ||
                StringRef(File).ends_with(".cuh");
    bool Side = false, Resource = false;
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef A = Args[I];
      if (A == "-xcuda" || (A == "-x" && I + 1 < Args.size() &&
                            Args[I + 1] == "cuda"))
        Cuda = true;
      if (A.starts_with("--cuda-host-only") ||
          A.starts_with("--cuda-device-only") ||
          A.starts_with("--offload-host-only") ||
          A.starts_with("--offload-device-only"))
        Side = true;
      if (A.starts_with("-resource-dir"))
        Resource = true;
    }
    std::vector<std::string> Extra = {"-w"};
    if (Cuda && !Side)
      Extra.push_back("--cuda-host-only");
#ifdef FLIPFLOP_CLANG_RESOURCE_DIR
    if (!Resource && sys::fs::is_directory(FLIPFLOP_CLANG_RESOURCE_DIR))
      Extra.push_back("-resource-dir=" FLIPFLOP_CLANG_RESOURCE_DIR);
#endif
    auto Pos = llvm::find(Out, "--");
    Out.insert(Pos, Extra.begin(), Extra.end());
    return Out;
  };
}

} // namespace

int main(int argc, const char **argv) {
  sys::PrintStackTraceOnErrorSignal(argv[0]);
  ExitOnError Exit(std::string(Tool) + ": error: ");
  cl::extrahelp More(
      "\nPrints a unified diff of the edits unless -i is given. See "
      "docs/APPLY.md.\n");
  // A build folder without a compilation database: one line and stop.
  // (CommonOptionsParser would print several lines and go on without flags.)
  if (std::string Build = buildPathArg(argc, argv); !Build.empty()) {
    std::string Why;
    if (!sys::fs::is_directory(Build)) {
      errs() << Tool << ": error: -p " << Build
             << ": no such build directory\n";
      return 1;
    }
    SmallString<256> CDB(Build);
    sys::path::append(CDB, "compile_commands.json");
    // Clang's reader prints YAML diagnostics of its own on malformed JSON.
    if (sys::fs::exists(CDB)) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(CDB);
      std::string Bad;
      if (!Text)
        Bad = Text.getError().message();
      else if (Expected<json::Value> V = json::parse((*Text)->getBuffer()); !V)
        Bad = "malformed JSON: " + toString(V.takeError());
      if (!Bad.empty()) {
        errs() << Tool << ": error: " << CDB << ": " << Bad << "\n";
        return 1;
      }
    }
    if (!tooling::CompilationDatabase::autoDetectFromDirectory(Build, Why)) {
      std::string Detail = "no compilation database (compile_commands.json) "
                           "in it or any parent directory";
      if (sys::fs::exists(CDB)) {
        // Keep the JSON reader's reason, on one line.
        StringRef W(Why);
        size_t At = W.find("json-compilation-database: ");
        Detail = "compile_commands.json cannot be read";
        if (At != StringRef::npos)
          Detail += ": " + W.substr(At + 27).split('\n').first.str();
      }
      errs() << Tool << ": error: -p " << Build << ": " << Detail << "\n";
      return 1;
    }
  }
  auto Parser = tooling::CommonOptionsParser::create(
      argc, argv, ApplyCategory, cl::OneOrMore,
      "Inserts FlipFlop's recommended __launch_bounds__ into CUDA sources.\n");
  if (!Parser) {
    errs() << Tool << ": error: " << toString(Parser.takeError()) << "\n";
    return 1;
  }
  if (Reports.empty()) {
    errs() << Tool << ": error: no --reports given\n";
    return 1;
  }

  // Recommendations by mangled name.
  std::vector<std::string> ReportFiles;
  ReadOptions ReadOpts;
  ReadOpts.Objective = Objective;
  ReadOpts.TrustModelCaps = TrustModelCaps;
  std::vector<Recommendation> All =
      Exit(readReports(Reports, ReadOpts, ReportFiles));
  std::map<std::string, std::vector<Recommendation>> Recs;
  for (Recommendation &R : All) {
    // Remarks carry one objective's pick: never apply it for another.
    if (!R.Objective.empty() && Objective.getNumOccurrences() &&
        R.Objective != objectiveName(Objective)) {
      errs() << Tool << ": error: " << R.Origin << ": the remark for '"
             << R.Kernel << "' was made for objective '" << R.Objective
             << "', not '" << objectiveName(Objective) << "'\n";
      return 1;
    }
    Recs[R.Kernel].push_back(std::move(R));
  }

  // Parse every source.
  // One source at a time, so that the error names those that failed.
  ScanResult Scan;
  std::unique_ptr<tooling::FrontendActionFactory> Factory =
      newScanActionFactory(Scan);
  std::vector<std::string> Broken;
  for (const std::string &Src : Parser->getSourcePathList()) {
    tooling::ClangTool ClangTool(Parser->getCompilations(), {Src});
    ClangTool.appendArgumentsAdjuster(cudaAdjuster());
    if (ClangTool.run(Factory.get()) != 0)
      Broken.push_back(shownPath(Src));
  }
  if (!Broken.empty()) {
    errs() << Tool
           << ": error: some sources did not compile; nothing was changed ("
           << join(Broken, ", ") << ")\n";
    return 1;
  }

  // Which files may be edited: the sources named, and the other files
  // (headers) under the project root or matching --header-filter; under -i
  // none that is read-only.
  std::set<std::string> MainFiles;
  for (const std::string &Src : Parser->getSourcePathList()) {
    SmallString<256> Real;
    if (!sys::fs::real_path(Src, Real))
      MainFiles.insert(std::string(Real));
  }
  std::string Root;
  {
    SmallString<256> Dir;
    if (!ProjectRoot.empty()) {
      if (std::error_code EC = sys::fs::real_path(ProjectRoot, Dir)) {
        errs() << Tool << ": error: --project-root " << ProjectRoot << ": "
               << EC.message() << "\n";
        return 1;
      }
      Root = std::string(Dir);
    } else if (!sys::fs::current_path(Dir)) {
      SmallString<256> Real;
      if (!sys::fs::real_path(Dir, Real))
        Dir = Real;
      Root = checkoutTop(Dir);
      if (Root.empty())
        Root = std::string(Dir);
    }
  }
  std::optional<Regex> Filter;
  if (HeaderFilter.getNumOccurrences()) {
    Filter.emplace(HeaderFilter);
    std::string Why;
    if (!Filter->isValid(Why)) {
      errs() << Tool << ": error: --header-filter '" << HeaderFilter
             << "': " << Why << "\n";
      return 1;
    }
  }
  auto Guard = [&](StringRef File) -> std::optional<FileBlock> {
    bool Allowed = MainFiles.count(File.str()) ||
                   (Filter ? Filter->match(File) : isUnder(File, Root));
    if (!Allowed)
      return FileBlock{
          false, Filter
                     ? "does not match --header-filter '" + HeaderFilter + "'"
                     : "outside the project root " + Root +
                           " (see --project-root, --header-filter)"};
    if (InPlace)
      if (std::string Why = readOnlyProblem(File); !Why.empty())
        return FileBlock{true, Why};
    return std::nullopt;
  };

  Planner Plan(Scan, Recs, Guard);
  Plan.run();
  bool Failed = false;
  for (const auto &[File, Entry] : Plan.Blocked) {
    const auto &[Block, Kernels] = Entry;
    if (Block.IsError) {
      errs() << Tool << ": error: " << shownPath(File) << ": " << Block.Why
             << "; not edited: " << join(Kernels, ", ") << "\n";
      Failed = true;
    } else {
      errs() << Tool << ": note: " << shownPath(File) << ": " << Block.Why
             << "; not edited: " << join(Kernels, ", ") << "\n";
    }
  }

  // Group the edits per file.
  std::map<std::string, tooling::Replacements> PerFile;
  for (const Edit &E : Plan.Edits) {
    tooling::Replacement R(E.File, E.Offset, E.Length, E.Text);
    if (Error Err = PerFile[E.File].add(R)) {
      errs() << Tool << ": error: " << shownPath(E.File)
             << ": overlapping edits: " << toString(std::move(Err)) << "\n";
      return 1;
    }
  }

  std::set<std::string> NotWritten;
  for (const auto &[File, Repls] : PerFile) {
    auto It = Scan.Contents.find(File);
    if (It == Scan.Contents.end()) {
      errs() << Tool << ": error: " << shownPath(File)
             << ": contents not recorded\n";
      return 1;
    }
    Expected<std::string> New =
        tooling::applyAllReplacements(It->second, Repls);
    if (!New) {
      errs() << Tool << ": error: " << shownPath(File) << ": "
             << toString(New.takeError()) << "\n";
      return 1;
    }
    if (!InPlace) {
      std::string Shown = shownPath(File);
      writeUnifiedDiff(outs(), Shown, Shown, It->second, *New);
      continue;
    }
    if (Error E = writeAtomically(File, It->second, *New)) {
      errs() << Tool << ": error: " << toString(std::move(E)) << "\n";
      Failed = true;
      NotWritten.insert(File);
    }
  }
  // A kernel whose file could not be written was not edited.
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

  if (!ExportFixes.empty()) {
    tooling::TranslationUnitReplacements TUR;
    const auto &Sources = Parser->getSourcePathList();
    if (Sources.size() == 1) {
      SmallString<256> Main(Sources.front());
      sys::fs::make_absolute(Main);
      TUR.MainSourceFile = std::string(Main);
    }
    for (const auto &FR : PerFile)
      for (const tooling::Replacement &R : FR.second)
        TUR.Replacements.push_back(R);
    std::error_code EC;
    raw_fd_ostream OS(ExportFixes, EC, sys::fs::OF_Text);
    if (EC) {
      errs() << Tool << ": error: " << ExportFixes << ": " << EC.message()
             << "\n";
      return 1;
    }
    yaml::Output YAML(OS);
    YAML << TUR;
  }

  errs() << Tool << ": " << Plan.N.Edited << " kernel(s) edited, "
         << Plan.N.Unchanged << " already as recommended, " << Plan.N.Refused
         << " not edited (" << Recs.size() << " recommendation(s) from "
         << ReportFiles.size() << " report(s))\n";
  // The power/clock settings the edits were chosen for.
  if (Plan.N.Edited && Levers.empty())
    errs() << Tool << ": every edit was chosen for the default power limit "
           << "and clocks\n";
  else if (Plan.N.Edited)
    errs() << Tool << ": the edits were chosen for these power/clock "
           << "settings (others: default power and clocks): "
           << join(Levers, "; ") << "\n";
  return Failed ? 1 : 0;
}
