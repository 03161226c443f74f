#!/usr/bin/env bash
# Backup and restore through the real binary, on SQLite, while bets flow:
#   1. bets run in the background; `fairseed backup` copies the database and
#      the keys; the bets acknowledged before the backup began are noted;
#   2. more bets, then the service stops (SIGTERM: the log is signed, the
#      published record written and the WAL copied into the database file,
#      so the database file alone is the whole database);
#   3. `fairseed restore` of the older backup into the same data directory
#      (the live database moved away): `fairseed serve` refuses to start,
#      naming the published size it is behind, and signed nothing;
#   4. every bet acknowledged before the backup is in the restored database;
#   5. a backup taken after the stop restores and serves, its log checkpoint
#      as large as the one published;
#   6. on a new machine (no published record), a witness that cosigned a
#      larger tree is what refuses the older backup; without the witness the
#      start is refused for want of anything to ask, and a checkpoint found
#      elsewhere put in the record refuses it too.
#
#   scripts/ops/backup.sh          (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
name=backup.sh
source "$(dirname "$0")/lib.sh"
data=$work/data
P=$(port)
base=http://127.0.0.1:$P
serve serve1.log --data-dir "$data" || fail "first start"
tok=$(new_player)
# Bets in the background: each acknowledged bet's id, one a line.
: >"$work/acked"
python3 scripts/ops/bettor.py "$base" "$tok" "$work/acked" b &
bettor=$!
pids+=($bettor)
wait_bets 20
cp "$work/acked" "$work/acked-before-backup"
"$FAIRSEED" backup --data-dir "$data" --out "$work/backup1" >"$work/backup1.log" 2>&1 || fail "backup under load"
ok "backup under load: $(grep 'database copied' "$work/backup1.log")"
wait_bets $(($(wc -l <"$work/acked") + 20))
kill "$bettor"
wait "$bettor" 2>/dev/null || true
before=$(wc -l <"$work/acked-before-backup")
total=$(wc -l <"$work/acked")
[ "$before" -gt 0 ] && [ "$total" -gt "$before" ] || fail "bets: $before before the backup, $total in all"
kill -TERM "$server"
wait "$server" || fail "the service did not stop cleanly"
[ ! -s "$data/fairseed.sqlite-wal" ] ||
  fail "a clean stop left $(stat -c %s "$data/fairseed.sqlite-wal") bytes in the WAL"
published=$(sed -n 2p "$data/log.published")
[ -n "$published" ] || fail "no published record"
ok "$total bets acknowledged ($before before the backup); published log size $published"

# 3. The older backup restored: the service refuses to sign.
mv "$data/fairseed.sqlite" "$work/live.sqlite"
rm -f "$data/fairseed.sqlite-wal" "$data/fairseed.sqlite-shm"
"$FAIRSEED" restore --from "$work/backup1" --data-dir "$data" >"$work/restore1.log" 2>&1 || fail "restore"
restored_size=$(sqlite3 "$data/fairseed.sqlite" 'SELECT COALESCE(MAX(size), 0) FROM log_checkpoints')
[ "$restored_size" -lt "$published" ] || fail "the backup is not behind ($restored_size vs $published)"
if serve serve2.log --data-dir "$data"; then fail "a restore behind the published log started"; fi
wait "$server" && fail "exit status 0" || true
grep -q "holds a checkpoint of size $published" "$work/serve2.log" || fail "the refusal does not name size $published"
grep -q "would fork the log" "$work/serve2.log" || fail "the refusal does not say why"
after_size=$(sqlite3 "$data/fairseed.sqlite" 'SELECT COALESCE(MAX(size), 0) FROM log_checkpoints')
[ "$after_size" = "$restored_size" ] || fail "something was signed: $restored_size -> $after_size"
[ -e "$data/restored.toml" ] || fail "the restore marker went away"
ok "a restore behind the published log (size $restored_size < $published) refuses to start and signs nothing"

# 4. Every bet acknowledged before the backup is in it.
missing=0
while read -r id; do
  n=$(sqlite3 "$data/fairseed.sqlite" "SELECT COUNT(*) FROM bets WHERE id = $id")
  [ "$n" = 1 ] || missing=$((missing + 1))
done <"$work/acked-before-backup"
[ "$missing" = 0 ] || fail "$missing bets acknowledged before the backup are missing"
ok "all $before bets acknowledged before the backup are in it"

# 5. A backup of the stopped service restores and serves.
rm -f "$data"/fairseed.sqlite* "$data/restored.toml"
cp "$work/live.sqlite" "$data/fairseed.sqlite"
"$FAIRSEED" backup --data-dir "$data" --out "$work/backup2" >/dev/null || fail "second backup"
rm -f "$data"/fairseed.sqlite*
"$FAIRSEED" restore --from "$work/backup2" --data-dir "$data" >/dev/null || fail "second restore"
serve serve3.log --data-dir "$data" || fail "a current restore did not start"
size=$(curl -sf "$base/log/checkpoint" | sed -n 2p)
[ "$size" -ge "$published" ] || fail "served size $size < published $published"
[ ! -e "$data/restored.toml" ] || fail "the marker stayed after a good check"
ok "a current backup restores and serves the log at size $size"
kill -TERM "$server"
wait "$server" || true

# 6. A witness, and a restore on a new machine.
W=$((P + 1))
witness serve1.log
serve serve4.log --data-dir "$data" --witness "http://127.0.0.1:$W=$wvkey" || fail "start with a witness"
"$FAIRSEED" backup --data-dir "$data" --out "$work/backup3" >/dev/null || fail "third backup"
backup_size=$(sed -n 's/^log_size = //p' "$work/backup3/backup.toml")
python3 scripts/ops/bettor.py "$base" "$tok" "$work/acked" w &
bettor=$!
pids+=($bettor)
cosigned=0
for _ in $(seq 1 300); do
  curl -s "$base/log/checkpoint/cosigned?min=1" >"$work/cosigned.note" || true
  cosigned=$(sed -n 2p "$work/cosigned.note")
  [ -n "$cosigned" ] && [ "$cosigned" -gt "$backup_size" ] && break
  sleep 0.1
done
kill "$bettor"
wait "$bettor" 2>/dev/null || true
[ -n "$cosigned" ] && [ "$cosigned" -gt "$backup_size" ] || fail "the witness never cosigned past $backup_size"
kill -TERM "$server"
wait "$server" || true
"$FAIRSEED" restore --from "$work/backup3" --data-dir "$work/new-machine" >/dev/null || fail "restore on a new machine"
[ ! -e "$work/new-machine/log.published" ] || fail "the published record travelled with the backup"
if serve serve5.log --data-dir "$work/new-machine" --witness "http://127.0.0.1:$W=$wvkey"; then fail "a restore behind the witness started"; fi
grep -q "the witness http://127.0.0.1:$W holds a checkpoint of size" "$work/serve5.log" ||
  fail "the refusal does not name the witness"
ok "on a new machine the witness (cosigned $cosigned) refuses the backup at size $backup_size"
if "$FAIRSEED" serve --listen "127.0.0.1:$P" --data-dir "$work/new-machine" >"$work/serve6.log" 2>&1; then
  fail "a restore with nothing to ask started"
fi
grep -q "there is nothing to ask" "$work/serve6.log" || fail "no refusal for want of a witness or record"
cp "$work/cosigned.note" "$work/new-machine/log.published"
if "$FAIRSEED" serve --listen "127.0.0.1:$P" --data-dir "$work/new-machine" >"$work/serve7.log" 2>&1; then
  fail "a restore behind a checkpoint put in the record started"
fi
grep -q "holds a checkpoint of size $cosigned" "$work/serve7.log" || fail "the record put by hand was not read"
ok "without a witness: refused for want of anything to ask, then by a checkpoint put in the record"
echo "backup.sh: all passed"
