// A kernel that does no work (CUB's EmptyKernel, in every program built
// with CUB or Thrust) costs the launch at every configuration: remark
// FF017 in place of FF001, no recommendation in the IR, no bounds applied
// even when asked, a report entry without configurations whose explanation
// says why, and the same from flipflop-ptx. A kernel beside it that does
// work still gets its recommendation.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env FLIPFLOP_REPORT_DIR=%t %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S -I%flipflop_src/test/Inputs %s -o %t/k.ptx -mllvm -flipflop-apply-bounds=on -Rpass-analysis=flipflop -Rpass=flipflop -fsave-optimization-record -foptimization-record-file=%t/k.yaml 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=YAML < %t/k.yaml
// RUN: FileCheck %s --check-prefix=PTX < %t/k.ptx
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %s | opt -load-pass-plugin=%ffplugin -passes=flipflop -S | FileCheck %s --check-prefix=IR
// RUN: cat %t/*.flipflop.json | FileCheck %s --check-prefix=JSON
// RUN: flipflop-report html %t -o %t/r.html
// RUN: FileCheck %s --check-prefix=HTML < %t/r.html
// RUN: flipflop-ptx %t/k.ptx --gpu A100-SXM4-40GB --no-ptxas | FileCheck %s --check-prefix=TOOL
#include "ff_cuda.h"

// CHECK-NOT: kernel 'EmptyKernel()' on
// CHECK: remark: [FF017] kernel 'EmptyKernel()': nothing to tune: it does no work (no instruction but its return), so every launch costs only the launch overhead, whatever its block, register cap or power setting
// CHECK-NOT: kernel 'EmptyKernel()' on
// CHECK-NOT: FF030{{.*}}EmptyKernel
__global__ void EmptyKernel() {}

// The body does nothing the optimizer keeps: no work either.
__global__ void deadBody(float x) {
  float y = x;
  for (int i = 0; i < 16; ++i)
    y = y * y + 1.0f;
}

// CHECK: remark: [FF001] kernel 'scale(float*, int)' on A100-SXM4-40GB: for energy use block
__global__ void scale(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2.0f;
}

// YAML: Name: FF017
// YAML: Function: _Z11EmptyKernelv
// YAML: - Kernel: 'EmptyKernel()'
// YAML: Name: FF017
// YAML: Function: _Z8deadBodyf
// YAML: Name: FF001
// YAML: Function: _Z5scalePfi

// No bounds written into the kernels that do nothing; the other has them.
// PTX-LABEL: .entry _Z11EmptyKernelv()
// PTX-NOT: .maxntid
// PTX: ret;
// PTX-LABEL: .entry _Z8deadBodyf(
// PTX-NOT: .maxntid
// PTX: ret;
// PTX-LABEL: .entry _Z5scalePfi(
// PTX: .maxntid

// IR: define {{.*}} @_Z11EmptyKernelv() {{[^!]*}}{
// IR: define {{.*}} @_Z8deadBodyf(float {{.*}}) {{[^!]*}}{
// IR: define {{.*}} @_Z5scalePfi({{.*}}) {{.*}}!flipflop

// JSON: "configs": [],
// JSON: "display_name": "EmptyKernel()",
// JSON: "explanation": "nothing to tune: the kernel does no work (no instruction but its return), so every launch costs only the launch overhead, whatever its block, register cap or power setting",
// JSON: "picks": {},

// HTML: EmptyKernel()
// HTML: <p>nothing to tune: the kernel does no work (no instruction but its return), so every launch costs only the launch overhead, whatever its block, register cap or power setting</p>

// TOOL: kernel EmptyKernel()
// TOOL-NEXT: resources:
// TOOL-NEXT: nothing to tune: the kernel does no work
// TOOL-EMPTY:
// TOOL-NEXT: kernel deadBody(float)
// TOOL-NEXT: resources:
// TOOL-NEXT: nothing to tune
// TOOL: kernel scale(float*, int)
// TOOL: configurations,
// TOOL: picks:
