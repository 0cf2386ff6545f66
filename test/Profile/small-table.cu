// A gather from a global array of declared size (a lookup table) knows the
// array's bytes in both front ends (MemAccess::FootprintBytes, `table=`):
// no request touches more of its sectors, and a table of up to 16 KB stays
// in L1 and L2 (docs/MODEL.md, "Small tables"). A pointer argument's
// array has no known size.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

__device__ float lut[256];

// CHECK-LABEL: kernel _Z6lookupPKjPf
// CHECK:       access: global load bytes={{[14]}} count=1 pattern={{coalesced|strided}}
// CHECK-NOT:   table=
// CHECK:       access: global load bytes=4 count=1 pattern=unknown {{.*}} data table=1024
// CHECK:       access: global store
// CHECK-NOT:   table=
// CHECK:       end kernel
__global__ void lookup(const unsigned *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = lut[idx[i] & 255];
}

// CHECK-LABEL: kernel _Z10lookup_argPKjPKfPf
// CHECK-NOT:   table=
// CHECK:       end kernel
__global__ void lookup_arg(const unsigned *idx, const float *t, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = t[idx[i] & 255];
}
