#!/usr/bin/env bash
# A database that fails, through the real binary on a PostgreSQL cluster
# made here, under a stream of bets:
#   1. commits stall (a synchronous standby named that never comes):
#      /healthz turns to 503 within 2 s, the log says the database cannot
#      commit, /metrics shows it (fairseed_db_can_commit 0, a stall
#      counted); the standby requirement dropped, /healthz turns back;
#   2. the database killed (an immediate stop, as a crash): /healthz turns
#      to 503 within 2.5 s; SIGTERM then ends the process within 15 s;
#   3. the database started again: every bet acknowledged is in it.
# Each time measured is printed.
#
#   scripts/ops/db_down.sh         (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
name=db_down.sh
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/pg_cluster.sh"
DB=$(port)
cluster_start db "$DB"
P=$(port)
M=$(port)
base=http://127.0.0.1:$P
serve serve.log --data-dir "$work/data" --database "postgres://postgres@127.0.0.1:$DB/fairseed" \
  --metrics-listen "127.0.0.1:$M" || fail "start"
tok=$(new_player)
: >"$work/acked"
bettor d
wait_bets 20
health() { curl -s -o /dev/null -m 5 -w '%{http_code}' "$base/healthz"; }
# until_health CODE LIMIT_S: seconds (3 decimals) until /healthz answers CODE.
until_health() {
  python3 - "$base/healthz" "$1" "$2" <<'PY'
import sys, time, urllib.request, urllib.error
url, want, limit = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
start = time.monotonic()
while time.monotonic() - start < limit + 5:
    try:
        code = urllib.request.urlopen(url, timeout=5).status
    except urllib.error.HTTPError as e:
        code = e.code
    except Exception:
        code = 0
    if code == want:
        print(f"{time.monotonic() - start:.3f}")
        sys.exit(0)
    time.sleep(0.05)
print("never")
PY
}
within() { python3 -c 'import sys; sys.exit(0 if sys.argv[1] != "never" and float(sys.argv[1]) <= float(sys.argv[2]) else 1)' "$1" "$2"; }
metric() { curl -s "http://127.0.0.1:$M/metrics" | sed -n "s/^$1 //p"; }
[ "$(health)" = 200 ] || fail "not healthy at the start"

# 1. Commits stall.
psql_at "$DB" "ALTER SYSTEM SET synchronous_standby_names = 'standby_that_never_comes'" >/dev/null
psql_at "$DB" "SELECT pg_reload_conf()" >/dev/null
t=$(until_health 503 2)
within "$t" 2 || fail "/healthz did not turn to 503 within 2 s of commits stalling ($t)"
grep -q '"the database cannot commit: /healthz answers 503"' "$work/serve.log" || fail "no log line for the stall"
[ "$(metric fairseed_db_can_commit)" = 0 ] || fail "fairseed_db_can_commit is not 0"
[ "$(metric fairseed_db_stalls_total)" -ge 1 ] || fail "no stall counted"
ok "commits stalled: /healthz 503 after $t s; logged; fairseed_db_can_commit 0, fairseed_db_stalls_total $(metric fairseed_db_stalls_total)"
sleep 6 # longer than a transaction's wait: requests waiting are given up
[ "$(metric fairseed_db_timeouts_total)" -ge 1 ] || fail "no database wait given up while commits stalled"
grep -q '"the database did not answer in time' "$work/serve.log" || fail "no log line for a wait given up"
ok "waits given up while stalled: fairseed_db_timeouts_total $(metric fairseed_db_timeouts_total), logged"
psql_at "$DB" "ALTER SYSTEM RESET synchronous_standby_names" >/dev/null
psql_at "$DB" "SELECT pg_reload_conf()" >/dev/null
t=$(until_health 200 5)
within "$t" 5 || fail "/healthz did not come back ($t)"
grep -q '"the database commits again' "$work/serve.log" || fail "no log line for the recovery"
ok "commits again: /healthz 200 after $t s"
wait_bets $(($(wc -l <"$work/acked") + 20))

# 2. The database killed.
"${as_pg[@]}" "$bin/pg_ctl" -D "$work/db" stop -m immediate >/dev/null
t=$(until_health 503 2.5)
within "$t" 2.5 || fail "/healthz did not turn to 503 within 2.5 s of the database's death ($t)"
ok "database killed: /healthz 503 after $t s"
sleep 1
kill "$bettor" 2>/dev/null || true
wait "$bettor" 2>/dev/null || true
start=$(date +%s.%N)
kill -TERM "$server"
wait "$server" || true
stopped=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
within "$stopped" 15 || fail "SIGTERM with the database gone took $stopped s (documented: 15 s)"
ok "SIGTERM with the database gone: stopped after $stopped s"

# 3. Every acknowledged bet is there.
"${as_pg[@]}" "$bin/pg_ctl" -D "$work/db" -l "$work/db.log" -w start >/dev/null || fail "restart the database"
acked=$(wc -l <"$work/acked")
ids=$(paste -sd, "$work/acked")
present=$(psql_at "$DB" "SELECT COUNT(*) FROM bets WHERE id IN ($ids)")
[ "$present" = "$acked" ] || fail "$acked bets acknowledged, $present of them in the database"
ok "bets acknowledged $acked, present $present"
echo "db_down.sh: all passed"
