//===- PTXLexer.cpp - PTX lexer -------------------------------------------===//
//
// Tokens over the whole buffer; every token carries its PTX line.
//
//===----------------------------------------------------------------------===//
#include "PTXSyntax.h"
#include "llvm/ADT/StringExtras.h"
#include <cstring>

using namespace llvm;

namespace flipflop {
namespace ptx {

Error lineError(unsigned Line, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Twine(Line) + ": " + Msg);
}

namespace {

bool isWordStart(char C) {
  return llvm::isAlpha(C) || C == '_' || C == '$' || C == '%' || C == '.';
}
bool isWordChar(char C) {
  return llvm::isAlnum(C) || C == '_' || C == '$' || C == '.';
}

} // namespace

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

std::optional<double> parseFloat(StringRef S) {
  uint64_t Bits;
  if (S.size() == 10 && (S.starts_with("0f") || S.starts_with("0F")) &&
      !S.drop_front(2).getAsInteger(16, Bits)) {
    float F;
    uint32_t B32 = static_cast<uint32_t>(Bits);
    std::memcpy(&F, &B32, sizeof(F));
    return double(F);
  }
  if (S.size() == 18 && (S.starts_with("0d") || S.starts_with("0D")) &&
      !S.drop_front(2).getAsInteger(16, Bits)) {
    double D;
    std::memcpy(&D, &Bits, sizeof(D));
    return D;
  }
  double D;
  if (S.find_first_of(".eE") != StringRef::npos && !S.getAsDouble(D))
    return D;
  return std::nullopt;
}

} // namespace ptx
} // namespace flipflop
