// Loops that the branch before them goes around at the stated arguments
// run 0 passes in both front ends. With n = -5, `for (i = 0; i < n; i++)`
// is skipped by its rotated test; the PTX front end counted the unrolled
// loop's remainder (n & 3 = 3 passes) and guessed its main part, and
// counted `s >>= 1` from -5 as 63 (64-bit) or 32 passes, the shifted
// value's bits, where `s > 0` fails at once. With n = 1000 the counts are
// the source's (250 + 0, 124 + 3 of `i += 2` from 3, 10 shifts).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: %profile -flipflop-args=2=-5 %t.ll | FileCheck %s --check-prefix=NEG
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=-5 %t.ptx | FileCheck %s --check-prefixes=NEG,PTXNEG
// RUN: %profile -flipflop-args=2=1000 %t.ll | FileCheck %s --check-prefix=POS
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=1000 %t.ptx | FileCheck %s --check-prefix=POS
// RUN: %profile -flipflop-args=1=4096 %t.ll | FileCheck %s --check-prefix=ODD
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 1=4096 %t.ptx | FileCheck %s --check-prefix=ODD

// NEG-LABEL:   kernel _Z3linPKfPfi
// NEG:         loop: depth=1 line=0 trip=0 exact=
// PTXNEG-SAME: symbolic="skipped: the branch before it (@%p{{[0-9]+}} at PTX line {{[0-9]+}}) goes around it"
// NEG:         loop: depth=1 line=0 trip=0 exact=
// NEG-NOT:     guess:
// NEG-LABEL:   kernel _Z4lin2PKfPfi
// NEG:         loop: depth=1 line=0 trip=0 exact=
// NEG:         loop: depth=1 line=0 trip=0 exact=
// NEG-NOT:     guess:
// NEG-LABEL:   kernel _Z4sh64PKfPfl
// NEG:         loop: depth=1 line=0 trip=0 exact=
// NEG-LABEL:   kernel _Z4sh32PKfPfi
// NEG:         loop: depth=1 line=0 trip=0 exact=

// POS-LABEL: kernel _Z3linPKfPfi
// POS-DAG:   loop: depth=1 line=0 trip=250 exact=
// POS-DAG:   loop: depth=1 line=0 trip=0 exact=
// POS-NOT:   guess:
// POS-LABEL: kernel _Z4lin2PKfPfi
// POS-DAG:   loop: depth=1 line=0 trip=124 exact=
// POS-DAG:   loop: depth=1 line=0 trip=3 exact=
// POS-NOT:   guess:
// POS-LABEL: kernel _Z4sh64PKfPfl
// POS:       loop: depth=1 line=0 trip=10 exact=
// POS-LABEL: kernel _Z4sh32PKfPfi
// POS:       loop: depth=1 line=0 trip=10 exact=
// A guard on the thread's position skips thread 0 but not the block: the
// loop is the odd threads' (thread 0's count, 128 passes from n = 4096),
// not skipped (a review of session 44's thread-0 guard check).
// ODD-LABEL: kernel _Z3oddPfi
// ODD:       loop: depth=1 line=0 trip=128 exact=no guessed=no
__global__ void lin(const float *in, float *out, int n) {
  float acc = 0;
  for (int i = 0; i < n; i++)
    acc += in[i * 7 & 1023];
  out[threadIdx.x] = acc;
}
__global__ void lin2(const float *in, float *out, int n) {
  float acc = 0;
  for (int i = 3; i < n; i += 2)
    acc += in[i * 7 & 1023];
  out[threadIdx.x] = acc;
}
__global__ void sh64(const float *in, float *out, long n) {
  float acc = 0;
  for (long s = n; s > 0; s >>= 1)
    acc += in[s & 1023];
  out[threadIdx.x] = acc;
}
__global__ void sh32(const float *in, float *out, int n) {
  float acc = 0;
  for (int s = n; s > 0; s >>= 1)
    acc += in[s & 1023];
  out[threadIdx.x] = acc;
}
__global__ void odd(float *a, int n) {
  int t = threadIdx.x;
  if (t & 1)
    for (int j = t; j < n; j += 32)
      a[j] += 1.0f;
}
