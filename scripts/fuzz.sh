#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ (clang, libFuzzer, ASan + UBSan)
# into build-fuzz/ and runs them, each from its seed corpus with its
# dictionary. Any crash, leak, timeout, out-of-memory or sanitizer report
# fails the run (exit 1) and leaves the input in build-fuzz/artifacts/.
#
#   scripts/fuzz.sh                     every target for FUZZ_SECONDS (default 600) each
#   scripts/fuzz.sh --smoke             every target for 10 s (CI)
#   scripts/fuzz.sh --runs N [T...]     N executions of each target named (default all)
#   FUZZ_JOBS=8 scripts/fuzz.sh ...     that many fuzzing processes per target
#   FUZZ_TIMEOUT=120 ...                seconds (wall clock) before one input counts as a hang
#                                       (default 20; raise it on a loaded machine or under nice)
#   FUZZ_ARGS='-entropic=0' ...         more libFuzzer flags (the long runs in docs/RELIABILITY.md
#                                       used -entropic=0 with ASAN_OPTIONS=...:malloc_context_size=0)
#   LAYOUTLAB_FUZZ_CLI_RUN=1 ... cli     the CLI target does each command's work too
#                                       (default: validate-only runs, see cli_fuzz.cpp)
# Targets: npy, graph, scene, cli, lesson. New inputs found go to build-fuzz/corpus/<T>/
# (the seeds in tests/fuzz/corpus/<T>/ are only read).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${LAYOUTLAB_FUZZ_DIR:-$root/build-fuzz}
mode=time
seconds=${FUZZ_SECONDS:-600}
runs=0
jobs=${FUZZ_JOBS:-1}
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) seconds=10; shift ;;
    --runs) mode=runs; runs=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(npy graph scene cli lesson)

if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz: clang++ not found; scripts/setup.sh installs it" >&2
  exit 1
fi
gen=()
if command -v ninja >/dev/null 2>&1 && [ ! -f "$dir/Makefile" ]; then gen=(-G Ninja); fi
CC=clang CXX=clang++ cmake -S "$root" -B "$dir" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DLAYOUTLAB_FUZZ=ON -DLAYOUTLAB_BUILD_TESTS=OFF >/dev/null
cmake --build "$dir" --parallel "$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}") >&2

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$dir/artifacts"
status=0
for t in "${targets[@]}"; do
  work="$dir/corpus/$t"
  mkdir -p "$work"
  max_len=8192
  seeds=("$root/tests/fuzz/corpus/$t")
  if [ "$t" = lesson ]; then
    max_len=32768  # the bundled lessons seed it whole
    seeds+=("$root/assets/lessons")
  fi
  args=(-dict="$root/tests/fuzz/$t.dict" -max_len=$max_len -timeout=${FUZZ_TIMEOUT:-20} -rss_limit_mb=2560
        -artifact_prefix="$dir/artifacts/$t-" -print_final_stats=1)
  # shellcheck disable=SC2206  # FUZZ_ARGS is a list of flags, split on spaces
  args+=(${FUZZ_ARGS:-})
  if [ "$mode" = runs ]; then
    args+=(-runs="$runs")
  else
    args+=(-max_total_time="$seconds")
  fi
  if [ "$jobs" -gt 1 ]; then
    args+=(-jobs="$jobs" -workers="$jobs")
    [ "$mode" = runs ] && args=("${args[@]/-runs=*/-runs=$(( (runs + jobs - 1) / jobs ))}")
  fi
  echo "== fuzz $t (${mode}: $([ "$mode" = runs ] && echo "$runs runs" || echo "${seconds} s"))" >&2
  log="$dir/fuzz-$t.log"
  # The command's status is the verdict: libFuzzer exits non-zero on any
  # crash, leak, timeout, OOM or (with halt_on_error) sanitizer report.
  if (cd "$dir" && "$dir/tests/fuzz/fuzz_$t" "${args[@]}" "$work" "${seeds[@]}") \
      >"$log" 2>&1; then
    grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "$log" | tail -n 2 >&2 || true
  else
    echo "fuzz $t FAILED; the end of $log:" >&2
    tail -n 40 "$log" >&2
    status=1
  fi
done
exit $status
