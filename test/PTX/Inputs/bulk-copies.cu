// Bulk asynchronous copies (TMA) and mbarrier waits, written as Hopper code
// writes them in inline PTX (CUTLASS, ThunderKittens, FlashAttention 3):
// bulk-copies.test and test/Profile/bulk-copies.cu. No CUDA header is
// needed: nvcc reads it as it is, clang with test/Inputs/ff_cuda.h.
#ifndef __CUDACC_RTC__
#include <stdint.h>
#endif
struct alignas(64) TensorMap {
  unsigned char Bytes[128];
};
__device__ __forceinline__ unsigned smemAddr(const void *p) {
  unsigned r;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }"
      : "=r"(r)
      : "l"(p));
  return r;
}
__device__ __forceinline__ void barInit(uint64_t *bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddr(bar)),
               "r"(count));
}
// One thread tells the barrier the bytes its phase's copies bring.
__device__ __forceinline__ void barExpect(uint64_t *bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   smemAddr(bar)),
               "r"(bytes)
               : "memory");
}
// A wait is a loop inside the asm text, with labels of its own: inlined
// twice, the PTX holds LAB_WAIT twice, each in its own { } scope.
__device__ __forceinline__ void barWait(uint64_t *bar, int phase) {
  asm volatile("{\n"
               ".reg .pred P1;\n"
               "LAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\n"
               "bra.uni LAB_WAIT;\n"
               "DONE:\n"
               "}\n" ::"r"(smemAddr(bar)),
               "r"(phase)
               : "memory");
}
// A tile of a tensor map: its box is in the map, not in the PTX.
__device__ __forceinline__ void tmaLoad2d(void *dst, const TensorMap *map,
                                          uint64_t *bar, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(
                   smemAddr(dst)),
               "l"(map), "r"(smemAddr(bar)), "r"(c0), "r"(c1)
               : "memory");
}
// A plain bulk copy states its size.
__device__ __forceinline__ void bulkLoad(void *dst, const void *src,
                                         unsigned bytes, uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(smemAddr(dst)),
               "l"(src), "r"(bytes), "r"(smemAddr(bar))
               : "memory");
}

// Two stages of 64 x 64 bf16 tiles of A and B (a GEMM's main loop without
// its MMAs: its traffic): thread 0 keeps one stage in flight while the
// block reads the other. A and B by blockIdx.y and .x: each tile is read
// by a row or a column of blocks.
__global__ void __launch_bounds__(128)
    pipelined(const TensorMap *mapA, const TensorMap *mapB, int K, float *out) {
  constexpr int Tile = 64 * 64 * 2;
  __shared__ alignas(1024) unsigned char tiles[2][2][Tile];
  __shared__ uint64_t full[2];
  if (threadIdx.x == 0) {
    barInit(&full[0], 1);
    barInit(&full[1], 1);
  }
  __syncthreads();
  int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64, steps = K / 64;
  if (threadIdx.x == 0) {
    barExpect(&full[0], 2 * Tile);
    tmaLoad2d(tiles[0][0], mapA, &full[0], 0, m0);
    tmaLoad2d(tiles[0][1], mapB, &full[0], 0, n0);
  }
  float acc = 0.f;
  for (int s = 0; s < steps; ++s) {
    int st = s & 1;
    if (threadIdx.x == 0 && s + 1 < steps) {
      barExpect(&full[st ^ 1], 2 * Tile);
      tmaLoad2d(tiles[st ^ 1][0], mapA, &full[st ^ 1], (s + 1) * 64, m0);
      tmaLoad2d(tiles[st ^ 1][1], mapB, &full[st ^ 1], (s + 1) * 64, n0);
    }
    barWait(&full[st], (s >> 1) & 1);
    const float *a = reinterpret_cast<const float *>(tiles[st][0]);
    const float *b = reinterpret_cast<const float *>(tiles[st][1]);
    for (int i = threadIdx.x; i < Tile / 4; i += 128)
      acc += a[i] * b[i];
    __syncthreads();
  }
  barWait(&full[0], 0);
  out[(blockIdx.y * gridDim.x + blockIdx.x) * 128 + threadIdx.x] = acc;
}

// A row of 4 KB a block, brought in by one plain bulk copy, then scaled.
__global__ void __launch_bounds__(128)
    bulkRows(const float *in, float *out) {
  __shared__ alignas(16) float row[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    barInit(&bar, 1);
    barExpect(&bar, sizeof(row));
    bulkLoad(row, in + uint64_t(blockIdx.x) * 1024, sizeof(row), &bar);
  }
  __syncthreads();
  barWait(&bar, 0);
  for (int i = threadIdx.x; i < 1024; i += 128)
    out[uint64_t(blockIdx.x) * 1024 + i] = 2.f * row[i];
}

// The same rows read by every thread itself: what the copy replaces.
__global__ void __launch_bounds__(128)
    plainRows(const float *__restrict__ in, float *out) {
  for (int i = threadIdx.x; i < 1024; i += 128)
    out[uint64_t(blockIdx.x) * 1024 + i] = 2.f * in[uint64_t(blockIdx.x) * 1024 + i];
}

// A copy issued by an elected lane, its predicate from elect.sync and no
// check on the threads, as Triton issues them: the block's copy. Without
// launch bounds it is spread over a block of 256 threads, and said so.
__device__ __forceinline__ void electedLoad(void *dst, const void *src,
                                            unsigned bytes, uint64_t *bar) {
  asm volatile("{ .reg .pred p; elect.sync _|p, 0xffffffff;\n"
               "@p cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3]; }" ::"r"(smemAddr(dst)),
               "l"(src), "r"(bytes), "r"(smemAddr(bar))
               : "memory");
}
__global__ void rowsUnbounded(const float *in, float *out) {
  __shared__ alignas(16) float row[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    barInit(&bar, 1);
    barExpect(&bar, sizeof(row));
  }
  __syncthreads();
  electedLoad(row, in + uint64_t(blockIdx.x) * 1024, sizeof(row), &bar);
  barWait(&bar, 0);
  out[uint64_t(blockIdx.x) * 1024 + threadIdx.x] = row[threadIdx.x];
}

// A tensor copy whose barrier is told no bytes (they arrive by another
// route the PTX does not show): not counted, and said so.
__global__ void __launch_bounds__(128)
    untold(const TensorMap *map, float *out) {
  __shared__ alignas(128) float tile[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    barInit(&bar, 1);
    tmaLoad2d(tile, map, &bar, 0, blockIdx.x * 32);
  }
  __syncthreads();
  barWait(&bar, 0);
  out[blockIdx.x * 128 + threadIdx.x] = tile[threadIdx.x];
}

// A 1-D grid cut into tile rows and columns (fast.cu's and many persistent
// kernels' order): the A tile follows blockIdx.x / tilesN, the B tile
// blockIdx.x % tilesN, each read by several blocks. A row of blocks whose
// tiles follow blockIdx.x itself reads each tile once.
__global__ void __launch_bounds__(128)
    tiles1d(const TensorMap *mapA, const TensorMap *mapB, int K, int tilesN,
            float *out) {
  __shared__ alignas(1024) unsigned char tiles[2][64 * 64 * 2];
  __shared__ uint64_t bar;
  int m0 = blockIdx.x / tilesN * 64, n0 = blockIdx.x % tilesN * 64;
  if (threadIdx.x == 0)
    barInit(&bar, 1);
  __syncthreads();
  float acc = 0.f;
  for (int k = 0; k < K; k += 64) {
    if (threadIdx.x == 0) {
      barExpect(&bar, sizeof(tiles));
      tmaLoad2d(tiles[0], mapA, &bar, k, m0);
      tmaLoad2d(tiles[1], mapB, &bar, k, n0);
    }
    barWait(&bar, (k >> 6) & 1);
    acc += reinterpret_cast<const float *>(tiles[0])[threadIdx.x] *
           reinterpret_cast<const float *>(tiles[1])[threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}
__global__ void __launch_bounds__(128)
    ownTiles(const TensorMap *map, int K, float *out) {
  __shared__ alignas(1024) unsigned char tile[64 * 64 * 2];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    barInit(&bar, 1);
  __syncthreads();
  float acc = 0.f;
  for (int k = 0; k < K; k += 64) {
    if (threadIdx.x == 0) {
      barExpect(&bar, sizeof(tile));
      tmaLoad2d(tile, map, &bar, k, blockIdx.x * 64);
    }
    barWait(&bar, (k >> 6) & 1);
    acc += reinterpret_cast<const float *>(tile)[threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}

// Warp 0 elects one of its lanes: one copy a block, where the check on the
// threads lets a warp through.
__global__ void __launch_bounds__(128)
    warpElected(const float *in, float *out) {
  __shared__ alignas(16) float row[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    barInit(&bar, 1);
    barExpect(&bar, sizeof(row));
  }
  __syncthreads();
  if (threadIdx.x < 32)
    electedLoad(row, in + uint64_t(blockIdx.x) * 1024, sizeof(row), &bar);
  barWait(&bar, 0);
  for (int i = threadIdx.x; i < 1024; i += 128)
    out[uint64_t(blockIdx.x) * 1024 + i] = 2.f * row[i];
}

// Only thread 0 touches global memory: the row it copies in and the sum
// it stores. The check picks the copy's issuer, not a share of its bytes
// (a review found the traffic scaled by it: 21 us for 1 GiB).
__global__ void __launch_bounds__(256)
    soloRow(const float *in, float *out) {
  __shared__ alignas(16) float row[4096];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    barInit(&bar, 1);
    barExpect(&bar, sizeof(row));
    bulkLoad(row, in + uint64_t(blockIdx.x) * 4096, sizeof(row), &bar);
  }
  __syncthreads();
  barWait(&bar, 0);
  if (threadIdx.x == 0)
    out[blockIdx.x] = row[0] + row[4095];
}
// The same row read by thread 0's block with ordinary loads.
__global__ void __launch_bounds__(256)
    soloRowPlain(const float *__restrict__ in, float *out) {
  float s = 0.f;
  for (int i = threadIdx.x; i < 4096; i += 256)
    s += in[uint64_t(blockIdx.x) * 4096 + i];
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

// Every thread copies its own 256 bytes of the block's 32 KB: 128 copies
// a block (counted once a block by the first version: 128x short).
__global__ void __launch_bounds__(128)
    threadSlices(const float *in, float *out) {
  __shared__ alignas(16) float rows[128 * 64];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    barInit(&bar, 1);
    barExpect(&bar, sizeof(rows));
  }
  __syncthreads();
  bulkLoad(rows + threadIdx.x * 64,
           in + (uint64_t(blockIdx.x) * 128 + threadIdx.x) * 64, 256, &bar);
  barWait(&bar, 0);
  float s = 0.f;
  for (int i = 0; i < 64; ++i)
    s += rows[i * 128 + threadIdx.x];
  out[blockIdx.x * 128 + threadIdx.x] = s;
}

// One barrier told a constant count, another a kernel argument's: the
// tensor copies' bytes are not known (not the constant spread over all of
// them), and said.
__global__ void __launch_bounds__(128)
    mixedCounts(const TensorMap *mapQ, const TensorMap *mapK, int steps,
                unsigned kBytes, float *out) {
  __shared__ alignas(1024) unsigned char q[64 * 64 * 2], k[64 * 64 * 2];
  __shared__ uint64_t bar[2];
  if (threadIdx.x == 0) {
    barInit(&bar[0], 1);
    barInit(&bar[1], 1);
    barExpect(&bar[0], sizeof(q));
    tmaLoad2d(q, mapQ, &bar[0], 0, blockIdx.x * 64);
  }
  __syncthreads();
  barWait(&bar[0], 0);
  float acc = 0.f;
  for (int s = 0; s < steps; ++s) {
    if (threadIdx.x == 0) {
      barExpect(&bar[1], kBytes);
      tmaLoad2d(k, mapK, &bar[1], s * 64, 0);
    }
    barWait(&bar[1], s & 1);
    acc += reinterpret_cast<const float *>(q)[threadIdx.x] *
           reinterpret_cast<const float *>(k)[threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}
