// An unrolled 5 x 5 stencil over a shared tile, two outputs a thread in y
// (rows ty + 2y + i) and two in x (columns tx + 16x + j): output y = 1's
// row i is output y = 0's row i + 2, so 30 of its 100 taps read a word the
// thread has already loaded. The optimiser's GVN does not match them (the
// row index is extended to 64 bits after the add, `zext(ty + 2 + i)`
// against `zext(ty + (i + 2))`), the back end does (clang's and llc's PTX
// hold 70 shared loads). Since session 35 the IR front end drops a load of
// an address (SCEV) its basic block already read with nothing written in
// between, and so counts the 70 the PTX front end reads; before, it
// counted 100 (the plugin's shared time 1.43x flipflop-ptx's on the same
// clang PTX, the held-out convolution's 900 against 570 loads).
// RUN: %cu2ll --cuda-gpu-arch=sm_80 -O2 -include ff_cuda.h %s > %t.ll
// RUN: %profile %t.ll | FileCheck %s
// RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ll -o %t.ptx
// RUN: flipflop-ptx --no-ptxas --dump-profile %t.ptx | FileCheck %s

// CHECK-LABEL: kernel _Z7stencilPKfPf
// CHECK:       ops: fp32=100 {{.*}} load.shared=70 store.shared=12 {{[a-z]}}
#include "ff_cuda.h"
#define F 5
#define BX 16
#define BY 2
#define TX 2
#define TY 2
#define GUARDED 0
#include "tile-stencil.cuh"
