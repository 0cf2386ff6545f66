// Two forms of llm.c's kernels (dev/cuda: adamw_kernel3, encoder_forward's
// store128), written here, on which the plugin predicted 2^6.8 and 2^0.8
// times flipflop-ptx's time from the same PTX.
// 1. A grid-stride loop over a coarsening loop that breaks out: clang
//    computes `i + step` on two paths and joins them in a PHI before the
//    latch, so ScalarEvolution sees no add recurrence. The IR front end
//    took the loop for an unknown one (not grid-stride: 16 passes a thread
//    at a grid of one thread per element) and, having kept what the loop
//    body was worth while its PHI was unresolved, every access for
//    uncoalesced (a sector a lane).
// 2. Four scalar stores of a 16-byte aligned struct at a div/mod index
//    (no lane pattern): NVPTX's vectorizer makes them one st.v4 whatever
//    the lanes do; the IR front end merged only accesses of a known
//    pattern and charged four accesses' sectors, and 16-bit elements
//    (eight bf16 of llm.c's Packed128, matmul_backward_bias: 2^1.4 times
//    the PTX front end's time) not at all.
// 3. (IR) A loop over blockDim.x / 32 warps that clang unrolls by 4: its
//    remainder runs `(blockDim.x / 32) & 3` times, a line through the
//    samples 16, 32, 64 threads that the wrap leaves at 256: the fit was
//    taken and the remainder charged 10 passes at the reference block
//    (256 threads: 0). The fit must now hold at 128, 256 and 512 too.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s --check-prefixes=CHECK,IR
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z10coarseAxpyPfPKflf
// CHECK:       ops: fp32=64 {{.*}}load.global=128 store.global=64
// CHECK:       loop: depth=1 {{.*}} grid-stride
// CHECK-NOT:   pattern={{unknown|strided}}
// CHECK-COUNT-12: access: global {{load|store}} bytes=4 count=16 pattern=coalesced stride=4 sectors=4
// CHECK-NOT:   pattern={{unknown|strided}}
// CHECK-LABEL: end kernel _Z10coarseAxpyPfPKflf
struct alignas(16) Vec4f {
  float x, y, z, w;
};

__global__ void coarseAxpy(float *y, const float *x, long n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int step = blockDim.x * gridDim.x;
  for (; i < n; i += step) {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      int k = i + c * step;
      if (k >= n)
        break;
      y[k] = a * x[k] + y[k];
    }
  }
}

// CHECK-LABEL: kernel _Z8rowScalePfPKfiif
// CHECK:       ops: fp32=4 {{.*}}load.global=1 store.global=1
// CHECK-NEXT:  flops:
// CHECK-NEXT:  access: global load bytes=16 count=1 pattern=unknown
// CHECK-NEXT:  access: global store bytes=16 count=1 pattern=unknown
// CHECK-NEXT:  memory: global-read=16 global-written=16 sector-bytes=64
// CHECK-LABEL: end kernel _Z8rowScalePfPKfiif
__global__ void rowScale(float *out, const float *in, int cols, int pitch,
                         float s) {
  int idx = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  int r = idx / cols, c = idx % cols;
  Vec4f p = *reinterpret_cast<const Vec4f *>(in + r * pitch + c);
  p.x *= s;
  p.y *= s;
  p.z *= s;
  p.w *= s;
  *reinterpret_cast<Vec4f *>(out + r * pitch + c) = p;
}

// CHECK-LABEL: kernel _Z7rowSum8PfPK5Half8ii
// CHECK:       ops: {{.*}}load.global=1 store.global=1
// CHECK:       access: global load bytes=16 count=1 pattern=unknown
// CHECK-LABEL: end kernel _Z7rowSum8PfPK5Half8ii
struct alignas(16) Half8 {
  unsigned short h[8];
};

__global__ void rowSum8(float *out, const Half8 *in, int cols, int pitch) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int r = idx / cols, c = idx % cols;
  Half8 p = in[r * pitch + c];
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    s += float(p.h[k]);
  out[idx] = s;
}

// IR-LABEL: kernel _Z11warpColumnsPfPKfii
// IR:       loop: depth=1 {{.*}}guessed=yes
// IR-NEXT:  loop: depth=1 line=0 trip=0 exact=no guessed=no symbolic=
// IR-NEXT:  loop: depth=1 line=0 trip=2 exact=no guessed=no symbolic=
// IR-NOT:   block-dim-trip
// IR-LABEL: end kernel _Z11warpColumnsPfPKfii
__global__ void warpColumns(float *out, const float *in, int rows, int cols) {
  extern __shared__ float part[];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int col = blockIdx.x * 32 + lane;
  int warps = blockDim.x / 32;
  float acc = 0;
  for (int r = warp; r < rows; r += warps)
    acc += in[r * cols + col];
  part[threadIdx.x] = acc;
  __syncthreads();
  if (warp == 0) {
    float s = 0;
    for (int j = 0; j < warps; ++j)
      s += part[lane + j * 32];
    out[col] = s;
  }
}
