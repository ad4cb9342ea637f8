#!/usr/bin/env bash
# Builds build/tuidriver (fully static, glibc included: docs/platforms.md) and the unit tests.
# Usage: scripts/build.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
# Checked here too, before a cmake cache from an earlier checkout can hide it.
if [[ ! -f deps/simdjson/simdjson.cpp && " $* " != *" -DSIMDJSON_SOURCE_DIR="* ]]; then
  echo "scripts/build.sh: deps/simdjson/simdjson.cpp is missing: a static build compiles simdjson in." >&2
  echo "  Run scripts/deps.sh (it fetches the sources per checkout), or pass -DSIMDJSON_SOURCE_DIR=DIR." >&2
  exit 1
fi
if [[ ! -f deps/sqlite/sqlite3.c ]]; then
  echo "scripts/build.sh: deps/sqlite/sqlite3.c is missing: a static build compiles SQLite in." >&2
  echo "  Run scripts/deps.sh (it makes the amalgamation from Debian's source, per checkout)." >&2
  exit 1
fi
cmake -S . -B "$dir" -DTUIDRIVER_STATIC=ON "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
