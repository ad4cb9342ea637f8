#!/usr/bin/env bash
# Runs the tuidriver benchmark suite and writes bench/results.md and bench/chart.svg.
#   bench/run.sh            full run (a few minutes)
#   bench/run.sh --quick    about a minute: smaller inputs, fewer rounds
# TUIDRIVER=/path/to/tuidriver skips the build and measures that binary instead of
# a fresh static build in build-bench/. Extra flags go to bench.py: --no-profile,
# --only MEASURE,... (binary,startup,memory,latency,agent,pool,lifetime,ready,throughput), --compare OLD_BINARY.
# The agent measure needs the CLIs: (cd tests/e2e && npm ci --ignore-scripts).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$bench")
cache="$bench/.cache"
mkdir -p "$cache"
# valgrind (instructions per byte) and perf (the profile), besides the build's own.
bash "$root/scripts/deps.sh" --bench >&2

if [ -z "${TUIDRIVER:-}" ]; then
  echo "[bench] building the static daemon in build-bench/" >&2
  bash "$root/scripts/build.sh" "$root/build-bench" >&2
  TUIDRIVER="$root/build-bench/tuidriver"
fi

# The physical-limit baseline, built here rather than by the project's CMake.
cc -O2 -Wall -o "$cache/raw_drain" "$bench/raw_drain.c" -lutil

# node-pty + @xterm/headless, pinned by bench/package-lock.json. node-pty has no
# Linux prebuild, so its install script compiles it; rebuild if that was skipped.
if command -v node >/dev/null && command -v npm >/dev/null; then
  if [ ! -d "$bench/node_modules/@xterm/headless" ] || [ ! -d "$bench/node_modules/node-pty" ]; then
    (cd "$bench" && npm ci --no-audit --no-fund >&2) || echo "[bench] npm ci failed: node baselines skipped" >&2
  fi
  if [ -d "$bench/node_modules/node-pty" ] && ! (cd "$bench" && node -e "require('node-pty')" 2>/dev/null); then
    (cd "$bench" && npm rebuild node-pty --foreground-scripts >&2) || echo "[bench] node-pty did not build" >&2
  fi
fi

# The tests' library (tests/lib: the daemon's client) and the e2e harness
# (tests/e2e: the fake API, the CLIs' homes) are the bench's too.
export PYTHONPATH="$root/tests/lib:$root/tests/e2e${PYTHONPATH:+:$PYTHONPATH}"
exec python3 "$bench/bench.py" --tuidriver "$TUIDRIVER" --raw-drain "$cache/raw_drain" --cache "$cache" "$@"
