#!/usr/bin/env python3
"""Soak of live hold'em tables (docs/performance.md, "Hold'em tables").

For DURATION seconds (default 600) TABLES tables play, each with one person
(a thread over the table's WebSocket that checks or calls when asked, and
tops up when busted), two AIs and SPECTATORS spectators, while READERS
threads read random tables' finished hands page by page. Halfway through the
server is killed with SIGKILL and restarted on the same data directory and
port; every client reconnects and resumes from the last `seq` it had. Every
5 s the server's resident memory is sampled. At the end each person leaves
(the table closes, its hands are archived), and then:

- chips are conserved on every table: in every hand the stacks after equal
  the stacks before, and each hand starts from the last one's stacks (a
  busted seat topped up to the starting stack);
- every closed table's records verify: each person's export passes
  `fairseed verify`;
- RSS is flat: the slope over each process's second half is printed.

Prints a Markdown table; exits 1 if an invariant fails. A benchmark, not a
test: loopback only, bounded in time, stops by itself.

Usage: scripts/load/holdem_soak.py
  DURATION=120 TABLES=8 FAIRSEED_BIN=target/release/fairseed scripts/load/holdem_soak.py
"""
import os
import pathlib
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from holdem_history import Ws, http, rss_mb  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("FAIRSEED_BIN", ROOT / "target/release/fairseed"))
VERIFY = pathlib.Path(os.environ.get("VERIFY_BIN", ROOT / "target/debug/fairseed"))
DURATION = int(os.environ.get("DURATION", "600"))
TABLES = int(os.environ.get("TABLES", "8"))
SPECTATORS = int(os.environ.get("SPECTATORS", "2"))
READERS = int(os.environ.get("READERS", "8"))


class Server:
    def __init__(self, data, addr):
        self.data, self.addr, self.proc = data, addr, None

    def start(self):
        args = [str(BIN)] + ([] if BIN.name == "fairseed-server" else ["serve"])
        self.proc = subprocess.Popen(
            args + ["--listen", self.addr, "--data-dir", self.data, "--rate-limit", "0",
                    "--signups-per-minute", "0",
                    "--holdem-ai-delay-ms", "20", "--holdem-next-hand-ms", "100",
                    "--holdem-max-tables-per-player", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(600):
            try:
                http(self.addr, "GET", "/healthz")
                return
            except (OSError, ValueError):
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


def person(addr, table, token, stop, leave, counts):
    """Plays at `table` until `leave`, reconnecting (with `after`) when the
    server goes away; then leaves."""
    seq, sat, n = None, False, 0
    while True:
        try:
            ws = Ws(addr, f"/v1/holdem/tables/{table}/ws")
            ws.send({"type": "hello", "token": token, "after": seq})
            if not sat:
                ws.send({"type": "sit", "id": "sit", "seat": 0, "client_seed": f"soak-{table}"})
                sat = True
            while True:
                if leave.is_set():
                    get_up(ws, n)
                    return
                m = ws.recv()
                seq = m.get("seq", seq)
                if m.get("type") != "state":
                    continue
                t = m["table"]
                me = t["seats"][0] or {}
                hand = t.get("hand") or {}
                if hand.get("legal"):
                    n += 1
                    kind = "check" if hand["legal"]["to_call"] == 0 else "call"
                    ws.send({"type": "act", "id": f"a{n}", "action": {"kind": kind}})
                elif not hand and me.get("stack") == 0:
                    ws.send({"type": "top_up", "id": f"top{t['hands_played']}"})
                elif not hand and me.get("sitting_out"):
                    n += 1
                    ws.send({"type": "sit_in", "id": f"in{n}"})
                counts["hands"][table] = t.get("hands_played", 0)
        except (OSError, EOFError, ValueError):
            counts["reconnects"] += 1
            time.sleep(0.2)


def get_up(ws, n):
    """Leaves the table the way a person can: a seat still in a hand cannot
    leave (even folded, until the hand ends), and with two AIs the next hand
    is dealt moments later, so first sit out (no new hand deals this seat
    in), fold the hand running, and ask to leave once a `state` shows the
    seat out of any hand; asked again if a hand was dealt in between."""
    ws.send({"type": "sit_out", "id": "out"})
    asked = False
    while True:
        m = ws.recv()
        if m.get("id") == "leave":
            if m["type"] == "ack":
                return
            asked = False
        if m.get("type") != "state":
            continue
        me = m["table"]["seats"][0] or {}
        hand = m["table"].get("hand") or {}
        if hand.get("legal"):
            n += 1
            ws.send({"type": "act", "id": f"a{n}", "action": {"kind": "fold"}})
        elif not me.get("in_hand") and not asked:
            ws.send({"type": "leave", "id": "leave"})
            asked = True


def spectator(addr, table, stop, counts):
    seq = None
    while not stop.is_set():
        try:
            ws = Ws(addr, f"/v1/holdem/tables/{table}/ws")
            ws.send({"type": "hello", "after": seq})
            while not stop.is_set():
                m = ws.recv()
                seq = m.get("seq", seq)
                counts["spectated"] += 1
        except (OSError, EOFError, ValueError):
            time.sleep(0.2)


def reader(addr, token, tables, stop, counts):
    while not stop.is_set():
        table = random.choice(tables)
        after = 0
        try:
            while not stop.is_set():
                page = http(addr, "GET",
                            f"/v1/holdem/tables/{table}/hands?limit=100&after={after}", token)
                counts["pages"] += 1
                if page["next_after"] is None:
                    break
                after = page["next_after"]
        except (OSError, ValueError):
            time.sleep(0.2)


def conserved(records):
    """Problems with chips across a table's hand records, oldest first."""
    problems, last = [], None
    for r in records:
        before = {s["seat"]: s["stack"] for s in r["seats"]}
        after = dict(r["results"]["stacks"])
        if sum(before.values()) != sum(after.values()):
            problems.append(f"hand {r['hand']}: {sum(before.values())} chips before, "
                            f"{sum(after.values())} after")
        if last is not None:
            start = r["config"]["starting_stack"]
            for seat, stack in before.items():
                prev = last.get(seat)
                if prev is not None and stack != prev and not (prev == 0 and stack == start):
                    problems.append(f"hand {r['hand']}: seat {seat} starts with {stack}, "
                                    f"ended the last hand with {prev}")
        last = after
    return problems


def slope(samples):
    """MB per minute over the samples' second half (time, MB)."""
    half = samples[len(samples) // 2:]
    if len(half) < 2:
        return float("nan")
    (t0, m0), (t1, m1) = half[0], half[-1]
    return (m1 - m0) / max(t1 - t0, 1e-9) * 60


def main():
    data = tempfile.mkdtemp(prefix="holdem-soak-")
    addr = f"127.0.0.1:{random.randint(20000, 60000)}"
    server = Server(data, addr)
    server.start()
    people = [http(addr, "POST", "/v1/players")["token"] for _ in range(TABLES)]
    tables = [http(addr, "POST", "/v1/holdem/tables", t, {"ais": [1, 2], "seats": 3, "scheme": "selfpoker_v2"})["table_id"]
              for t in people]
    stop, leave = threading.Event(), threading.Event()
    counts = {"hands": {}, "reconnects": 0, "spectated": 0, "pages": 0}
    threads = [threading.Thread(target=person, args=(addr, tb, tk, stop, leave, counts))
               for tb, tk in zip(tables, people)]
    threads += [threading.Thread(target=spectator, args=(addr, tb, stop, counts), daemon=True)
                for tb in tables for _ in range(SPECTATORS)]
    threads += [threading.Thread(target=reader, args=(addr, people[0], tables, stop, counts),
                                 daemon=True) for _ in range(READERS)]
    for t in threads:
        t.start()
    memory = [[], []]
    start = time.time()
    killed = False
    while time.time() - start < DURATION:
        memory[int(killed)].append((time.time(), rss_mb(server.proc.pid)))
        if not killed and time.time() - start >= DURATION / 2:
            server.kill9()
            server.start()
            killed = True
        time.sleep(5)
    hands_before_leave = sum(counts["hands"].values())
    leave.set()
    for t in threads[:TABLES]:
        t.join(timeout=120)
    stop.set()
    failures = []
    # Every table closed: wait for its hands to be archived as records.
    deadline = time.time() + 120
    exports = {}
    for token in people:
        while time.time() < deadline:
            listed = http(addr, "GET", "/v1/records", token)
            if listed["records"]:
                break
            time.sleep(0.5)
    time.sleep(2)
    verified = 0
    checked_hands = 0
    for table, token in zip(tables, people):
        records, after = [], 0
        while True:
            page = http(addr, "GET", f"/v1/holdem/tables/{table}/hands?limit=100&after={after}",
                        token)
            records += page["hands"]
            if page["next_after"] is None:
                break
            after = page["next_after"]
        checked_hands += len(records)
        failures += [f"{table} {p}" for p in conserved(records)]
        req = f"http://{addr}/v1/records/export"
        import urllib.request
        r = urllib.request.Request(req, headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(r, timeout=120) as answer:
            exports[table] = answer.read()
        path = pathlib.Path(data) / f"{table}.jsonl"
        path.write_bytes(exports[table])
        run = subprocess.run([str(VERIFY), "verify", str(path)], capture_output=True, text=True)
        if run.returncode != 0:
            failures.append(f"{table}: fairseed verify exit {run.returncode}: "
                            f"{(run.stdout + run.stderr)[-300:]}")
        else:
            verified += 1
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(timeout=30)
    print(f"| soak | {DURATION} s, {TABLES} tables (a person, 2 AIs, {SPECTATORS} spectators each), "
          f"{READERS} history readers, kill -9 at {DURATION // 2} s |")
    print("|---|---|")
    print(f"| hands | {hands_before_leave} played, {checked_hands} read back and checked |")
    print(f"| clients | {counts['reconnects']} reconnects, {counts['spectated']} spectator "
          f"messages, {counts['pages']} history pages |")
    print(f"| chips | {'conserved on every table' if not any('chips' in f or 'starts' in f for f in failures) else 'NOT conserved'} |")
    print(f"| records | {verified} of {TABLES} tables' exports pass fairseed verify |")
    for i, m in enumerate(memory):
        if m:
            print(f"| RSS process {i + 1} | {m[0][1]:.0f} MB at start, {max(x for _, x in m):.0f} MB "
                  f"peak, {m[-1][1]:.0f} MB at end, {slope(m):+.1f} MB/min over its second half |")
    for f in failures:
        print(f"FAIL: {f}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
