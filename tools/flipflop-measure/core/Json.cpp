//===- Json.cpp - JSON for the measurement tools (nlohmann::json) ---------===//
#include "Json.h"
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

namespace flipflop {
namespace measure {
namespace json {

const Value *find(const Value &Obj, const std::string &Key) {
  if (!Obj.is_object())
    return nullptr;
  auto It = Obj.find(Key);
  return It == Obj.end() ? nullptr : &*It;
}

const Array &elements(const Value &V) {
  assert(V.is_array() && "elements() of a non-array");
  return V.get_ref<const Array &>();
}

const Object &members(const Value &V) {
  assert(V.is_object() && "members() of a non-object");
  return V.get_ref<const Object &>();
}

//===-- Reader ------------------------------------------------------------===//

namespace {
/// A char iterator that tells the reader how far nlohmann's lexer has read,
/// so that errors found by the reader itself (a duplicate member, too deep
/// nesting) can name their position too.
class TrackedChars {
public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char *;
  using reference = const char &;

  TrackedChars(const char *P, const char **Mark) : P(P), Mark(Mark) {}
  const char &operator*() const { return *P; }
  TrackedChars &operator++() {
    *Mark = ++P;
    return *this;
  }
  bool operator==(const TrackedChars &O) const { return P == O.P; }
  bool operator!=(const TrackedChars &O) const { return P != O.P; }

private:
  const char *P;
  const char **Mark;
};

/// "line L, column C" of the character at byte \p Offset (one past the end
/// names the place where more input was expected).
std::string place(const std::string &Text, size_t Offset) {
  unsigned Line = 1, Col = 1;
  for (size_t I = 0; I < Offset && I < Text.size(); ++I) {
    if (Text[I] == '\n') {
      ++Line;
      Col = 1;
    } else {
      ++Col;
    }
  }
  return "line " + std::to_string(Line) + ", column " + std::to_string(Col);
}

/// nlohmann's message without its "[json.exception.parse_error.101] parse
/// error at line L, column C: " prefix (the reader names the place itself),
/// and with a long "last read: '...'" token cut to its end.
std::string describe(const char *What) {
  std::string D = What;
  if (!D.empty() && D[0] == '[') {
    size_t P = D.find("] ");
    if (P != std::string::npos)
      D.erase(0, P + 2);
  }
  if (D.compare(0, 11, "parse error") == 0) {
    size_t P = D.find(": ");
    if (P != std::string::npos)
      D.erase(0, P + 2);
  }
  const std::string Tag = "last read: '";
  constexpr size_t MaxToken = 40;
  size_t B = D.find(Tag);
  if (B != std::string::npos) {
    B += Tag.size();
    size_t E = D.find("'; expected", B);
    if (E == std::string::npos)
      E = D.rfind('\'');
    if (E != std::string::npos && E > B + MaxToken)
      D.replace(B, E - B - MaxToken, "...");
  }
  return D;
}

/// Builds the document from nlohmann's SAX events (as nlohmann's own DOM
/// parser does) and adds the checks the tools have always made.
class Builder final : public nlohmann::json_sax<Value> {
public:
  Builder(const std::string &Text, const char *const *Mark)
      : Text(Text), Mark(Mark) {}

  Value Root;
  std::string Failure; ///< Set when the parse stopped.

  bool null() override { return put(Value(nullptr)); }
  bool boolean(bool B) override { return put(Value(B)); }
  bool number_integer(number_integer_t N) override { return put(Value(N)); }
  bool number_unsigned(number_unsigned_t N) override { return put(Value(N)); }
  bool number_float(number_float_t D, const string_t &) override {
    return put(Value(D));
  }
  bool string(string_t &S) override { return put(Value(std::move(S))); }
  bool binary(binary_t &) override { return fail(read(), "binary value"); }
  bool start_object(std::size_t) override { return open(Value::object()); }
  bool start_array(std::size_t) override { return open(Value::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t &K) override {
    Value &Obj = *Stack.back();
    if (Obj.contains(K))
      return fail(read(), "duplicate member \"" + K + "\"");
    Slot = &Obj[K];
    return true;
  }
  bool parse_error(std::size_t Position, const std::string &,
                   const nlohmann::detail::exception &Ex) override {
    // Position counts the characters read, the offending one included.
    return fail(Position ? Position - 1 : 0, describe(Ex.what()));
  }

private:
  static constexpr size_t MaxDepth = 256;
  const std::string &Text;
  const char *const *Mark;
  std::vector<Value *> Stack; ///< The open arrays and objects.
  Value *Slot = nullptr;      ///< Where the value of the last key goes.

  /// The offset of the last character the lexer has read.
  size_t read() const {
    size_t N = size_t(*Mark - Text.data());
    return N ? N - 1 : 0;
  }
  bool fail(size_t Offset, const std::string &Msg) {
    Failure = place(Text, Offset) + ": " + Msg;
    return false;
  }
  Value *put(Value V) {
    if (Stack.size() > MaxDepth) {
      fail(read(), "nesting too deep");
      return nullptr;
    }
    if (Stack.empty()) {
      Root = std::move(V);
      return &Root;
    }
    Value &Top = *Stack.back();
    if (Top.is_array()) {
      Top.push_back(std::move(V));
      return &Top.back();
    }
    *Slot = std::move(V);
    return Slot;
  }
  bool open(Value V) {
    Value *P = put(std::move(V));
    if (P)
      Stack.push_back(P);
    return P != nullptr;
  }
  bool close() {
    Stack.pop_back();
    return true;
  }
};

//===-- Writer ------------------------------------------------------------===//

bool isScalarArray(const Value &V) {
  for (const Value &E : elements(V))
    if (E.is_array() || E.is_object())
      return false;
  return true;
}

void writeValue(std::string &Out, const Value &V, unsigned Indent,
                unsigned Level);

void writeArray(std::string &Out, const Array &A, bool Flat, unsigned Indent,
                unsigned Level) {
  auto NewLine = [&](unsigned L) {
    Out += '\n';
    Out.append(size_t(Indent) * L, ' ');
  };
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
}

void writeObject(std::string &Out, const Object &M, unsigned Indent,
                 unsigned Level) {
  auto NewLine = [&](unsigned L) {
    if (Indent == 0)
      return;
    Out += '\n';
    Out.append(size_t(Indent) * L, ' ');
  };
  Out += '{';
  bool First = true;
  for (const Member &KV : M) {
    if (!First)
      Out += ',';
    First = false;
    NewLine(Level + 1);
    // nlohmann escapes the name; invalid UTF-8 becomes U+FFFD.
    Out += Value(KV.first).dump(-1, ' ', false,
                                 Value::error_handler_t::replace);
    Out += Indent ? ": " : ":";
    writeValue(Out, KV.second, Indent, Level + 1);
  }
  NewLine(Level);
  Out += '}';
}

void writeValue(std::string &Out, const Value &V, unsigned Indent,
                unsigned Level) {
  if (V.is_number()) {
    Out += formatNumber(V.get<double>());
  } else if (V.is_array()) {
    if (V.empty())
      Out += "[]";
    else
      writeArray(Out, elements(V), Indent == 0 || isScalarArray(V), Indent,
                 Level);
  } else if (V.is_object()) {
    if (V.empty())
      Out += "{}";
    else
      writeObject(Out, members(V), Indent, Level);
  } else {
    // null, true, false and strings, escaped by nlohmann.
    Out += V.dump(-1, ' ', false, Value::error_handler_t::replace);
  }
}
} // namespace

Result<Value> parse(const std::string &Text) {
  const char *Mark = Text.data();
  Builder B(Text, &Mark);
  TrackedChars Begin(Text.data(), &Mark),
      End(Text.data() + Text.size(), &Mark);
  if (!Value::sax_parse(Begin, End, &B)) {
    assert(!B.Failure.empty() && "the parse stopped without a reason");
    return makeError(B.Failure);
  }
  return std::move(B.Root);
}

std::string write(const Value &V, unsigned Indent) {
  std::string Out;
  writeValue(Out, V, Indent, 0);
  return Out;
}

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
  const Value *V = find(Obj, Key);
  if (!V || V->is_null()) {
    if (Required)
      return makeError("missing \"" + Key + "\"");
    return Error::success();
  }
  if (!V->is_number())
    return makeError("\"" + Key + "\": expected a number");
  Out = V->get<double>();
  return Error::success();
}

Error getString(const Value &Obj, const std::string &Key, std::string &Out,
                bool Required) {
  const Value *V = find(Obj, Key);
  if (!V || V->is_null()) {
    if (Required)
      return makeError("missing \"" + Key + "\"");
    return Error::success();
  }
  if (!V->is_string())
    return makeError("\"" + Key + "\": expected a string");
  Out = V->get_ref<const std::string &>();
  return Error::success();
}

Error getDim3(const Value &Obj, const std::string &Key, unsigned Out[3],
              bool Required) {
  const Value *V = find(Obj, Key);
  if (!V || V->is_null()) {
    if (Required)
      return makeError("missing \"" + Key + "\"");
    return Error::success();
  }
  if (!V->is_array() || V->empty() || V->size() > 3)
    return makeError("\"" + Key + "\": expected an array of 1 to 3 integers");
  unsigned Tmp[3] = {1, 1, 1};
  const Array &A = elements(*V);
  for (size_t I = 0; I < A.size(); ++I) {
    double D = A[I].is_number() ? A[I].get<double>() : -1;
    if (D < 0 || D != std::floor(D) || D > 4294967295.0)
      return makeError("\"" + Key + "\": expected non-negative integers");
    Tmp[I] = unsigned(D);
  }
  for (int I = 0; I < 3; ++I)
    Out[I] = Tmp[I];
  return Error::success();
}

} // namespace json
} // namespace measure
} // namespace flipflop
