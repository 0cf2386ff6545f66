// A halo load behind a bounds check (`threadIdx.x < 7`: the next block's
// first elements, which that block reads itself) moves no DRAM bytes of
// its own; the kernel still reads its input and writes its output once.
// The overlap of neighbouring blocks' reads took the halo load's bytes
// off as if every thread made it, and the check then scaled the rest
// again: 5.4 of the 8 compulsory bytes a thread (245 us on an RTX A4000
// where the same kernel without the halo took 358). Each access now
// carries the checks it runs behind (`behind=`), and what a family saves
// is counted after them.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --kernel _Z12halo_guardedPKiPi %t.ptx | FileCheck %s
// RUN: flipflop-ptx --no-ptxas --kernel _Z12halo_guardedPKiPi --gpu RTX-A4000 --block 256 --grid 65536 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.halo
// RUN: flipflop-ptx --no-ptxas --kernel _Z7no_haloPKiPi --gpu RTX-A4000 --block 256 --grid 65536 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.plain
// RUN: %python -c "import sys; a = float(open(r'%t.halo').read()); b = float(open(r'%t.plain').read()); print(a, b); sys.exit(0 if 0.97 * b <= a <= 1.1 * b else 1)"

// CHECK:      guard 0: + 1*tid.x - 6 <= 0
// CHECK:      access: global load {{.*}} base={{[0-9]+}}+0
// CHECK-NEXT: access: global load {{.*}} behind=0 base={{[0-9]+}}+1024
__global__ void no_halo(const int *__restrict__ in, int *__restrict__ out) {
  int g = threadIdx.x + blockIdx.x * blockDim.x;
  out[g] = in[g];
}
__global__ void halo_guarded(const int *__restrict__ in, int *__restrict__ out) {
  int g = threadIdx.x + blockIdx.x * blockDim.x;
  int v = in[g];
  if (threadIdx.x < 7)
    v += in[g + 256];
  out[g] = v;
}
