// A tile loaded through a flattened thread index at a runtime row pitch,
// A[(r0 + t / 16) * lda + k0 + t % 16] with lda not stated (gemm_regblock's
// A tile): a warp reads two rows of 16 floats, 64 bytes each, an unknown
// distance apart. Both front ends take the pitch as far (rows=16xfar): 4
// sectors per request, and the model's L1 counts the two rows' lines (2
// wavefronts), where before the IR front end had a symbolic stride (32
// sectors, 1 wavefront) and the PTX front end an unknown pattern (32
// sectors, 8 wavefronts). A lane index times the pitch (t * lda) is every
// lane a far pitch apart: a sector (and a line) per lane.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z4tilePKfPfii
// CHECK: access: global load bytes=4 count=1 pattern=strided stride=4 rows=16xfar sectors=4
// CHECK-LABEL: kernel _Z6columnPKfPfi
// CHECK: access: global load bytes=4 count=1 pattern=strided stride=far sectors=32
__global__ void tile(const float *A, float *out, int lda, int k0) {
  int t = threadIdx.y * 16 + threadIdx.x;
  int r0 = blockIdx.y * 64;
  out[t] = A[(r0 + t / 16) * lda + k0 + t % 16];
}

__global__ void column(const float *A, float *out, int lda) {
  int t = threadIdx.x;
  out[t] = A[t * lda];
}
