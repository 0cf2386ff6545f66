// FF015: a per-thread array that stays in local memory, with what keeps it
// there, costed at the recommendation. The IR front end counts its accesses
// as local memory (not registers) in its own function too, as clang's PTX
// has them; an array with constant indices only stays out of it.
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t.ptx -mllvm -flipflop-gpu=A100-SXM4-40GB -Rpass-missed=flipflop 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o /dev/null -mllvm -flipflop-gpu=A100-SXM4-40GB -fsave-optimization-record -foptimization-record-file=%t.yaml
// RUN: FileCheck %s --check-prefix=YAML < %t.yaml
// RUN: rm -rf %t.r && env FLIPFLOP_REPORT_DIR=%t.r %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o /dev/null -mllvm -flipflop-gpu=A100-SXM4-40GB
// RUN: cat %t.r/*.json | FileCheck %s --check-prefix=JSON
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s --check-prefix=PROFILE
#include "ff_cuda.h"

// The array is passed to a device function that is not inlined, every
// iteration: it lives in memory in the loop.
__device__ __attribute__((noinline)) void scale(float *acc, float s) {
  for (int k = 0; k < 16; ++k)
    acc[k] *= s;
}

__global__ void accum(const float *a, float *out) {
  float acc[16];
  for (int k = 0; k < 16; ++k)
    acc[k] = 0;
  for (int j = 0; j < 64; ++j) {
#pragma unroll
    for (int k = 0; k < 16; ++k)
      acc[k] += a[(j * blockDim.x + threadIdx.x) * 16 + k];
    scale(acc, 0.5f);
  }
  for (int k = 0; k < 16; ++k)
    out[(blockIdx.x * blockDim.x + threadIdx.x) * 16 + k] = acc[k];
}

// Indexed by loaded data: local memory, but its traffic is small next to the
// global loads (two per update), so no remark (below 2% of the time).
__global__ void histogram(const int *in, float *out) {
  float h[32];
  for (int k = 0; k < 32; ++k)
    h[k] = 0;
  for (int j = 0; j < 256; ++j)
    h[(in[j * blockDim.x + threadIdx.x] ^
       in[(j + 256) * blockDim.x + threadIdx.x]) & 31] += 1.0f;
  for (int k = 0; k < 32; ++k)
    out[k * blockDim.x + threadIdx.x] = h[k];
}

// Constant indices only: registers.
__global__ void registers(const float *a, float *out) {
  float t[8];
#pragma unroll
  for (int k = 0; k < 8; ++k)
    t[k] = a[k * blockDim.x + threadIdx.x];
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    s += t[k] * t[7 - k];
  out[threadIdx.x] = s;
}

// REMARK: remark: [FF015] kernel 'accum(float const*, float*)': a 64-byte per-thread array in 'accum(float const*, float*)' stays in local memory: its local loads and stores are up to {{[1-9][0-9]?}}% of the predicted time at block {{[0-9x]+}}; it is passed to 'scale(float*, float)', which was not inlined: force-inline it (__forceinline__) so the array can live in registers
// REMARK-NOT: [FF015]

// YAML:      Name: FF015
// YAML:        - ArrayBytes: '64'
// YAML:        - Holder: 'accum(float const*, float*)'
// YAML:        - LocalSharePct: '{{[1-9][0-9]?}}'
// YAML:        - Callee: 'scale(float*, float)'

// JSON: "local_arrays": [
// JSON-NEXT: {
// JSON-NEXT: "bytes": 64,
// JSON-NEXT: "function": "accum(float const*, float*)",
// JSON-NEXT: "passed_to": "scale(float*, float)"
// JSON: "local_arrays": [
// JSON-NEXT: {
// JSON-NEXT: "bytes": 128,
// JSON-NEXT: "function": "histogram(int const*, float*)",
// JSON-NEXT: "indexed_at_run_time": true
// JSON: "local_arrays": []

// PTX-LABEL: .entry _Z5accumPKfPf(
// PTX: ld.local.{{[bf]}}32
// PTX-LABEL: .entry _Z9histogramPKiPf(
// PTX: ld.local.{{[bf]}}32
// PTX-LABEL: .entry _Z9registersPKfPf(
// PTX-NOT: .local

// PROFILE-LABEL: kernel _Z5accumPKfPf
// PROFILE: ops: {{.*}} load.local={{[0-9]+}} store.local={{[0-9]+}}
// PROFILE: local-array: bytes=64 in='accum(float const*, float*)' passed-to='scale(float*, float)'
// PROFILE-LABEL: kernel _Z9histogramPKiPf
// PROFILE: ops: {{.*}} load.local={{[0-9]+}} store.local={{[0-9]+}}
// PROFILE: local-array: bytes=128 in='histogram(int const*, float*)' indexed
// PROFILE-LABEL: kernel _Z9registersPKfPf
// PROFILE-NOT: {{local-array:|load.local|store.local}}
// PROFILE: end kernel
