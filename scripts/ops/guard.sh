#!/usr/bin/env bash
# The fork guard against ordinary mistakes, through the real binary on
# SQLite, after a service signed its log and stopped: each start below is
# refused, names what is wrong and the way forward, and changes nothing:
#   1. serving a backup's directory in place;
#   2. a backup's database and keys copied into a data directory by hand
#      (instead of `fairseed restore`);
#   3. a changed `log_origin` on the signed log;
#   4. `log.key` missing (no new key is made), then another key in its place.
# Then the data directory as it was starts again.
#
#   scripts/ops/guard.sh           (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
name=guard.sh
source "$(dirname "$0")/lib.sh"
data=$work/data
P=$(port)
base=http://127.0.0.1:$P
serve serve.log --data-dir "$data" || fail "first start"
tok=$(new_player)
: >"$work/acked"
bettor g
wait_bets 10
kill "$bettor"
wait "$bettor" 2>/dev/null || true
kill -TERM "$server"
wait "$server" || fail "the service did not stop cleanly"
"$FAIRSEED" backup --data-dir "$data" --out "$work/backup" >/dev/null || fail "backup"
size() { sqlite3 "$1/fairseed.sqlite" 'SELECT COALESCE(MAX(size), 0) FROM log_checkpoints'; }
signed=$(size "$data")
# refused LOG DIR TEXT [ARGS...]: a start that must exit naming TEXT.
refused() {
  local log=$1 dir=$2 text=$3
  shift 3
  if "$FAIRSEED" serve --listen "127.0.0.1:$P" --data-dir "$dir" "$@" >"$work/$log" 2>&1; then
    fail "$log: the start was not refused"
  fi
  grep -qF "$text" "$work/$log" || fail "$log: the refusal does not say '$text': $(tail -2 "$work/$log")"
}

refused dir.log "$work/backup" "is a backup written by \`fairseed backup\`"
grep -qF "fairseed restore --from $work/backup" "$work/dir.log" || fail "no way forward for the backup directory"
ok "serving a backup's directory: refused, naming fairseed restore"

mkdir -m 700 "$work/copied"
cp "$work/backup"/{fairseed.sqlite,seed.key,log.key,operator.key} "$work/copied/"
refused copied.log "$work/copied" "is a copy made by \`fairseed backup\`"
ok "a backup's files copied by hand: refused"

refused origin.log "$data" "set log_origin back to \"localhost/fairseed\"" --log-origin other.example/fairseed
grep -qF 'Starting a new log' "$work/origin.log" || fail "no way forward for a changed origin"
ok "a changed log_origin on a log signed up to $signed: refused"

mv "$data/log.key" "$work/log.key"
refused nokey.log "$data" "log.key is missing"
[ ! -e "$data/log.key" ] || fail "a new log.key was made"
head -c 32 /dev/urandom >"$data/log.key"
chmod 600 "$data/log.key"
refused otherkey.log "$data" "is not the key that signed the log"
mv "$work/log.key" "$data/log.key"
ok "log.key missing (no new one made), then another key: refused"

[ "$(size "$data")" = "$signed" ] || fail "something was signed"
serve serve2.log --data-dir "$data" || fail "the data directory as it was did not start"
kill -TERM "$server"
wait "$server" || true
ok "nothing signed by the refused starts; the data directory as it was starts"
echo "guard.sh: all passed"
