// Two stores a thread to adjacent ints (`out[2t]`, `out[2t + 1]`): each is
// a strided request of 8 sectors a warp, and between them they write every
// byte of those sectors, which the L2 merges before it writes them back.
// With an address form (no grid-stride loop) the stores' family counted
// their union; a loop over blocks stepped by gridDim leaves no form, and
// each store was charged its own sectors to DRAM: 1070 us on an RTX A4000
// where the loop-free kernel took 705. Sibling stores (one base, stride
// and count) now share their DRAM bytes as sibling loads share their
// lines.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --kernel _Z14pair_copy_loopPKiPii --gpu RTX-A4000 --block 256 --grid 768 --arg 2=65536 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.loop
// RUN: flipflop-ptx --no-ptxas --kernel _Z9pair_copyPKiPi --gpu RTX-A4000 --block 256 --grid 65536 --csv %t.ptx | tail -1 | cut -d, -f14 > %t.plain
// RUN: %python -c "import sys; a = float(open(r'%t.loop').read()); b = float(open(r'%t.plain').read()); print(a, b); sys.exit(0 if 0.95 * b <= a <= 1.1 * b else 1)"
__global__ void pair_copy(const int *__restrict__ in, int *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int a = in[2 * t], b = in[2 * t + 1];
  out[2 * t] = b;
  out[2 * t + 1] = a;
}
__global__ void pair_copy_loop(const int *__restrict__ in, int *__restrict__ out,
                               int nb) {
  for (int blk = blockIdx.x; blk < nb; blk += gridDim.x) {
    int t = blk * blockDim.x + threadIdx.x;
    int a = in[2 * t], b = in[2 * t + 1];
    out[2 * t] = b;
    out[2 * t + 1] = a;
  }
}
