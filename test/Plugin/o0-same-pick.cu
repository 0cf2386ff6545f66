// At -O0 (clang marks every function optnone and runs no optimisation) the
// kernels are analysed on a copy optimised as -O2 would: the grid-stride
// loop is understood and the recommendation is the one of -O1..-O3 (before:
// the -O0 loop was a guessed 16-trip loop, with another block size and a
// time 100x off). The module clang compiles is untouched: the PTX is
// byte-identical with and without the plugin at -O0.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O0 -S %s -I%flipflop_src/test/Inputs -o %t/o0.ptx -Rpass-analysis=flipflop -Rpass-missed=flipflop 2> %t/o0.txt
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %s -I%flipflop_src/test/Inputs -o %t/o2.ptx -Rpass-analysis=flipflop -Rpass-missed=flipflop 2> %t/o2.txt
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O1 -S %s -I%flipflop_src/test/Inputs -o %t/o1.ptx -Rpass-analysis=flipflop 2> %t/o1.txt
// RUN: FileCheck %s < %t/o0.txt
// RUN: FileCheck %s < %t/o2.txt
// The pick (block, min-blocks, power limit) of every kernel, at each level:
// RUN: grep -o "\[FF001\] kernel '[^']*' on [^:]*: for [a-z]* use block [0-9x]*, min-blocks [0-9]*, power limit [0-9]* W" %t/o0.txt > %t/o0.picks
// RUN: grep -o "\[FF001\] kernel '[^']*' on [^:]*: for [a-z]* use block [0-9x]*, min-blocks [0-9]*, power limit [0-9]* W" %t/o1.txt > %t/o1.picks
// RUN: grep -o "\[FF001\] kernel '[^']*' on [^:]*: for [a-z]* use block [0-9x]*, min-blocks [0-9]*, power limit [0-9]* W" %t/o2.txt > %t/o2.picks
// RUN: diff %t/o0.picks %t/o2.picks
// RUN: diff %t/o1.picks %t/o2.picks
// RUN: FileCheck %s --check-prefix=COUNT < %t/o0.picks
// The same loops, with the same lines, guessed the same way (FF012):
// RUN: grep FF012 %t/o0.txt > %t/o0.ff012
// RUN: grep FF012 %t/o2.txt > %t/o2.ff012
// RUN: diff %t/o0.ff012 %t/o2.ff012
// The PTX of -O0 is clang's own:
// RUN: %clang_cuda -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -O0 -S %s -I%flipflop_src/test/Inputs -o %t/o0.ref.ptx
// RUN: cmp %t/o0.ptx %t/o0.ref.ptx
// And with the functions' optnone kept by opt, the pass in opt does the same:
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O0 -Xclang -disable-llvm-passes %s | %opt_ff -passes=flipflop -pass-remarks-analysis=flipflop -disable-output 2>&1 | grep -o "\[FF001\] kernel '[^']*' on [^:]*: for [a-z]* use block [0-9x]*, min-blocks [0-9]*, power limit [0-9]* W" > %t/opt.picks
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s | %opt_ff -passes=flipflop -pass-remarks-analysis=flipflop -disable-output 2>&1 | grep -o "\[FF001\] kernel '[^']*' on [^:]*: for [a-z]* use block [0-9x]*, min-blocks [0-9]*, power limit [0-9]* W" > %t/opt2.picks
// RUN: diff %t/opt.picks %t/opt2.picks
#include "ff_cuda.h"

// CHECK-DAG: remark: [FF001] kernel 'saxpyGridStride(long, float, float const*, float*)' on A100-SXM4-40GB: for energy use block
// CHECK-DAG: remark: [FF001] kernel 'rowSums(float const*, float*, int)' on A100-SXM4-40GB: for energy use block
// COUNT-COUNT-2: [FF001]
__global__ void saxpyGridStride(long n, float a, const float *__restrict__ x,
                                float *__restrict__ y) {
  const long stride = static_cast<long>(blockDim.x) * gridDim.x;
  for (long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < n; i += stride)
    y[i] = a * x[i] + y[i];
}

__device__ float rowSum(const float *row) {
  float s = 0;
  for (int j = 0; j < 512; ++j)
    s += row[j];
  return s;
}

__global__ void rowSums(const float *m, float *out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows)
    out[r] = rowSum(m + static_cast<long>(r) * 512);
}
