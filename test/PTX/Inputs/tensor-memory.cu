// Blackwell's tensor-memory MMAs (`tcgen05.mma`) as inline PTX:
// tensor-memory.test. One thread issues each MMA for its block; the shape
// is in the instruction descriptor: N / 8 at bits 17-22, M / 16 at bits
// 24-28, D's type F32 at bits 4-5 (PTX ISA, "Instruction descriptor").
#include <stdint.h>
template <unsigned M, unsigned N>
__device__ __forceinline__ constexpr uint32_t idescF32(unsigned aType) {
  return (1u << 4) | (aType << 7) | (aType << 10) | ((N >> 3) << 17) |
         ((M >> 4) << 24);
}
__device__ __forceinline__ void mmaF16(uint32_t tmem, uint64_t a, uint64_t b,
                                       uint32_t idesc, int accumulate) {
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %4, 0;\n"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p; }" ::"r"(
                   tmem),
               "l"(a), "l"(b), "r"(idesc), "r"(accumulate));
}
__device__ __forceinline__ void mmaF8(uint32_t tmem, uint64_t a, uint64_t b,
                                      uint32_t idesc, int accumulate) {
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %4, 0;\n"
               "tcgen05.mma.cta_group::1.kind::f8f6f4 [%0], %1, %2, %3, p; }" ::"r"(
                   tmem),
               "l"(a), "l"(b), "r"(idesc), "r"(accumulate));
}

// Thread 0 issues a 128 x 256 x 16 bf16 MMA a step (the check does not
// make it a thread's share: the block's MMA).
__global__ void __launch_bounds__(128)
    ummaF16(uint64_t adesc, uint64_t bdesc, int steps, float *out) {
  __shared__ uint32_t tmem;
  if (threadIdx.x == 0)
    for (int s = 0; s < steps; ++s)
      mmaF16(tmem, adesc + s * 2, bdesc + s * 2, idescF32<128, 256>(1), s);
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = 0.f;
}
// The same shape in FP8 (K = 32 a step): twice the FLOPs at twice the rate.
__global__ void __launch_bounds__(128)
    ummaF8(uint64_t adesc, uint64_t bdesc, int steps, float *out) {
  __shared__ uint32_t tmem;
  if (threadIdx.x == 0)
    for (int s = 0; s < steps; ++s)
      mmaF8(tmem, adesc + s * 2, bdesc + s * 2, idescF32<128, 256>(0), s);
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = 0.f;
}
// A descriptor the PTX does not hold: not counted, and said.
__global__ void __launch_bounds__(128)
    ummaArg(uint64_t adesc, uint64_t bdesc, uint32_t idesc, float *out) {
  __shared__ uint32_t tmem;
  if (threadIdx.x == 0)
    mmaF16(tmem, adesc, bdesc, idesc, 0);
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = 0.f;
}
// Sparse (`.sp`, its metadata's address before the descriptor): twice K.
__global__ void __launch_bounds__(128)
    ummaSparse(uint64_t adesc, uint64_t bdesc, float *out) {
  __shared__ uint32_t tmem;
  if (threadIdx.x == 0)
    asm volatile("tcgen05.mma.sp.cta_group::1.kind::f16 [%0], %1, %2, [%0], %3, 1;" ::"r"(
                     tmem),
                 "l"(adesc), "l"(bdesc), "r"(idescF32<128, 256>(1)));
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = 0.f;
}
// A pair of blocks' MMA (`cta_group::2`, M = 256 over the pair): one issue
// for two blocks, half each.
__global__ void __launch_bounds__(128)
    ummaPair(uint64_t adesc, uint64_t bdesc, float *out) {
  __shared__ uint32_t tmem;
  if (threadIdx.x == 0)
    asm volatile("tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, 1;" ::"r"(
                     tmem),
                 "l"(adesc), "l"(bdesc), "r"(idescF32<256, 256>(1)));
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = 0.f;
}

// Thread 0 of the first nb blocks issues them: the check on the blocks
// scales the work, the one on the threads does not.
__global__ void __launch_bounds__(128)
    ummaSomeBlocks(uint64_t adesc, uint64_t bdesc, int nb, int steps,
                   float *out) {
  __shared__ uint32_t tmem;
  if (blockIdx.x < nb && threadIdx.x == 0)
    for (int s = 0; s < steps; ++s)
      mmaF16(tmem, adesc + s * 2, bdesc + s * 2, idescF32<128, 256>(1), s);
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = 0.f;
}
// Issued in a function the kernel calls: the kernel's threads share it.
__device__ __noinline__ void issueOne(uint32_t tmem, uint64_t a, uint64_t b) {
  mmaF16(tmem, a, b, idescF32<128, 256>(1), 1);
}
__global__ void __launch_bounds__(128)
    ummaCallee(uint64_t adesc, uint64_t bdesc, float *out) {
  __shared__ uint32_t tmem;
  if (threadIdx.x == 0)
    issueOne(tmem, adesc, bdesc);
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = 0.f;
}
// A weight-stationary MMA with a maximum shift (bits 30-31: the
// descriptor is negative as a 32-bit integer), M = 64.
__global__ void __launch_bounds__(128)
    ummaWsShift(uint64_t adesc, uint64_t bdesc, float *out) {
  __shared__ uint32_t tmem;
  if (threadIdx.x == 0)
    asm volatile("tcgen05.mma.ws.cta_group::1.kind::f16 [%0], %1, %2, %3, 1;" ::"r"(
                     tmem),
                 "l"(adesc), "l"(bdesc), "r"(idescF32<64, 256>(1) | (2u << 30)));
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = 0.f;
}
