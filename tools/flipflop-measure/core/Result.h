//===- Result.h - Error and Result<T> without exceptions or LLVM ----------===//
//
// The measurement tools build without LLVM (the GPU machines have none), so
// they cannot use llvm::Expected. This is the smallest replacement: an Error
// is an optional one-line message; Result<T> holds a value or an Error.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_RESULT_H
#define FLIPFLOP_MEASURE_RESULT_H

#include <cassert>
#include <string>
#include <utility>

namespace flipflop {
namespace measure {

/// A one-line error message; an empty Error means success.
class Error {
public:
  Error() = default;
  static Error success() { return Error(); }
  static Error make(std::string Msg) {
    Error E;
    E.Failed = true;
    E.Msg = std::move(Msg);
    return E;
  }
  explicit operator bool() const { return Failed; }
  const std::string &message() const { return Msg; }
  /// Prefixes the message with context ("file.json: ").
  Error &prefix(const std::string &P) {
    Msg = P + Msg;
    return *this;
  }

private:
  bool Failed = false;
  std::string Msg;
};

inline Error makeError(std::string Msg) { return Error::make(std::move(Msg)); }

/// A value of type T or an Error.
template <typename T> class Result {
public:
  Result(T V) : Value(std::move(V)) {}
  Result(Error E) : Err(std::move(E)) {
    assert(Err && "a Result built from an Error must hold a failure");
  }
  explicit operator bool() const { return !Err; }
  T &operator*() {
    assert(!Err && "dereferencing a failed Result");
    return Value;
  }
  const T &operator*() const {
    assert(!Err && "dereferencing a failed Result");
    return Value;
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }
  const Error &error() const { return Err; }
  Error takeError() { return std::move(Err); }

private:
  T Value{};
  Error Err;
};

} // namespace measure
} // namespace flipflop

#endif
