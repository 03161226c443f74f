#!/usr/bin/env bash
# Builds the WebAssembly verifier the page and the offline file use:
#   web/pkg/fairseed_wasm_bg.wasm + web/pkg/fairseed_wasm.js  (wasm-bindgen --target web)
#   web/fairseed-verifier.html                                (everything inlined)
#   web/pkg/BUILD-INFO                                        (toolchain and hashes)
# The outputs are committed, so `fairseed serve` needs no build step; CI runs
# web/check-build.sh, which rebuilds and fails if a byte differs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# The committed artifacts must be the build of committed sources (CI rebuilds
# from a fresh clone): say so when the tree differs.
if ! git diff --quiet HEAD -- crates/core crates/lanes crates/play crates/holdem crates/wasm Cargo.lock rust-toolchain.toml 2>/dev/null; then
  echo "web/build.sh: warning: crates/core, crates/lanes, crates/play, crates/holdem, crates/wasm, Cargo.lock or rust-toolchain.toml has uncommitted changes;" >&2
  echo "  this build will not match CI's. Build from a clean clone to commit the artifacts." >&2
fi

# wasm-bindgen-cli must be exactly the wasm-bindgen crate version the crate pins.
want="$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' crates/wasm/Cargo.toml)"
have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
if [ "$have" != "$want" ]; then
  echo "installing wasm-bindgen-cli $want (found '${have:-none}')" >&2
  cargo install wasm-bindgen-cli --version "$want" >&2
fi
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown >&2

# Paths are remapped so the bytes do not depend on where the tree or the cargo
# registry sit (CI builds in a fresh clone elsewhere).
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
export CARGO_TARGET_DIR="${WASM_TARGET_DIR:-$root/target-wasm}"
export RUSTFLAGS="--remap-path-prefix=$root=/fairseed --remap-path-prefix=$cargo_home=/cargo"
cargo build -p fairseed-wasm --target wasm32-unknown-unknown --release >&2

out="$root/web/pkg"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/fairseed_wasm.wasm"
node "$root/web/tools/offline.mjs" >&2

{
  echo "rustc: $(rustc --version)"
  echo "wasm-bindgen: $want"
  (cd web && sha256sum pkg/fairseed_wasm_bg.wasm pkg/fairseed_wasm.js fairseed-verifier.html)
} > "$out/BUILD-INFO"
cat "$out/BUILD-INFO"
