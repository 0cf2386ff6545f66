//===- ArgsSpec.cpp - Kernel arguments described in a JSON file -----------===//
#include "ArgsSpec.h"
#include <cmath>
#include <cstring>
#include <limits>

namespace flipflop {
namespace measure {

namespace {
struct TypeInfo {
  ScalarType T;
  const char *Name;
  unsigned Bytes;
  bool Float, Signed;
};
const TypeInfo Types[] = {
    {ScalarType::I8, "i8", 1, false, true},
    {ScalarType::U8, "u8", 1, false, false},
    {ScalarType::I16, "i16", 2, false, true},
    {ScalarType::U16, "u16", 2, false, false},
    {ScalarType::I32, "i32", 4, false, true},
    {ScalarType::U32, "u32", 4, false, false},
    {ScalarType::I64, "i64", 8, false, true},
    {ScalarType::U64, "u64", 8, false, false},
    {ScalarType::F32, "f32", 4, true, true},
    {ScalarType::F64, "f64", 8, true, true},
};
const TypeInfo &info(ScalarType T) {
  for (const TypeInfo &I : Types)
    if (I.T == T)
      return I;
  return Types[0];
}
} // namespace

bool parseScalarType(const std::string &S, ScalarType &T) {
  for (const TypeInfo &I : Types)
    if (S == I.Name) {
      T = I.T;
      return true;
    }
  return false;
}
const char *scalarTypeName(ScalarType T) { return info(T).Name; }
unsigned scalarTypeBytes(ScalarType T) { return info(T).Bytes; }
bool isFloatType(ScalarType T) { return info(T).Float; }

const char *fillKindName(FillKind F) {
  switch (F) {
  case FillKind::Zero:
    return "zero";
  case FillKind::Ones:
    return "ones";
  case FillKind::Iota:
    return "iota";
  case FillKind::Random:
    return "random";
  }
  return "zero";
}

//===-- Size expressions --------------------------------------------------===//

namespace {
class ExprParser {
public:
  ExprParser(const std::string &S, const std::array<uint64_t, 3> &T)
      : Text(S), Total(T) {}

  Result<uint64_t> run() {
    int64_t V = 0;
    if (Error E = expr(V))
      return E;
    skip();
    if (Pos != Text.size())
      return fail("unexpected '" + std::string(1, Text[Pos]) + "'");
    if (V < 0)
      return fail("negative value");
    return uint64_t(V);
  }

private:
  const std::string &Text;
  const std::array<uint64_t, 3> &Total;
  size_t Pos = 0;
  static constexpr int64_t Limit = int64_t(1) << 62;

  Error fail(const std::string &Msg) const {
    return makeError("in \"" + Text + "\": " + Msg);
  }
  void skip() {
    while (Pos < Text.size() && Text[Pos] == ' ')
      ++Pos;
  }
  Error checked(long double V, int64_t &Out) const {
    if (V > Limit || V < -Limit)
      return fail("value too large");
    Out = int64_t(V);
    return Error::success();
  }
  Error expr(int64_t &Out) {
    if (Error E = term(Out))
      return E;
    while (true) {
      skip();
      if (Pos >= Text.size() || (Text[Pos] != '+' && Text[Pos] != '-'))
        return Error::success();
      char Op = Text[Pos++];
      int64_t R;
      if (Error E = term(R))
        return E;
      if (Error E = checked(Op == '+' ? (long double)Out + R
                                      : (long double)Out - R,
                            Out))
        return E;
    }
  }
  Error term(int64_t &Out) {
    if (Error E = factor(Out))
      return E;
    while (true) {
      skip();
      if (Pos >= Text.size() || (Text[Pos] != '*' && Text[Pos] != '/'))
        return Error::success();
      char Op = Text[Pos++];
      int64_t R;
      if (Error E = factor(R))
        return E;
      if (Op == '*') {
        if (Error E = checked((long double)Out * R, Out))
          return E;
      } else {
        if (R == 0)
          return fail("division by zero");
        Out /= R;
      }
    }
  }
  Error factor(int64_t &Out) {
    skip();
    if (Pos >= Text.size())
      return fail("unexpected end");
    char C = Text[Pos];
    if (C == '(') {
      ++Pos;
      if (Error E = expr(Out))
        return E;
      skip();
      if (Pos >= Text.size() || Text[Pos] != ')')
        return fail("missing ')'");
      ++Pos;
      return Error::success();
    }
    if (C == '-') {
      ++Pos;
      if (Error E = factor(Out))
        return E;
      Out = -Out;
      return Error::success();
    }
    if (C >= '0' && C <= '9') {
      long double V = 0;
      while (Pos < Text.size() && Text[Pos] >= '0' && Text[Pos] <= '9') {
        V = V * 10 + (Text[Pos++] - '0');
        if (V > Limit)
          return fail("value too large");
      }
      Out = int64_t(V);
      return Error::success();
    }
    if (C == 'N') {
      ++Pos;
      long double V;
      if (Pos < Text.size() && Text[Pos] >= 'X' && Text[Pos] <= 'Z') {
        V = (long double)Total[Text[Pos] - 'X'];
        ++Pos;
      } else {
        V = (long double)Total[0] * Total[1] * Total[2];
      }
      return checked(V, Out);
    }
    return fail("unexpected '" + std::string(1, C) + "'");
  }
};
} // namespace

Result<uint64_t> evalSizeExpr(const std::string &Expr,
                              const std::array<uint64_t, 3> &Total) {
  return ExprParser(Expr, Total).run();
}

//===-- Parsing -----------------------------------------------------------===//

namespace {
/// A count or integer value: a non-negative integer or an expression string.
Error readIntOrExpr(const json::Value &V, std::string &Out) {
  if (V.is_string()) {
    Out = V.get_ref<const std::string &>();
    if (Out.empty())
      return makeError("empty expression");
    // Syntax check with a dummy size; values are checked at use.
    Result<uint64_t> R = evalSizeExpr(Out, {1, 1, 1});
    if (!R)
      return R.takeError();
    return Error::success();
  }
  if (V.is_number()) {
    double D = V.get<double>();
    if (D < 0 || D != std::floor(D) || D > 9.0e15)
      return makeError("expected a non-negative integer");
    Out = json::formatNumber(D);
    return Error::success();
  }
  return makeError("expected an integer or an expression string");
}

Error parseArg(const json::Value &A, ArgSpec &Out) {
  if (!A.is_object())
    return makeError("expected an object");
  for (const json::Member &M : json::members(A)) {
    static const char *Known[] = {"type", "elem",  "count", "fill", "seed",
                                  "min",  "max",   "value", "name"};
    bool Ok = false;
    for (const char *K : Known)
      Ok |= M.first == K;
    if (!Ok)
      return makeError("unknown member \"" + M.first + "\"");
  }
  std::string Type;
  if (Error E = json::getString(A, "type", Type))
    return E;
  if (Type == "buffer") {
    Out.IsBuffer = true;
    std::string Elem = "f32";
    if (Error E = json::getString(A, "elem", Elem, /*Required=*/false))
      return E;
    if (!parseScalarType(Elem, Out.Type))
      return makeError("elem: unknown type \"" + Elem +
                       "\" (i8 u8 i16 u16 i32 u32 i64 u64 f32 f64)");
    const json::Value *C = json::find(A, "count");
    if (!C)
      return makeError("missing \"count\"");
    if (Error E = readIntOrExpr(*C, Out.CountExpr))
      return E.prefix("count: ");
    std::string Fill = "zero";
    if (Error E = json::getString(A, "fill", Fill, false))
      return E;
    if (Fill == "zero")
      Out.Fill = FillKind::Zero;
    else if (Fill == "ones")
      Out.Fill = FillKind::Ones;
    else if (Fill == "iota")
      Out.Fill = FillKind::Iota;
    else if (Fill == "random")
      Out.Fill = FillKind::Random;
    else
      return makeError("fill: unknown pattern \"" + Fill +
                       "\" (zero, ones, iota, random)");
    double Seed = 1;
    if (Error E = json::getNumber(A, "seed", Seed, false))
      return E;
    if (Seed < 0 || Seed != std::floor(Seed))
      return makeError("seed: expected a non-negative integer");
    Out.Seed = uint64_t(Seed);
    bool HasMin = json::find(A, "min") != nullptr;
    bool HasMax = json::find(A, "max") != nullptr;
    if (HasMin != HasMax)
      return makeError("give both \"min\" and \"max\", or neither");
    if (HasMin) {
      if (Error E = json::getNumber(A, "min", Out.Min))
        return E;
      if (Error E = json::getNumber(A, "max", Out.Max))
        return E;
      if (!(Out.Max > Out.Min))
        return makeError("\"max\" must exceed \"min\"");
      Out.HasRange = true;
    }
    if (json::find(A, "value"))
      return makeError("a buffer takes \"fill\", not \"value\"");
    return Error::success();
  }
  Out.IsBuffer = false;
  if (!parseScalarType(Type, Out.Type))
    return makeError("type: unknown type \"" + Type +
                     "\" (buffer, i8 u8 i16 u16 i32 u32 i64 u64 f32 f64)");
  const json::Value *V = json::find(A, "value");
  if (!V)
    return makeError("missing \"value\"");
  if (V->is_number()) {
    Out.Number = V->get<double>();
    if (!isFloatType(Out.Type) && Out.Number != std::floor(Out.Number))
      return makeError("value: expected an integer for " + Type);
  } else if (V->is_string()) {
    if (isFloatType(Out.Type))
      return makeError("value: expressions are for integer scalars");
    if (Error E = readIntOrExpr(*V, Out.Expr))
      return E.prefix("value: ");
  } else {
    return makeError("value: expected a number or an expression string");
  }
  for (const char *K : {"count", "fill", "seed", "elem", "min", "max"})
    if (json::find(A, K))
      return makeError(std::string("a scalar takes no \"") + K + "\"");
  return Error::success();
}
} // namespace

Result<ArgsSpec> parseArgsSpec(const json::Value &V) {
  ArgsSpec S;
  if (!V.is_object())
    return makeError("expected an object at the top level");
  for (const json::Member &M : json::members(V)) {
    static const char *Known[] = {"kernel", "total_threads", "grid",
                                  "dynamic_shared_bytes",
                                  "dynamic_shared_bytes_per_thread", "args",
                                  "comment"};
    bool Ok = false;
    for (const char *K : Known)
      Ok |= M.first == K;
    if (!Ok)
      return makeError("unknown member \"" + M.first + "\"");
  }
  if (Error E = json::getString(V, "kernel", S.Kernel, false))
    return E;
  if (const json::Value *T = json::find(V, "total_threads")) {
    std::vector<double> Dims;
    if (T->is_number()) {
      Dims.push_back(T->get<double>());
    } else if (T->is_array() && !json::elements(*T).empty() &&
               json::elements(*T).size() <= 3) {
      for (const json::Value &E : json::elements(*T)) {
        if (!E.is_number())
          return makeError("total_threads: expected integers");
        Dims.push_back(E.get<double>());
      }
    } else {
      return makeError("total_threads: expected an integer or [nx, ny, nz]");
    }
    for (size_t I = 0; I < Dims.size(); ++I) {
      if (Dims[I] < 1 || Dims[I] != std::floor(Dims[I]) || Dims[I] > 1e15)
        return makeError("total_threads: expected positive integers");
      S.Total[I] = uint64_t(Dims[I]);
    }
    S.HasTotal = true;
  }
  if (json::find(V, "grid")) {
    unsigned G[3];
    if (Error E = json::getDim3(V, "grid", G))
      return E;
    if (G[0] == 0 || G[1] == 0 || G[2] == 0)
      return makeError("grid: dimensions must be positive");
    S.Grid = {G[0], G[1], G[2]};
    S.HasGrid = true;
  }
  for (const char *K :
       {"dynamic_shared_bytes", "dynamic_shared_bytes_per_thread"}) {
    double D = 0;
    if (Error E = json::getNumber(V, K, D, false))
      return E;
    if (D < 0 || D != std::floor(D) || D > 16.0 * 1024 * 1024)
      return makeError(std::string(K) + ": expected a small non-negative integer");
    (std::strcmp(K, "dynamic_shared_bytes") == 0 ? S.DynamicSharedBytes
                                                 : S.DynamicSharedPerThread) =
        uint64_t(D);
  }
  const json::Value *Args = json::find(V, "args");
  if (!Args)
    return makeError("missing \"args\" (use [] for a kernel without parameters)");
  if (!Args->is_array())
    return makeError("args: expected an array");
  for (size_t I = 0; I < json::elements(*Args).size(); ++I) {
    ArgSpec A;
    if (Error E = parseArg(json::elements(*Args)[I], A))
      return E.prefix("args[" + std::to_string(I) + "]: ");
    S.Args.push_back(A);
  }
  // Every expression must evaluate for the declared problem size.
  for (size_t I = 0; I < S.Args.size(); ++I) {
    const ArgSpec &A = S.Args[I];
    const std::string &X = A.IsBuffer ? A.CountExpr : A.Expr;
    if (X.empty())
      continue;
    if (!S.HasTotal && X.find('N') != std::string::npos)
      return makeError("args[" + std::to_string(I) +
                       "]: uses N but \"total_threads\" is not given");
    Result<uint64_t> R = evalSizeExpr(X, S.Total);
    if (!R)
      return R.takeError().prefix("args[" + std::to_string(I) + "]: ");
  }
  return S;
}

Result<ArgsSpec> loadArgsSpec(const std::string &Path) {
  Result<json::Value> V = json::readFile(Path);
  if (!V)
    return V.takeError();
  Result<ArgsSpec> S = parseArgsSpec(*V);
  if (!S)
    return S.takeError().prefix(Path + ": ");
  return S;
}

Result<std::array<unsigned, 3>> computeGrid(const ArgsSpec &S,
                                            const std::array<unsigned, 3> &Block) {
  std::array<unsigned, 3> G;
  if (S.HasGrid) {
    G = S.Grid;
  } else {
    if (!S.HasTotal)
      return makeError("neither \"grid\" nor \"total_threads\" is given");
    for (int I = 0; I < 3; ++I) {
      if (Block[I] == 0)
        return makeError("block dimensions must be positive");
      uint64_t N = (S.Total[I] + Block[I] - 1) / Block[I];
      if (N > 0xFFFFFFFFull)
        return makeError("grid too large");
      G[I] = unsigned(N);
    }
  }
  if (G[0] > 0x7FFFFFFFu || G[1] > 65535 || G[2] > 65535)
    return makeError("grid [" + std::to_string(G[0]) + ", " +
                     std::to_string(G[1]) + ", " + std::to_string(G[2]) +
                     "] exceeds the CUDA limits (2^31-1, 65535, 65535)");
  return G;
}

Result<uint64_t> bufferBytes(const ArgSpec &A,
                             const std::array<uint64_t, 3> &Total) {
  Result<uint64_t> N = evalSizeExpr(A.CountExpr, Total);
  if (!N)
    return N.takeError();
  if (*N > (uint64_t(1) << 40) / scalarTypeBytes(A.Type))
    return makeError("buffer larger than 1 TiB");
  return *N * scalarTypeBytes(A.Type);
}

namespace {
/// SplitMix64 (Steele, Lea and Flood 2014): a fully specified generator, so
/// a seed gives the same data with every compiler and library.
struct SplitMix64 {
  uint64_t State;
  uint64_t next() {
    uint64_t Z = (State += 0x9E3779B97F4A7C15ull);
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
    return Z ^ (Z >> 31);
  }
  double unit() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
};

void storeInt(ScalarType T, int64_t V, unsigned char *Dst) {
  unsigned N = scalarTypeBytes(T);
  // Two's complement truncation to the element width (little endian).
  uint64_t U = uint64_t(V);
  std::memcpy(Dst, &U, N);
}
void storeFloat(ScalarType T, double V, unsigned char *Dst) {
  if (T == ScalarType::F32) {
    float F = float(V);
    std::memcpy(Dst, &F, 4);
  } else {
    std::memcpy(Dst, &V, 8);
  }
}
} // namespace

Result<std::vector<unsigned char>>
fillBuffer(const ArgSpec &A, const std::array<uint64_t, 3> &Total) {
  assert(A.IsBuffer && "fillBuffer on a scalar");
  Result<uint64_t> Bytes = bufferBytes(A, Total);
  if (!Bytes)
    return Bytes.takeError();
  unsigned ES = scalarTypeBytes(A.Type);
  uint64_t Count = *Bytes / ES;
  std::vector<unsigned char> Out(size_t(*Bytes), 0);
  bool Float = isFloatType(A.Type);
  SplitMix64 Rng{A.Seed};
  double Lo = A.HasRange ? A.Min : 0;
  double Hi = A.HasRange ? A.Max : (Float ? 1.0 : double(Count));
  if (!Float && A.Fill == FillKind::Random && !(Hi - Lo >= 1))
    return makeError("random integer fill needs a range of at least 1");
  for (uint64_t I = 0; I < Count; ++I) {
    unsigned char *Dst = Out.data() + I * ES;
    switch (A.Fill) {
    case FillKind::Zero:
      break;
    case FillKind::Ones:
      Float ? storeFloat(A.Type, 1.0, Dst) : storeInt(A.Type, 1, Dst);
      break;
    case FillKind::Iota:
      Float ? storeFloat(A.Type, double(I), Dst) : storeInt(A.Type, int64_t(I), Dst);
      break;
    case FillKind::Random:
      if (Float) {
        storeFloat(A.Type, Lo + (Hi - Lo) * Rng.unit(), Dst);
      } else {
        uint64_t Span = uint64_t(std::floor(Hi - Lo));
        storeInt(A.Type, int64_t(std::floor(Lo)) + int64_t(Rng.next() % Span), Dst);
      }
      break;
    }
  }
  return Out;
}

Result<std::vector<unsigned char>>
scalarBytes(const ArgSpec &A, const std::array<uint64_t, 3> &Total) {
  assert(!A.IsBuffer && "scalarBytes on a buffer");
  std::vector<unsigned char> Out(scalarTypeBytes(A.Type));
  if (isFloatType(A.Type)) {
    storeFloat(A.Type, A.Number, Out.data());
    return Out;
  }
  int64_t V;
  if (!A.Expr.empty()) {
    Result<uint64_t> R = evalSizeExpr(A.Expr, Total);
    if (!R)
      return R.takeError();
    V = int64_t(*R);
  } else {
    V = int64_t(A.Number);
  }
  // Range check against the declared type.
  unsigned Bits = 8 * scalarTypeBytes(A.Type);
  bool Signed = A.Type == ScalarType::I8 || A.Type == ScalarType::I16 ||
                A.Type == ScalarType::I32 || A.Type == ScalarType::I64;
  if (Bits < 64) {
    int64_t Max = Signed ? (int64_t(1) << (Bits - 1)) - 1 : (int64_t(1) << Bits) - 1;
    int64_t Min = Signed ? -(int64_t(1) << (Bits - 1)) : 0;
    if (V < Min || V > Max)
      return makeError("value " + std::to_string(V) + " does not fit in " +
                       scalarTypeName(A.Type));
  } else if (!Signed && V < 0) {
    return makeError("negative value for u64");
  }
  storeInt(A.Type, V, Out.data());
  return Out;
}

} // namespace measure
} // namespace flipflop
