#!/usr/bin/env bash
# The alert rules (packaging/prometheus) against the service as it runs:
#   1. `promtool check rules`, then `promtool test rules`: each alert fires
#      on its case and stays quiet on its healthy one;
#   2. the real binary's /metrics scraped on SQLite and on PostgreSQL (a
#      cluster made here), with a witness, after a bet, and after a bet
#      that failed with the database gone (500): every series and
#      label value the rules select, and every series the tests feed them,
#      is one the service exports (scripts/ops/alert_labels.py), the ages
#      of the newest checkpoint and of the newest cosigned one among them.
#
#   scripts/ops/alerts.sh          (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
name=alerts.sh
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/pg_cluster.sh"
rules=packaging/prometheus/fairseed-alerts.yml
tests=packaging/prometheus/fairseed-alerts.test.yml
promtool check rules "$rules" >/dev/null || fail "promtool check rules"
promtool test rules "$tests" >"$work/promtool.log" 2>&1 || { cat "$work/promtool.log" >&2; fail "promtool test rules"; }
ok "promtool: the rules check, and every test case passes"

P=$(port)
M=$(port)
base=http://127.0.0.1:$P
# scrape FILE: after a bet, /metrics into $work/FILE.
scrape() {
  local tok
  tok=$(new_player)
  echo "$tok" >"$work/tokens"
  curl -sf -H "Authorization: Bearer $tok" -H 'Content-Type: application/json' -H "Idempotency-Key: $1" \
    -d '{"amount": 1, "condition": "under", "target": 5000}' "$base/v1/dice/bets" >/dev/null || fail "a bet"
  curl -sf "http://127.0.0.1:$M/metrics" >"$work/$1" || fail "scrape $1"
}
stop() { kill -TERM "$server" && wait "$server" || fail "stop"; }

# SQLite, with a witness (its log key is made at the first start).
serve sqlite1.log --data-dir "$work/sqlite" --metrics-listen "127.0.0.1:$M" || fail "start on SQLite"
stop
W=$(port)
witness sqlite1.log
serve sqlite2.log --data-dir "$work/sqlite" --metrics-listen "127.0.0.1:$M" \
  --witness "http://127.0.0.1:$W=$wvkey" || fail "start on SQLite with a witness"
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$M/metrics" | grep -q '^fairseed_witness_ok_timestamp_seconds [1-9]' && break
  sleep 0.1
done
# The checkpoints' ages are read every second.
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$M/metrics" | grep -q '^fairseed_log_cosigned_checkpoint_timestamp_seconds [1-9]' && break
  sleep 0.1
done
scrape sqlite.metrics
stop

# PostgreSQL.
DB=$(port)
cluster_start db "$DB"
serve pg.log --data-dir "$work/pg" --metrics-listen "127.0.0.1:$M" \
  --database "postgres://postgres@127.0.0.1:$DB/fairseed" || fail "start on PostgreSQL"
scrape pg.metrics
# A 5xx, as the database's death gives (so its label value is exported).
"${as_pg[@]}" "$bin/pg_ctl" -D "$work/db" stop -m immediate >/dev/null
code=$(curl -s -o /dev/null -w '%{http_code}' -m 10 -H "Authorization: Bearer $(sed -n 1p "$work/tokens")" \
  -H 'Content-Type: application/json' -H "Idempotency-Key: down" \
  -d '{"amount": 1, "condition": "under", "target": 5000}' "$base/v1/dice/bets")
[ "$code" = 500 ] || fail "a bet with the database gone answered $code"
curl -sf "http://127.0.0.1:$M/metrics" >>"$work/pg.metrics" || fail "scrape with the database gone"
stop

python3 scripts/ops/alert_labels.py "$rules" "$tests" "$work/sqlite.metrics" "$work/pg.metrics" >"$work/drift.log" ||
  { cat "$work/drift.log" >&2; fail "the rules or their tests drifted from what the service exports"; }
ok "rules and tests select what the service exports: $(tail -1 "$work/drift.log")"
echo "alerts.sh: all passed"
