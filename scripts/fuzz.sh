#!/usr/bin/env bash
# Builds the libFuzzer fuzzers (clang, ASan + UBSan) in build-fuzz, replays
# the kept regression inputs and the seed corpus, then fuzzes each target
# for SECONDS (default 60), all targets in parallel.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: request keys terminal)
#        scripts/fuzz.sh --ci
# A longer run: scripts/fuzz.sh 3600 terminal
# --ci (what scripts/test.sh runs) fuzzes a fixed number of inputs from a
# fixed seed and a fresh corpus, about a minute each: the same inputs on every
# machine, so a CI run fails only on a real bug that reproduces here too.
# A crash leaves its input in build-fuzz/crashes/; once fixed, keep it in
# tests/fuzz/regressions/TARGET/ so every run replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
ci=0
if [ "${1:-}" = "--ci" ]; then ci=1; shift; fi
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(request keys terminal)

CC=clang CXX=clang++ cmake -S . -B build-fuzz -DTUIDRIVER_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/%/_fuzz}"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
mkdir -p build-fuzz/crashes
for t in "${targets[@]}"; do
  echo "== fuzz $t: replay regressions and seeds"
  build-fuzz/${t}_fuzz -runs=0 tests/fuzz/regressions/$t tests/fuzz/corpus/$t 2>&1 | tail -n 2
done

pids=()
scratch=()
trap 'rm -rf "${scratch[@]}"' EXIT
for t in "${targets[@]}"; do
  # New inputs go to the first corpus directory; the kept seeds are only read.
  if [ $ci = 1 ]; then
    case $t in request) runs=1000000 ;; keys) runs=150000 ;; *) runs=120000 ;; esac
    limit=(-seed=1 -runs=$runs)
    corpus=$(mktemp -d)
    scratch+=("$corpus")
  else
    limit=(-max_total_time="$seconds")
    corpus=build-fuzz/corpus/$t
    mkdir -p "$corpus"
  fi
  build-fuzz/${t}_fuzz "${limit[@]}" -timeout=10 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix=build-fuzz/crashes/$t- \
    "$corpus" tests/fuzz/corpus/$t tests/fuzz/regressions/$t \
    > build-fuzz/$t.log 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!targets[@]}"; do
  t=${targets[$i]}
  if wait "${pids[$i]}"; then
    echo "== fuzz $t: $(grep -o 'stat::number_of_executed_units: *[0-9]*' build-fuzz/$t.log | grep -o '[0-9]*$') runs, no crash"
  else
    echo "== fuzz $t: FAILED (input in build-fuzz/crashes/), log tail:"
    tail -n 40 build-fuzz/$t.log
    failed=1
  fi
done
exit $failed
