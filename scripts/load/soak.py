#!/usr/bin/env python3
"""Soak benchmark of `fairseed serve` on SQLite (docs/performance.md, "Service load").

For DURATION seconds (default 600): wrk places bets flat out over PLAYERS
players (bet.lua), STREAMS live-event streams stay open, a thread rotates
seed pairs, and halfway through the server is killed with SIGKILL and
restarted on the same data directory and port. Every 5 s the server's
resident memory (whole, and its anonymous part: the heap) and the -wal
file's size are sampled; memory is reported per process at its start,
after WARMUP seconds and at its end, with the slope in between, so a
cache filling up once is told apart from growth that goes on. Afterwards, for every
player, through the API: bets are unique per (pair, nonce) and each pair's
nonces run 0..n-1 without a gap, the balance equals the opening balance plus
the history (payout - amount per bet), and the export verifies with
`fairseed verify`. Prints a Markdown table; exits 1 if an invariant fails.

A benchmark, not a test: loopback only, bounded in time, stops by itself.

Usage: scripts/load/soak.py            (needs wrk, a built fairseed-server and fairseed)
  DURATION=120 scripts/load/soak.py
"""
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target-load"))
SERVER = pathlib.Path(os.environ.get("SERVER_BIN", TARGET / "release/fairseed-server"))
VERIFY = pathlib.Path(os.environ.get("FAIRSEED_BIN", ROOT / "target/debug/fairseed"))
DURATION = int(os.environ.get("DURATION", "600"))
PLAYERS = int(os.environ.get("PLAYERS", "64"))
STREAMS = int(os.environ.get("STREAMS", "100"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "32"))
WARMUP = int(os.environ.get("WARMUP", "60"))
OPENING = 1_000_000


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Service:
    def __init__(self, data, port):
        self.data, self.port, self.proc = data, port, None
        self.url = f"http://127.0.0.1:{port}"

    def start(self):
        log = open(self.data.parent / "server.log", "ab")
        self.proc = subprocess.Popen(
            [str(SERVER), "--listen", f"127.0.0.1:{self.port}", "--data-dir", str(self.data),
             "--rate-limit", "0", "--signups-per-minute", "0", "--opening-balance", str(OPENING)],
            stdout=log, stderr=log, env={**os.environ, "RUST_LOG": "warn"})
        self.started = time.time()
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                call(self.url, "GET", "/healthz")
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("the server did not start")

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def fetch(url, method, path, token=None):
    req = urllib.request.Request(url + path, method=method)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.read()


def call(url, method, path, token=None):
    return json.loads(fetch(url, method, path, token))


def memory_kib(pid):
    """(VmRSS, RssAnon) of a process, in KiB."""
    found = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon"):
            found[key] = int(value.split()[0])
    return found.get("VmRSS", 0), found.get("RssAnon", 0)


def hold_streams(svc, tokens, stop):
    """Keeps STREAMS event streams open, reopening them after the restart."""
    def one(token):
        while not stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", svc.port), timeout=5) as s:
                    s.sendall(f"GET /v1/events?topic=dice HTTP/1.1\r\nHost: x\r\n"
                              f"Authorization: Bearer {token}\r\n\r\n".encode())
                    s.settimeout(1)
                    while not stop.is_set():
                        try:
                            if not s.recv(65536):
                                break
                        except socket.timeout:
                            continue
            except OSError:
                time.sleep(0.5)
    for i in range(STREAMS):
        threading.Thread(target=one, args=(tokens[i % len(tokens)],), daemon=True).start()


def rotate(svc, tokens, stop, counts):
    i = 0
    while not stop.wait(2):
        try:
            call(svc.url, "POST", "/v1/seeds/rotate", tokens[i % len(tokens)])
            counts["rotations"] += 1
        except OSError:
            pass
        i += 1


def sample(svc, stop, samples):
    """Every 5 s: (process's start time, now, RSS, anonymous RSS, -wal size)."""
    wal = svc.data / "fairseed.sqlite-wal"
    while not stop.wait(5):
        try:
            rss, anon = memory_kib(svc.proc.pid)
            size = wal.stat().st_size if wal.exists() else 0
            samples.append((svc.started, time.time(), rss, anon, size))
        except OSError:
            pass


def memory_rows(samples):
    """Per process: RSS (anonymous) at start, after WARMUP, at the end; the slope after WARMUP."""
    rows = []
    for n, started in enumerate(sorted({s[0] for s in samples}), 1):
        mine = [s for s in samples if s[0] == started]
        warm = next((s for s in mine if s[1] - started >= WARMUP), mine[-1])
        first, last = mine[0], mine[-1]
        minutes = (last[1] - warm[1]) / 60
        slope = (last[3] - warm[3]) / 1024 / minutes if minutes > 0 else 0.0
        def mib(s):
            return f"{s[2] / 1024:.0f} ({s[3] / 1024:.0f})"
        rows.append(f"| server RSS (heap), process {n}: start / after {WARMUP} s / end "
                    f"({last[1] - started:.0f} s) | {mib(first)} / {mib(warm)} / {mib(last)} MiB; "
                    f"heap after warm-up {slope:+.2f} MiB/min |")
    return rows


def pages(url, token, path, key):
    out, before = [], None
    while True:
        q = f"{path}?limit=500" + (f"&before={before}" if before else "")
        page = call(url, "GET", q, token)
        out += page[key]
        before = page.get("next_before")
        if not before:
            return out


def check_player(url, token, work):
    problems = []
    bets = pages(url, token, "/v1/dice/bets", "bets")
    seen, by_pair = set(), {}
    for b in bets:
        if (b["pair_id"], b["nonce"]) in seen:
            problems.append(f"doubled nonce {b['pair_id']}/{b['nonce']}")
        seen.add((b["pair_id"], b["nonce"]))
        by_pair.setdefault(b["pair_id"], []).append(b["nonce"])
    for pair, nonces in by_pair.items():
        if sorted(nonces) != list(range(len(nonces))):
            problems.append(f"pair {pair}: nonces not 0..{len(nonces) - 1}")
    balance = call(url, "GET", "/v1/me", token)["balance"]
    history = OPENING + sum(int(b["payout"]) - int(b["amount"]) for b in bets)
    if balance != history:
        problems.append(f"balance {balance} != opening + history {history}")
    export = work / "export.jsonl"
    export.write_bytes(fetch(url, "GET", "/v1/records/export", token))
    if export.stat().st_size and subprocess.run([str(VERIFY), "verify", str(export)],
                                                stdout=subprocess.DEVNULL).returncode != 0:
        problems.append("export does not verify")
    return len(bets), problems


def main():
    for tool in (SERVER, VERIFY):
        if not tool.exists():
            raise SystemExit(f"soak.py: {tool} is missing (build it first)")
    load_start = f"{os.getloadavg()[0]:.1f}"
    work = pathlib.Path(tempfile.mkdtemp(dir=TARGET))
    svc = Service(work / "data", free_port())
    svc.start()
    tokens = [call(svc.url, "POST", "/v1/players")["token"] for _ in range(PLAYERS)]
    (work / "tokens").write_text("\n".join(tokens) + "\n")
    stop, counts, samples = threading.Event(), {"rotations": 0}, []
    hold_streams(svc, tokens, stop)
    threading.Thread(target=rotate, args=(svc, tokens, stop, counts), daemon=True).start()
    threading.Thread(target=sample, args=(svc, stop, samples), daemon=True).start()

    def wrk(seconds, run):
        return subprocess.Popen(
            ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{seconds}s", "--timeout", "10s",
             "-s", str(ROOT / "scripts/load/bet.lua"), svc.url],
            env={**os.environ, "RUN_ID": f"soak-{run}", "TOKENS_FILE": str(work / "tokens")},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    half = DURATION // 2
    load = wrk(half, 1)
    load.wait()
    svc.kill9()
    restarted = time.time()
    svc.start()
    recovery = time.time() - restarted
    load = wrk(DURATION - half, 2)
    load.wait()
    stop.set()

    total, problems = 0, []
    for token in tokens:
        n, p = check_player(svc.url, token, work)
        total += n
        problems += p
    svc.stop()
    shutil.rmtree(work, ignore_errors=True)
    wal = [s[4] for s in samples]
    print("| soak | value |\n|---|---|")
    print(f"| duration | {DURATION} s, SIGKILL and restart at {half} s (up again in {recovery:.1f} s) |")
    print(f"| bets stored | {total} ({total / DURATION:.0f}/s) over {PLAYERS} players, {CONNECTIONS} connections |")
    print(f"| rotations | {counts['rotations']} |")
    print(f"| event streams held | {STREAMS} |")
    print(f"| invariants | {'all hold' if not problems else '; '.join(problems[:5])} |")
    print(f"| -wal file, largest sample | {max(wal or [0]) / 2**20:.1f} MiB |")
    print("\n".join(memory_rows(samples)))
    print(f"| load average at start / end | {load_start} / {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores |")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
