//===- ScanBlockSize.cpp - A launch's block size at compile time ---------===//
#include "ScannerImpl.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace llvm;

namespace flipflop {
namespace apply {

void BlockVal::merge(const BlockVal &O) {
Candidates.insert(Candidates.end(), O.Candidates.begin(),
                  O.Candidates.end());
for (unsigned I = 0; I < 3; ++I)
  CompMax[I] = std::max(CompMax[I], O.CompMax[I]);
HasCompWrites |= O.HasCompWrites;
}

std::array<uint64_t, 3> BlockVal::largest() const {
if (HasCompWrites) {
  std::array<uint64_t, 3> M = CompMax;
  for (const auto &C : Candidates)
    for (unsigned I = 0; I < 3; ++I)
      M[I] = std::max(M[I], C[I]);
  return M;
}
std::array<uint64_t, 3> Best{0, 0, 0};
uint64_t BestT = 0;
for (const auto &C : Candidates) {
  uint64_t T = C[0] * C[1] * C[2];
  if (Candidates.size() == 1 || T > BestT)
    Best = C, BestT = T;
}
return Best;
}

bool isDim3(QualType T) {
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->getName() == "dim3";
}

const Expr *stripImplicit(const Expr *E) {
  while (true) {
    const Expr *Old = E;
    E = E->IgnoreParens()->IgnoreImplicit();
    if (const auto *EC = dyn_cast<ExplicitCastExpr>(E))
      if (EC->getType()->isRecordType() || EC->getCastKind() == CK_NoOp)
        E = EC->getSubExpr();
    if (E == Old)
      return E;
  }
}

BlockVal Scanner::evalBlock(const Expr *E, unsigned Depth) {
  if (!E)
    return BlockVal::unknown("no block argument");
  if (Depth > 8)
    return BlockVal::unknown("block size defined through too many steps");
  if (E->isValueDependent() || E->isTypeDependent())
    return BlockVal::unknown("block size depends on a template parameter");
  const Expr *P = E->IgnoreParens();
  if (P->getType()->isIntegralOrEnumerationType()) {
    Expr::EvalResult Res;
    if (P->EvaluateAsInt(Res, Ctx)) {
      const APSInt &V = Res.Val.getInt();
      if (V.isSigned() && V.isNegative())
        return BlockVal::unknown("block size is negative");
      return BlockVal::known(V.getZExtValue());
    }
  }
  E = stripImplicit(E);
  if (isa<ImplicitValueInitExpr>(E))
    return BlockVal::known(0, 0, 0);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() >= 1)
      return evalBlock(CE->getArg(0), Depth + 1);
    if (!isDim3(CE->getType()))
      return BlockVal::unknown("block size is not a dim3 or an integer");
    std::array<uint64_t, 3> D{1, 1, 1};
    for (unsigned I = 0; I < std::min(3u, CE->getNumArgs()); ++I) {
      BlockVal C = evalBlock(CE->getArg(I), Depth + 1);
      if (!C.Known)
        return C;
      if (C.HasCompWrites || C.Candidates.size() != 1) {
        // A scalar with several possible values: take the largest.
        uint64_t M = 0;
        for (const auto &Cand : C.Candidates)
          M = std::max(M, Cand[0]);
        D[I] = M;
      } else {
        D[I] = C.Candidates[0][0];
      }
    }
    return BlockVal::known(D[0], D[1], D[2]);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return evalVar(V, {}, Depth + 1);
  return BlockVal::unknown("block size is computed at run time");
}

const Stmt *Scanner::parentStmt(const Stmt *S, const Decl **D) {
  DynTypedNodeList Ps = Ctx.getParents(*S);
  if (Ps.empty())
    return nullptr;
  if (D)
    *D = Ps[0].get<Decl>();
  return Ps[0].get<Stmt>();
}

Scanner::Use Scanner::classify(const DeclRefExpr *DRE) {
  Use U{UseKind::Escape, {}, nullptr, DRE->getBeginLoc()};
  const Stmt *Cur = DRE;
  while (true) {
    const Decl *PD = nullptr;
    const Stmt *P = parentStmt(Cur, &PD);
    if (!P) {
      // Bound to a reference: harmless only when it is to const.
      if (const auto *VD = dyn_cast_or_null<VarDecl>(PD))
        if (VD->getType()->isReferenceType() &&
            VD->getType()->getPointeeType().isConstQualified())
          U.Kind = UseKind::Read;
      return U;
    }
    if (isa<ParenExpr>(P)) {
      Cur = P;
      continue;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() == CK_LValueToRValue) {
        U.Kind = UseKind::Read;
        return U;
      }
      if (IC->getCastKind() == CK_NoOp) {
        Cur = P;
        continue;
      }
      return U;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      if (ME->isArrow() || !ME->getMemberDecl()->getIdentifier())
        return U;
      U.Path.push_back(ME->getMemberDecl()->getName());
      Cur = P;
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
      if (CE->getConstructor()->isCopyOrMoveConstructor())
        U.Kind = UseKind::Read;
      return U;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->getLHS()->IgnoreParens() != Cur)
        return U;
      if (BO->getOpcode() == BO_Assign) {
        U.Kind = U.Path.empty() ? UseKind::Write : UseKind::WriteComp;
        U.RHS = BO->getRHS();
      } else if (BO->isAssignmentOp()) {
        U.Kind = UseKind::Modify;
      }
      return U;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
      if (UO->isIncrementDecrementOp()) {
        U.Kind = UseKind::Modify;
        return U;
      }
      if (UO->getOpcode() != UO_AddrOf)
        return U;
      // &cfg handed to cudaLaunchKernelEx(C) as its configuration.
      const Stmt *Up = UO;
      const Stmt *Q = parentStmt(Up);
      while (Q && (isa<ImplicitCastExpr>(Q) || isa<ParenExpr>(Q))) {
        Up = Q;
        Q = parentStmt(Up);
      }
      if (const auto *Call = dyn_cast_or_null<CallExpr>(Q))
        if (isLaunchExName(Call->getDirectCallee()) &&
            Call->getNumArgs() > 0 && Call->getArg(0) == Up)
          U.Kind = UseKind::Read;
      return U;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P)) {
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
          OC->getArg(0)->IgnoreParens() == Cur) {
        U.Kind = U.Path.empty() ? UseKind::Write : UseKind::WriteComp;
        U.RHS = OC->getArg(1);
      }
      return U;
    }
    if (const auto *Call = dyn_cast<CallExpr>(P)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      for (unsigned I = 0; Callee && I < Call->getNumArgs() &&
                           I < Callee->getNumParams();
           ++I)
        if (Call->getArg(I) == Cur) {
          QualType PT = Callee->getParamDecl(I)->getType();
          if (PT->isReferenceType() &&
              PT->getPointeeType().isConstQualified())
            U.Kind = UseKind::Read;
        }
      return U;
    }
    return U;
  }
}

/// The values a local variable (or its member \p Prefix) may hold: its
/// initialiser and every constant assignment in its function, provided
/// nothing else can change it (no escape, no compound assignment).
BlockVal Scanner::evalVar(const VarDecl *V, ArrayRef<StringRef> Prefix,
                          unsigned Depth) {
  std::string Name = "'" + V->getNameAsString() + "'";
  if (V->getType().isVolatileQualified())
    return BlockVal::unknown("block size comes from volatile " + Name);
  if (isa<ParmVarDecl>(V))
    return BlockVal::unknown("block size comes from the parameter " + Name);
  if (V->getType()->isReferenceType())
    return BlockVal::unknown("block size comes from the reference " + Name);
  if (!V->hasLocalStorage()) {
    const Expr *Init = V->getAnyInitializer();
    if (V->getType().isConstQualified() && Init)
      return Prefix.empty() ? evalBlock(Init, Depth + 1)
                            : evalMemberInit(Init, V->getType(), Prefix,
                                             Depth);
    return BlockVal::unknown("block size comes from the non-const global " +
                             Name);
  }
  const auto *F =
      dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  const Stmt *Body = F ? F->getBody() : nullptr;
  if (!Body)
    return BlockVal::unknown("block size comes from " + Name +
                             ", outside a function body");
  const Expr *Init = V->getInit();
  BlockVal Acc;
  if (Prefix.empty())
    Acc = Init ? evalBlock(Init, Depth + 1) : BlockVal::known(0, 1, 1);
  else
    Acc = evalMemberInit(Init, V->getType(), Prefix, Depth);
  if (!Acc.Known)
    return Acc;

  // Every use of V in its function.
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    std::vector<const DeclRefExpr *> Refs;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (E->getDecl() == V)
        Refs.push_back(E);
      return true;
    }
  } Find;
  Find.V = V;
  Find.TraverseStmt(const_cast<Stmt *>(Body));
  for (const DeclRefExpr *Ref : Find.Refs) {
    Use U = classify(Ref);
    // How the use relates to the member we track.
    size_t Common = 0;
    while (Common < U.Path.size() && Common < Prefix.size() &&
           U.Path[Common] == Prefix[Common])
      ++Common;
    bool Related = Common == U.Path.size() || Common == Prefix.size();
    if (!Related || U.Kind == UseKind::Read)
      continue;
    std::string At = " at " + locStr(U.Loc);
    if (U.Kind == UseKind::Escape)
      return BlockVal::unknown(Name + " may be changed through its use" + At);
    if (U.Kind == UseKind::Modify)
      return BlockVal::unknown(Name + " is modified" + At);
    if (U.Path.size() < Prefix.size())
      return BlockVal::unknown(Name + " is assigned as a whole" + At);
    ArrayRef<StringRef> Rest = ArrayRef<StringRef>(U.Path).drop_front(
        Prefix.size());
    BlockVal W = evalBlock(U.RHS, Depth + 1);
    if (!W.Known)
      return BlockVal::unknown(Name + " is assigned a value not known here" +
                               At);
    if (Rest.empty()) {
      Acc.merge(W);
      continue;
    }
    int Comp = Rest.size() != 1     ? -1
               : Rest[0] == "x"     ? 0
               : Rest[0] == "y"     ? 1
               : Rest[0] == "z"     ? 2
                                    : -1;
    if (Comp < 0)
      return BlockVal::unknown(Name + " is assigned in part" + At);
    uint64_t M = 0;
    for (const auto &C : W.Candidates)
      M = std::max(M, C[0]);
    Acc.HasCompWrites = true;
    Acc.CompMax[Comp] = std::max(Acc.CompMax[Comp], M);
  }
  return Acc;
}

/// The initial value of member \p Prefix of an object initialised by
/// \p Init (a launch configuration's blockDim).
BlockVal Scanner::evalMemberInit(const Expr *Init, QualType T,
                                 ArrayRef<StringRef> Prefix, unsigned Depth) {
  if (!Init)
    return BlockVal::known(0, 0, 0);
  Init = stripImplicit(Init);
  if (const auto *ILE = dyn_cast<InitListExpr>(Init)) {
    if (!ILE->isSemanticForm() && ILE->getSemanticForm())
      ILE = ILE->getSemanticForm();
    const RecordDecl *RD = T->getAsRecordDecl();
    if (!RD || Prefix.size() != 1)
      return BlockVal::unknown("launch configuration not understood");
    unsigned Index = 0;
    for (const FieldDecl *FD : RD->fields()) {
      if (FD->getName() == Prefix[0])
        return Index < ILE->getNumInits()
                   ? evalBlock(ILE->getInit(Index), Depth + 1)
                   : BlockVal::known(0, 0, 0);
      ++Index;
    }
    return BlockVal::unknown("launch configuration has no field '" +
                             Prefix[0].str() + "'");
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init))
    if (CE->getConstructor()->isDefaultConstructor())
      return BlockVal::known(0, 0, 0);
  return BlockVal::unknown("launch configuration is copied from elsewhere");
}

} // namespace apply
} // namespace flipflop
