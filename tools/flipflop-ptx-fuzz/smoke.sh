#!/usr/bin/env bash
# ctest fuzz.smoke: builds flipflop-ptx-fuzz in its own clang build (the
# project's libraries instrumented for libFuzzer and AddressSanitizer,
# docs/FUZZING.md) and runs it over the seed corpus and the regression
# inputs, then a fixed-seed run of mutations: the parser, the profile
# printer, the model and the sweep on every input, under the sanitizer.
# A fixed seed and a fixed number of runs make the run the same each time
# for the same code; a crash leaves its input under BUILD/fuzz/artifacts.
# Exit 77 (skipped) without clang 22 or its fuzzer runtime.
set -uo pipefail
src=$1 build=$2 runs=${3:-4000}
clang=$(command -v clang-22 || true)
clangxx=$(command -v clang++-22 || true)
rt=$(ls /usr/lib/llvm-22/lib/clang/*/lib/*/libclang_rt.fuzzer*.a 2>/dev/null | head -1)
if [ -z "$clang" ] || [ -z "$clangxx" ] || [ -z "$rt" ]; then
  echo "fuzz.smoke: skipped (needs clang-22 and libclang-rt-22-dev)"
  exit 77
fi
dir=$build/fuzz
CC=$clang CXX=$clangxx cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DFLIPFLOP_BUILD_FUZZER=ON >"$dir.configure.log" 2>&1 ||
  { tail -20 "$dir.configure.log"; exit 1; }
cmake --build "$dir" --target flipflop-ptx-fuzz -j2 >"$dir.build.log" 2>&1 ||
  { tail -40 "$dir.build.log"; exit 1; }
fuzz=$dir/bin/flipflop-ptx-fuzz
mkdir -p "$dir/artifacts"
rm -rf "$dir/corpus" && mkdir -p "$dir/corpus"
cp "$src"/test/PTX/fuzz-corpus/*.ptx "$dir/corpus/"
opts=(-max_len=8192 -timeout=20 -rss_limit_mb=3072 -artifact_prefix="$dir/artifacts/")
# Every seed and regression input once, then mutations of them.
"$fuzz" "${opts[@]}" -runs=0 "$dir/corpus" || exit 1
"$fuzz" "${opts[@]}" -seed=1 -runs="$runs" -dict="$src/test/PTX/fuzz-ptx.dict" \
  "$dir/corpus" || exit 1
echo "fuzz.smoke: no crash, leak or abort in the seeds and $runs mutations"
