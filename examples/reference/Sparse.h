//===- Sparse.h - CPU references: CSR SpMV, byte histogram ----------------===//

#ifndef FLIPFLOP_EXAMPLES_REFERENCE_SPARSE_H
#define FLIPFLOP_EXAMPLES_REFERENCE_SPARSE_H

#include "Inputs.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace flipflop {
namespace examples {
namespace ref {

/// A sparse matrix in compressed sparse row form.
struct CsrMatrix {
  int Rows = 0, Cols = 0;
  std::vector<int> RowPtr; ///< Rows + 1 offsets into ColIdx/Values.
  std::vector<int> ColIdx; ///< Sorted within each row.
  std::vector<float> Values;
};

/// A deterministic N x N matrix with an irregular row length: row R holds
/// its diagonal plus between 0 and 2 * AvgExtra - 1 further entries at
/// random columns (duplicates merged), so rows differ in length and the
/// scalar kernel's threads diverge, as in real sparse matrices.
inline CsrMatrix randomCsr(int N, int AvgExtra, uint64_t Seed) {
  Lcg G(Seed);
  CsrMatrix M;
  M.Rows = M.Cols = N;
  M.RowPtr.reserve(N + 1);
  M.RowPtr.push_back(0);
  std::vector<int> Cols;
  for (int R = 0; R < N; ++R) {
    int Extra = AvgExtra > 0 ? static_cast<int>(G.next() % (2u * AvgExtra)) : 0;
    Cols.assign(1, R);
    for (int E = 0; E < Extra; ++E)
      Cols.push_back(static_cast<int>(G.next() % static_cast<uint32_t>(N)));
    std::sort(Cols.begin(), Cols.end());
    Cols.erase(std::unique(Cols.begin(), Cols.end()), Cols.end());
    for (int C : Cols) {
      M.ColIdx.push_back(C);
      M.Values.push_back(G.uniform(-1.0f, 1.0f));
    }
    M.RowPtr.push_back(static_cast<int>(M.ColIdx.size()));
  }
  return M;
}

/// Y = M * X, accumulated in double.
inline void spmv(const CsrMatrix &M, const float *X, float *Y) {
  for (int R = 0; R < M.Rows; ++R) {
    double Acc = 0;
    for (int P = M.RowPtr[R]; P < M.RowPtr[R + 1]; ++P)
      Acc += static_cast<double>(M.Values[P]) * X[M.ColIdx[P]];
    Y[R] = static_cast<float>(Acc);
  }
}

/// Counts of each byte value (256 bins).
inline void histogram256(const unsigned char *Data, size_t N,
                         unsigned *Bins) {
  std::fill(Bins, Bins + 256, 0u);
  for (size_t I = 0; I < N; ++I)
    ++Bins[Data[I]];
}

} // namespace ref
} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_REFERENCE_SPARSE_H
