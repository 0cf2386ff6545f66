#!/usr/bin/env bash
# ctest fuzz.smoke: builds flipflop-ptx-fuzz in its own clang build (the
# project's libraries instrumented for libFuzzer and AddressSanitizer,
# docs/FUZZING.md) and runs it over the seed corpus and the regression
# inputs, then a fixed-seed run of mutations: the parser, the profile
# printer, the model and the sweep on every input, under the sanitizer.
# A fixed seed and a fixed number of runs make the run the same each time
# for the same code; a crash leaves its input under BUILD/fuzz/artifacts.
# Usage: smoke.sh SRC BUILD LLVM_DIR LLVM_BIN_DIR GENERATOR [RUNS]: the
# main build's LLVM, its clang and its CMake generator. Exit 77 (skipped)
# without that clang or its fuzzer runtime (Debian: libclang-rt-22-dev).
set -uo pipefail
src=$1 build=$2 llvm_dir=$3 bin=$4 generator=$5 runs=${6:-4000}
clang=$bin/clang clangxx=$bin/clang++
rtdir=$("$clangxx" -print-runtime-dir 2>/dev/null)
if [ ! -x "$clang" ] || [ ! -x "$clangxx" ] || [ -z "$rtdir" ] ||
   ! ls "$rtdir"/libclang_rt.fuzzer*.a >/dev/null 2>&1; then
  echo "fuzz.smoke: skipped (needs $clangxx and its fuzzer runtime, libclang-rt-22-dev)"
  exit 77
fi
dir=$build/fuzz
CC=$clang CXX=$clangxx cmake -S "$src" -B "$dir" -G "$generator" \
  -DCMAKE_BUILD_TYPE=Release -DLLVM_DIR="$llvm_dir" -DFLIPFLOP_BUILD_FUZZER=ON \
  >"$dir.configure.log" 2>&1 || { tail -20 "$dir.configure.log"; exit 1; }
cmake --build "$dir" --target flipflop-ptx-fuzz -j2 >"$dir.build.log" 2>&1 ||
  { tail -40 "$dir.build.log"; exit 1; }
fuzz=$dir/bin/flipflop-ptx-fuzz
mkdir -p "$dir/artifacts"
rm -rf "$dir/corpus" && mkdir -p "$dir/corpus"
cp "$src"/test/PTX/fuzz-corpus/*.ptx "$dir/corpus/"
# Leaks are not what this guards (a compile is one process), and
# LeakSanitizer cannot run where ptrace is forbidden (some containers).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
opts=(-max_len=8192 -timeout=20 -rss_limit_mb=3072 -artifact_prefix="$dir/artifacts/")
# Every seed and regression input once, then mutations of them.
"$fuzz" "${opts[@]}" -runs=0 "$dir/corpus" || exit 1
"$fuzz" "${opts[@]}" -seed=1 -runs="$runs" -dict="$src/test/PTX/fuzz-ptx.dict" \
  "$dir/corpus" || exit 1
echo "fuzz.smoke: no crash or abort in the seeds and $runs mutations"
