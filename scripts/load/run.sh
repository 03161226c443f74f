#!/usr/bin/env bash
# Load benchmark of the dice bet endpoint.
#
# Builds the release server, then for SQLite and for PostgreSQL: starts it
# on a fresh data dir / database, creates $PLAYERS players, loads
# POST /v1/dice/bets over loopback with wrk for $DURATION seconds (a fresh
# Idempotency-Key per request, see bet.lua), and reports durable bets/s —
# counted from the server's own state afterwards (the sum of every player's
# next nonce), not from wrk — with wrk's p50/p99 latency. Then pgbench's
# TPC-B-like run on the same PostgreSQL for comparison. Prints a Markdown
# table (also left in $OUT).
#
# Usage: scripts/load/run.sh            (defaults: 20 s runs, 64 connections)
#   DURATION=30 CONNECTIONS=128 PLAYERS=512 scripts/load/run.sh
#   SKIP_PG=1 scripts/load/run.sh       (SQLite only)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/scripts/load"
DURATION=${DURATION:-20}
CONNECTIONS=${CONNECTIONS:-64}
WRK_THREADS=${WRK_THREADS:-1}
PLAYERS=${PLAYERS:-256}
PG_BASE=${PG_BASE:-postgres://postgres@127.0.0.1:5432}
PGBENCH_CLIENTS=${PGBENCH_CLIENTS:-16}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target-load}
OUT=${OUT:-$CARGO_TARGET_DIR/load-results.md}

for tool in wrk curl jq; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is required" >&2; exit 2; }
done

echo "== building the release server" >&2
cargo build --release --quiet -p fairseed-server --bin fairseed-server
BIN="$CARGO_TARGET_DIR/release/fairseed-server"

# The data dir lives on the same disk as the repository (not a tmpfs), so
# SQLite's fsyncs are real.
WORK=$(mktemp -d "$CARGO_TARGET_DIR/load-run.XXXXXX")
SERVER_PID=""
PG_DBS=()
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  for db in "${PG_DBS[@]}"; do
    psql -q "$PG_BASE/postgres" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT

# start_server LABEL [DATABASE_URL]: sets URL and SERVER_PID.
start_server() {
  local label=$1 db=${2:-}
  local log="$WORK/server-$label.log"
  local args=(--listen 127.0.0.1:0 --data-dir "$WORK/data-$label" --rate-limit 0 --signups-per-minute 0)
  [[ -n "$db" ]] && args+=(--database "$db")
  RUST_LOG=warn "$BIN" "${args[@]}" >"$log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 300); do
    if grep -q 'http://' "$log"; then
      URL=$(grep -o 'http://[0-9.:]*' "$log" | head -1)
      return
    fi
    sleep 0.1
  done
  echo "server did not start:" >&2; cat "$log" >&2; exit 1
}

stop_server() {
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
}

make_players() {
  : >"$WORK/tokens"
  for _ in $(seq "$PLAYERS"); do
    curl -sf -X POST "$URL/v1/players" | jq -r .token >>"$WORK/tokens"
  done
}

# The number of bets the server holds: every player's next nonce, summed.
durable_bets() {
  local total=0 n
  while read -r token; do
    n=$(curl -sf -H "Authorization: Bearer $token" "$URL/v1/seeds" | jq .next_nonce)
    total=$((total + n))
  done <"$WORK/tokens"
  echo "$total"
}

cpu_seconds() { # user+system CPU of a pid, in seconds
  awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$1/stat"
}

ROWS=()
# bench LABEL: wrk against $URL; appends a table row.
bench() {
  local label=$1 before after cpu0 cpu1 out line
  before=$(durable_bets)
  cpu0=$(cpu_seconds "$SERVER_PID")
  out="$WORK/wrk-$label.txt"
  RUN_ID="$label-$$" TOKENS_FILE="$WORK/tokens" WRK_THREADS=$WRK_THREADS \
    wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency \
    -s "$HERE/bet.lua" "$URL" >"$out"
  cpu1=$(cpu_seconds "$SERVER_PID")
  after=$(durable_bets)
  cat "$out" >&2
  line=$(grep '^p50_ms=' "$out")
  local p50 p99 secs errs
  p50=$(sed -n 's/.*p50_ms=\([0-9.]*\).*/\1/p' <<<"$line")
  p99=$(sed -n 's/.*p99_ms=\([0-9.]*\).*/\1/p' <<<"$line")
  secs=$(sed -n 's/.*duration_s=\([0-9.]*\).*/\1/p' <<<"$line")
  errs=$(sed -n 's/.*errors_status=\([0-9]*\).*/\1/p' <<<"$line")
  local bets=$((after - before))
  local rate cpu_per_bet
  rate=$(awk -v b="$bets" -v s="$secs" 'BEGIN { printf "%.0f", b / s }')
  cpu_per_bet=$(awk -v c0="$cpu0" -v c1="$cpu1" -v b="$bets" 'BEGIN { printf "%.0f", (c1 - c0) * 1e6 / b }')
  ROWS+=("| fairseed $label, POST /v1/dice/bets (wrk -c$CONNECTIONS) | $bets in ${secs}s | **$rate** | $p50 | $p99 | $errs | $cpu_per_bet |")
}

echo "== SQLite" >&2
start_server sqlite
make_players
bench sqlite
stop_server

if [[ -z "${SKIP_PG:-}" ]]; then
  echo "== PostgreSQL" >&2
  DB="fairseed_load_$$"
  PG_DBS+=("$DB")
  psql -q "$PG_BASE/postgres" -c "CREATE DATABASE $DB" >/dev/null
  start_server postgres "$PG_BASE/$DB"
  make_players
  bench postgres
  stop_server

  echo "== pgbench (TPC-B-like, same server)" >&2
  PGB="fairseed_pgbench_$$"
  PG_DBS+=("$PGB")
  psql -q "$PG_BASE/postgres" -c "CREATE DATABASE $PGB" >/dev/null
  pgbench -q -i -s 10 "$PG_BASE/$PGB" >/dev/null 2>&1
  (cd "$WORK" && pgbench -c "$PGBENCH_CLIENTS" -j 2 -T "$DURATION" -l --log-prefix=pgb "$PG_BASE/$PGB" >"$WORK/pgbench.txt" 2>&1)
  cat "$WORK/pgbench.txt" >&2
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$WORK/pgbench.txt" | head -1)
  txns=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$WORK/pgbench.txt")
  # Per-transaction log: the third column is the latency in microseconds.
  read -r p50 p99 < <(cat "$WORK"/pgb.* | awk '{ print $3 }' | sort -n | awk '
    { v[NR] = $1 } END { printf "%.2f %.2f\n", v[int(NR * 0.5) + 1] / 1000, v[int(NR * 0.99) + 1] / 1000 }')
  ROWS+=("| pgbench TPC-B-like (-c$PGBENCH_CLIENTS -j2 -s10) | $txns txns in ${DURATION}s | **$(printf '%.0f' "$tps")** tps | $p50 | $p99 | 0 | – |")
fi

{
  echo "| run | durable work | per second | p50 ms | p99 ms | non-2xx | server CPU µs/bet |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${ROWS[@]}"
  echo
  echo "$(nproc) cores, $(uname -r); DURATION=$DURATION CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS PLAYERS=$PLAYERS"
} | tee "$OUT"
