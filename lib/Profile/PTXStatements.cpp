//===- PTXStatements.cpp - PTX statement parser ---------------------------===//
//
// Module directives, .entry/.func signatures and bodies (declarations,
// labels, guarded instructions, .loc lines).
//
//===----------------------------------------------------------------------===//
#include "PTXSyntax.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <optional>

using namespace llvm;

namespace flipflop {
namespace ptx {

unsigned typeBits(StringRef T) {
  return StringSwitch<unsigned>(T)
      .Cases({"b8", "u8", "s8", "e4m3", "e5m2", "e2m1", "e3m2", "e2m3"}, 8)
      .Cases({"b16", "u16", "s16", "f16", "bf16", "e4m3x2", "e5m2x2"}, 16)
      .Cases({"b32", "u32", "s32", "f32", "f16x2", "bf16x2", "tf32"}, 32)
      .Cases({"b64", "u64", "s64", "f64"}, 64)
      .Case("b128", 128)
      .Case("pred", 1)
      .Cases({"s4", "u4"}, 4)
      .Case("b1", 1)
      .Default(0);
}

bool isFloatType(StringRef T) {
  return T == "f32" || T == "f64" || T == "f16" || T == "f16x2" ||
         T == "bf16" || T == "bf16x2" || T == "tf32" || T.starts_with("e4m3") ||
         T.starts_with("e5m2");
}

namespace {

class Parser {
public:
  Parser(std::vector<Token> Toks, PTXModule &M) : Toks(std::move(Toks)), M(M) {}
  Error parse(std::vector<Function> &Funcs, StringMap<VarDecl> &Globals,
              std::map<int, std::string> &Files);

private:
  std::vector<Token> Toks;
  size_t Pos = 0;
  PTXModule &M;
  SrcLoc CurLoc;

  const Token &peek(size_t Ahead = 0) const {
    size_t P = Pos + Ahead;
    return P < Toks.size() ? Toks[P] : Toks.back();
  }
  const Token &next() {
    const Token &T = peek();
    if (Pos < Toks.size() - 1)
      ++Pos;
    return T;
  }
  bool atEnd() const { return peek().Kind == TokKind::End; }
  /// Skips the rest of the current line (for line-terminated directives).
  void skipLine(unsigned Line) {
    while (!atEnd() && peek().Line == Line)
      next();
  }
  /// Skips to and over the next ';' at bracket depth 0; stops at End.
  void skipStatement() {
    int Depth = 0;
    while (!atEnd()) {
      const Token &T = next();
      if (T.is('{') || T.is('(') || T.is('['))
        ++Depth;
      else if (T.is('}') || T.is(')') || T.is(']'))
        --Depth;
      else if (T.is(';') && Depth <= 0)
        return;
    }
  }
  Error skipBalancedBraces(unsigned Line) {
    int Depth = 0;
    while (!atEnd()) {
      const Token &T = next();
      if (T.is('{'))
        ++Depth;
      else if (T.is('}') && --Depth == 0)
        return Error::success();
    }
    return lineError(Line, "unterminated '{' block");
  }
  void parseLoc(unsigned Line, SrcLoc &L, std::map<int, std::string> *Files);
  Error parseFile(unsigned Line, std::map<int, std::string> &Files);
  Error parseVarDecl(StringRef Space, bool Extern, std::vector<VarDecl> &Out);
  Error parseRegDecl(Function &F);
  Error parseParamList(unsigned Line, StringRef What,
                       std::vector<KernelParam> *Out = nullptr);
  Error parseFunction(bool IsEntry, std::vector<Function> &Funcs);
  Error parseBody(Function &F);
  Error parseInstruction(Function &F, StringRef Guard, bool GuardNeg,
                         unsigned GuardLine);
  Error parseOperand(size_t Begin, size_t End, Operand &Op);
};

void Parser::parseLoc(unsigned Line, SrcLoc &L, std::map<int, std::string> *) {
  // .loc FILE LINE COL [, function_name SYM, inlined_at FILE LINE COL]
  SmallVector<const Token *, 12> Items;
  while (!atEnd() && peek().Line == Line)
    Items.push_back(&next());
  auto Num = [&](size_t Idx) -> std::optional<int64_t> {
    if (Idx < Items.size() && Items[Idx]->Kind == TokKind::Number)
      return parseInt(Items[Idx]->Text);
    return std::nullopt;
  };
  std::optional<int64_t> F = Num(0), Ln = Num(1);
  for (size_t I = 0; I < Items.size(); ++I)
    if (Items[I]->isWord() && Items[I]->Text == "inlined_at" && Num(I + 1) &&
        Num(I + 2)) {
      F = Num(I + 1);
      Ln = Num(I + 2);
    }
  // Lines are attributed to the function's own file (the file of its first
  // .loc): a .loc into a header (clang's inlined builtins carry no
  // inlined_at) keeps the last line of the function's file.
  if (F && Ln && *Ln > 0) {
    if (L.File < 0)
      L.File = static_cast<int>(*F);
    if (L.File == *F)
      L.Line = static_cast<unsigned>(*Ln);
  }
  // ".loc F 0 C" (no line) keeps the previous line, as debuggers do.
}

Error Parser::parseFile(unsigned Line, std::map<int, std::string> &Files) {
  const Token &N = next();
  if (N.Kind != TokKind::Number || N.Line != Line)
    return lineError(Line, "expected a file number after .file");
  const Token &S = next();
  if (S.Kind != TokKind::String || S.Line != Line)
    return lineError(Line, "expected a file name after .file number");
  if (auto V = parseInt(N.Text))
    Files[static_cast<int>(*V)] = S.Text.str();
  skipLine(Line); // optional ", timestamp, size"
  return Error::success();
}

Error Parser::parseVarDecl(StringRef Space, bool Extern,
                           std::vector<VarDecl> &Out) {
  unsigned Line = peek().Line;
  uint64_t ElemBits = 0, Vec = 1;
  bool Named = false;
  while (!atEnd()) {
    const Token &T = peek();
    if (T.is(';')) {
      next();
      return Error::success();
    }
    if (T.is('=')) { // initializer: skip to ';'
      skipStatement();
      return Error::success();
    }
    if (T.is(',')) {
      next();
      continue;
    }
    if (T.isDirective()) {
      next();
      StringRef D = T.Text.drop_front();
      if (D == "align" && peek().Kind == TokKind::Number) {
        next();
      } else if (D.starts_with("v") && D.size() > 1 && isDigit(D[1])) {
        D.drop_front().getAsInteger(10, Vec);
      } else if (unsigned B = typeBits(D)) {
        ElemBits = B;
      }
      // .ptr, .attribute, .managed, .unified ... carry no size.
      continue;
    }
    if (T.isWord()) {
      next();
      VarDecl V;
      V.Space = Space;
      V.Name = T.Text;
      V.Extern = Extern;
      uint64_t Count = 1;
      if (peek().is('<')) { // parameterised names: name<N>
        next();
        if (peek().Kind == TokKind::Number)
          if (auto C = parseInt(next().Text))
            Count *= std::max<int64_t>(*C, 0);
        if (!peek().is('>'))
          return lineError(T.Line, "expected '>' in declaration of " + T.Text);
        next();
      }
      while (peek().is('[')) {
        next();
        if (peek().is(']')) {
          V.Unsized = true;
          Count = 0;
        } else if (peek().Kind == TokKind::Number) {
          auto C = parseInt(next().Text);
          if (!C || *C < 0)
            return lineError(T.Line,
                             "bad array size in declaration of " + T.Text);
          Count = Count * static_cast<uint64_t>(*C);
        } else {
          return lineError(T.Line, "expected an array size in declaration of " +
                                       T.Text);
        }
        if (!peek().is(']'))
          return lineError(T.Line, "expected ']' in declaration of " + T.Text);
        next();
      }
      V.Bytes = (ElemBits * Vec + 7) / 8 * Count;
      Out.push_back(V);
      Named = true;
      continue;
    }
    return lineError(T.Line, "unexpected '" + T.Text + "' in ." + Space +
                                 " declaration");
  }
  if (!Named)
    return lineError(Line, "expected a name in ." + Space + " declaration");
  return lineError(Line, "expected ';' after ." + Space + " declaration");
}

Error Parser::parseRegDecl(Function &F) {
  unsigned Line = peek().Line;
  unsigned Width = 1, Vec = 1;
  while (!atEnd()) {
    const Token &T = next();
    if (T.is(';'))
      return Error::success();
    if (T.is(','))
      continue;
    if (T.isDirective()) {
      StringRef D = T.Text.drop_front();
      if (D.starts_with("v") && D.size() > 1 && isDigit(D[1])) {
        D.drop_front().getAsInteger(10, Vec);
      } else if (unsigned B = typeBits(D)) {
        Width = D == "pred" ? 0 : std::max(1u, B / 32);
      }
      continue;
    }
    if (T.isWord()) {
      RegDecl R;
      R.Name = T.Text.str();
      R.Width = Width * std::max(1u, Vec);
      if (peek().is('<')) {
        next();
        const Token &C = next();
        auto V = C.Kind == TokKind::Number ? parseInt(C.Text) : std::nullopt;
        if (!V || *V < 0 || *V > (1 << 24))
          return lineError(T.Line, "bad register count in .reg " + T.Text);
        if (!peek().is('>'))
          return lineError(T.Line, "expected '>' in .reg " + T.Text);
        next();
        R.Range = true;
        R.Count = static_cast<unsigned>(*V);
      }
      F.Regs.push_back(R);
      continue;
    }
    return lineError(T.Line, "unexpected '" + T.Text + "' in .reg declaration");
  }
  return lineError(Line, "expected ';' after .reg declaration");
}

/// One declaration of a parameter list (`.param .align 4 .b8 p[12]`), or
/// nothing when it names no parameter of a known type.
static std::optional<KernelParam> paramOf(ArrayRef<const Token *> Toks) {
  KernelParam P;
  uint64_t Count = 1;
  for (size_t I = 0; I < Toks.size(); ++I) {
    const Token &T = *Toks[I];
    if (T.isDirective()) {
      StringRef D = T.Text.drop_front();
      if (D == "align" && I + 1 < Toks.size())
        ++I; // Its value.
      else if (unsigned Bits = typeBits(D);
               Bits && P.Type.empty() && D != "pred") {
        P.Type = D.str();
        P.Bytes = std::max(1u, Bits / 8);
      }
    } else if (T.isWord() && P.Name.empty()) {
      P.Name = T.Text.str();
    } else if (T.is('[') && I + 1 < Toks.size() &&
               Toks[I + 1]->Kind == TokKind::Number) {
      auto N = parseInt(Toks[I + 1]->Text);
      Count = N && *N > 0 ? uint64_t(*N) : 0;
    }
  }
  if (P.Name.empty() || P.Type.empty())
    return std::nullopt;
  P.Bytes *= Count;
  return P;
}

Error Parser::parseParamList(unsigned Line, StringRef What,
                             std::vector<KernelParam> *Out) {
  // At '(': to the matching ')', one declaration per top-level comma.
  next();
  int Depth = 1;
  SmallVector<const Token *, 8> Decl;
  auto Flush = [&] {
    if (Out && !Decl.empty())
      if (std::optional<KernelParam> P = paramOf(Decl))
        Out->push_back(std::move(*P));
    Decl.clear();
  };
  while (!atEnd()) {
    const Token &T = next();
    if (T.is('('))
      ++Depth;
    else if (T.is(')') && --Depth == 0) {
      Flush();
      return Error::success();
    } else if (T.is('{') || T.is('}') || T.is(';'))
      return lineError(T.Line,
                       "expected ')' to close the parameter list of " + What);
    if (Depth == 1 && T.is(','))
      Flush();
    else
      Decl.push_back(&T);
  }
  return lineError(Line, "unterminated parameter list of " + What);
}

Error Parser::parseFunction(bool IsEntry, std::vector<Function> &Funcs) {
  const Token &Kw = next();
  StringRef What = IsEntry ? ".entry" : ".func";
  if (!IsEntry && peek().is('(')) // return parameters
    if (Error E = parseParamList(Kw.Line, What))
      return E;
  const Token &NameTok = peek();
  if (!NameTok.isWord() || NameTok.isDirective() ||
      NameTok.Text.starts_with("%"))
    return lineError(NameTok.Kind == TokKind::End ? Kw.Line : NameTok.Line,
                     "expected a name after " + What);
  next();
  Function F;
  F.Name = NameTok.Text.str();
  F.IsEntry = IsEntry;
  F.Line = Kw.Line;
  std::string Desc = (What + " " + F.Name).str();
  if (peek().is('('))
    if (Error E = parseParamList(NameTok.Line, Desc, &F.Params))
      return E;
  // Performance-tuning directives.
  while (peek().isDirective()) {
    const Token &D = next();
    StringRef Name = D.Text.drop_front();
    if (Name == "pragma") {
      skipStatement();
      continue;
    }
    SmallVector<unsigned, 3> Nums;
    while (peek().Kind == TokKind::Number) {
      auto V = parseInt(next().Text);
      if (!V || *V < 0 || *V > 0xffffffffLL)
        return lineError(D.Line, "bad value for ." + Name);
      Nums.push_back(static_cast<unsigned>(*V));
      if (!peek().is(','))
        break;
      next();
    }
    auto Dims = [&](std::array<unsigned, 3> &A) -> Error {
      if (Nums.empty() || Nums.size() > 3)
        return lineError(D.Line, "." + Name + " takes 1 to 3 values");
      for (unsigned I = 0; I < 3; ++I)
        A[I] = I < Nums.size() ? Nums[I] : 1;
      return Error::success();
    };
    if (Name == "maxntid") {
      if (Error E = Dims(F.Bounds.MaxNTid))
        return E;
    } else if (Name == "reqntid") {
      if (Error E = Dims(F.Bounds.ReqNTid))
        return E;
    } else if (Name == "minnctapersm" || Name == "maxnreg") {
      if (Nums.size() != 1)
        return lineError(D.Line, "." + Name + " takes one value");
      (Name == "maxnreg" ? F.Bounds.MaxNReg : F.Bounds.MinCTAsPerSM) = Nums[0];
    } else if (Name == "maxnctapersm" || Name == "noreturn" ||
               Name == "explicitcluster" || Name == "reqnctapercluster" ||
               Name == "maxclusterrank" || Name == "blocksareclusters" ||
               Name.starts_with("abi_preserve")) {
      // Accepted, not modelled.
    } else {
      return lineError(D.Line, "unexpected directive ." + Name + " in " + Desc);
    }
  }
  if (peek().is(';')) {
    next();
    Funcs.push_back(std::move(F));
    return Error::success();
  }
  if (!peek().is('{'))
    return lineError(peek().Kind == TokKind::End ? NameTok.Line : peek().Line,
                     "expected '{' or ';' after the signature of " + Desc);
  next();
  F.HasBody = true;
  CurLoc = SrcLoc();
  if (Error E = parseBody(F))
    return E;
  Funcs.push_back(std::move(F));
  return Error::success();
}

/// Labels are local to the `{ }` scope that declares them: inline asm
/// with its own loop (`LAB_WAIT: ... bra LAB_WAIT;`) declares the same
/// label wherever it was inlined. The labels declared directly in the
/// scope that ends at the end of F.Body, statements \p Start on (inner
/// scopes' were renamed when they ended), and the branches to them there
/// get names of their own: the label, '@' (no PTX identifier has one) and
/// a number.
static void renameScopeLabels(Function &F, size_t Start) {
  StringMap<StringRef> Renamed;
  for (size_t I = Start; I < F.Body.size(); ++I) {
    Stmt &S = F.Body[I];
    if (!S.IsLabel || S.Label.contains('@') || Renamed.count(S.Label))
      continue;
    if (!F.ScopedNames)
      F.ScopedNames = std::make_shared<std::deque<std::string>>();
    F.ScopedNames->push_back(
        (S.Label + "@" + Twine(F.ScopedNames->size())).str());
    Renamed[S.Label] = F.ScopedNames->back();
  }
  if (Renamed.empty())
    return;
  for (size_t I = Start; I < F.Body.size(); ++I) {
    Stmt &S = F.Body[I];
    if (S.IsLabel) {
      if (auto It = Renamed.find(S.Label); It != Renamed.end())
        S.Label = It->second;
      continue;
    }
    if (S.I.Mods.empty() || (S.I.Mods[0] != "bra" && S.I.Mods[0] != "brx"))
      continue;
    for (Operand &O : S.I.Ops)
      if (O.Kind == Operand::Sym)
        if (auto It = Renamed.find(O.Name); It != Renamed.end())
          O.Name = It->second;
  }
  // Jump tables (`TBL: .branchtargets A, B;`) declared in the scope: their
  // names and the labels they list.
  for (auto &[Old, New] : Renamed) {
    auto It = F.BranchTargets.find(Old);
    if (It == F.BranchTargets.end())
      continue;
    std::vector<StringRef> Targets = std::move(It->second);
    F.BranchTargets.erase(It);
    for (StringRef &T : Targets)
      if (auto R = Renamed.find(T); R != Renamed.end())
        T = R->second;
    F.BranchTargets[New] = std::move(Targets);
  }
}

Error Parser::parseBody(Function &F) {
  // Size the statements once (each ends in ';' or is a label) rather than
  // doubling: a doubling holds both buffers, 1.5x the statements at the peak.
  size_t Ends = 0;
  for (size_t I = Pos, D = 1; I < Toks.size() && D; ++I) {
    const Token &T = Toks[I];
    D += T.is('{') ? 1 : T.is('}') ? -1 : 0;
    Ends += T.is(';') || T.is(':');
  }
  F.Body.reserve(Ends);
  int Depth = 1;
  // Where each open nested scope's statements start.
  SmallVector<size_t, 4> ScopeStarts;
  while (true) {
    const Token &T = peek();
    if (T.Kind == TokKind::End)
      return lineError(F.Line,
                       "missing '}' at the end of the body of " + F.Name);
    if (T.is('{')) {
      next();
      ++Depth;
      ScopeStarts.push_back(F.Body.size());
      continue;
    }
    if (T.is('}')) {
      next();
      if (--Depth == 0)
        return Error::success();
      if (!ScopeStarts.empty())
        renameScopeLabels(F, ScopeStarts.pop_back_val());
      continue;
    }
    if (T.is(';')) {
      next();
      continue;
    }
    if (T.isDirective()) {
      next();
      StringRef D = T.Text.drop_front();
      if (D == "reg") {
        if (Error E = parseRegDecl(F))
          return E;
      } else if (D == "loc") {
        parseLoc(T.Line, CurLoc, nullptr);
      } else if (D == "shared" || D == "local" || D == "const" ||
                 D == "global" || D == "param") {
        if (Error E = parseVarDecl(D, false, F.Vars))
          return E;
      } else if (D == "file" || D == "section") {
        skipLine(T.Line);
      } else {
        // .pragma and anything else: skip the statement, noting where a
        // loop may not be unrolled.
        if (D == "pragma" && peek().Kind == TokKind::String &&
            peek().Text.contains("nounroll"))
          F.NoUnroll.push_back(F.Body.size());
        skipStatement();
      }
      continue;
    }
    if (T.is('@')) {
      next();
      bool Neg = false;
      if (peek().is('!')) {
        next();
        Neg = true;
      }
      const Token &P = next();
      if (!P.isWord())
        return lineError(P.Line, "expected a predicate after '@'");
      if (Error E = parseInstruction(F, P.Text, Neg, T.Line))
        return E;
      continue;
    }
    if (T.isWord()) {
      if (peek(1).is(':')) { // label
        next();
        next();
        Stmt S;
        S.IsLabel = true;
        S.Label = T.Text;
        F.Body.push_back(S);
        if (peek().isDirective()) {
          StringRef D = peek().Text;
          if (D == ".branchtargets") {
            next();
            std::vector<StringRef> Targets;
            while (!atEnd() && !peek().is(';')) {
              const Token &X = next();
              if (X.isWord())
                Targets.push_back(X.Text);
            }
            next();
            F.BranchTargets[T.Text] = std::move(Targets);
          } else if (D == ".callprototype" || D == ".calltargets") {
            skipStatement();
          }
        }
        continue;
      }
      if (Error E = parseInstruction(F, StringRef(), false, T.Line))
        return E;
      continue;
    }
    return lineError(T.Line,
                     "unexpected '" + T.Text + "' in the body of " + F.Name);
  }
}

Error Parser::parseOperand(size_t B, size_t E, Operand &Op) {
  if (B >= E) {
    Op.Kind = Operand::Other;
    return Error::success();
  }
  const Token &T = Toks[B];
  if (T.is('[')) {
    Op.Kind = Operand::Addr;
    size_t I = B + 1;
    if (I < E && Toks[I].isWord()) {
      Op.Name = Toks[I].Text;
      Op.BaseIsReg = Op.Name.starts_with("%");
      ++I;
    } else if (I < E && Toks[I].Kind == TokKind::Number) {
      if (auto V = parseInt(Toks[I].Text))
        Op.Value = *V;
      ++I;
    }
    if (I < E && Toks[I].is('+')) {
      ++I;
      bool Neg = false;
      if (I < E && Toks[I].is('-')) {
        Neg = true;
        ++I;
      }
      if (I < E && Toks[I].Kind == TokKind::Number)
        if (auto V = parseInt(Toks[I].Text))
          Op.Value = Neg ? -*V : *V;
    }
    // A texture's coordinates after its handle: `[%rd, {%f1, %f2}]`.
    while (I < E && !Toks[I].is('{') && !Toks[I].is(']'))
      ++I;
    if (I < E && Toks[I].is('{'))
      for (++I; I < E && !Toks[I].is('}'); ++I)
        if (Toks[I].isWord())
          Op.Regs.push_back(Toks[I].Text);
    return Error::success();
  }
  if (T.is('{') || T.is('(')) {
    Op.Kind = T.is('{') ? Operand::Vec : Operand::List;
    for (size_t I = B + 1; I < E; ++I)
      if (Toks[I].isWord())
        Op.Regs.push_back(Toks[I].Text);
    return Error::success();
  }
  size_t I = B;
  if (Toks[I].is('!')) {
    Op.Neg = true;
    ++I;
  }
  bool Minus = false;
  if (I < E && Toks[I].is('-')) {
    Minus = true;
    ++I;
  }
  if (I >= E)
    return Error::success();
  const Token &X = Toks[I];
  if (X.Kind == TokKind::Number) {
    if (auto V = parseInt(X.Text)) {
      Op.Kind = Operand::Imm;
      Op.Value = Minus ? -*V : *V;
    } else {
      Op.Kind = Operand::FImm;
      if (std::optional<double> F = parseFloat(X.Text)) {
        double D = Minus ? -*F : *F;
        std::memcpy(&Op.Value, &D, sizeof(D));
        Op.FloatRead = true;
      }
    }
    return Error::success();
  }
  // WARP_SZ, PTX's predefined warp size (nvcc's `warpSize`): 32 threads
  // on every NVIDIA GPU, so a constant (`t & (warpSize - 1)` is the lane,
  // `t / warpSize` the warp, as with a written 32).
  if (X.isWord() && X.Text == "WARP_SZ") {
    Op.Kind = Operand::Imm;
    Op.Value = Minus ? -32 : 32;
    return Error::success();
  }
  if (X.isWord()) {
    Op.Name = X.Text;
    Op.Kind = X.Text.starts_with("%") ? Operand::Reg : Operand::Sym;
    if (I + 2 < E + 1 && I + 1 < E && Toks[I + 1].is('|') && I + 2 < E &&
        Toks[I + 2].isWord())
      Op.Regs.push_back(Toks[I + 2].Text);
    if (Op.Kind == Operand::Sym && I + 2 < E && Toks[I + 1].is('+'))
      if (auto V = parseInt(Toks[I + 2].Text))
        Op.Value = *V;
  }
  return Error::success();
}

Error Parser::parseInstruction(Function &F, StringRef Guard, bool GuardNeg,
                               unsigned Line) {
  const Token &OpTok = next();
  if (!OpTok.isWord() || OpTok.Text.starts_with("%") ||
      OpTok.Text.starts_with("."))
    return lineError(OpTok.Line,
                     "expected an instruction, found '" + OpTok.Text + "'");
  Stmt S;
  Instr &I = S.I;
  I.Opcode = OpTok.Text;
  I.Guard = Guard;
  I.GuardNeg = GuardNeg;
  I.PtxLine = OpTok.Line;
  I.Loc = CurLoc;
  SmallVector<StringRef, 8> Parts;
  OpTok.Text.split(Parts, '.', -1, false);
  for (StringRef P : Parts) {
    // "shared::cta" -> "shared"; keep "::cluster" distinctions out of scope.
    size_t C = P.find("::");
    I.Mods.push_back(C == StringRef::npos || I.Mods.empty() ? P
                                                            : P.take_front(C));
  }
  if (I.Mods.empty())
    return lineError(OpTok.Line, "empty instruction");
  // Operands up to ';' at depth 0.
  int Depth = 0;
  SmallVector<std::pair<size_t, size_t>, 6> Ranges;
  size_t OpBegin = Pos;
  while (true) {
    const Token &T = peek();
    if (T.Kind == TokKind::End || (Depth == 0 && T.is('}')))
      return lineError(OpTok.Line, "expected ';' after '" + OpTok.Text + "'");
    if (T.is('[') || T.is('{') || T.is('('))
      ++Depth;
    else if (T.is(']') || T.is('}') || T.is(')'))
      --Depth;
    if (Depth < 0)
      return lineError(T.Line,
                       "unbalanced '" + T.Text + "' in '" + OpTok.Text + "'");
    if (Depth == 0 && (T.is(',') || T.is(';'))) {
      if (Pos > OpBegin)
        Ranges.push_back({OpBegin, Pos});
      bool Done = T.is(';');
      next();
      OpBegin = Pos;
      if (Done)
        break;
      continue;
    }
    if (T.isDirective() && Depth == 0)
      return lineError(T.Line, "expected ';' after '" + OpTok.Text + "'");
    next();
  }
  for (auto [B, E] : Ranges) {
    Operand Op;
    if (Error Err = parseOperand(B, E, Op))
      return Err;
    I.Ops.push_back(std::move(Op));
  }
  F.Body.push_back(std::move(S));
  return Error::success();
}

Error Parser::parse(std::vector<Function> &Funcs, StringMap<VarDecl> &Globals,
                    std::map<int, std::string> &Files) {
  bool Extern = false;
  while (!atEnd()) {
    const Token &T = peek();
    if (T.is(';')) {
      next();
      continue;
    }
    if (!T.isDirective())
      return lineError(T.Line, "unexpected '" + T.Text + "' at module scope");
    StringRef D = T.Text.drop_front();
    if (D == "version") {
      next();
      if (peek().Kind != TokKind::Number || peek().Line != T.Line)
        return lineError(T.Line, "expected a number after .version");
      M.Version = next().Text.str();
      skipLine(T.Line);
    } else if (D == "target") {
      next();
      if (!peek().isWord() || peek().Line != T.Line)
        return lineError(T.Line, "expected a target after .target");
      M.Target = next().Text.str();
      skipLine(T.Line);
    } else if (D == "address_size") {
      next();
      if (peek().Kind == TokKind::Number && peek().Line == T.Line)
        if (auto V = parseInt(next().Text))
          M.AddressSize = static_cast<unsigned>(*V);
      skipLine(T.Line);
    } else if (D == "file") {
      next();
      if (Error E = parseFile(T.Line, Files))
        return E;
    } else if (D == "loc") {
      next();
      skipLine(T.Line);
    } else if (D == "section") {
      next();
      while (!atEnd() && !peek().is('{') && peek().Line == T.Line)
        next();
      if (peek().is('{'))
        if (Error E = skipBalancedBraces(T.Line))
          return E;
    } else if (D == "visible" || D == "weak" || D == "common") {
      next();
      continue; // linkage of the next declaration
    } else if (D == "extern") {
      next();
      Extern = true;
      continue;
    } else if (D == "entry" || D == "func") {
      if (Error E = parseFunction(D == "entry", Funcs))
        return E;
    } else if (D == "global" || D == "const" || D == "shared" || D == "local") {
      next();
      std::vector<VarDecl> Vars;
      if (Error E = parseVarDecl(D, Extern, Vars))
        return E;
      for (VarDecl &V : Vars)
        Globals[V.Name] = V;
    } else {
      // .alias, .pragma, .tex, .surf, .sampler and future directives.
      if (D != "alias" && D != "pragma" && D != "tex" && D != "surfref" &&
          D != "texref" && D != "samplerref")
        M.Warnings.push_back(
            formatv("{0}: directive .{1} ignored", T.Line, D).str());
      next();
      skipStatement();
    }
    Extern = false;
  }
  return Error::success();
}

} // namespace

Error parseStatements(std::vector<Token> Toks, PTXModule &M,
                      std::vector<Function> &Funcs, StringMap<VarDecl> &Globals,
                      std::map<int, std::string> &Files) {
  Parser P(std::move(Toks), M);
  return P.parse(Funcs, Globals, Files);
}

} // namespace ptx
} // namespace flipflop
