; Strides of values in a loop's cycle (IRStride.cpp, CycleMemo).
; 1. %n = 2 * %i + 1 with %i = phi(tid, %n): %i doubles its lane stride each
;    pass, so the access through %n follows no single stride. Entered at %n
;    (the access comes first), a provisional answer for %n must not decide
;    %i and then be kept: no stride of 8 bytes.
; 2. A chain of 40 values, each the sum of the previous with itself, in a
;    loop: every value is read twice on the way to the PHI; answers computed
;    while the PHI is open are shared, so the walk is linear, not 2^40.
; RUN: %profile %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel doubling
; CHECK-NOT:   stride=8{{ }}
; CHECK:       access: global store bytes=4 {{.*}}pattern=unknown
; CHECK-LABEL: end kernel doubling
define ptx_kernel void @doubling(ptr addrspace(1) %a, i32 %m) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop
loop:
  %i = phi i32 [ %tid, %entry ], [ %n, %loop ]
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %d = shl i32 %i, 1
  %n = add i32 %d, 1
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %n
  store float 1.0, ptr addrspace(1) %p
  %k1 = add i32 %k, 1
  %c = icmp slt i32 %k1, %m
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: kernel hashChain
; CHECK:       access: global store
; CHECK-LABEL: end kernel hashChain
define ptx_kernel void @hashChain(ptr addrspace(1) %a, i32 %m) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop
loop:
  %x0 = phi i32 [ %tid, %entry ], [ %x40, %loop ]
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %x1 = add i32 %x0, %x0
  %x2 = add i32 %x1, %x1
  %x3 = add i32 %x2, %x2
  %x4 = add i32 %x3, %x3
  %x5 = add i32 %x4, %x4
  %x6 = add i32 %x5, %x5
  %x7 = add i32 %x6, %x6
  %x8 = add i32 %x7, %x7
  %x9 = add i32 %x8, %x8
  %x10 = add i32 %x9, %x9
  %x11 = add i32 %x10, %x10
  %x12 = add i32 %x11, %x11
  %x13 = add i32 %x12, %x12
  %x14 = add i32 %x13, %x13
  %x15 = add i32 %x14, %x14
  %x16 = add i32 %x15, %x15
  %x17 = add i32 %x16, %x16
  %x18 = add i32 %x17, %x17
  %x19 = add i32 %x18, %x18
  %x20 = add i32 %x19, %x19
  %x21 = add i32 %x20, %x20
  %x22 = add i32 %x21, %x21
  %x23 = add i32 %x22, %x22
  %x24 = add i32 %x23, %x23
  %x25 = add i32 %x24, %x24
  %x26 = add i32 %x25, %x25
  %x27 = add i32 %x26, %x26
  %x28 = add i32 %x27, %x27
  %x29 = add i32 %x28, %x28
  %x30 = add i32 %x29, %x29
  %x31 = add i32 %x30, %x30
  %x32 = add i32 %x31, %x31
  %x33 = add i32 %x32, %x32
  %x34 = add i32 %x33, %x33
  %x35 = add i32 %x34, %x34
  %x36 = add i32 %x35, %x35
  %x37 = add i32 %x36, %x36
  %x38 = add i32 %x37, %x37
  %x39 = add i32 %x38, %x38
  %x40 = add i32 %x39, %x39
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %x40
  store float 1.0, ptr addrspace(1) %p
  %k1 = add i32 %k, 1
  %c = icmp slt i32 %k1, %m
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
