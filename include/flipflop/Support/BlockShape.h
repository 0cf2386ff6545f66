//===- flipflop/Support/BlockShape.h - A block shape in words ---*- C++ -*-===//
//
// How every FlipFlop output writes a block (or grid) shape: "256", "16x16",
// "8x8x4". Trailing dimensions of 1 are left out, so a one-dimensional block
// is just its thread count; the remark argument "Block" and the reports'
// summaries use this spelling, and flipflop-apply parses it back.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_SUPPORT_BLOCKSHAPE_H
#define FLIPFLOP_SUPPORT_BLOCKSHAPE_H

#include <array>
#include <string>
#include <type_traits>

namespace flipflop {

/// "X", "XxY" or "XxYxZ": Y is written when Y or Z is above 1, Z when it is
/// above 1 (a dimension of 0 or 1 after X counts as absent).
template <typename IntT>
std::string blockShapeText(IntT X, IntT Y, IntT Z) {
  static_assert(std::is_integral<IntT>::value, "an integer shape");
  std::string S = std::to_string(X);
  if (Y > 1 || Z > 1)
    S += "x" + std::to_string(Y);
  if (Z > 1)
    S += "x" + std::to_string(Z);
  return S;
}

template <typename IntT>
std::string blockShapeText(const std::array<IntT, 3> &B) {
  return blockShapeText(B[0], B[1], B[2]);
}

} // namespace flipflop

#endif
