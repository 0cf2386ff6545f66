//===- Scanner.cpp - Kernels, bounds and launch sites of CUDA sources -----===//
#include "Scanner.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>

using namespace clang;
using namespace llvm;

namespace flipflop {
namespace apply {

namespace {

/// The block size of a launch as far as it can be known at compile time.
/// Candidates are the whole values the block may take; component writes
/// (b.x = 256) make the answer the component-wise maximum.
struct BlockVal {
  bool Known = false;
  std::string Why;
  std::vector<std::array<uint64_t, 3>> Candidates;
  std::array<uint64_t, 3> CompMax{0, 0, 0};
  bool HasCompWrites = false;

  static BlockVal known(uint64_t X, uint64_t Y = 1, uint64_t Z = 1) {
    BlockVal V;
    V.Known = true;
    V.Candidates.push_back({X, Y, Z});
    return V;
  }
  static BlockVal unknown(std::string Why) {
    BlockVal V;
    V.Why = std::move(Why);
    return V;
  }
  void merge(const BlockVal &O) {
    Candidates.insert(Candidates.end(), O.Candidates.begin(),
                      O.Candidates.end());
    for (unsigned I = 0; I < 3; ++I)
      CompMax[I] = std::max(CompMax[I], O.CompMax[I]);
    HasCompWrites |= O.HasCompWrites;
  }
  /// The largest block this launch may use (threads, per-dimension shape).
  std::array<uint64_t, 3> largest() const {
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
};

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

class Scanner {
public:
  Scanner(ASTContext &Ctx, ScanResult &R)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), R(R) {
    const TargetInfo *Aux = Ctx.getAuxTargetInfo();
    // The device-side name: on a host compile, mangle as the device does.
    if (!LO.CUDAIsDevice && Aux)
      MC.reset(Ctx.createDeviceMangleContext(*Aux));
    else
      MC.reset(Ctx.createMangleContext());
  }

  ASTContext &Ctx;
  SourceManager &SM;
  const LangOptions &LO;
  ScanResult &R;
  std::unique_ptr<MangleContext> MC;
  SmallPtrSet<const Decl *, 16> TemplatesDone;
  SmallPtrSet<const Expr *, 32> Consumed; ///< Kernel references in launches.

  //===--- Locations ------------------------------------------------------===//
  std::string realPath(FileID F) {
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(F);
    if (!FE)
      return "<unknown>";
    StringRef RP = FE->getFileEntry().tryGetRealPathName();
    if (!RP.empty())
      return RP.str();
    SmallString<256> Abs(FE->getName());
    sys::fs::make_absolute(Abs);
    sys::path::remove_dots(Abs, true);
    return std::string(Abs);
  }

  SourcePos pos(SourceLocation L) {
    SourcePos P;
    L = SM.getExpansionLoc(L);
    if (L.isInvalid())
      return P;
    FileID F = SM.getFileID(L);
    P.File = realPath(F);
    P.Offset = SM.getFileOffset(L);
    P.Line = SM.getExpansionLineNumber(L);
    P.Col = SM.getExpansionColumnNumber(L);
    if (!R.Contents.count(P.File))
      R.Contents[P.File] = SM.getBufferData(F).str();
    return P;
  }

  std::string locStr(SourceLocation L) {
    SourcePos P = pos(L);
    return (sys::path::filename(P.File) + ":" + Twine(P.Line) + ":" +
            Twine(P.Col))
        .str();
  }

  bool inSystemHeader(SourceLocation L) {
    return SM.isInSystemHeader(SM.getExpansionLoc(L));
  }

  /// The name of the outermost macro whose expansion holds \p L.
  std::string macroName(SourceLocation L) {
    SourceLocation E = SM.getExpansionLoc(L);
    unsigned Len = Lexer::MeasureTokenLength(E, SM, LO);
    return Lexer::getSourceText(
               CharSourceRange::getCharRange(E, E.getLocWithOffset(Len)), SM,
               LO)
        .str();
  }

  //===--- Names ----------------------------------------------------------===//
  std::string mangle(const FunctionDecl *FD) {
    if (!MC->shouldMangleDeclName(FD))
      return FD->getName().str();
    std::string S;
    raw_string_ostream OS(S);
    MC->mangleName(GlobalDecl(FD, KernelReferenceKind::Kernel), OS);
    return S;
  }

  std::string display(const FunctionDecl *FD) {
    std::string S;
    raw_string_ostream OS(S);
    FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
    return S;
  }

  //===--- Kernels --------------------------------------------------------===//
  void kernel(FunctionDecl *FD) {
    if (!FD->hasAttr<CUDAGlobalAttr>() || inSystemHeader(FD->getLocation()))
      return;
    if (FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate()) {
      kernelTemplate(FTD->getCanonicalDecl());
      return;
    }
    if (FD->isTemplateInstantiation())
      return; // Seen through its template.
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def) {
      R.DeclaredOnly.emplace(mangle(FD), pos(FD->getLocation()));
      return;
    }
    if (FD != Def)
      return;
    std::map<std::string, std::string> Instances;
    Instances[mangle(Def)] = display(Def);
    std::vector<const FunctionDecl *> Redecls(Def->redecls_begin(),
                                              Def->redecls_end());
    record(Def, /*IsTemplate=*/false, Instances, Redecls);
  }

  void kernelTemplate(FunctionTemplateDecl *FTD) {
    if (!TemplatesDone.insert(FTD).second)
      return;
    const FunctionDecl *Def = nullptr;
    std::vector<const FunctionDecl *> Redecls;
    for (RedeclarableTemplateDecl *RTD : FTD->redecls()) {
      auto *RD = cast<FunctionTemplateDecl>(RTD);
      Redecls.push_back(RD->getTemplatedDecl());
      if (RD->getTemplatedDecl()->isThisDeclarationADefinition())
        Def = RD->getTemplatedDecl();
    }
    std::map<std::string, std::string> Instances;
    for (FunctionDecl *Spec : FTD->specializations()) {
      TemplateSpecializationKind K = Spec->getTemplateSpecializationKind();
      if (K == TSK_ExplicitSpecialization || K == TSK_Undeclared)
        continue;
      Instances[mangle(Spec)] = display(Spec);
    }
    if (!Def) {
      for (const auto &I : Instances)
        R.DeclaredOnly.emplace(I.first, pos(FTD->getLocation()));
      return;
    }
    record(Def, /*IsTemplate=*/true, Instances, Redecls);
  }

  void record(const FunctionDecl *Def, bool IsTemplate,
              const std::map<std::string, std::string> &Instances,
              ArrayRef<const FunctionDecl *> Redecls) {
    SourceLocation NameLoc = Def->getQualifierLoc()
                                 ? Def->getQualifierLoc().getBeginLoc()
                                 : Def->getLocation();
    KernelDef K;
    K.Name = IsTemplate ? Def->getQualifiedNameAsString() : display(Def);
    K.Pos = pos(NameLoc);
    K.IsTemplate = IsTemplate;
    K.Instances = Instances;
    std::string Key = K.Pos.File + ":" + std::to_string(K.Pos.Offset);
    auto It = R.Kernels.find(Key);
    if (It != R.Kernels.end()) {
      It->second.Instances.insert(Instances.begin(), Instances.end());
      return;
    }
    if (NameLoc.isMacroID()) {
      K.Why = "defined inside the expansion of macro '" + macroName(NameLoc) +
              "'; not edited";
    } else {
      K.Editable = true;
      K.InsertOffset = SM.getFileOffset(NameLoc);
    }
    for (const FunctionDecl *RD : Redecls)
      for (const auto *A : RD->specific_attrs<CUDALaunchBoundsAttr>())
        if (!A->isInherited() && !A->isImplicit())
          K.Bounds.push_back(bound(A));
    R.Kernels.emplace(Key, std::move(K));
  }

  /// Splits "name(a, b(c), d)" into its top-level argument texts.
  static bool splitCall(StringRef Text, StringRef &Name,
                        SmallVectorImpl<StringRef> &Args) {
    size_t Open = Text.find('(');
    if (Open == StringRef::npos || !Text.ends_with(")"))
      return false;
    Name = Text.take_front(Open).trim();
    StringRef Inner = Text.slice(Open + 1, Text.size() - 1);
    int Depth = 0;
    size_t Start = 0;
    for (size_t I = 0; I < Inner.size(); ++I) {
      char C = Inner[I];
      if (C == '(' || C == '[' || C == '{')
        ++Depth;
      else if (C == ')' || C == ']' || C == '}')
        --Depth;
      else if (C == ',' && Depth == 0) {
        Args.push_back(Inner.slice(Start, I).trim());
        Start = I + 1;
      }
    }
    Args.push_back(Inner.drop_front(Start).trim());
    return Depth == 0;
  }

  /// The first macro or named constant an argument's text mentions, in
  /// words ("macro 'N'", "constant 'kN'"), or "" for literal arithmetic.
  std::string namedIn(StringRef Text) {
    std::string Buf = Text.str();
    Lexer L(SourceLocation(), LO, Buf.data(), Buf.data(),
            Buf.data() + Buf.size());
    Token Tok;
    while (true) {
      bool End = L.LexFromRawLexer(Tok);
      if (Tok.is(tok::raw_identifier)) {
        StringRef Name = Tok.getRawIdentifier();
        IdentifierInfo &II = Ctx.Idents.get(Name);
        if (II.hadMacroDefinition())
          return "macro '" + Name.str() + "'";
        if (!II.isKeyword(LO))
          return "constant '" + Name.str() + "'";
      }
      if (End || Tok.is(tok::eof))
        break;
    }
    return "";
  }

  WrittenBound bound(const CUDALaunchBoundsAttr *A) {
    WrittenBound B;
    SourceRange Rg = A->getRange();
    B.Pos = pos(Rg.getBegin());
    CharSourceRange Exp = SM.getExpansionRange(Rg);
    StringRef Text = Lexer::getSourceText(Exp, SM, LO);
    B.Text = Text.str();
    StringRef Name;
    SmallVector<StringRef, 3> Args;
    bool Parsed = splitCall(Text, Name, Args);
    if (Parsed && (Name == "__launch_bounds__" || Name == "launch_bounds") &&
        Args.size() >= 1 && Args.size() <= 3 &&
        SM.getFileID(Exp.getBegin()) == SM.getFileID(Exp.getEnd())) {
      B.Editable = true;
      B.Spelling = Name.str();
      B.Offset = SM.getFileOffset(Exp.getBegin());
      B.Length = Text.size();
      if (Args.size() == 3)
        B.MaxBlocksText = Args[2].str();
      B.MaxText = Args[0].str();
      B.MaxNamed = namedIn(Args[0]);
      if (Args.size() >= 2) {
        B.MinText = Args[1].str();
        B.MinNamed = namedIn(Args[1]);
      }
    } else if (Rg.getBegin().isMacroID()) {
      B.Why = "written through macro '" + macroName(Rg.getBegin()) + "'";
    } else {
      B.Why = "written in a form this tool does not edit";
    }
    const Expr *Max = A->getMaxThreads();
    const Expr *Min = A->getMinBlocks();
    Expr::EvalResult MaxR, MinR;
    if (Max && !Max->isValueDependent() && Max->EvaluateAsInt(MaxR, Ctx) &&
        (!Min || (!Min->isValueDependent() && Min->EvaluateAsInt(MinR, Ctx)))) {
      B.Known = true;
      B.MaxThreads = MaxR.Val.getInt().getZExtValue();
      B.MinBlocks = Min ? MinR.Val.getInt().getZExtValue() : 0;
    } else if (B.Why.empty()) {
      B.Why = "its values depend on template parameters";
    }
    return B;
  }

  //===--- Block sizes ----------------------------------------------------===//
  BlockVal evalBlock(const Expr *E, unsigned Depth) {
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

  enum class UseKind { Read, Write, WriteComp, Modify, Escape };
  struct Use {
    UseKind Kind;
    SmallVector<StringRef, 2> Path; ///< Members named on the way up.
    const Expr *RHS = nullptr;
    SourceLocation Loc;
  };

  static bool isLaunchExName(const FunctionDecl *FD) {
    return FD && FD->getIdentifier() &&
           (FD->getName() == "cudaLaunchKernelEx" ||
            FD->getName() == "cudaLaunchKernelExC");
  }

  const Stmt *parentStmt(const Stmt *S, const Decl **D = nullptr) {
    DynTypedNodeList Ps = Ctx.getParents(*S);
    if (Ps.empty())
      return nullptr;
    if (D)
      *D = Ps[0].get<Decl>();
    return Ps[0].get<Stmt>();
  }

  Use classify(const DeclRefExpr *DRE) {
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
  BlockVal evalVar(const VarDecl *V, ArrayRef<StringRef> Prefix,
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
    const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
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
  BlockVal evalMemberInit(const Expr *Init, QualType T,
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

  //===--- Launch sites ---------------------------------------------------===//
  const DeclRefExpr *kernelRef(const Expr *E) {
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

  void addSite(const FunctionDecl *Kernel, SourceLocation Loc, StringRef Via,
               const Expr *Grid, const Expr *Block, const Expr *Shmem,
               BlockVal V) {
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

  void rewriteInfo(LaunchSite &S, const Expr *Grid, const Expr *Block,
                   const Expr *Shmem) {
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

  bool dependent(const std::vector<const Decl *> &Stack) {
    for (const Decl *D : Stack)
      if (const auto *DC = dyn_cast<DeclContext>(D))
        if (DC->isDependentContext())
          return true;
    return false;
  }

  void call(const CallExpr *E, bool Dependent) {
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

  void reference(const DeclRefExpr *E, bool Dependent) {
    const auto *FD = dyn_cast<FunctionDecl>(E->getDecl());
    if (!FD || !FD->hasAttr<CUDAGlobalAttr>() || Consumed.count(E) ||
        Dependent || inSystemHeader(E->getBeginLoc()))
      return;
    addSite(FD, E->getBeginLoc(), "reference", nullptr, nullptr, nullptr,
            BlockVal::unknown("its address is taken here; the launch is not "
                              "visible"));
  }
};

class KernelVisitor : public RecursiveASTVisitor<KernelVisitor> {
public:
  explicit KernelVisitor(Scanner &S) : S(S) {}
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    S.kernel(FD);
    return true;
  }

private:
  Scanner &S;
};

class LaunchVisitor : public RecursiveASTVisitor<LaunchVisitor> {
public:
  explicit LaunchVisitor(Scanner &S) : S(S) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *D) {
    bool IsFn = D && isa<FunctionDecl>(D);
    if (IsFn)
      Stack.push_back(D);
    bool Ok = RecursiveASTVisitor::TraverseDecl(D);
    if (IsFn)
      Stack.pop_back();
    return Ok;
  }
  bool VisitCallExpr(CallExpr *E) {
    S.call(E, S.dependent(Stack));
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    S.reference(E, S.dependent(Stack));
    return true;
  }

private:
  Scanner &S;
  std::vector<const Decl *> Stack;
};

class ScanConsumer : public ASTConsumer {
public:
  explicit ScanConsumer(ScanResult &R) : R(R) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // A unit that does not compile is reported by clang; use none of it.
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    Scanner S(Ctx, R);
    KernelVisitor(S).TraverseDecl(Ctx.getTranslationUnitDecl());
    LaunchVisitor(S).TraverseDecl(Ctx.getTranslationUnitDecl());
  }

private:
  ScanResult &R;
};

class ScanAction : public ASTFrontendAction {
public:
  explicit ScanAction(ScanResult &R) : R(R) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<ScanConsumer>(R);
  }

private:
  ScanResult &R;
};

class ScanFactory : public tooling::FrontendActionFactory {
public:
  explicit ScanFactory(ScanResult &R) : R(R) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<ScanAction>(R);
  }

private:
  ScanResult &R;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
newScanActionFactory(ScanResult &Result) {
  return std::make_unique<ScanFactory>(Result);
}

} // namespace apply
} // namespace flipflop
