// The recommendation is attached to each kernel as !flipflop metadata and
// string attributes (docs/METADATA.md); without the opt-in no nvvm bound is
// added.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 %S/Inputs/saxpy.cu | opt -load-pass-plugin=%ffplugin -passes=flipflop -S | FileCheck %s
// CHECK: define {{.*}}void @_Z5saxpyfPKfPfi({{.*}}) {{.*}}[[ATTRS:#[0-9]+]] !flipflop [[MD:![0-9]+]] {
// CHECK: attributes [[ATTRS]] = {{{.*}}"flipflop.block"="{{[0-9]+}},1,1" "flipflop.min-blocks"="{{[0-9]+}}" "flipflop.power-limit-w"="{{[0-9]+}}"
// CHECK-NOT: nvvm.maxntid
// CHECK: [[MD]] = !{!"flipflop.v1", !"A100-SXM4-40GB", !"energy", i32 {{[0-9]+}}, i32 1, i32 1, i32 {{[0-9]+}}, double {{.*}}, double {{.*}}, double {{.*}}, double {{.*}}, double {{.*}}}
