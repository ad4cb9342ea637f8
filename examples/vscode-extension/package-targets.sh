#!/usr/bin/env bash
# Builds one .vsix per VS Code target, tuidriver-example-<target>.vsix, each
# carrying the tuidriver package (engines, shim) and that target's platform
# package tuidriver-<target> with its binary, and no other binary: the main
# package's own bin/ is left out by .vscodeignore.
# Usage: package-targets.sh DIR [TARGET...]
#   DIR holds the tarballs: tuidriver-<version>.tgz (npm pack at the top) and
#   tuidriver-<target>-<version>.tgz (npm pack in npm/tuidriver-<target>/).
#   TARGET: linux-x64 linux-arm64 darwin-arm64 darwin-x64 win32-x64 (default: each one
#   whose tarball is in DIR). $VSCE overrides the top level's node_modules/.bin/vsce.
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,10p' "$0" >&2; exit 2; }
cd "$(dirname "$0")"
dir=$(realpath "$1"); shift
vsce=${VSCE:-$(realpath ../../node_modules/.bin/vsce)}
main=$(ls "$dir"/tuidriver-[0-9]*.tgz 2>/dev/null | tail -n 1)
[ -n "$main" ] || { echo "no tuidriver-<version>.tgz in $dir" >&2; exit 1; }
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for t in linux-x64 linux-arm64 darwin-arm64 darwin-x64 win32-x64; do
    if ls "$dir"/tuidriver-$t-[0-9]*.tgz >/dev/null 2>&1; then targets+=("$t"); fi
  done
fi
[ ${#targets[@]} -gt 0 ] || { echo "no tuidriver-<target>-<version>.tgz in $dir" >&2; exit 1; }
for t in "${targets[@]}"; do
  pkg=$(ls "$dir"/tuidriver-$t-[0-9]*.tgz 2>/dev/null | tail -n 1)
  [ -n "$pkg" ] || { echo "$t: no tuidriver-$t-<version>.tgz in $dir" >&2; exit 1; }
  rm -rf node_modules
  # --force: the platform package's os/cpu are the target's, not this machine's.
  # --offline: the other targets' optional packages are skipped, not fetched.
  npm install --offline --no-save --force --no-audit --no-fund --loglevel=error "$main" "$pkg"
  "$vsce" package --target "$t" --skip-license --allow-missing-repository -o "tuidriver-example-$t.vsix"
done
rm -rf node_modules
