#!/usr/bin/env bash
# A restore serves no outcome twice, through the real binary, on SQLite and
# then on PostgreSQL:
#   1. bets flow, and scripts/ops/restore_play.py plays selfpoker hands, an
#      operator's poker table, a hold'em table with two AIs, chess seeds
#      (committed, seeking, bot games, games between players) and matches
#      (open, started); a backup is
#      taken under that load (`fairseed backup`; on PostgreSQL `pg_dump` and
#      `fairseed backup --keys-only`); more bets and play are acknowledged
#      after it (what players saw and the backup forgot); the service stops;
#   2. the backup is restored and the service starts (the log off: with it
#      on, the fork guard refuses a restore behind what was published,
#      scripts/ops/backup.sh); its log names what it retired, of each kind;
#   3. restore_play.py check: every selfpoker hand of the backup is at
#      hand_end with its seed revealed, the poker session of the backup is
#      replaced (no hand after the restore dealt from it), the hold'em table
#      is closed with its secret published, every chess seed of the backup
#      withdrawn or its game finished (no colours drawn from it again), every
#      match of the backup withdrawn or finished with its seed revealed;
#   4. the same player bets again: the dice pair current at the backup is
#      revealed (an ordinary rotation, among the player's revealed pairs),
#      no bet after the restore is drawn from it, and the rolls after the
#      restore are not the rolls acknowledged after the backup.
# PostgreSQL on 127.0.0.1:5432 with trust auth for `postgres`
# (PGHOST/PGPORT/PGUSER to change) and its client programs.
#
#   scripts/ops/restore_retire.sh  (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
name=restore_retire.sh
source "$(dirname "$0")/lib.sh"
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
live_db=fairseed_retire_live_$$
restored_db=fairseed_retire_restored_$$
drop_dbs() {
  for db in "$live_db" "$restored_db"; do dropdb --if-exists "$db" 2>/dev/null || true; done
}
trap 'cleanup; drop_dbs' EXIT
url() { echo "postgres://$PGUSER@$PGHOST:$PGPORT/$1"; }
fast=(--log off --rate-limit 0 --signups-per-minute 0 --holdem-ai-delay-ms 20 --holdem-next-hand-ms 100)
# until_rows FILE N: until restore_play.py wrote N lines in all to FILE.
until_rows() {
  for _ in $(seq 1 300); do
    [ "$(cat "$1" 2>/dev/null | wc -l)" -ge "$2" ] && return 0
    sleep 0.1
  done
  fail "fewer than $2 lines in $(basename "$1")"
}

# run BACKEND: the whole story on sqlite or pg.
run() {
  local backend=$1 data=$work/$1/data restored=$work/$1/restored play=$work/$1/play
  mkdir -p "$work/$backend" "$play"
  local live=() again=()
  if [ "$backend" = pg ]; then
    createdb "$live_db"
    live=(--database "$(url "$live_db")")
    again=(--database "$(url "$restored_db")")
  fi
  q() { # q live|restored|backup SQL
    case $backend:$1 in
      sqlite:live) sqlite3 "$data/fairseed.sqlite" "$2" ;;
      sqlite:restored) sqlite3 "$restored/fairseed.sqlite" "$2" ;;
      sqlite:backup) sqlite3 "$work/sqlite/backup/fairseed.sqlite" "$2" ;;
      pg:live) psql -qAt -d "$live_db" -F ' ' -c "$2" ;;
      pg:restored | pg:backup) psql -qAt -d "$restored_db" -F ' ' -c "$2" ;;
    esac
  }
  P=$(port)
  base=http://127.0.0.1:$P
  serve "$backend-serve1.log" --data-dir "$data" "${live[@]}" "${fast[@]}" || fail "$backend: first start"
  tok=$(new_player)
  : >"$work/acked"
  bettor a
  python3 scripts/ops/restore_play.py play "127.0.0.1:$P" "$data/operator.key" "$play" \
    2>"$work/$backend-play.log" &
  local player=$!
  pids+=($player)
  wait_bets 20
  until_rows "$play/poker.jsonl" 5
  until_rows "$play/holdem.jsonl" 2
  if [ "$backend" = pg ]; then
    pg_dump -Fc -f "$work/pg/fairseed.dump" "$live_db" || fail "pg_dump under load"
    "$FAIRSEED" backup --keys-only --data-dir "$data" --out "$work/pg/backup" >"$work/pg-backup.log" 2>&1 ||
      fail "backup of the keys"
  else
    "$FAIRSEED" backup --data-dir "$data" --out "$work/sqlite/backup" >"$work/sqlite-backup.log" 2>&1 ||
      fail "backup under load"
  fi
  wait_bets $(($(wc -l <"$work/acked") + 30))
  until_rows "$play/poker.jsonl" $(($(wc -l <"$play/poker.jsonl") + 5))
  until_rows "$play/holdem.jsonl" $(($(wc -l <"$play/holdem.jsonl") + 1))
  kill "$bettor" "$player"
  wait "$bettor" "$player" 2>/dev/null || true
  kill -TERM "$server"
  wait "$server" || fail "$backend: the service did not stop cleanly"

  # The backup restored.
  if [ "$backend" = pg ]; then
    createdb "$restored_db"
    pg_restore --no-owner -d "$restored_db" "$work/pg/fairseed.dump" || fail "pg_restore"
  fi
  "$FAIRSEED" restore --from "$work/$backend/backup" --data-dir "$restored" >"$work/$backend-restore.log" 2>&1 ||
    fail "$backend: restore"
  local in_backup pair pair_id commitment lost
  in_backup=$(q backup 'SELECT COALESCE(MAX(id), 0) FROM bets')
  # The bettor's pair (the other players' are retired too, and counted).
  pair=$(q backup "SELECT id || ' ' || commitment FROM seed_pairs WHERE revealed_at IS NULL
                   AND player_id = (SELECT player_id FROM bets ORDER BY id LIMIT 1)")
  pair_id=${pair%% *}
  commitment=${pair#* }
  q live "SELECT roll FROM bets WHERE id > $in_backup ORDER BY id" >"$work/lost"
  lost=$(wc -l <"$work/lost")
  [ "$lost" -ge 30 ] || fail "$backend: only $lost bets after the backup"
  ok "$backend: $in_backup bets in the backup, $lost acknowledged after it (pair $pair_id); $(wc -l <"$play/selfpoker.jsonl") selfpoker cards, $(wc -l <"$play/poker.jsonl") poker hands, $(wc -l <"$play/holdem.jsonl") hold'em hands dealt before the stop"

  local t0 t1
  t0=$(date +%s%N)
  serve "$backend-serve2.log" --data-dir "$restored" "${again[@]}" "${fast[@]}" ||
    fail "$backend: the restored service did not start"
  t1=$(date +%s%N)
  local line
  line=$(grep '"restore: every secret unrevealed in the backup is revealed and replaced"' "$work/$backend-serve2.log") ||
    fail "$backend: no retirement in the log"
  [ ! -e "$restored/restored.toml" ] || fail "$backend: the restore marker stayed after the retirement"
  local counts
  counts=$(python3 -c 'import json,sys; f=json.loads(sys.argv[1]); print(" ".join(f"{k}={f[k]}" for k in ("pairs","poker_sessions","selfpoker_hands","holdem_tables","chess_seeds","matches")))' "$line")
  case " $counts" in *" pairs=0"* | *" poker_sessions=0"* | *" selfpoker_hands=0"* | *" holdem_tables=0"* | *" chess_seeds=0"* | *" matches=0"*)
    fail "$backend: a kind retired nothing: $counts" ;;
  esac
  ok "$backend: the restored service listened $(((t1 - t0) / 1000000)) ms after its start, having retired $counts"

  python3 scripts/ops/restore_play.py check "127.0.0.1:$P" "$restored/operator.key" "$play" ||
    fail "$backend: an outcome of the backup served again"

  : >"$work/acked"
  bettor b
  wait_bets "$lost"
  kill "$bettor"
  wait "$bettor" 2>/dev/null || true
  local reused same
  reused=$(q restored "SELECT COUNT(*) FROM bets WHERE id > $in_backup AND pair_id = $pair_id")
  [ "$reused" = 0 ] || fail "$backend: $reused bets after the restore drawn from the pair of the backup"
  q restored "SELECT roll FROM bets WHERE id > $in_backup ORDER BY id LIMIT $lost" >"$work/after"
  ! cmp -s "$work/lost" "$work/after" || fail "$backend: the rolls after the restore are the ones acknowledged after the backup"
  same=$(paste "$work/lost" "$work/after" | awk '$1 == $2' | wc -l)
  curl -sf -H "Authorization: Bearer $tok" "$base/v1/seeds/revealed" >"$work/revealed.json"
  python3 - "$work/revealed.json" "$commitment" <<'PY' || fail "$backend: the pair of the backup is not among the revealed ones"
import json, sys
pairs = json.load(open(sys.argv[1]))["pairs"]
sys.exit(0 if any(p.get("commitment") == sys.argv[2] and p.get("server_seed") for p in pairs) else 1)
PY
  ok "$backend: dice pair $pair_id revealed, none of $(wc -l <"$work/acked") bets after the restore drawn from it, $lost rolls compared with those lost: $same equal by chance at the same place (1 in 10,000 each)"
  kill -TERM "$server"
  wait "$server" || true
}

run sqlite
run pg
echo "restore_retire.sh: all passed"
