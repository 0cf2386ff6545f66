#!/bin/sh
# Regenerates the PTX fixtures of test/PTX from the .cu sources here, with
# the LLVM NVPTX back end (clang++-22) and with nvcc. Run from anywhere:
#   test/PTX/Inputs/regenerate.sh
# Environment: CLANGXX (default clang++-22), NVCC (default
# /usr/local/cuda/bin/nvcc), CUDA_PATH (default /usr/local/cuda), ARCH
# (default sm_80). Absolute paths are stripped from .file directives so the
# fixtures do not depend on the checkout location. The lit tests pin figures
# of these files: after regenerating, run the PTX lit tests and review.
set -eu
cd "$(dirname "$0")"
CLANGXX=${CLANGXX:-clang++-22}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}
ARCH=${ARCH:-sm_80}
HERE=$(pwd)
for src in saxpy tiled math wmma misc guards gathers blockdim-checks trig; do
  "$CLANGXX" -x cuda --cuda-device-only -S --cuda-gpu-arch="$ARCH" \
    --cuda-path="$CUDA_PATH" -Wno-unknown-cuda-version -O2 \
    -gline-tables-only -o "$src.clang.ptx" "$src.cu"
  "$NVCC" -ptx -arch="$ARCH" -lineinfo -o "$src.nvcc.ptx" "$src.cu"
  for f in "$src.clang.ptx" "$src.nvcc.ptx"; do
    sed -i -e "s|$HERE/||g" -e "s|$CUDA_PATH/bin/../targets/[^/]*/include/|cuda/include/|g" -e "s|$CUDA_PATH/include/|cuda/include/|g" \
      -e 's|/usr/lib/llvm-[0-9]*/lib/clang/[0-9]*/include/|clang/include/|g' "$f"
  done
done
# A loop with two exits, kept a loop (no unrolling): two-exits.test.
"$CLANGXX" -x cuda --cuda-device-only -S --cuda-gpu-arch="$ARCH" \
  --cuda-path="$CUDA_PATH" -Wno-unknown-cuda-version -O2 -fno-unroll-loops \
  -w -o two-exits.clang.ptx two-exits.cu
# A bounds check nvcc repeats in an unrolled loop: repeated-checks.test.
"$NVCC" -ptx -arch="$ARCH" -lineinfo -o repeated-checks.nvcc.ptx repeated-checks.cu
sed -i -e "s|$HERE/||g" repeated-checks.nvcc.ptx
# An inner loop from an outer block-stride counter: nested-start.test.
"$NVCC" -ptx -arch="$ARCH" -lineinfo -o nested-start.nvcc.ptx nested-start.cu
sed -i -e "s|$HERE/||g" nested-start.nvcc.ptx
# Row kernels with block-stride loops, one unrolled: block-stride-rows.test.
"$NVCC" -ptx -arch="$ARCH" -lineinfo -o block-stride-rows.nvcc.ptx block-stride-rows.cu
sed -i -e "s|$HERE/||g" -e "s|$CUDA_PATH/bin/../targets/[^/]*/include/|cuda/include/|g" block-stride-rows.nvcc.ptx
# Rows picked by threadIdx.y or by the warp: rows-2d.test.
"$NVCC" -ptx -arch="$ARCH" -lineinfo -o rows-2d.nvcc.ptx rows-2d.cu
sed -i -e "s|$HERE/||g" -e "s|$CUDA_PATH/bin/../targets/[^/]*/include/|cuda/include/|g" rows-2d.nvcc.ptx
# Grid-stride loops over rows and over elements: grid-stride-rows.test.
"$NVCC" -ptx -arch="$ARCH" -lineinfo -o grid-stride-rows.nvcc.ptx grid-stride-rows.cu
"$CLANGXX" -x cuda --cuda-device-only -S --cuda-gpu-arch="$ARCH" \
  --cuda-path="$CUDA_PATH" -Wno-unknown-cuda-version -O2 \
  -gline-tables-only -o grid-stride-rows.clang.ptx grid-stride-rows.cu
for f in grid-stride-rows.nvcc.ptx grid-stride-rows.clang.ptx; do
  sed -i -e "s|$HERE/||g" -e "s|$CUDA_PATH/bin/../targets/[^/]*/include/|cuda/include/|g" -e "s|$CUDA_PATH/include/|cuda/include/|g" \
    -e 's|/usr/lib/llvm-[0-9]*/lib/clang/[0-9]*/include/|clang/include/|g' "$f"
done
# Cooperative groups' warps: cg-rank.test.
"$NVCC" -ptx -arch="$ARCH" -lineinfo -o cg-rank.nvcc.ptx cg-rank.cu
"$CLANGXX" -x cuda --cuda-device-only -S --cuda-gpu-arch="$ARCH" \
  --cuda-path="$CUDA_PATH" -Wno-unknown-cuda-version -O2 \
  -isystem "$CUDA_PATH/include/cccl" -gline-tables-only -o cg-rank.clang.ptx cg-rank.cu
for f in cg-rank.nvcc.ptx cg-rank.clang.ptx; do
  sed -i -e "s|$HERE/||g" -e "s|$CUDA_PATH/bin/../targets/[^/]*/include/|cuda/include/|g" -e "s|$CUDA_PATH/include/|cuda/include/|g" \
    -e 's|/usr/lib/llvm-[0-9]*/lib/clang/[0-9]*/include/|clang/include/|g' "$f"
done
# Loops over blocks and warp checks: blocks-loops.test.
"$NVCC" -ptx -arch="$ARCH" -lineinfo -o blocks-loops.nvcc.ptx blocks-loops.cu
sed -i -e "s|$HERE/||g" blocks-loops.nvcc.ptx
# Bulk copies (TMA) and mbarrier waits in inline PTX, for sm_90a:
# bulk-copies.test and test/Profile/bulk-copies.cu.
"$NVCC" -ptx -arch=sm_90a -lineinfo -o bulk-copies.nvcc.ptx bulk-copies.cu
sed -i -e "s|$HERE/||g" bulk-copies.nvcc.ptx
# Blackwell's tensor-memory MMAs in inline PTX, for sm_100a:
# tensor-memory.test.
"$NVCC" -ptx -arch=sm_100a -lineinfo -O3 -o tensor-memory.nvcc.ptx tensor-memory.cu
sed -i -e "s|$HERE/||g" tensor-memory.nvcc.ptx
