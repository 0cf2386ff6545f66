//===- Grid.h - CPU references: 5-point stencil, transpose ----------------===//

#ifndef FLIPFLOP_EXAMPLES_REFERENCE_GRID_H
#define FLIPFLOP_EXAMPLES_REFERENCE_GRID_H

#include <cstddef>

namespace flipflop {
namespace examples {
namespace ref {

/// One Jacobi-style sweep of the 5-point stencil on an H x W grid:
/// Out = C0 * centre + C1 * (north + south + west + east) in the interior;
/// boundary points are copied unchanged (Dirichlet boundary).
inline void stencil5(const float *In, float *Out, int H, int W, float C0,
                     float C1) {
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X) {
      size_t I = static_cast<size_t>(Y) * W + X;
      if (Y == 0 || X == 0 || Y == H - 1 || X == W - 1) {
        Out[I] = In[I];
        continue;
      }
      Out[I] = C0 * In[I] + C1 * (In[I - W] + In[I + W] + In[I - 1] + In[I + 1]);
    }
}

/// Out[Cols x Rows] = transpose of In[Rows x Cols] (row-major).
inline void transpose(const float *In, float *Out, int Rows, int Cols) {
  for (int R = 0; R < Rows; ++R)
    for (int C = 0; C < Cols; ++C)
      Out[static_cast<size_t>(C) * Rows + R] = In[static_cast<size_t>(R) * Cols + C];
}

} // namespace ref
} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_REFERENCE_GRID_H
