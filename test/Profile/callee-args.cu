// The IR front end as clang's code needs it (issue 14, front ends agreeing):
// a device function that is not inlined gets its caller's shared tile and
// private accumulators (CLBlast's XgemmBody): their accesses are shared and
// private, not global (local memory: clang keeps an array passed by
// pointer on the stack, so the caller's own initialisation and final read
// of it are local accesses too); its loop bound is a kernel argument the user stated,
// and the loop (k += 32, which ScalarEvolution cannot count) is counted from
// its latch condition; a struct copy (memcpy) is its loads and stores, one
// per piece at its own offset of one base (siblings, as clang's PTX has
// them: ld.global.b32 at +0 .. +12, not four requests at +0); a
// contracted multiply-add is one FMA; scalar loads of consecutive floats
// become one 16-byte vector load where their alignment allows it, as NVPTX's
// load/store vectorizer makes them (align 16: v4; align 4: scalar, as in
// clang's PTX of this file).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O3 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=4096 %t.ll | FileCheck %s

struct f4 { float x, y, z, w; };

__device__ __noinline__ void body(const float *a, f4 *tile, float *acc, int K) {
  for (int k = 0; k < K; k += 32) {
    tile[threadIdx.x] = *(const f4 *)&a[4 * (k + threadIdx.x)];
    __syncthreads();
    for (int j = 0; j < 8; ++j) {
      f4 t = tile[(threadIdx.x + j) % 64];
      acc[0] += t.x * t.y;
      acc[1] += t.z * t.w;
    }
    __syncthreads();
  }
}

__global__ void kern(const float *a, float *out, int K) {
  __shared__ f4 tile[64];
  float acc[2] = {0, 0};
  body(a, tile, acc, K);
  out[threadIdx.x] = acc[0] + acc[1];
}
// CHECK-LABEL: kernel _Z4kernPKfPfi
// CHECK: spills: store=0 load=0 stack=8
// CHECK: ops: fp32=2049 {{.*}}load.global=512 store.global=1 load.shared=4096 store.shared=512 load.local=257 store.local=2049 branch
// CHECK: flops: fp32=4097
// CHECK: loop: depth=2 {{.*}}trip=128 exact=no guessed=no
// CHECK: access: global load bytes=4 count=128 {{.*}} base=[[A:[0-9]+]]+0{{( walk=-?[0-9]+)?$}}
// CHECK-NEXT: access: global load bytes=4 count=128 {{.*}} base=[[A]]+4{{( walk=-?[0-9]+)?$}}
// CHECK-NEXT: access: global load bytes=4 count=128 {{.*}} base=[[A]]+8{{( walk=-?[0-9]+)?$}}
// CHECK-NEXT: access: global load bytes=4 count=128 {{.*}} base=[[A]]+12{{( walk=-?[0-9]+)?$}}
// CHECK-COUNT-4: access: shared store bytes=4 count=128 pattern=strided
// CHECK-NEXT: access: local load bytes=4 count=128
// CHECK: access: shared load bytes=4 count=128 pattern=strided stride=16 bank-ways=4

// The same tile of 16-byte aligned elements: one v4 load per element; the
// struct copy is two 8-byte loads and stores (clang's PTX: ld.global.b64,
// st.shared.b64, ld.shared.v4.b32).
struct __attribute__((aligned(16))) f4a { float x, y, z, w; };
__global__ void kern16(const f4a *a, float *out) {
  __shared__ f4a tile[64];
  tile[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  f4a t = tile[(threadIdx.x + 1) % 64];
  out[threadIdx.x] = t.x * t.y + t.z * t.w;
}
// CHECK-LABEL: kernel _Z6kern16PK3f4aPf
// CHECK: ops: {{.*}}load.global=2 store.global=1 load.shared=1 store.shared=2
// CHECK: access: global load bytes=8 count=1 {{.*}} base=[[C:[0-9]+]]+0{{$}}
// CHECK-NEXT: access: global load bytes=8 count=1 {{.*}} base=[[C]]+8{{$}}
// CHECK-NEXT: access: shared store bytes=8 count=1
// CHECK-NEXT: access: shared store bytes=8 count=1
// CHECK-NEXT: access: shared load bytes=16 count=1
