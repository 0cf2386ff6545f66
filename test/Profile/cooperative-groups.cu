// Real-world CUDA with the toolkit's headers: cooperative groups (thread
// block sync, a tiled_partition reduction with shuffles) and a heavily
// templated kernel. The analysis completes, counts the shuffles and barriers,
// and marks what it cannot resolve as guessed or unknown.
// REQUIRES: cuda
// RUN: %clang_cuda -std=c++17 -isystem %cuda_path/include/cccl -O2 --cuda-gpu-arch=sm_80 -emit-llvm -S -o - %s | %profile | FileCheck %s
// RUN: %clang_cuda -std=c++17 -isystem %cuda_path/include/cccl -O0 --cuda-gpu-arch=sm_80 -emit-llvm -S -o - %s | %profile | FileCheck %s --check-prefix=O0
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// CHECK-LABEL: kernel _Z9cg_reducePKfPfi
// CHECK: ops: {{.*}}shuffle={{[1-9]}}
// CHECK: end kernel
// O0-LABEL: kernel _Z9cg_reducePKfPfi
// O0: end kernel
__global__ void cg_reduce(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = 0;
  for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n;
       i += block.size() * gridDim.x)
    v += in[i];
  v = cg::reduce(warp, v, cg::plus<float>());
  block.sync();
  if (warp.thread_rank() == 0)
    atomicAdd(out, v);
}

template <typename T, int N, typename... Rest> struct Acc {
  __device__ static T apply(const T *p) { return p[N] + Acc<T, N - 1, Rest...>::apply(p); }
};
template <typename T, typename... Rest> struct Acc<T, 0, Rest...> {
  __device__ static T apply(const T *p) { return p[0]; }
};

// CHECK-LABEL: kernel _Z9templatedIdLi7EEvPKT_PS0_
// CHECK: ops: fp64=7
template <typename T, int N> __global__ void templated(const T *in, T *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = Acc<T, N, int, char>::apply(in + i * (N + 1));
}
template __global__ void templated<double, 7>(const double *, double *);
