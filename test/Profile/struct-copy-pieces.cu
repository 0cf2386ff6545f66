// A struct copied from global memory (clang keeps it a memcpy of 32 bytes,
// align 4, when its destination is a shared tile) is eight 4-byte loads at
// +0 .. +28 of one base in clang's PTX: siblings that share each thread's
// sector. The IR front end counted it as one access of eight loads at +0,
// each charged a request's sectors, and the model's sibling rule never saw
// them: CLBlast with VWN = 8 (a float8 read of B per thread) had 6.4x the
// L2 bytes of the PTX front end on the same binary (plugin 17.9 ms against
// clang-ptx 12.6 ms, MWG = 32, NWG = 128, RTX 3090; docs/FIDELITY.md,
// "Session 23"). Both front ends now give the same pieces; the PTX one on
// llc's PTX of the same IR.
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z4rowsPK2f8Pf
// CHECK-NOT: access: global load bytes=4 count=8
// CHECK-DAG: access: global load bytes=4 count=1 pattern=strided stride=32 {{.*}} base={{[0-9]+}}+0{{$}}
// CHECK-DAG: access: global load bytes=4 count=1 pattern=strided stride=32 {{.*}} base={{[0-9]+}}+4{{$}}
// CHECK-DAG: access: global load bytes=4 count=1 pattern=strided stride=32 {{.*}} base={{[0-9]+}}+8{{$}}
// CHECK-DAG: access: global load bytes=4 count=1 pattern=strided stride=32 {{.*}} base={{[0-9]+}}+12{{$}}
// CHECK-DAG: access: global load bytes=4 count=1 pattern=strided stride=32 {{.*}} base={{[0-9]+}}+16{{$}}
// CHECK-DAG: access: global load bytes=4 count=1 pattern=strided stride=32 {{.*}} base={{[0-9]+}}+20{{$}}
// CHECK-DAG: access: global load bytes=4 count=1 pattern=strided stride=32 {{.*}} base={{[0-9]+}}+24{{$}}
// CHECK-DAG: access: global load bytes=4 count=1 pattern=strided stride=32 {{.*}} base={{[0-9]+}}+28{{$}}
// CHECK-DAG: access: shared store bytes=16 count=1
// CHECK: memory: global-read=32 global-written=4 sector-bytes=260
struct f8 { float s0, s1, s2, s3, s4, s5, s6, s7; };
__global__ void rows(const f8 *b, float *out) {
  __shared__ f8 tile[256];
  tile[threadIdx.x] = b[threadIdx.x];
  __syncthreads();
  f8 v = tile[(threadIdx.x + 1) % 256];
  out[threadIdx.x] = v.s0 + v.s1 + v.s2 + v.s3 + v.s4 + v.s5 + v.s6 + v.s7;
}
