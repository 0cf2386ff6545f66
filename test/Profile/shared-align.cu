// Scalar shared accesses that ptxas merges: four floats a thread stores at
// s[4t .. 4t+3] are one 16-byte store once ptxas has placed the array
// (16-byte aligned) and proved 4t * 4 a multiple of 16 from the address's
// arithmetic; the PTX front end reads clang's PTX so (provenAlign,
// docs/MODEL.md "Vector accesses the compiler forms"), and the IR front end
// takes the same proof from the index's known low zero bits (`fixed`). An
// address that a loop steps is a register of several definitions in the
// PTX; ptxas 13 proves it aligned from its start and step and emits one
// STS.128 (`stepped`), and since session 52 both front ends merge it so.
// Binaries of NVIDIA's OpenCL driver behave as if it stayed scalar (the
// measured CLBlast tiles), which FLIPFLOP_FIT_ASSEMBLER=opencl-driver gives.
// Both front ends give the same, the PTX one on llc's PTX of the same IR.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s
// RUN: env FLIPFLOP_FIT_ASSEMBLER=opencl-driver %profile %t.ll | FileCheck %s --check-prefix=OPENCL
// RUN: env FLIPFLOP_FIT_ASSEMBLER=opencl-driver flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s --check-prefix=OPENCL

// CHECK-LABEL: kernel _Z5fixedPKfPf
// CHECK: access: shared store bytes=16 count=1
// CHECK-NOT: access: shared store bytes=4
// CHECK-LABEL: kernel _Z7steppedPKfPfi
// CHECK: access: shared store bytes=16 count=16
// CHECK-NOT: access: shared store bytes=4
// OPENCL-LABEL: kernel _Z7steppedPKfPfi
// OPENCL: access: shared store bytes=4
// Two 8-byte halves at +0 and +8 of an address ptxas proves 16-byte
// aligned (clang's PTX: two st.shared.b64): the PTX front end merges 32-bit
// scalars only, and since session 23 so does the IR front end's use of
// ptxas's proof (before, the IR made them one 16-byte store: 2 shared
// wavefronts against the PTX front end's 5 on the same binary).
// CHECK-LABEL: kernel _Z6halvesPK2f2Pf
// CHECK: access: shared store bytes=8 count=1
// CHECK: access: shared store bytes=8 count=1
// CHECK: shared-wavefronts=5
__global__ void fixed(const float *in, float *out) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  s[4 * t] = in[t];
  s[4 * t + 1] = in[t + 256];
  s[4 * t + 2] = in[t + 512];
  s[4 * t + 3] = in[t + 768];
  __syncthreads();
  out[t] = s[(t * 7) % 1024];
}

__global__ void stepped(const float *in, float *out, int n) {
  __shared__ float s[4096];
  int t = threadIdx.x;
  for (int k = 0; k < n; ++k) {
    int i = 4 * (t + 64 * k);
    s[i] = in[i];
    s[i + 1] = in[i + 1];
    s[i + 2] = in[i + 2];
    s[i + 3] = in[i + 3];
  }
  __syncthreads();
  out[t] = s[(t * 7) % 4096];
}

struct __attribute__((aligned(8))) f2 { float x, y; };
__global__ void halves(const f2 *b, float *out) {
  __shared__ f2 tile[512];
  int t = threadIdx.x;
  tile[2 * t] = b[2 * t];
  tile[2 * t + 1] = b[2 * t + 1];
  __syncthreads();
  f2 v = tile[(t + 1) % 512];
  out[t] = v.x * v.y;
}
