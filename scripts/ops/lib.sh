# Sourced by the operator tests beside it (stop.sh, backup.sh, tls.sh): the
# repository as the working folder, the binary under test ($FAIRSEED, built
# when not given), a work folder removed on exit together with every process
# whose pid was added to `pids`, and the report lines. The caller sets `name`.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
if [ -z "${FAIRSEED:-}" ]; then
  cargo build -q -p fairseed-cli
  FAIRSEED=$PWD/target/debug/fairseed
fi
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# A failure: what failed, then the end of every log of the work folder.
fail() {
  echo "$name: FAIL: $*" >&2
  for f in "$work"/*.log; do
    [ -f "$f" ] || continue
    echo "--- $f" >&2
    tail -20 "$f" >&2
  done
  exit 1
}
ok() { echo "ok - $*"; }
# A loopback port for a test server (scripts/ops/free_port.py).
port() { python3 scripts/ops/free_port.py; }
# Until N bets in all were acknowledged by scripts/ops/bettor.py, which
# appends each acknowledged bet's id to $work/acked.
wait_bets() { # wait_bets N: until N bets in all were acknowledged
  for _ in $(seq 1 300); do [ "$(wc -l <"$work/acked")" -ge "$1" ] && return 0; sleep 0.1; done
  fail "fewer than $1 bets acknowledged"
}
# bettor PREFIX: scripts/ops/bettor.py in the background as player $tok
# on $base, idempotency keys PREFIX1, PREFIX2…; its pid in $bettor.
bettor() {
  python3 scripts/ops/bettor.py "$base" "$tok" "$work/acked" "$1" &
  bettor=$!
  pids+=($bettor)
}
# serve LOG ARGS...: `fairseed serve` on 127.0.0.1:$P with ARGS, its output
# in $work/LOG and its pid in $server; waits until it listens. Returns 1 if
# it exited first (a refused start).
serve() {
  local log=$1
  shift
  "$FAIRSEED" serve --listen "127.0.0.1:$P" --log-format json "$@" >"$work/$log" 2>&1 &
  server=$!
  pids+=($server)
  for _ in $(seq 1 300); do
    grep -q "serving on" "$work/$log" && return 0
    kill -0 "$server" 2>/dev/null || return 1
    sleep 0.1
  done
  fail "$log: never listened"
}
# witness LOG: a `fairseed witness` on 127.0.0.1:$W for the log whose key
# the service printed in $work/LOG; its cosigner key in $wvkey.
witness() {
  local vkey
  vkey=$(sed -n 's/.*transparency log [^ ]* key \([^" ]*\).*/\1/p' "$work/$1")
  "$FAIRSEED" witness --name witness.example/w1 --key-file "$work/w.key" --log "$vkey" \
    --state "$work/w.state" --listen "127.0.0.1:$W" >"$work/witness.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 200); do grep -q "listening on" "$work/witness.log" && break; sleep 0.1; done
  wvkey=$(sed -n 's/^witness key //p' "$work/witness.log")
  [ -n "$wvkey" ] || fail "the witness did not start"
}
# A new player's token, from the service at $base.
new_player() {
  curl -sf -X POST "$base/v1/players" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}
