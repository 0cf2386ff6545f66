// A pitch the user states is a constant of the address: `in[(t / 8) * ld +
// t % 8]` with ld = 4096 reads 4 rows of 8 floats per warp (rows=8x16384,
// 4 sectors per request), as the PTX front end reads it with --arg. Without
// the value the pitch is unknown, taken as far (rows=8xfar): the same 4
// sectors, rows in lines of their own (one sector per lane, 32, until
// session 30; test/Profile/unknown-pitch.cu). Before, the IR
// front end ignored stated values in addresses (CLBlast's kSizeM: its tile
// copies were charged 4x their sectors through the plugin).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=4096 %t.ll | FileCheck %s --check-prefix=STATED
// RUN: %profile %t.ll | FileCheck %s --check-prefix=UNKNOWN

// A pitch computed from the stated value (CLBlast's kSizeN / VWN, an
// `sdiv %n, 2`) is that constant too (`half`: rows of 8192 bytes).

// STATED-LABEL: kernel _Z4rowsPKfPfi
// STATED: access: global load bytes=4 count=1 pattern=strided stride=4 rows=8x16384 sectors=4
// STATED-LABEL: kernel _Z4halfPKfPfi
// STATED: access: global load bytes=4 count=1 pattern=strided stride=4 rows=8x8192 sectors=4
// UNKNOWN: access: global load bytes=4 count=1 pattern=strided stride=4 rows=8xfar sectors=4
__global__ void rows(const float *in, float *out, int ld) {
  int t = threadIdx.x;
  out[t] = in[(t / 8) * ld + t % 8];
}

__global__ void half(const float *in, float *out, int ld) {
  int t = threadIdx.x;
  out[t] = in[(t / 8) * (ld / 2) + t % 8];
}
