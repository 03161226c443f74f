#!/usr/bin/env bash
# Service load benchmark (docs/performance.md, "Service load"): durable dice
# bets per second and their latency, on SQLite and on PostgreSQL, with
# PostgreSQL's own pgbench (TPC-B-like) at the same connection counts, side
# by side in one run.
#
# Builds the release server, then:
#   1. SQLite: a fresh data dir, $PLAYERS players, wrk -c$SQLITE_CONNECTIONS
#      for $DURATION s on POST /v1/dice/bets (a fresh Idempotency-Key per
#      request, see bet.lua); the -wal file's size sampled every second.
#   2. PostgreSQL: for each of $PG_CONNECTIONS, the same load on a fresh
#      database with the transparency log on and again with it off
#      ($PG_LOG_MODES), then pgbench at that client count on another.
# Durable bets are counted from the server's own state afterwards (the sum of
# every player's next nonce), not from wrk. Prints a Markdown table (also
# left in $OUT). A benchmark, not a test: nothing here asserts a number.
#
# Usage: scripts/load/run.sh                      (60 s runs)
#   DURATION=20 PG_CONNECTIONS="32" scripts/load/run.sh
#   SKIP_PG=1 scripts/load/run.sh                 (SQLite only)
#   SKIP_SQLITE=1 scripts/load/run.sh             (PostgreSQL and pgbench only)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/scripts/load"
DURATION=${DURATION:-60}
SQLITE_CONNECTIONS=${SQLITE_CONNECTIONS:-32}
PG_CONNECTIONS=${PG_CONNECTIONS:-16 32 64}
PG_LOG_MODES=${PG_LOG_MODES:-on off}
WRK_THREADS=${WRK_THREADS:-1}
PLAYERS=${PLAYERS:-256}
PG_BASE=${PG_BASE:-postgres://postgres@127.0.0.1:5432}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target-load}
OUT=${OUT:-$CARGO_TARGET_DIR/load-results.md}

for tool in wrk curl jq; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is required (apt-get install -y $tool)" >&2; exit 2; }
done
if [[ -z "${SKIP_PG:-}" ]]; then
  for tool in psql pgbench; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool is required (or SKIP_PG=1)" >&2; exit 2; }
  done
fi

echo "== building the release server" >&2
cargo build --release --quiet -p fairseed-server --bin fairseed-server
BIN="$CARGO_TARGET_DIR/release/fairseed-server"

# The data dir lives on the same disk as the repository (not a tmpfs), so
# SQLite's fsyncs are real.
WORK=$(mktemp -d "$CARGO_TARGET_DIR/load-run.XXXXXX")
SERVER_PID=""
SAMPLER_PID=""
PG_DBS=()
# shellcheck source=scripts/load/lib.sh
source "$ROOT/scripts/load/lib.sh"
cleanup() {
  [[ -n "$SAMPLER_PID" ]] && kill "$SAMPLER_PID" 2>/dev/null || true
  cleanup_load
}
trap cleanup EXIT

# The operator key of the servers started here: /metrics needs it.
OPERATOR_KEY=load-operator-key-0123456789

# start_server LABEL [DATABASE_URL [ARGS...]]: sets URL and SERVER_PID.
start_server() {
  local label=$1 db=${2:-}
  local log="$WORK/server-$label.log"
  local args=(--listen 127.0.0.1:0 --data-dir "$WORK/data-$label" --rate-limit 0 --signups-per-minute 0
              --operator-key "$OPERATOR_KEY")
  [[ -n "$db" ]] && args+=(--database "$db")
  launch_server "$log" "${args[@]}" "${@:3}"
}

cpu_seconds() { # user+system CPU of a pid, in seconds
  awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$1/stat"
}

metric() { # metric NAME: its value in /metrics
  curl -sf -H "Authorization: Bearer $OPERATOR_KEY" "$URL/metrics" | awk -v n="$1" '$1 == n { print $2 }'
}

# sample_wal FILE: the largest size FILE reaches, once a second, into $WORK/wal-max.
sample_wal() {
  local file=$1 max=0 size
  while sleep 1; do
    size=$(stat -c %s "$file" 2>/dev/null || echo 0)
    (( size > max )) && max=$size && echo "$max" >"$WORK/wal-max"
  done
}

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$2"; }

ROWS=()
# bench LABEL CONNECTIONS: wrk against $URL; sets ROW, a table row but its notes.
bench() {
  local label=$1 conns=$2 before after cpu0 cpu1 out line
  before=$(durable_bets)
  cpu0=$(cpu_seconds "$SERVER_PID")
  out="$WORK/wrk-$label-$conns.txt"
  RUN_ID="$label-$conns-$$" TOKENS_FILE="$WORK/tokens" WRK_THREADS=$WRK_THREADS \
    wrk -t"$WRK_THREADS" -c"$conns" -d"${DURATION}s" --timeout 10s --latency \
    -s "$HERE/bet.lua" "$URL" >"$out"
  cpu1=$(cpu_seconds "$SERVER_PID")
  after=$(durable_bets)
  cat "$out" >&2
  line=$(grep '^p50_ms=' "$out")
  local bets=$((after - before)) secs rate cpu_per_bet
  secs=$(field duration_s "$line")
  rate=$(awk -v b="$bets" -v s="$secs" 'BEGIN { printf "%.0f", b / s }')
  cpu_per_bet=$(awk -v c0="$cpu0" -v c1="$cpu1" -v b="$bets" 'BEGIN { printf "%.0f", (c1 - c0) * 1e6 / b }')
  ROW="| fairseed $label, wrk -c$conns | $bets in ${secs}s | **$rate** | $(field p50_ms "$line") | $(field p99_ms "$line") | $(field p999_ms "$line") | $(field max_ms "$line") | $(field errors_status "$line") | $cpu_per_bet"
}

if [[ -z "${SKIP_SQLITE:-}" ]]; then
echo "== SQLite" >&2
start_server sqlite
make_players
: >"$WORK/wal-max"
sample_wal "$WORK/data-sqlite/fairseed.sqlite-wal" &
SAMPLER_PID=$!
bench sqlite "$SQLITE_CONNECTIONS"
kill "$SAMPLER_PID" 2>/dev/null || true; SAMPLER_PID=""
wal_max=$(cat "$WORK/wal-max" 2>/dev/null || true)
ckpts=$(metric fairseed_sqlite_checkpoints_total)
ckpt_s=$(metric fairseed_sqlite_checkpoint_seconds_total)
ckpt_ms=$(awk -v s="$ckpt_s" -v n="$ckpts" 'BEGIN { printf "%.1f", n ? s * 1000 / n : 0 }')
ROWS+=("$ROW | -wal max $(( ${wal_max:-0} / 1048576 )) MiB; $ckpts WAL restarts, $ckpt_ms ms each |")
stop_server
fi

if [[ -z "${SKIP_PG:-}" ]]; then
  for conns in $PG_CONNECTIONS; do
    for mode in $PG_LOG_MODES; do
      echo "== PostgreSQL, $conns connections, log $mode" >&2
      DB="fairseed_load_${conns}_${mode}_$$"
      PG_DBS+=("$DB")
      psql -q "$PG_BASE/postgres" -c "CREATE DATABASE $DB" >/dev/null
      start_server "postgres-log-$mode" "$PG_BASE/$DB" --log "$mode"
      make_players
      bench "postgres-log-$mode" "$conns"
      ROWS+=("$ROW | |")
      stop_server
    done

    echo "== pgbench TPC-B-like, $conns clients" >&2
    PGB="fairseed_pgbench_${conns}_$$"
    PG_DBS+=("$PGB")
    psql -q "$PG_BASE/postgres" -c "CREATE DATABASE $PGB" >/dev/null
    pgbench -q -i -s 10 "$PG_BASE/$PGB" >/dev/null 2>&1
    rm -f "$WORK"/pgb.*
    (cd "$WORK" && pgbench -c "$conns" -j 2 -T "$DURATION" -l --log-prefix=pgb "$PG_BASE/$PGB" >"$WORK/pgbench.txt" 2>&1)
    cat "$WORK/pgbench.txt" >&2
    tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$WORK/pgbench.txt" | head -1)
    txns=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$WORK/pgbench.txt")
    # Per-transaction log: the third column is the latency in microseconds.
    read -r p50 p99 p999 max < <(cat "$WORK"/pgb.* | awk '{ print $3 }' | sort -n | awk '
      { v[NR] = $1 } END { printf "%.2f %.2f %.2f %.2f\n", v[int(NR * 0.5) + 1] / 1000, v[int(NR * 0.99) + 1] / 1000, v[int(NR * 0.999) + 1] / 1000, v[NR] / 1000 }')
    ROWS+=("| pgbench TPC-B-like, -c$conns -j2 -s10 | $txns txns in ${DURATION}s | **$(printf '%.0f' "$tps")** tps | $p50 | $p99 | $p999 | $max | 0 | – | |")
  done
fi

{
  echo "| run | durable work | per second | p50 ms | p99 ms | p99.9 ms | max ms | non-2xx | server CPU µs/bet | notes |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${ROWS[@]}"
  echo
  echo "$(nproc) cores, $(uname -r); DURATION=$DURATION SQLITE_CONNECTIONS=$SQLITE_CONNECTIONS PG_CONNECTIONS=\"$PG_CONNECTIONS\" PG_LOG_MODES=\"$PG_LOG_MODES\" WRK_THREADS=$WRK_THREADS PLAYERS=$PLAYERS"
} | tee "$OUT"
