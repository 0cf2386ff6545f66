#!/usr/bin/env bash
# Installs every Debian package FlipFlop's build and tests need. Idempotent and quiet
# when everything is present. Major versions are pinned (LLVM/Clang 22).
set -euo pipefail
PKGS=(
  llvm-22-dev llvm-22-tools llvm-22 clang-22 libclang-22-dev libclang-cpp22-dev
  libclang-rt-22-dev
  cmake ninja-build googletest libgtest-dev python3 zlib1g-dev libzstd-dev libedit-dev
  nlohmann-json3-dev # header-only JSON of tools/flipflop-measure (built without LLVM)
  libcurl4-openssl-dev libxml2-dev libffi-dev
  chromium # headless rendering of the HTML report (test/Report/chromium.test)
)
missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
