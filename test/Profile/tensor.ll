; A tensor-core mma.sync m16n8k16 (f16 in, f32 accumulate): 2*16*8*16 = 4096
; FLOPs per warp, 128 per thread.
; RUN: %profile %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel mma_kernel
; CHECK: ops: {{.*}}tensor=1
; CHECK: flops: fp32=0 fp64=0 fp16=0 tensor=128 tensor-type=f16
define ptx_kernel void @mma_kernel(ptr addrspace(1) %out, <2 x half> %a, <2 x half> %b) {
  %r = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %a, <2 x half> %a, <2 x half> %a, <2 x half> %a, <2 x half> %b, <2 x half> %b, float 0.0, float 0.0, float 0.0, float 0.0)
  %v = extractvalue { float, float, float, float } %r, 0
  store float %v, ptr addrspace(1) %out
  ret void
}
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float)
