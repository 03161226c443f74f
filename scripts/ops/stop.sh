#!/usr/bin/env bash
# A graceful stop through the real binary: SIGTERM while a hold'em table's
# WebSocket is open and bets were just acknowledged. The WebSocket gets a
# close frame with code 1001 (going away), the process signs the log up to
# its last entry, releases its leases and exits 0.
#
#   scripts/ops/stop.sh            (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
name=stop.sh
source "$(dirname "$0")/lib.sh"

P=$(port)
"$FAIRSEED" serve --listen "127.0.0.1:$P" --data-dir "$work/data" --log-format json >"$work/serve.log" 2>&1 &
server=$!
pids+=($server)
for _ in $(seq 1 200); do grep -q "serving on" "$work/serve.log" && break; sleep 0.1; done
grep -q "serving on" "$work/serve.log" || fail "never listened"
base=http://127.0.0.1:$P
tok=$(curl -sf -X POST "$base/v1/players" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
tid=$(curl -sf -H "Authorization: Bearer $tok" -H 'Content-Type: application/json' \
  -d '{"ais": [1], "seats": 2}' "$base/v1/holdem/tables" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["table_id"])')
python3 scripts/ops/wsclient.py "ws://127.0.0.1:$P/v1/holdem/tables/$tid/ws" --wait-close 30 >"$work/ws.out" 2>&1 &
ws=$!
pids+=($ws)
for _ in $(seq 1 100); do grep -q "message state" "$work/ws.out" && break; sleep 0.1; done
grep -q "message state" "$work/ws.out" || fail "the WebSocket did not open: $(cat "$work/ws.out")"
for i in 1 2 3; do
  curl -sf -H "Authorization: Bearer $tok" -H "Idempotency-Key: stop-$i" -H 'Content-Type: application/json' \
    -d '{"amount": 1, "condition": "under", "target": 5000}' "$base/v1/dice/bets" >/dev/null || fail "bet $i"
done
kill -TERM "$server"
status=0
wait "$server" || status=$?
[ "$status" = 0 ] || fail "exit status $status after SIGTERM"
ok "SIGTERM: the process exits 0"
wait "$ws" || true
grep -q "close 1001" "$work/ws.out" || fail "the WebSocket was not closed with 1001: $(cat "$work/ws.out")"
ok "the open WebSocket got close code 1001"
grep -q '"the log is signed up to its last entry"' "$work/serve.log" || fail "no last signing"
ok "the log was signed up to its last entry before the exit"
grep -q '"released this process'"'"'s leases"' "$work/serve.log" || fail "leases not released"
ok "the leases were released"
echo "stop.sh: all passed"
