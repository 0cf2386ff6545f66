//===- PTXParser.cpp - PTX front end --------------------------------------===//
//
// Three stages:
//  1. a lexer over the whole buffer (tokens carry their PTX line),
//  2. a statement parser: module directives, .entry/.func signatures and
//     bodies (declarations, labels, guarded instructions, .loc lines),
//  3. a per-function analysis: basic blocks, dominators, natural loops with
//     recognised or defaulted trip counts, an abstract interpretation of each
//     register (stride in bytes per lane of threadIdx.x, constants, which
//     special registers it depends on), register liveness for the register
//     estimate, and the classification of every instruction.
//
//===----------------------------------------------------------------------===//
#include "flipflop/Profile/PTXParser.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

using namespace llvm;

namespace flipflop {
namespace {

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

enum class TokKind { Word, Number, String, Punct, End };

struct Token {
  TokKind Kind = TokKind::End;
  StringRef Text;
  unsigned Line = 0;
  bool is(char C) const {
    return Kind == TokKind::Punct && Text.size() == 1 && Text[0] == C;
  }
  bool isWord() const { return Kind == TokKind::Word; }
  bool isDirective() const { return isWord() && Text.starts_with("."); }
};

Error lineError(unsigned Line, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Twine(Line) + ": " + Msg);
}

bool isWordStart(char C) {
  return llvm::isAlpha(C) || C == '_' || C == '$' || C == '%' || C == '.';
}
bool isWordChar(char C) {
  return llvm::isAlnum(C) || C == '_' || C == '$' || C == '.';
}

Expected<std::vector<Token>> lex(StringRef Text) {
  std::vector<Token> Toks;
  size_t I = 0, N = Text.size();
  unsigned Line = 1;
  while (I < N) {
    char C = Text[I];
    if (C == '\n') {
      ++Line;
      ++I;
      continue;
    }
    if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      ++I;
      continue;
    }
    if (C == '/' && I + 1 < N && Text[I + 1] == '/') {
      while (I < N && Text[I] != '\n')
        ++I;
      continue;
    }
    if (C == '/' && I + 1 < N && Text[I + 1] == '*') {
      unsigned Start = Line;
      I += 2;
      while (I < N && !(Text[I] == '*' && I + 1 < N && Text[I + 1] == '/')) {
        if (Text[I] == '\n')
          ++Line;
        ++I;
      }
      if (I >= N)
        return lineError(Start, "unterminated comment");
      I += 2;
      continue;
    }
    size_t B = I;
    if (C == '"') {
      ++I;
      while (I < N && Text[I] != '"' && Text[I] != '\n') {
        if (Text[I] == '\\' && I + 1 < N && Text[I + 1] != '\n')
          ++I;
        ++I;
      }
      if (I >= N || Text[I] != '"')
        return lineError(Line, "unterminated string");
      ++I;
      Toks.push_back({TokKind::String, Text.slice(B + 1, I - 1), Line});
      continue;
    }
    if (isWordStart(C)) {
      ++I;
      while (I < N) {
        if (isWordChar(Text[I])) {
          ++I;
        } else if (Text[I] == ':' && I + 1 < N && Text[I + 1] == ':') {
          I += 2; // "shared::cta", "mbarrier::complete_tx::bytes"
        } else {
          break;
        }
      }
      Toks.push_back({TokKind::Word, Text.slice(B, I), Line});
      continue;
    }
    if (isDigit(C)) {
      bool Hex =
          C == '0' && I + 1 < N &&
          (Text[I + 1] == 'x' || Text[I + 1] == 'X' || Text[I + 1] == 'f' ||
           Text[I + 1] == 'F' || Text[I + 1] == 'd' || Text[I + 1] == 'D');
      ++I;
      while (I < N) {
        char D = Text[I];
        if (llvm::isAlnum(D) || D == '.') {
          ++I;
        } else if (!Hex && (D == '+' || D == '-') &&
                   (Text[I - 1] == 'e' || Text[I - 1] == 'E')) {
          ++I;
        } else {
          break;
        }
      }
      Toks.push_back({TokKind::Number, Text.slice(B, I), Line});
      continue;
    }
    static const StringRef Puncts = "{}()[]<>,;:@!+-|=*/&~^?";
    if (Puncts.contains(C)) {
      ++I;
      Toks.push_back({TokKind::Punct, Text.slice(B, I), Line});
      continue;
    }
    if (isPrint(C))
      return lineError(Line, Twine("unexpected character '") + Twine(C) + "'");
    return lineError(Line, "unexpected byte 0x" + utohexstr((uint8_t)C));
  }
  Toks.push_back({TokKind::End, StringRef(), Line});
  return Toks;
}

/// Parses a PTX integer literal (decimal, 0x hex, 0b binary, 0 octal, with an
/// optional U suffix). Float literals (0f..., 0d..., 1.5) return nullopt.
std::optional<int64_t> parseInt(StringRef S) {
  if (S.ends_with("U") || S.ends_with("u"))
    S = S.drop_back();
  if (S.empty())
    return std::nullopt;
  unsigned Radix = 10;
  if (S.starts_with_insensitive("0x")) {
    Radix = 16;
    S = S.drop_front(2);
  } else if (S.starts_with_insensitive("0b")) {
    Radix = 2;
    S = S.drop_front(2);
  } else if (S.size() > 1 && S[0] == '0') {
    Radix = 8;
    S = S.drop_front(1);
  }
  uint64_t V;
  if (S.getAsInteger(Radix, V))
    return std::nullopt;
  return static_cast<int64_t>(V);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

struct Operand {
  enum KindTy { Reg, Imm, FImm, Sym, Addr, Vec, List, Other } Kind = Other;
  StringRef Name;         ///< Reg / Sym name; Addr base (register or symbol).
  int64_t Value = 0;      ///< Imm value; Addr offset.
  bool Neg = false;       ///< "!%p".
  bool BaseIsReg = false; ///< Addr: base is a register.
  SmallVector<StringRef, 4> Regs; ///< Vec/List members; "%p|%q" second.
};

struct SrcLoc {
  int File = -1;
  unsigned Line = 0;
};

struct Instr {
  StringRef Opcode;
  SmallVector<StringRef, 8> Mods; ///< Opcode split at '.' (Mods[0] = base).
  StringRef Guard;
  bool GuardNeg = false;
  SmallVector<Operand, 4> Ops;
  unsigned PtxLine = 0;
  SrcLoc Loc;
  bool hasMod(StringRef M) const {
    return std::find(Mods.begin() + 1, Mods.end(), M) != Mods.end();
  }
};

struct Stmt {
  bool IsLabel = false;
  StringRef Label;
  Instr I;
};

struct VarDecl {
  StringRef Space; ///< "shared", "local", "const", "global", "param".
  StringRef Name;
  uint64_t Bytes = 0;
  bool Extern = false;
  bool Unsized = false;
};

struct RegDecl {
  unsigned Width = 1; ///< In 32-bit registers (0 for predicates).
  unsigned Count = 1; ///< Range size for %r<N>; 1 for a single name.
  bool Range = false;
  std::string Name;
};

struct Function {
  std::string Name;
  bool IsEntry = false;
  bool HasBody = false;
  unsigned Line = 0;
  LaunchBounds Bounds;
  std::vector<Stmt> Body;
  std::vector<VarDecl> Vars;
  std::vector<RegDecl> Regs;
  StringMap<std::vector<StringRef>> BranchTargets;
};

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
  Error parseParamList(unsigned Line, StringRef What);
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

Error Parser::parseParamList(unsigned Line, StringRef What) {
  // At '(': skip to the matching ')'.
  next();
  int Depth = 1;
  while (!atEnd()) {
    const Token &T = next();
    if (T.is('('))
      ++Depth;
    else if (T.is(')') && --Depth == 0)
      return Error::success();
    else if (T.is('{') || T.is('}') || T.is(';'))
      return lineError(T.Line,
                       "expected ')' to close the parameter list of " + What);
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
    if (Error E = parseParamList(NameTok.Line, Desc))
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

Error Parser::parseBody(Function &F) {
  int Depth = 1;
  while (true) {
    const Token &T = peek();
    if (T.Kind == TokKind::End)
      return lineError(F.Line,
                       "missing '}' at the end of the body of " + F.Name);
    if (T.is('{')) {
      next();
      ++Depth;
      continue;
    }
    if (T.is('}')) {
      next();
      if (--Depth == 0)
        return Error::success();
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
        // .pragma and anything else: skip the statement.
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
    }
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

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

/// Special registers a value depends on.
enum Taint : unsigned {
  TTidX = 1,
  TTidY = 2,
  TTidZ = 4,
  TNTid = 8,
  TCtaId = 16,
  TNCtaId = 32,
  TParam = 64,
  TMem = 128,
  TLane = 256,
  TCtaIdX = 512, ///< With TCtaId: which dimension.
  TCtaIdY = 1024,
  TCtaIdZ = 2048,
  TMemTid = 4096 ///< Loaded from an address that varies across threads.
};

/// cvt from a floating-point to an integer type (cvt.rzi.s32.f32 etc.).
static bool isFloatToInt(const Instr &I) {
  SmallVector<StringRef, 2> Types;
  for (size_t K = 1; K < I.Mods.size(); ++K)
    if (typeBits(I.Mods[K]) && I.Mods[K] != "pred")
      Types.push_back(I.Mods[K]);
  return Types.size() == 2 && (Types[0][0] == 's' || Types[0][0] == 'u') &&
         Types[1][0] == 'f';
}

/// Data-scaled coordinates: a float value computed from thread or block
/// indices and data loaded from a warp-uniform address (a table of
/// coefficients), converted to an integer. Such an index moves smoothly with
/// the thread index (neighbouring threads land on neighbouring elements), so
/// its dependence on the y/z indices and on the data is not a gather
/// (docs/MODEL.md, "Data-scaled coordinates").
static unsigned smoothCoordinateTaint(unsigned T) {
  if (!(T & TMem) || (T & TMemTid))
    return T;
  return T & ~unsigned(TMem | TTidY | TTidZ | TCtaIdY | TCtaIdZ);
}

/// Abstract value: bytes per lane along threadIdx.x (Coef), a constant.
struct AbsVal {
  enum StateTy : uint8_t { Bottom, Known, Top } State = Bottom;
  int64_t Coef = 0;
  bool HasConst = false;
  int64_t Const = 0;
  static AbsVal top() {
    AbsVal V;
    V.State = Top;
    return V;
  }
  static AbsVal uniform() {
    AbsVal V;
    V.State = Known;
    return V;
  }
  static AbsVal constant(int64_t C) {
    AbsVal V;
    V.State = Known;
    V.HasConst = true;
    V.Const = C;
    return V;
  }
  static AbsVal affine(int64_t C) {
    AbsVal V;
    V.State = Known;
    V.Coef = C;
    return V;
  }
  bool operator==(const AbsVal &O) const {
    return State == O.State && Coef == O.Coef && HasConst == O.HasConst &&
           Const == O.Const;
  }
  bool known() const { return State == Known; }
  bool uniformV() const { return State == Known && Coef == 0; }
};

AbsVal join(const AbsVal &A, const AbsVal &B) {
  if (A.State == AbsVal::Bottom)
    return B;
  if (B.State == AbsVal::Bottom)
    return A;
  if (A.State == AbsVal::Top || B.State == AbsVal::Top)
    return AbsVal::top();
  if (A.Coef != B.Coef)
    return AbsVal::top();
  AbsVal R = AbsVal::affine(A.Coef);
  if (A.HasConst && B.HasConst && A.Const == B.Const) {
    R.HasConst = true;
    R.Const = A.Const;
  }
  return R;
}

/// Affine form over the guard variables (GuardVar) for bounds checks:
/// sum(C[v] * v) + K. Bottom: not yet defined; Top: not affine.
struct AffVal {
  enum StateTy : uint8_t { Bottom, Known, Top } State = Bottom;
  std::array<int64_t, NumGuardVars> C{};
  int64_t K = 0;
  static AffVal top() {
    AffVal V;
    V.State = Top;
    return V;
  }
  static AffVal constant(int64_t X) {
    AffVal V;
    V.State = Known;
    V.K = X;
    return V;
  }
  static AffVal var(unsigned I) {
    AffVal V;
    V.State = Known;
    V.C[I] = 1;
    return V;
  }
  bool operator==(const AffVal &O) const {
    return State == O.State && C == O.C && K == O.K;
  }
  bool known() const { return State == Known; }
  bool isConst() const {
    return known() && std::all_of(C.begin(), C.end(),
                                  [](int64_t X) { return X == 0; });
  }
  /// Exactly the variable \p I.
  bool isVar(unsigned I) const {
    if (!known() || K != 0)
      return false;
    for (unsigned V = 0; V < NumGuardVars; ++V)
      if (C[V] != (V == I ? 1 : 0))
        return false;
    return true;
  }
};

/// Coefficients beyond this are treated as not affine (no overflow).
constexpr int64_t AffLimit = int64_t(1) << 40;

AffVal affCombine(const AffVal &A, const AffVal &B, int64_t MA, int64_t MB) {
  if (A.State == AffVal::Bottom || B.State == AffVal::Bottom)
    return AffVal();
  if (!A.known() || !B.known())
    return AffVal::top();
  AffVal R = AffVal::constant(0);
  auto Ok = [](int64_t X) { return X > -AffLimit && X < AffLimit; };
  for (unsigned V = 0; V < NumGuardVars; ++V) {
    if (!Ok(A.C[V]) || !Ok(B.C[V]))
      return AffVal::top();
    R.C[V] = MA * A.C[V] + MB * B.C[V];
  }
  if (!Ok(A.K) || !Ok(B.K))
    return AffVal::top();
  R.K = MA * A.K + MB * B.K;
  return R;
}

/// A * B when one side is a constant, or blockIdx.d * blockDim.d.
AffVal affMul(const AffVal &A, const AffVal &B) {
  if (A.State == AffVal::Bottom || B.State == AffVal::Bottom)
    return AffVal();
  if (!A.known() || !B.known())
    return AffVal::top();
  for (unsigned D = 0; D < 3; ++D)
    if ((A.isVar(GVCtaid + D) && B.isVar(GVNtid + D)) ||
        (B.isVar(GVCtaid + D) && A.isVar(GVNtid + D)))
      return AffVal::var(GVGlobal + D);
  if (B.isConst() && B.K > -AffLimit && B.K < AffLimit)
    return affCombine(A, AffVal::constant(0), B.K, 0);
  if (A.isConst() && A.K > -AffLimit && A.K < AffLimit)
    return affCombine(B, AffVal::constant(0), A.K, 0);
  return AffVal::top();
}

bool isStoreLike(StringRef Base) {
  return Base == "st" || Base == "red" || Base == "bar" || Base == "barrier" ||
         Base == "bra" || Base == "brx" || Base == "call" || Base == "ret" ||
         Base == "exit" || Base == "prefetch" || Base == "prefetchu" ||
         Base == "cp" || Base == "stmatrix" || Base == "membar" ||
         Base == "fence" || Base == "trap" || Base == "nanosleep" ||
         Base == "sust" || Base == "sured" || Base == "pmevent" ||
         Base == "brkpt" || Base == "griddepcontrol" || Base == "setmaxnreg" ||
         Base == "discard" || Base == "applypriority" || Base == "wgmma" ||
         Base == "stackrestore" || Base == "tensormap";
}

/// Per-function result of the analysis, before callee work is folded in.
struct FuncSummary {
  std::array<double, NumOpClasses> Ops{};
  double Flops32 = 0, Flops64 = 0, Flops16 = 0, TensorFlops = 0;
  std::map<std::string, double> TensorByType;
  std::vector<MemAccess> Accesses;
  std::vector<LoopRecord> Loops;
  std::vector<std::string> Guesses, Warnings;
  std::vector<std::pair<std::string, double>> Calls; ///< Callee, weight.
  bool IndirectCalls = false;
  unsigned DivergentBranches = 0;
  unsigned EstimatedRegs = 0;
  unsigned BarrierIds = 0;
  StringSet<> Symbols; ///< Symbols referenced (shared/const variables).
  ShapeInfo Shape;
  SrcLoc FirstLoc;
  unsigned UnknownInstrs = 0;
  std::vector<AffineGuard> Guards;
  std::vector<GuardedWork> Guarded;
  /// Memory- and instruction-level parallelism (loop-weighted, 1 unknown).
  double MLP = 1, ILP = 1;
};

/// Executions per thread are capped here (deeply nested loops stay finite).
constexpr double MaxBlockWeight = 1e15;

/// Registers ptxas needs beyond the virtual registers live at once.
constexpr unsigned RegisterReserve = 0;

class FunctionAnalysis {
public:
  FunctionAnalysis(const Function &F, const PTXParseOptions &Opts)
      : F(F), Opts(Opts) {}
  FuncSummary run();

private:
  const Function &F;
  const PTXParseOptions &Opts;
  std::vector<const Instr *> Instrs;
  std::vector<unsigned> InstrBlock;
  struct Block {
    unsigned Begin = 0, End = 0; ///< Instruction range [Begin, End).
    SmallVector<unsigned, 2> Succs, Preds;
    double Weight = 1;
    bool Reachable = false;
    SmallVector<unsigned, 2> Loops; ///< Loops containing it.
  };
  std::vector<Block> Blocks;
  struct Loop {
    unsigned Header;
    BitVector Body;
    double Trip = 1;
    std::string ExitDesc; ///< The exit comparison, for explanations.
    std::optional<int64_t> ConstBound; ///< Its constant bound, if any.
    LoopRecord Rec;
    /// Counted loops: the induction register.
    int IVReg = -1;
    /// Several exits: the trip count is the smallest counted one (an upper
    /// bound when another exit is not counted).
    bool MultiExit = false;
  };
  std::vector<Loop> Loops;
  StringMap<unsigned> RegIds;
  StringMap<unsigned> LabelBlock;
  std::vector<unsigned> RegWidth;
  std::vector<AbsVal> Vals;
  std::vector<unsigned> Taints;
  std::vector<SmallVector<unsigned, 2>> DefSites;
  FuncSummary S;

  /// Prefix of messages about a called function ("in NAME: "); none for
  /// the kernel itself.
  std::string where() const {
    return F.IsEntry ? std::string() : "in " + F.Name + ": ";
  }
  void buildBlocks();
  void computeLoops();
  void analyseValues();
  void analyseAffine();
  void analyseGuards();
  void analyseParallelism();
  AffVal affOf(const Operand &O) const;
  int reachingDef(unsigned R, unsigned At) const;
  std::optional<int64_t> constAt(unsigned R, unsigned At,
                                 unsigned Depth = 0) const;
  bool predicateGuards(StringRef Reg, bool Want,
                       SmallVectorImpl<AffineGuard> &Out, unsigned Depth) const;
  /// A path from block \p From to block \p To exists.
  bool reaches(unsigned From, unsigned To) const {
    std::vector<bool> Seen(Blocks.size(), false);
    SmallVector<unsigned, 16> Work{From};
    Seen[From] = true;
    while (!Work.empty()) {
      unsigned X = Work.pop_back_val();
      for (unsigned Sx : Blocks[X].Succs) {
        if (Sx == To)
          return true;
        if (!Seen[Sx]) {
          Seen[Sx] = true;
          Work.push_back(Sx);
        }
      }
    }
    return false;
  }
  bool dominates(unsigned A, unsigned B) const {
    if (B >= IDom.size() || IDom[B] < 0)
      return false;
    for (unsigned X = B, Steps = 0; Steps <= IDom.size(); X = IDom[X], ++Steps) {
      if (X == A)
        return true;
      if (X == 0)
        return false;
    }
    return false;
  }
  AffVal affEval(const Instr &I) const;
  std::vector<AffVal> Affs;
  /// Induction registers of counted loops (analyseAffine): their value is
  /// Start + Step * iteration inside Loop only.
  struct IVInfo {
    unsigned Slot;
    int64_t Step;
    unsigned StartDef;
    unsigned Loop;
  };
  std::map<unsigned, IVInfo> IVRegs;
  std::array<double, 4> IterTrip{1, 1, 1, 1}; ///< Trips of the GVIter loops.
  std::vector<int> IDom;        ///< Immediate dominators (computeLoops).
  std::vector<unsigned> RPO;    ///< Reachable blocks in reverse post-order.
  void estimateRegisters();
  void classify(const Instr &I, double W, unsigned BlockIdx);
  std::optional<double> countedTrip(Loop &L);
  std::optional<double> countedTripThrough(Loop &L, unsigned ExitBlock);

  int regId(StringRef Name) const {
    auto It = RegIds.find(Name);
    return It == RegIds.end() ? -1 : static_cast<int>(It->second);
  }
  void regsOf(const Operand &O, SmallVectorImpl<unsigned> &Out) const {
    auto Add = [&](StringRef N) {
      int Id = regId(N);
      if (Id >= 0)
        Out.push_back(static_cast<unsigned>(Id));
    };
    switch (O.Kind) {
    case Operand::Reg:
      Add(O.Name);
      for (StringRef R : O.Regs)
        Add(R);
      break;
    case Operand::Addr:
      if (O.BaseIsReg)
        Add(O.Name);
      break;
    case Operand::Vec:
    case Operand::List:
      for (StringRef R : O.Regs)
        Add(R);
      break;
    default:
      break;
    }
  }
  bool hasDef(const Instr &I) const {
    return !I.Ops.empty() && !isStoreLike(I.Mods[0]) &&
           !(I.Mods[0] == "wmma" && I.Mods.size() > 1 &&
             I.Mods[1] == "store") &&
           !(I.Mods[0] == "mbarrier" && I.Ops[0].Kind == Operand::Addr);
  }
  void defsOf(const Instr &I, SmallVectorImpl<unsigned> &Out) const {
    if (hasDef(I))
      regsOf(I.Ops[0], Out);
  }
  void usesOf(const Instr &I, SmallVectorImpl<unsigned> &Out) const {
    for (size_t K = hasDef(I) ? 1 : 0; K < I.Ops.size(); ++K)
      regsOf(I.Ops[K], Out);
    if (hasDef(I) && I.Ops[0].Kind == Operand::Addr)
      regsOf(I.Ops[0], Out);
    if (!I.Guard.empty()) {
      int Id = regId(I.Guard);
      if (Id >= 0)
        Out.push_back(Id);
    }
  }
  AbsVal valOf(const Operand &O) const {
    switch (O.Kind) {
    case Operand::Imm:
      return AbsVal::constant(O.Value);
    case Operand::FImm:
    case Operand::Sym:
      return AbsVal::uniform();
    case Operand::Reg: {
      int Id = regId(O.Name);
      if (Id >= 0)
        return Vals[Id];
      return specialVal(O.Name);
    }
    default:
      return AbsVal::top();
    }
  }
  unsigned taintOf(const Operand &O) const {
    if (O.Kind == Operand::Reg) {
      int Id = regId(O.Name);
      return Id >= 0 ? Taints[Id] : specialTaint(O.Name);
    }
    if (O.Kind == Operand::Addr && O.BaseIsReg) {
      int Id = regId(O.Name);
      return Id >= 0 ? Taints[Id] : 0;
    }
    return 0;
  }
  static AbsVal specialVal(StringRef N) {
    if (N == "%tid.x" || N == "%laneid")
      return AbsVal::affine(1);
    if (N.starts_with("%tid") || N.starts_with("%ntid") ||
        N.starts_with("%ctaid") || N.starts_with("%nctaid") ||
        N.starts_with("%warpid") || N.starts_with("%nwarpid") ||
        N.starts_with("%smid") || N.starts_with("%cluster") ||
        N.starts_with("%is_explicit_cluster"))
      return AbsVal::uniform();
    return AbsVal::top();
  }
  static unsigned specialTaint(StringRef N) {
    return StringSwitch<unsigned>(N)
        .Case("%tid.x", TTidX)
        .Case("%tid.y", TTidY)
        .Case("%tid.z", TTidZ)
        .Case("%laneid", TLane)
        .StartsWith("%ntid", TNTid)
        .StartsWith("%nctaid", TNCtaId)
        .Case("%ctaid.x", TCtaId | TCtaIdX)
        .Case("%ctaid.y", TCtaId | TCtaIdY)
        .Case("%ctaid.z", TCtaId | TCtaIdZ)
        .StartsWith("%ctaid", TCtaId)
        .Default(0);
  }
  AbsVal eval(const Instr &I) const;
  /// The user-stated value of the kernel parameter \p I loads
  /// (ld.param [NAME_param_N]), if any. Only whole scalar loads count.
  std::optional<int64_t> paramValue(const Instr &I) const {
    if (!F.IsEntry || Opts.ArgValues.empty() || I.Ops.size() != 2 ||
        I.Ops[1].Kind != Operand::Addr || I.Ops[1].BaseIsReg ||
        I.Ops[1].Value != 0)
      return std::nullopt;
    StringRef Sym = I.Ops[1].Name;
    size_t At = Sym.rfind("_param_");
    unsigned Idx;
    if (At == StringRef::npos ||
        Sym.drop_front(At + 7).getAsInteger(10, Idx))
      return std::nullopt;
    auto It = Opts.ArgValues.find(Idx);
    if (It == Opts.ArgValues.end())
      return std::nullopt;
    return It->second;
  }
};

void FunctionAnalysis::buildBlocks() {
  // Register ids, assigned only to declared registers the body uses (a
  // "%r<100000>" declaration costs nothing until its registers appear).
  StringMap<std::pair<unsigned, unsigned>> Ranges; // prefix -> count, width
  StringMap<unsigned> Singles;                     // name -> width
  for (const RegDecl &R : F.Regs) {
    if (R.Range)
      Ranges[R.Name] = {R.Count, R.Width};
    else
      Singles[R.Name] = R.Width;
  }
  auto Declare = [&](StringRef Name) {
    if (Name.empty() || RegIds.count(Name))
      return;
    std::optional<unsigned> Width;
    auto S = Singles.find(Name);
    if (S != Singles.end()) {
      Width = S->second;
    } else {
      size_t Digits = Name.size();
      while (Digits > 0 && isDigit(Name[Digits - 1]))
        --Digits;
      unsigned Idx;
      auto R = Ranges.find(Name.take_front(Digits));
      if (Digits < Name.size() && R != Ranges.end() &&
          !Name.drop_front(Digits).getAsInteger(10, Idx) &&
          Idx < R->second.first)
        Width = R->second.second;
    }
    if (!Width)
      return;
    RegIds[Name] = RegWidth.size();
    RegWidth.push_back(*Width);
  };
  for (const Stmt &St : F.Body) {
    if (St.IsLabel)
      continue;
    Declare(St.I.Guard);
    for (const Operand &O : St.I.Ops) {
      if (O.Kind == Operand::Reg || (O.Kind == Operand::Addr && O.BaseIsReg))
        Declare(O.Name);
      for (StringRef R : O.Regs)
        Declare(R);
    }
  }
  bool StartNew = true;
  for (const Stmt &St : F.Body) {
    if (St.IsLabel) {
      if (Blocks.empty() || Blocks.back().End != Blocks.back().Begin ||
          !StartNew) {
        Block B;
        B.Begin = B.End = Instrs.size();
        Blocks.push_back(B);
      }
      LabelBlock[St.Label] = Blocks.size() - 1;
      StartNew = false;
      continue;
    }
    if (StartNew || Blocks.empty()) {
      Block B;
      B.Begin = B.End = Instrs.size();
      Blocks.push_back(B);
      StartNew = false;
    }
    Instrs.push_back(&St.I);
    InstrBlock.push_back(Blocks.size() - 1);
    Blocks.back().End = Instrs.size();
    StringRef Base = St.I.Mods[0];
    if (Base == "bra" || Base == "brx" || Base == "ret" || Base == "exit" ||
        Base == "trap")
      StartNew = true;
  }
  if (Blocks.empty()) {
    Block B;
    Blocks.push_back(B);
  }
  for (unsigned BI = 0; BI < Blocks.size(); ++BI) {
    Block &B = Blocks[BI];
    bool FallThrough = true;
    auto AddSucc = [&](StringRef Label) {
      auto It = LabelBlock.find(Label);
      if (It != LabelBlock.end())
        B.Succs.push_back(It->second);
      else
        S.Warnings.push_back(
            formatv("{0}branch to unknown label {1}", where(), Label).str());
    };
    if (B.End > B.Begin) {
      const Instr &T = *Instrs[B.End - 1];
      StringRef Base = T.Mods[0];
      bool Guarded = !T.Guard.empty();
      if (Base == "bra") {
        if (!T.Ops.empty() && T.Ops[0].Kind == Operand::Sym)
          AddSucc(T.Ops[0].Name);
        FallThrough = Guarded;
      } else if (Base == "brx") {
        if (T.Ops.size() >= 2) {
          auto It = F.BranchTargets.find(T.Ops[1].Name);
          if (It != F.BranchTargets.end())
            for (StringRef L : It->second)
              AddSucc(L);
        }
        FallThrough = Guarded;
      } else if (Base == "ret" || Base == "exit" || Base == "trap") {
        FallThrough = Guarded;
      }
    }
    if (FallThrough && BI + 1 < Blocks.size())
      B.Succs.push_back(BI + 1);
    std::sort(B.Succs.begin(), B.Succs.end());
    B.Succs.erase(std::unique(B.Succs.begin(), B.Succs.end()), B.Succs.end());
  }
  for (unsigned BI = 0; BI < Blocks.size(); ++BI)
    for (unsigned Sx : Blocks[BI].Succs)
      Blocks[Sx].Preds.push_back(BI);
}

void FunctionAnalysis::computeLoops() {
  unsigned N = Blocks.size();
  // Reverse post-order from the entry (iterative DFS).
  std::vector<unsigned> Order, RPONum(N, ~0u);
  {
    std::vector<std::pair<unsigned, unsigned>> Stack{{0, 0}};
    std::vector<bool> Seen(N, false);
    Seen[0] = true;
    while (!Stack.empty()) {
      auto &[BI, K] = Stack.back();
      if (K < Blocks[BI].Succs.size()) {
        unsigned Sx = Blocks[BI].Succs[K++];
        if (!Seen[Sx]) {
          Seen[Sx] = true;
          Stack.push_back({Sx, 0});
        }
      } else {
        Order.push_back(BI);
        Stack.pop_back();
      }
    }
    std::reverse(Order.begin(), Order.end());
    for (unsigned I = 0; I < Order.size(); ++I) {
      RPONum[Order[I]] = I;
      Blocks[Order[I]].Reachable = true;
    }
  }
  RPO = Order;
  // Dominators (Cooper, Harvey, Kennedy).
  IDom.assign(N, -1);
  IDom[0] = 0;
  auto Intersect = [&](int A, int B) {
    while (A != B) {
      while (RPONum[A] > RPONum[B])
        A = IDom[A];
      while (RPONum[B] > RPONum[A])
        B = IDom[B];
    }
    return A;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned BI : Order) {
      if (BI == 0)
        continue;
      int New = -1;
      for (unsigned P : Blocks[BI].Preds) {
        if (IDom[P] < 0)
          continue;
        New = New < 0 ? (int)P : Intersect(P, New);
      }
      if (New >= 0 && IDom[BI] != New) {
        IDom[BI] = New;
        Changed = true;
      }
    }
  }
  auto Dominates = [&](unsigned A, unsigned B) {
    if (IDom[B] < 0)
      return false;
    for (unsigned X = B;; X = IDom[X]) {
      if (X == A)
        return true;
      if (X == 0)
        return false;
    }
  };
  // Natural loops from back edges, merged per header, in header RPO order.
  std::map<unsigned, BitVector> ByHeader;
  for (unsigned BI : Order)
    for (unsigned Sx : Blocks[BI].Succs) {
      if (!Dominates(Sx, BI)) {
        if (RPONum[Sx] <= RPONum[BI] && Blocks[Sx].Reachable)
          S.Warnings.push_back(formatv("{0}irreducible control flow; the "
                                       "cycle is not weighted",
                                       where())
                                   .str());
        continue;
      }
      BitVector &Body = ByHeader.try_emplace(Sx, BitVector(N)).first->second;
      Body.set(Sx);
      std::vector<unsigned> Work;
      if (!Body.test(BI)) {
        Body.set(BI);
        Work.push_back(BI);
      }
      while (!Work.empty()) {
        unsigned X = Work.back();
        Work.pop_back();
        for (unsigned P : Blocks[X].Preds)
          if (Blocks[P].Reachable && !Body.test(P)) {
            Body.set(P);
            Work.push_back(P);
          }
      }
    }
  std::vector<std::pair<unsigned, unsigned>> Headers;
  for (auto &[H, Body] : ByHeader)
    Headers.push_back({RPONum[H], H});
  std::sort(Headers.begin(), Headers.end());
  for (auto [R, H] : Headers) {
    Loop L;
    L.Header = H;
    L.Body = ByHeader[H];
    Loops.push_back(std::move(L));
  }
  for (unsigned LI = 0; LI < Loops.size(); ++LI)
    for (unsigned BI : Loops[LI].Body.set_bits())
      Blocks[BI].Loops.push_back(LI);
}

AbsVal FunctionAnalysis::eval(const Instr &I) const {
  StringRef Base = I.Mods[0];
  auto Op = [&](size_t K) {
    return K < I.Ops.size() ? valOf(I.Ops[K]) : AbsVal::top();
  };
  auto AllUniform = [&]() {
    for (size_t K = 1; K < I.Ops.size(); ++K) {
      AbsVal V = valOf(I.Ops[K]);
      if (V.State == AbsVal::Bottom)
        return AbsVal();
      if (!V.uniformV())
        return AbsVal::top();
    }
    return AbsVal::uniform();
  };
  bool LoadLike = (!I.Ops.empty() && I.Ops[0].Kind == Operand::Vec) ||
                  Base == "ld" || Base == "ldu" || Base == "atom" ||
                  Base == "tex" || Base == "suld" || Base == "ldmatrix" ||
                  Base == "wmma" || Base == "mma" || Base == "shfl";
  if (LoadLike) {
    if (Base == "ld" && I.hasMod("param")) {
      if (auto V = paramValue(I))
        return AbsVal::constant(*V);
      return AbsVal::uniform();
    }
    if (Base == "ld" || Base == "ldu") {
      for (const Operand &O : I.Ops)
        if (O.Kind == Operand::Addr) {
          if (!O.BaseIsReg)
            return AbsVal::uniform();
          int R = regId(O.Name);
          AbsVal A = R >= 0 ? Vals[R] : AbsVal::top();
          if (A.State == AbsVal::Bottom)
            return AbsVal();
          return A.uniformV() ? AbsVal::uniform() : AbsVal::top();
        }
    }
    return AbsVal::top();
  }
  if (Base == "mov" || Base == "cvta" || Base == "cvt") {
    AbsVal V = Op(1);
    if (Base == "cvt" && V.HasConst && I.Mods.size() >= 3 &&
        isFloatType(I.Mods[I.Mods.size() - 2]))
      V.HasConst = false;
    return V;
  }
  if (Base == "add" || Base == "sub") {
    if (I.hasMod("f32") || I.hasMod("f64") || I.hasMod("f16") ||
        I.hasMod("f16x2") || I.hasMod("bf16") || I.hasMod("bf16x2"))
      return AllUniform();
    AbsVal A = Op(1), B = Op(2);
    if (A.State == AbsVal::Bottom || B.State == AbsVal::Bottom)
      return AbsVal();
    if (!A.known() || !B.known())
      return AbsVal::top();
    bool Sub = Base == "sub";
    AbsVal R = AbsVal::affine(Sub ? A.Coef - B.Coef : A.Coef + B.Coef);
    if (A.HasConst && B.HasConst) {
      R.HasConst = true;
      R.Const = Sub ? A.Const - B.Const : A.Const + B.Const;
    }
    return R;
  }
  if ((Base == "mul" || Base == "mad") && !I.hasMod("hi") && !I.hasMod("f32") &&
      !I.hasMod("f64") && !I.hasMod("f16")) {
    AbsVal A = Op(1), B = Op(2);
    if (A.State == AbsVal::Bottom || B.State == AbsVal::Bottom)
      return AbsVal();
    AbsVal P;
    if (!A.known() || !B.known())
      P = AbsVal::top();
    else if (A.HasConst && B.HasConst)
      P = AbsVal::constant(A.Const * B.Const);
    else if (B.HasConst)
      P = AbsVal::affine(A.Coef * B.Const);
    else if (A.HasConst)
      P = AbsVal::affine(B.Coef * A.Const);
    else if (A.Coef == 0 && B.Coef == 0)
      P = AbsVal::uniform();
    else
      P = AbsVal::top();
    if (Base == "mul")
      return P;
    AbsVal C = Op(3);
    if (C.State == AbsVal::Bottom)
      return AbsVal();
    if (!P.known() || !C.known())
      return AbsVal::top();
    AbsVal R = AbsVal::affine(P.Coef + C.Coef);
    if (P.HasConst && C.HasConst) {
      R.HasConst = true;
      R.Const = P.Const + C.Const;
    }
    return R;
  }
  // Integer constants fold through the rest of the arithmetic (trip counts
  // of unrolled loops over stated arguments: n & ~3, n >> 2, n % 4, ...).
  if ((Base == "and" || Base == "or" || Base == "xor" || Base == "shr" ||
       Base == "div" || Base == "rem" || Base == "min" || Base == "max" ||
       Base == "neg" || Base == "not") &&
      !I.hasMod("pred") && !I.hasMod("f32") && !I.hasMod("f64")) {
    AbsVal A = Op(1), B = I.Ops.size() > 2 ? Op(2) : AbsVal::constant(0);
    if (A.State == AbsVal::Bottom || B.State == AbsVal::Bottom)
      return AbsVal();
    if (A.HasConst && B.HasConst) {
      int64_t X = A.Const, Y = B.Const;
      bool U = I.hasMod("u32") || I.hasMod("u64") || I.hasMod("b32") ||
               I.hasMod("b64");
      std::optional<int64_t> R;
      if (Base == "and")
        R = X & Y;
      else if (Base == "or")
        R = X | Y;
      else if (Base == "xor")
        R = X ^ Y;
      else if (Base == "shr" && Y >= 0 && Y < 63)
        R = U ? int64_t(uint64_t(X) >> Y) : X >> Y;
      else if (Base == "div" && Y != 0)
        R = X / Y;
      else if (Base == "rem" && Y != 0)
        R = X % Y;
      else if (Base == "min")
        R = std::min(X, Y);
      else if (Base == "max")
        R = std::max(X, Y);
      else if (Base == "neg")
        R = -X;
      else if (Base == "not")
        R = ~X;
      if (R)
        return AbsVal::constant(*R);
    }
    return AllUniform();
  }
  if (Base == "shl") {
    AbsVal A = Op(1), B = Op(2);
    if (A.State == AbsVal::Bottom || B.State == AbsVal::Bottom)
      return AbsVal();
    if (A.known() && B.HasConst && B.Const >= 0 && B.Const < 32) {
      AbsVal R = AbsVal::affine(A.Coef * (int64_t(1) << B.Const));
      if (A.HasConst) {
        R.HasConst = true;
        R.Const = A.Const * (int64_t(1) << B.Const);
      }
      return R;
    }
    return AllUniform();
  }
  return AllUniform();
}

void FunctionAnalysis::analyseValues() {
  unsigned NR = RegWidth.size();
  Vals.assign(NR, AbsVal());
  Taints.assign(NR, 0);
  DefSites.assign(NR, {});
  for (unsigned K = 0; K < Instrs.size(); ++K) {
    SmallVector<unsigned, 4> D;
    defsOf(*Instrs[K], D);
    for (unsigned R : D)
      DefSites[R].push_back(K);
  }
  for (unsigned Pass = 0; Pass < 64; ++Pass) {
    bool Changed = false;
    for (const Instr *IP : Instrs) {
      const Instr &I = *IP;
      SmallVector<unsigned, 4> D;
      defsOf(I, D);
      if (D.empty())
        continue;
      AbsVal V = eval(I);
      unsigned T = 0;
      for (size_t K = 1; K < I.Ops.size(); ++K)
        T |= taintOf(I.Ops[K]);
      if (I.Ops[0].Kind == Operand::Addr)
        T |= taintOf(I.Ops[0]);
      StringRef Base = I.Mods[0];
      if (Base == "ld" || Base == "ldu" || Base == "atom" || Base == "tex" ||
          Base == "suld") {
        if (T & (TTidX | TTidY | TTidZ | TLane | TMemTid))
          T |= TMemTid;
        T |= I.hasMod("param") ? TParam : TMem;
      } else if (Base == "cvt" && isFloatToInt(I)) {
        T = smoothCoordinateTaint(T);
      }
      for (unsigned R : D) {
        AbsVal NV = D.size() > 1 && !V.uniformV() ? join(Vals[R], AbsVal::top())
                                                  : join(Vals[R], V);
        if (!(NV == Vals[R])) {
          Vals[R] = NV;
          Changed = true;
        }
        if ((Taints[R] | T) != Taints[R]) {
          Taints[R] |= T;
          Changed = true;
        }
      }
    }
    if (!Changed)
      break;
  }
}

void FunctionAnalysis::estimateRegisters() {
  unsigned NR = RegWidth.size(), NB = Blocks.size();
  unsigned Declared = 0;
  for (unsigned W : RegWidth)
    Declared += W;
  if (NR == 0) {
    S.EstimatedRegs = 0;
    return;
  }
  if (uint64_t(NR) * NB > 50000000ull) { // too big: the declared count
    S.EstimatedRegs = std::min(255u, Declared);
    return;
  }
  std::vector<BitVector> Use(NB, BitVector(NR)), Def(NB, BitVector(NR)),
      LiveIn(NB, BitVector(NR)), LiveOut(NB, BitVector(NR));
  for (unsigned BI = 0; BI < NB; ++BI)
    for (unsigned K = Blocks[BI].Begin; K < Blocks[BI].End; ++K) {
      SmallVector<unsigned, 8> U, D;
      usesOf(*Instrs[K], U);
      defsOf(*Instrs[K], D);
      for (unsigned R : U)
        if (!Def[BI].test(R))
          Use[BI].set(R);
      if (Instrs[K]->Guard.empty())
        for (unsigned R : D)
          Def[BI].set(R);
    }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned BI = NB; BI-- > 0;) {
      BitVector Out(NR);
      for (unsigned Sx : Blocks[BI].Succs)
        Out |= LiveIn[Sx];
      BitVector In = Out;
      In.reset(Def[BI]);
      In |= Use[BI];
      if (In != LiveIn[BI] || Out != LiveOut[BI]) {
        LiveIn[BI] = std::move(In);
        LiveOut[BI] = std::move(Out);
        Changed = true;
      }
    }
  }
  unsigned MaxLive = 0;
  for (unsigned BI = 0; BI < NB; ++BI) {
    BitVector Live = LiveOut[BI];
    unsigned Cur = 0;
    for (unsigned R : Live.set_bits())
      Cur += RegWidth[R];
    MaxLive = std::max(MaxLive, Cur);
    for (unsigned K = Blocks[BI].End; K-- > Blocks[BI].Begin;) {
      SmallVector<unsigned, 8> U, D;
      usesOf(*Instrs[K], U);
      defsOf(*Instrs[K], D);
      // Definitions occupy a register at this point even when dead.
      unsigned Here = Cur;
      for (unsigned R : D)
        if (!Live.test(R))
          Here += RegWidth[R];
      MaxLive = std::max(MaxLive, Here);
      if (Instrs[K]->Guard.empty())
        for (unsigned R : D)
          if (Live.test(R)) {
            Live.reset(R);
            Cur -= RegWidth[R];
          }
      for (unsigned R : U)
        if (!Live.test(R)) {
          Live.set(R);
          Cur += RegWidth[R];
        }
      MaxLive = std::max(MaxLive, Cur);
    }
  }
  // ptxas keeps a few registers for addresses and special values beyond the
  // virtual registers live at once (see docs/PTX.md); never above 255.
  S.EstimatedRegs = std::min(255u, std::max(MaxLive + RegisterReserve, 8u));
}

AffVal FunctionAnalysis::affOf(const Operand &O) const {
  if (O.Kind == Operand::Imm)
    return AffVal::constant(O.Value);
  if (O.Kind != Operand::Reg)
    return AffVal::top();
  int Id = regId(O.Name);
  if (Id >= 0)
    return Affs[Id];
  for (unsigned D = 0; D < 3; ++D) {
    char C = "xyz"[D];
    StringRef N = O.Name;
    if (N.consume_front("%") && N.size() >= 3 && N.back() == C) {
      N = N.drop_back();
      if (N == "tid.")
        return AffVal::var(GVTid + D);
      if (N == "ctaid.")
        return AffVal::var(GVCtaid + D);
      if (N == "ntid.")
        return AffVal::var(GVNtid + D);
    }
  }
  return AffVal::top();
}

AffVal FunctionAnalysis::affEval(const Instr &I) const {
  StringRef Base = I.Mods[0];
  for (size_t K = 1; K < I.Mods.size(); ++K)
    if (isFloatType(I.Mods[K]) || I.Mods[K] == "pred")
      return AffVal::top();
  auto Op = [&](size_t K) {
    return K < I.Ops.size() ? affOf(I.Ops[K]) : AffVal::top();
  };
  if (Base == "ld" && I.hasMod("param")) {
    if (auto V = paramValue(I))
      return AffVal::constant(*V);
    return AffVal::top();
  }
  if ((Base == "mov" || Base == "cvt") && I.Ops.size() == 2)
    return Op(1);
  if ((Base == "add" || Base == "sub") && I.Ops.size() == 3 && !I.hasMod("cc"))
    return affCombine(Op(1), Op(2), 1, Base == "sub" ? -1 : 1);
  if ((Base == "mul" || Base == "mad") && !I.hasMod("hi") && !I.hasMod("cc")) {
    AffVal P = affMul(Op(1), Op(2));
    return Base == "mul" ? P : affCombine(P, Op(3), 1, 1);
  }
  if (Base == "shl" && I.Ops.size() == 3) {
    AffVal B = Op(2);
    if (B.isConst() && B.K >= 0 && B.K < 32)
      return affMul(Op(1), AffVal::constant(int64_t(1) << B.K));
    return B.State == AffVal::Bottom ? AffVal() : AffVal::top();
  }
  if (Base == "neg" && I.Ops.size() == 2)
    return affCombine(Op(1), AffVal::constant(0), -1, 0);
  return AffVal::top();
}

void FunctionAnalysis::analyseAffine() {
  Affs.assign(RegWidth.size(), AffVal());
  // Induction registers of (up to four) counted loops are variables: a
  // register defined once before the loop (its start) and once in it as
  // `add R, R, c` is Start + c * k, k = 0 .. trip - 1 (nvcc keeps several
  // such registers per loop after strength reduction).
  std::map<unsigned, IVInfo> &IVs = IVRegs;
  IVs.clear();
  IterTrip = {1, 1, 1, 1};
  unsigned Slot = 0;
  for (unsigned LI = 0; LI < Loops.size(); ++LI) {
    const Loop &L = Loops[LI];
    if (Slot == IterTrip.size() || L.IVReg < 0 || !L.Rec.Exact || L.Trip < 1)
      continue;
    bool Any = false;
    for (unsigned R = 0; R < RegWidth.size(); ++R) {
      if (DefSites[R].size() != 2 || IVs.count(R))
        continue;
      int In = -1, Out = -1;
      for (unsigned K : DefSites[R])
        (L.Body.test(InstrBlock[K]) ? In : Out) = K;
      if (In < 0 || Out < 0)
        continue;
      const Instr &D = *Instrs[In];
      if ((D.Mods[0] != "add" && D.Mods[0] != "sub") || D.Ops.size() != 3 ||
          D.Ops[1].Kind != Operand::Reg || regId(D.Ops[1].Name) != int(R) ||
          D.Ops[2].Kind != Operand::Imm)
        continue;
      int64_t Step = D.Mods[0] == "sub" ? -D.Ops[2].Value : D.Ops[2].Value;
      IVs[R] = {Slot, Step, unsigned(Out), LI};
      Any = true;
    }
    if (Any)
      IterTrip[Slot++] = L.Trip;
  }
  for (unsigned Pass = 0; Pass < 16; ++Pass) {
    bool Changed = false;
    auto Set = [&](unsigned R, const AffVal &V) {
      AffVal &Cur = Affs[R];
      AffVal NV = Cur.State == AffVal::Bottom ? V
                  : Cur == V                  ? Cur
                                              : AffVal::top();
      if (!(NV == Cur)) {
        Cur = NV;
        Changed = true;
      }
    };
    for (auto &[R, IV] : IVs) {
      AffVal Start = affEval(*Instrs[IV.StartDef]);
      if (Start.State == AffVal::Bottom)
        continue;
      AffVal Iter = AffVal::var(GVIter + IV.Slot);
      Set(R, affCombine(Start, Iter, 1, IV.Step));
    }
    for (const Instr *IP : Instrs) {
      SmallVector<unsigned, 4> D;
      defsOf(*IP, D);
      if (D.empty())
        continue;
      AffVal V = D.size() == 1 ? affEval(*IP) : AffVal::top();
      if (V.State == AffVal::Bottom)
        continue;
      for (unsigned R : D)
        if (!IVs.count(R))
          Set(R, V);
    }
    if (!Changed)
      break;
  }
}

/// Parallelism within a thread, per basic block from its dependence graph:
/// ILP = instructions / longest dependence chain; MLP = global loads /
/// most global loads on one chain. Both averaged over blocks by their
/// loop-weighted instruction (load) counts; capped where the hardware stops
/// gaining (docs/MODEL.md, "Latency").
void FunctionAnalysis::analyseParallelism() {
  double InstrW = 0, ChainW = 0, LoadW = 0, LoadChainW = 0;
  std::vector<unsigned> Depth(RegWidth.size(), 0), LDepth(RegWidth.size(), 0);
  std::vector<unsigned> Stamp(RegWidth.size(), ~0u);
  for (unsigned BI = 0; BI < Blocks.size(); ++BI) {
    const Block &B = Blocks[BI];
    if (!B.Reachable || B.End == B.Begin || B.Weight <= 0)
      continue;
    unsigned MaxD = 0, MaxL = 0, N = 0, Loads = 0;
    for (unsigned K = B.Begin; K < B.End; ++K) {
      const Instr &I = *Instrs[K];
      SmallVector<unsigned, 4> Us, Ds;
      usesOf(I, Us);
      defsOf(I, Ds);
      unsigned D = 0, L = 0;
      for (unsigned R : Us)
        if (Stamp[R] == BI) {
          D = std::max(D, Depth[R]);
          L = std::max(L, LDepth[R]);
        }
      StringRef Base = I.Mods[0];
      bool GLoad = (Base == "ld" || Base == "ldu") &&
                   (I.hasMod("global") || I.Mods.size() == 2 ||
                    !(I.hasMod("shared") || I.hasMod("local") ||
                      I.hasMod("param") || I.hasMod("const")));
      ++D;
      if (GLoad) {
        ++L;
        ++Loads;
      }
      ++N;
      MaxD = std::max(MaxD, D);
      MaxL = std::max(MaxL, L);
      for (unsigned R : Ds) {
        Depth[R] = D;
        LDepth[R] = L;
        Stamp[R] = BI;
      }
    }
    InstrW += B.Weight * N;
    ChainW += B.Weight * std::max(1u, MaxD);
    if (Loads) {
      LoadW += B.Weight * Loads;
      LoadChainW += B.Weight * std::max(1u, MaxL);
    }
  }
  constexpr double MaxILP = 4, MaxMLP = 8;
  if (ChainW > 0)
    S.ILP = std::clamp(InstrW / ChainW, 1.0, MaxILP);
  if (LoadChainW > 0)
    S.MLP = std::clamp(LoadW / LoadChainW, 1.0, MaxMLP);
}

/// The bounds checks that make predicate \p Reg equal \p Want: a `setp` on
/// two affine forms, or a conjunction of them through and/or/not.pred.
/// False when the condition is not such a conjunction.
bool FunctionAnalysis::predicateGuards(StringRef Reg, bool Want,
                                       SmallVectorImpl<AffineGuard> &Out,
                                       unsigned Depth) const {
  int Pred = regId(Reg);
  if (Pred < 0 || DefSites[Pred].size() != 1 || Depth > 4)
    return false;
  const Instr &D = *Instrs[DefSites[Pred][0]];
  StringRef Base = D.Mods[0];
  auto Sub = [&](const Operand &O, bool W) {
    return O.Kind == Operand::Reg &&
           predicateGuards(O.Name, O.Neg ? !W : W, Out, Depth + 1);
  };
  if (Base == "not" && D.Ops.size() == 2)
    return Sub(D.Ops[1], !Want);
  if ((Base == "and" || Base == "or") && D.hasMod("pred") && D.Ops.size() == 3) {
    // Only conjunctions: and(a, b) wanted true, or(a, b) wanted false.
    if ((Base == "and") != Want)
      return false;
    return Sub(D.Ops[1], Want) && Sub(D.Ops[2], Want);
  }
  if (Base != "setp" || D.Mods.size() != 3 || D.Ops.size() != 3 ||
      !D.Ops[0].Regs.empty() || isFloatType(D.Mods[2]))
    return false;
  // An operand defined earlier in the setp's own block has that value there,
  // whatever other definitions the register has (nvcc reuses registers).
  const unsigned At = DefSites[Pred][0];
  auto Local = [&](const Operand &O) {
    int R = O.Kind == Operand::Reg ? regId(O.Name) : -1;
    auto IV = R >= 0 ? IVRegs.find(R) : IVRegs.end();
    bool InIVLoop = IV != IVRegs.end() &&
                    Loops[IV->second.Loop].Body.test(InstrBlock[At]);
    if (R < 0 || DefSites[R].size() <= 1 || InIVLoop)
      return affOf(O); // One definition, or an induction variable.
    int Def = reachingDef(R, At);
    AffVal V = Def >= 0 ? affEval(*Instrs[Def]) : AffVal::top();
    if (!V.known())
      if (auto C = constAt(R, At))
        return AffVal::constant(*C);
    return V;
  };
  AffVal E = affCombine(Local(D.Ops[1]), Local(D.Ops[2]), 1, -1);
  if (!E.known())
    return false;
  // A test on blockDim alone is the same for every thread (an unrolled
  // loop's remainder test): loop control, not a bounds check.
  if (!E.isConst() &&
      std::all_of(E.C.begin(), E.C.begin() + GVNtid,
                  [](int64_t X) { return X == 0; }) &&
      std::all_of(E.C.begin() + GVIter, E.C.end(),
                  [](int64_t X) { return X == 0; }))
    return false;
  StringRef Cmp = D.Mods[1];
  AffineGuard G;
  G.Line = D.Loc.Line;
  if (E.isConst()) {
    // Decided by stated arguments (a remainder loop that n % 4 == 0
    // skips): a guard that always or never holds.
    bool Lt = E.K < 0, Eq = E.K == 0, T;
    if (Cmp == "eq")
      T = Eq;
    else if (Cmp == "ne")
      T = !Eq;
    else if (Cmp == "lt" || Cmp == "lo")
      T = Lt;
    else if (Cmp == "le" || Cmp == "ls")
      T = Lt || Eq;
    else if (Cmp == "gt" || Cmp == "hi")
      T = !Lt && !Eq;
    else if (Cmp == "ge" || Cmp == "hs")
      T = !Lt;
    else
      return false;
    if (Cmp.ends_with("o") || Cmp.ends_with("s") || Cmp == "hi")
      return false; // Unsigned: the sign of E.K says nothing.
    G.Const = (T == Want) ? -1 : 1; // -1 < 0 holds, 1 < 0 does not.
    Out.push_back(G);
    return true;
  }
  if (Cmp == "lt" || Cmp == "lo" || Cmp == "le" || Cmp == "ls") {
    G.Strict = Cmp == "lt" || Cmp == "lo";
  } else if (Cmp == "gt" || Cmp == "hi" || Cmp == "ge" || Cmp == "hs") {
    E = affCombine(E, AffVal::constant(0), -1, 0);
    G.Strict = Cmp == "gt" || Cmp == "hi";
  } else {
    return false;
  }
  G.Coef = E.C;
  G.Const = E.K;
  G.IterTrip = IterTrip;
  if (!Want) {
    // The negation of (F < 0) is (-F <= 0), and the other way round.
    for (int64_t &X : G.Coef)
      X = -X;
    G.Const = -G.Const;
    G.Strict = !G.Strict;
  }
  Out.push_back(G);
  return true;
}

/// The one definition of \p R that reaches instruction \p At (-1 when
/// none or several may): the last one before it in its block, else the one
/// in the nearest dominating block when no other definition can reach.
int FunctionAnalysis::reachingDef(unsigned R, unsigned At) const {
  const unsigned UseBlock = InstrBlock[At];
  auto DefinesOnly = [&](unsigned K) {
    SmallVector<unsigned, 2> Ds;
    defsOf(*Instrs[K], Ds);
    return Ds.size() == 1 && Ds[0] == R;
  };
  for (unsigned K = At; K-- > Blocks[UseBlock].Begin;)
    if (std::find(DefSites[R].begin(), DefSites[R].end(), K) !=
        DefSites[R].end())
      return DefinesOnly(K) ? int(K) : -1;
  int Chosen = -1;
  for (unsigned K : DefSites[R]) {
    unsigned B = InstrBlock[K];
    if (B == UseBlock || !dominates(B, UseBlock))
      continue;
    if (Chosen < 0 || dominates(InstrBlock[Chosen], B))
      Chosen = K;
  }
  if (Chosen < 0)
    return -1;
  for (unsigned K : DefSites[R])
    if (int(K) != Chosen &&
        (InstrBlock[K] == InstrBlock[Chosen] ? K > unsigned(Chosen)
                                             : reaches(InstrBlock[K], UseBlock)))
      return -1;
  return DefinesOnly(Chosen) ? Chosen : -1;
}

/// The integer constant register \p R holds at instruction \p At, following
/// the definitions that reach it (flow-sensitive, unlike Vals).
std::optional<int64_t> FunctionAnalysis::constAt(unsigned R, unsigned At,
                                                 unsigned Depth) const {
  if (Vals[R].HasConst)
    return Vals[R].Const;
  if (Depth > 8)
    return std::nullopt;
  int Def = reachingDef(R, At);
  if (Def < 0)
    return std::nullopt;
  const Instr &D = *Instrs[Def];
  for (size_t K = 1; K < D.Mods.size(); ++K)
    if (isFloatType(D.Mods[K]))
      return std::nullopt;
  if (D.Mods[0] == "ld" && D.hasMod("param"))
    return paramValue(D);
  auto Op = [&](size_t K) -> std::optional<int64_t> {
    if (K >= D.Ops.size())
      return std::nullopt;
    const Operand &O = D.Ops[K];
    if (O.Kind == Operand::Imm)
      return O.Value;
    int Id = O.Kind == Operand::Reg ? regId(O.Name) : -1;
    return Id >= 0 ? constAt(Id, Def, Depth + 1) : std::nullopt;
  };
  StringRef B = D.Mods[0];
  auto X = Op(1);
  if (!X)
    return std::nullopt;
  if ((B == "mov" || B == "cvt") && D.Ops.size() == 2)
    return X;
  if (B == "neg")
    return -*X;
  if (B == "not")
    return ~*X;
  auto Y = Op(2);
  if (!Y)
    return std::nullopt;
  if (B == "add")
    return *X + *Y;
  if (B == "sub")
    return *X - *Y;
  if (B == "mul" && !D.hasMod("hi"))
    return *X * *Y;
  if (B == "and")
    return *X & *Y;
  if (B == "or")
    return *X | *Y;
  if (B == "xor")
    return *X ^ *Y;
  if (B == "shl" && *Y >= 0 && *Y < 63)
    return *X << *Y;
  if (B == "shr" && *Y >= 0 && *Y < 63)
    return *X >> *Y;
  return std::nullopt;
}

/// Bounds checks: a conditional branch on `setp` comparing two affine forms
/// of the thread/block indices guards every block its one-predecessor
/// successor dominates. The share of loop-weighted instructions behind each
/// set of guards goes to the profile; the model evaluates, per launch, the
/// share of threads that pass (docs/MODEL.md, "Bounds checks").
void FunctionAnalysis::analyseGuards() {
  if (!F.IsEntry || Blocks.empty())
    return;
  analyseAffine();
  constexpr unsigned MaxGuards = 32, MaxPerBlock = 8;
  std::vector<SmallVector<unsigned, 2>> Own(Blocks.size());
  for (unsigned BI = 0; BI < Blocks.size(); ++BI) {
    const Block &B = Blocks[BI];
    if (!B.Reachable || B.End == B.Begin || B.Succs.size() != 2 ||
        S.Guards.size() >= MaxGuards)
      continue;
    const Instr &Br = *Instrs[B.End - 1];
    if (Br.Mods[0] != "bra" || Br.Guard.empty() || Br.Ops.empty() ||
        Br.Ops[0].Kind != Operand::Sym)
      continue;
    auto Taken = LabelBlock.find(Br.Ops[0].Name);
    if (Taken == LabelBlock.end() || Taken->second == BI + 1)
      continue;
    // The taken side runs where the predicate (negated by '!') holds.
    for (auto [Succ, Want] :
         {std::pair<unsigned, bool>(Taken->second, !Br.GuardNeg),
          {BI + 1, Br.GuardNeg}}) {
      // The edge BI -> Succ dominates what Succ dominates when Succ's other
      // predecessors are its own back edges (a loop right behind the check).
      if (Succ >= Blocks.size() ||
          std::any_of(Blocks[Succ].Preds.begin(), Blocks[Succ].Preds.end(),
                      [&](unsigned P) {
                        return P == BI ? Blocks[BI].Succs[0] ==
                                             Blocks[BI].Succs[1]
                                       : !dominates(Succ, P);
                      }))
        continue;
      // A loop's exit test is not a bounds check (what follows the loop
      // runs once, not per iteration).
      if (std::any_of(B.Loops.begin(), B.Loops.end(), [&](unsigned LI) {
            return !Loops[LI].Body.test(Succ);
          }))
        continue;
      SmallVector<AffineGuard, 2> Gs;
      if (!predicateGuards(Br.Guard, Want, Gs, 0))
        continue;
      for (AffineGuard &G : Gs) {
        if (S.Guards.size() >= MaxGuards)
          break;
        Own[Succ].push_back(S.Guards.size());
        S.Guards.push_back(G);
      }
    }
  }
  if (S.Guards.empty())
    return;
  // Guard sets down the dominator tree (RPO visits a block after its idom).
  std::vector<SmallVector<unsigned, 4>> Set(Blocks.size());
  std::map<SmallVector<unsigned, 4>, double> Shares;
  double Total = 0;
  for (unsigned BI : RPO) {
    if (BI != 0 && IDom[BI] >= 0)
      Set[BI] = Set[IDom[BI]];
    for (unsigned G : Own[BI])
      if (Set[BI].size() < MaxPerBlock)
        Set[BI].push_back(G);
    double W = Blocks[BI].Weight * (Blocks[BI].End - Blocks[BI].Begin);
    Total += W;
    if (!Set[BI].empty())
      Shares[Set[BI]] += W;
  }
  if (Total <= 0)
    return;
  for (auto &[Gs, W] : Shares) {
    GuardedWork GW;
    GW.Guards.assign(Gs.begin(), Gs.end());
    GW.Share = W / Total;
    S.Guarded.push_back(std::move(GW));
  }
}

std::optional<double> FunctionAnalysis::countedTrip(Loop &L) {
  // Exiting blocks. With several exits (a bounds check turned into an early
  // exit: `for (t = 0; t < T; ++t) if (x + t*s >= n) break;`), each exit
  // whose block runs on every iteration (it dominates every latch) bounds
  // the trip count; the smallest counted bound is used, and is an upper
  // bound when another exit is uncounted.
  SmallVector<unsigned, 4> Exiting, Latches;
  for (unsigned BI : L.Body.set_bits()) {
    const Block &B = Blocks[BI];
    bool Exits = false;
    for (unsigned Sx : B.Succs) {
      if (!L.Body.test(Sx))
        Exits = true;
      if (Sx == L.Header)
        Latches.push_back(BI);
    }
    if (!Exits)
      continue;
    if (B.End == B.Begin)
      return std::nullopt;
    Exiting.push_back(BI);
  }
  if (Exiting.size() == 1)
    return countedTripThrough(L, Exiting.front());
  std::optional<double> Best;
  Loop Chosen = L;
  std::string FirstDesc;
  for (unsigned EB : Exiting) {
    if (!llvm::all_of(Latches, [&](unsigned LB) { return dominates(EB, LB); }))
      continue;
    Loop Try = L;
    std::optional<double> T = countedTripThrough(Try, EB);
    if (FirstDesc.empty())
      FirstDesc = Try.ExitDesc;
    if (T && (!Best || *T < *Best)) {
      Best = T;
      Chosen = std::move(Try);
    }
  }
  if (!Best) {
    L.ExitDesc = FirstDesc;
    return std::nullopt;
  }
  L.ExitDesc = Chosen.ExitDesc;
  L.ConstBound = Chosen.ConstBound;
  L.IVReg = Chosen.IVReg;
  L.MultiExit = true;
  return Best;
}

std::optional<double> FunctionAnalysis::countedTripThrough(Loop &L,
                                                           unsigned ExitBlock) {
  const Instr *Exit = Instrs[Blocks[ExitBlock].End - 1];
  if (!Exit || Exit->Mods[0] != "bra" || Exit->Guard.empty() ||
      Exit->Ops.empty())
    return std::nullopt;
  // Continue while (guard == ContinueWhen).
  if (Blocks[ExitBlock].Succs.size() != 2 || Exit->Ops[0].Kind != Operand::Sym)
    return std::nullopt;
  auto Taken = LabelBlock.find(Exit->Ops[0].Name);
  if (Taken == LabelBlock.end() || Taken->second == ExitBlock + 1)
    return std::nullopt; // the branch goes where it would fall anyway
  bool TakenInLoop = L.Body.test(Taken->second);
  bool ContinueWhen = TakenInLoop != Exit->GuardNeg;
  const Block &EB = Blocks[ExitBlock];
  // The setp defining the guard, in the exiting block.
  int Pred = regId(Exit->Guard);
  if (Pred < 0)
    return std::nullopt;
  int SetpIdx = -1;
  for (unsigned K = EB.End - 1; K-- > EB.Begin;) {
    SmallVector<unsigned, 2> D;
    defsOf(*Instrs[K], D);
    if (std::find(D.begin(), D.end(), (unsigned)Pred) != D.end()) {
      SetpIdx = K;
      break;
    }
  }
  if (SetpIdx < 0)
    return std::nullopt;
  const Instr &Setp = *Instrs[SetpIdx];
  {
    std::string D = Setp.Opcode.str();
    for (size_t K = 1; K < Setp.Ops.size(); ++K)
      D += (K == 1 ? " " : ", ") + (Setp.Ops[K].Kind == Operand::Imm
                                        ? std::to_string(Setp.Ops[K].Value)
                                        : Setp.Ops[K].Name.str());
    L.ExitDesc = D;
  }
  if (Setp.Mods[0] != "setp" || Setp.Mods.size() < 3 || Setp.Ops.size() != 3 ||
      !Setp.Ops[0].Regs.empty())
    return std::nullopt;
  StringRef Cmp = Setp.Mods[1], Ty = Setp.Mods.back();
  if (isFloatType(Ty))
    return std::nullopt;
  auto InLoop = [&](unsigned K) { return L.Body.test(InstrBlock[K]); };
  // Which operand is the induction variable (through mov/cvt copies)?
  // The compared value may be the IV plus a loop-invariant constant (nvcc
  // compares IV + (n % 4 - n) with 0 after unrolling): that constant moves
  // the bound.
  int64_t Offset = 0;
  std::function<std::optional<int64_t>(const Operand &)> ConstOutsideRef;
  auto TraceIV = [&](const Operand &O, int &IV, int &IncIdx) -> bool {
    if (O.Kind != Operand::Reg)
      return false;
    int R = regId(O.Name);
    Offset = 0;
    for (unsigned Hop = 0; R >= 0 && Hop < 4; ++Hop) {
      SmallVector<unsigned, 2> InLoopDefs;
      for (unsigned K : DefSites[R])
        if (InLoop(K))
          InLoopDefs.push_back(K);
      if (InLoopDefs.size() != 1)
        return false;
      const Instr &D = *Instrs[InLoopDefs[0]];
      StringRef B = D.Mods[0];
      if ((B == "mov" || B == "cvt") && D.Ops.size() == 2 &&
          D.Ops[1].Kind == Operand::Reg) {
        R = regId(D.Ops[1].Name);
        continue;
      }
      if ((B == "add" || B == "sub") && D.Ops.size() == 3) {
        bool Self1 = D.Ops[1].Kind == Operand::Reg && regId(D.Ops[1].Name) == R;
        bool Self2 = D.Ops[2].Kind == Operand::Reg && regId(D.Ops[2].Name) == R;
        if (Self1 || (Self2 && B == "add")) {
          IV = R;
          IncIdx = InLoopDefs[0];
          return true;
        }
        // R = Other + C (or Other - C) with C constant outside the loop.
        for (unsigned K = 1; K <= 2; ++K) {
          const Operand &Other = D.Ops[K], &C = D.Ops[3 - K];
          if (Other.Kind != Operand::Reg || (B == "sub" && K == 2))
            continue;
          if (auto V = ConstOutsideRef(C)) {
            Offset += B == "sub" ? -*V : *V;
            R = regId(Other.Name);
            break;
          }
        }
        if (R >= 0 && Offset != 0)
          continue;
      }
      return false;
    }
    return false;
  };
  auto ConstOutside = [&](const Operand &O) -> std::optional<int64_t> {
    if (O.Kind == Operand::Imm)
      return O.Value;
    if (O.Kind != Operand::Reg)
      return std::nullopt;
    int R = regId(O.Name);
    if (R < 0)
      return std::nullopt;
    for (unsigned K : DefSites[R])
      if (InLoop(K))
        return std::nullopt;
    if (Vals[R].HasConst)
      return Vals[R].Const;
    // Defined again elsewhere (a remainder loop's counter): the value that
    // reaches the loop.
    return constAt(R, Blocks[L.Header].Begin);
  };
  ConstOutsideRef = ConstOutside;
  int IV = -1, IncIdx = -1, IVSide = -1;
  if (TraceIV(Setp.Ops[1], IV, IncIdx))
    IVSide = 1;
  else if (TraceIV(Setp.Ops[2], IV, IncIdx))
    IVSide = 2;
  if (IVSide < 0)
    return std::nullopt;
  auto Bound = ConstOutside(Setp.Ops[IVSide == 1 ? 2 : 1]);
  if (Bound)
    *Bound -= Offset; // IV + Offset cmp B  <=>  IV cmp B - Offset.
  L.ConstBound = Bound;
  // Step.
  const Instr &Inc = *Instrs[IncIdx];
  const Operand &StepOp =
      Inc.Ops[1].Kind == Operand::Reg && regId(Inc.Ops[1].Name) == IV
          ? Inc.Ops[2]
          : Inc.Ops[1];
  auto Step = ConstOutside(StepOp);
  if (!Step || *Step == 0)
    return std::nullopt;
  int64_t StepV = Inc.Mods[0] == "sub" ? -*Step : *Step;
  if (!Bound)
    return std::nullopt;
  // Initial value: every definition outside the loop is the same constant.
  std::optional<int64_t> Init;
  for (unsigned K : DefSites[IV]) {
    if (InLoop(K))
      continue;
    const Instr &D = *Instrs[K];
    // The start value: a constant however it is computed (a stated
    // argument rounded down to the unroll factor, say).
    AbsVal Start = eval(D);
    std::optional<int64_t> V;
    if (Start.HasConst)
      V = Start.Const;
    else if ((D.Mods[0] == "mov" || D.Mods[0] == "cvt") && D.Ops.size() == 2)
      V = D.Ops[1].Kind == Operand::Imm ? std::optional<int64_t>(D.Ops[1].Value)
                                        : ConstOutside(D.Ops[1]);
    if (!V || (Init && *Init != *V))
      return std::nullopt;
    Init = V;
  }
  if (!Init)
    return std::nullopt;
  // Post-increment compare: the increment precedes the setp in its block, or
  // lies in an earlier block of a bottom-tested loop.
  bool Post;
  if (InstrBlock[IncIdx] == ExitBlock)
    Post = IncIdx < SetpIdx;
  else
    Post = ExitBlock != L.Header;
  // The header runs once more than the tests that pass, unless the loop is
  // top-tested with its work after the test (then the body runs Passes times).
  bool BottomTested = ExitBlock != L.Header || Post || L.Body.count() == 1;
  // Swap the comparison when the IV is the right operand.
  if (IVSide == 2)
    Cmp = StringSwitch<StringRef>(Cmp)
              .Case("lt", "gt")
              .Case("gt", "lt")
              .Case("le", "ge")
              .Case("ge", "le")
              .Case("lo", "hi")
              .Case("hi", "lo")
              .Case("ls", "hs")
              .Case("hs", "ls")
              .Default(Cmp);
  bool Unsigned = Ty.starts_with("u") || Ty.starts_with("b") || Cmp == "lo" ||
                  Cmp == "ls" || Cmp == "hi" || Cmp == "hs";
  unsigned Bits = typeBits(Ty);
  auto Norm = [&](int64_t V) -> int64_t {
    if (Bits == 32)
      return Unsigned ? (int64_t)(uint32_t)V : (int64_t)(int32_t)V;
    return V;
  };
  auto Test = [&](int64_t V) -> std::optional<bool> {
    int64_t A = Norm(V), B = Norm(*Bound);
    bool LtU = Bits == 64 && Unsigned ? (uint64_t)A < (uint64_t)B : A < B;
    bool EqV = A == B;
    if (Cmp == "eq")
      return EqV;
    if (Cmp == "ne")
      return !EqV;
    if (Cmp == "lt" || Cmp == "lo")
      return LtU;
    if (Cmp == "le" || Cmp == "ls")
      return LtU || EqV;
    if (Cmp == "gt" || Cmp == "hi")
      return !LtU && !EqV;
    if (Cmp == "ge" || Cmp == "hs")
      return !LtU;
    return std::nullopt;
  };
  const int64_t Cap = 1 << 20;
  int64_t Passes = 0;
  for (int64_t K = 1;; ++K) {
    int64_t V = *Init + (K - 1 + (Post ? 1 : 0)) * StepV;
    auto T = Test(V);
    if (!T)
      return std::nullopt;
    if (*T != ContinueWhen)
      break;
    if (++Passes > Cap)
      return std::nullopt;
  }
  double Trip = BottomTested ? Passes + 1 : Passes;
  L.IVReg = IV;
  return std::max(Trip, 0.0);
}

void FunctionAnalysis::classify(const Instr &I, double W, unsigned BlockIdx) {
  auto Add = [&](OpClass C, double N = 1) {
    S.Ops[static_cast<unsigned>(C)] += N * W;
  };
  StringRef Base = I.Mods[0];
  // Type modifiers in order.
  SmallVector<StringRef, 4> Types;
  unsigned Vec = 1;
  for (size_t K = 1; K < I.Mods.size(); ++K) {
    StringRef M = I.Mods[K];
    if (typeBits(M) && M != "pred")
      Types.push_back(M);
    else if (M.size() >= 2 && M[0] == 'v' && isDigit(M[1]))
      M.drop_front().getAsInteger(10, Vec);
  }
  StringRef Ty = Types.empty() ? StringRef() : Types.back();
  auto Space = [&]() -> StringRef {
    for (StringRef M : {"global", "shared", "local", "const", "param"})
      if (I.hasMod(M))
        return M;
    return StringRef();
  };
  unsigned Line = I.Loc.Line;
  auto AddAccess = [&](AddrSpace Sp, bool Store, bool Atomic, unsigned Bytes,
                       const Operand *AddrOp) {
    MemAccess A;
    A.Space = Sp;
    A.IsStore = Store;
    A.IsAtomic = Atomic;
    A.ReadOnly = I.hasMod("nc") || Base == "ldu";
    A.Bytes = Bytes;
    A.Count = W;
    A.Line = Line;
    if (AddrOp && AddrOp->Kind == Operand::Addr) {
      if (!AddrOp->BaseIsReg) {
        A.Pattern = AccessPattern::Uniform;
        A.LoopInvariant = !Blocks[BlockIdx].Loops.empty();
        if (!AddrOp->Name.empty())
          S.Symbols.insert(AddrOp->Name);
      } else if (int R = regId(AddrOp->Name); R >= 0) {
        const unsigned T = Taints[R];
        A.BlockDims = ((T & TCtaIdX) ? 1u : 0u) | ((T & TCtaIdY) ? 2u : 0u) |
                      ((T & TCtaIdZ) ? 4u : 0u) |
                      ((T & TMem) ? AddrDependsOnData : 0u);
        A.ThreadDims = ((T & (TTidX | TLane)) ? 1u : 0u) |
                       ((T & TTidY) ? 2u : 0u) | ((T & TTidZ) ? 4u : 0u);
        A.ThreadDimsKnown = true;
        A.BaseId = unsigned(R) + 1;
        A.Offset = AddrOp->Value;
        const AbsVal &V = Vals[R];
        if (V.known()) {
          if (V.Coef == 0) {
            A.Pattern = AccessPattern::Uniform;
          } else {
            A.StrideBytes = V.Coef;
            A.Pattern = std::llabs(V.Coef) == (int64_t)Bytes
                            ? AccessPattern::Coalesced
                            : AccessPattern::Strided;
          }
        }
        if (!Blocks[BlockIdx].Loops.empty()) {
          unsigned Inner = Blocks[BlockIdx].Loops.back();
          bool Inv = true;
          for (unsigned K : DefSites[R])
            if (Loops[Inner].Body.test(InstrBlock[K]))
              Inv = false;
          A.LoopInvariant = Inv;
        }
      }
    }
    if (Sp == AddrSpace::Shared)
      A.BankConflictWays = bankConflictWays(A.Bytes, A.StrideBytes, A.Pattern);
    S.Accesses.push_back(A);
  };
  const Operand *AddrOp = nullptr;
  for (const Operand &O : I.Ops)
    if (O.Kind == Operand::Addr) {
      AddrOp = &O;
      break;
    }
  for (const Operand &O : I.Ops)
    if (O.Kind == Operand::Sym || (O.Kind == Operand::Addr && !O.BaseIsReg))
      if (!O.Name.empty())
        S.Symbols.insert(O.Name);

  unsigned Lanes = (Ty == "f16x2" || Ty == "bf16x2") ? 2 : 1;
  auto Arith = [&](double Flops) {
    if (Ty == "f32") {
      Add(OpClass::FP32);
      S.Flops32 += Flops * W;
    } else if (Ty == "f64") {
      Add(OpClass::FP64);
      S.Flops64 += Flops * W;
    } else if (Ty == "f16" || Ty == "bf16" || Ty == "f16x2" || Ty == "bf16x2") {
      Add(OpClass::FP16, Lanes);
      S.Flops16 += Flops * Lanes * W;
    } else if (Base == "mul" || Base == "mad" || Base == "mul24" ||
               Base == "mad24" || Base == "sad") {
      Add(OpClass::IntMul);
    } else {
      Add(OpClass::Int);
    }
  };
  auto MemBytes = [&]() {
    uint64_t Bits = Ty.empty() ? 32 : typeBits(Ty);
    return static_cast<unsigned>(
        std::clamp<uint64_t>(Bits * Vec / 8, 1, 1u << 20));
  };
  auto SpaceOf = [&](StringRef Sp) {
    return StringSwitch<AddrSpace>(Sp)
        .Case("global", AddrSpace::Global)
        .Case("shared", AddrSpace::Shared)
        .Case("local", AddrSpace::Local)
        .Case("const", AddrSpace::Const)
        .Case("param", AddrSpace::Param)
        .Default(AddrSpace::Generic);
  };

  if (Base == "add" || Base == "sub" || Base == "mul") {
    Arith(1);
  } else if (Base == "fma" || Base == "mad") {
    Arith(2);
  } else if (Base == "min" || Base == "max" || Base == "neg" || Base == "abs" ||
             Base == "copysign" || Base == "testp" || Base == "setp" ||
             Base == "set" || Base == "mul24" || Base == "mad24" ||
             Base == "sad") {
    Arith(0);
  } else if (Base == "div" || Base == "rem") {
    bool Approx = I.hasMod("approx") || I.hasMod("full");
    if (Ty == "f32") {
      Add(OpClass::SFU);
      Add(OpClass::FP32, Approx ? 1 : 7);
      S.Flops32 += W;
    } else if (Ty == "f64") {
      Add(OpClass::SFU);
      Add(OpClass::FP64, 8);
      S.Flops64 += W;
    } else if (typeBits(Ty) == 64) {
      Add(OpClass::IntMul, 20);
      Add(OpClass::Int, 50);
    } else {
      Add(OpClass::SFU);
      Add(OpClass::Conv, 2);
      Add(OpClass::IntMul, 4);
      Add(OpClass::Int, 8);
    }
  } else if (Base == "rcp" || Base == "sqrt" || Base == "rsqrt") {
    bool Approx = I.hasMod("approx");
    Add(OpClass::SFU, Lanes);
    if (Ty == "f64" && !Approx)
      Add(OpClass::FP64, Base == "sqrt" ? 10 : Base == "rcp" ? 8 : 4);
    else if (Ty == "f32" && !Approx)
      Add(OpClass::FP32, Base == "sqrt" ? 6 : 4);
  } else if (Base == "sin" || Base == "cos" || Base == "lg2" || Base == "ex2" ||
             Base == "tanh") {
    Add(OpClass::SFU, Lanes);
  } else if (Base == "and" || Base == "or" || Base == "xor" || Base == "not" ||
             Base == "cnot" || Base == "shl" || Base == "shr" ||
             Base == "lop3" || Base == "bfe" || Base == "bfi" ||
             Base == "bfind" || Base == "brev" || Base == "clz" ||
             Base == "popc" || Base == "prmt" || Base == "shf" ||
             Base == "bmsk" || Base == "szext" || Base == "fns" ||
             Base == "selp" || Base == "slct" || Base == "cvta" ||
             Base == "isspacep" || Base == "vadd" || Base == "vsub" ||
             Base == "vabsdiff" || Base == "vmin" || Base == "vmax" ||
             Base == "vshl" || Base == "vshr" || Base == "vset" ||
             Base == "vadd2" || Base == "vsub2" || Base == "vavrg2" ||
             Base == "vabsdiff2" || Base == "vmin2" || Base == "vmax2" ||
             Base == "vset2" || Base == "vadd4" || Base == "vsub4" ||
             Base == "vavrg4" || Base == "vabsdiff4" || Base == "vmin4" ||
             Base == "vmax4" || Base == "vset4" || Base == "istypeof") {
    Add(OpClass::Int);
  } else if (Base == "vmad" || Base == "dp4a" || Base == "dp2a") {
    Add(OpClass::IntMul);
  } else if (Base == "mov") {
    // Register copies vanish in ptxas; reading a special register (S2R) or a
    // symbol address does not.
    if (I.Ops.size() >= 2 && I.Ops[1].Kind == Operand::Reg &&
        regId(I.Ops[1].Name) < 0 && I.Ops[1].Name.starts_with("%"))
      Add(OpClass::Int);
  } else if (Base == "cvt") {
    bool AnyFloat = false;
    for (StringRef T : Types)
      AnyFloat |= isFloatType(T);
    if (AnyFloat)
      Add(OpClass::Conv, Types.size() && (Types[0].ends_with("x2")) ? 2 : 1);
    else
      Add(OpClass::Int);
  } else if (Base == "shfl" || Base == "vote" || Base == "match" ||
             Base == "redux" || Base == "activemask" || Base == "movmatrix" ||
             Base == "elect") {
    Add(OpClass::Shuffle);
  } else if (Base == "bar" || Base == "barrier") {
    Add(OpClass::Barrier);
    if (!I.hasMod("warp")) {
      unsigned Ids = 16; // a barrier id in a register: any of them
      if (I.Ops.empty())
        Ids = 1;
      else if (I.Ops[0].Kind == Operand::Imm && I.Ops[0].Value >= 0 &&
               I.Ops[0].Value < 16)
        Ids = I.Ops[0].Value + 1;
      S.BarrierIds = std::max(S.BarrierIds, Ids);
    }
  } else if (Base == "membar" || Base == "fence") {
    Add(OpClass::Barrier);
  } else if (Base == "atom" || Base == "red") {
    bool Shared = Space() == "shared";
    Add(Shared ? OpClass::AtomicShared : OpClass::AtomicGlobal);
    AddAccess(Shared                ? AddrSpace::Shared
              : Space() == "global" ? AddrSpace::Global
                                    : AddrSpace::Generic,
              Base == "red", true, MemBytes(), AddrOp);
  } else if (Base == "ld" || Base == "ldu" || Base == "st") {
    bool Store = Base == "st";
    StringRef Sp = Space();
    AddrSpace AS = SpaceOf(Sp);
    switch (AS) {
    case AddrSpace::Global:
      Add(Store ? OpClass::StoreGlobal : OpClass::LoadGlobal);
      break;
    case AddrSpace::Shared:
      Add(Store ? OpClass::StoreShared : OpClass::LoadShared);
      break;
    case AddrSpace::Local:
      Add(Store ? OpClass::StoreLocal : OpClass::LoadLocal);
      break;
    case AddrSpace::Const:
      Add(Store ? OpClass::Other : OpClass::LoadConst);
      break;
    case AddrSpace::Param:
      Add(Store ? OpClass::Other : OpClass::LoadParam);
      break;
    case AddrSpace::Generic:
      Add(Store ? OpClass::StoreGeneric : OpClass::LoadGeneric);
      break;
    }
    if (AS != AddrSpace::Param)
      AddAccess(AS, Store, false, MemBytes(), AddrOp);
  } else if (Base == "ldmatrix" || Base == "stmatrix") {
    bool Store = Base == "stmatrix";
    Add(Store ? OpClass::StoreShared : OpClass::LoadShared);
    unsigned Num = I.hasMod("x4") ? 4 : I.hasMod("x2") ? 2 : 1;
    AddAccess(AddrSpace::Shared, Store, false, 4 * Num, AddrOp);
  } else if (Base == "cp") {
    if (I.Mods.size() > 2 && I.Mods[1] == "async" && I.Mods[2] != "bulk" &&
        I.Mods[2] != "commit_group" && I.Mods[2] != "wait_group" &&
        I.Mods[2] != "wait_all" && I.Mods[2] != "mbarrier") {
      unsigned Bytes =
          I.Ops.size() >= 3 && I.Ops[2].Kind == Operand::Imm
              ? (unsigned)std::clamp<int64_t>(I.Ops[2].Value, 1, 16)
              : 16;
      Add(OpClass::LoadGlobal);
      Add(OpClass::StoreShared);
      AddAccess(AddrSpace::Global, false, false, Bytes,
                I.Ops.size() >= 2 ? &I.Ops[1] : nullptr);
      AddAccess(AddrSpace::Shared, true, false, Bytes,
                I.Ops.empty() ? nullptr : &I.Ops[0]);
    } else if (I.Mods.size() > 2 &&
               (I.Mods[2] == "wait_group" || I.Mods[2] == "wait_all")) {
      Add(OpClass::Barrier);
    } else {
      Add(OpClass::Other);
      if (I.Mods.size() > 2 && I.Mods[2] == "bulk")
        S.Warnings.push_back(formatv("{0}PTX line {1}: bulk asynchronous "
                                     "copies (TMA) are not modelled",
                                     where(), I.PtxLine)
                                 .str());
    }
  } else if (Base == "mma" || Base == "wgmma" ||
             (Base == "wmma" && I.Mods.size() > 1 && I.Mods[1] == "mma")) {
    if (Base == "wgmma" && (I.Mods.size() < 2 || I.Mods[1] != "mma_async")) {
      Add(OpClass::Other); // fence / commit_group / wait_group
      return;
    }
    Add(OpClass::Tensor);
    unsigned Mm = 0, Nn = 0, Kk = 0;
    for (StringRef Md : I.Mods) {
      unsigned A, B, C;
      if (Md.size() > 4 && Md[0] == 'm' &&
          sscanf(Md.str().c_str(), "m%un%uk%u", &A, &B, &C) == 3) {
        Mm = A;
        Nn = B;
        Kk = C;
      }
    }
    StringRef AType;
    if (Base == "wmma" && Types.size() == 2)
      AType = "f16";
    else if (Types.size() >= 2)
      AType = Types[1];
    else if (!Types.empty())
      AType = Types[0];
    std::string TT = StringSwitch<std::string>(AType)
                         .Cases({"u8", "s8"}, "s8")
                         .Cases({"u4", "s4"}, "s4")
                         .Cases({"e4m3", "e5m2"}, "fp8")
                         .Default(AType.str());
    double Flops = 2.0 * Mm * Nn * Kk;
    double PerThread = Base == "wgmma" ? Flops / 128 : Flops / 32;
    if (Mm == 8 && Nn == 8 && Kk == 4 && AType == "f16")
      PerThread *= 4; // four quad-pairs each compute an 8x8x4 product
    if (Flops == 0)
      S.Warnings.push_back(formatv("{0}PTX line {1}: tensor instruction "
                                   "without a shape; FLOPs not counted",
                                   where(), I.PtxLine)
                               .str());
    S.TensorFlops += PerThread * W;
    S.TensorByType[TT] += PerThread * W;
  } else if (Base == "wmma") { // load / store
    bool Store = I.Mods.size() > 1 && I.Mods[1] == "store";
    StringRef Frag = I.Mods.size() > 2 ? I.Mods[2] : "";
    unsigned Mm = 0, Nn = 0, Kk = 0;
    for (StringRef Md : I.Mods) {
      unsigned A, B, C;
      if (Md.size() > 4 && Md[0] == 'm' &&
          sscanf(Md.str().c_str(), "m%un%uk%u", &A, &B, &C) == 3) {
        Mm = A;
        Nn = B;
        Kk = C;
      }
    }
    uint64_t Elems = Frag == "a"   ? uint64_t(Mm) * Kk
                     : Frag == "b" ? uint64_t(Kk) * Nn
                                   : uint64_t(Mm) * Nn;
    uint64_t Bits = Ty.empty() ? 16 : typeBits(Ty);
    unsigned Bytes = static_cast<unsigned>(
        std::clamp<uint64_t>(Elems * Bits / 8 / 32, 1, 1u << 20));
    AddrSpace AS = SpaceOf(Space());
    OpClass C = AS == AddrSpace::Shared
                    ? (Store ? OpClass::StoreShared : OpClass::LoadShared)
                : AS == AddrSpace::Global
                    ? (Store ? OpClass::StoreGlobal : OpClass::LoadGlobal)
                    : (Store ? OpClass::StoreGeneric : OpClass::LoadGeneric);
    Add(C);
    AddAccess(AS, Store, false, Bytes, nullptr);
    S.Accesses.back().Pattern = AccessPattern::Coalesced;
    S.Accesses.back().StrideBytes = Bytes;
    if (AS == AddrSpace::Shared)
      S.Accesses.back().BankConflictWays = 1;
  } else if (Base == "tex" || Base == "tld4" || Base == "suld") {
    Add(OpClass::LoadGlobal);
    AddAccess(AddrSpace::Global, false, false, MemBytes(), nullptr);
    S.Accesses.back().ReadOnly = Base != "suld";
  } else if (Base == "sust" || Base == "sured") {
    Add(OpClass::StoreGlobal);
    AddAccess(AddrSpace::Global, true, Base == "sured", MemBytes(), nullptr);
  } else if (Base == "bra" || Base == "brx" || Base == "ret" ||
             Base == "exit") {
    Add(OpClass::Branch);
    if (Base == "bra" && !I.Guard.empty())
      if (int P = regId(I.Guard);
          P >= 0 && (Taints[P] & (TTidX | TTidY | TTidZ | TLane)))
        ++S.DivergentBranches;
  } else if (Base == "call") {
    Add(OpClass::Branch);
    const Operand *Callee = nullptr;
    for (const Operand &O : I.Ops)
      if (O.Kind == Operand::Sym || O.Kind == Operand::Reg) {
        Callee = &O;
        break;
      }
    if (Callee && Callee->Kind == Operand::Sym)
      S.Calls.push_back({Callee->Name.str(), W});
    else
      S.IndirectCalls = true;
  } else if (Base == "prefetch" || Base == "prefetchu" || Base == "nanosleep" ||
             Base == "trap" || Base == "brkpt" || Base == "pmevent" ||
             Base == "getctarank" || Base == "mapa" || Base == "setmaxnreg" ||
             Base == "griddepcontrol" || Base == "mbarrier" ||
             Base == "tensormap" || Base == "stacksave" ||
             Base == "stackrestore" || Base == "alloca" || Base == "discard" ||
             Base == "applypriority" || Base == "createpolicy" ||
             Base == "txq" || Base == "suq" || Base == "clusterlaunchcontrol" ||
             Base == "multimem" || Base == "tcgen05" || Base == "cp" ||
             Base == "st" || Base == "red" || Base == "ld") {
    Add(OpClass::Other);
  } else {
    Add(OpClass::Other);
    ++S.UnknownInstrs;
    S.Warnings.push_back(formatv("{0}PTX line {1}: unknown instruction '{2}' "
                                 "counted as other",
                                 where(), I.PtxLine, I.Opcode)
                             .str());
  }
}

FuncSummary FunctionAnalysis::run() {
  buildBlocks();
  computeLoops();
  analyseValues();
  estimateRegisters();
  // Trip counts, outer loops first (RPO of headers).
  for (Loop &L : Loops) {
    LoopRecord &R = L.Rec;
    R.Depth = 0;
    for (const Loop &O : Loops)
      if (O.Body.test(L.Header))
        ++R.Depth;
    const Block &H = Blocks[L.Header];
    for (unsigned K = H.Begin; K < H.End && !R.Line; ++K)
      R.Line = Instrs[K]->Loc.Line;
    if (auto T = countedTrip(L)) {
      R.Trip = *T;
      R.Exact = !L.MultiExit;
      if (L.MultiExit)
        R.Symbolic = "at most " + std::to_string(uint64_t(*T)) +
                     " (several exits; " + L.ExitDesc + ")";
    } else {
      R.Trip = Opts.DefaultTripCount;
      R.Guessed = true;
      // Describe the bound and look at the step's dependences.
      unsigned StepTaint = 0;
      R.Symbolic = L.ExitDesc;
      for (unsigned BI : L.Body.set_bits())
        for (unsigned K = Blocks[BI].Begin; K < Blocks[BI].End; ++K) {
          const Instr &I = *Instrs[K];
          if (I.Mods[0] == "add" && I.Ops.size() == 3 &&
              I.Ops[0].Kind == Operand::Reg && I.Ops[1].Kind == Operand::Reg &&
              I.Ops[0].Name == I.Ops[1].Name)
            StepTaint |= taintOf(I.Ops[2]);
          if (I.Mods[0] == "setp" && R.Symbolic.empty() && I.Ops.size() == 3 &&
              L.ExitDesc.empty())
            R.Symbolic = formatv("{0} {1}, {2}", I.Opcode,
                                 I.Ops[1].Name.empty() ? "?" : I.Ops[1].Name,
                                 I.Ops[2].Kind == Operand::Imm
                                     ? std::to_string(I.Ops[2].Value)
                                     : I.Ops[2].Name.str())
                             .str();
        }
      if ((StepTaint & TNTid) && (StepTaint & TNCtaId)) {
        R.GridStride = true;
        S.Shape.GridStrideLoop = true;
      } else if (StepTaint & TNTid) {
        R.DependsOnBlockDim = true;
        S.Shape.WorkScalesWithBlock = true;
        if (L.ConstBound && *L.ConstBound > 0) {
          // A block-stride loop over a constant range: resolved at the
          // profile's reference block size (docs/MODEL.md).
          R.Trip = std::max(
              1.0, std::ceil(double(*L.ConstBound) / PTXReferenceBlockThreads));
          R.Guessed = false;
          R.Symbolic = formatv("{0} / blockDim.x", *L.ConstBound).str();
          L.Trip = R.Trip;
          continue;
        }
      }
      S.Guesses.push_back(
          formatv(
              "{0}loop at {1}{2} (depth {3}): trip count unknown{4}, "
              "assumed {5}",
              where(), R.Line ? "line " : "PTX line ",
              R.Line ? R.Line
              : Instrs.empty()
                  ? 0
                  : Instrs[H.Begin < Instrs.size() ? H.Begin : 0]->PtxLine,
              R.Depth,
              R.GridStride          ? " (grid-stride)"
              : R.DependsOnBlockDim ? " (block-stride)"
                                    : "",
              formatv("{0}",
                      Opts.DefaultTripCount == std::floor(Opts.DefaultTripCount)
                          ? std::to_string((long long)Opts.DefaultTripCount)
                          : std::to_string(Opts.DefaultTripCount)))
              .str());
    }
    L.Trip = R.Trip;
  }
  for (Block &B : Blocks) {
    B.Weight = B.Reachable ? 1.0 : 0.0;
    for (unsigned LI : B.Loops)
      B.Weight = std::min(B.Weight * Loops[LI].Trip, MaxBlockWeight);
  }
  analyseGuards();
  analyseParallelism();
  for (unsigned BI = 0; BI < Blocks.size(); ++BI)
    for (unsigned K = Blocks[BI].Begin; K < Blocks[BI].End; ++K) {
      if (S.FirstLoc.Line == 0 && Instrs[K]->Loc.Line)
        S.FirstLoc = Instrs[K]->Loc;
      classify(*Instrs[K], Blocks[BI].Weight, BI);
      // Shape facts from special registers.
      for (const Operand &O : Instrs[K]->Ops) {
        if (O.Kind != Operand::Reg || regId(O.Name) >= 0)
          continue;
        StringRef N = O.Name;
        for (unsigned D = 0; D < 3; ++D) {
          char C = "xyz"[D];
          if (N == (Twine("%tid.") + Twine(C)).str())
            S.Shape.UsesTid[D] = true;
          if (N == (Twine("%ntid.") + Twine(C)).str()) {
            S.Shape.ReadsNTid[D] = true;
            S.Shape.ReadsBlockDim = true;
          }
        }
        if (N.starts_with("%nctaid"))
          S.Shape.ReadsGridDim = true;
      }
    }
  for (const Loop &L : Loops)
    S.Loops.push_back(L.Rec);
  return S;
}

void addScaled(FuncSummary &Into, const FuncSummary &From, double W) {
  for (unsigned C = 0; C < NumOpClasses; ++C)
    Into.Ops[C] += From.Ops[C] * W;
  Into.Flops32 += From.Flops32 * W;
  Into.Flops64 += From.Flops64 * W;
  Into.Flops16 += From.Flops16 * W;
  Into.TensorFlops += From.TensorFlops * W;
  for (auto &[T, V] : From.TensorByType)
    Into.TensorByType[T] += V * W;
  for (MemAccess A : From.Accesses) {
    A.Count *= W;
    A.BaseId = 0; // Registers of another function: no siblings here.
    Into.Accesses.push_back(A);
  }
  for (const LoopRecord &L : From.Loops)
    Into.Loops.push_back(L);
  Into.Guesses.insert(Into.Guesses.end(), From.Guesses.begin(),
                      From.Guesses.end());
  Into.Warnings.insert(Into.Warnings.end(), From.Warnings.begin(),
                       From.Warnings.end());
  Into.IndirectCalls |= From.IndirectCalls;
  Into.DivergentBranches += From.DivergentBranches;
  Into.EstimatedRegs = std::max(Into.EstimatedRegs, From.EstimatedRegs);
  Into.BarrierIds = std::max(Into.BarrierIds, From.BarrierIds);
  for (auto &K : From.Symbols)
    Into.Symbols.insert(K.getKey());
  ShapeInfo &S = Into.Shape;
  const ShapeInfo &O = From.Shape;
  S.ReadsBlockDim |= O.ReadsBlockDim;
  S.ReadsGridDim |= O.ReadsGridDim;
  S.GridStrideLoop |= O.GridStrideLoop;
  S.WorkScalesWithBlock |= O.WorkScalesWithBlock;
  for (unsigned D = 0; D < 3; ++D) {
    S.UsesTid[D] = S.UsesTid[D] || O.UsesTid[D];
    S.ReadsNTid[D] = S.ReadsNTid[D] || O.ReadsNTid[D];
  }
}

} // namespace

Expected<PTXModule> parsePTXModule(StringRef Text, StringRef FileName,
                                   const PTXParseOptions &Opts) {
  PTXModule M;
  auto Toks = lex(Text);
  if (!Toks)
    return Toks.takeError();
  std::vector<Function> Funcs;
  StringMap<VarDecl> Globals;
  std::map<int, std::string> Files;
  Parser P(std::move(*Toks), M);
  if (Error E = P.parse(Funcs, Globals, Files))
    return E;

  // Analyse every body once.
  StringMap<unsigned> FuncIdx;
  std::vector<FuncSummary> Local(Funcs.size());
  for (unsigned I = 0; I < Funcs.size(); ++I) {
    if (!Funcs[I].HasBody)
      continue;
    FuncIdx[Funcs[I].Name] = I;
    Local[I] = FunctionAnalysis(Funcs[I], Opts).run();
    if (!Funcs[I].IsEntry)
      M.Functions.push_back(Funcs[I].Name);
  }
  // Fold callee work into callers (memoised; cycles are recursion).
  std::vector<int> State(Funcs.size(), 0); // 0 new, 1 visiting, 2 done
  std::vector<FuncSummary> Total(Funcs.size());
  std::vector<unsigned> Followed(Funcs.size(), 0);
  std::vector<bool> Recursive(Funcs.size(), false);
  std::function<void(unsigned)> Visit = [&](unsigned I) {
    State[I] = 1;
    FuncSummary T = Local[I];
    T.Calls.clear();
    for (auto &[Callee, W] : Local[I].Calls) {
      auto It = FuncIdx.find(Callee);
      if (It == FuncIdx.end() || !Opts.FollowCalls) {
        if (It == FuncIdx.end())
          T.Warnings.push_back(formatv("{0}: call to {1} whose body is not in "
                                       "the module; counted as one branch",
                                       Funcs[I].Name, Callee)
                                   .str());
        continue;
      }
      unsigned C = It->second;
      if (State[C] == 1) {
        Recursive[I] = true;
        T.Warnings.push_back(formatv("{0}: recursive call to {1} not weighted",
                                     Funcs[I].Name, Callee)
                                 .str());
        continue;
      }
      if (State[C] == 0)
        Visit(C);
      addScaled(T, Total[C], W);
      Followed[I] += 1 + Followed[C];
      Recursive[I] = Recursive[I] || Recursive[C];
    }
    Total[I] = std::move(T);
    State[I] = 2;
  };

  for (unsigned I = 0; I < Funcs.size(); ++I) {
    const Function &F = Funcs[I];
    if (!F.IsEntry || !F.HasBody)
      continue;
    if (State[I] == 0)
      Visit(I);
    const FuncSummary &S = Total[I];
    KernelProfile K;
    K.Name = F.Name;
    K.DisplayName = demangle(F.Name);
    K.Source = "ptx";
    K.File = FileName.str();
    if (S.FirstLoc.Line) {
      K.Line = S.FirstLoc.Line;
      auto It = Files.find(S.FirstLoc.File);
      if (It != Files.end())
        K.File = It->second;
    }
    K.Ops = S.Ops;
    K.Flops32 = S.Flops32;
    K.Flops64 = S.Flops64;
    K.Flops16 = S.Flops16;
    K.TensorFlops = S.TensorFlops;
    double Best = 0;
    for (auto &[T, V] : S.TensorByType)
      if (V > Best) {
        Best = V;
        K.TensorType = T;
      }
    K.Accesses = S.Accesses;
    markInterBlockReuse(K);
    K.Loops = S.Loops;
    K.Guards = S.Guards;
    K.Guarded = S.Guarded;
    K.MLP = S.MLP;
    K.ILP = S.ILP;
    K.Guesses = S.Guesses;
    K.Warnings = S.Warnings;
    K.Warnings.insert(K.Warnings.end(), M.Warnings.begin(), M.Warnings.end());
    K.Bounds = F.Bounds;
    K.Shape = S.Shape;
    K.DivergentBranches = S.DivergentBranches;
    K.CallsFollowed = Followed[I];
    K.HasRecursion = Recursive[I];
    K.HasIndirectCalls = S.IndirectCalls;
    // Resources.
    Resources &R = K.Res;
    R.EstimatedRegisters = S.EstimatedRegs;
    R.Registers = S.EstimatedRegs;
    if (F.Bounds.MaxNReg && R.Registers > F.Bounds.MaxNReg)
      R.Registers = F.Bounds.MaxNReg;
    R.Barriers = S.BarrierIds;
    auto AddVar = [&](const VarDecl &V) {
      if (V.Space == "shared") {
        if (V.Extern || V.Unsized)
          R.UsesDynamicShared = true;
        else
          R.StaticSharedBytes += V.Bytes;
      } else if (V.Space == "local") {
        R.StackFrameBytes += V.Bytes;
      } else if (V.Space == "const") {
        R.ConstBytes += V.Bytes;
      }
    };
    for (const VarDecl &V : F.Vars)
      AddVar(V);
    // Module-scope variables the kernel (or its callees) names.
    std::vector<std::string> Used;
    for (auto &E : S.Symbols)
      Used.push_back(E.getKey().str());
    std::sort(Used.begin(), Used.end());
    for (const std::string &Name : Used) {
      auto It = Globals.find(Name);
      if (It != Globals.end())
        AddVar(It->second);
    }
    // A 2-D/3-D shared tile indexed by threadIdx without reading blockDim.
    if ((K.Shape.UsesTid[1] || K.Shape.UsesTid[2]) && !K.Shape.ReadsBlockDim &&
        R.StaticSharedBytes > 0) {
      K.Shape.FixedByTile = true;
      if (F.Bounds.ReqNTid[0])
        K.Shape.FixedBlock = F.Bounds.ReqNTid;
      K.Shape.FixedReason = "multi-dimensional threadIdx indexes a static "
                            "shared tile and blockDim is never read";
    }
    if (F.Bounds.ReqNTid[0]) {
      K.Shape.FixedBlock = F.Bounds.ReqNTid;
      if (K.Shape.FixedReason.empty())
        K.Shape.FixedReason = ".reqntid fixes the block shape";
    }
    finalizeProfile(K);
    M.Kernels.push_back(std::move(K));
  }
  return M;
}

Expected<std::vector<KernelProfile>> parsePTX(StringRef Text,
                                              StringRef FileName) {
  auto M = parsePTXModule(Text, FileName);
  if (!M)
    return M.takeError();
  return std::move(M->Kernels);
}

const KernelProfile *findKernel(const PTXModule &M, StringRef Name) {
  for (const KernelProfile &K : M.Kernels)
    if (K.Name == Name)
      return &K;
  for (const KernelProfile &K : M.Kernels) {
    StringRef D = K.DisplayName;
    if (D == Name || D.take_until([](char C) { return C == '('; }) == Name)
      return &K;
  }
  return nullptr;
}

} // namespace flipflop
