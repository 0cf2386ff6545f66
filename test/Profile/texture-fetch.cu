// Texture fetches: `tex.2d.v4.u32.f32 {r0..r3}, [t, {x, y}]` returns four
// components whatever the texture's format. The PTX front end read each
// fetch as a 16-byte gather (32 sectors a request, blocks reading alike),
// the plugin, which reads it in inline asm (clang's texture header), as
// no bytes at all: stereoDisparity 543 | 361 us on an RTX A4000. Both now
// take the texel as the components the kernel reads times their size, and
// the lanes' pattern from the x coordinate (an integer converted to float,
// plus 0.5 here): adjacent texels for adjacent lanes are a coalesced run.
// The coordinates' indices say which threads and blocks read apart.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z4one1PjyPKf
// CHECK:       access: global load bytes=4 count=1 pattern=coalesced stride=4 sectors=4 readonly {{.*}}tid=xy ctaid=xy
// CHECK-LABEL: kernel _Z4all4P6float4y
// CHECK:       access: global load bytes=16 count=1 pattern=coalesced stride=16 sectors=16 readonly {{.*}}tid=xy ctaid=xy
// A layered texture's first coordinate is the layer (review: read as x, a
// uniform fetch of no bytes).
// CHECK-LABEL: kernel _Z7layeredPfyi
// CHECK:       access: global load bytes=4 count=1 pattern=coalesced stride=4 sectors=4 readonly {{.*}}tid=xy ctaid=xy
// A coordinate the data sets stays a gather.
// CHECK-LABEL: kernel _Z6gatherPjyPKi
// CHECK:       access: global load bytes=4 count=1 pattern=unknown
struct float4 { float x, y, z, w; };
__device__ unsigned fetch1(unsigned long long t, float x, float y) {
  unsigned r0, r1, r2, r3;
  asm("tex.2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
      : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
      : "l"(t), "f"(x), "f"(y));
  return r0;
}
__device__ float4 fetch4(unsigned long long t, float x, float y) {
  float4 r;
  asm("tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
      : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w)
      : "l"(t), "f"(x), "f"(y));
  return r;
}
__global__ void one1(unsigned *out, unsigned long long t, const float *) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * 1024 + x] = fetch1(t, x + 0.5f, y + 0.5f) * 3u;
}
__global__ void all4(float4 *out, unsigned long long t) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * 1024 + x] = fetch4(t, x, y);
}
__global__ void layered(float *out, unsigned long long t, int layer) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float a, b, c, d, fx = x + 0.5f, fy = y + 0.5f;
  asm("tex.a2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
      : "=f"(a), "=f"(b), "=f"(c), "=f"(d)
      : "l"(t), "r"(layer), "f"(fx), "f"(fy));
  out[y * 1024 + x] = a;
}
__global__ void gather(unsigned *out, unsigned long long t, const int *idx) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = fetch1(t, idx[x], 0.f);
}
