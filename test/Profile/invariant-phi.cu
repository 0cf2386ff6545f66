// A row whose base the loop changes by a non-affine step (CUDA samples'
// dwtHaar1D: `n >>= 1` each level, `od[n * gridDim.x + blockIdx.x * n +
// threadIdx.x]`) is coalesced whatever n is: n is the same on every lane.
// The IR front end's stride of the PHI followed the cycle's step, which a
// shift leaves unknown, and read each copy as a 32-sector gather (the
// plugin 208 us against the PTX route's 29.6 us on an RTX A4000). A PHI
// computed only from constants, arguments and block-wide registers is now
// stride 0.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=1=10 %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 1=10 %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z6levelsPfj
// CHECK-NOT:   pattern=unknown
// CHECK:       access: global store bytes=4 count={{[0-9.]+}} pattern=coalesced stride=4 sectors=4
// CHECK-NOT:   pattern=unknown
// CHECK:       memory: {{.*}} uncoalesced=0
__global__ void levels(float *od, unsigned levels) {
  unsigned n = 256;
  for (unsigned i = 1; i < levels; ++i) {
    od[n * gridDim.x + blockIdx.x * n + threadIdx.x] = i;
    n >>= 1;
  }
}

// A PHI that takes a lane's value stays a lane's: `j` moves with the
// thread, so the gather is still one.
// CHECK-LABEL: kernel _Z7chasingPKjPfj
// CHECK:       pattern=unknown
__global__ void chasing(const unsigned *next, float *o, unsigned steps) {
  unsigned j = threadIdx.x;
  for (unsigned i = 0; i < steps; ++i)
    j = (j * 7 + 3) % 1024;
  o[j] = steps;
}
