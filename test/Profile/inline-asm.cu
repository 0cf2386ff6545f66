// Inline PTX, as libraries write it: CUB's read-only loads (`ld.global.nc`
// through a generic pointer or its integer value), shuffles and lane id,
// CUTLASS's `cp.async`, `ldmatrix` and `mma.sync`. The IR holds each as a
// call to an InlineAsm; the IR front end counts its text by the PTX front
// end's rules (a wrapper entry parsed once per text), so both front ends
// read the same work from the same kernel. Before, the IR front end
// counted none of it (CUB's DeviceReduce kernels: no global load, 2^4.3
// times less time predicted than flipflop-ptx on the same PTX). The loads
// through call operands are accesses of the IR pointer: coalesced, global
// and read-only as the text says.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s --check-prefixes=CHECK,IR
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z6reducePKfPfi
// CHECK:       ops: fp32={{[0-9]+}} int={{[0-9]+}} {{.*}}shuffle=5 load.global=64 store.global=1
// IR:          access: global load bytes=4 count=32 pattern=coalesced {{.*}}readonly
// IR:          access: global load bytes=4 count=32 pattern=coalesced {{.*}}readonly
// CHECK-LABEL: end kernel _Z6reducePKfPfi
__global__ void reduce(const float *in, float *out, int n) {
  float acc = 0;
  const float *p = in + blockIdx.x * 1024 * 32 + threadIdx.x;
#pragma unroll 1
  for (int i = 0; i < 32; ++i) {
    float v, u;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p + i * 1024));
    asm volatile("ld.global.nc.f32 %0, [%1+2048];"
                 : "=f"(u)
                 : "l"((unsigned long long)(p + i * 1024)));
    acc = acc * v + u;
  }
#pragma unroll
  for (int o = 16; o > 0; o /= 2) {
    float t;
    asm volatile("shfl.sync.down.b32 %0, %1, %2, 31, -1;"
                 : "=f"(t)
                 : "f"(acc), "r"(o));
    acc += t;
  }
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (lane == 0)
    out[blockIdx.x] = acc;
}

// A tile copied with cp.async, read with ldmatrix and multiplied with
// mma.sync m16n8k16 (f16 in, f32 out): 4,096 tensor FLOPs a warp's thread
// per mma (2 * 16 * 8 * 16 / 32).
// CHECK-LABEL: kernel _Z3mmaPK14__half_raw_ishPf
// CHECK:       ops: {{.*}}load.global=1 {{.*}}load.shared=1 store.shared=1 {{.*}}tensor=1
// CHECK:       flops: {{.*}}tensor=128 tensor-type=f16
// CHECK-DAG:   access: global load bytes=16 count=1 pattern=coalesced
// CHECK-DAG:   access: shared store bytes=16 count=1 pattern=coalesced stride=16 bank-ways=1
// CHECK-DAG:   access: shared load bytes=16 count=1 pattern=coalesced stride=16 bank-ways=1
// CHECK-LABEL: end kernel _Z3mmaPK14__half_raw_ishPf
struct __half_raw_ish { unsigned short x; };
typedef __half_raw_ish __half;
__global__ void mma(const __half *a, float *d) {
  __shared__ __attribute__((aligned(16))) __half tile[32 * 8];
  unsigned s = threadIdx.x * 16;
  unsigned sa = (unsigned)(unsigned long long)(tile) + s;
  // As CUDA's __pipeline_memcpy_async writes it: the size and the source
  // size are operands.
  asm volatile("cp.async.cg.shared.global [%0], [%1], %2, %3;" ::"r"(sa),
               "l"(a + threadIdx.x * 8), "n"(16), "r"(16));
  asm volatile("cp.async.wait_all;" ::: "memory");
  unsigned r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(sa));
  float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(r0), "r"(r1));
  d[threadIdx.x * 4] = c0 + c1 + c2 + c3;
}

// cuda_fp16.h writes its half2 arithmetic as inline asm in braces
// (`{fma.rn.f16x2 %0,%1,%2,%3;\n}`): 64 packed FMAs are 128 FP16 lane ops
// and 256 FLOPs; before, the IR front end counted no FP16 work at all for
// code built on that header.
// CHECK-LABEL: kernel _Z5hfma2PKjPji
// CHECK:       ops: fp16=128 {{.*}}load.global=1 store.global=1
// CHECK:       flops: fp32=0 fp64=0 fp16=256
// CHECK-LABEL: end kernel _Z5hfma2PKjPji
__global__ void hfma2(const unsigned *a, unsigned *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned x = a[i], acc = 0;
#pragma unroll
    for (int k = 0; k < 64; ++k)
      asm("{fma.rn.f16x2 %0,%1,%2,%3;\n}" : "=r"(acc) : "r"(x), "r"(x), "r"(acc));
    c[i] = acc;
  }
}

// Labels made unique with %= (`${:uid}` in the IR) and a branch inside the
// text are read; an `exit;` leaves no negative count.
// CHECK-LABEL: kernel _Z6labelsPii
// CHECK:       ops: int={{[0-9]+}} {{.*}}store.global=1 {{.*}}branch={{[1-9]}}
// CHECK-NOT:   warning: inline asm
// CHECK-LABEL: end kernel _Z6labelsPii
__global__ void labels(int *p, int n) {
  int v = n;
  if (n == 3)
    asm volatile("exit;");
  asm volatile("{ .reg .pred q; setp.eq.u32 q, %1, 0; @q bra DONE%=; "
               "add.u32 %0, %1, 1; DONE%=: }"
               : "=r"(v)
               : "r"(v));
  p[threadIdx.x] = v;
}
