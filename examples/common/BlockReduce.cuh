//===- BlockReduce.cuh - Warp-shuffle and block reductions ----------------===//
//
// Device helpers shared by the row-wise examples (softmax, layer norm). They
// work for any block whose size is a multiple of 32, up to 1024 threads: a
// warp reduces with __shfl_xor_sync, warp leaders meet in 32 shared slots.
//
//===----------------------------------------------------------------------===//

#ifndef FLIPFLOP_EXAMPLES_COMMON_BLOCKREDUCE_CUH
#define FLIPFLOP_EXAMPLES_COMMON_BLOCKREDUCE_CUH

#include <cuda_runtime.h>

namespace flipflop {
namespace examples {

constexpr unsigned FullMask = 0xffffffffu;

__device__ __forceinline__ float warpSum(float V) {
  for (int Offset = 16; Offset > 0; Offset >>= 1)
    V += __shfl_xor_sync(FullMask, V, Offset);
  return V;
}

__device__ __forceinline__ float warpMax(float V) {
  for (int Offset = 16; Offset > 0; Offset >>= 1)
    V = fmaxf(V, __shfl_xor_sync(FullMask, V, Offset));
  return V;
}

/// Sum over the block, returned to every thread. Scratch holds 32 floats.
/// Contains __syncthreads(): every thread of the block must call it.
__device__ __forceinline__ float blockSum(float V, float *Scratch) {
  const unsigned Lane = threadIdx.x & 31, Warp = threadIdx.x >> 5;
  const unsigned Warps = blockDim.x >> 5;
  V = warpSum(V);
  __syncthreads(); // Scratch may still be read by a previous call.
  if (Lane == 0)
    Scratch[Warp] = V;
  __syncthreads();
  V = Lane < Warps ? Scratch[Lane] : 0.0f;
  return warpSum(V);
}

/// Maximum over the block, returned to every thread (see blockSum).
__device__ __forceinline__ float blockMax(float V, float *Scratch) {
  const unsigned Lane = threadIdx.x & 31, Warp = threadIdx.x >> 5;
  const unsigned Warps = blockDim.x >> 5;
  V = warpMax(V);
  __syncthreads();
  if (Lane == 0)
    Scratch[Warp] = V;
  __syncthreads();
  V = Lane < Warps ? Scratch[Lane] : -INFINITY;
  return warpMax(V);
}

} // namespace examples
} // namespace flipflop

#endif // FLIPFLOP_EXAMPLES_COMMON_BLOCKREDUCE_CUH
