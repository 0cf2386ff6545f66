//===- Json.cpp - A small JSON value, reader and writer -------------------===//
#include "Json.h"
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace flipflop {
namespace measure {
namespace json {

Value &Value::set(const std::string &Key, Value V) {
  assert(K == Kind::Object && "set() on a non-object");
  for (Member &M : Obj)
    if (M.first == Key) {
      M.second = std::move(V);
      return M.second;
    }
  Obj.emplace_back(Key, std::move(V));
  return Obj.back().second;
}

const Value *Value::get(const std::string &Key) const {
  if (K != Kind::Object)
    return nullptr;
  for (const Member &M : Obj)
    if (M.first == Key)
      return &M.second;
  return nullptr;
}

Value *Value::get(const std::string &Key) {
  return const_cast<Value *>(static_cast<const Value *>(this)->get(Key));
}

bool Value::operator==(const Value &O) const {
  if (K != O.K)
    return false;
  switch (K) {
  case Kind::Null:
    return true;
  case Kind::Bool:
    return Bool == O.Bool;
  case Kind::Number:
    return Num == O.Num;
  case Kind::String:
    return Str == O.Str;
  case Kind::Array:
    return Arr == O.Arr;
  case Kind::Object:
    return Obj == O.Obj;
  }
  return false;
}

//===-- Parser ------------------------------------------------------------===//

namespace {
class Parser {
public:
  explicit Parser(const std::string &T) : Text(T) {}

  Result<Value> parseDocument() {
    Value V;
    if (Error E = parseValue(V, 0))
      return E;
    skipSpace();
    if (Pos != Text.size())
      return fail("unexpected text after the document");
    return V;
  }

private:
  const std::string &Text;
  size_t Pos = 0;
  static constexpr unsigned MaxDepth = 256;

  Error fail(const std::string &Msg) const {
    unsigned Line = 1, Col = 1;
    for (size_t I = 0; I < Pos && I < Text.size(); ++I) {
      if (Text[I] == '\n') {
        ++Line;
        Col = 1;
      } else {
        ++Col;
      }
    }
    return makeError("line " + std::to_string(Line) + ", column " +
                     std::to_string(Col) + ": " + Msg);
  }

  void skipSpace() {
    while (Pos < Text.size() && (Text[Pos] == ' ' || Text[Pos] == '\t' ||
                                 Text[Pos] == '\n' || Text[Pos] == '\r'))
      ++Pos;
  }

  bool consumeWord(const char *W) {
    size_t N = std::strlen(W);
    if (Text.compare(Pos, N, W) != 0)
      return false;
    Pos += N;
    return true;
  }

  Error parseValue(Value &Out, unsigned Depth) {
    if (Depth > MaxDepth)
      return fail("nesting too deep");
    skipSpace();
    if (Pos >= Text.size())
      return fail("unexpected end of input");
    char C = Text[Pos];
    if (C == '{')
      return parseObject(Out, Depth);
    if (C == '[')
      return parseArray(Out, Depth);
    if (C == '"') {
      std::string S;
      if (Error E = parseString(S))
        return E;
      Out = Value(std::move(S));
      return Error::success();
    }
    if (consumeWord("true")) {
      Out = Value(true);
      return Error::success();
    }
    if (consumeWord("false")) {
      Out = Value(false);
      return Error::success();
    }
    if (consumeWord("null")) {
      Out = Value();
      return Error::success();
    }
    if (C == '-' || (C >= '0' && C <= '9'))
      return parseNumber(Out);
    return fail(std::string("unexpected character '") + C + "'");
  }

  Error parseNumber(Value &Out) {
    size_t Start = Pos;
    auto Digits = [&]() {
      size_t B = Pos;
      while (Pos < Text.size() && Text[Pos] >= '0' && Text[Pos] <= '9')
        ++Pos;
      return Pos - B;
    };
    if (Text[Pos] == '-')
      ++Pos;
    if (Pos < Text.size() && Text[Pos] == '0') {
      ++Pos;
    } else if (Digits() == 0) {
      return fail("invalid number");
    }
    if (Pos < Text.size() && Text[Pos] == '.') {
      ++Pos;
      if (Digits() == 0)
        return fail("invalid number: digits expected after '.'");
    }
    if (Pos < Text.size() && (Text[Pos] == 'e' || Text[Pos] == 'E')) {
      ++Pos;
      if (Pos < Text.size() && (Text[Pos] == '+' || Text[Pos] == '-'))
        ++Pos;
      if (Digits() == 0)
        return fail("invalid number: digits expected in the exponent");
    }
    std::string S = Text.substr(Start, Pos - Start);
    Out = Value(std::strtod(S.c_str(), nullptr));
    return Error::success();
  }

  static void appendUTF8(std::string &S, uint32_t CP) {
    if (CP < 0x80) {
      S += char(CP);
    } else if (CP < 0x800) {
      S += char(0xC0 | (CP >> 6));
      S += char(0x80 | (CP & 0x3F));
    } else if (CP < 0x10000) {
      S += char(0xE0 | (CP >> 12));
      S += char(0x80 | ((CP >> 6) & 0x3F));
      S += char(0x80 | (CP & 0x3F));
    } else {
      S += char(0xF0 | (CP >> 18));
      S += char(0x80 | ((CP >> 12) & 0x3F));
      S += char(0x80 | ((CP >> 6) & 0x3F));
      S += char(0x80 | (CP & 0x3F));
    }
  }

  Error parseHex4(uint32_t &Out) {
    if (Pos + 4 > Text.size())
      return fail("truncated \\u escape");
    Out = 0;
    for (int I = 0; I < 4; ++I) {
      char C = Text[Pos++];
      Out <<= 4;
      if (C >= '0' && C <= '9')
        Out |= uint32_t(C - '0');
      else if (C >= 'a' && C <= 'f')
        Out |= uint32_t(C - 'a' + 10);
      else if (C >= 'A' && C <= 'F')
        Out |= uint32_t(C - 'A' + 10);
      else
        return fail("invalid \\u escape");
    }
    return Error::success();
  }

  Error parseString(std::string &Out) {
    ++Pos; // Opening quote.
    while (true) {
      if (Pos >= Text.size())
        return fail("unterminated string");
      char C = Text[Pos++];
      if (C == '"')
        return Error::success();
      if (static_cast<unsigned char>(C) < 0x20)
        return fail("control character in string");
      if (C != '\\') {
        Out += C;
        continue;
      }
      if (Pos >= Text.size())
        return fail("unterminated string");
      char Esc = Text[Pos++];
      switch (Esc) {
      case '"':
      case '\\':
      case '/':
        Out += Esc;
        break;
      case 'b':
        Out += '\b';
        break;
      case 'f':
        Out += '\f';
        break;
      case 'n':
        Out += '\n';
        break;
      case 'r':
        Out += '\r';
        break;
      case 't':
        Out += '\t';
        break;
      case 'u': {
        uint32_t CP = 0;
        if (Error E = parseHex4(CP))
          return E;
        if (CP >= 0xD800 && CP < 0xDC00) {
          uint32_t Low = 0;
          if (!consumeWord("\\u"))
            return fail("unpaired surrogate in \\u escape");
          if (Error E = parseHex4(Low))
            return E;
          if (Low < 0xDC00 || Low >= 0xE000)
            return fail("unpaired surrogate in \\u escape");
          CP = 0x10000 + ((CP - 0xD800) << 10) + (Low - 0xDC00);
        } else if (CP >= 0xDC00 && CP < 0xE000) {
          return fail("unpaired surrogate in \\u escape");
        }
        appendUTF8(Out, CP);
        break;
      }
      default:
        return fail(std::string("invalid escape '\\") + Esc + "'");
      }
    }
  }

  Error parseArray(Value &Out, unsigned Depth) {
    ++Pos;
    Out = Value::array();
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == ']') {
      ++Pos;
      return Error::success();
    }
    while (true) {
      Value Elt;
      if (Error E = parseValue(Elt, Depth + 1))
        return E;
      Out.push(std::move(Elt));
      skipSpace();
      if (Pos >= Text.size())
        return fail("unterminated array");
      char C = Text[Pos++];
      if (C == ']')
        return Error::success();
      if (C != ',') {
        --Pos;
        return fail("expected ',' or ']' in array");
      }
    }
  }

  Error parseObject(Value &Out, unsigned Depth) {
    ++Pos;
    Out = Value::object();
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == '}') {
      ++Pos;
      return Error::success();
    }
    while (true) {
      skipSpace();
      if (Pos >= Text.size() || Text[Pos] != '"')
        return fail("expected a member name in quotes");
      std::string Key;
      if (Error E = parseString(Key))
        return E;
      if (Out.get(Key))
        return fail("duplicate member \"" + Key + "\"");
      skipSpace();
      if (Pos >= Text.size() || Text[Pos] != ':')
        return fail("expected ':' after a member name");
      ++Pos;
      Value V;
      if (Error E = parseValue(V, Depth + 1))
        return E;
      Out.set(Key, std::move(V));
      skipSpace();
      if (Pos >= Text.size())
        return fail("unterminated object");
      char C = Text[Pos++];
      if (C == '}')
        return Error::success();
      if (C != ',') {
        --Pos;
        return fail("expected ',' or '}' in object");
      }
    }
  }
};

//===-- Writer ------------------------------------------------------------===//

void writeString(std::string &Out, const std::string &S) {
  Out += '"';
  for (char C : S) {
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\r':
      Out += "\\r";
      break;
    case '\t':
      Out += "\\t";
      break;
    case '\b':
      Out += "\\b";
      break;
    case '\f':
      Out += "\\f";
      break;
    default:
      if (static_cast<unsigned char>(C) < 0x20) {
        char Buf[8];
        std::snprintf(Buf, sizeof(Buf), "\\u%04x", unsigned(C));
        Out += Buf;
      } else {
        Out += C;
      }
    }
  }
  Out += '"';
}

bool isScalarArray(const Value &V) {
  for (const Value &E : V.getArray())
    if (E.isArray() || E.isObject())
      return false;
  return true;
}

void writeValue(std::string &Out, const Value &V, unsigned Indent,
                unsigned Level) {
  auto NewLine = [&](unsigned L) {
    if (Indent == 0)
      return;
    Out += '\n';
    Out.append(size_t(Indent) * L, ' ');
  };
  switch (V.kind()) {
  case Value::Kind::Null:
    Out += "null";
    return;
  case Value::Kind::Bool:
    Out += V.getBool() ? "true" : "false";
    return;
  case Value::Kind::Number:
    Out += formatNumber(V.getNumber());
    return;
  case Value::Kind::String:
    writeString(Out, V.getString());
    return;
  case Value::Kind::Array: {
    const Array &A = V.getArray();
    if (A.empty()) {
      Out += "[]";
      return;
    }
    bool Flat = Indent == 0 || isScalarArray(V);
    Out += '[';
    for (size_t I = 0; I < A.size(); ++I) {
      if (I)
        Out += Flat && Indent ? ", " : ",";
      if (!Flat)
        NewLine(Level + 1);
      writeValue(Out, A[I], Flat ? 0 : Indent, Level + 1);
    }
    if (!Flat)
      NewLine(Level);
    Out += ']';
    return;
  }
  case Value::Kind::Object: {
    const std::vector<Member> &M = V.members();
    if (M.empty()) {
      Out += "{}";
      return;
    }
    Out += '{';
    for (size_t I = 0; I < M.size(); ++I) {
      if (I)
        Out += ',';
      NewLine(Level + 1);
      writeString(Out, M[I].first);
      Out += Indent ? ": " : ":";
      writeValue(Out, M[I].second, Indent, Level + 1);
    }
    NewLine(Level);
    Out += '}';
    return;
  }
  }
}
} // namespace

Result<Value> parse(const std::string &Text) { return Parser(Text).parseDocument(); }

std::string formatNumber(double D) {
  if (!std::isfinite(D))
    return "null";
  if (D == std::floor(D) && std::fabs(D) < 1e15) {
    char Buf[32];
    std::snprintf(Buf, sizeof(Buf), "%.0f", D);
    // Avoid "-0".
    return std::strcmp(Buf, "-0") == 0 ? "0" : Buf;
  }
  char Buf[40];
  for (int Prec = 15; Prec <= 17; ++Prec) {
    std::snprintf(Buf, sizeof(Buf), "%.*g", Prec, D);
    if (std::strtod(Buf, nullptr) == D)
      break;
  }
  return Buf;
}

std::string write(const Value &V, unsigned Indent) {
  std::string Out;
  writeValue(Out, V, Indent, 0);
  return Out;
}

Result<Value> readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return makeError(Path + ": cannot open: " + std::strerror(errno));
  std::stringstream SS;
  SS << In.rdbuf();
  Result<Value> V = parse(SS.str());
  if (!V)
    return V.takeError().prefix(Path + ": ");
  return V;
}

Error writeFile(const Value &V, const std::string &Path) {
  // These tools run as root: never follow a planted link or replace a
  // device (docs/SECURITY.md). A device or FIFO is written in place; a
  // regular file is replaced atomically from a temporary created
  // exclusively (mkstemp) with the target's permissions.
  const std::string Text = write(V) + "\n";
  struct stat St;
  bool Exists = ::stat(Path.c_str(), &St) == 0;
  if (Exists && S_ISDIR(St.st_mode))
    return makeError(Path + ": cannot write: is a directory");
  if (Exists && !S_ISREG(St.st_mode)) {
    std::ofstream Out(Path, std::ios::binary);
    if (!(Out << Text) || !Out.flush())
      return makeError(Path + ": cannot write: " + std::strerror(errno));
    return Error::success();
  }
  std::string Tmp = Path + ".tmp-XXXXXX";
  int FD = ::mkstemp(Tmp.data());
  if (FD < 0)
    return makeError(Path + ": cannot create a temporary file next to it: " +
                     std::strerror(errno));
  mode_t Mask = ::umask(0);
  ::umask(Mask);
  ::fchmod(FD, Exists ? (St.st_mode & 07777) : (0666 & ~Mask));
  size_t Done = 0;
  while (Done < Text.size()) {
    ssize_t N = ::write(FD, Text.data() + Done, Text.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      int Err = errno;
      ::close(FD);
      ::unlink(Tmp.c_str());
      return makeError(Path + ": cannot write: " + std::strerror(Err));
    }
    Done += size_t(N);
  }
  if (::close(FD) != 0) {
    ::unlink(Tmp.c_str());
    return makeError(Path + ": cannot write: " + std::strerror(errno));
  }
  if (std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    int Err = errno;
    ::unlink(Tmp.c_str());
    return makeError(Path + ": cannot rename into place: " + std::strerror(Err));
  }
  return Error::success();
}

Error getNumber(const Value &Obj, const std::string &Key, double &Out,
                bool Required) {
  const Value *V = Obj.get(Key);
  if (!V || V->isNull()) {
    if (Required)
      return makeError("missing \"" + Key + "\"");
    return Error::success();
  }
  if (!V->isNumber())
    return makeError("\"" + Key + "\": expected a number");
  Out = V->getNumber();
  return Error::success();
}

Error getString(const Value &Obj, const std::string &Key, std::string &Out,
                bool Required) {
  const Value *V = Obj.get(Key);
  if (!V || V->isNull()) {
    if (Required)
      return makeError("missing \"" + Key + "\"");
    return Error::success();
  }
  if (!V->isString())
    return makeError("\"" + Key + "\": expected a string");
  Out = V->getString();
  return Error::success();
}

Error getDim3(const Value &Obj, const std::string &Key, unsigned Out[3],
              bool Required) {
  const Value *V = Obj.get(Key);
  if (!V || V->isNull()) {
    if (Required)
      return makeError("missing \"" + Key + "\"");
    return Error::success();
  }
  if (!V->isArray() || V->getArray().empty() || V->getArray().size() > 3)
    return makeError("\"" + Key + "\": expected an array of 1 to 3 integers");
  unsigned Tmp[3] = {1, 1, 1};
  for (size_t I = 0; I < V->getArray().size(); ++I) {
    const Value &E = V->getArray()[I];
    if (!E.isNumber() || E.getNumber() < 0 ||
        E.getNumber() != std::floor(E.getNumber()) || E.getNumber() > 4294967295.0)
      return makeError("\"" + Key + "\": expected non-negative integers");
    Tmp[I] = unsigned(E.getNumber());
  }
  for (int I = 0; I < 3; ++I)
    Out[I] = Tmp[I];
  return Error::success();
}

} // namespace json
} // namespace measure
} // namespace flipflop
