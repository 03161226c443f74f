#!/usr/bin/env bash
# Benchmark of the dice bet endpoint (a benchmark, not a test).
#
# Runs the release fairseed-server on SQLite and then on PostgreSQL, creates
# $PLAYERS players, loads POST /v1/dice/bets with wrk (unique Idempotency-Key
# per request, tokens spread over the players), and runs pgbench on the same
# PostgreSQL for comparison. Prints one Markdown table row per run.
#
#   scripts/service/bench.sh                    # defaults below
#   DURATION=30s CONNS=128 scripts/service/bench.sh
#
# Needs: wrk, curl, psql, pgbench, createdb/dropdb; PostgreSQL reachable at $PG.
set -euo pipefail

cd "$(dirname "$0")/../.."
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/fairseed-server}
DURATION=${DURATION:-15s}
CONNS=${CONNS:-32}
THREADS=${THREADS:-2}
PLAYERS=${PLAYERS:-64}
PORT=${PORT:-7990}
PG=${PG:-postgres://postgres@127.0.0.1:5432/test}
PGHOST=${PGHOST:-127.0.0.1}
PGUSER=${PGUSER:-postgres}
export PGHOST PGUSER

if [ ! -x "$BIN" ]; then
  cargo build --release -p fairseed-server --bin fairseed-server
fi

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  psql -q -d test -c "DROP SCHEMA IF EXISTS fairseed_bench CASCADE" >/dev/null 2>&1 || true
  dropdb --if-exists fairseed_pgbench >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

start_server() { # name, extra args...
  local name=$1; shift
  rm -rf "$WORK/data-$name"
  RUST_LOG=warn "$BIN" --listen "127.0.0.1:$PORT" --data-dir "$WORK/data-$name" --rate-limit 0 "$@" \
    > "$WORK/server-$name.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "server $name did not start:" >&2; cat "$WORK/server-$name.log" >&2; exit 1
}

stop_server() {
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
}

make_players() {
  : > "$WORK/tokens"
  for _ in $(seq 1 "$PLAYERS"); do
    curl -sf -X POST "http://127.0.0.1:$PORT/v1/players" \
      | grep -o '"token":"[0-9a-f]*"' | cut -d'"' -f4 >> "$WORK/tokens"
  done
  [ "$(wc -l < "$WORK/tokens")" -eq "$PLAYERS" ] || { echo "could not create $PLAYERS players" >&2; exit 1; }
}

run_wrk() { # name
  local name=$1
  FAIRSEED_TOKENS_FILE="$WORK/tokens" wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency \
    -s scripts/service/bet.lua "http://127.0.0.1:$PORT" > "$WORK/wrk-$name.txt"
  local rps p50 p99 non2xx
  rps=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk-$name.txt")
  p50=$(awk '$1 == "50%" {print $2}' "$WORK/wrk-$name.txt")
  p99=$(awk '$1 == "99%" {print $2}' "$WORK/wrk-$name.txt")
  non2xx=$(awk '/Non-2xx/ {print $5}' "$WORK/wrk-$name.txt")
  echo "| fairseed dice bets, $name | ${rps} bets/s | ${p50} | ${p99} | ${non2xx:-0} non-2xx |"
}

echo "| run | throughput | p50 | p99 | notes |"
echo "|---|---|---|---|---|"

start_server sqlite
make_players
run_wrk "SQLite (WAL, synchronous=FULL, group commit)"
stop_server

psql -q -d test -c "DROP SCHEMA IF EXISTS fairseed_bench CASCADE; CREATE SCHEMA fairseed_bench" >/dev/null
start_server postgres --database "${PG}?options=-c%20search_path%3Dfairseed_bench"
make_players
run_wrk "PostgreSQL"
stop_server

dropdb --if-exists fairseed_pgbench >/dev/null 2>&1 || true
createdb fairseed_pgbench
pgbench -q -i -s 10 fairseed_pgbench >/dev/null 2>&1
pgbench -c 16 -j "$THREADS" -T "${DURATION%s}" fairseed_pgbench > "$WORK/pgbench.txt" 2>&1
tps=$(awk -F'= ' '/^tps/ {print $2}' "$WORK/pgbench.txt" | awk '{print $1}')
lat=$(awk -F'= ' '/latency average/ {print $2}' "$WORK/pgbench.txt")
echo "| pgbench TPC-B (scale 10, 16 clients), same PostgreSQL | ${tps} tps | avg ${lat} | | |"
