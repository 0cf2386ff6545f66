// Address arithmetic that the back end's loop strength reduction removes.
// A loop's addresses that step by a constant become pointer induction
// variables: one increment per group of addresses a constant apart, the
// others [reg+imm] operands, and the index arithmetic is gone; a product
// that is itself a recurrence becomes an add. The IR front end now counts
// what is left (`tile`: 73 integer instructions, llc's PTX 98 with its
// unconditional branches' counter copies, six of them IMAD.WIDEs that
// take in five mul.wide, test/PTX/wide-multiply-adds.ptx; before, 473:
// shl/add per load),
// and a gather whose address adds a loaded value (`gather`: dedispersion's
// shape) keeps the add of the value and its cvt.u64 (IR 4098, PTX 4103 and an IMAD.WIDE;
// before, 6402 with the channel product and the table index per load; 4866
// and 4872 before three-input adds, test/Profile/three-input-adds.cu: the
// channel offsets `c * 4096` are immediates of one IADD3 with the value).
// Outside loops, addresses of one block a constant apart share a register
// through [reg+imm] when the back end can split the constant off: a sext'd
// index (`srows`: llc reads [%rd+4] .. [%rd+12]; IR 2 integer instructions,
// before 8) but not the zext of an unsigned sum that may wrap (`urows`:
// llc computes each address; IR 8). Since session 35 that is read off the
// addresses themselves (SCEV without its constant term): a 2-D window of an
// unrolled stencil, sh[ty + i][tx + j], whose row indices the IR extends
// one by one, is one register and eight immediates in llc's PTX ([%rd+4] ..
// [%rd+280]; `window`: IR 9 integer instructions, before 11).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s --check-prefix=IR
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s --check-prefix=PTX

// IR-LABEL: kernel _Z4tilePKfPf
// IR: ops: fp32=64 int=73 barrier=1
// IR-LABEL: kernel _Z6gatherPKhPKfPff
// IR: ops: fp32=2048 int=4098 int.mul=1 conv=2048
// IR-LABEL: kernel _Z5srowsPKfPfi
// IR: ops: fp32=2 int=2 int.mul=1 load.global=4
// IR-LABEL: kernel _Z5urowsPKfPfj
// IR: ops: fp32=2 int=8 int.mul=1 load.global=4
// IR-LABEL: kernel _Z6windowPKfPf
// IR: ops: fp32=9 int=9 barrier=1 load.global=1 store.global=1 load.shared=9
// PTX-LABEL: kernel _Z4tilePKfPf
// PTX: ops: fp32=64 int=92 int.mul=6 barrier=1
// PTX-LABEL: kernel _Z6gatherPKhPKfPff
// PTX: ops: fp32=2048 int=4103 int.mul=2 conv=2048
__global__ void tile(const float *in, float *out) {
  __shared__ float a[64 * 16], b[64 * 32];
  int tx = threadIdx.x, ty = threadIdx.y;
  a[ty * 16 + tx] = in[ty * 16 + tx];
  b[ty * 32 + tx] = in[1024 + ty * 32 + tx];
  __syncthreads();
  float acc = 0.0f;
#pragma unroll 4
  for (int k = 0; k < 64; ++k)
    acc += a[k * 16 + tx] * b[k * 32 + ty];
  out[ty * 16 + tx] = acc;
}

__global__ void gather(const unsigned char *in, const float *shifts, float *out,
                       float dm) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
#pragma unroll 4
  for (int c = 0; c < 1024; ++c) {
    unsigned s = dm * shifts[c];
    sum += in[c * 4096 + x + s];
  }
  out[x] = sum;
}

__global__ void srows(const float *in, float *out, int ld) {
  int t = threadIdx.x;
  int r = t * ld;
  out[t] = in[r] + in[(int)(r + 1u)] * in[(int)(r + 2u)] + in[(int)(r + 3u)];
}

__global__ void urows(const float *in, float *out, unsigned ld) {
  unsigned t = threadIdx.x;
  unsigned r = t * ld;
  out[t] = in[r] + in[r + 1] * in[r + 2] + in[r + 3];
}

__global__ void window(const float *in, float *out) {
  __shared__ float sh[18][34];
  int tx = threadIdx.x, ty = threadIdx.y;
  sh[ty][tx] = in[(blockIdx.y * 16 + ty) * 4096 + blockIdx.x * 32 + tx];
  __syncthreads();
  float s = 0;
#pragma unroll
  for (int i = 0; i < 3; ++i)
#pragma unroll
    for (int j = 0; j < 3; ++j)
      s += sh[ty + i][tx + j];
  out[(blockIdx.y * 16 + ty) * 4096 + blockIdx.x * 32 + tx] = s;
}
