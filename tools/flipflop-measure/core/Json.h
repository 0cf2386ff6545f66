//===- Json.h - A small JSON value, reader and writer ---------------------===//
//
// The measurement tools must build on GPU machines that have a CUDA toolkit
// and a C++ compiler but no LLVM, so they cannot use llvm::json. This is a
// self-contained replacement: objects keep their insertion order so output is
// deterministic, numbers are doubles written in the shortest form that reads
// back exactly, and parse errors name the line and column.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_JSON_H
#define FLIPFLOP_MEASURE_JSON_H

#include "Result.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace flipflop {
namespace measure {
namespace json {

class Value;
using Array = std::vector<Value>;
using Member = std::pair<std::string, Value>;

class Value {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool B) : K(Kind::Bool), Bool(B) {}
  Value(double D) : K(Kind::Number), Num(D) {}
  Value(int I) : K(Kind::Number), Num(I) {}
  Value(unsigned I) : K(Kind::Number), Num(I) {}
  Value(long I) : K(Kind::Number), Num(double(I)) {}
  Value(unsigned long I) : K(Kind::Number), Num(double(I)) {}
  Value(long long I) : K(Kind::Number), Num(double(I)) {}
  Value(unsigned long long I) : K(Kind::Number), Num(double(I)) {}
  Value(const char *S) : K(Kind::String), Str(S) {}
  Value(std::string S) : K(Kind::String), Str(std::move(S)) {}
  Value(Array A) : K(Kind::Array), Arr(std::move(A)) {}

  static Value object() {
    Value V;
    V.K = Kind::Object;
    return V;
  }
  static Value array() {
    Value V;
    V.K = Kind::Array;
    return V;
  }

  Kind kind() const { return K; }
  bool isNull() const { return K == Kind::Null; }
  bool isBool() const { return K == Kind::Bool; }
  bool isNumber() const { return K == Kind::Number; }
  bool isString() const { return K == Kind::String; }
  bool isArray() const { return K == Kind::Array; }
  bool isObject() const { return K == Kind::Object; }

  bool getBool() const { return Bool; }
  double getNumber() const { return Num; }
  const std::string &getString() const { return Str; }
  const Array &getArray() const { return Arr; }
  Array &getArray() { return Arr; }
  const std::vector<Member> &members() const { return Obj; }

  /// Object access. set() replaces an existing key, keeping its position.
  Value &set(const std::string &Key, Value V);
  /// The member \p Key, or nullptr (also when this is not an object).
  const Value *get(const std::string &Key) const;
  Value *get(const std::string &Key);
  /// Appends to an array.
  void push(Value V) { Arr.push_back(std::move(V)); }

  bool operator==(const Value &O) const;
  bool operator!=(const Value &O) const { return !(*this == O); }

private:
  Kind K = Kind::Null;
  bool Bool = false;
  double Num = 0;
  std::string Str;
  Array Arr;
  std::vector<Member> Obj;
};

/// Parses a whole document. Errors read "line L, column C: message".
Result<Value> parse(const std::string &Text);

/// Writes \p V. Indent 0 gives one line; otherwise members and elements go on
/// their own lines (arrays of numbers stay on one line).
std::string write(const Value &V, unsigned Indent = 2);

/// The shortest decimal form of \p D that parses back to the same double;
/// integral values print without a fraction. NaN and infinities (which JSON
/// cannot hold) are written as null.
std::string formatNumber(double D);

/// Reads a whole file and parses it; errors are prefixed with the path.
Result<Value> readFile(const std::string &Path);
/// Writes \p V to \p Path (via a temporary file renamed into place).
Error writeFile(const Value &V, const std::string &Path);

// Typed accessors used by the readers: each returns an error naming the key.
Error getNumber(const Value &Obj, const std::string &Key, double &Out,
                bool Required = true);
Error getString(const Value &Obj, const std::string &Key, std::string &Out,
                bool Required = true);
/// Reads a [x, y, z] array of non-negative integers (1 to 3 elements;
/// missing elements are 1).
Error getDim3(const Value &Obj, const std::string &Key, unsigned Out[3],
              bool Required = true);

} // namespace json
} // namespace measure
} // namespace flipflop

#endif
