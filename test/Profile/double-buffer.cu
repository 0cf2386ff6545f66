// A pointer chosen between two shared arrays (a double buffer swapped on
// every step of a temporal loop, `a = it & 1 ? t0 : t1`) is a shared
// pointer: the back end's address-space inference makes its loads
// `ld.shared`, but the IR the plugin reads still has generic (flat)
// pointers through a select. Before session 18 the IR front end counted
// them as generic accesses, which the model charges as global traffic (a
// hotspot-style stencil with ten steps: 180 generic loads and 40 generic
// stores where the PTX has shared ones, predicted 1.9x slower by the plugin
// than by flipflop-ptx). Both front ends now count shared loads and stores.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z5stepsPKfPf
// CHECK-NOT:   load.generic
// CHECK-NOT:   store.generic
// CHECK:       ops: {{.*}}load.shared={{[1-9]}}
// CHECK-SAME:  store.shared={{[1-9]}}
// CHECK:       end kernel
__global__ void steps(const float *in, float *out) {
  __shared__ float t0[34][34];
  __shared__ float t1[34][34];
  int x = threadIdx.x + 1, y = threadIdx.y + 1;
  t0[y][x] = in[(blockIdx.y * 32 + threadIdx.y) * 4096 + blockIdx.x * 32 + threadIdx.x];
  t1[y][x] = 0.f;
  __syncthreads();
#pragma unroll 1
  for (int it = 0; it < 8; it++) {
    float(*a)[34] = (it & 1) ? t1 : t0;
    float(*b)[34] = (it & 1) ? t0 : t1;
    b[y][x] = 0.25f * (a[y - 1][x] + a[y + 1][x] + a[y][x - 1] + a[y][x + 1]);
    __syncthreads();
  }
  out[(blockIdx.y * 32 + threadIdx.y) * 4096 + blockIdx.x * 32 + threadIdx.x] = t0[y][x];
}
