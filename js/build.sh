#!/usr/bin/env bash
# Builds rune-animation's WebAssembly module (npm run build): rune_core
# compiled by emscripten with wasm SIMD (build-wasm/, no jansson, assimp or
# cairo), linked with js/src/rune_js.c into js/dist/rune_wasm.mjs (an ES
# module factory: js/index.js hands it the bytes, read in Node.js or
# fetched in a browser) and js/dist/rune_wasm.wasm beside it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
jobs="$(nproc 2>/dev/null || echo 2)"
# Debian's emscripten reads acorn from Debian's node path, which another
# Node.js (NodeSource's) does not search
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
# emscripten builds its libraries into its cache on first use: Debian's
# is under /usr/share, writable by root only
if [ -z "${EM_CACHE:-}" ] && [ ! -w /usr/share/emscripten/cache ]; then
  export EM_CACHE="$root/build-wasm/emscripten-cache"
fi
command -v emcc >/dev/null || { echo "build: emcc not found (./setup.sh --wasm installs emscripten)" >&2; exit 1; }
emcmake cmake -S "$root" -B "$root/build-wasm" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="${RUNE_WASM_CFLAGS--msimd128}" \
  -DRUNE_WITH_IO=OFF -DRUNE_WITH_IMPORT=OFF -DRUNE_WITH_TOOLS=OFF -DRUNE_BUILD_TESTS=OFF \
  -DRUNE_BUILD_EXAMPLES=OFF -DRUNE_LTO=OFF >/dev/null
cmake --build "$root/build-wasm" -j"$jobs" --target rune_core
mkdir -p "$here/dist"
emcc -O3 -msimd128 -std=c11 -Wall -Wextra -Werror -I"$root/include" "$here/src/rune_js.c" "$root/build-wasm/librune_core.a" \
  -o "$here/dist/rune_wasm.mjs" \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createRuneModule -sENVIRONMENT=web \
  -sALLOW_MEMORY_GROWTH=1 -sFILESYSTEM=0 \
  -sEXPORTED_FUNCTIONS=_malloc,_free -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8
wasm="$(wc -c < "$here/dist/rune_wasm.wasm")"
gz="$(gzip -9 -c "$here/dist/rune_wasm.wasm" | wc -c)"
echo "built: js/dist/rune_wasm.wasm, $wasm bytes ($gz gzipped)"
