// End to end: the plugin's own report drives flipflop-apply. The
// grid-stride kernel is marked block-size-agnostic, so its constant launch
// site is rewritten with --rewrite-launch-sites; the bound is inserted.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t/r && cp %s %t/k.cu
// RUN: env FLIPFLOP_REPORT_DIR=%t/r %clang_ff_cuda --cuda-gpu-arch=sm_80 -O2 -S %t/k.cu -o %t/k.s
// RUN: grep -c '"block_size_agnostic": true' %t/r/*.json | FileCheck %s --check-prefix=AGNOSTIC
// RUN: flipflop-apply --reports %t/r %t/k.cu --rewrite-launch-sites -- -x cuda --cuda-path=%cuda_path -Wno-unknown-cuda-version > %t/diff.txt
// RUN: FileCheck %s < %t/diff.txt
// AGNOSTIC: 1
// CHECK: -__global__ void scale(float *x, long n) {
// CHECK: +__global__ void __launch_bounds__({{[0-9]+}}{{(, [0-9]+)?}}) scale(float *x, long n) {
// CHECK: -  scale<<<80, 256>>>(x, n);
// CHECK: +  scale<<<80, {{[0-9]+}}>>>(x, n);

__global__ void scale(float *x, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
       i += (long)blockDim.x * gridDim.x)
    x[i] *= 2.0f;
}

void run(float *x, long n) {
  scale<<<80, 256>>>(x, n);
}
