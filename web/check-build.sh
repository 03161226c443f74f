#!/usr/bin/env bash
# CI: rebuild the committed wasm artifacts and fail if any byte differs, so the
# wasm the page serves is always the build of the core in this commit.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash web/build.sh >/dev/null
files=(web/pkg/fairseed_wasm_bg.wasm web/pkg/fairseed_wasm.js web/pkg/BUILD-INFO web/fairseed-verifier.html)
if ! git diff --quiet -- "${files[@]}" || [ -n "$(git status --porcelain -- "${files[@]}")" ]; then
  echo "web/: the committed wasm build is stale or not reproducible:" >&2
  git status --short -- "${files[@]}" >&2
  git diff --stat -- "${files[@]}" >&2
  echo "run 'bash web/build.sh' and commit web/pkg and web/fairseed-verifier.html" >&2
  exit 1
fi
echo "web/: wasm artifacts reproduce byte for byte"
