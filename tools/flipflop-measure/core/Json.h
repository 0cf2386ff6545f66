//===- Json.h - JSON for the measurement tools (nlohmann::json) -----------===//
//
// The measurement tools must build on GPU machines that have a CUDA toolkit
// and a C++ compiler but no LLVM, so they cannot use llvm::json. They use the
// header-only nlohmann::json (Debian nlohmann-json3-dev) instead, and this
// header adds what the tools need on top of it:
//
//  - json::Value is nlohmann::ordered_json: objects keep their insertion
//    order, so output is deterministic.
//  - The tools build without exceptions (JSON_NOEXCEPTION: a throw would
//    abort), so documents are read only through parse()/readFile(), which
//    report a malformed document as a one-line Error naming the line and
//    column, and values are read only after checking their type (is_number()
//    before get<double>(), or the typed accessors below).
//  - write() keeps the tools' report layout: numbers in the shortest form
//    that reads back exactly, arrays of scalars on one line.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_JSON_H
#define FLIPFLOP_MEASURE_JSON_H

#include "Result.h"
#include <nlohmann/json.hpp>
#include <string>

namespace flipflop {
namespace measure {
namespace json {

using Value = nlohmann::ordered_json;
using Array = Value::array_t;
using Object = Value::object_t;
using Member = Object::value_type;

/// The member \p Key of \p Obj, or nullptr (also when \p Obj is not an
/// object).
const Value *find(const Value &Obj, const std::string &Key);

/// The elements of an array and the members of an object; asserts the type,
/// which the caller has checked.
const Array &elements(const Value &V);
const Object &members(const Value &V);

/// Parses a whole document (RFC 8259; a member name may appear once per
/// object; nesting is limited to 256 levels). Errors read
/// "line L, column C: message".
Result<Value> parse(const std::string &Text);

/// Writes \p V. Indent 0 gives one line; otherwise members and elements go on
/// their own lines (arrays of scalars stay on one line).
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
