#!/usr/bin/env bash
# The verifier-only build (README, "Install just the verifier"): `fairseed`
# without its default features builds, verifies every file in examples/ with
# the exit status examples/README.md gives it, lints clean, has no `serve`,
# and depends on at most 40 crates. Its own target directory keeps it from
# replacing the full binary the other tests run.
set -euo pipefail
cd "$(dirname "$0")/.."

max_crates=40
target="${LEAN_TARGET_DIR:-target/lean}"
cargo build -p fairseed-cli --no-default-features --locked --target-dir "$target"
# The feature-gated code paths lint clean in this build too.
cargo clippy -p fairseed-cli --no-default-features --all-targets --locked --target-dir "$target" -- -D warnings
bin="$target/debug/fairseed"

# Expected exit status per example, from the table in examples/README.md.
fail=0
checked=0
while IFS='|' read -r _ file _ _ want _; do
  file="$(echo "$file" | tr -d ' `')"
  want="$(echo "$want" | tr -d ' ')"
  [ -f "examples/$file" ] || continue
  got=0
  "$bin" verify "examples/$file" >/dev/null 2>&1 || got=$?
  checked=$((checked + 1))
  if [ "$got" != "$want" ]; then
    echo "lean verifier: examples/$file exited $got, expected $want" >&2
    fail=1
  fi
done < examples/README.md
if [ "$checked" -eq 0 ]; then
  echo "lean verifier: no example found in the table of examples/README.md" >&2
  fail=1
fi

if "$bin" serve --help >/dev/null 2>&1; then
  echo "lean verifier: 'fairseed serve' exists in the build without default features" >&2
  fail=1
fi

# Distinct crates in the normal (non-build, non-dev) dependency graph, the
# binary's own package included; --no-dedupe prints a shared crate in full at
# every use, so `sort -u` leaves one line per crate.
crates="$(cargo tree -p fairseed-cli --no-default-features -e normal --prefix none --no-dedupe --locked | sort -u)"
count="$(echo "$crates" | wc -l)"
if [ "$count" -gt "$max_crates" ]; then
  echo "lean verifier: $count crates, more than $max_crates:" >&2
  echo "$crates" | sed 's/^/  /' >&2
  fail=1
fi
[ "$fail" -eq 0 ] || exit 1
echo "lean verifier: $checked examples verified as expected, no serve, $count crates (at most $max_crates)"
