#!/usr/bin/env bash
# Side-by-side throughput on this machine, in one run:
#   fairseed-core (criterion, one core) vs the seeds' own reference code on the same
#   inputs (Node for dice and 52-card deals, NumPy for selfpoker decks), the SHA-2
#   hash limit (openssl speed), and `fairseed verify` on a 1,000,000-record dice file
#   (hyperfine, all cores).
# Usage: benches/compare.sh [--quick]      (from anywhere; prints a Markdown table)
# Needs: cargo, node, python3 with numpy, openssl, hyperfine. --quick shortens every run.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
quick=${1:-}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
out=$(mktemp -d "${TMPDIR:-/tmp}/fairseed-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

need() { command -v "$1" >/dev/null || { echo "compare.sh: $1 is not installed ($2)" >&2; exit 2; }; }
need node "apt-get install -y nodejs"
need python3 "apt-get install -y python3"
need openssl "apt-get install -y openssl"
need hyperfine "apt-get install -y hyperfine"
python3 -c 'import numpy' 2>/dev/null || { echo "compare.sh: numpy missing (pip install numpy)" >&2; exit 2; }

if [ "$quick" = "--quick" ]; then
  dice_n=200000; deal_n=5000; deck_n=20000; verify_n=100000; runs=2; crit="--warm-up-time 1 --measurement-time 1"
else
  dice_n=1000000; deal_n=20000; deck_n=100000; verify_n=1000000; runs=5; crit=""
fi

cut -d' ' -f1-3 /proc/loadavg > "$out/load-before.txt"
echo "== building (release)" >&2
cargo build --release --quiet -p fairseed-cli --bin fairseed --example gen_dice
fairseed="$CARGO_TARGET_DIR/release/fairseed"
gen_dice="$CARGO_TARGET_DIR/release/examples/gen_dice"

echo "== criterion: fairseed-core, one core" >&2
# shellcheck disable=SC2086
cargo bench --quiet -p fairseed-core --bench schemes -- $crit >&2
cp -r "$CARGO_TARGET_DIR/criterion" "$out/criterion"

echo "== seeds' reference code" >&2
node benches/reference/dice.js "$dice_n" > "$out/node-dice.json"
node benches/reference/deal52.js "$deal_n" > "$out/node-deal52.json"
python3 benches/reference/selfpoker.py "$deck_n" > "$out/numpy-selfpoker.json"

echo "== openssl speed (hash limit, one core)" >&2
openssl speed -seconds 2 -bytes 8192 -mr sha256 sha512 2>/dev/null | grep '^+F' > "$out/openssl.txt"

echo "== fairseed verify on $verify_n dice records" >&2
"$gen_dice" "$verify_n" "$out/dice.jsonl"
ls -l "$out/dice.jsonl" | awk '{print $5}' > "$out/dice.bytes"
"$fairseed" verify --json "$out/dice.jsonl" > /dev/null   # must exit 0, else the run stops here
/usr/bin/time -f '%M' -o "$out/verify-rss.txt" "$fairseed" verify "$out/dice.jsonl" > /dev/null
hyperfine --style none --warmup 1 --runs "$runs" --export-json "$out/hyperfine.json" \
  -n "verify --json (all cores)" "$fairseed verify --json $out/dice.jsonl > /dev/null" \
  -n "verify (readable, all cores)" "$fairseed verify $out/dice.jsonl > /dev/null" \
  -n "verify --json -j 1" "$fairseed verify --json -j 1 $out/dice.jsonl > /dev/null" >&2

cut -d' ' -f1-3 /proc/loadavg > "$out/load-after.txt"
python3 benches/table.py "$out" "$verify_n"
