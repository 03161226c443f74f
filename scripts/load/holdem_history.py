#!/usr/bin/env python3
"""History reads of a long hold'em table (docs/performance.md, "Hold'em tables").

Starts `fairseed serve` on SQLite (loopback, a random port), opens a table
with one AI and plays HANDS hands at it as a person who checks when free and
folds otherwise (over the table's WebSocket, with the small client below),
then READERS threads at once each read the table's whole history through
`GET /v1/holdem/tables/{id}/hands`, a page at a time, while another thread
times `/healthz` every 50 ms and the server's resident memory is sampled
every 100 ms. Prints the figures as a Markdown table.

A benchmark, not a test: loopback only, bounded in time, stops by itself.

Usage: scripts/load/holdem_history.py
  HANDS=10000 READERS=64 FAIRSEED_BIN=target/release/fairseed scripts/load/holdem_history.py
  DATA=/tmp/history scripts/load/holdem_history.py   (the table kept for the next run)
  AIS=1,2,3,3,2 HANDS=2000 READERS=1 scripts/load/holdem_history.py   (a person and five AIs)
  ARCHIVE=1 DATA=/tmp/archived scripts/load/holdem_history.py   (the person leaves and the
      table is archived before the reads: its earlier hands read from their records)
"""
import base64
import hashlib
import json
import os
import pathlib
import random
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("FAIRSEED_BIN", ROOT / "target/release/fairseed"))
HANDS = int(os.environ.get("HANDS", "10000"))
READERS = int(os.environ.get("READERS", "64"))
# The table's AIs, their levels comma-separated: "1,2,3,3,2" seats a person
# and five AIs.
AIS = [int(x) for x in os.environ.get("AIS", "1").split(",")]
SCHEME = os.environ.get("SCHEME", "selfpoker_v2")
LIMIT = int(os.environ.get("LIMIT", "100"))
# The person leaves once the hands are played (asked again while a hand
# runs), and the reads wait for the closed table's archive.
ARCHIVE = os.environ.get("ARCHIVE") == "1"


class Ws:
    """A minimal RFC 6455 client: text frames out (masked), frames in."""

    def __init__(self, addr, path):
        host, port = addr.split(":")
        self.sock = socket.create_connection((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
             "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(head.decode(errors="replace"))
        self.buf = b""

    def send(self, message):
        data = json.dumps(message).encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            header = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            header = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(header + mask + masked)

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        """The next text message as JSON (pings answered, close raises)."""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._read(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._read(8))
            payload = self._read(n)
            op = b0 & 0x0F
            if op == 1:
                return json.loads(payload)
            if op == 8:
                raise EOFError(payload[2:].decode(errors="replace"))
            if op == 9:
                mask = os.urandom(4)
                masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
                self.sock.sendall(struct.pack("!BB", 0x8A, 0x80 | n) + mask + masked)


def http(addr, method, path, token=None, body=None):
    req = urllib.request.Request(f"http://{addr}{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode())
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read() or b"null")


def cpu_s(pid):
    """The process's CPU time so far (user + system), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def send_round_value(ws, rnd, values):
    """Seat 0's part of a `selfpoker_v3` round (docs/spec.md §20.2): the commit
    of a fresh value, then the value, each once per round."""
    if not rnd or 0 not in rnd["seats"]:
        return
    key = (rnd["hand"], rnd["deadline_ms"])
    mine = rnd["commits"].get("0")
    if rnd["phase"] == "commit" and not mine and key not in values:
        values[key] = os.urandom(32).hex()
        commit = hashlib.sha256(values[key].encode()).hexdigest()
        ws.send({"type": "hand_commit", "id": f"c{len(values)}", "hand": rnd["hand"], "commit": commit})
    elif rnd["phase"] == "reveal" and mine and 0 not in rnd["revealed"]:
        value = next((v for v in values.values() if hashlib.sha256(v.encode()).hexdigest() == mine), None)
        if value is not None and ("r", mine) not in values:
            values[("r", mine)] = value
            ws.send({"type": "hand_reveal", "id": f"r{len(values)}", "hand": rnd["hand"], "value": value})


def play(addr, table, token, hands):
    """Plays `hands` hands (check when free, else fold); returns hands/s."""
    ws = Ws(addr, f"/v1/holdem/tables/{table}/ws")
    ws.send({"type": "hello", "token": token})
    ws.send({"type": "sit", "id": "sit", "seat": 0, "client_seed": "history"})
    start, n, acted, values, leaving = time.time(), 0, None, {}, 0
    while True:
        m = ws.recv()
        if m.get("type") == "ack" and str(m.get("id")).startswith("bye"):
            return played / (time.time() - start)
        if m.get("type") != "state":
            continue
        t = m["table"]
        played = t.get("hands_played", 0)
        if played and played % 1000 == 0 and t["hand"] is None:
            print(f"  {played} hands, {played / (time.time() - start):.0f}/s", file=sys.stderr)
        if played >= hands and t["hand"] is None:
            leaving += 1
            ws.send({"type": "leave", "id": f"bye{leaving}"})
            if not ARCHIVE:
                return played / (time.time() - start)
            continue
        send_round_value(ws, t.get("round"), values)
        hand = t.get("hand") or {}
        legal = hand.get("legal")
        if legal and acted != (hand["number"], m["seq"]):
            acted = (hand["number"], m["seq"])
            n += 1
            kind = "check" if legal["to_call"] == 0 else "fold"
            ws.send({"type": "act", "id": f"a{n}", "action": {"kind": kind}})
        if (t["seats"][0] or {}).get("stack") == 0 and t["hand"] is None:
            ws.send({"type": "top_up", "id": f"top{played}"})


def healthz_timer(addr, out):
    """Times `/healthz` every 50 ms until killed, one line of ms per call.

    Its own process: in a thread of this one it would wait for the GIL
    behind the readers' JSON parsing, and time that instead of the server.
    """
    return subprocess.Popen([sys.executable, "-c", f"""
import sys, time, urllib.request
with open({str(out)!r}, "w", buffering=1) as f:
    while True:
        t0 = time.time()
        urllib.request.urlopen("http://{addr}/healthz", timeout=120).read()
        f.write(f"{{(time.time() - t0) * 1000}}\\n")
        time.sleep(0.05)
"""])


def archived(data, table):
    """Waits until the closed table is archived (its round's status)."""
    db = pathlib.Path(data) / "fairseed.sqlite"
    sql = f"SELECT status FROM rounds WHERE id = 'holdem_table:{table}'"
    for _ in range(600):
        out = subprocess.run(["sqlite3", str(db), ".timeout 10000", sql],
                             check=True, capture_output=True, text=True).stdout
        if out.strip() == "archived":
            return
        time.sleep(0.1)
    raise RuntimeError(f"table {table} not archived")


def server_ms(log, route):
    """The server's own times of `route`, from its JSON access lines, sorted."""
    times = []
    for line in log.read_text().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("message") == "request" and entry.get("route") == route:
            times.append(float(entry["ms"]))
    return sorted(times)


def main():
    # DATA=dir keeps the data directory and the table played into it
    # (table.json) for the next run, which reads it again without playing.
    data = os.environ.get("DATA") or tempfile.mkdtemp(prefix="holdem-history-")
    os.makedirs(data, exist_ok=True)
    saved = pathlib.Path(data) / "table.json"
    log = pathlib.Path(data) / "serve.log"
    port = random.randint(20000, 60000)
    addr = f"127.0.0.1:{port}"
    server = subprocess.Popen(
        [str(BIN)] + ([] if BIN.name == "fairseed-server" else ["serve"]) + [
         "--listen", addr, "--data-dir", data, "--rate-limit", "0",
         "--holdem-ai-delay-ms", "0", "--holdem-next-hand-ms", "0",
         "--holdem-idle-close-ms", "86400000", "--log-format", "json"],
        stdout=open(log, "w"), stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                http(addr, "GET", "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        if saved.exists():
            kept = json.loads(saved.read_text())
            token, table, rate = kept["token"], kept["table"], kept["rate"]
        else:
            token = http(addr, "POST", "/v1/players")["token"]
            table = http(addr, "POST", "/v1/holdem/tables", token,
                         {"ais": AIS, "seats": 1 + len(AIS), "scheme": SCHEME})["table_id"]
            cpu0 = cpu_s(server.pid)
            rate = play(addr, table, token, HANDS)
            print(f"| table | {HANDS} hands, server CPU {(cpu_s(server.pid) - cpu0) / HANDS * 1000:.2f} ms a hand |")
            saved.write_text(json.dumps({"token": token, "table": table, "rate": rate}))
        if ARCHIVE:
            archived(data, table)
        time.sleep(1)
        idle = rss_mb(server.pid)
        samples, stop = [], threading.Event()

        def sample():
            while not stop.is_set():
                samples.append(rss_mb(server.pid))
                time.sleep(0.1)

        read = []

        def reader():
            after, hands, pages, t0 = 0, 0, 0, time.time()
            while True:
                page = http(addr, "GET",
                            f"/v1/holdem/tables/{table}/hands?limit={LIMIT}&after={after}", token)
                hands += len(page["hands"])
                pages += 1
                if page["next_after"] is None:
                    break
                after = page["next_after"]
            read.append((hands, pages, time.time() - t0))

        watchers = [threading.Thread(target=sample)]
        for w in watchers:
            w.start()
        timings = pathlib.Path(data) / "healthz.ms"
        timer = healthz_timer(addr, timings)
        readers = [threading.Thread(target=reader) for _ in range(READERS)]
        t0 = time.time()
        for r in readers:
            r.start()
        for r in readers:
            r.join()
        wall = time.time() - t0
        stop.set()
        timer.kill()
        timer.wait()
        for w in watchers:
            w.join()
        health = sorted(float(x) for x in (timings.read_text() if timings.exists() else "").split())
        p99 = health[min(len(health) - 1, int(len(health) * 0.99))] if health else float("nan")
        hands = {h for h, _, _ in read}
        print(f"| table | {HANDS} hands played at {rate:.0f} hands/s |")
        print("|---|---|")
        print(f"| readers | {READERS} at once, each the whole history, {LIMIT} hands a page |")
        print(f"| hands read per reader | {sorted(hands)} in {read[0][1]} pages |")
        print(f"| wall time | {wall:.1f} s (slowest reader {max(s for _, _, s in read):.1f} s) |")
        print(f"| RSS | {idle:.0f} MB idle before, {max(samples):.0f} MB peak |")
        if health:
            print(f"| /healthz | {len(health)} calls, p50 {health[len(health) // 2]:.1f} ms, "
                  f"p99 {p99:.1f} ms, max {health[-1]:.1f} ms |")
        inside = server_ms(log, "/healthz")
        if inside:
            print(f"| /healthz in the server | p99 {inside[int(len(inside) * 0.99)]:.1f} ms, "
                  f"max {inside[-1]:.1f} ms (its access lines: handler and database) |")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
