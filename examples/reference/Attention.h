//===- Attention.h - CPU reference for the attention examples -------------===//

#ifndef FLIPFLOP_EXAMPLES_REFERENCE_ATTENTION_H
#define FLIPFLOP_EXAMPLES_REFERENCE_ATTENTION_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace flipflop {
namespace examples {
namespace ref {

/// Scaled dot-product attention without mask, one independent problem per
/// head: O = softmax(Q K^T / sqrt(D)) V. Q is [Heads][Lq][D], K and V are
/// [Heads][Lk][D], O is [Heads][Lq][D], all row-major.
inline void attention(const float *Q, const float *K, const float *V, float *O,
                      int Heads, int Lq, int Lk, int D) {
  std::vector<double> S(Lk);
  const double Scale = 1.0 / std::sqrt(static_cast<double>(D));
  for (int H = 0; H < Heads; ++H) {
    const float *Qh = Q + static_cast<size_t>(H) * Lq * D;
    const float *Kh = K + static_cast<size_t>(H) * Lk * D;
    const float *Vh = V + static_cast<size_t>(H) * Lk * D;
    float *Oh = O + static_cast<size_t>(H) * Lq * D;
    for (int I = 0; I < Lq; ++I) {
      double Max = -INFINITY;
      for (int J = 0; J < Lk; ++J) {
        double Dot = 0;
        for (int E = 0; E < D; ++E)
          Dot += static_cast<double>(Qh[static_cast<size_t>(I) * D + E]) *
                 Kh[static_cast<size_t>(J) * D + E];
        S[J] = Dot * Scale;
        Max = std::max(Max, S[J]);
      }
      double Sum = 0;
      for (int J = 0; J < Lk; ++J) {
        S[J] = std::exp(S[J] - Max);
        Sum += S[J];
      }
      for (int E = 0; E < D; ++E) {
        double Acc = 0;
        for (int J = 0; J < Lk; ++J)
          Acc += S[J] * Vh[static_cast<size_t>(J) * D + E];
        Oh[static_cast<size_t>(I) * D + E] = static_cast<float>(Acc / Sum);
      }
    }
  }
}

} // namespace ref
} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_REFERENCE_ATTENTION_H
