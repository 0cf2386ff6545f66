#include "cuda_shim.h"

#define K9_NUM_THREADS 256
#define K9_MIN_BLOCKS 2
constexpr int kThreads = 128;

// Max threads through a macro, value as recommended: only min-blocks added.
__global__ void __launch_bounds__(K9_NUM_THREADS) k9(float *p) {}
// An expression of the same value: kept.
__global__ void __launch_bounds__(2 * 128) twice(float *p) {}
// The value changes: a macro is never replaced by a literal.
__global__ void __launch_bounds__(K9_NUM_THREADS) grows(float *p) {}
// Nor a named constant.
__global__ void __launch_bounds__(kThreads) named(float *p) {}
// Literal arithmetic whose value changes: written as a number.
__global__ void __launch_bounds__(64 * 2) arith(float *p) {}
// Min-blocks through a macro: kept where its value stays, refused otherwise.
__global__ void __launch_bounds__(128, K9_MIN_BLOCKS) min_kept(float *p) {}
__global__ void __launch_bounds__(256, K9_MIN_BLOCKS) min_changes(float *p) {}

void host(float *p) {
  k9<<<1, 256>>>(p);
  twice<<<1, 256>>>(p);
  grows<<<1, 256>>>(p);
  named<<<1, 128>>>(p);
  arith<<<1, 128>>>(p);
  min_kept<<<1, 128>>>(p);
  min_changes<<<1, 256>>>(p);
}
