//===- Scanner.cpp - Kernels, bounds and launch sites of CUDA sources -----===//
#include "ScannerImpl.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace llvm;

namespace flipflop {
namespace apply {

Scanner::Scanner(ASTContext &Ctx, ScanResult &R)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), R(R) {
  const TargetInfo *Aux = Ctx.getAuxTargetInfo();
  // The device-side name: on a host compile, mangle as the device does.
  if (!LO.CUDAIsDevice && Aux)
    MC.reset(Ctx.createDeviceMangleContext(*Aux));
  else
    MC.reset(Ctx.createMangleContext());
}

//===--- Locations --------------------------------------------------------===//
std::string Scanner::realPath(FileID F) {
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

SourcePos Scanner::pos(SourceLocation L) {
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

std::string Scanner::locStr(SourceLocation L) {
  SourcePos P = pos(L);
  return (sys::path::filename(P.File) + ":" + Twine(P.Line) + ":" +
          Twine(P.Col))
      .str();
}

bool Scanner::inSystemHeader(SourceLocation L) {
  return SM.isInSystemHeader(SM.getExpansionLoc(L));
}

/// The name of the outermost macro whose expansion holds \p L.
std::string Scanner::macroName(SourceLocation L) {
  SourceLocation E = SM.getExpansionLoc(L);
  unsigned Len = Lexer::MeasureTokenLength(E, SM, LO);
  return Lexer::getSourceText(
             CharSourceRange::getCharRange(E, E.getLocWithOffset(Len)), SM,
             LO)
      .str();
}

//===--- Names ------------------------------------------------------------===//
std::string Scanner::mangle(const FunctionDecl *FD) {
  if (!MC->shouldMangleDeclName(FD))
    return FD->getName().str();
  std::string S;
  raw_string_ostream OS(S);
  MC->mangleName(GlobalDecl(FD, KernelReferenceKind::Kernel), OS);
  return S;
}

std::string Scanner::display(const FunctionDecl *FD) {
  std::string S;
  raw_string_ostream OS(S);
  FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  return S;
}

//===--- Kernels ----------------------------------------------------------===//
void Scanner::kernel(FunctionDecl *FD) {
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

void Scanner::kernelTemplate(FunctionTemplateDecl *FTD) {
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

void Scanner::record(const FunctionDecl *Def, bool IsTemplate,
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
std::string Scanner::namedIn(StringRef Text) {
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

WrittenBound Scanner::bound(const CUDALaunchBoundsAttr *A) {
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

namespace {

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
