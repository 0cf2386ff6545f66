; WMMA fragments through both front ends of one IR. A fragment's bytes per
; lane follow its shape and type: A and B of m16n16k16 f16 are 16 bytes,
; the f32 accumulator D is 32 (before, the IR said 16 for every fragment).
; The block indices a fragment's address depends on are read in both (the
; PTX front end took none, so it found no reuse across blocks: A, indexed
; by blockIdx.y only, is read by every block of a row from L2, and the
; demo's gemmWmma was predicted DRAM-bound at 4.8x the plugin's time).
; RUN: %profile %s | FileCheck %s --check-prefixes=CHECK,IR
; RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %s -o %t.ptx
; RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s --check-prefixes=CHECK,PTX
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel tiles
; IR:  access: global load bytes=16 count=1 pattern=coalesced stride=16 sectors=16 line=0 ctaid=y reused
; IR:  access: global load bytes=16 count=1 pattern=coalesced stride=16 sectors=16 line=0 ctaid=x reused
; IR:  access: global store bytes=32 count=1 pattern=coalesced stride=32 sectors=32 line=0 ctaid=xy
; PTX: access: generic load bytes=16 count=1 pattern=coalesced stride=16 sectors=16 line=0 ctaid=y reused
; PTX: access: generic load bytes=16 count=1 pattern=coalesced stride=16 sectors=16 line=0 ctaid=x reused
; PTX: access: generic store bytes=32 count=1 pattern=coalesced stride=32 sectors=32 line=0 ctaid=xy
; CHECK: memory: global-read=32 global-written=32 sector-bytes=64

define ptx_kernel void @tiles(ptr %a, ptr %b, ptr %d) {
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %ya = mul i32 %by, 256
  %ya64 = zext i32 %ya to i64
  %pa = getelementptr half, ptr %a, i64 %ya64
  %xb = mul i32 %bx, 256
  %xb64 = zext i32 %xb to i64
  %pb = getelementptr half, ptr %b, i64 %xb64
  %fa = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr %pa, i32 16)
  %fb = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.b.row.stride.f16.p0(ptr %pb, i32 16)
  %a0 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fa, 0
  %b0 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fb, 0
  %c = call { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.row.f32.f32(<2 x half> %a0, <2 x half> %a0, <2 x half> %a0, <2 x half> %a0, <2 x half> %a0, <2 x half> %a0, <2 x half> %a0, <2 x half> %a0, <2 x half> %b0, <2 x half> %b0, <2 x half> %b0, <2 x half> %b0, <2 x half> %b0, <2 x half> %b0, <2 x half> %b0, <2 x half> %b0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0)
  %c0 = extractvalue { float, float, float, float, float, float, float, float } %c, 0
  %row = mul i32 %by, %nx
  %tile = add i32 %row, %bx
  %off = mul i32 %tile, 256
  %off64 = zext i32 %off to i64
  %pd = getelementptr float, ptr %d, i64 %off64
  call void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr %pd, float %c0, float %c0, float %c0, float %c0, float %c0, float %c0, float %c0, float %c0, i32 16)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr, i32)
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.b.row.stride.f16.p0(ptr, i32)
declare { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.row.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float, float, float, float, float)
declare void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr, float, float, float, float, float, float, float, float, i32)
