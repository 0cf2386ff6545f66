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

// A family all of whose members run behind a check (`if (blockIdx.y <
// H)`, three rows of a stencil) moves the rows of the blocks that pass
// (review: its union counted every block's, 12.6 MB at H = 256 of 512
// rows where 8.4 are read).
// RUN: flipflop-ptx --no-ptxas --kernel _Z7rows3ofPfPKfii --gpu RTX-A4000 --block 256 --grid 16,512 --arg 2=4096,3=512 --csv %t.ptx | tail -1 | cut -d, -f30 > %t.all
// RUN: flipflop-ptx --no-ptxas --kernel _Z7rows3ofPfPKfii --gpu RTX-A4000 --block 256 --grid 16,512 --arg 2=4096,3=256 --csv %t.ptx | tail -1 | cut -d, -f30 > %t.half
// RUN: %python -c "import sys; a = float(open(r'%t.all').read()); b = float(open(r'%t.half').read()); print(a, b); sys.exit(0 if 0.45 * a <= b <= 0.55 * a else 1)"

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
__global__ void rows3of(float *out, const float *in, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (y < H)
    out[y * W + x] = in[y * W + x] + in[(y + 1) * W + x] + in[(y + 2) * W + x];
}
