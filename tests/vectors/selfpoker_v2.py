#!/usr/bin/env python3
"""fairseed selfpoker_v2 vectors: session commit, seed derivation, commit and deck.

Written from docs/spec.md §17 with Python's hmac and hashlib and NumPy, independently
of the Rust core, and writes
  tests/vectors/primitives/selfpoker_v2.json
Each case: the session secret (64 lowercase hex characters), its session_commit, the
table id, the hand number, the client seeds (seat -> seed), the exact HMAC message
(as hex of its bytes), the full HMAC, the 63-bit seed, the selfpoker commit and the
deck. Deterministic: secrets and seeds come from a SHA-256 chain.

  python3 tests/vectors/selfpoker_v2.py --check FILE
checks instead, on its own, each hold'em hand record (JSON Lines) of FILE that carries a
revealed selfpoker_v2 deal: secret -> session_commit, derivation -> seed, seed -> commit,
and the board dealt from NumPy's deck.
"""
import hashlib
import hmac
import json
import os
import platform
import sys

import numpy as np

OUT = os.path.dirname(os.path.abspath(__file__))


def session_commit(secret_hex):
    # docs/spec.md §17.1: sha256 of the secret's 64 lowercase hex characters (as §2.2).
    return hashlib.sha256(secret_hex.encode()).hexdigest()


def message(table_id, hand, client_seeds):
    # docs/spec.md §17.2: every seed length-prefixed, seats ascending.
    msg = f"selfpoker_v2:{table_id}:{hand}:{len(client_seeds)}".encode()
    for seat in sorted(client_seeds):
        seed = client_seeds[seat].encode("utf-8")
        msg += f":{seat}={len(seed)}:".encode() + seed
    return msg


def hand_seed(secret_hex, table_id, hand, client_seeds):
    # docs/spec.md §17.2: HMAC-SHA256 keyed by the secret's hex text; first 8 bytes
    # big-endian, top bit cleared.
    msg = message(table_id, hand, client_seeds)
    mac = hmac.new(secret_hex.encode(), msg, hashlib.sha256).digest()
    return msg, mac.hex(), int.from_bytes(mac[:8], "big") & ((1 << 63) - 1)


def chain(label, i):
    return hashlib.sha256(f"fairseed-vectors:{label}:{i}".encode()).hexdigest()


def case(secret_hex, table_id, hand, client_seeds):
    msg, mac, seed = hand_seed(secret_hex, table_id, hand, client_seeds)
    # docs/spec.md §9.1, as the poker site's own lines (reference/selfpoker.txt).
    commit = hashlib.sha256(f"selfpoker:{seed}".encode()).hexdigest()
    deck = [int(c) for c in np.random.default_rng(seed).permutation(52)]
    return {
        "session_secret": secret_hex,
        "session_commit": session_commit(secret_hex),
        "table_id": table_id,
        "hand": hand,
        "client_seeds": {str(s): client_seeds[s] for s in sorted(client_seeds)},
        "message_hex": msg.hex(),
        "hmac": mac,
        "seed": seed,
        "commit": commit,
        "deck": deck,
    }


SEED_TEXTS = [
    "player",
    "a",
    "x" * 64,
    "é" * 32,
    "日本語🎲",
    "b:o",
    "0=3:ann",
    ":",
    "=",
    "a,b;c",
    'quote " and \\ backslash',
    "1",
]
TABLES = ["t1", "table-0", "a" * 64, "T.x_y-z", "0"]
HANDS = [1, 2, 3, 500, 2**32, 2**53 - 1, 2**63 - 1, 2**64 - 1]


def cases():
    out = []
    for i in range(40):
        secret = chain("selfpoker_v2:secret", i % 10)
        table = TABLES[i % len(TABLES)]
        hand = HANDS[i % len(HANDS)] if i % 3 == 0 else 1 + i
        # 1 to 6 seated humans on sparse seats 0..9.
        seats = sorted({int(chain("selfpoker_v2:seat", 10 * i + k)[:2], 16) % 10 for k in range(1 + i % 6)})
        seeds = {s: SEED_TEXTS[(i + k) % len(SEED_TEXTS)] for k, s in enumerate(seats)}
        out.append(case(secret, table, hand, seeds))
    # Fixed secrets at the edges.
    for secret in ("0" * 64, "f" * 64):
        out.append(case(secret, "t1", 1, {0: "player"}))
    # The worked example of docs/spec.md §17.2.
    out.append(case("ab" * 32, "t1", 3, {0: "ann", 4: "b:o"}))
    # Seeds whose unprefixed concatenations would collide: distinct messages here.
    s = chain("selfpoker_v2:secret", 99)
    out.append(case(s, "t1", 1, {0: "a:1=1:b"}))
    out.append(case(s, "t1", 1, {0: "a", 1: "b"}))
    out.append(case(s, "t1", 1, {0: "ab"}))
    out.append(case(s, "t1", 1, {1: "ab"}))
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
            if not d or "session_secret" not in d:
                continue
            secret, hand = d["session_secret"], r["hand"]
            assert session_commit(secret) == d["session_commit"], f"hand {hand}: session_commit"
            seeds = {int(s): v for s, v in d["client_seeds"].items()}
            got = case(secret, d["table_id"], hand, seeds)
            assert got["seed"] == int(r["seed"]), f"hand {hand}: seed"
            assert got["commit"] == r["commit"], f"hand {hand}: commit"
            # docs/spec.md §15: with n seats dealt in, the board is cards 2n .. 2n+4.
            n = len(r["seats"])
            board = r["results"]["board"]
            assert got["deck"][2 * n : 2 * n + len(board)] == board, f"hand {hand}: board"
            checked += 1
    print(f"{path}: {checked} selfpoker_v2 hands check", file=sys.stderr)
    return checked


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(0 if check_records(sys.argv[2]) else 1)
    all_cases = cases()
    os.makedirs(os.path.join(OUT, "primitives"), exist_ok=True)
    with open(os.path.join(OUT, "primitives", "selfpoker_v2.json"), "w", encoding="utf-8") as f:
        f.write("{\n")
        f.write(f'  "numpy_version": {dumps(np.__version__)},\n')
        f.write(f'  "python_version": {dumps(platform.python_version())},\n')
        f.write('  "cases": [\n')
        f.write(",\n".join("    " + dumps(c) for c in all_cases))
        f.write("\n  ]\n}\n")
    print(f"selfpoker_v2.json: {len(all_cases)} cases; numpy {np.__version__}", file=sys.stderr)


if __name__ == "__main__":
    main()
