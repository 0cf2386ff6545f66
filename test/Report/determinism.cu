// Reports are deterministic: two compiles of the same source write
// byte-identical JSON (safe under ninja -j, ccache and distributed builds),
// and the HTML rendered from them is byte-identical too. No temporary file
// is left in the report directory.
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: env FLIPFLOP_REPORT_DIR=%t/a %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %flipflop_src/test/Plugin/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t/a.s
// RUN: env FLIPFLOP_REPORT_DIR=%t/b %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %flipflop_src/test/Plugin/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t/b.s
// RUN: ls %t/a | FileCheck %s --check-prefix=NAME
// RUN: diff -r %t/a %t/b
// RUN: flipflop-report html %t/a -o %t/a.html
// RUN: flipflop-report html %t/b -o %t/b.html
// RUN: cmp %t/a.html %t/b.html
// NAME: kernels.cu-{{[0-9a-f]+}}.sm_80.flipflop.json
// NAME-NOT: tmp
