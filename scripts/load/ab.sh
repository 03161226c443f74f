#!/usr/bin/env bash
# Two server builds under the same load, alternating in one run, so a busy or
# slow machine slows both alike (docs/performance.md, "Service load"): for
# each round and binary, a fresh server (SQLite, or PostgreSQL with PG=1),
# $PLAYERS players, wrk -c$CONNECTIONS for $DURATION s with bet.lua; durable
# bets counted from the players' next nonces, CPU from /proc.
#
# Usage: scripts/load/ab.sh OLD_BINARY NEW_BINARY
#   PG=1 CONNECTIONS=16 DURATION=15 ROUNDS=2 scripts/load/ab.sh A B
# Build the old one from another checkout, e.g.
#   git worktree add /tmp/old REV && (cd /tmp/old && cargo build --release -p fairseed-server)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/scripts/load"
[[ $# -eq 2 ]] || { echo "usage: $0 OLD_BINARY NEW_BINARY" >&2; exit 2; }
CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-20}
ROUNDS=${ROUNDS:-2}
PLAYERS=${PLAYERS:-256}
PG_BASE=${PG_BASE:-postgres://postgres@127.0.0.1:5432}
# shellcheck source=scripts/load/lib.sh
source "$HERE/lib.sh"
SERVER_PID=""
PG_DBS=()
WORK=""
trap '[[ -n "$WORK" ]] && cleanup_load' EXIT

echo "| round | build | durable bets | bets/s | server CPU µs/bet |"
echo "|---|---|---|---|---|"
for round in $(seq "$ROUNDS"); do
  for build in old new; do
    if [[ $build == old ]]; then BIN=$1; else BIN=$2; fi
    WORK=$(mktemp -d)
    PG_DBS=()
    args=(--listen 127.0.0.1:0 --data-dir "$WORK/data" --rate-limit 0 --signups-per-minute 0)
    if [[ -n "${PG:-}" ]]; then
      db="fairseed_ab_${round}_${build}_$$"
      PG_DBS+=("$db")
      psql -q "$PG_BASE/postgres" -c "CREATE DATABASE $db" >/dev/null
      args+=(--database "$PG_BASE/$db")
    fi
    launch_server "$WORK/server.log" "${args[@]}"
    make_players
    cpu0=$(awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat")
    RUN_ID="$build-$round-$$" TOKENS_FILE="$WORK/tokens" \
      wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" -s "$HERE/bet.lua" "$URL" >"$WORK/wrk.txt" 2>&1
    cpu1=$(awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat")
    bets=$(durable_bets)
    ticks=$(getconf CLK_TCK)
    echo "| $round | $build | $bets | $((bets / DURATION)) | $(( (cpu1 - cpu0) * 1000000 / ticks / bets )) |"
    cleanup_load
    WORK=""
  done
done
echo
echo "$(nproc) cores; CONNECTIONS=$CONNECTIONS DURATION=$DURATION ROUNDS=$ROUNDS PLAYERS=$PLAYERS${PG:+ PG=1}"
