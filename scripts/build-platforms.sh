#!/usr/bin/env bash
# Builds the tuidriver binary for every platform this machine can build into
# build-<platform>/tuidriver, stripped, and checks the static-but-glibc and
# under-3-MB guarantees.
#   linux-x64:   the host toolchain (scripts/build.sh).
#   linux-arm64: Debian's g++-aarch64-linux-gnu and libre2-dev:arm64,
#                libutf8proc-dev:arm64 (dpkg multiarch), cmake/aarch64-linux-gnu.cmake.
# Usage: scripts/build-platforms.sh [PLATFORM...]   (default: all it can)
set -euo pipefail
cd "$(dirname "$0")/.."
max_bytes=$((3 * 1024 * 1024))

check() {  # platform binary readelf
  local bin=$1 readelf=$2
  local size; size=$(stat -c %s "$bin")
  local needed; needed=$($readelf -d "$bin" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  echo "$bin: $size bytes; needs: $needed"
  [ "$size" -lt "$max_bytes" ] || { echo "$bin is over 3 MB" >&2; exit 1; }
  for lib in $needed; do
    case $lib in libc.so.6|libm.so.6|ld-linux*) ;;
      *) echo "$bin links $lib dynamically (only glibc may be)" >&2; exit 1 ;;
    esac
  done
}

build_linux_x64() {
  bash scripts/build.sh build-linux-x64 -DCMAKE_BUILD_TYPE=Release -DTUIDRIVER_BUILD_TESTS=OFF
  strip build-linux-x64/tuidriver
  check build-linux-x64/tuidriver readelf
}

build_linux_arm64() {
  if ! command -v aarch64-linux-gnu-g++ >/dev/null || [ ! -e /usr/lib/aarch64-linux-gnu/libre2.a ]; then
    echo "linux-arm64: skipped (needs: dpkg --add-architecture arm64; apt-get install" \
         "g++-aarch64-linux-gnu libre2-dev:arm64 libutf8proc-dev:arm64)" >&2
    return 0
  fi
  cmake -S . -B build-linux-arm64 -DTUIDRIVER_STATIC=ON -DTUIDRIVER_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake >/dev/null
  cmake --build build-linux-arm64 -j2 --target tuidriver
  aarch64-linux-gnu-strip build-linux-arm64/tuidriver
  check build-linux-arm64/tuidriver aarch64-linux-gnu-readelf
  if command -v qemu-aarch64 >/dev/null; then
    # It runs: the version line, under qemu-user.
    qemu-aarch64 -L /usr/aarch64-linux-gnu build-linux-arm64/tuidriver --version
  fi
}

platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=(linux-x64 linux-arm64)
for p in "${platforms[@]}"; do
  echo "== $p"
  case $p in
    linux-x64) build_linux_x64 ;;
    linux-arm64) build_linux_arm64 ;;
    *) echo "cannot build $p here (darwin: not yet, see README)" >&2; exit 2 ;;
  esac
done
