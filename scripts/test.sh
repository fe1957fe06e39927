#!/usr/bin/env bash
# One command for the whole test suite: install what is missing, build, run
# every ctest test (core, cli and the Xvfb GUI tests).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
dir=$("$root/scripts/build.sh" | tail -n 1)
cd "$dir"
ctest --output-on-failure --parallel "$(nproc)" "$@"
