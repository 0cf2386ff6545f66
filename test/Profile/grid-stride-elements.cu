// A grid-stride loop over a stated number of elements (CUDA samples'
// histogram256: `for (pos = tid + bid * bdim; pos < n; pos += bdim *
// gdim)`) runs n / (grid x block) passes. Both front ends marked it
// grid-stride, and the model took the problem size for the launched
// threads (or its default) whatever n was: 16M elements on 240 x 256
// threads predicted as one pass, 4.7 us, launch-bound (64 MiB read: about
// 150 us). Its elements are now its count with one thread in the grid
// (`elements=`), the problem size where none is stated, and no longer a
// guess: 364 passes,
// DRAM-bound; at n = 61440 = 240 x 256, one pass, as before. The PTX
// front end counts past 2^20 passes by bisection.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=16777216 %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=16777216 %t.ptx | FileCheck %s
// RUN: flipflop-ptx --no-ptxas --gpu RTX-A4000 --block 256 --grid 240 --arg 2=16777216 %t.ptx | FileCheck %s --check-prefix=BIG
// RUN: flipflop-ptx --no-ptxas --gpu RTX-A4000 --block 256 --grid 240 --arg 2=61440 %t.ptx | FileCheck %s --check-prefix=SMALL
// Two grid-stride loops nested (rows, then columns) each know only their
// own extent: neither is the problem size (a review of this change found
// the rows taken for it), so the prediction does not depend on which of
// the two is the larger (within 1%: the row loop steps over blocks, and
// the address forms round each loop's passes up).
// RUN: flipflop-ptx --no-ptxas --gpu RTX-A4000 --block 256 --grid 240 --kernel _Z4gs2dPKfPfii --arg 2=1048576 --arg 3=1024 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.both
// RUN: flipflop-ptx --no-ptxas --gpu RTX-A4000 --block 256 --grid 240 --kernel _Z4gs2dPKfPfii --arg 2=1024 --arg 3=1048576 --csv %t.ptx | tail -1 | cut -d, -f14 >> %t.both
// RUN: %python -c "import sys; t = [float(l) for l in open(r'%t.both')]; print(t); sys.exit(0 if len(t) == 2 and t[0] > 5e-3 and abs(t[1] / t[0] - 1) < 0.01 else 1)"

// CHECK-LABEL: kernel _Z10gridstridePKfPfj
// CHECK:       loop: depth=1 line=0 trip={{[0-9]+}} exact=no guessed=no grid-stride elements=1.67772e+07 symbolic="16777216 elements over the launched threads
// CHECK-NOT:   guess:
// CHECK-LABEL: kernel _Z4gs2dPKfPfii
// CHECK:       loop: depth=2 line=0 trip={{[0-9]+}} exact=no guessed=no grid-stride
// CHECK-SAME:  stride-dims=x
// A loop over rows by blocks (`r += gridDim.x`, the block's threads
// sharing each row): its elements are the rows, units of a block, where
// both front ends had taken it for a loop over the launched threads (the
// PTX front end, from the row's own loop stepped by blockDim.x) or guessed
// it (the IR front end, its count reading gridDim).
// CHECK-LABEL: kernel _Z6rowsumPKfPfi
// CHECK:       loop: depth=1 line=0 trip={{[0-9]+}} exact=no guessed=no grid-stride-blocks elements=1.67772e+07 symbolic="16777216 units of a block over the launched blocks
// CHECK-NOT:   guess:
// BIG:   bound by dram
// SMALL: bound by launch
__global__ void gridstride(const float *x, float *y, unsigned n) {
  float s = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    s += x[i];
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void gs2d(const float *x, float *y, int w, int h) {
  float s = 0;
  for (int r = blockIdx.y; r < h; r += gridDim.y)
    for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < w;
         c += blockDim.x * gridDim.x)
      s += x[(long)r * w + c];
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void rowsum(const float *x, float *y, int rows) {
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    float s = 0;
    for (int c = threadIdx.x; c < 512; c += blockDim.x)
      s += x[(long)r * 512 + c];
    y[(long)r * blockDim.x + threadIdx.x] = s;
  }
}
