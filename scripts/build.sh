#!/usr/bin/env bash
# Configures and builds LayoutLab into a build folder.
#   scripts/build.sh            -> build/        (Release)
#   LAYOUTLAB_SANITIZE=ON ...   -> build-asan/   (ASan + UBSan)
#   LAYOUTLAB_WERROR=ON ...     -> warnings are errors (CI)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sanitize=${LAYOUTLAB_SANITIZE:-OFF}
werror=${LAYOUTLAB_WERROR:-OFF}
flags=()
if [ "$sanitize" = ON ]; then
  dir=${LAYOUTLAB_BUILD_DIR:-$root/build-asan}
  type=RelWithDebInfo
  # -O1 (what ASan's own documentation advises) and line tables only (-g1:
  # reports still name file and line): the full -O2 -g build was the longest
  # step of CI.
  flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG")
else
  dir=${LAYOUTLAB_BUILD_DIR:-$root/build}
  type=Release
fi
gen=()
if command -v ninja >/dev/null 2>&1 && [ ! -f "$dir/Makefile" ]; then
  gen=(-G Ninja)
fi
cmake -S "$root" -B "$dir" "${gen[@]}" -DCMAKE_BUILD_TYPE="$type" ${flags[@]+"${flags[@]}"} \
  -DLAYOUTLAB_SANITIZE="$sanitize" -DLAYOUTLAB_WERROR="$werror" >/dev/null
cmake --build "$dir" --parallel "$(nproc)" >&2
echo "$dir"
