#!/usr/bin/env bash
# The player page's checks, for CI and by hand (from anywhere):
#   1. the committed wasm build (web/pkg, web/fairseed-verifier.html) is exactly
#      what web/build.sh makes from this commit's core (skip: FAIRSEED_SKIP_WASM_CHECK=1);
#   2. the page's JSDoc types, checked by TypeScript (web/tools/typecheck.mjs);
#   3. the browser tests in headless Chromium (Debian's /usr/bin/chromium,
#      driven by playwright-core; no browser is downloaded).
# Screenshots land in web/test-artifacts/ (git-ignored).
set -euo pipefail
web="$(cd "$(dirname "$0")" && pwd)"
cd "$web"

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "web/test.sh: no Chromium at ${CHROMIUM:-/usr/bin/chromium} (apt-get install -y chromium)" >&2
  exit 2
fi

if [ "${FAIRSEED_SKIP_WASM_CHECK:-0}" != 1 ]; then
  echo "== web: wasm artifacts reproduce from this commit"
  bash "$web/check-build.sh"
fi

echo "== web: npm ci"
npm ci --no-audit --no-fund --loglevel=error

echo "== web: JSDoc types (tsc --checkJs --noEmit; strict for the modules in jsconfig.strict.json; wire types current)"
node tools/typecheck.mjs

echo "== web: browser tests"
rm -rf "$web/test-artifacts"
node --test --test-concurrency=1 tests/
