// A thread id kept in a `volatile` local (CLBlast's Xgemm: `volatile int
// tid = get_local_id(0) + MDIMC*get_local_id(1);`, "to disable caching") is
// still the thread id: each thread reads back what it stored. clang keeps
// the variable in memory (an alloca between lifetime markers in the IR, a
// `.local` depot slot in the PTX); both front ends read the load as the
// stored value, so the tile copy below is rows of 8 lanes (16 sectors per
// request), not a gather (32 sectors) or a broadcast (1 sector), and its
// address depends on threadIdx, not on loaded data.
// Before: the IR called the alloca escaped (its lifetime markers are
// calls), the PTX took a `ld.local` at a uniform address for a uniform value.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: FileCheck --check-prefix=IR %s < %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: FileCheck --check-prefix=PTX %s < %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// IR: llvm.lifetime.start
// IR: store volatile i32
// IR: load volatile i32
// PTX: st.local
// PTX: ld.local

// CHECK-LABEL: kernel _Z5stagePKDv4_fPS_
// CHECK: access: global load bytes=16 count=1 pattern=strided stride=16 rows=8x16384 sectors=16 line=0 tid=xy ctaid=x base=
// CHECK: access: shared store bytes=16 count=1 pattern=coalesced stride=16
typedef float F4 __attribute__((ext_vector_type(4)));
__global__ void stage(const F4 *in, F4 *out) {
  __shared__ F4 tile[16][8];
  volatile int tid = threadIdx.x + 16 * threadIdx.y; // a 16 x 8 block
  int t = tid;
  int col = t % 8, row = t / 8;
  tile[row][col] = in[(blockIdx.x * 16 + row) * 1024 + col];
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x + 16 * threadIdx.y] =
      tile[col * 2 % 16][row % 8];
}
