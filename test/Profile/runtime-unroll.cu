// A loop of unknown count (a CSR row's nonzeros, one row a thread), which
// LLVM unrolls 8 times at run time for NVPTX: a remainder loop of `n & 7`
// passes (its unrolling disabled, at most 7 passes) and the main loop of
// n / 8 passes. Each was guessed at 16 passes, 144 source iterations where
// the guess is 16 (as for a rolled loop); now the remainder 3.5 passes on
// average and the main loop 2, said as one guess. The PTX front end reads
// clang's PTX alike (its guard `setp.gt.u32 %p, %d, -8`);
// test/PTX/warp-size.ptx has nvcc's form, unrolled 4 times.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O3 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s --check-prefix=IR
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s --check-prefix=PTX

// IR-LABEL: kernel _Z9scalarRowPKfPKiiPf
// IR:       loop: depth=1 line=0 trip=3.5 exact=no guessed=yes
// IR:       loop: depth=1 line=0 trip=2 exact=no guessed=yes
// IR:       guess: loop: trip count depends on values computed in the kernel, assumed 16 (unrolled 8 times by the compiler: 2 passes and a remainder loop)
// IR-NOT:   guess:
// IR:       end kernel
// PTX-LABEL: kernel _Z9scalarRowPKfPKiiPf
// PTX:       loop: depth=1 line=0 trip=3.5 exact=no guessed=yes
// PTX:       loop: depth=1 line=0 trip=2 exact=no guessed=yes
// PTX:       guess: loop at PTX line {{[0-9]+}} (depth 1): trip count unknown, assumed 16 (unrolled 8 times by the compiler: 2 passes and a remainder loop)
// PTX-NOT:   guess:
// PTX:       end kernel
__global__ void scalarRow(const float *__restrict__ val,
                          const int *__restrict__ rows, int dim, float *out) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < dim) {
    float sum = 0;
    for (int j = rows[row]; j < rows[row + 1]; ++j)
      sum += val[j];
    out[row] = sum;
  }
}
