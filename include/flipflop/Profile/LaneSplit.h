//===- flipflop/Profile/LaneSplit.h - A thread index cut into rows -*- C++ -*-//
//
// The rule both front ends use for an address that depends on the thread
// index t through t % M and t / M (a flattened thread id cut into the rows of
// a tile): Stride * (t % M) + DivStride * (t / M), M = 0 for a plain
// Stride * t. The PTX front end's AbsVal and the IR front end's Stride keep
// one of these; MemAccess::LaneMod / LaneDivStrideBytes carry it to the model
// (docs/MODEL.md, "Rows of a tile").
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_PROFILE_LANESPLIT_H
#define FLIPFLOP_PROFILE_LANESPLIT_H

#include "llvm/Support/MathExtras.h"
#include <cstdint>
#include <optional>

namespace flipflop {

struct LaneSplit {
  unsigned Mod = 0; ///< 0: a plain stride.
  int64_t Stride = 0, DivStride = 0;

  /// Stride * (t % M) + DivStride * (t / M), folded to a plain stride when
  /// the split cancels (DivStride == Stride * M) or vanishes. Rows of a
  /// multiple of 32 threads hold whole warps: t / M is the same for every
  /// lane of a warp, so within one the split is the plain Stride * t plus a
  /// warp-uniform offset (which the lane values leave out, as they leave
  /// out every uniform term). The row's pitch then need not be known: a
  /// 64-column tile loaded as B[(k0 + t / 64) * n + t % 64] is coalesced
  /// whatever n is.
  static LaneSplit make(unsigned M, int64_t S, int64_t D) {
    if (M == 0 || D == S * int64_t(M) || (S == 0 && D == 0) || M % 32 == 0)
      return {0, S, 0};
    return {M, S, D};
  }
  /// Zero for every lane of a warp.
  bool uniform() const { return Stride == 0 && (Mod == 0 || DivStride == 0); }
};

/// The pitch taken for lanes or rows a uniform but unknown distance apart:
/// a thread or row index times a runtime leading dimension (A[t * lda], or
/// A[(r0 + t / 16) * lda + t % 16] with lda not stated). Far enough that no
/// two of them share a 128-byte line, which a matrix's row pitch almost
/// always is (docs/MODEL.md, "Rows of a tile").
constexpr int64_t FarRowPitch = int64_t(1) << 24;

/// Whether a pitch is (a multiple of) FarRowPitch: that far apart.
inline bool farRowPitch(int64_t Pitch) {
  return Pitch >= FarRowPitch || Pitch <= -FarRowPitch;
}

/// X * MX + Y * MY for lane strides and pitches: a result at least
/// FarRowPitch in magnitude is FarRowPitch (far is far, and nothing
/// overflows however often a far pitch is scaled); far terms that cancel
/// to a nearer value are unknown (nullopt): two unknown pitches need not
/// be equal.
inline std::optional<int64_t> pitchSum(int64_t X, int64_t MX, int64_t Y,
                                       int64_t MY) {
  bool FarIn = (farRowPitch(X) && MX != 0) || (farRowPitch(Y) && MY != 0);
  int64_t PX = 0, PY = 0, R = 0;
  bool Over = llvm::MulOverflow(X, MX, PX) || llvm::MulOverflow(Y, MY, PY) ||
              llvm::AddOverflow(PX, PY, R);
  if (Over) {
    // Beyond 64 bits: far, on the side of the larger term.
    long double V = static_cast<long double>(X) * MX +
                    static_cast<long double>(Y) * MY;
    return V < 0 ? -FarRowPitch : FarRowPitch;
  }
  if (farRowPitch(R))
    return R < 0 ? -FarRowPitch : FarRowPitch;
  if (FarIn)
    return std::nullopt;
  return R;
}

/// \p L times a uniform value that is not a known constant: a plain stride
/// becomes FarRowPitch (each lane in lines of its own), rows of a tile (only
/// t / M varies) FarRowPitch apart; nullopt when a stride within the rows
/// scales too (the lanes' pattern is then not known).
inline std::optional<LaneSplit> scaleByUnknown(const LaneSplit &L) {
  if (L.Mod == 0)
    return L.Stride == 0 ? std::nullopt
                         : std::optional<LaneSplit>(LaneSplit{0, FarRowPitch, 0});
  if (L.Stride != 0 || L.DivStride == 0)
    return std::nullopt;
  return LaneSplit::make(L.Mod, 0, FarRowPitch);
}

/// MA * A + MB * B; nullopt when the two split t at different rows.
inline std::optional<LaneSplit> combineLaneSplits(const LaneSplit &A,
                                                  const LaneSplit &B,
                                                  int64_t MA, int64_t MB) {
  if (A.Mod && B.Mod && A.Mod != B.Mod)
    return std::nullopt;
  const unsigned M = A.Mod ? A.Mod : B.Mod;
  // A plain stride s * t is s * (t % M) + s * M * (t / M).
  auto Div = [M](const LaneSplit &X) {
    return X.Mod ? X.DivStride : X.Stride * int64_t(M);
  };
  std::optional<int64_t> S = pitchSum(A.Stride, MA, B.Stride, MB);
  std::optional<int64_t> D = pitchSum(Div(A), MA, Div(B), MB);
  if (!S || !D)
    return std::nullopt;
  return LaneSplit::make(M, *S, *D);
}

/// (C * t) % M when \p Rem, else (C * t) / M, of a plain stride C; nullopt
/// unless C > 0 divides M or M divides C (then t % M vanishes).
inline std::optional<LaneSplit> splitLanes(int64_t C, int64_t M, bool Rem) {
  if (C <= 0 || M <= 0 || M > (int64_t(1) << 30))
    return std::nullopt;
  if (C % M == 0) // Whole rows per thread.
    return Rem ? LaneSplit{} : LaneSplit{0, C / M, 0};
  if (M % C != 0)
    return std::nullopt;
  unsigned Lanes = unsigned(M / C); // Threads per row.
  return Rem ? LaneSplit::make(Lanes, C, 0) : LaneSplit::make(Lanes, 0, 1);
}

} // namespace flipflop

#endif
