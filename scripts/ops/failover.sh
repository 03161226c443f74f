#!/usr/bin/env bash
# Surviving the database machine with PostgreSQL's own replication, through
# the real binary: a primary and a synchronous standby (two clusters made
# here with initdb and pg_basebackup, on random ports), the service on the
# primary under a stream of bets, `kill -9` of the primary, promotion of the
# standby, the service started again on it. Then:
#   - every bet the service acknowledged is on the promoted standby;
#   - `fairseed audit` with the state kept from before the failure passes
#     (the log after the failover is consistent with the checkpoint seen);
#   - the service goes on taking bets and signing.
#
#   scripts/ops/failover.sh        (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
name=failover.sh
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/pg_cluster.sh"
PP=$(port)
SP=$(port)

# The primary: synchronous commit waits for the standby.
cluster_start primary "$PP" "wal_level = replica" "max_wal_senders = 4" "synchronous_commit = on"
echo "host replication postgres 127.0.0.1/32 trust" >>"$work/primary/pg_hba.conf"
psql -h 127.0.0.1 -p "$PP" -U postgres -Atc "SELECT pg_reload_conf()" >/dev/null
# The standby: a base backup streaming from the primary (a fast checkpoint:
# without -c fast it waits for the next spread one, up to minutes).
clusters+=(standby)
"${as_pg[@]}" "$bin/pg_basebackup" -h 127.0.0.1 -p "$PP" -U postgres -D "$work/standby" -R -X stream -c fast >/dev/null
sed -i "s/^port = $PP/port = $SP/" "$work/standby/postgresql.conf"
"${as_pg[@]}" "$bin/pg_ctl" -D "$work/standby" -l "$work/standby.log" -w start >/dev/null ||
  fail "the standby did not start"
# Synchronous once the standby is attached (before, every commit would wait).
psql -h 127.0.0.1 -p "$PP" -U postgres -Atc "ALTER SYSTEM SET synchronous_standby_names = '*'" >/dev/null
psql -h 127.0.0.1 -p "$PP" -U postgres -Atc "SELECT pg_reload_conf()" >/dev/null
sync_state() { psql -h 127.0.0.1 -p "$PP" -U postgres -Atc "SELECT sync_state FROM pg_stat_replication"; }
for _ in $(seq 1 300); do
  [ "$(sync_state)" = sync ] && break
  sleep 0.1
done
[ "$(sync_state)" = sync ] ||
  fail "the standby is not synchronous"
ok "primary on $PP, synchronous standby on $SP"

P=$(port)
base=http://127.0.0.1:$P
serve serve1.log --data-dir "$work/data" --database "postgres://postgres@127.0.0.1:$PP/fairseed" ||
  fail "serve1.log: the service exited"
tok=$(new_player)
# exec: the pid `bettor X &` gives is the bettor itself, which `kill` stops.
bettor() { exec python3 scripts/ops/bettor.py "$base" "$tok" "$work/acked" "$1"; }
: >"$work/acked"
bettor a &
bet_pid=$!
pids+=($bet_pid)
wait_bets 20
# A signed checkpoint over some of them, for the audit to keep.
for _ in $(seq 1 100); do
  [ "$(curl -sf "$base/log/checkpoint" | sed -n 2p)" -gt 0 ] 2>/dev/null && break
  sleep 0.1
done
"$FAIRSEED" audit "$base/log" --state "$work/audit.json" >"$work/audit1.log" 2>&1 || fail "audit before the failure"
kept=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(max(c["size"] for c in s["checkpoints"]) if "checkpoints" in s else "?")' "$work/audit.json" 2>/dev/null || echo "?")
ok "audit before the failure passed (state kept, checkpoint size $kept)"
wait_bets $(($(wc -l <"$work/acked") + 20))
"${as_pg[@]}" kill -9 "$(head -1 "$work/primary/postmaster.pid")"
sleep 1
kill "$bet_pid" 2>/dev/null || true
wait "$bet_pid" 2>/dev/null || true
kill -9 "$server"
wait "$server" 2>/dev/null || true
acked=$(wc -l <"$work/acked")
[ "$acked" -gt 0 ] || fail "no bet acknowledged"
ok "primary killed with SIGKILL under load ($acked bets acknowledged)"

"${as_pg[@]}" "$bin/pg_ctl" -D "$work/standby" -w promote >/dev/null
ok "standby promoted"
missing=0
while read -r id; do
  [ "$(psql_at "$SP" "SELECT COUNT(*) FROM bets WHERE id = $id")" = 1 ] || missing=$((missing + 1))
done <"$work/acked"
[ "$missing" = 0 ] || fail "$missing acknowledged bets are not on the promoted standby"
ok "every acknowledged bet ($acked) is on the promoted standby"

serve serve2.log --data-dir "$work/data" --database "postgres://postgres@127.0.0.1:$SP/fairseed" ||
  fail "serve2.log: the service exited"
: >"$work/acked"
bettor b &
bet_pid=$!
pids+=($bet_pid)
wait_bets 20
kill "$bet_pid" 2>/dev/null || true
wait "$bet_pid" 2>/dev/null || true
[ "$(wc -l <"$work/acked")" -gt 0 ] || fail "no bet after the failover"
sleep 1
"$FAIRSEED" audit "$base/log" --state "$work/audit.json" >"$work/audit2.log" 2>&1 ||
  fail "audit after the failover, with the state from before it"
ok "bets resume; audit with the state from before the failure passes"
echo "failover.sh: all passed"
