#!/usr/bin/env bash
# One command for a newcomer: install what is missing, build, open the window.
# Extra arguments go to the app (e.g. --from ND --to FRACTAL_NZ --shape 2,2,28).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
dir=$("$root/scripts/build.sh" | tail -n 1)
exec "$dir/layoutlab" "$@"
