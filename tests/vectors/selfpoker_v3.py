#!/usr/bin/env python3
"""fairseed selfpoker_v3 vectors: per-hand values, their commits, seed derivation, deck.

Written from docs/spec.md §20 with Python's hmac and hashlib and NumPy, independently
of the Rust core, and writes
  tests/vectors/primitives/selfpoker_v3.json
Each case: the session secret (64 lowercase hex characters), its session_commit, the
table id, the hand number, per human dealt in its client seed, its per-hand value and
that value's commit, the exact HMAC message (as hex of its bytes), the full HMAC, the
63-bit seed, the selfpoker commit and the deck. Deterministic: secrets, seeds and
values come from a SHA-256 chain.

  python3 tests/vectors/selfpoker_v3.py --check FILE
checks instead, on its own, each hold'em hand record (JSON Lines) of FILE that carries a
revealed selfpoker_v3 deal: secret -> session_commit, each value -> its commit, no
withheld seat dealt in, derivation -> seed, seed -> commit, and the board from NumPy's deck.
"""
import hashlib
import hmac
import json
import os
import platform
import sys

import numpy as np

OUT = os.path.dirname(os.path.abspath(__file__))


def sha256_hex(text):
    return hashlib.sha256(text.encode()).hexdigest()


def message(table_id, hand, entries):
    # docs/spec.md §20.3: as selfpoker_v2's, each seat's revealed value after its seed.
    msg = f"selfpoker_v3:{table_id}:{hand}:{len(entries)}".encode()
    for seat in sorted(entries):
        seed, value = entries[seat]
        seed = seed.encode("utf-8")
        msg += f":{seat}={len(seed)}:".encode() + seed + b":" + value.encode()
    return msg


def hand_seed(secret_hex, table_id, hand, entries):
    msg = message(table_id, hand, entries)
    mac = hmac.new(secret_hex.encode(), msg, hashlib.sha256).digest()
    return msg, mac.hex(), int.from_bytes(mac[:8], "big") & ((1 << 63) - 1)


def chain(label, i):
    return hashlib.sha256(f"fairseed-vectors:{label}:{i}".encode()).hexdigest()


def case(secret_hex, table_id, hand, entries):
    msg, mac, seed = hand_seed(secret_hex, table_id, hand, entries)
    return {
        "session_secret": secret_hex,
        "session_commit": sha256_hex(secret_hex),
        "table_id": table_id,
        "hand": hand,
        "client_seeds": {str(s): entries[s][0] for s in sorted(entries)},
        "hand_values": {str(s): entries[s][1] for s in sorted(entries)},
        # docs/spec.md §20.2: a value's commit is sha256 of its 64 hex characters.
        "hand_commits": {str(s): sha256_hex(entries[s][1]) for s in sorted(entries)},
        "message_hex": msg.hex(),
        "hmac": mac,
        "seed": seed,
        # docs/spec.md §9.1, as the poker site's own lines (reference/selfpoker.txt).
        "commit": sha256_hex(f"selfpoker:{seed}"),
        "deck": [int(c) for c in np.random.default_rng(seed).permutation(52)],
    }


SEED_TEXTS = ["player", "a", "x" * 64, "é" * 32, "日本語🎲", "b:o", "0=3:ann", ":", "=", "1"]
TABLES = ["t1", "table-0", "a" * 64, "T.x_y-z", "0"]
HANDS = [1, 2, 3, 500, 2**32, 2**53 - 1, 2**63 - 1, 2**64 - 1]


def cases():
    out = []
    for i in range(40):
        secret = chain("selfpoker_v3:secret", i % 10)
        table = TABLES[i % len(TABLES)]
        hand = HANDS[i % len(HANDS)] if i % 3 == 0 else 1 + i
        seats = sorted({int(chain("selfpoker_v3:seat", 10 * i + k)[:2], 16) % 10 for k in range(1 + i % 6)})
        entries = {
            s: (SEED_TEXTS[(i + k) % len(SEED_TEXTS)], chain("selfpoker_v3:value", 10 * i + k))
            for k, s in enumerate(seats)
        }
        out.append(case(secret, table, hand, entries))
    # The worked example of docs/spec.md §20.3.
    out.append(case("ab" * 32, "t1", 3, {0: ("ann", "11" * 32), 4: ("b:o", "22" * 32)}))
    # The same hand with one value changed, and with seat 4 withheld (dealt without it).
    out.append(case("ab" * 32, "t1", 3, {0: ("ann", "11" * 32), 4: ("b:o", "23" * 32)}))
    out.append(case("ab" * 32, "t1", 3, {0: ("ann", "11" * 32)}))
    for value in ("0" * 64, "f" * 64):
        out.append(case("0" * 64, "t1", 1, {0: ("player", value)}))
    return out


def dumps(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def check_records(path):
    checked = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            d = r.get("deal")
            if not d or d.get("scheme") != "selfpoker_v3" or "session_secret" not in d:
                continue
            secret, hand = d["session_secret"], r["hand"]
            assert sha256_hex(secret) == d["session_commit"], f"hand {hand}: session_commit"
            for seat, value in d["hand_values"].items():
                assert sha256_hex(value) == d["hand_commits"][seat], f"hand {hand}: seat {seat} reveal"
            dealt = {str(s["seat"]) for s in r["seats"]}
            for seat in d.get("withheld", []):
                assert str(seat) not in dealt, f"hand {hand}: withheld seat {seat} dealt in"
            entries = {int(s): (v, d["hand_values"][s]) for s, v in d["client_seeds"].items()}
            got = case(secret, d["table_id"], hand, entries)
            assert got["seed"] == int(r["seed"]), f"hand {hand}: seed"
            assert got["commit"] == r["commit"], f"hand {hand}: commit"
            n = len(r["seats"])
            board = r["results"]["board"]
            assert got["deck"][2 * n : 2 * n + len(board)] == board, f"hand {hand}: board"
            checked += 1
    print(f"{path}: {checked} selfpoker_v3 hands check", file=sys.stderr)
    return checked


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(0 if check_records(sys.argv[2]) else 1)
    all_cases = cases()
    os.makedirs(os.path.join(OUT, "primitives"), exist_ok=True)
    with open(os.path.join(OUT, "primitives", "selfpoker_v3.json"), "w", encoding="utf-8") as f:
        f.write("{\n")
        f.write(f'  "numpy_version": {dumps(np.__version__)},\n')
        f.write(f'  "python_version": {dumps(platform.python_version())},\n')
        f.write('  "cases": [\n')
        f.write(",\n".join("    " + dumps(c) for c in all_cases))
        f.write("\n  ]\n}\n")
    print(f"selfpoker_v3.json: {len(all_cases)} cases; numpy {np.__version__}", file=sys.stderr)


if __name__ == "__main__":
    main()
