// Bulk asynchronous copies (TMA) through the plugin: the IR holds each
// copy and each mbarrier as its own inline asm call, parsed alone, so no
// copy's bytes are known there; the bytes come from the PTX the NVPTX back
// end emits, whose barriers are told them (test/PTX/bulk-copies.test), and
// join the IR's accesses. The waits' loops, inside the asm text, are
// counted once in the IR as in the PTX (before: the IR guessed each at 16
// passes). The same kernels as flipflop-ptx reads from nvcc's PTX, with
// the same figures: a pipelined GEMM's tiles, 8,320 bytes a thread, here
// 8,320 x 128 for the one thread that issues them (`if (threadIdx.x ==
// 0)`, a check the model counts; 474 us on an H100 at 64 x 64 blocks for K
// = 4096, flipflop-ptx 481 on nvcc's code; 442 and 448 before session 53,
// when the shared loads of the tiles, made by every thread, were scaled
// by the mean share of threads past the checks), a row brought by one plain
// bulk copy as long as the rows read by the threads themselves (192 us at
// 65,536 blocks; before, 98: the row's reads not counted).
// RUN: rm -rf %t.r && env FLIPFLOP_REPORT_DIR=%t.r FLIPFLOP_LAUNCH='H100-SXM5-80GB@128:64,64' FLIPFLOP_ARGS=2=4096 %clang_ff_nocuda --cuda-gpu-arch=sm_90a -O2 -S -include ff_cuda.h -I%flipflop_src/test/Inputs %S/../PTX/Inputs/bulk-copies.cu -o %t.ptx -mllvm -flipflop-gpu=H100-SXM5-80GB
// RUN: flipflop-ptx --no-ptxas --gpu H100-SXM5-80GB --grid 64,64 --block 128 --arg 2=4096 --kernel _Z9pipelinedPK9TensorMapS1_iPf --csv %S/../PTX/Inputs/bulk-copies.nvcc.ptx | tail -1 | cut -d, -f14 > %t.nvcc
// RUN: %python -c "import glob, json, sys; k = {k['name']: k for k in json.load(open(glob.glob(r'%t.r/*.json')[0]))['kernels']}; p = k['_Z9pipelinedPK9TensorMapS1_iPf']; t = p['launches'][0]['prediction']['time_s'] / float(open(r'%t.nvcc').read()); print(p['profile']['bytes'], p['profile']['guesses'], t); sys.exit(0 if p['profile']['bytes']['global_read'] == 8320 * 128 and not p['profile']['guesses'] and abs(t - 1) < 0.05 and 'unknown size' in ' '.join(k['_Z6untoldPK9TensorMapPf']['profile']['warnings']) else 1)"
// RUN: rm -rf %t.r2 && env FLIPFLOP_REPORT_DIR=%t.r2 FLIPFLOP_LAUNCH='H100-SXM5-80GB@128:65536' %clang_ff_nocuda --cuda-gpu-arch=sm_90a -O2 -S -include ff_cuda.h -I%flipflop_src/test/Inputs %S/../PTX/Inputs/bulk-copies.cu -o %t2.ptx -mllvm -flipflop-gpu=H100-SXM5-80GB
// RUN: %python -c "import glob, json, sys; t = {k['name']: k['launches'][0]['prediction']['time_s'] for k in json.load(open(glob.glob(r'%t.r2/*.json')[0]))['kernels']}; r = t['_Z8bulkRowsPKfPf'] / t['_Z9plainRowsPKfPf']; print(r); sys.exit(0 if abs(r - 1) < 0.02 else 1)"
