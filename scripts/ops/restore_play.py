#!/usr/bin/env python3
"""Live play of every secret-holding flow but dice, for scripts/ops/restore_retire.sh.

    restore_play.py play  ADDR OPERATOR_KEY OUT   until the service goes away
    restore_play.py check ADDR OPERATOR_KEY OUT   after the restore

`play` makes two players (their tokens in OUT/players.json) and, until a
call fails because the service stopped, plays:
  - selfpoker: hands left at a stage before `hand_end`, each card the owner
    is shown appended to OUT/selfpoker.jsonl;
  - poker: a table the operator deals, both players seated, each hand's
    hole cards of player one appended to OUT/poker.jsonl;
  - hold'em: a table of player one and two AIs over its WebSocket (check or
    call), each hand's hole cards appended to OUT/holdem.jsonl.

`check`, against the restored service before anyone else called it, shows
that no outcome is served twice, and prints one line per kind:
  - every selfpoker hand of the restored database is at `hand_end`: its
    seed revealed (sha256("selfpoker:" + seed) is its commit), the cards
    shown before the stop are the deck's own, and `next` is refused;
  - the poker table's session of the backup is replaced: the hands dealt
    after the restore come from a new session, and player one's hole cards
    are not those of the same hand numbers dealt before the stop;
  - the hold'em table is closed with its session secret published
    (sha256 of it is the commitment) and takes no seat.
Exits 1 with the reason on the first failure.
"""
import hashlib
import json
import pathlib
import sys
import threading
import time
import urllib.error

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "load"))
from holdem_history import Ws, http  # noqa: E402


def fail(why):
    sys.exit(f"restore_play.py: {why}")


def append(out, name, row):
    with open(out / name, "a") as f:
        f.write(json.dumps(row) + "\n")


def deal(addr, op, poker):
    """The operator starts the next hand; a 409 (a step that raced it, as a
    session's rotation) is retried, as an operator would."""
    for attempt in range(5):
        try:
            return http(addr, "POST", f"/v1/poker/tables/{poker}/hands", op, {})
        except urllib.error.HTTPError as e:
            if e.code != 409 or attempt == 4:
                raise
            print(f"deal: 409 {e.read()[:200]!r}, retried", file=sys.stderr)
            time.sleep(0.2)


def rows(out, name):
    path = out / name
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line]


def holdem_person(addr, table, token, out, stop):
    """Plays seat 0 (check or call) and notes each hand's hole cards."""
    try:
        ws = Ws(addr, f"/v1/holdem/tables/{table}/ws")
        ws.send({"type": "hello", "token": token})
        ws.send({"type": "sit", "id": "sit", "seat": 0, "client_seed": "restore-holdem"})
        seen, n = set(), 0
        while not stop.is_set():
            m = ws.recv()
            if m.get("type") != "state":
                continue
            t = m["table"]
            hand = t.get("hand") or {}
            me = t["seats"][0] or {}
            number = hand.get("number")
            holes = me.get("hole")
            if number is not None and holes and number not in seen:
                seen.add(number)
                append(out, "holdem.jsonl", {"table": table, "hand": number, "holes": holes})
            if hand.get("legal"):
                n += 1
                kind = "check" if hand["legal"]["to_call"] == 0 else "call"
                ws.send({"type": "act", "id": f"a{n}", "action": {"kind": kind}})
            elif not hand and me.get("stack") == 0:
                n += 1
                ws.send({"type": "top_up", "id": f"top{n}"})
    except (OSError, EOFError, ValueError, RuntimeError):
        stop.set()


def play(addr, op, out):
    tokens = [http(addr, "POST", "/v1/players")["token"] for _ in range(2)]
    (out / "players.json").write_text(json.dumps(tokens))
    one, two = tokens
    holdem = http(addr, "POST", "/v1/holdem/tables", one,
                  {"ais": [1, 2], "seats": 3, "scheme": "selfpoker_v2"})["table_id"]
    (out / "holdem_table").write_text(holdem)
    poker = http(addr, "POST", "/v1/poker/tables", op, {})["table_id"]
    (out / "poker_table").write_text(poker)
    commitment = http(addr, "GET", f"/v1/poker/tables/{poker}", one)["commitment"]
    for seat, tok in enumerate(tokens):
        http(addr, "POST", f"/v1/poker/tables/{poker}/seats", tok,
             {"seat": seat, "client_seed": f"restore-poker-{seat}", "commitment": commitment})
    stop = threading.Event()
    person = threading.Thread(target=holdem_person, args=(addr, holdem, one, out, stop), daemon=True)
    person.start()
    i = 0
    try:
        while not stop.is_set():
            i += 1
            hand = http(addr, "POST", "/v1/selfpoker/hands", one, {"players": 3})
            # Left at stage i % 5: committed, preflop, flop, turn or river.
            for _ in range(i % 5):
                hand = http(addr, "POST", f"/v1/selfpoker/hands/{hand['hand_id']}/next", one, {})
                append(out, "selfpoker.jsonl", {"hand": hand["hand_id"], "stage": hand["stage"],
                                                "hole": hand.get("hole"), "board": hand["board"]})
            dealt = deal(addr, op, poker)
            view = http(addr, "GET", f"/v1/poker/tables/{poker}/hands/{dealt['n']}", one)
            append(out, "poker.jsonl", {"session": view["session"], "n": view["n"], "hole": view["hole"]})
            time.sleep(0.02)
    except (OSError, EOFError, ValueError, urllib.error.URLError) as e:
        print(f"play ended: {e}", file=sys.stderr)
    stop.set()


def check(addr, op, out):
    one, two = json.loads((out / "players.json").read_text())
    # Selfpoker: every hand the restored database holds is at hand_end.
    seen = {}
    for r in rows(out, "selfpoker.jsonl"):
        seen.setdefault(r["hand"], []).append(r)
    ended = forgotten = 0
    for hand_id, shown in seen.items():
        try:
            h = http(addr, "GET", f"/v1/selfpoker/hands/{hand_id}", one)
        except urllib.error.HTTPError as e:
            if e.code == 404:
                forgotten += 1  # dealt after the backup: not in it
                continue
            raise
        if h["stage"] != "hand_end":
            fail(f"selfpoker hand {hand_id} is at {h['stage']} after the restore")
        if hashlib.sha256(f"selfpoker:{h['seed']}".encode()).hexdigest() != h["commit"]:
            fail(f"selfpoker hand {hand_id}: the revealed seed is not its commit's")
        for s in shown:
            if s["hole"] is not None and s["hole"] != h["hole"]:
                fail(f"selfpoker hand {hand_id}: hole {s['hole']} shown, {h['hole']} at the end")
            if s["board"] != h["board"][:len(s["board"])]:
                fail(f"selfpoker hand {hand_id}: board {s['board']} shown, {h['board']} at the end")
        try:
            http(addr, "POST", f"/v1/selfpoker/hands/{hand_id}/next", one, {})
            fail(f"selfpoker hand {hand_id}: next served after the restore")
        except urllib.error.HTTPError as e:
            if e.code < 400 or e.code >= 500:
                fail(f"selfpoker hand {hand_id}: next answered {e.code}")
        ended += 1
    if ended == 0:
        fail("no selfpoker hand of the backup to look at")
    print(f"ok - selfpoker: {ended} hands of the backup at hand_end, seed revealed, every card shown "
          f"before the stop their deck's own, next refused ({forgotten} dealt after the backup: gone)")

    # Poker: the session of the backup replaced, no hole cards dealt again.
    poker = (out / "poker_table").read_text()
    table = http(addr, "GET", f"/v1/poker/tables/{poker}", one)
    dealt = rows(out, "poker.jsonl")
    sessions = {r["session"] for r in dealt}
    if len(sessions) != 1:
        fail(f"poker: {len(sessions)} sessions dealt before the stop, expected the one of the backup")
    (old,) = sessions
    if table["session"] == old:
        fail(f"poker: session {old} of the backup still current after the restore")
    for seat, tok in enumerate((one, two)):
        try:
            http(addr, "POST", f"/v1/poker/tables/{poker}/seats", tok,
                 {"seat": seat, "client_seed": f"restore-poker-{seat}", "commitment": table["commitment"]})
        except urllib.error.HTTPError as e:
            if e.code != 409:
                raise
    lost = {r["n"]: r["hole"] for r in dealt}
    again = {}
    for _ in range(len(dealt)):
        d = deal(addr, op, poker)
        v = http(addr, "GET", f"/v1/poker/tables/{poker}/hands/{d['n']}", one)
        if v["session"] == old:
            fail(f"poker: hand {v['n']} after the restore dealt from the backup's session")
        again[v["n"]] = v["hole"]
    common = [n for n in again if n in lost]
    same = sum(again[n] == lost[n] for n in common)
    if common and same == len(common):
        fail("poker: the hole cards after the restore are those of the backup's session")
    print(f"ok - poker: session {old} of the backup replaced by {table['session']}; {len(again)} hands "
          f"after the restore from the new session, {same} of {len(common)} with the hole cards "
          f"of the same hand number before the stop")

    # Hold'em: closed, its secret published, no seat taken.
    holdem = (out / "holdem_table").read_text()
    t = http(addr, "GET", f"/v1/holdem/tables/{holdem}", one)
    secret, commit = t["session"].get("secret"), t["session"].get("commit")
    if not secret:
        fail(f"hold'em table {holdem} has no published secret after the restore: {json.dumps(t)[:400]}")
    # A server seed's commitment: sha256 of its 64 hex characters (spec §17).
    if hashlib.sha256(secret.encode()).hexdigest() != commit:
        fail(f"hold'em table {holdem}: sha256 of the published secret is not the commitment")
    ws = Ws(addr, f"/v1/holdem/tables/{holdem}/ws")
    ws.send({"type": "hello", "token": two})
    ws.send({"type": "sit", "id": "sit", "seat": 1, "client_seed": "after-restore"})
    try:
        while True:
            m = ws.recv()
            if m.get("id") == "sit":
                if m.get("type") == "ack":
                    fail(f"hold'em table {holdem} took a seat after the restore")
                break
    except EOFError:
        pass
    hands = len({r["hand"] for r in rows(out, "holdem.jsonl")})
    print(f"ok - hold'em: table {holdem} ({hands} hands seen) closed with its secret published "
          f"(sha256 = commitment), a seat refused")


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("play", "check"):
        sys.exit(__doc__)
    _, what, addr, key_file, out = sys.argv
    op = pathlib.Path(key_file).read_text().strip()
    out = pathlib.Path(out)
    (play if what == "play" else check)(addr, op, out)


if __name__ == "__main__":
    main()
