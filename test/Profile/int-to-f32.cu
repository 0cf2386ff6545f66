// Conversions to f32 from u8, u16, u32 and s32 are I2FP on the integer pipe
// from compute capability 8.6 on (I2F, the conversion pipe, before); from
// s8, s16 and 64-bit integers they stay I2F everywhere (ptxas 13.0 SASS,
// docs/MODEL.md "Conversions"). Both front ends count the first kind apart
// (KernelProfile::ConvIntToF32): here u8, s32, u32 and the s32 that
// float(int(...)) converts back (4 of the 7 conversions); s16, s64 and the
// f32 -> s32 truncation are not.
// RUN: %cu2ll --cuda-gpu-arch=sm_86 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_86 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z4convPKhPKsPKiPKjPKlPf
// CHECK: ops: {{.*}}conv=7 {{.*}}(int-to-f32 4)
__global__ void conv(const unsigned char *a, const short *b, const int *c,
                     const unsigned *d, const long *e, float *out) {
  int t = threadIdx.x;
  float s = float(a[t]) + float(b[t]) + float(c[t]) + float(d[t]) +
            float(e[t]);
  out[t] = s + float(int(s * 3.0f));
}
