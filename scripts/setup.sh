#!/usr/bin/env bash
# Installs the Debian packages LayoutLab needs, only those missing.
# Idempotent: a machine that has them all does nothing and touches no network.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libimgui-dev libglfw3-dev libstb-dev python3-glad
  nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth libgl1-mesa-dri xdotool fonts-dejavu-core fonts-wqy-microhei
  python3-numpy
  libavcodec-dev libavformat-dev libavfilter-dev libswscale-dev libavutil-dev zlib1g-dev
  clang libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
