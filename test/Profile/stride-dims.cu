// A grid-stride loop over x whose other dimensions repeat the range: each
// blockIdx.y picks a row (CUDA samples' SobolQRNG, grid 256 x 100) or each
// threadIdx.y writes its own copy (quasirandomGenerator, block 128 x 3).
// Both front ends took the passes for the elements over every launched
// thread, y included: 100 rows of 100000 floats predicted at 5.2 us, as
// one row (40 MB written: about 100 us); block 128 x 3 as fast as 128.
// The step's dimensions are now read (`stride-dims=`, LoopRecord::
// GridStrideDims) and only those threads share the range.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=1=100000 %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 1=100000 %t.ptx | FileCheck %s
// RUN: flipflop-ptx --no-ptxas --gpu RTX-A4000 --kernel _Z4rowsPfj --block 64 --grid 256,100 --arg 1=100000 %t.ptx | FileCheck %s --check-prefix=ROWS
// RUN: flipflop-ptx --no-ptxas --gpu RTX-A4000 --kernel _Z6copiesPfj --block 128,3 --grid 128 --arg 1=1048576 %t.ptx | FileCheck %s --check-prefix=COPIES3
// RUN: flipflop-ptx --no-ptxas --gpu RTX-A4000 --kernel _Z6copiesPfj --block 128 --grid 128 --arg 1=1048576 %t.ptx | FileCheck %s --check-prefix=COPIES1

// CHECK-LABEL: kernel _Z4rowsPfj
// CHECK:       loop: {{.*}} grid-stride {{.*}} stride-dims=x{{$}}
// ROWS:        time 0.000{{[1-9]}}{{.*}} bound by dram
__global__ void rows(float *o, unsigned n) {
  o += n * blockIdx.y;
  for (unsigned i = threadIdx.x + blockIdx.x * blockDim.x; i < n;
       i += gridDim.x * blockDim.x)
    o[i] = i;
}

// CHECK-LABEL: kernel _Z6copiesPfj
// CHECK:       loop: {{.*}} grid-stride {{.*}} stride-dims=x{{$}}
// Three copies: 12.6 MB written, three times one copy's time.
// COPIES3:     time 4.{{[0-9]+}}e-05 s
// COPIES1:     time 1.{{[0-9]+}}e-05 s
__global__ void copies(float *o, unsigned N) {
  unsigned tid = blockDim.x * blockIdx.x + threadIdx.x;
  unsigned threadN = blockDim.x * gridDim.x;
  for (unsigned pos = tid; pos < N; pos += threadN)
    o[threadIdx.y * N + pos] = pos;
}

// CHECK-LABEL: kernel _Z4flatPfj
// CHECK:       loop: {{.*}} grid-stride {{.*}} stride-dims=xy{{$}}
__global__ void flat(float *o, unsigned n) {
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * blockIdx.x);
  for (unsigned i = t; i < n; i += blockDim.x * blockDim.y * gridDim.x)
    o[i] = i;
}
