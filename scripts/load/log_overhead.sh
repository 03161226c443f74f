#!/usr/bin/env bash
# What the transparency log costs (docs/performance.md, "Transparency log"):
# durable dice bets per second with `--log on` and `--log off`, side by side
# in one run, in short turns so that a busy machine slows both alike.
#
# Two servers run for the whole script, one with the log and one without,
# each on its own fresh SQLite data dir (or fresh PostgreSQL database with
# PG=1) with $PLAYERS players of its own. For each of $ROUNDS rounds, each
# server in turn (off first in odd rounds, on first in even ones) takes
# wrk -c$CONNECTIONS for $DURATION s on POST /v1/dice/bets
# (scripts/load/bet.lua) while the other idles. A machine whose speed drifts
# over minutes (a neighbour's load) then weighs on both alike: the turns of
# a round are seconds apart, and many short rounds average the drift out.
# A turn's bets are the 2xx answers wrk counted (each acknowledged only once
# durable); at the end each server must hold at least the bets it
# acknowledged (every player's next nonce, summed), and the log's signed
# checkpoint must cover every entry within ~1.5 s (each player's commitment
# and each bet's outcome). Also the CPU per bet, from /proc over the middle
# of each turn: the database's (the loaded server's SQLite threads, or
# PostgreSQL's processes), the loaded server's other threads (the HTTP
# runtime), and wrk's; PostgreSQL must then run on this machine (PG_BASE on
# loopback, as the default). Prints a Markdown table (also left in $OUT),
# the ratio over all rounds and each round's, with their median. A
# benchmark, not a test: nothing asserts a ratio.
#
# Usage: scripts/load/log_overhead.sh
#   DURATION=10 ROUNDS=12 scripts/load/log_overhead.sh
#   PG=1 scripts/load/log_overhead.sh                 (PostgreSQL at $PG_BASE)
#   BIN=path/to/fairseed-server scripts/load/log_overhead.sh   (a server built
#     elsewhere, e.g. from another commit, to compare builds run after run)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/scripts/load"
DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-8}
CONNECTIONS=${CONNECTIONS:-32}
PLAYERS=${PLAYERS:-256}
PG_BASE=${PG_BASE:-postgres://postgres@127.0.0.1:5432}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target-load}
OUT=${OUT:-$CARGO_TARGET_DIR/log-overhead.md}

(( DURATION >= 6 )) || { echo "log_overhead.sh: DURATION must be at least 6 s" >&2; exit 2; }
for tool in wrk curl jq; do
  command -v "$tool" >/dev/null || { echo "log_overhead.sh: $tool is required" >&2; exit 2; }
done
[[ -n "${PG:-}" ]] && { command -v psql >/dev/null || { echo "log_overhead.sh: psql is required with PG=1" >&2; exit 2; }; }

if [[ -z "${BIN:-}" ]]; then
  echo "== building the release server" >&2
  cargo build --release --quiet -p fairseed-server --bin fairseed-server
  BIN="$CARGO_TARGET_DIR/release/fairseed-server"
fi

WORK=$(mktemp -d "$CARGO_TARGET_DIR/log-overhead.XXXXXX")
SERVER_PID=""
PG_DBS=()
declare -A PIDS URLS
# shellcheck source=scripts/load/lib.sh
source "$ROOT/scripts/load/lib.sh"
stop_all() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  cleanup_load
}
trap stop_all EXIT

# start_server LABEL MODE: sets URL and SERVER_PID.
start_server() {
  local label=$1 mode=$2 log="$WORK/server-$1.log"
  local args=(--listen 127.0.0.1:0 --data-dir "$WORK/data-$label" --rate-limit 0 --signups-per-minute 0 --log "$mode")
  if [[ -n "${PG:-}" ]]; then
    local db="fairseed_log_${label//-/_}_$$"
    PG_DBS+=("$db")
    psql -q "$PG_BASE/postgres" -c "CREATE DATABASE $db" >/dev/null
    args+=(--database "$PG_BASE/$db")
  fi
  launch_server "$log" "${args[@]}"
}

# ticks STAT: the CPU ticks (user + system) in the /proc stat line STAT.
ticks() {
  local stat=${1##*) } f
  read -r -a f <<<"$stat"
  echo $((f[11] + f[12]))
}

# cpu_ticks SERVER WRK: the CPU ticks so far of the database's work (on
# SQLite the server's SQLite threads: its writer and WAL checkpointer; on
# PostgreSQL every process named postgres: its backends, WAL writer and
# checkpointer, and any autovacuum worker still running), of the server's
# other threads, and of wrk.
cpu_ticks() {
  local database=0 rest=0 t p stat
  for t in /proc/"$1"/task/*; do
    stat=$(<"$t/stat") || continue
    if [[ $(<"$t/comm") == fairseed-sqlite* ]]; then
      database=$((database + $(ticks "$stat")))
    else
      rest=$((rest + $(ticks "$stat")))
    fi
  done
  if [[ -n "${PG:-}" ]]; then
    for p in $(pgrep -x postgres); do
      stat=$(<"/proc/$p/stat") 2>/dev/null || continue
      database=$((database + $(ticks "$stat")))
    done
  fi
  echo "$database $rest $(ticks "$(<"/proc/$2/stat")")"
}

# per_bet TICKS RATE: µs of CPU per bet, for TICKS over the measured window
# (the load but its first and last 2 s) at RATE bets/s.
per_bet() {
  awk -v t="$1" -v r="$2" -v w="$((DURATION - 4))" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf "%.0f", 1e6 * t / hz / (r * w) }'
}

# The tree size the latest checkpoint signs (its second line).
tree_size() { curl -sf "$URL/log/checkpoint" | sed -n 2p; }

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$2"; }

# use MODE: points URL, SERVER_PID and the players' tokens at that server.
use() {
  URL=${URLS[$1]}
  SERVER_PID=${PIDS[$1]}
  cp "$WORK/tokens-$1" "$WORK/tokens"
}

for mode in off on; do
  echo "== starting the server, log $mode" >&2
  start_server "$mode" "$mode"
  PIDS[$mode]=$SERVER_PID
  URLS[$mode]=$URL
  make_players
  mv "$WORK/tokens" "$WORK/tokens-$mode"
done

ROWS=()
declare -A BETS SECS RATE
# Each round's bets/s with the log as a share of the same round's without:
# the two turns of a round are seconds apart, so a neighbour's load that
# comes and goes weighs on a round's pair more alike than on the whole run;
# their median is the figure least moved by one bad round.
PAIRS=()
for round in $(seq "$ROUNDS"); do
  order="off on"
  (( round % 2 == 0 )) && order="on off"
  for mode in $order; do
    label="$mode-$round"
    echo "== round $round, log $mode" >&2
    use "$mode"
    out="$WORK/wrk-$label.txt"
    RUN_ID="$label-$$" TOKENS_FILE="$WORK/tokens-$mode" WRK_THREADS=1 \
      wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency \
      -s "$HERE/bet.lua" "$URL" >"$out" &
    wrk_pid=$!
    # CPU in the middle of the turn, away from its ramp-up and end.
    sleep 2
    read -r w0 r0 c0 < <(cpu_ticks "$SERVER_PID" "$wrk_pid")
    sleep $((DURATION - 4))
    read -r w1 r1 c1 < <(cpu_ticks "$SERVER_PID" "$wrk_pid")
    wait "$wrk_pid"
    line=$(grep '^p50_ms=' "$out")
    secs=$(field duration_s "$line")
    bets=$(( $(field requests "$line") - $(field errors_status "$line") ))
    BETS[$mode]=$(( ${BETS[$mode]:-0} + bets ))
    SECS[$mode]=$(awk -v a="${SECS[$mode]:-0}" -v b="$secs" 'BEGIN { print a + b }')
    rate=$(awk -v b="$bets" -v s="$secs" 'BEGIN { printf "%.0f", b / s }')
    RATE[$mode]=$rate
    cpu="$(per_bet $((w1 - w0)) "$rate") / $(per_bet $((r1 - r0)) "$rate") / $(per_bet $((c1 - c0)) "$rate")"
    ROWS+=("| $round | $mode | $bets in ${secs}s | **$rate** | $(field p50_ms "$line") | $(field p99_ms "$line") | $(field errors_status "$line") | $cpu |")
  done
  PAIRS+=("$(awk -v on="${RATE[on]}" -v off="${RATE[off]}" 'BEGIN { printf "%.1f", 100 * on / off }')")
done

# Nothing acknowledged is missing, and the log holds every entry.
sleep 1.5
CHECKS=()
for mode in off on; do
  use "$mode"
  durable=$(durable_bets)
  (( durable >= BETS[$mode] )) || echo "log_overhead.sh: log $mode holds $durable bets of the ${BETS[$mode]} it acknowledged" >&2
  CHECKS+=("log $mode: ${BETS[$mode]} bets acknowledged, $durable held")
  if [[ $mode == on ]]; then
    logged=$(tree_size)
    want=$((durable + PLAYERS))
    (( logged >= want )) || echo "log_overhead.sh: the checkpoint covers $logged of $want entries 1.5 s after the load" >&2
    CHECKS+=("the signed tree holds $logged entries of $want")
  fi
done

# median VALUES...: the middle value (the mean of the two middle ones).
median() {
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ratio=$(awk -v bon="${BETS[on]}" -v son="${SECS[on]}" -v boff="${BETS[off]}" -v soff="${SECS[off]}" \
  'BEGIN { printf "%.1f", 100 * (bon / son) / (boff / soff) }')
{
  echo "| round | log | bets acknowledged | bets/s | p50 ms | p99 ms | non-2xx | CPU µs/bet: database / rest / wrk |"
  echo "|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${ROWS[@]}"
  echo
  echo "bets/s with the log: **$ratio %** of without (all rounds); by round ${PAIRS[*]} %, median **$(median "${PAIRS[@]}") %**."
  echo "$(IFS=';'; echo "${CHECKS[*]}" | sed 's/;/; /g')."
  echo "$(nproc) cores, $(uname -r); backend $([[ -n "${PG:-}" ]] && echo PostgreSQL || echo SQLite); DURATION=$DURATION ROUNDS=$ROUNDS CONNECTIONS=$CONNECTIONS PLAYERS=$PLAYERS"
} | tee "$OUT"
