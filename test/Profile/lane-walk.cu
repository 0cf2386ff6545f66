// Lanes that each walk their own run, less than a sector a pass: a CSR
// row (`for (j = rowPtr[row]; j < rowPtr[row + 1]; j++) s += val[j] *
// x[colIdx[j]]`, lanes scattered by the data) and a thread's own chunk
// (`for (i = t * per; i < (t + 1) * per; ++i)`, lanes 4 x per bytes
// apart). Each request of 32 lanes touches 32 sectors, and the next 7
// passes read the rest of those sectors, which the L1 holds: both front
// ends charged a sector a lane every pass (the CSR kernel 4.3 ms on an RTX
// A4000 at the guessed 16 elements a row, where ~1.8 is the hand count;
// the chunk 370 us on nvcc's code, DRAM-bound). The passes now move each
// lane's run once (walk=: the bytes the address moves a pass, now also
// without an address form in the PTX).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=0=1048576 %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 0=1048576 %t.ptx | FileCheck %s
// RUN: flipflop-ptx --no-ptxas --kernel _Z4spmviPKiS0_PKfS2_Pf --gpu RTX-A4000 --block 256 --grid 4096 --arg 0=1048576 %t.ptx | FileCheck %s --check-prefix=TIME

// CHECK-LABEL: kernel _Z4spmviPKiS0_PKfS2_Pf
// CHECK:       access: global load bytes=4 {{.*}}pattern=unknown {{.*}} data {{.*}}walk=4
// TIME:        time 0.00{{1[5-9]|2[0-1]}}{{[0-9]*}} s{{.*}} bound by dram
__global__ void spmv(int m, const int *__restrict__ rowPtr,
                     const int *__restrict__ colIdx,
                     const float *__restrict__ val,
                     const float *__restrict__ x, float *__restrict__ y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float s = 0.f;
#pragma unroll 1
    for (int j = rowPtr[row]; j < rowPtr[row + 1]; j++)
      s += val[j] * x[colIdx[j]];
    y[row] = s;
  }
}
