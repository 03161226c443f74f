#!/usr/bin/env bash
# CI: rebuild the committed wasm artifacts and fail if any byte differs, so the
# wasm the page serves is always the build of the core in this commit.
#
# The bytes depend on the tools: rust-toolchain.toml pins rustc, and
# crates/wasm/Cargo.toml pins wasm-bindgen (web/build.sh installs that CLI).
# On a mismatch this says which tools the committed build used and how to
# rebuild it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

pinned_rustc="$(sed -n 's/^channel = "\(.*\)"/\1/p' rust-toolchain.toml)"
pinned_bindgen="$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' crates/wasm/Cargo.toml)"
have_rustc="$(rustc --version)"
committed_tools="$(git show HEAD:web/pkg/BUILD-INFO 2>/dev/null | grep -E '^(rustc|wasm-bindgen):' || echo 'unknown (no web/pkg/BUILD-INFO in HEAD)')"

case "$have_rustc" in
  "rustc $pinned_rustc "*) ;;
  *)
    echo "web/: warning: $have_rustc is not the pinned rustc $pinned_rustc (rust-toolchain.toml);" >&2
    echo "  a RUSTUP_TOOLCHAIN or rustup override wins over the file. The bytes will likely differ." >&2
    ;;
esac

bash web/build.sh >/dev/null
files=(web/pkg/fairseed_wasm_bg.wasm web/pkg/fairseed_wasm.js web/pkg/BUILD-INFO web/fairseed-verifier.html)
if ! git diff --quiet -- "${files[@]}" || [ -n "$(git status --porcelain -- "${files[@]}")" ]; then
  {
    echo "web/: the committed wasm build is stale or not reproducible:"
    git status --short -- "${files[@]}"
    git diff --stat -- "${files[@]}"
    echo
    echo "The committed build was made with:"
    echo "$committed_tools" | sed 's/^/  /'
    echo "This build used:"
    echo "  rustc: $have_rustc"
    echo "  wasm-bindgen: $pinned_bindgen"
    echo
    echo "To rebuild the artifacts: with rustc $pinned_rustc (rust-toolchain.toml; rustup"
    echo "installs it: rustup toolchain install $pinned_rustc --target wasm32-unknown-unknown)"
    echo "and wasm-bindgen-cli $pinned_bindgen (web/build.sh installs it:"
    echo "cargo install wasm-bindgen-cli --version $pinned_bindgen), on a tree whose"
    echo "crates/core, crates/lanes, crates/play, crates/holdem, crates/wasm and Cargo.lock are committed, run"
    echo "  bash web/build.sh"
    echo "and commit web/pkg and web/fairseed-verifier.html."
  } >&2
  exit 1
fi
echo "web/: wasm artifacts reproduce byte for byte (rustc $pinned_rustc, wasm-bindgen $pinned_bindgen)"
