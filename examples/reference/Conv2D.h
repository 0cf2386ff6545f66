//===- Conv2D.h - CPU reference for the 2-D convolution examples ----------===//

#ifndef FLIPFLOP_EXAMPLES_REFERENCE_CONV2D_H
#define FLIPFLOP_EXAMPLES_REFERENCE_CONV2D_H

#include <cstddef>

namespace flipflop {
namespace examples {
namespace ref {

/// "Same" 2-D convolution (cross-correlation, as in CNNs) of an H x W image
/// with a (2R+1) x (2R+1) filter, zero padding outside the image:
/// Out[y][x] = sum_{i,j in [-R,R]} In[y+i][x+j] * F[i+R][j+R].
inline void conv2d(const float *In, float *Out, int H, int W, const float *F,
                   int R) {
  const int FW = 2 * R + 1;
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X) {
      double Acc = 0;
      for (int I = -R; I <= R; ++I)
        for (int J = -R; J <= R; ++J) {
          int YY = Y + I, XX = X + J;
          if (YY < 0 || YY >= H || XX < 0 || XX >= W)
            continue;
          Acc += static_cast<double>(In[static_cast<size_t>(YY) * W + XX]) *
                 F[(I + R) * FW + (J + R)];
        }
      Out[static_cast<size_t>(Y) * W + X] = static_cast<float>(Acc);
    }
}

} // namespace ref
} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_REFERENCE_CONV2D_H
