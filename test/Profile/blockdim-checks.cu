// Block shapes fixed by checks in the code (issue 16, shape-safe advice):
// a comparison of blockDim against a constant whose failing side does no
// work (an assert, a trap, an early return) keeps every other shape out of
// the sweep, and the fact is named with its line.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -g -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -gline-tables-only -I%flipflop_src/test/Inputs -include ff_cuda.h -S -o /dev/null %s -Rpass-missed=flipflop -Rpass-analysis=flipflop 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --gpu A100-SXM4-40GB --kernel _Z10columnSumsPfPKfii --csv %t.ptx | cut -d, -f1,3,4,5 | sort -u | FileCheck %s --check-prefix=ZSWEEP
extern "C" __device__ void __assertfail(const char *, const char *, unsigned,
                                        const char *, unsigned long);
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, 1))

// An SGEMM-style template: the tile sizes are template parameters tied to
// the thread count, which the kernel asserts.
template <int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__((BM * BN) / TM, 1)
sgemm1d(int M, int N, int K, const float *A, const float *B, float *C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int col = threadIdx.x % BN, row = threadIdx.x / BN;
  assert(BM * BK == blockDim.x);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM] = {0};
  for (int k0 = 0; k0 < K; k0 += BK) {
    As[threadIdx.x] = A[(threadIdx.x / BK) * K + threadIdx.x % BK];
    Bs[threadIdx.x] = B[(threadIdx.x / BN) * N + threadIdx.x % BN];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int d = 0; d < BK; ++d)
      for (int t = 0; t < TM; ++t)
        acc[t] += As[(row * TM + t) * BK + d] * Bs[d * BN + col];
    __syncthreads();
  }
  for (int t = 0; t < TM; ++t)
    C[(row * TM + t) * N + col] = acc[t];
}
template __global__ void sgemm1d<64, 64, 8, 8>(int, int, int, const float *,
                                               const float *, float *);
// CHECK-LABEL: kernel _Z7sgemm1dILi64ELi64ELi8ELi8EEviiiPKfS1_Pf
// CHECK: shape-check: blockDim.x == 512 is asserted at line 22
// REMARK: remark: [FF010] kernel 'void sgemm1d<64, 64, 8, 8>(int, int, int, float const*, float const*, float*)': block shape kept at 512: blockDim.x == 512 is asserted at line 22; only register caps and power limits are tuned

// Other shapes return early: the work runs only at 128 threads.
__global__ void early(float *x, int n) {
  if (blockDim.x != 128)
    return;
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}
// CHECK-LABEL: kernel _Z5earlyPfi
// CHECK: shape-check: blockDim.x == 128 is required (other shapes return early) at line 49
// REMARK: remark: [FF010] kernel 'early(float*, int)': block shape kept at 128: blockDim.x == 128 is required

// A product of dimensions checked with a trap, and an upper bound.
__global__ void tile2d(float *x, int pitch) {
  if (blockDim.x * blockDim.y != 256)
    __builtin_trap();
  assert(blockDim.x <= 64);
  x[(blockIdx.y * blockDim.y + threadIdx.y) * pitch + blockIdx.x * blockDim.x +
    threadIdx.x] += 1.0f;
}
// CHECK-LABEL: kernel _Z6tile2dPfi
// CHECK-DAG: shape-check: blockDim.x * blockDim.y == 256 is asserted at line 61
// CHECK-DAG: shape-check: blockDim.x <= 64 is asserted at line 63

// Not a check: the branch on blockDim does work on both sides.
__global__ void reduce(const float *in, float *out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  if (blockDim.x >= 512 && t < 256)
    s[t] += s[t + 256];
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = s[0];
}
// CHECK-LABEL: kernel _Z6reducePKfPf
// CHECK-NOT: shape-check
// CHECK: kernel
// The checks narrow the sweep without fixing one shape: every shape tried
// passes x <= 64 and x * y == 256, and the explanation names the checks.
// RUN: rm -rf %t.d && %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -I%flipflop_src/test/Inputs -include ff_cuda.h -S -o /dev/null %s -mllvm -flipflop-report-dir=%t.d
// RUN: python3 -c "import json,glob; r=json.load(open(glob.glob('%t.d/*.json')[0])); k=[k for k in r['kernels'] if k['name'].startswith('_Z6tile2d')][0]; print('shapes', sorted({tuple(c['block']) for c in k['configs']}))" | FileCheck %s --check-prefix=SHAPES
// SHAPES: shapes [(8, 32, 1), (16, 16, 1), (32, 8, 1), (64, 4, 1)]

// Two dimensions asserted, the third free (llm.c's matmul_backward_bias
// kernels 8 and 9 assert a 4 x 8 warp and take the block's depth from the
// launch): the sweep keeps x = 4 and y = 8 and tries the depths. Before,
// the sweep's 3-D shapes started at x = 8, none passed the checks, and the
// checks were dropped: both front ends recommended 8 x 32 x 1 and 8 x 1 x 4.
__global__ void columnSums(float *out, const float *in, int rows, int cols) {
  assert(blockDim.x == 4);
  assert(blockDim.y == 8);
  __shared__ float part[128][8];
  int col = blockIdx.x * 8 + threadIdx.y;
  float acc = 0;
  for (int r = threadIdx.x + 4 * threadIdx.z; r < rows; r += 4 * blockDim.z)
    acc += in[r * cols + col];
  part[threadIdx.z * 4 + threadIdx.x][threadIdx.y] = acc;
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.z == 0) {
    float s = 0;
    for (int z = 0; z < 4 * blockDim.z; ++z)
      s += part[z][threadIdx.y];
    out[col] = s;
  }
}
// CHECK-LABEL: kernel _Z10columnSumsPfPKfii
// CHECK: shape-check: blockDim.x == 4 is asserted
// CHECK: shape-check: blockDim.y == 8 is asserted
// ZSWEEP:      _Z10columnSumsPfPKfii,4,8,1
// ZSWEEP-NEXT: _Z10columnSumsPfPKfii,4,8,16
// ZSWEEP-NEXT: _Z10columnSumsPfPKfii,4,8,2
// ZSWEEP-NEXT: _Z10columnSumsPfPKfii,4,8,32
// ZSWEEP-NEXT: _Z10columnSumsPfPKfii,4,8,4
// ZSWEEP-NEXT: _Z10columnSumsPfPKfii,4,8,8
// ZSWEEP-NEXT: kernel,block_x,block_y,block_z
// REMARK: remark: [FF001] kernel 'columnSums(float*, float const*, int, int)' on {{.*}}: for {{energy|time}} use block 4x8{{(x[0-9]+)?}},
