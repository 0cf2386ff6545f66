//===- PTXSyntax.h - PTX tokens and statements ----------------------------===//
//
// Private to lib/Profile: the lexer's tokens and the statement parser's
// output (functions, instructions, operands), shared by the PTX front end's
// translation units (PTXLexer.cpp, PTXStatements.cpp, the analysis and
// PTXParser.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_LIB_PROFILE_PTXSYNTAX_H
#define FLIPFLOP_LIB_PROFILE_PTXSYNTAX_H

#include "flipflop/Profile/PTXParser.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace flipflop {
namespace ptx {

using llvm::Error;
using llvm::Expected;
using llvm::SmallVector;
using llvm::StringMap;
using llvm::StringRef;
using llvm::Twine;

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

/// An error whose message reads "LINE: message".
Error lineError(unsigned Line, const Twine &Msg);

/// Splits the whole buffer into tokens (the last one is TokKind::End).
Expected<std::vector<Token>> lex(StringRef Text);

/// Parses a PTX integer literal (decimal, 0x hex, 0b binary, 0 octal, with an
/// optional U suffix). Float literals (0f..., 0d..., 1.5) return nullopt.
std::optional<int64_t> parseInt(StringRef S);

/// Parses a PTX float literal: 0f and eight hex digits (an f32's bits), 0d
/// and sixteen (an f64's), or a decimal with a point or an exponent.
std::optional<double> parseFloat(StringRef S);

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

struct Operand {
  enum KindTy { Reg, Imm, FImm, Sym, Addr, Vec, List, Other } Kind = Other;
  StringRef Name;         ///< Reg / Sym name; Addr base (register or symbol).
  int64_t Value = 0;      ///< Imm value; Addr offset; FImm: fimm()'s bits.
  bool Neg = false;       ///< "!%p".
  bool BaseIsReg = false; ///< Addr: base is a register.
  bool FloatRead = false; ///< FImm: parseFloat read it (fimm()).
  /// Vec/List members; "%p|%q" second. No inline buffer: most operands
  /// have none, and four inline names made every statement 1.5x larger.
  SmallVector<StringRef, 0> Regs;
};

/// The value of a float immediate (Operand::FImm); none for other operands
/// and for a literal parseFloat did not read.
inline std::optional<double> fimm(const Operand &O) {
  if (O.Kind != Operand::FImm || !O.FloatRead)
    return std::nullopt;
  double D;
  static_assert(sizeof(D) == sizeof(O.Value));
  std::memcpy(&D, &O.Value, sizeof(D));
  return D;
}

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
  std::vector<KernelParam> Params;
  std::vector<Stmt> Body;
  std::vector<VarDecl> Vars;
  std::vector<RegDecl> Regs;
  StringMap<std::vector<StringRef>> BranchTargets;
  /// Positions in Body of `.pragma "nounroll";` (before the statement at
  /// that position: NVPTX and nvcc put it after a loop header's label).
  std::vector<size_t> NoUnroll;
  /// The names given to labels of nested `{ }` scopes (renameScopeLabels),
  /// shared by copies of the function: inline asm that declares its own
  /// labels (CUTLASS's and ThunderKittens' mbarrier waits, `LAB_WAIT:`)
  /// repeats them wherever it is inlined.
  std::shared_ptr<std::deque<std::string>> ScopedNames;
};

/// Width in bits of a PTX type name ("f32" -> 32), 0 when not a type.
unsigned typeBits(StringRef T);
/// A floating-point PTX type (f16/bf16/tf32/f32/f64, fp8 and their pairs).
bool isFloatType(StringRef T);

/// Parses the tokens of a module into its functions (.entry/.func),
/// module-scope variables and .file table; header fields and module
/// warnings go to \p M.
Error parseStatements(std::vector<Token> Toks, PTXModule &M,
                      std::vector<Function> &Funcs, StringMap<VarDecl> &Globals,
                      std::map<int, std::string> &Files);

} // namespace ptx
} // namespace flipflop

#endif
