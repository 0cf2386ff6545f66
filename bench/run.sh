#!/usr/bin/env bash
# FlipFlop benchmarks: builds what they need, runs them all and writes
# docs/PERFORMANCE.md. Every figure in that file comes from these scripts.
#
#   bench/run.sh [--quick] [--build-dir DIR] [--output FILE]
#
#   --quick       3 rounds, smaller corpus (see bench/README.md)
#   --build-dir   CMake build directory (default: build-bench); configured
#                 with -G Ninja -DCMAKE_BUILD_TYPE=Release if it is not yet
#   --output      where the report goes (default: docs/PERFORMANCE.md)
#   --no-build    use the build directory as it is (the CMake target
#                 flipflop-bench builds first, then calls this)
#   --report-only rewrite the report from the last run's results in
#                 $BUILD/bench-results (no build, no measurement)
#
# Environment: CLANG (default /usr/lib/llvm-22/bin/clang++), CUDA_PATH
# (default /usr/local/cuda), JOBS (ninja -j, default 1), and extra arguments
# of the scripts in COMPILE_OVERHEAD_ARGS, ANALYZER_ARGS and SCALING_ARGS (e.g.
# COMPILE_OVERHEAD_ARGS="--examples all --rounds 7"); they are printed in
# the report's command lines.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build-bench"
OUTPUT="$ROOT/docs/PERFORMANCE.md"
QUICK=()
MODE=default
BUILD_IT=1
REPORT_ONLY=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=(--quick); MODE=quick ;;
    --build-dir) BUILD="$(realpath -m "$2")"; shift ;;
    --output) OUTPUT="$(realpath -m "$2")"; shift ;;
    --no-build) BUILD_IT=0 ;;
    --report-only) REPORT_ONLY=1 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
CLANG="${CLANG:-/usr/lib/llvm-22/bin/clang++}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
JOBS="${JOBS:-1}"

for t in "$CLANG" "$CUDA_PATH/bin/ptxas" python3 cmake ninja; do
  if ! command -v "$t" >/dev/null 2>&1; then
    echo "run.sh: '$t' not found (scripts/setup.sh installs the build tools;" \
         "the CUDA toolkit is expected at \$CUDA_PATH)" >&2
    exit 1
  fi
done

OUT="$BUILD/bench-results"
rel() { # prints a command with the repository and build paths shortened
  local s="$*"
  s="${s//$BUILD/\$BUILD}"
  s="${s//$ROOT\//}"
  printf '%s' "$s"
}

if [ "$REPORT_ONLY" = 1 ]; then
  [ -f "$OUT/meta.env" ] || { echo "run.sh: no earlier results in $OUT" >&2; exit 1; }
  # shellcheck disable=SC1091
  . "$OUT/meta.env"
  python3 "$ROOT/bench/compile-overhead/compile_overhead.py" \
    --render "$OUT/compile-overhead.json" --markdown "$OUT/compile-overhead.md"
else
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
STARTED="$(date -u '+%Y-%m-%d %H:%M UTC')"

# --- Build ------------------------------------------------------------------
if [ "$BUILD_IT" = 1 ]; then
  if [ ! -f "$BUILD/build.ninja" ]; then
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  ninja -C "$BUILD" -j"$JOBS" FlipFlop flipflop-ptx flipflop-bench-sweep >&2
fi
PLUGIN="$BUILD/lib/FlipFlop.so"
FFPTX="$BUILD/bin/flipflop-ptx"
SWEEP="$BUILD/bin/flipflop-bench-sweep"
for f in "$PLUGIN" "$FFPTX" "$SWEEP"; do
  [ -e "$f" ] || { echo "run.sh: build did not produce $f" >&2; exit 1; }
done

mkdir -p "$OUT"

# --- Benchmarks ---------------------------------------------------------------
CO_CMD=(python3 "$ROOT/bench/compile-overhead/compile_overhead.py"
        --plugin "$PLUGIN" --clang "$CLANG" --cuda-path "$CUDA_PATH" "${QUICK[@]}"
        --json "$OUT/compile-overhead.json" --markdown "$OUT/compile-overhead.md"
        ${COMPILE_OVERHEAD_ARGS:-})
AN_CMD=(python3 "$ROOT/bench/analyzer/analyzer.py"
        --flipflop-ptx "$FFPTX" --clang "$CLANG" --cuda-path "$CUDA_PATH"
        "${QUICK[@]}"
        --json "$OUT/analyzer.json" --markdown "$OUT/analyzer.md"
        ${ANALYZER_ARGS:-})
SW_CMD=("$SWEEP")
SC_CMD=(python3 "$ROOT/bench/scaling/scaling.py" --flipflop-ptx "$FFPTX"
        "${QUICK[@]}" --json "$OUT/scaling.json" --markdown "$OUT/scaling.md"
        ${SCALING_ARGS:-})
FIDELITY_SAMPLE=300
[ "$MODE" = quick ] && FIDELITY_SAMPLE=40
FI_CMD=(python3 "$ROOT/bench/fidelity/fidelity.py" --build "$BUILD"
        --sample "$FIDELITY_SAMPLE" --json "$OUT/fidelity.json"
        --markdown "$OUT/fidelity.md" ${FIDELITY_ARGS:-})

echo "run.sh: compile overhead ($MODE)" >&2
"${CO_CMD[@]}"
echo "run.sh: analyzer throughput ($MODE)" >&2
"${AN_CMD[@]}"
echo "run.sh: model sweep" >&2
"${SW_CMD[@]}" > "$OUT/model-sweep.txt"
echo "run.sh: flipflop-ptx scaling ($MODE)" >&2
"${SC_CMD[@]}" >/dev/null
echo "run.sh: fidelity on measured tuning data ($FIDELITY_SAMPLE configurations)" >&2
rm -f "$OUT/fidelity.md"
"${FI_CMD[@]}" >/dev/null || echo "run.sh: fidelity skipped (no nvcc or no tuning data)" >&2

LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"
CMDS="$(rel "${CO_CMD[@]}")
$(rel "${AN_CMD[@]}")
$(rel "${SW_CMD[@]}")
$(rel "${SC_CMD[@]}")
$(rel "${FI_CMD[@]}")"
for v in MODE STARTED LOAD_BEFORE LOAD_AFTER CMDS; do
  printf '%s=%q\n' "$v" "${!v}"
done > "$OUT/meta.env"
fi

# --- Report -------------------------------------------------------------------
CPU_MODEL="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
MEM_GIB="$(awk '/MemTotal/ {printf "%.1f", $2 / 1048576}' /proc/meminfo)"
OS_NAME="$( . /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-unknown}")"
CLANG_VER="$("$CLANG" --version | head -n1)"
PTXAS_VER="$("$CUDA_PATH/bin/ptxas" --version | tail -n1)"
REV="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
DIRTY="$(git -C "$ROOT" status --porcelain 2>/dev/null | head -c1 | wc -c)"
[ "$DIRTY" = 0 ] || REV="$REV (with uncommitted changes)"

mkdir -p "$(dirname "$OUTPUT")"
{
  cat <<EOF
# FlipFlop performance

Generated by \`bench/run.sh\` ($MODE mode) on $STARTED. Do not edit: every
figure below is printed by the benchmark scripts; rerun \`bench/run.sh\` to
reproduce it (\`bench/README.md\` explains the method and the options).

## Machine

| | |
|---|---|
| CPUs (nproc) | $(nproc) |
| CPU model | $CPU_MODEL |
| memory | $MEM_GIB GiB |
| OS | $OS_NAME |
| compiler | $CLANG_VER |
| ptxas | $PTXAS_VER |
| FlipFlop revision | $REV |
| load average (1, 5, 15 min) before / after | $LOAD_BEFORE / $LOAD_AFTER |

A load average above the CPU count means other work shared the CPUs: wall
times then stretch and scatter, while CPU times (user + system of the whole
compile's process tree) stay comparable. Both are given.

## Commands

\`\`\`sh
$CMDS
\`\`\`

## 1. Compile-time cost of the plugin

The same compile with and without \`-fpass-plugin=FlipFlop.so\` (clang++ 22,
\`-O2\`, flags of \`examples/CMakeLists.txt\`). Ratios are to the baseline of
the same table: "+1.0%" means 1% slower / larger.

EOF
  cat "$OUT/compile-overhead.md"
  cat <<EOF

## 2. Analyzer throughput: \`flipflop-ptx\` versus \`ptxas -v\`

EOF
  cat "$OUT/analyzer.md"
  cat <<EOF

## 3. Model: one configuration sweep (\`flipflop-bench-sweep\`)

\`\`\`
EOF
  cat "$OUT/model-sweep.txt"
  echo '```'
  if [ -f "$OUT/scaling.md" ]; then
    printf '\n## 4. Scaling: `flipflop-ptx` against input size (bench/scaling)\n\n'
    cat "$OUT/scaling.md"
  fi
  if [ -f "$OUT/fidelity.md" ]; then
    printf '\n## 5. Fidelity: predicted against measured time (docs/FIDELITY.md explains)\n\n'
    cat "$OUT/fidelity.md"
  fi
} > "$OUTPUT"
echo "run.sh: wrote $OUTPUT (raw samples in $OUT)" >&2
