// Rows of a 2-D block: threadIdx.y picks a row of 1024 floats and the
// row is read by a loop stepped by blockDim.x (a warp or a few a row, as
// ML kernels sum or normalise short rows). The model scaled a block-stride
// loop's passes by the block's threads (the reference is 256 x 1 x 1): in
// a 32 x 8 block it kept 4 passes a thread where each runs 32, and 32768
// rows (128 MB) were predicted at 40 us on an RTX A4000, as 4096 rows in
// 1-D blocks are. The loop now says the dimensions its step spans (x),
// and its passes follow the block's threads along them.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=1024,3=32768 %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=1024,3=32768 %t.ptx | FileCheck %s
// CHECK: loop: depth=1 {{.*}} block-stride {{.*}}stride-dims=x{{$}}
//
// 32768 rows in 32 x 8 blocks, 16384 in 32 x 4, 4096 in 256 x 1: the
// times follow the rows (within 10%).
// RUN: flipflop-ptx --no-ptxas --kernel _Z8rowsum2dPKfPfii --gpu RTX-A4000 --block 32,8 --grid 4096 --arg 2=1024,3=32768 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.t8
// RUN: flipflop-ptx --no-ptxas --kernel _Z8rowsum2dPKfPfii --gpu RTX-A4000 --block 32,4 --grid 4096 --arg 2=1024,3=32768 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.t4
// RUN: flipflop-ptx --no-ptxas --kernel _Z8rowsum2dPKfPfii --gpu RTX-A4000 --block 256 --grid 4096 --arg 2=1024,3=32768 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.t1
// RUN: %python -c "import sys; t8, t4, t1 = (float(open(r'%t.' + n).read()) for n in ('t8', 't4', 't1')); print(t8, t4, t1); sys.exit(0 if abs(t8 / t1 / 8 - 1) < 0.1 and abs(t4 / t1 / 4 - 1) < 0.1 else 1)"
__global__ void rowsum2d(const float *__restrict__ x, float *__restrict__ y,
                         int n, int rows) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= rows)
    return;
  float s = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += x[(long)row * n + i];
  y[row * blockDim.x + threadIdx.x] = s;
}

// Column sums: x picks the column and a loop stepped by blockDim.y walks
// the 8192 rows. The PTX front end divided the bound by the reference
// block's 256 threads along x (32 passes) where the reference is one
// thread along y (8192 passes); the IR front end counted 8192 and the
// model kept them in a 32 x 8 block (8x over): 29 us against 6.2 ms for
// 256 MB read. Both now 1024 passes a thread in a 32 x 8 block, and the
// same time in 32 x 4 and 32 x 16 blocks (within 5%).
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=8192,3=8192 --kernel _Z6colsumPKfPfii %t.ptx | FileCheck %s --check-prefix=COLS
// RUN: %profile -flipflop-args=2=8192,3=8192 %t.ll | FileCheck %s --check-prefix=COLS-IR
// COLS:    loop: depth=1 {{.*}} trip=8192 {{.*}} block-stride symbolic="8192 / blockDim.y" stride-dims=y{{$}}
// COLS-IR-LABEL: kernel _Z6colsumPKfPfii
// COLS-IR: loop: depth=1 {{.*}} trip=8192 {{.*}} block-stride {{.*}}stride-dims=y{{$}}
// RUN: flipflop-ptx --no-ptxas --kernel _Z6colsumPKfPfii --gpu RTX-A4000 --block 32,8 --grid 256 --arg 2=8192,3=8192 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.c8
// RUN: flipflop-ptx --no-ptxas --kernel _Z6colsumPKfPfii --gpu RTX-A4000 --block 32,4 --grid 256 --arg 2=8192,3=8192 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.c4
// RUN: flipflop-ptx --no-ptxas --kernel _Z6colsumPKfPfii --gpu RTX-A4000 --block 32,16 --grid 256 --arg 2=8192,3=8192 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.c16
// RUN: %python -c "import sys; t = [float(open(r'%t.' + n).read()) for n in ('c8', 'c4', 'c16')]; print(t); sys.exit(0 if max(t) < 1.05 * min(t) and 4.5e-4 < t[0] < 1.5e-3 else 1)"
__global__ void colsum(const float *__restrict__ x, float *__restrict__ y,
                       int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int r = threadIdx.y; r < rows; r += blockDim.y)
    s += x[(long)r * cols + col];
  y[col * blockDim.y + threadIdx.y] = s;
}

// The same walk through a pointer stepped by blockDim.y rows (review): the
// loop's own counters' smallest step is the count's, not the first add
// found in the loop (the pointer's 32768 bytes a pass gave 1 pass).
// A loop stepped by blockDim.x * blockDim.y falls along both dimensions:
// the IR front end said x only, and a 32 x 8 block ran 8x the passes.
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=8192,3=8192 --kernel _Z7colsumpPKfPfii %t.ptx | FileCheck %s --check-prefix=COLP
// COLP: loop: depth=1 {{.*}} trip=8192 {{.*}} block-stride symbolic="8192 / blockDim.y" stride-dims=y{{$}}
// RUN: %profile -flipflop-args=2=1024 %t.ll | FileCheck %s --check-prefix=FLAT-IR
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=1024 --kernel _Z4flatPKfPfi %t.ptx | FileCheck %s --check-prefix=FLAT
// FLAT-IR-LABEL: kernel _Z4flatPKfPfi
// FLAT-IR: loop: depth=1 {{.*}} block-stride {{.*}}stride-dims=xy{{$}}
// FLAT: loop: depth=1 {{.*}} block-stride {{.*}}stride-dims=xy{{$}}
__global__ void colsump(const float *__restrict__ x, float *__restrict__ y,
                        int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = x + (long)threadIdx.y * cols + col;
  float s = 0.f;
  for (int r = threadIdx.y; r < rows; r += blockDim.y, p += blockDim.y * cols)
    s += *p;
  y[col * blockDim.y + threadIdx.y] = s;
}
__global__ void flat(const float *__restrict__ x, float *__restrict__ y, int n) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  for (int i = t; i < n; i += blockDim.x * blockDim.y)
    y[(long)blockIdx.x * n + i] = 2.f * x[(long)blockIdx.x * n + i];
}
