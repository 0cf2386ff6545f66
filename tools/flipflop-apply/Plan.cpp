//===- Plan.cpp - Which edits flipflop-apply makes, and why not -----------===//
#include "Plan.h"
#include "Messages.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <tuple>

using namespace llvm;

namespace flipflop {
namespace apply {

std::string boundArgs(unsigned MaxThreads, unsigned MinBlocks) {
  std::string S = std::to_string(MaxThreads);
  if (normMin(MinBlocks))
    S += ", " + std::to_string(MinBlocks);
  return S;
}

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

namespace {

/// One recommendation per mangled name, or why not.
struct Resolved {
  const Recommendation *Rec = nullptr;
  std::string Conflict;
};

bool sameBound(const Recommendation &A, const Recommendation &B) {
  return A.MaxThreads == B.MaxThreads &&
         normMin(A.MinBlocks) == normMin(B.MinBlocks);
}

Resolved resolve(ArrayRef<const Recommendation *> Rs) {
  Resolved R;
  R.Rec = Rs.front();
  for (const Recommendation *OP : Rs)
    if (const Recommendation &O = *OP; !sameBound(O, *R.Rec)) {
      R.Conflict = "reports disagree: " + R.Rec->Origin + " recommends (" +
                   boundArgs(R.Rec->MaxThreads, R.Rec->MinBlocks) + "), " +
                   O.Origin + " recommends (" +
                   boundArgs(O.MaxThreads, O.MinBlocks) + "); not edited";
      R.Rec = nullptr;
      return R;
    }
  return R;
}

} // namespace

void Planner::run() {
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

/// The recommendations for kernel \p Mangled of definition \p K: all of
/// them for an ordinary kernel; for one local to its file, those whose
/// report names K's file (a report naming no file only where K is the one
/// definition of that name).
std::vector<const Recommendation *>
Planner::recsFor(const KernelDef &K, const std::string &Mangled) {
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

/// A launch of a kernel local to another file that defines one of the same
/// name: not a launch of \p K's kernel.
bool Planner::otherFilesLaunch(const KernelDef &K, const LaunchSite &L) {
  if (L.Pos.File == K.Pos.File || !flipflop::isFileLocalKernelName(L.Kernel))
    return false;
  return DefFiles[L.Kernel].count(L.Pos.File) != 0;
}

void Planner::refuse(const KernelDef &K, const Twine &Msg) {
  message(K.Pos, K.Name, Msg);
  ++N.Refused;
}

void Planner::plan(const KernelDef &K) {
  KernelPlan P;
  if (!chooseRecommendation(K, P) || !placeBound(K, P) ||
      !checkLaunchSites(K, P) || !checkFiles(K, P))
    return;
  commit(K, P);
}

/// 1. One recommendation common to every kernel this definition makes.
bool Planner::chooseRecommendation(const KernelDef &K, KernelPlan &P) {
  std::vector<std::string> With, Without;
  const Recommendation *Rec = nullptr;
  bool Disagree = false;
  for (const auto &[Mangled, Disp] : K.Instances) {
    std::vector<const Recommendation *> Mine = recsFor(K, Mangled);
    if (Mine.empty()) {
      Without.push_back(Disp);
      continue;
    }
    Resolved R = resolve(Mine);
    if (!R.Rec) {
      refuse(K, Disp + ": " + R.Conflict);
      return false;
    }
    With.push_back(Disp + " (" +
                   boundArgs(R.Rec->MaxThreads, R.Rec->MinBlocks) + ")");
    for (const Recommendation *O : Mine)
      P.Agnostic &= O->BlockSizeAgnostic;
    if (Rec && !sameBound(*Rec, *R.Rec))
      Disagree = true;
    if (!Rec)
      Rec = R.Rec;
  }
  if (!Rec)
    return false; // Nothing recommended for this kernel.
  if (Disagree) {
    refuse(K, "template instances disagree: " + join(With, ", ") +
                  "; no common bound, not edited");
    return false;
  }
  if (!Without.empty()) {
    refuse(K, "template instances without a recommendation: " +
                  join(Without, ", ") +
                  "; a bound on the template would apply to them too, not "
                  "edited");
    return false;
  }
  P.Rec = Rec;
  P.Want = boundArgs(Rec->MaxThreads, Rec->MinBlocks);
  // What the report's tie and the min-blocks checks decided.
  for (const std::string *Note : {&Rec->TieNote, &Rec->CapNote})
    if (!Note->empty())
      message(K.Pos, K.Name, *Note);
  // Every edit states the power/clock setting it was chosen for.
  P.Setting = "; " + Rec->Setting;
  if (!Rec->CapCheck.empty())
    P.Setting += "; " + Rec->CapCheck;
  return true;
}

/// 2. Where to write it: before the name, or over the bounds written.
bool Planner::placeBound(const KernelDef &K, KernelPlan &P) {
  const Recommendation &Rec = *P.Rec;
  if (!K.Editable) {
    refuse(K, K.Why);
    return false;
  }
  if (K.Bounds.empty())
    return true;
  bool AllEqual = true;
  for (const WrittenBound &B : K.Bounds) {
    if (!B.Known || !B.Editable) {
      refuse(K, "has " + B.Text + " at " + siteStr(B.Pos) + ", " + B.Why +
                    "; not edited");
      return false;
    }
    AllEqual &= B.MaxThreads == Rec.MaxThreads &&
                normMin(B.MinBlocks) == normMin(Rec.MinBlocks);
  }
  if (AllEqual) {
    message(K.Pos, K.Name,
            "already has " + K.Bounds.front().Text + ", as recommended; " +
                Rec.Setting);
    ++N.Unchanged;
    return false;
  }
  if (!Opts.Update) {
    refuse(K, "has " + K.Bounds.front().Text +
                  " where FlipFlop recommends __launch_bounds__(" + P.Want +
                  "); not changed (use --update)");
    return false;
  }
  for (const WrittenBound &B : K.Bounds) {
    std::string Why;
    P.Updated.push_back(updatedBound(B, Rec, Why));
    if (P.Updated.back().empty()) {
      refuse(K, "has " + B.Text + " at " + siteStr(B.Pos) + ", " + Why +
                    "; not changed");
      return false;
    }
  }
  return true;
}

/// 4. Every file the edit touches must be editable: under the project root
/// or the header filter, and writable under -i. Otherwise the whole kernel
/// is left alone (a bound without its launch-site rewrites would not be
/// safe); the file is reported once, after planning.
bool Planner::checkFiles(const KernelDef &K, KernelPlan &P) {
  if (K.Bounds.empty())
    P.Files.insert(K.Pos.File);
  for (const WrittenBound &B : K.Bounds)
    P.Files.insert(B.Pos.File);
  for (const Edit &E : P.Rewrites)
    P.Files.insert(E.File);
  for (const std::string &F : P.Files)
    if (std::optional<FileBlock> B = Guard(F)) {
      auto &Entry = Blocked[F];
      Entry.first = *B;
      Entry.second.push_back(K.Name);
      for (const Edit &E : P.Rewrites)
        SiteEdits.erase({E.File, E.Offset});
      ++N.Refused;
      return false;
    }
  if (!P.Problems.empty())
    message(K.Pos, K.Name,
            "--force: edited despite launch sites " + join(P.Problems, ", "));
  return true;
}

/// 5. The edit.
void Planner::commit(const KernelDef &K, KernelPlan &P) {
  const Recommendation &Rec = *P.Rec;
  EditedFiles.push_back(P.Files);
  EditedSettings.push_back(
      {K.Name, Rec.HasLever ? Rec.Setting : std::string()});
  if (K.Bounds.empty()) {
    Edits.push_back({K.Pos.File, K.InsertOffset, 0,
                     "__launch_bounds__(" + P.Want + ") "});
    message(K.Pos, K.Name,
            "inserted __launch_bounds__(" + P.Want + ")" + P.Setting +
                (P.Sites.empty() ? "; no launch site seen in the processed "
                                   "sources, check launches elsewhere"
                                 : ""));
  } else {
    for (size_t I = 0; I < K.Bounds.size(); ++I) {
      const WrittenBound &B = K.Bounds[I];
      Edits.push_back({B.Pos.File, B.Offset, B.Length, P.Updated[I]});
      message(B.Pos, K.Name,
              "updated " + B.Text + " to " + P.Updated[I] + P.Setting);
    }
  }
  for (const std::string &Note : P.RewriteNotes)
    message(K.Pos, K.Name, Note);
  Edits.insert(Edits.end(), P.Rewrites.begin(), P.Rewrites.end());
  ++N.Edited;
}

} // namespace apply
} // namespace flipflop
