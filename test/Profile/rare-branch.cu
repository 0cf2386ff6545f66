// The rare side of a magnitude test (|x| >= 2^16, or infinite) has no
// weight in either front end (docs/MODEL.md, "Rare branches"): libdevice's
// trigonometry branches on one to its slow argument reduction, and data of
// ordinary scale never takes it. A conjunction is rare where one part is
// (the user's loop below, `&& m > 0` added by the optimizer); a loop only
// the rare side runs is not a guess. A test within the data's range
// (|a| >= 100) is counted as any branch.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z10reduce_argPKfPKjPfi
// CHECK:       ops: fp32=3 int={{[0-9]+}} int.mul={{[12]}} load.global=1 store.global=1
// CHECK:       mlp=1
// CHECK:       access: global load bytes=4 count=0 pattern=uniform
// CHECK:       access: local store bytes=4 count=0
// CHECK:       memory: global-read=4 global-written=4 sector-bytes=8 {{.*}} local=0
__global__ void reduce_arg(const float *in, const unsigned *table, float *out,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = in[i];
  float r = a;
  if (__builtin_fabsf(a) >= 105615.0f) {
    volatile unsigned acc[7];
    for (int k = 0; k < 6; ++k)
      acc[k] = table[k] * __builtin_bit_cast(unsigned, a);
    acc[6] = 0;
    r = (float)acc[(__builtin_bit_cast(unsigned, a) >> 23) & 3];
  }
  out[i] = r * 2.0f;
}

// CHECK-LABEL: kernel _Z9user_loopPKfPfii
// CHECK:       ops: fp32=2 int={{[0-9]+}} int.mul={{[12]}} load.global=1 store.global=1
// CHECK:       loop: depth=1 {{.*}} guessed=no
// CHECK:       loop: depth=1 {{.*}} guessed=no
// CHECK-NOT:   guess:
// CHECK:       end kernel _Z9user_loopPKfPfii
__global__ void user_loop(const float *in, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i];
  if (__builtin_fabsf(a) > 1.0e6f)
    for (int k = 0; k < m; ++k)
      a = a * 0.5f + in[k];
  out[i] = a;
}

// CHECK-LABEL: kernel _Z8in_rangePKfPfi
// CHECK:       ops: fp32=3 int={{[0-9]+}} int.mul={{[13]}} load.global=2 store.global=1
__global__ void in_range(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i];
  if (__builtin_fabsf(a) >= 100.0f)
    a = in[i + n] * a;
  out[i] = a;
}

// A loop that ends leaves by one of its exits: the exit on the rare side of
// a magnitude test is no rare edge, and the stores after it run (review:
// they had no weight in both front ends).
// CHECK-LABEL: kernel _Z4growPfS_
// CHECK-COUNT-2: access: global store bytes=4 count=1
// CHECK:       memory: global-read=4 global-written=8
__global__ void grow(float *a, float *o) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[t];
  float s = 0;
  do {
    x = x * 1.5f + 1.0f;
    s += x;
  } while (__builtin_fabsf(x) < 65536.0f);
  o[t] = s;
  o[t + 1000000] = x;
}

// A function called on the rare side and on the common path: its loop is
// guessed once (the IR front end memoises loops: the rare call came first
// and hid the guess).
// CHECK-LABEL: kernel _Z6calledPKfPfi
// CHECK:       guess: {{.*}}sum{{.*}} assumed 16
__device__ __noinline__ float sum(const float *a, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i * 7];
  return s;
}
__global__ void called(const float *a, float *o, int n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[t];
  float r = 0;
  if (__builtin_fabsf(x) > 1e6f)
    r = sum(a + t, n);
  r += sum(a + 2 * t, n);
  o[t] = r;
}
