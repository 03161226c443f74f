#!/usr/bin/env bash
# A restore replays no roll, through the real binary on SQLite:
#   1. bets flow; `fairseed backup` under load; more bets are acknowledged
#      after it (their rolls are what players saw and the backup forgot);
#      the service stops;
#   2. `fairseed restore` of that backup; the service starts (the log off:
#      with it on, the fork guard refuses a restore behind what was
#      published, scripts/ops/backup.sh) and the same player bets again;
#   3. the pair that was current at the backup is revealed (an ordinary
#      rotation, among the player's revealed pairs), no bet after the
#      restore is drawn from it, and the rolls after the restore are not
#      the rolls acknowledged after the backup.
#
#   scripts/ops/restore_retire.sh  (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
name=restore_retire.sh
source "$(dirname "$0")/lib.sh"
data=$work/data
P=$(port)
base=http://127.0.0.1:$P
serve serve1.log --data-dir "$data" --log off || fail "first start"
tok=$(new_player)
: >"$work/acked"
bettor a
wait_bets 20
"$FAIRSEED" backup --data-dir "$data" --out "$work/backup" >"$work/backup.log" 2>&1 || fail "backup under load"
wait_bets $(($(wc -l <"$work/acked") + 30))
kill "$bettor"
wait "$bettor" 2>/dev/null || true
kill -TERM "$server"
wait "$server" || fail "the service did not stop cleanly"
q() { sqlite3 "$1" "$2"; }
in_backup=$(q "$work/backup/fairseed.sqlite" 'SELECT COALESCE(MAX(id), 0) FROM bets')
pair=$(q "$work/backup/fairseed.sqlite" 'SELECT id || " " || commitment FROM seed_pairs WHERE revealed_at IS NULL')
pair_id=${pair%% *}
commitment=${pair#* }
q "$data/fairseed.sqlite" "SELECT roll FROM bets WHERE id > $in_backup ORDER BY id" >"$work/lost"
lost=$(wc -l <"$work/lost")
[ "$lost" -ge 30 ] || fail "only $lost bets after the backup"
ok "$in_backup bets in the backup, $lost acknowledged after it (pair $pair_id)"

mv "$data/fairseed.sqlite" "$work/live.sqlite"
rm -f "$data"/fairseed.sqlite-*
"$FAIRSEED" restore --from "$work/backup" --data-dir "$data" >"$work/restore.log" 2>&1 || fail "restore"
serve serve2.log --data-dir "$data" --log off || fail "the restored service did not start"
grep -q '"restore: every seed pair unrevealed in the backup is revealed and replaced"' "$work/serve2.log" ||
  fail "no retirement in the log"
[ ! -e "$data/restored.toml" ] || fail "the restore marker stayed after the retirement"
: >"$work/acked"
bettor b
wait_bets "$lost"
kill "$bettor"
wait "$bettor" 2>/dev/null || true
reused=$(q "$data/fairseed.sqlite" "SELECT COUNT(*) FROM bets WHERE id > $in_backup AND pair_id = $pair_id")
[ "$reused" = 0 ] || fail "$reused bets after the restore drawn from the pair of the backup"
q "$data/fairseed.sqlite" "SELECT roll FROM bets WHERE id > $in_backup ORDER BY id LIMIT $lost" >"$work/after"
! cmp -s "$work/lost" "$work/after" || fail "the rolls after the restore are the ones acknowledged after the backup"
same=$(paste "$work/lost" "$work/after" | awk '$1 == $2' | wc -l)
curl -sf -H "Authorization: Bearer $tok" "$base/v1/seeds/revealed" >"$work/revealed.json"
python3 - "$work/revealed.json" "$commitment" <<'PY' || fail "the pair of the backup is not among the revealed ones"
import json, sys
pairs = json.load(open(sys.argv[1]))["pairs"]
sys.exit(0 if any(p.get("commitment") == sys.argv[2] and p.get("server_seed") for p in pairs) else 1)
PY
ok "after the restore: pair $pair_id revealed, none of $(wc -l <"$work/acked") bets drawn from it, $lost rolls compared with those lost: $same equal by chance at the same place (1 in 10,000 each)"
kill -TERM "$server"
wait "$server" || true
echo "restore_retire.sh: all passed"
