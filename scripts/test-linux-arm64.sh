#!/usr/bin/env bash
# Runs every integration test against the linux-arm64 daemon under qemu-user
# (docs/platforms.md). The programs it drives (bash, python3, vim...) are the
# host's own: qemu-user hands their execve to the kernel.
#
# The binary under test is built from the same sources with the same
# toolchain as build-linux-arm64/tuidriver, but linked fully static: Debian
# bookworm's qemu-user 7.2 hangs in the child of fork() in dynamically linked
# arm64 programs (a ten-line fork/_exit/waitpid program shows it; linked
# static, the same program runs), and the daemon forks for every session.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v aarch64-linux-gnu-g++ >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
  echo "linux-arm64 under qemu: skipped (needs scripts/deps.sh --platforms)" >&2
  exit 0
fi
dir=build-linux-arm64-qemu
cmake -S . -B $dir -DTUIDRIVER_STATIC=ON -DTUIDRIVER_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DCMAKE_EXE_LINKER_FLAGS=-static >/dev/null
cmake --build $dir -j"$(nproc)" --target tuidriver
readelf -h $dir/tuidriver | grep -q 'AArch64' || { echo "$dir/tuidriver is not an arm64 binary" >&2; exit 1; }
# tests/integration/tuiclient.py runs TUIDRIVER_BIN: here a wrapper that
# starts the arm64 binary under qemu.
cat > $dir/tuidriver-qemu <<WRAP
#!/bin/sh
exec qemu-aarch64 "$PWD/$dir/tuidriver" "\$@"
WRAP
chmod +x $dir/tuidriver-qemu
qemu-aarch64 $dir/tuidriver --version
failed=0
pids=()
mkdir -p $dir/logs
for t in tests/integration/test_*.py; do
  name=$(basename "$t" .py)
  # Two at a time: qemu costs CPU, and some tests watch timing-sensitive screens.
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 0.2; done
  (TUIDRIVER_BIN=$PWD/$dir/tuidriver-qemu TUIDRIVER_ENGINES=$PWD/engines \
     timeout 900 python3 "$t" >$dir/logs/$name.log 2>&1 && echo "arm64 $name: ok" ||
     { echo "arm64 $name: FAILED"; tail -40 $dir/logs/$name.log; exit 1; }) &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done
[ $failed -eq 0 ] || { echo "integration tests under qemu-aarch64 failed" >&2; exit 1; }
echo "every integration test passed against the arm64 daemon under qemu-aarch64"
