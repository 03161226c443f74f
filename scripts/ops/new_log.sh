#!/usr/bin/env bash
# A new log after a loss that cannot be bridged, through the real binary on
# SQLite (docs/operating.md, "Starting a new log"; decision 0024):
#   1. bets; a backup; more bets; a clean stop (the published record holds
#      the larger checkpoint); the newest database is lost: the backup is
#      restored and `fairseed serve` refuses it (it would fork the log);
#   2. `fairseed new-log --origin <new>` freezes the restored log (its tiles,
#      its last checkpoint, the published one beyond it) and starts a new
#      log from size 0 under a new key; the service starts under the new
#      origin, retires the backup's secrets, and bets flow again;
#   3. `fairseed audit` passes on both logs as served: the new one at /log
#      following the old one (`--previous`: the secrets it left open, whose
#      reveals and bets the new log holds; alone it fails on them), the old
#      one read-only at /log/frozen/<old origin>, pinned to the old key; the old checkpoint is served unchanged and verifies against the
#      old key (an independent signed-note check), the published one beside
#      it too; /log/previous names the old log and the one that follows it;
#      a receipt of an old entry is answered from the frozen log, its
#      inclusion proof checked independently against the frozen checkpoint;
#   4. on PostgreSQL (127.0.0.1:5432, trust auth for `postgres`): bets,
#      a stop, `fairseed new-log --database`, bets on the new log, both
#      logs audited.
#
#   scripts/ops/new_log.sh        (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
name=new_log.sh
source "$(dirname "$0")/lib.sh"
data=$work/data
old=localhost/fairseed
new=localhost/fairseed/2
P=$(port)
base=http://127.0.0.1:$P

# 1. Bets, a backup, more bets, the loss.
serve serve1.log --data-dir "$data" --log-origin "$old" || fail "first start"
old_vkey=$(sed -n 's/.*transparency log [^ ]* key \([^" ]*\).*/\1/p' "$work/serve1.log")
tok=$(new_player)
: >"$work/acked"
bettor a
wait_bets 20
# The backup's log holds signed bets (sequenced every half second).
for _ in $(seq 1 100); do
  [ "$(curl -sf "$base/log/checkpoint" | sed -n 2p)" -ge 10 ] 2>/dev/null && break
  sleep 0.1
done
"$FAIRSEED" backup --data-dir "$data" --out "$work/backup" >"$work/backup.log" 2>&1 || fail "backup"
wait_bets $(($(wc -l <"$work/acked") + 20))
kill "$bettor"
wait "$bettor" 2>/dev/null || true
kill -TERM "$server"
wait "$server" || fail "the service did not stop cleanly"
published=$(sed -n 2p "$data/log.published")
mv "$data/fairseed.sqlite" "$work/lost.sqlite"
rm -f "$data"/fairseed.sqlite-*
"$FAIRSEED" restore --from "$work/backup" --data-dir "$data" >"$work/restore.log" 2>&1 || fail "restore"
kept=$(sqlite3 "$data/fairseed.sqlite" 'SELECT MAX(size) FROM log_checkpoints')
[ "$kept" -lt "$published" ] || fail "the backup is not behind ($kept vs $published)"
if serve serve2.log --data-dir "$data" --log-origin "$old"; then fail "a restore behind the published log started"; fi
wait "$server" 2>/dev/null || true
grep -q "would fork the log" "$work/serve2.log" || fail "the refusal does not say why"
ok "the loss: the backup's log ends at $kept, $published was published; the restore is refused"

# 20 bets by bettor $1 on the log now served; $size is then its checkpoint's size.
twenty_bets() {
  : >"$work/acked"
  bettor "$1"
  wait_bets 20
  kill "$bettor"
  wait "$bettor" 2>/dev/null || true
  for _ in $(seq 1 50); do
    size=$(curl -sf "$base/log/checkpoint" | sed -n 2p) || true
    [ -n "$size" ] && [ "$size" -ge 20 ] && break
    sleep 0.1
  done
}

# 2. The new log.
"$FAIRSEED" new-log --data-dir "$data" --origin "$new" >"$work/new-log.log" 2>&1 || fail "new-log"
frozen=$(ls -d "$data"/frozen/*)
[ "$(cat "$frozen/origin")" = "$old" ] || fail "the frozen log's origin"
[ ! -e "$data/log.published" ] || fail "the old published record stayed in the data directory"
[ "$(sqlite3 "$data/fairseed.sqlite" 'SELECT COUNT(*) FROM log_checkpoints')" = 0 ] || fail "old checkpoints stayed"
if serve serve3.log --data-dir "$data" --log-origin "$old"; then fail "the old origin started on the new log"; fi
wait "$server" 2>/dev/null || true
t0=$(date +%s%N)
serve serve4.log --data-dir "$data" --log-origin "$new" || fail "the new log did not start"
t1=$(date +%s%N)
new_vkey=$(sed -n 's/.*transparency log [^ ]* key \([^" ]*\).*/\1/p' "$work/serve4.log")
[ -n "$new_vkey" ] && [ "$new_vkey" != "$old_vkey" ] || fail "the new log has the old key"
grep -q '"restore: every secret unrevealed in the backup is revealed and replaced"' "$work/serve4.log" ||
  fail "the backup's secrets were not retired"
ok "$(head -1 "$work/new-log.log"); the service started on $new in $(((t1 - t0) / 1000000)) ms"
twenty_bets b
head -1 <(curl -sf "$base/log/checkpoint") | grep -qx "$new" || fail "the new log's checkpoint is not of $new"
ok "20 bets on the new log: size $size"

# 3. Both logs audited, the old one as frozen.
"$FAIRSEED" audit "$base/log" --key "$new_vkey" --previous "$base/log/frozen/$old" --previous-key "$old_vkey" \
  >"$work/audit-new.log" 2>&1 || fail "audit of the new log"
# Without its predecessor the new log's audit finds the reveals and bets of
# seeds the old log committed: the new log is audited as following it.
if "$FAIRSEED" audit "$base/log" --key "$new_vkey" >"$work/audit-alone.log" 2>&1; then
  fail "the new log audited alone passed: nothing carried over was checked"
fi
grep -q "not open" "$work/audit-alone.log" || fail "the new log alone fails for another reason"
"$FAIRSEED" audit "$base/log/frozen/$old" --key "$old_vkey" >"$work/audit-old.log" 2>&1 ||
  fail "audit of the frozen log"
curl -sf "$base/log/frozen/$old/checkpoint" >"$work/old.checkpoint" || fail "the old checkpoint is not served"
[ "$(sed -n 2p "$work/old.checkpoint")" = "$kept" ] || fail "the frozen checkpoint is not the kept one"
curl -sf "$base/log/frozen/$old/published" >"$work/old.published" || fail "the published checkpoint is not served"
python3 - "$work/old.checkpoint" "$work/old.published" "$old_vkey" "$kept" "$published" <<'PY' ||
import base64, sys
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
# C2SP signed-note, verified independently: the key's name, hash and the
# Ed25519 signature over the note's text.
name, keyhash, key = sys.argv[3].split("+", 2)
raw = base64.b64decode(key)
assert raw[0] == 1, "an Ed25519 vkey"
pub = Ed25519PublicKey.from_public_bytes(raw[1:])
for path, size in ((sys.argv[1], sys.argv[4]), (sys.argv[2], sys.argv[5])):
    text, sigs = open(path).read().split("\n\n", 1)
    assert text.split("\n")[1] == size, (path, size)
    for line in sigs.splitlines():
        _, who, sig = line.split(" ")
        if who != name:
            continue
        sig = base64.b64decode(sig)
        assert sig[:4].hex() == keyhash, "key hash"
        pub.verify(sig[4:], (text + "\n").encode())
        break
    else:
        raise SystemExit(f"{path}: no signature of {name}")
PY
  fail "the old checkpoints do not verify against the old key"
curl -sf "$base/log/previous" >"$work/previous.json" || fail "no /log/previous"
python3 - "$work/previous.json" "$old" "$old_vkey" "$new" "$new_vkey" <<'PY' || fail "/log/previous does not name both logs"
import json, sys
logs = json.load(open(sys.argv[1]))
assert len(logs) == 1, logs
log = logs[0]
assert (log["origin"], log["key"]) == (sys.argv[2], sys.argv[3]), log
assert log["next"] == [sys.argv[4], sys.argv[5]], log
assert log["prefix"] == "/log/frozen/" + sys.argv[2], log
PY
# A receipt of an entry of the old log: answered from the frozen log, its
# proof checked here (RFC 9162 inclusion, leaf hash sha256(0x00 || entry))
# against the frozen checkpoint verified above.
python3 - "$frozen" "$base" "$old" "$work/old.checkpoint" <<'PY' || fail "a receipt of the old log's entry"
import base64, hashlib, json, os, sys, urllib.request
frozen, base, origin, checkpoint = sys.argv[1:]
bundles = sorted(os.path.join(d, f) for d, _, fs in os.walk(os.path.join(frozen, "tile", "entries")) for f in fs)
data, entries = open(bundles[0], "rb").read(), []
while data:
    n = int.from_bytes(data[:2], "big")
    entries.append(data[2:2 + n])
    data = data[2 + n:]
H = lambda b: hashlib.sha256(b).digest()
_, size, root = open(checkpoint).read().split("\n")[:3]
size, root = int(size), base64.b64decode(root)
for index in (0, len(entries) // 2, len(entries) - 1):
    leaf = H(b"\x00" + entries[index])
    for path in (f"/log/receipts/{leaf.hex()}", f"/log/frozen/{origin}/receipts/{leaf.hex()}"):
        r = json.load(urllib.request.urlopen(base + path))
        assert r["frozen"]["origin"] == origin, r["frozen"]
        assert base64.b64decode(r["entry"]) == entries[index], path
        assert r["leaf_index"] == index and r["checkpoint"] == open(checkpoint).read(), path
        fn, sn, h = index, size - 1, leaf
        for p in map(base64.b64decode, r["inclusion_proof"]):
            assert sn > 0, "proof too long"
            if fn & 1 or fn == sn:
                h = H(b"\x01" + p + h)
                while not fn & 1 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
            else:
                h = H(b"\x01" + h + p)
            fn, sn = fn >> 1, sn >> 1
        assert sn == 0 and h == root, f"{path}: the proof does not lead to the frozen root"
print(f"ok - receipts of 3 entries of the frozen {origin} answered from it, each proof leading to its checkpoint (size {size})")
PY
ok "audit passes on $new ($(tail -1 "$work/audit-new.log")) and on the frozen $old ($(tail -1 "$work/audit-old.log")); its checkpoint (size $kept) and the published one (size $published) verify against the old key"
kill -TERM "$server"
wait "$server" || true

# 4. The same on PostgreSQL, new-log on the stopped service's own database.
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
db=fairseed_newlog_$$
trap 'cleanup; dropdb --if-exists "$db" 2>/dev/null || true' EXIT
createdb "$db"
pg=(--database "postgres://$PGUSER@$PGHOST:$PGPORT/$db")
serve pg1.log --data-dir "$work/pg" "${pg[@]}" --log-origin "$old" || fail "pg: first start"
pg_old=$(sed -n 's/.*transparency log [^ ]* key \([^" ]*\).*/\1/p' "$work/pg1.log")
tok=$(new_player)
: >"$work/acked"
bettor p
wait_bets 20
kill "$bettor"
wait "$bettor" 2>/dev/null || true
kill -TERM "$server"
wait "$server" || fail "pg: the service did not stop cleanly"
"$FAIRSEED" new-log --data-dir "$work/pg" "${pg[@]}" --origin "$new" >"$work/pg-new-log.log" 2>&1 || fail "pg: new-log"
serve pg2.log --data-dir "$work/pg" "${pg[@]}" --log-origin "$new" || fail "pg: the new log did not start"
pg_new=$(sed -n 's/.*transparency log [^ ]* key \([^" ]*\).*/\1/p' "$work/pg2.log")
twenty_bets q
"$FAIRSEED" audit "$base/log" --key "$pg_new" --previous "$base/log/frozen/$old" --previous-key "$pg_old" \
  >"$work/pg-audit-new.log" 2>&1 || fail "pg: audit of the new log"
"$FAIRSEED" audit "$base/log/frozen/$old" --key "$pg_old" >"$work/pg-audit-old.log" 2>&1 || fail "pg: audit of the frozen log"
ok "pg: $(head -1 "$work/pg-new-log.log"); 20 bets on the new log (size $size); audit passes on both"
kill -TERM "$server"
wait "$server" || true
echo "new_log.sh: all passed"
