// The IR front end's view of the gathers of test/PTX/Inputs/gathers.cu: a
// data-scaled coordinate (warp-uniform coefficient x row, fptoui) is not a
// gather along y; an index loaded per thread and a pitch read from memory
// stay data-dependent (docs/MODEL.md, "Data-scaled coordinates").
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %S/../PTX/Inputs/gathers.cu > %t.ll
// RUN: %profile %t.ll | FileCheck %s

// CHECK-LABEL: kernel _Z6smoothPKhPfPKfii
// CHECK:         access: global load bytes=1 {{.*}} smooth=y {{.*}} tid=x ctaid=x reused
// CHECK-LABEL: kernel _Z8indirectPKfPKiPfi
// CHECK:         access: global load bytes=4 {{.*}} tid=xy ctaid=xy data
// CHECK-NOT:     smooth
// CHECK-LABEL: kernel _Z7pitchedPKfPKiPf
// CHECK:         access: global load bytes=4 {{.*}} tid=xy ctaid=xy data
