// Sibling loads in the IR front end: a thread's row of 16 floats read as 16
// loads off one base pointer at constant offsets 0..60 (lane stride 64) get
// one BaseId and their offsets, so the model moves the row once
// (docs/MODEL.md, "Sibling loads"); the PTX front end does the same from
// [%rd+off] (test/PTX/sibling-loads.test).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: flipflop-ptx --no-ptxas --dump-profile --kernel rowread %S/../PTX/Inputs/rows.ptx | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: kernel _Z6rowsumPKfPf
// CHECK: access: global load bytes=4 {{.*}}stride=64 {{.*}} base=[[B:[0-9]+]]+0
// CHECK: access: global load bytes=4 {{.*}}stride=64 {{.*}} base=[[B]]+4
// CHECK: access: global load bytes=4 {{.*}}stride=64 {{.*}} base=[[B]]+60
// CHECK-LABEL: kernel _Z7rowsum2PKfPf
// CHECK: access: global load bytes=4 {{.*}}stride=64 {{.*}} base=[[U:[0-9]+]]+0
// CHECK: access: global load bytes=4 {{.*}}stride=64 {{.*}} base=[[U]]+4
// CHECK: access: global load bytes=4 {{.*}}stride=64 {{.*}} base=[[U]]+60
// CHECK-LABEL: kernel _Z5pairsPKfPfi
// CHECK: access: global load bytes=4 {{.*}} base=[[Q:[0-9]+]]+0
// CHECK: access: global load bytes=4 {{.*}} base=[[Q]]+4
// PTX: access: global load bytes=4 {{.*}}stride=64 {{.*}} base=[[P:[0-9]+]]+0
// PTX: access: global load bytes=4 {{.*}}stride=64 {{.*}} base=[[P]]+60
__global__ void rowsum(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  const float *r = in + x * 16;
  float s = 0;
#pragma unroll
  for (int i = 0; i < 16; ++i)
    s += r[i];
  out[x] = s;
}

// The same row indexed as in[b + i] with an unsigned b (CLBlast's
// agm[idm + ...] without nsw): each index is zext(add i32 %b, i), one GEP
// per load, which GetPointerBaseWithConstantOffset alone cannot relate.
// The sibling key looks through the add (siblingKey in IRClassify.cpp);
// before, the 16 loads had 16 bases and the row moved 16 times.
__global__ void rowsum2(const float *in, float *out) {
  unsigned b = (blockIdx.x * blockDim.x + threadIdx.x) * 16u;
  float s = 0;
#pragma unroll
  for (unsigned i = 0; i < 16; ++i)
    s += in[b + i];
  out[b / 16] = s;
}

// A pair of neighbours in a row of a tile, as CLBlast copies A (SA = 1):
// the column c is even, so clang writes c + 1 as `or disjoint c, 1`, and
// it associates the sums so that the constant sits inside them
// (`r * ld + ((c | 1) + g)`). The key takes the whole index as a linear
// form (linearTerms), so the two loads share a base 4 bytes apart; before,
// only a trailing `+ C` was looked through and each load had its own base.
__global__ void pairs(const float *in, float *out, int ld) {
  int t = threadIdx.x;
  int c = (t % 8) * 2, r = t / 8, g = blockIdx.x * 16;
  float a = in[r * ld + (c + g)];
  float b = in[r * ld + ((c + 1) + g)];
  out[t] = a + b;
}
