#!/usr/bin/env bash
# Installs what is needed, builds, and runs every test: unit and integration
# tests (ctest, in parallel), the same under ASan+UBSan, the fuzzers for a
# bounded time, and the shim's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh --platforms --server
jobs=$(nproc)
# Each stage says when it began (minutes into the run): where CI time goes.
stage() { printf '== [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

# The npm installs wait on the network more than on the CPU: they run beside
# the build, each into its own log, and a stage that needs one waits for it.
npm_logs=$(mktemp -d)
# A stage that fails ends the installs still running too.
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$npm_logs"' EXIT
npm_ci() { npm ci --ignore-scripts --no-audit --no-fund --loglevel=error; }
declare -A npm_jobs
npm_start() {  # NAME DIR...: npm ci in each DIR, in order
  local name=$1; shift
  (for dir in "$@"; do (cd "$dir" && npm_ci) || exit 1; done) > "$npm_logs/$name" 2>&1 &
  npm_jobs[$name]=$!
}
npm_wait() {  # NAME
  if ! wait "${npm_jobs[$1]}"; then
    cat "$npm_logs/$1" >&2
    echo "test.sh: npm ci failed ($1; its output is above)" >&2
    exit 1
  fi
  cat "$npm_logs/$1"
}
# --ignore-scripts: the tests run the CLIs' own executables (tests/e2e/homes.py).
npm_start agent-clis tests/e2e
# The server links the shim (server/package-lock.json: ".."): one after the other.
npm_start shim-and-server . server

stage "build (the npm installs beside it)"
bash scripts/build.sh build
stage "the agent CLIs for the end-to-end tests (pinned in tests/e2e/package-lock.json)"
npm_wait agent-clis
stage "unit, integration and end-to-end tests"
ctest --test-dir build -j"$jobs" --output-on-failure --timeout 900

stage "linux-x64: build/tuidriver stripped, fully static, under 3 MB, into its npm package (docs/platforms.md)"
bash scripts/build-platforms.sh linux-x64
stage "linux-arm64 cross build: fully static, under 3 MB, --version under qemu-user (docs/platforms.md)"
bash scripts/build-platforms.sh linux-arm64
stage "the integration tests against the shipped linux-arm64 binary under qemu-user"
bash scripts/test-linux-arm64.sh
stage "darwin-arm64 and darwin-x64 cross builds with Zig 0.11: Mach-O executables for the right CPU, under 4 MB; not run (docs/platforms.md)"
bash scripts/build-platforms.sh darwin-arm64 darwin-x64

stage "win32-x64 cross build with mingw-w64: a static tuidriver.exe under 4 MiB importing only system DLLs (docs/windows.md)"
bash scripts/build-platforms.sh win32-x64
stage "tuidriver.exe (the file npm/tuidriver-win32-x64 ships) over its protocol under Wine 8 (docs/windows.md)"
bash scripts/test-windows.sh

stage "the TypeScript shim: npm package, ESM/CommonJS consumers, example .vsix (node --test)"
npm_wait shim-and-server
npm run build    # tsc to dist/, build/tuidriver to bin/<platform>-<arch>/ (the prepack step)
npm test

stage "any Linux: the shipped linux-x64 binary in a chroot holding only it, the engines and busybox-static (docs/platforms.md)"
tests/py tests/static/test_chroot.py

stage "tuidriver-server: the MCP server, REST/SSE/WebSocket, the page in headless chromium (node --test, about a minute)"
(cd server && npm test)

stage "the example extension in a real VS Code: its .vsix in code-server from npm, in headless chromium (tests/vscode, a few minutes)"
bash tests/vscode/run.sh

stage "unit and integration tests under AddressSanitizer + UBSan"
cmake -S . -B build-asan -DTUIDRIVER_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan -j"$jobs" -LE e2e --output-on-failure --timeout 900

stage "fuzzers: a fixed seed and input count each, about a minute, in parallel (longer: scripts/fuzz.sh SECONDS)"
bash scripts/fuzz.sh --ci
stage "done"
