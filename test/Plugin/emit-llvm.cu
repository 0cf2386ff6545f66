// With -emit-llvm clang generates no code, so the PreCodeGen callback never
// runs: the plugin then reports just before the IR writer, from the PTX of a
// copy of the module. The IR written carries the !flipflop metadata of the
// recommendation, and the remarks (text, record and report) are those of a
// compile to PTX, at -O2 and -O3, as text or bitcode (docs/METADATA.md).
// RUN: rm -rf %t && mkdir -p %t/ptx %t/ll %t/bc %t/o3ptx %t/o3ll
// RUN: env FLIPFLOP_VERBOSITY=2 FLIPFLOP_REPORT_DIR=%t/ptx %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S %S/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t/ptx/k.ptx -Rpass-analysis=flipflop -Rpass-missed=flipflop -fsave-optimization-record -foptimization-record-passes=flipflop -foptimization-record-file=%t/ptx/k.yaml 2> %t/ptx/remarks.txt
// RUN: env FLIPFLOP_VERBOSITY=2 FLIPFLOP_REPORT_DIR=%t/ll %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S -emit-llvm %S/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t/ll/k.ll -Rpass-analysis=flipflop -Rpass-missed=flipflop -fsave-optimization-record -foptimization-record-passes=flipflop -foptimization-record-file=%t/ll/k.yaml 2> %t/ll/remarks.txt
// RUN: env FLIPFLOP_VERBOSITY=2 FLIPFLOP_REPORT_DIR=%t/bc %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -c -emit-llvm %S/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t/bc/k.bc -Rpass-analysis=flipflop -Rpass-missed=flipflop -fsave-optimization-record -foptimization-record-passes=flipflop -foptimization-record-file=%t/bc/k.yaml 2> %t/bc/remarks.txt
// RUN: FileCheck %s --check-prefix=REMARKS < %t/ptx/remarks.txt
// RUN: diff %t/ptx/remarks.txt %t/ll/remarks.txt
// RUN: diff %t/ptx/remarks.txt %t/bc/remarks.txt
// RUN: diff %t/ptx/k.yaml %t/ll/k.yaml
// RUN: diff %t/ptx/k.yaml %t/bc/k.yaml
// RUN: diff %t/ptx/*.flipflop.json %t/ll/*.flipflop.json
// RUN: diff %t/ptx/*.flipflop.json %t/bc/*.flipflop.json
// REMARKS-COUNT-5: remark: [FF001] kernel
// REMARKS: remark: [FF003] pareto 0
//
// The metadata holds the pick the remark names, in IR and in bitcode:
// RUN: cat %t/ptx/remarks.txt %t/ll/k.ll | FileCheck %s
// RUN: llvm-dis %t/bc/k.bc -o %t/bc/k.ll
// RUN: cat %t/ptx/remarks.txt %t/bc/k.ll | FileCheck %s
// CHECK: [FF001] kernel 'gemm_tiled(float const*, float const*, float*, int)' on A100-SXM4-40GB: for energy use block [[BX:[0-9]+]]x[[BY:[0-9]+]], min-blocks [[MB:[0-9]+]], power limit [[W:[0-9]+]] W
// CHECK: define {{.*}}ptx_kernel void @_Z10gemm_tiledPKfS0_Pfi({{.*}}) {{.*}}[[ATTRS:#[0-9]+]] {{.*}}!flipflop [[MD:![0-9]+]] {
// CHECK: attributes [[ATTRS]] = {{{.*}}"flipflop.block"="[[BX]],[[BY]],1" "flipflop.min-blocks"="[[MB]]" "flipflop.power-limit-w"="[[W]]"
// CHECK: [[MD]] = !{!"flipflop.v1", !"A100-SXM4-40GB", !"energy", i32 [[BX]], i32 [[BY]], i32 1, i32 [[MB]], double
//
// Apart from them the IR is clang's own: it generates the same PTX.
// RUN: %clang_ff_nocuda --cuda-gpu-arch=sm_80 -O2 -S -emit-llvm %S/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t/plain.ll
// RUN: %clang_cuda -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -O2 -S -emit-llvm %S/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t/ref.ll
// RUN: grep -c '!flipflop !' %t/plain.ll | FileCheck %s --check-prefix=FIVE
// RUN: llc %t/plain.ll -o %t/plain.ptx
// RUN: llc %t/ref.ll -o %t/ref.ll.ptx
// RUN: cmp %t/plain.ptx %t/ref.ll.ptx
//
// At -O3 (code generation level Aggressive) too:
// RUN: env FLIPFLOP_REPORT_DIR=%t/o3ptx %clang_ff_nocuda --cuda-gpu-arch=sm_90 -O3 -S %S/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t/o3ptx/k.ptx -Rpass-analysis=flipflop -Rpass-missed=flipflop 2> %t/o3ptx/remarks.txt
// RUN: env FLIPFLOP_REPORT_DIR=%t/o3ll %clang_ff_nocuda --cuda-gpu-arch=sm_90 -O3 -S -emit-llvm %S/Inputs/kernels.cu -I%flipflop_src/test/Inputs -o %t/o3ll/k.ll -Rpass-analysis=flipflop -Rpass-missed=flipflop 2> %t/o3ll/remarks.txt
// RUN: diff %t/o3ptx/remarks.txt %t/o3ll/remarks.txt
// RUN: diff %t/o3ptx/*.flipflop.json %t/o3ll/*.flipflop.json
// RUN: grep -c '!flipflop !' %t/o3ll/k.ll | FileCheck %s --check-prefix=FIVE
// FIVE: 5
