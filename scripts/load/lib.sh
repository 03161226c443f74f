# Shared by the load scripts (sourced): start and stop a server, make players,
# count the bets the server holds, clean up. Expects BIN, WORK and PLAYERS set
# (and PG_BASE, PG_DBS for the PostgreSQL databases a script created).

# launch_server LOG ARGS...: starts "$BIN" ARGS with its output in LOG; sets
# URL and SERVER_PID once it prints its address.
launch_server() {
  local log=$1
  shift
  RUST_LOG=warn "$BIN" "$@" >"$log" 2>&1 &
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

# On exit: stops the server, drops the PostgreSQL databases in PG_DBS and
# removes WORK.
cleanup_load() {
  if [[ -n "${SERVER_PID:-}" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  for db in "${PG_DBS[@]}"; do
    psql -q "$PG_BASE/postgres" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
  done
  rm -rf "$WORK"
}
