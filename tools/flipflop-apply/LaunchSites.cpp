//===- LaunchSites.cpp - Launch sites against a bound, and their rewrite --===//
//
// Step 3 of planning a kernel: every launch the scanner saw must fit the
// recommended bound (or --force). With --rewrite-launch-sites, and a report
// that shows the kernel block-size-agnostic, a literal block size at a
// launch site is changed to the recommended shape instead.
//
//===----------------------------------------------------------------------===//
#include "Messages.h"
#include "Plan.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace flipflop {
namespace apply {

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

/// 3. The launch sites it can see.
bool Planner::checkLaunchSites(const KernelDef &K, KernelPlan &P) {
  const Recommendation &Rec = *P.Rec;
  for (const LaunchSite &L : S.Sites)
    if (K.Instances.count(L.Kernel) && !otherFilesLaunch(K, L))
      P.Sites.push_back(&L);
  const bool Rewrite = Opts.RewriteLaunchSites && P.Agnostic;
  if (Opts.RewriteLaunchSites && !P.Agnostic && !P.Sites.empty())
    message(K.Pos, K.Name,
            "the report does not show it block-size-agnostic; launch "
            "sites not rewritten");
  for (const LaunchSite *L : P.Sites) {
    if (Rewrite && L->Known && L->Rewritable && rewriteSite(*L, P))
      continue;
    std::string Why;
    if (!L->Known) {
      Why = L->Why;
    } else if (L->threads() > Rec.MaxThreads) {
      Why = std::to_string(L->threads()) + " threads";
    } else {
      if (Rewrite && !L->Rewritable)
        P.RewriteNotes.push_back("kept launch site " + siteStr(L->Pos) +
                                 " (" + L->NotRewritable + ")");
      continue;
    }
    if (Rewrite && L->Known && !L->Rewritable)
      Why += "; not rewritten: " + L->NotRewritable;
    P.Problems.push_back(siteStr(L->Pos) + " (" + Why + ")");
  }
  if (!P.Problems.empty() && !Opts.Force) {
    refuse(K, "not edited: launch sites with more than " +
                  std::to_string(Rec.MaxThreads) +
                  " threads per block or a block size not known here: " +
                  join(P.Problems, ", ") + "; use --force to edit anyway");
    return false;
  }
  return true;
}

/// Rewrites the literal block size of \p L to the recommended shape; false
/// when it is already that shape or the shape does not fit the bound (then
/// the site is checked as it stands). A site shared with another kernel's
/// launch that wants another block is a problem.
bool Planner::rewriteSite(const LaunchSite &L, KernelPlan &P) {
  const Recommendation &Rec = *P.Rec;
  std::array<unsigned, 3> New = Rec.Block;
  if (New[0] == 0)
    New = {Rec.MaxThreads, 1, 1};
  uint64_t NewT = uint64_t(New[0]) * New[1] * New[2];
  bool Same = L.Block[0] == New[0] && L.Block[1] == New[1] &&
              L.Block[2] == New[2];
  if (Same || NewT > Rec.MaxThreads)
    return false;
  std::string Where = siteStr(L.Pos);
  std::string Text = blockText(New, L.Dim3Spelling);
  auto Key = std::make_pair(L.Pos.File, L.Offset);
  auto It = SiteEdits.find(Key);
  if (It != SiteEdits.end() && It->second != Text) {
    P.Problems.push_back(Where + " (shared with another kernel's launch; not "
                                 "rewritten)");
    return true;
  }
  if (It == SiteEdits.end()) {
    SiteEdits[Key] = Text;
    P.Rewrites.push_back({L.Pos.File, L.Offset, L.Length, Text});
    P.RewriteNotes.push_back("rewrote launch site " + Where + " block " +
                             std::to_string(L.threads()) + " -> " + Text);
  }
  return true;
}

} // namespace apply
} // namespace flipflop
