#!/usr/bin/env bash
# Version drift: each agent CLI's e2e suite against its newest npm release and
# its pin (scripts/drift.py says how). Not part of scripts/test.sh: its result
# depends on the day. Needs the daemon built (scripts/build.sh build).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/drift.py "$@"
