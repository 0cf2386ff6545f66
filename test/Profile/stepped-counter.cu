// Counters that are no add recurrence: halved, doubled or rounded up each
// pass (`s /= 2`, `s >>= 1`, `s *= 2`, `s = (s + 1) / 2`, `s /= 4`), the
// strides of tree reductions, scans and sorts. ScalarEvolution computes no
// exit count for them, and they were guessed at 16 passes; with the bound
// stated (n = 1000) the IR front end now runs the loop's integer steps
// pass by pass: 9, 10, 10, 10 and 5 passes. Without the argument they stay
// guessed. clang's PTX of the same kernels is counted as well
// (test/PTX/stepped-counter.ptx has nvcc's forms).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile -flipflop-args=2=1000 %t.ll | FileCheck %s --check-prefix=IR
// RUN: %profile %t.ll | FileCheck %s --check-prefix=NOARG
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile --arg 2=1000 %t.ptx | FileCheck %s --check-prefix=PTX

// IR-LABEL: kernel _Z6halvedPKfPfi
// IR:       loop: depth=1 line=0 trip=9 exact=no guessed=no symbolic="stepped pass by pass
// IR-LABEL: kernel _Z7shiftedPKfPfi
// IR:       loop: depth=1 line=0 trip=10 exact=no guessed=no symbolic="stepped pass by pass
// IR-LABEL: kernel _Z7doubledPKfPfj
// IR:       loop: depth=1 line=0 trip=10 exact=no guessed=no symbolic="stepped pass by pass
// IR-LABEL: kernel _Z9roundedUpPKfPfi
// IR:       loop: depth=1 line=0 trip=10 exact=no guessed=no symbolic="stepped pass by pass
// IR-LABEL: kernel _Z8quarterdPKfPfi
// IR:       loop: depth=1 line=0 trip=5 exact=no guessed=no symbolic="stepped pass by pass
// NOARG-LABEL: kernel _Z6halvedPKfPfi
// NOARG:       loop: depth=1 line=0 trip=16 exact=no guessed=yes
// PTX-LABEL: kernel _Z6halvedPKfPfi
// PTX:       loop: depth=1 line=0 trip=9 exact=
// PTX-LABEL: kernel _Z7shiftedPKfPfi
// PTX:       loop: depth=1 line=0 trip=10 exact=
// PTX-LABEL: kernel _Z7doubledPKfPfj
// PTX:       loop: depth=1 line=0 trip=10 exact=
// PTX-LABEL: kernel _Z9roundedUpPKfPfi
// PTX:       loop: depth=1 line=0 trip=10 exact=
// PTX-LABEL: kernel _Z8quarterdPKfPfi
// PTX:       loop: depth=1 line=0 trip=5 exact=
__global__ void halved(const float *in, float *out, int n) {
  float acc = 0;
  for (int s = n / 2; s > 0; s /= 2)
    acc += in[s];
  out[threadIdx.x] = acc;
}
__global__ void shifted(const float *in, float *out, int n) {
  float acc = 0;
  for (int s = n; s > 0; s >>= 1)
    acc += in[s];
  out[threadIdx.x] = acc;
}
__global__ void doubled(const float *in, float *out, unsigned n) {
  float acc = 0;
  for (unsigned s = 1; s < n; s *= 2)
    acc += in[s];
  out[threadIdx.x] = acc;
}
__global__ void roundedUp(const float *in, float *out, int n) {
  float acc = 0;
  for (int s = n; s > 1; s = (s + 1) / 2)
    acc += in[s];
  out[threadIdx.x] = acc;
}
__global__ void quarterd(const float *in, float *out, int n) {
  float acc = 0;
  for (int s = n; s > 1; s /= 4)
    acc += in[s];
  out[threadIdx.x] = acc;
}
