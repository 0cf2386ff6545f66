// Loops whose bounds move with an enclosing loop's counter: a stencil's
// area shrinking by one cell a time step (the Rodinia/BAT hotspot kernel's
// temporal tiling, `for (j = ty + it; j < H - it; j += BY)` inside `for (it
// = 1; it <= T; ++it)`). Both front ends took the inner loops' trip counts
// for unknown (16 passes each, 256 a thread where it runs about 8: the PTX
// front end predicted hotspot configurations 2^3-2^9 times flipflop's
// plugin). Now each is counted at every pass of the enclosing loop and
// averaged: thread 0 runs 3, 3, 3, 2 rows (mean 2.75) of 3, 3, 3, 2
// columns at T = 4; at T = 2 on a 324 x 8 tile, 11 then 10 rows of 2 then
// 1 columns. The counter is SCEV's add recurrence of the outer loop, or at
// two passes a PHI of constants that clang runs by a flag (`it = phi [1,
// entry], [2, latch]`), in the IR; a register stepped once a pass, or set
// to a constant in the latch, in the PTX. Both now count the same shared
// loads (91.75 and 95.5 a thread).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s --check-prefixes=CHECK,IR
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s --check-prefixes=CHECK,PTX

// CHECK-LABEL: kernel _Z7shrinkTILi4ELi24ELi72ELi32ELi8EEvPf
// CHECK:       ops: fp32=60.5 {{.*}}load.shared=91.75 store.shared=39.25
// CHECK:       loop: depth=1 line=0 trip=4 exact=yes guessed=no
// IR-NEXT:     loop: depth=2 line=0 trip=2.75 exact=no guessed=no symbolic="the mean over the iterations of the enclosing loop whose counter moves this loop's bounds:
// IR-NEXT:     loop: depth=3 line=0 trip=2.75 exact=no guessed=no symbolic="the mean over the iterations
// PTX-NEXT:    loop: depth=2 line=0 trip=2.75 exact=no guessed=no symbolic="the mean over the 4 passes of the enclosing loop at depth 1, whose counter moves this loop's bounds, thread 0's
// PTX-NEXT:    loop: depth=3 line=0 trip=2.75 exact=no guessed=no symbolic="the mean over the 4 passes
// CHECK-NOT:   guessed=yes
// CHECK-LABEL: end kernel
//
// CHECK-LABEL: kernel _Z7shrinkTILi2ELi324ELi8ELi4ELi32EEvPf
// CHECK:       ops: fp32=63 {{.*}}load.shared=95.5 store.shared=53.5
// CHECK:       loop: depth=1 line=0 trip=2 exact=yes guessed=no
// CHECK-NEXT:  loop: depth=2 line=0 trip=10.5 exact=no guessed=no symbolic="the mean over
// CHECK-NEXT:  loop: depth=3 line=0 trip=1.5 exact=no guessed=no symbolic="the mean over
// CHECK-NOT:   guessed=yes
// CHECK-LABEL: end kernel

template <int T, int H, int W, int BX, int BY>
__global__ void shrinkT(float *out) {
  __shared__ float a[2][H][W];
  int tx = threadIdx.x, ty = threadIdx.y, k = 0;
  for (int j = ty; j < H; j += BY)
    for (int i = tx; i < W; i += BX)
      a[0][j][i] = out[j * W + i];
  __syncthreads();
#pragma unroll 1
  for (int it = 1; it <= T; it++) {
    for (int j = ty + it; j < H - it; j += BY)
      for (int i = tx + it; i < W - it; i += BX)
        a[1 - k][j][i] = a[k][j][i] + a[k][j - 1][i] + a[k][j + 1][i];
    __syncthreads();
    k = 1 - k;
  }
  out[ty * BX + tx] = a[k][ty][tx];
}
template __global__ void shrinkT<4, 24, 72, 32, 8>(float *);
template __global__ void shrinkT<2, 324, 8, 4, 32>(float *);
