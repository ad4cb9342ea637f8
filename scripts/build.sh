#!/usr/bin/env bash
# Builds build/tuidriver (fully static, glibc included: docs/platforms.md) and the unit tests.
# Usage: scripts/build.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
cmake -S . -B "$dir" -DTUIDRIVER_STATIC=ON "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
