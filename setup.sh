#!/usr/bin/env bash
# Installs rune's Debian dependencies (when missing) and builds it in build/.
#   ./setup.sh          what building and testing need
#   ./setup.sh --dev    also what only some tests and tools use (a browser
#                       for the HTML inspector's test; node and three.js,
#                       the reference skinning and export are checked
#                       against)
#   ./setup.sh --wasm   also emscripten, which builds the rune-animation
#                       package (npm --prefix js run build)
# (both may be given)
set -euo pipefail
cd "$(dirname "$0")"

dev=false wasm=false
for arg in "$@"; do
  case "$arg" in
    --dev) dev=true ;;
    --wasm) wasm=true ;;
    *) echo "setup.sh: unknown option $arg (--dev, --wasm)" >&2; exit 2 ;;
  esac
done
packages=(build-essential cmake pkg-config python3 clang libclang-rt-14-dev
          libjansson-dev libcmocka-dev libassimp-dev libcairo2-dev assimp-testmodels
          fonts-dejavu-core)
$dev && packages+=(chromium)
$wasm && packages+=(emscripten)
# a Node.js already on the machine (e.g. NodeSource's, which bundles npm
# and conflicts with Debian's npm package) is used as it is
if { $dev || $wasm; } && { ! command -v node >/dev/null || ! command -v npm >/dev/null; }; then
  packages+=(nodejs npm)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if $dev; then
  # three.js r187 (tests/reference/package-lock.json); the checks that use
  # it skip themselves without it
  (cd tests/reference && npm ci --no-audit --no-fund --loglevel=error) || echo "setup: three.js not installed"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRUNE_SHARED=ON
cmake --build build -j"$(nproc)"
echo "built: build/rune"
