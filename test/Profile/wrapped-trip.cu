// A loop whose count is negative where its guard fails: masking the tail of
// a 4-wide vector, `if (col + 4 > k) for (i = 0; i < col + 4 - k; ++i)`,
// with size_t counters (leimao's CUDA-GEMM-Optimization vectorised loads).
// Evaluated at a point where the guard fails, the count (col + 4 - k) wraps
// through the unsigned division of the rolled remainder loop, and the IR
// front end counted 2^62 passes: 4.6e12 integer instructions a thread, a
// GEMM predicted at 3e7 seconds. A count above 2^40 passes is a wrapped
// negative one: no pass, as a negative count is.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: env FLIPFLOP_ARGS=2=4096,3=256 %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg=2=4096,3=256 %t.ptx | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: kernel _Z4tailPK2f4Pfmm
// CHECK: ops: fp32=1024 int={{[0-9]+}} {{.*}}branch={{[0-9]+$}}
// CHECK: loop: depth=1 line={{[0-9]+}} trip=256
// CHECK-NOT: trip={{[0-9.]+}}e+
// CHECK: end kernel
// PTX-LABEL: kernel _Z4tailPK2f4Pfmm
// PTX-NOT: e+{{[0-9]+}}
// PTX: end kernel
#include <cstddef>
struct __attribute__((aligned(16))) f4 {
  float x, y, z, w;
};
__global__ void tail(const f4 *a, float *out, size_t k, size_t tiles) {
  float acc = 0;
  for (size_t t = 0; t < tiles; ++t) {
    size_t col = t * 16 + (threadIdx.x % 4) * 4;
    f4 v = a[col / 4];
    if (col + 4 > k) {
      float *p = reinterpret_cast<float *>(&v);
      for (size_t i = 0; i < col + 4 - k; ++i)
        p[3 - i] = 0;
    }
    acc += v.x + v.y + v.z + v.w;
  }
  out[threadIdx.x] = acc;
}
