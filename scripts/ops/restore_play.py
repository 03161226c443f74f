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
    call), each hand's hole cards appended to OUT/holdem.jsonl;
  - chess: seeds of player one left committed, left seeking, or used in a
    bot game, and games between the two players (player two's seek
    accepted), each seed appended to OUT/chess.jsonl with the colours drawn;
  - matches: bridge matches the operator opens, left open (one client seed
    in) or started (the seat order and a deal drawn), each appended to
    OUT/matches.jsonl with what was drawn.

`check`, against the restored service before anyone else called it, shows
that no outcome is served twice, and prints one line per kind:
  - every selfpoker hand of the restored database is at `hand_end`: its
    seed revealed (sha256("selfpoker:" + seed) is its commit), the cards
    shown before the stop are the deck's own, and `next` is refused;
  - the poker table's session of the backup is replaced: the hands dealt
    after the restore come from a new session, and player one's hole cards
    are not those of the same hand numbers dealt before the stop;
  - the hold'em table is closed with its session secret published
    (sha256 of it is the commitment) and takes no seat;
  - every chess seed of the backup is spent: one that was committed or
    seeking is refused for a bot game (withdrawn, so no colours are drawn
    from it again), a game in play is finished and refuses its finish;
  - every match of the backup is over: an open one withdrawn, a started one
    finished, each with its seed revealed (sha256 of it is the
    commitment), and start, draw and client seeds refused.
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
    """The operator starts the next hand."""
    return http(addr, "POST", f"/v1/poker/tables/{poker}/hands", op, {})


def refused(call):
    """The HTTP status of a call expected to fail (0 if it succeeded)."""
    try:
        call()
    except urllib.error.HTTPError as e:
        return e.code
    return 0


def chess_round(addr, tokens, out, i):
    """One chess step of the loop: a seed of player one left committed,
    left seeking or played against the bot; every third, a game between
    player two's seek and player one's seed."""
    one, two = tokens
    seed = http(addr, "POST", "/v1/chess/seeds", one, {})
    use = {"seed_id": seed["seed_id"], "client_seed": f"restore-chess-{i}",
           "commitment": seed["commitment"]}
    row = {"seed": seed["seed_id"], "owner": 0, "commitment": seed["commitment"]}
    mode = i % 4
    if mode == 0:
        row["mode"] = "committed"
    elif mode == 1:
        http(addr, "POST", "/v1/chess/seeks", one, use)
        row["mode"] = "seeking"
    elif mode == 2:
        game = http(addr, "POST", "/v1/chess/bot", one, use)
        row.update(mode="bot", game=game["game_id"], white=game["white"])
    else:
        theirs = http(addr, "POST", "/v1/chess/seeds", two, {})
        http(addr, "POST", "/v1/chess/seeks", two,
             {"seed_id": theirs["seed_id"], "client_seed": f"restore-seek-{i}",
              "commitment": theirs["commitment"]})
        game = http(addr, "POST", f"/v1/chess/seeks/{theirs['seed_id']}/accept", one, use)
        row.update(mode="pair", game=game["game_id"], white=game["white"])
        append(out, "chess.jsonl", {"seed": theirs["seed_id"], "owner": 1, "mode": "pair",
                                    "commitment": theirs["commitment"],
                                    "game": game["game_id"], "white": game["white"]})
    append(out, "chess.jsonl", row)


def match_round(addr, op, out, i):
    """One match step of the loop: a bridge match left open with one client
    seed in, or started with its seat order and a deal drawn."""
    m = http(addr, "POST", "/v1/matches", op, {"game": "bridge"})
    mid, commitment = m["match_id"], m["commitment"]
    seeds = 1 if i % 2 == 0 else 4
    for index in range(seeds):
        http(addr, "POST", f"/v1/matches/{mid}/client-seeds", op,
             {"index": index, "client_seed": f"restore-match-{i}-{index}", "commitment": commitment})
    row = {"match": mid, "commitment": commitment, "status": "open"}
    if seeds == 4:
        started = http(addr, "POST", f"/v1/matches/{mid}/start", op, {})
        drawn = http(addr, "POST", f"/v1/matches/{mid}/draws", op, {"step": "deal"})
        row.update(status="started", seat_order=started["seat_order"], deal=drawn["draw"])
    append(out, "matches.jsonl", row)


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
            chess_round(addr, tokens, out, i)
            match_round(addr, op, out, i)
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

    check_chess(addr, (one, two), out)
    check_matches(addr, op, out)


def check_chess(addr, tokens, out):
    """Every chess seed of the backup spent: no colours drawn from it again."""
    withdrawn = finished = forgotten = 0
    for r in rows(out, "chess.jsonl"):
        tok = tokens[r["owner"]]
        use = {"seed_id": r["seed"], "client_seed": "after-restore", "commitment": r["commitment"]}
        bot = refused(lambda: http(addr, "POST", "/v1/chess/bot", tok, use))
        if bot == 0:
            fail(f"chess seed {r['seed']} ({r['mode']} before the stop) drew colours after the restore")
        if bot == 404:
            forgotten += 1  # made after the backup: not in it
            continue
        if bot != 409:
            fail(f"chess seed {r['seed']}: a bot game answered {bot}")
        if r["mode"] in ("committed", "seeking"):
            withdrawn += 1
            continue
        try:
            game = http(addr, "GET", f"/v1/chess/games/{r['game']}", tok)
        except urllib.error.HTTPError as e:
            if e.code != 404:
                fail(f"chess game {r['game']} of the backup answered {e.code}")
            withdrawn += 1  # seeking at the backup, accepted after it: withdrawn
            continue
        if game["status"] != "finished":
            fail(f"chess game {r['game']} is {game['status']} after the restore")
        if game["white"] != r["white"]:
            fail(f"chess game {r['game']}: {r['white']} was white before the stop, {game['white']} after")
        again = refused(lambda: http(addr, "POST", f"/v1/chess/games/{r['game']}/finish", tok, {}))
        if again != 409:
            fail(f"chess game {r['game']}: a second finish answered {again}")
        finished += 1
    if withdrawn == 0 or finished == 0:
        fail(f"chess: {withdrawn} seeds withdrawn, {finished} in games finished: the backup held none of a kind")
    print(f"ok - chess: {withdrawn} committed or seeking seeds of the backup withdrawn, {finished} seeds of "
          f"games in play finished with the colours drawn before the stop, none draws again "
          f"({forgotten} made after the backup: gone)")


def check_matches(addr, op, out):
    """Every match of the backup over, its seed revealed, nothing drawn again."""
    kinds = {"withdrawn": 0, "finished": 0}
    forgotten = 0
    for r in rows(out, "matches.jsonl"):
        mid = r["match"]
        try:
            m = http(addr, "GET", f"/v1/matches/{mid}", op)
        except urllib.error.HTTPError as e:
            if e.code != 404:
                fail(f"match {mid} answered {e.code}")
            forgotten += 1
            continue
        want = "withdrawn" if m["seat_order"] is None else "finished"
        if m["status"] != want:
            fail(f"match {mid} is {m['status']} after the restore, expected {want}")
        seed = m.get("server_seed")
        if not seed or hashlib.sha256(seed.encode()).hexdigest() != m["commitment"]:
            fail(f"match {mid}: no seed revealed, or not its commitment's")
        if r["status"] == "started" and m["seat_order"] is not None and m["seat_order"] != r["seat_order"]:
            fail(f"match {mid}: seat order {r['seat_order']} before the stop, {m['seat_order']} after")
        for path, body in ((f"/v1/matches/{mid}/start", {}),
                           (f"/v1/matches/{mid}/draws", {"step": "deal"}),
                           (f"/v1/matches/{mid}/client-seeds",
                            {"index": 3, "client_seed": "after-restore", "commitment": m["commitment"]})):
            code = refused(lambda: http(addr, "POST", path, op, body))
            if code != 409:
                fail(f"match {mid}: POST {path} answered {code or 200} after the restore")
        kinds[m["status"]] += 1
    if 0 in kinds.values():
        fail(f"matches: {kinds}: the backup held none of a kind")
    print(f"ok - matches: {kinds['withdrawn']} open matches of the backup withdrawn and "
          f"{kinds['finished']} started ones finished, each seed revealed (sha256 = commitment), "
          f"start, draws and client seeds refused ({forgotten} opened after the backup: gone)")


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("play", "check"):
        sys.exit(__doc__)
    _, what, addr, key_file, out = sys.argv
    op = pathlib.Path(key_file).read_text().strip()
    out = pathlib.Path(out)
    (play if what == "play" else check)(addr, op, out)


if __name__ == "__main__":
    main()
