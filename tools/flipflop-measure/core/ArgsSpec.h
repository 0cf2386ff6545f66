//===- ArgsSpec.h - Kernel arguments described in a JSON file -------------===//
//
// flipflop-measure launches kernels it did not compile, so each kernel's
// arguments are described in a small JSON file (docs/MEASUREMENT.md):
//
//   { "kernel": "_Z5saxpyifPKfPf",      // optional: PTX entry name
//     "total_threads": 16777216,        // or [nx, ny, nz]; grid = ceil(N/block)
//     "grid": [4096, 1, 1],             // optional: a fixed grid instead
//     "dynamic_shared_bytes": 0,        // per block, or:
//     "dynamic_shared_bytes_per_thread": 4,
//     "args": [
//       {"type": "i32", "value": "N"},
//       {"type": "f32", "value": 2.0},
//       {"type": "buffer", "elem": "f32", "count": "N", "fill": "random", "seed": 1},
//       {"type": "buffer", "elem": "f32", "count": "N", "fill": "zero"} ] }
//
// Counts and integer scalars may be integer expressions over N (the product
// of total_threads) and NX, NY, NZ: "N", "4*N+32", "(NX+15)/16".
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_MEASURE_ARGSSPEC_H
#define FLIPFLOP_MEASURE_ARGSSPEC_H

#include "Json.h"
#include "Result.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace flipflop {
namespace measure {

enum class ScalarType { I8, U8, I16, U16, I32, U32, I64, U64, F32, F64 };
/// "i32" -> I32 etc. Returns false for an unknown name.
bool parseScalarType(const std::string &S, ScalarType &T);
const char *scalarTypeName(ScalarType T);
unsigned scalarTypeBytes(ScalarType T);
bool isFloatType(ScalarType T);

enum class FillKind { Zero, Ones, Iota, Random };
const char *fillKindName(FillKind F);

struct ArgSpec {
  bool IsBuffer = false;
  ScalarType Type = ScalarType::F32; ///< Scalar type, or buffer element type.
  /// Scalar value: number, or integer expression text.
  std::string Expr;      ///< Non-empty when the value is an expression.
  double Number = 0;     ///< The literal value otherwise.
  // Buffers.
  std::string CountExpr; ///< Element count expression ("N", "1024", ...).
  FillKind Fill = FillKind::Zero;
  uint64_t Seed = 1;
  /// Random fills draw from [Min, Max); integer buffers default to
  /// [0, count) so that index buffers stay in bounds.
  bool HasRange = false;
  double Min = 0, Max = 1;
};

struct ArgsSpec {
  std::string Kernel;                        ///< Empty: the only entry.
  std::array<uint64_t, 3> Total{0, 1, 1};    ///< Problem size in threads.
  bool HasTotal = false;
  std::array<unsigned, 3> Grid{0, 0, 0};     ///< Fixed grid (0: derive).
  bool HasGrid = false;
  uint64_t DynamicSharedBytes = 0;
  uint64_t DynamicSharedPerThread = 0;
  std::vector<ArgSpec> Args;

  uint64_t totalThreads() const { return Total[0] * Total[1] * Total[2]; }
  /// Dynamic shared memory for a block of \p BlockThreads threads.
  uint64_t dynamicShared(uint64_t BlockThreads) const {
    return DynamicSharedBytes + DynamicSharedPerThread * BlockThreads;
  }
};

/// Parses an args document; errors name the member ("args[2].count: ...").
Result<ArgsSpec> parseArgsSpec(const json::Value &V);
Result<ArgsSpec> loadArgsSpec(const std::string &Path);

/// Evaluates an integer expression over N, NX, NY, NZ (+ - * / and
/// parentheses; division truncates). Errors on overflow, division by zero,
/// negative results and syntax errors.
Result<uint64_t> evalSizeExpr(const std::string &Expr,
                              const std::array<uint64_t, 3> &Total);

/// The grid for \p Block: the spec's fixed grid, or ceil(Total / Block) per
/// dimension. Errors when neither is known or a dimension exceeds the limits
/// (x < 2^31, y and z < 65536).
Result<std::array<unsigned, 3>> computeGrid(const ArgsSpec &S,
                                            const std::array<unsigned, 3> &Block);

/// Bytes of a buffer argument (element count times element size).
Result<uint64_t> bufferBytes(const ArgSpec &A, const std::array<uint64_t, 3> &Total);
/// The host contents of a buffer argument, filled as described.
Result<std::vector<unsigned char>>
fillBuffer(const ArgSpec &A, const std::array<uint64_t, 3> &Total);
/// The bytes of a scalar argument as the kernel receives them.
Result<std::vector<unsigned char>>
scalarBytes(const ArgSpec &A, const std::array<uint64_t, 3> &Total);

} // namespace measure
} // namespace flipflop

#endif
