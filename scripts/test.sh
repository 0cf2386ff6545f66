#!/usr/bin/env bash
# The README's second command: install what is missing, build everything and
# run every test (lit + GoogleTest, through ctest). Exits non-zero on failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
build=${FLIPFLOP_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j2
ctest --test-dir "$build" --output-on-failure -j2
