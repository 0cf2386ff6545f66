//===- Rows.h - CPU references: reduction, softmax, layer norm, saxpy -----===//

#ifndef FLIPFLOP_EXAMPLES_REFERENCE_ROWS_H
#define FLIPFLOP_EXAMPLES_REFERENCE_ROWS_H

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace flipflop {
namespace examples {
namespace ref {

/// Sum of N floats, accumulated in double.
inline double sum(const float *X, size_t N) {
  double Acc = 0;
  for (size_t I = 0; I < N; ++I)
    Acc += X[I];
  return Acc;
}

/// Numerically stable softmax of each row of a Rows x Cols matrix.
inline void softmaxRows(const float *In, float *Out, int Rows, int Cols) {
  for (int R = 0; R < Rows; ++R) {
    const float *X = In + static_cast<size_t>(R) * Cols;
    float *Y = Out + static_cast<size_t>(R) * Cols;
    double Max = -INFINITY;
    for (int C = 0; C < Cols; ++C)
      Max = std::max(Max, static_cast<double>(X[C]));
    double Sum = 0;
    for (int C = 0; C < Cols; ++C)
      Sum += std::exp(X[C] - Max);
    for (int C = 0; C < Cols; ++C)
      Y[C] = static_cast<float>(std::exp(X[C] - Max) / Sum);
  }
}

/// Layer normalisation of each row: Y = (X - mean) / sqrt(var + Eps) * Gamma
/// + Beta, with the biased (population) variance, as in PyTorch.
inline void layerNorm(const float *In, const float *Gamma, const float *Beta,
                      float *Out, int Rows, int Cols, float Eps) {
  for (int R = 0; R < Rows; ++R) {
    const float *X = In + static_cast<size_t>(R) * Cols;
    float *Y = Out + static_cast<size_t>(R) * Cols;
    double Mean = 0;
    for (int C = 0; C < Cols; ++C)
      Mean += X[C];
    Mean /= Cols;
    double Var = 0;
    for (int C = 0; C < Cols; ++C)
      Var += (X[C] - Mean) * (X[C] - Mean);
    Var /= Cols;
    double InvStd = 1.0 / std::sqrt(Var + Eps);
    for (int C = 0; C < Cols; ++C)
      Y[C] = static_cast<float>((X[C] - Mean) * InvStd * Gamma[C] + Beta[C]);
  }
}

/// Out-of-place saxpy: Z = A * X + Y.
inline void saxpy(float A, const float *X, const float *Y, float *Z,
                  size_t N) {
  for (size_t I = 0; I < N; ++I)
    Z[I] = A * X[I] + Y[I];
}

} // namespace ref
} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_REFERENCE_ROWS_H
