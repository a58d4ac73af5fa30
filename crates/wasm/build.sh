#!/usr/bin/env bash
# Builds the npm package: the classic engine (this crate) and the variant engine
# (crates/wasm-variants, the module `shudu/variants`) compiled to WebAssembly, bound with
# wasm-bindgen (the version Cargo.toml pins), optimised with binaryen's wasm-opt, and the
# package's own files (crates/wasm/npm). Output: target/npm/shudu (or the folder given).
#
# Needs: rustup target add wasm32-unknown-unknown; cargo install wasm-bindgen-cli --version V;
# npm (for binaryen's wasm-opt). .ci/run installs them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/target/npm/shudu}"
version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' "$here/Cargo.toml")
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')
if [ "$have" != "$version" ]; then
    echo "build.sh: wasm-bindgen $version is needed (found '${have:-none}'):" \
        "cargo install wasm-bindgen-cli --version $version" >&2
    exit 1
fi
cd "$root"
# SIMD128 where it pays: docs/wasm.md, "What was tried and dropped", says why the build is scalar.
cargo build --quiet --profile wasm --target wasm32-unknown-unknown -p shudu-wasm -p shudu-wasm-variants
rm -rf "$out"
mkdir -p "$out"
# binaryen's wasm-opt from npm (crates/wasm/package.json): Debian's binaryen 108 turns
# wasm-bindgen's externref table into a funcref one, and the module then fails to load.
opt="$here/node_modules/.bin/wasm-opt"
[ -x "$opt" ] || npm ci --prefix "$here" --no-audit --no-fund --silent
for pair in shudu_wasm:engine shudu_wasm_variants:variants_engine; do
    wasm-bindgen --target web --out-dir "$out" --out-name "${pair#*:}" \
        "target/wasm32-unknown-unknown/wasm/${pair%:*}.wasm"
    "$opt" -O3 "$out/${pair#*:}_bg.wasm" -o "$out/${pair#*:}_bg.wasm.opt"
    mv "$out/${pair#*:}_bg.wasm.opt" "$out/${pair#*:}_bg.wasm"
done
cp -r "$here/npm/." "$out/"
# The package's version is the workspace's.
sed -i "s/\"version\": \"[^\"]*\"/\"version\": \"$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)\"/" "$out/package.json"
echo "built $out ($(gzip -9c "$out/engine_bg.wasm" | wc -c) bytes of the classic .wasm and" \
    "$(gzip -9c "$out/variants_engine_bg.wasm" | wc -c) of the variants' gzipped)"
