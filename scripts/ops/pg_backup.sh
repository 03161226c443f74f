#!/usr/bin/env bash
# Backup and restore on PostgreSQL with its own tools, through the real
# binary, while bets flow:
#   1. the service on a fresh database takes bets; `pg_dump -Fc` copies the
#      database and `fairseed backup --keys-only` the keys; the bets
#      acknowledged before the dump began are noted;
#   2. more bets, then the service stops (SIGTERM: the log is signed and the
#      published record written);
#   3. `pg_restore` of the dump into a new empty database and `fairseed
#      restore` of the keys into a new data directory beside the published
#      record: `fairseed serve` refuses to start, naming the published size
#      it is behind, and signs nothing;
#   4. every bet acknowledged before the dump is in the restored database.
# Needs PostgreSQL on 127.0.0.1:5432 with trust auth for `postgres`
# (PGHOST/PGPORT/PGUSER to change) and its client programs.
#
#   scripts/ops/pg_backup.sh       (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
name=pg_backup.sh
source "$(dirname "$0")/lib.sh"
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
live_db=fairseed_pgbackup_live_$$
restored_db=fairseed_pgbackup_restored_$$
drop_dbs() {
  for db in "$live_db" "$restored_db"; do dropdb --if-exists "$db" 2>/dev/null || true; done
}
trap 'cleanup; drop_dbs' EXIT
createdb "$live_db"
createdb "$restored_db"
url() { echo "postgres://$PGUSER@$PGHOST:$PGPORT/$1"; }
psql_in() { psql -qAt -d "$1" -c "$2"; }
P=$(port)
base=http://127.0.0.1:$P

# 1. Bets flow; the dump and the keys are taken meanwhile.
serve serve1.log --data-dir "$work/data" --database "$(url "$live_db")" || fail "first start"
tok=$(new_player)
: >"$work/acked"
python3 scripts/ops/bettor.py "$base" "$tok" "$work/acked" b &
bettor=$!
pids+=($bettor)
wait_bets 20
cp "$work/acked" "$work/acked-before-dump"
pg_dump -Fc -f "$work/fairseed.dump" "$live_db" || fail "pg_dump under load"
"$FAIRSEED" backup --keys-only --data-dir "$work/data" --out "$work/keys" >"$work/keys.log" 2>&1 ||
  fail "backup of the keys"
ok "pg_dump and the keys taken while bets flow"

# 2. More bets, then a clean stop.
wait_bets $(($(wc -l <"$work/acked") + 20))
kill "$bettor"
wait "$bettor" 2>/dev/null || true
before=$(wc -l <"$work/acked-before-dump")
total=$(wc -l <"$work/acked")
[ "$before" -gt 0 ] && [ "$total" -gt "$before" ] || fail "bets: $before before the dump, $total in all"
kill -TERM "$server"
wait "$server" || fail "the service did not stop cleanly"
published=$(sed -n 2p "$work/data/log.published")
[ -n "$published" ] || fail "no published record"
ok "$total bets acknowledged ($before before the dump); published log size $published"

# 3. The dump restored with the keys, beside the published record: refused.
pg_restore --no-owner -d "$restored_db" "$work/fairseed.dump" || fail "pg_restore"
"$FAIRSEED" restore --from "$work/keys" --data-dir "$work/restored" >"$work/restore.log" 2>&1 ||
  fail "restore of the keys"
cp "$work/data/log.published" "$work/restored/log.published"
restored_size=$(psql_in "$restored_db" 'SELECT COALESCE(MAX(size), 0) FROM log_checkpoints')
[ "$restored_size" -lt "$published" ] || fail "the dump is not behind ($restored_size vs $published)"
if serve serve2.log --data-dir "$work/restored" --database "$(url "$restored_db")"; then fail "a restore behind the published log started"; fi
wait "$server" && fail "exit status 0" || true
grep -q "holds a checkpoint of size $published" "$work/serve2.log" || fail "the refusal does not name size $published"
grep -q "would fork the log" "$work/serve2.log" || fail "the refusal does not say why"
after_size=$(psql_in "$restored_db" 'SELECT COALESCE(MAX(size), 0) FROM log_checkpoints')
[ "$after_size" = "$restored_size" ] || fail "something was signed: $restored_size -> $after_size"
ok "the dump (log size $restored_size < $published) refuses to start beside the published record and signs nothing"

# 4. Every bet acknowledged before the dump is in it.
ids=$(paste -sd, "$work/acked-before-dump")
found=$(psql_in "$restored_db" "SELECT COUNT(*) FROM bets WHERE id IN ($ids)")
[ "$found" = "$before" ] || fail "$((before - found)) bets acknowledged before the dump are missing"
ok "all $before bets acknowledged before the dump are in it"
echo "pg_backup.sh: all passed"
