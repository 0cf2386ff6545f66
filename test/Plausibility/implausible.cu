// The plausibility guard between profile and model: a profile beyond 1e9
// instructions per thread (here 4e10 from -flipflop-args) is implausible:
// remark FF013, no FF001, no recommendation in the IR or the report; a pick
// longer than an hour (a plausible count, a large problem) stands with
// warning FF014.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env FLIPFLOP_ARGS=1=100000 FLIPFLOP_PROBLEM_SIZE=268435456 FLIPFLOP_REPORT_DIR=%t %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S -I%flipflop_src/test/Inputs %s -o %t/k.s -Rpass-analysis=flipflop -fsave-optimization-record -foptimization-record-file=%t/k.yaml 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=YAML < %t/k.yaml
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s | env FLIPFLOP_PROBLEM_SIZE=268435456 opt -load-pass-plugin=%ffplugin -passes=flipflop -flipflop-args=1=100000 -S | FileCheck %s --check-prefix=IR
// RUN: cat %t/*.flipflop.json | FileCheck %s --check-prefix=JSON
#include "ff_cuda.h"

// CHECK-NOT: kernel 'huge(float*, int)' on
// CHECK: remark: [FF013] kernel 'huge(float*, int)': implausible figures, no recommendation: {{[0-9.]+e\+10}} instructions per thread, beyond the plausible 1e+09
// CHECK-NOT: kernel 'huge(float*, int)' on
__global__ void huge(float *x, int n) {
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < n; ++i)
#pragma unroll 1
    for (int j = 0; j < n; ++j)
      acc += 1.0f;
  x[threadIdx.x] = acc;
}

// CHECK: remark: [FF001] kernel 'slow(float*, int)' on A100-SXM4-40GB: for energy use block {{[0-9]+}}{{.*}}: {{([0-9]{4}|[0-9.]+e\+04)}} s,
// CHECK: remark: [FF014] kernel 'slow(float*, int)': check this prediction: the {{[a-z-]+}} configuration is predicted to run {{[0-9.]+e\+0[34]}} s, above 3.6e+03 s: the figures rest on the profile's trip counts
__global__ void slow(float *x, int n) {
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < n; ++i)
#pragma unroll 1
    for (int j = 0; j < 1000; ++j)
      acc = acc * acc + 1.0f;
  x[threadIdx.x] = acc;
}

// YAML: Name: FF013
// YAML: Function: _Z4hugePfi
// YAML: - Problem: '{{[0-9.]+e\+10}} instructions per thread, beyond the plausible 1e+09'
// YAML: Name: FF014
// YAML: Function: _Z4slowPfi
// YAML: - Warning:
// IR-NOT: !flipflop
// IR: define {{.*}} @_Z4hugePfi({{.*}}) {{.*}}[[HUGE:#[0-9]+]]
// IR: define {{.*}} @_Z4slowPfi({{.*}}) {{.*}}!flipflop
// IR-NOT: attributes [[HUGE]] = { {{.*}}flipflop.block
// JSON: "configs": [],
// JSON: "display_name": "huge(float*, int)"
// JSON: "warnings": [
// JSON-NEXT: "implausible figures, no recommendation: {{[0-9.]+e\+10}} instructions per thread, beyond the plausible 1e+09"
