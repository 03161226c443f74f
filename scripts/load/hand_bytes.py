#!/usr/bin/env python3
"""Bytes at rest per hold'em hand and per dice bet (docs/performance.md, "Bytes at rest").

For each backend (SQLite in a fresh data directory; PostgreSQL in a fresh
database made on the server of FAIRSEED_TEST_DB_URI, dropped at the end),
starts `fairseed serve` on a random loopback port and measures the store's
size per table and index before and after each of:

- `2 seats`: HANDS hands at a table of one person and one AI;
- `6 seats`: HANDS hands at a table of one person and five AIs
  (`ais: [1,2,3,3,2]`);
- `dice`: BETS dice bets by one player.

The person checks when free, otherwise calls or folds (a seeded coin), and
tops up when its stack is gone; after its last hand it leaves, which closes
the table, and the figures are taken once the table is archived (every hand
also stored as a record, and the table's log folded into the records), the
state a table rests in. The service keeps
running while the figures are taken, so what it prunes after a hand counts.

SQLite: `VACUUM`, then the sum of `pgsize` per table or index from `dbstat`.
PostgreSQL: `VACUUM FULL`, then `pg_table_size` per table (its TOAST
included) and `pg_relation_size` per index, which together make each
table's `pg_total_relation_size`.

Usage: scripts/load/hand_bytes.py
  HANDS=500 BETS=500 FAIRSEED_BIN=target/debug/fairseed scripts/load/hand_bytes.py
  BACKENDS=sqlite scripts/load/hand_bytes.py
"""
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from holdem_history import Ws, http  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("FAIRSEED_BIN", ROOT / "target/debug/fairseed"))
HANDS = int(os.environ.get("HANDS", "500"))
BETS = int(os.environ.get("BETS", "500"))
PG = os.environ.get("FAIRSEED_TEST_DB_URI", "postgres://postgres@127.0.0.1:5432/test")
BACKENDS = os.environ.get("BACKENDS", "sqlite,postgres").split(",")
# Rows smaller than this share of the largest change are summed as "other".
SHOWN = 0.005


def play(addr, table, token, hands, seed):
    """Plays `hands` hands at seat 0, then leaves; returns the hands played."""
    coin = random.Random(seed)
    ws = Ws(addr, f"/v1/holdem/tables/{table}/ws")
    ws.send({"type": "hello", "token": token})
    ws.send({"type": "sit", "id": "sit", "seat": 0, "client_seed": "bytes"})
    n, acted, topped, leaving = 0, None, None, 0
    while True:
        m = ws.recv()
        if m.get("type") == "ack" and str(m.get("id")).startswith("bye"):
            return played
        if m.get("type") != "state":
            continue
        t = m["table"]
        played = t.get("hands_played", 0)
        if played >= hands and t["hand"] is None:
            # Refused while a hand runs (the last person never leaves mid-hand):
            # asked again at the next pause between hands.
            leaving += 1
            ws.send({"type": "leave", "id": f"bye{leaving}"})
            continue
        hand = t.get("hand") or {}
        legal = hand.get("legal")
        if legal and acted != (hand["number"], m["seq"]):
            acted = (hand["number"], m["seq"])
            n += 1
            if legal["to_call"] == 0:
                kind = "check"
            else:
                kind = "call" if coin.random() < 0.5 else "fold"
            ws.send({"type": "act", "id": f"a{n}", "action": {"kind": kind}})
        seat = t["seats"][0] or {}
        if seat.get("stack") == 0 and t["hand"] is None and topped != played:
            topped = played
            ws.send({"type": "top_up", "id": f"top{played}"})


class Backend:
    """A fresh store and a server on it."""

    def __init__(self, kind):
        self.kind = kind
        self.dir = tempfile.mkdtemp(prefix=f"hand-bytes-{kind}-")
        self.addr = f"127.0.0.1:{random.randint(20000, 60000)}"
        args = []
        if kind == "postgres":
            self.db = f"hand_bytes_{os.getpid()}"
            self.admin(f"CREATE DATABASE {self.db}")
            url = urllib.parse.urlsplit(PG)
            self.uri = urllib.parse.urlunsplit(url._replace(path=f"/{self.db}"))
            args = ["--database", self.uri]
        self.server = subprocess.Popen(
            [str(BIN), "serve", "--listen", self.addr, "--data-dir", self.dir,
             "--rate-limit", "0", "--holdem-ai-delay-ms", "0", "--holdem-next-hand-ms", "50",
             "--holdem-idle-close-ms", "86400000", *args],
            stdout=open(pathlib.Path(self.dir) / "serve.log", "w"), stderr=subprocess.STDOUT)
        for _ in range(1800):
            try:
                http(self.addr, "GET", "/healthz")
                return
            except OSError:
                if self.server.poll() is not None:
                    break
                time.sleep(0.1)
        log = (pathlib.Path(self.dir) / "serve.log").read_text()
        self.close()
        raise RuntimeError(f"the server did not start:\n{log}")

    def admin(self, sql):
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", PG, "-c", sql], check=True)

    def query(self, sql):
        if self.kind == "sqlite":
            cmd = ["sqlite3", str(pathlib.Path(self.dir) / "fairseed.sqlite"), sql]
        else:
            cmd = ["psql", "-qAt", "-F", "|", self.uri, "-c", sql]
        return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout

    def sizes(self):
        """Bytes per table and index: {name: bytes}."""
        if self.kind == "sqlite":
            db = pathlib.Path(self.dir) / "fairseed.sqlite"
            out = subprocess.run(
                ["sqlite3", str(db), ".timeout 10000", "VACUUM;",
                 "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name;"],
                check=True, capture_output=True, text=True).stdout
        else:
            subprocess.run(["psql", "-q", self.uri, "-c", "VACUUM FULL;"], check=True)
            # Each table with its TOAST (pg_table_size) and each index on
            # its own: together, pg_total_relation_size of every table.
            sql = ("SELECT c.relname, CASE WHEN c.relkind = 'i' "
                   "THEN pg_relation_size(c.oid) ELSE pg_table_size(c.oid) END "
                   "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                   "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i');")
            out = subprocess.run(
                ["psql", "-qAt", "-F", "|", self.uri, "-c", sql],
                check=True, capture_output=True, text=True).stdout
        sizes = {}
        for line in out.splitlines():
            if "|" in line:
                name, size = line.rsplit("|", 1)
                sizes[name] = int(size or 0)
        return sizes

    def close(self):
        self.server.terminate()
        try:
            self.server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.server.wait()
        if self.kind == "postgres":
            self.admin(f"DROP DATABASE IF EXISTS {self.db}")
        shutil.rmtree(self.dir, ignore_errors=True)


def archived(b, table):
    """Waits until the closed table is archived (its round's status)."""
    sql = f"SELECT status FROM rounds WHERE id = 'holdem_table:{table}'"
    for _ in range(600):
        if b.query(sql).strip() == "archived":
            return
        time.sleep(0.1)
    raise RuntimeError(f"table {table} not archived")


def bet(addr, token, key):
    req = urllib.request.Request(
        f"http://{addr}/v1/dice/bets", method="POST",
        data=json.dumps({"amount": 1, "condition": "under", "target": 4950}).encode())
    req.add_header("Authorization", f"Bearer {token}")
    req.add_header("Content-Type", "application/json")
    req.add_header("Idempotency-Key", key)
    with urllib.request.urlopen(req, timeout=120) as r:
        r.read()


def report(kind, what, count, unit, before, after):
    diff = {k: after.get(k, 0) - before.get(k, 0) for k in set(before) | set(after)}
    total = sum(diff.values())
    print(f"\n{kind}, {what}: {total / count:.0f} bytes per {unit} "
          f"({total} bytes, {count} {unit}s)")
    big = max((abs(v) for v in diff.values()), default=0)
    other = 0
    for name, v in sorted(diff.items(), key=lambda kv: -kv[1]):
        if v == 0:
            continue
        if abs(v) < big * SHOWN:
            other += v
            continue
        print(f"  {name:<44} {v / count:8.0f}")
    if other:
        print(f"  {'other':<44} {other / count:8.0f}")


def measure(kind):
    b = Backend(kind)
    try:
        for what, ais in (("2 seats", [1]), ("6 seats", [1, 2, 3, 3, 2])):
            token = http(b.addr, "POST", "/v1/players")["token"]
            before = b.sizes()
            table = http(b.addr, "POST", "/v1/holdem/tables", token,
                         {"ais": ais, "seats": len(ais) + 1,
                          "scheme": "selfpoker_v2"})["table_id"]
            played = play(b.addr, table, token, HANDS, seed=len(ais))
            archived(b, table)
            report(kind, f"{what}, closed and archived", played, "hand", before, b.sizes())
        token = http(b.addr, "POST", "/v1/players")["token"]
        before = b.sizes()
        for i in range(BETS):
            bet(b.addr, token, f"bet-{i}")
        report(kind, "dice", BETS, "bet", before, b.sizes())
    finally:
        b.close()


def main():
    print(f"{BIN}: {HANDS} hands per table, {BETS} dice bets")
    for kind in BACKENDS:
        measure(kind)


if __name__ == "__main__":
    main()
