#!/usr/bin/env bash
# Installs what is needed, builds tuidriver, and asks Python a question
# through it: the daemon's main job on an embedded default.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh build >/dev/null
prompt=${1:-'sum(i * i for i in range(10))'}
printf '{"id":1,"type":"ask","prompt":%s}\n' "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$prompt")" \
  | build/tuidriver python
