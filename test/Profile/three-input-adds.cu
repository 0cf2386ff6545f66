// ptxas folds an add of at most 32 bits into the add that is its one use
// as one three-input IADD3, when at most one of the three inputs is an
// immediate or a kernel parameter (docs/MODEL.md, "Three-input adds"). Both
// front ends count the folded add as nothing:
// - `chain`: (a + 7) + b is one IADD3; `wide`, the same on 64 bits, stays
//   two adds (one integer instruction more in either front end);
// - `param`: (a + 7) + x with a a parameter has two constant inputs, so
//   stays two (IR 5, PTX 6 + 2 IMAD.WIDEs, as before the rule);
// - `twice`: s = a + b is used twice, so stays;
// - `mad`: u + a + 7 * u is an add and a mad.lo, not an IADD3;
// - `chain3`: a + b + c + 7 is two IADD3s: the first add folds into the
//   second, which has no room left for the third (one fold, IR 5 -> 4);
// - `pair4`: three xors and two adds; one add folds (IR 7 -> 6).
// The PTX's addresses (mul.wide + add.s64 into the in and out arrays) are
// IMAD.WIDEs, int.mul (test/PTX/wide-multiply-adds.ptx).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s --check-prefix=IR
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: FileCheck %s --check-prefix=ASM < %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s --check-prefix=PTX

// IR-LABEL: kernel _Z5chainPKiPi
// IR: ops: int=3 load.global=2
// IR-LABEL: kernel _Z5paramPKiPii
// IR: ops: int=5 load.global=1
// IR-LABEL: kernel _Z3madPKiPii
// IR: ops: int=4 int.mul=1 load.global=1
// IR-LABEL: kernel _Z5twicePKiPi
// IR: ops: int=5 int.mul=1 load.global=2
// IR-LABEL: kernel _Z4widePKlPl
// IR: ops: int=4 load.global=2
// IR-LABEL: kernel _Z6chain3PKiPi
// IR: ops: int=4 load.global=3
// IR-LABEL: kernel _Z5pair4PKiPi
// IR: ops: int=6 load.global=4

// ASM-LABEL: .entry _Z5chainPKiPi
// ASM: add.s32 [[A:%r[0-9]+]], %r{{[0-9]+}}, %r{{[0-9]+}};
// ASM-NEXT: add.s32 %r{{[0-9]+}}, [[A]], 7;
// ASM-LABEL: .entry _Z5paramPKiPii
// ASM: ld.param.b32 [[P:%r[0-9]+]], [_Z5paramPKiPii_param_2];
// ASM: add.s32 [[B:%r[0-9]+]], [[P]], %r{{[0-9]+}};
// ASM-NEXT: add.s32 %r{{[0-9]+}}, [[B]], 7;

// PTX-LABEL: kernel _Z5chainPKiPi
// PTX: ops: int=4 int.mul=2 load.global=2
// PTX-LABEL: kernel _Z5paramPKiPii
// PTX: ops: int=6 int.mul=2 load.global=1
// PTX-LABEL: kernel _Z3madPKiPii
// PTX: ops: int=4 int.mul=3 load.global=1
// PTX-LABEL: kernel _Z5twicePKiPi
// PTX: ops: int=6 int.mul=3 load.global=2
// PTX-LABEL: kernel _Z4widePKlPl
// PTX: ops: int=5 int.mul=2 load.global=2
// PTX-LABEL: kernel _Z6chain3PKiPi
// PTX: ops: int=5 int.mul=2 load.global=3
// PTX-LABEL: kernel _Z5pair4PKiPi
// PTX: ops: int=7 int.mul=2 load.global=4
__global__ void chain(const int *in, int *out) {
  int t = threadIdx.x;
  out[t] = in[t] + in[t + 64] + 7;
}
__global__ void param(const int *in, int *out, int a) {
  int t = threadIdx.x;
  out[t] = (in[t] ^ 5) + a + 7;
}
__global__ void mad(const int *in, int *out, int a) {
  int t = threadIdx.x;
  int u = in[t];
  out[t] = u + a + 7 * u;
}
__global__ void twice(const int *in, int *out) {
  int t = threadIdx.x;
  int s = in[t] + in[t + 64];
  out[t] = (s + 7) * (s + 9);
}
__global__ void wide(const long *in, long *out) {
  int t = threadIdx.x;
  out[t] = in[t] + in[t + 64] + 7;
}
__global__ void chain3(const int *in, int *out) {
  int t = threadIdx.x;
  out[t] = in[t] + in[t + 64] + in[t + 128] + 7;
}
__global__ void pair4(const int *in, int *out) {
  int t = threadIdx.x;
  out[t] = (in[t] ^ in[t + 64]) + (in[t + 128] ^ 5) + (in[t + 192] ^ 3);
}
