//===- ScanLaunches.cpp - Launch sites and other uses of a kernel ---------===//
#include "ScannerImpl.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;
using namespace llvm;

namespace flipflop {
namespace apply {

bool Scanner::isLaunchExName(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() &&
         (FD->getName() == "cudaLaunchKernelEx" ||
          FD->getName() == "cudaLaunchKernelExC");
}

const DeclRefExpr *Scanner::kernelRef(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParenCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
  return FD && FD->hasAttr<CUDAGlobalAttr>() ? DRE : nullptr;
}

void Scanner::addSite(const FunctionDecl *Kernel, SourceLocation Loc,
                      StringRef Via, const Expr *Grid, const Expr *Block,
                      const Expr *Shmem, BlockVal V) {
  LaunchSite S;
  S.Kernel = mangle(Kernel);
  S.Pos = pos(Loc);
  S.Via = Via.str();
  S.Known = V.Known;
  S.Why = V.Why;
  if (V.Known)
    S.Block = V.largest();
  if (Block)
    rewriteInfo(S, Grid, Block, Shmem);
  else
    S.NotRewritable = "the block size is in a launch configuration object";
  std::string Key = S.Kernel + "|" + S.Pos.File + "|" +
                    std::to_string(S.Pos.Offset) + "|" + S.Via + "|" +
                    (S.Known ? std::to_string(S.Block[0]) + "," +
                                   std::to_string(S.Block[1]) + "," +
                                   std::to_string(S.Block[2])
                             : S.Why);
  if (R.SiteKeys.insert(Key).second)
    R.Sites.push_back(std::move(S));
}

void Scanner::rewriteInfo(LaunchSite &S, const Expr *Grid,
                          const Expr *Block, const Expr *Shmem) {
  const Expr *B = Block->IgnoreParens()->IgnoreImplicit();
  const Expr *Text = nullptr;
  uint64_t OldX = 0;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(B);
      CE && !isa<CXXTemporaryObjectExpr>(CE) && CE->getNumArgs() >= 1 &&
      !CE->getConstructor()->isCopyOrMoveConstructor()) {
    // An integer converted to dim3 implicitly.
    if (const auto *IL =
            dyn_cast<IntegerLiteral>(CE->getArg(0)->IgnoreParenImpCasts())) {
      Text = IL;
      OldX = IL->getValue().getZExtValue();
    }
  } else if (isa<CXXFunctionalCastExpr>(B) ||
             isa<CXXTemporaryObjectExpr>(B)) {
    const auto *Ctor = dyn_cast<CXXConstructExpr>(stripImplicit(B));
    bool AllLiterals = Ctor && isDim3(Ctor->getType()) &&
                       !Ctor->getConstructor()->isCopyOrMoveConstructor();
    for (unsigned I = 0; AllLiterals && I < Ctor->getNumArgs(); ++I) {
      const Expr *A = Ctor->getArg(I);
      if (isa<CXXDefaultArgExpr>(A))
        continue;
      const auto *IL = dyn_cast<IntegerLiteral>(A->IgnoreParenImpCasts());
      AllLiterals = IL != nullptr;
      if (IL && I == 0)
        OldX = IL->getValue().getZExtValue();
    }
    if (AllLiterals) {
      Text = B;
      S.Dim3Spelling = true;
    }
  }
  if (!Text) {
    S.NotRewritable = "the block size is not a literal at the launch";
    return;
  }
  SourceRange Rg = Text->getSourceRange();
  if (Rg.getBegin().isMacroID() || Rg.getEnd().isMacroID()) {
    S.NotRewritable = "the block size is written inside a macro";
    return;
  }
  if (Shmem && !isa<CXXDefaultArgExpr>(Shmem)) {
    Expr::EvalResult Res;
    if (Shmem->isValueDependent() || !Shmem->EvaluateAsInt(Res, Ctx) ||
        !Res.Val.getInt().isZero()) {
      S.NotRewritable = "the launch sets a dynamic shared memory size, "
                        "which may depend on the block size";
      return;
    }
  }
  // A grid computed from the old block size would no longer match.
  struct LiteralFinder : RecursiveASTVisitor<LiteralFinder> {
    uint64_t A, B;
    bool Found = false;
    bool VisitIntegerLiteral(IntegerLiteral *L) {
      uint64_t V = L->getValue().getLimitedValue();
      Found |= V == A || V == B;
      return true;
    }
  } Finder;
  Finder.A = OldX;
  Finder.B = S.Known ? S.threads() : OldX;
  if (Grid)
    Finder.TraverseStmt(const_cast<Expr *>(Grid));
  if (Finder.Found) {
    S.NotRewritable = "the grid size mentions the block size " +
                      std::to_string(OldX);
    return;
  }
  CharSourceRange TR = CharSourceRange::getTokenRange(Rg);
  StringRef Src = Lexer::getSourceText(TR, SM, LO);
  if (Src.empty()) {
    S.NotRewritable = "the block size's text could not be read";
    return;
  }
  S.Rewritable = true;
  S.Offset = SM.getFileOffset(Rg.getBegin());
  S.Length = Src.size();
}

bool Scanner::dependent(const std::vector<const Decl *> &Stack) {
  for (const Decl *D : Stack)
    if (const auto *DC = dyn_cast<DeclContext>(D))
      if (DC->isDependentContext())
        return true;
  return false;
}

void Scanner::call(const CallExpr *E, bool Dependent) {
  if (Dependent || inSystemHeader(E->getBeginLoc()))
    return;
  if (const auto *K = dyn_cast<CUDAKernelCallExpr>(E)) {
    if (const DeclRefExpr *Ref = kernelRef(K->getCallee()))
      Consumed.insert(Ref);
    const FunctionDecl *Callee = K->getDirectCallee();
    const CallExpr *Cfg = K->getConfig();
    if (!Callee || !Callee->hasAttr<CUDAGlobalAttr>() || !Cfg ||
        Cfg->getNumArgs() < 2)
      return;
    const Expr *Block = Cfg->getArg(1);
    addSite(Callee, E->getBeginLoc(), "<<<>>>", Cfg->getArg(0), Block,
            Cfg->getNumArgs() > 2 ? Cfg->getArg(2) : nullptr,
            evalBlock(Block, 0));
    return;
  }
  const FunctionDecl *Callee = E->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return;
  StringRef N = Callee->getName();
  unsigned NArgs = E->getNumArgs();
  if ((N == "cudaLaunchKernel" || N == "cudaLaunchCooperativeKernel") &&
      NArgs >= 3) {
    if (const DeclRefExpr *Ref = kernelRef(E->getArg(0))) {
      Consumed.insert(Ref);
      addSite(cast<FunctionDecl>(Ref->getDecl()), E->getBeginLoc(), N,
              E->getArg(1), E->getArg(2), NArgs > 4 ? E->getArg(4) : nullptr,
              evalBlock(E->getArg(2), 0));
    }
    return;
  }
  if (isLaunchExName(Callee) && NArgs >= 2) {
    if (const DeclRefExpr *Ref = kernelRef(E->getArg(1))) {
      Consumed.insert(Ref);
      BlockVal V = BlockVal::unknown(
          "the launch configuration is not a local variable");
      const Expr *C = E->getArg(0)->IgnoreParenImpCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(C);
          UO && UO->getOpcode() == UO_AddrOf)
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
          if (const auto *Var = dyn_cast<VarDecl>(DRE->getDecl()))
            V = evalVar(Var, {"blockDim"}, 0);
      addSite(cast<FunctionDecl>(Ref->getDecl()), E->getBeginLoc(), N,
              nullptr, nullptr, nullptr, V);
    }
    return;
  }
  // Queries that do not launch the kernel.
  static const StringSet<> Queries = {
      "cudaFuncSetAttribute",
      "cudaFuncGetAttributes",
      "cudaFuncSetCacheConfig",
      "cudaFuncSetSharedMemConfig",
      "cudaFuncGetName",
      "cudaGetFuncBySymbol",
      "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
      "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
      "cudaOccupancyMaxPotentialBlockSize",
      "cudaOccupancyMaxPotentialBlockSizeWithFlags",
      "cudaOccupancyMaxPotentialBlockSizeVariableSMem",
      "cudaOccupancyAvailableDynamicSMemPerBlock",
      "cudaOccupancyMaxActiveClusters",
      "cudaOccupancyMaxPotentialClusterSize"};
  if (Queries.contains(N))
    for (const Expr *A : E->arguments())
      if (const DeclRefExpr *Ref = kernelRef(A))
        Consumed.insert(Ref);
}

void Scanner::reference(const DeclRefExpr *E, bool Dependent) {
  const auto *FD = dyn_cast<FunctionDecl>(E->getDecl());
  if (!FD || !FD->hasAttr<CUDAGlobalAttr>() || Consumed.count(E) ||
      Dependent || inSystemHeader(E->getBeginLoc()))
    return;
  addSite(FD, E->getBeginLoc(), "reference", nullptr, nullptr, nullptr,
          BlockVal::unknown("its address is taken here; the launch is not "
                            "visible"));
}

} // namespace apply
} // namespace flipflop
