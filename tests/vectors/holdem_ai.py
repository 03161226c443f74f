#!/usr/bin/env python3
"""fairseed hold'em AI decision seeds (engine v1): vectors of the derivation.

Written from docs/spec.md §18.1 with Python's hmac and hashlib alone,
independently of the Rust crates, and writes
  tests/vectors/primitives/holdem_ai.json
Each case: the session secret (64 lowercase hex characters), the table id, the
hand number, the seat, the decision's index in the hand's action log, the exact
HMAC message (hex of its bytes), the full HMAC and the 64-bit decision seed.
Deterministic: secrets and the other inputs come from a SHA-256 chain.
"""
import hashlib
import hmac
import json
import os
import platform

OUT = os.path.dirname(os.path.abspath(__file__))
DOMAIN = b"fairseed/holdem-ai/v1"


def message(table_id, hand, seat, index):
    # docs/spec.md §18.1: domain, a zero byte, then the fields as big-endian integers.
    table = table_id.encode()
    return (
        DOMAIN
        + b"\x00"
        + len(table).to_bytes(4, "big")
        + table
        + hand.to_bytes(8, "big")
        + seat.to_bytes(4, "big")
        + index.to_bytes(4, "big")
    )


def decision_seed(secret_hex, table_id, hand, seat, index):
    # Keyed, as the hand seeds are (§17.2), by the secret's 64 hex characters.
    mac = hmac.new(secret_hex.encode(), message(table_id, hand, seat, index), hashlib.sha256)
    digest = mac.digest()
    return digest.hex(), int.from_bytes(digest[:8], "big")


def chain(label, i):
    return hashlib.sha256(f"fairseed-vectors:{label}:{i}".encode()).digest()


def main():
    cases = []
    fixed = [
        ("ab" * 32, "t1", 3, 2, 0),
        ("ab" * 32, "t1", 3, 2, 1),
        ("ab" * 32, "t1", 4, 2, 0),
        ("ab" * 32, "t1", 3, 5, 0),
        ("00" * 32, "simulated", 1, 1, 7),
        ("ff" * 32, "h0123456789abcdef", 18446744073709551615, 0, 4294967295),
    ]
    for i in range(24):
        d = chain("holdem_ai", i)
        table = ["t1", "simulated", "h" + d[8:16].hex(), "x" * 64][d[16] % 4]
        fixed.append((d.hex(), table, 1 + int.from_bytes(d[17:21], "big") % 100000, d[21] % 6, d[22] % 40))
    for secret, table, hand, seat, index in fixed:
        mac, seed = decision_seed(secret, table, hand, seat, index)
        cases.append(
            {
                "session_secret": secret,
                "table_id": table,
                "hand": hand,
                "seat": seat,
                "index": index,
                "message_hex": message(table, hand, seat, index).hex(),
                "hmac": mac,
                "seed": seed,
            }
        )
    path = os.path.join(OUT, "primitives", "holdem_ai.json")
    with open(path, "w") as f:
        f.write('{\n  "python_version": "%s",\n  "cases": [\n' % platform.python_version())
        f.write(",\n".join("    " + json.dumps(c, separators=(",", ":")) for c in cases))
        f.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
