// A nest of grid-stride loops, columns over the grid's threads along x
// around rows over those along y (HeCBench's histogram_smem_atomics):
// 1920 x 1080 floats read and written once, 16.6 MB, as the one-pixel-a-
// thread kernel beside it. The PTX front end took the inner loop's step
// for the outer loop's (stride-dims=y for the columns), and the model
// divided the first loop's elements only: 4.7 MB moved, 16.8 us on an RTX
// A4000 where the flat kernel takes 48. Each loop of the nest now divides
// its own elements by the threads along its own dimensions.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=1920,3=1080 %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=1920,3=1080 %t.ptx | FileCheck %s
// RUN: flipflop-ptx --no-ptxas --kernel _Z6copy2dPKfPfii --gpu RTX-A4000 --block 32,4 --grid 16,16 --arg 2=1920,3=1080 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.nest
// RUN: flipflop-ptx --no-ptxas --kernel _Z11copy2d_flatPKfPfii --gpu RTX-A4000 --block 32,4 --grid 60,270 --arg 2=1920,3=1080 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.flat
// RUN: %python -c "import sys; a = float(open(r'%t.nest').read()); b = float(open(r'%t.flat').read()); print(a, b); sys.exit(0 if 0.9 * b <= a <= 1.4 * b else 1)"

// Grid-stride loops one after the other are no nest (review: a loop over
// repetitions around the second made one of 10^12 elements, 275 GB).
// RUN: flipflop-ptx --no-ptxas --kernel _Z8withrepsPfS_iii --gpu RTX-A4000 --block 32,32 --grid 32,32 --arg 2=1048576,3=1048576,4=1 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.reps
// RUN: flipflop-ptx --no-ptxas --kernel _Z7flatseqPfS_iii --gpu RTX-A4000 --block 32,32 --grid 32,32 --arg 2=1048576,3=1048576,4=1 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.seq
// RUN: %python -c "import sys; a = float(open(r'%t.reps').read()); b = float(open(r'%t.seq').read()); print(a, b); sys.exit(0 if a <= 1.5 * b else 1)"

// CHECK-LABEL: kernel _Z6copy2dPKfPfii
// CHECK:       loop: depth=1 {{.*}} grid-stride elements=1920 {{.*}} stride-dims=x
// CHECK-NEXT:  loop: depth=2 {{.*}} grid-stride elements=1080 {{.*}} stride-dims=y
__global__ void copy2d(const float *in, float *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int nx = blockDim.x * gridDim.x;
  int ny = blockDim.y * gridDim.y;
  for (int col = x; col < width; col += nx)
#pragma unroll 1
    for (int row = y; row < height; row += ny)
      out[row * width + col] = in[row * width + col];
}
__global__ void copy2d_flat(const float *in, float *out, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < width && row < height)
    out[row * width + col] = in[row * width + col];
}
__global__ void flatseq(float *a, float *b, int n, int m, int reps) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    a[i] = 0.f;
#pragma unroll 1
  for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < m;
       j += blockDim.y * gridDim.y)
    b[j] += 1.f;
}
__global__ void withreps(float *a, float *b, int n, int m, int reps) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    a[i] = 0.f;
#pragma unroll 1
  for (int r = 0; r < reps; r++)
#pragma unroll 1
    for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < m;
         j += blockDim.y * gridDim.y)
      b[j] += 1.f;
}
