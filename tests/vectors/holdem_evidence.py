#!/usr/bin/env python3
"""fairseed hold'em table evidence: vectors of signed turn notices and
acknowledgements.

Written from docs/spec.md §20.7 with Python's hashlib and the `cryptography`
package's Ed25519 (RFC 8032) alone, independently of the Rust crates, and writes
  tests/vectors/primitives/holdem_evidence.json
Each case: an item as the table sends it (its fields and `sig`), the exact
message its signature covers, and whether it verifies under the table's
evidence key. Deterministic: the keys and the inputs come from a SHA-256 chain,
and Ed25519 signatures are deterministic.
"""
import hashlib
import json
import os
import platform

import cryptography
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

OUT = os.path.dirname(os.path.abspath(__file__))
DOMAIN = "fairseed_evidence_v1"


def chain(label, i):
    return hashlib.sha256(f"fairseed-vectors:{label}:{i}".encode()).digest()


def table_field(table):
    # The table id, prefixed by its length in UTF-8 bytes, so no id can
    # run into the next field whatever characters it holds.
    return f"{len(table.encode())}:{table}"


def turn_message(i):
    return (
        f"{DOMAIN}:turn:{table_field(i['table'])}:{i['hand']}:{i['seat']}"
        f":{i['actions']}:{i['deadline_ms']}:{i['server_ms']}"
    )


def ack_message(i):
    return (
        f"{DOMAIN}:ack:{table_field(i['table'])}:{i['hand']}:{i['seat']}"
        f":{i['kind']}:{i['value_hash']}:{i['server_ms']}"
    )


def message(item):
    return turn_message(item) if item["type"] == "turn" else ack_message(item)


def public_hex(key):
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def signed(key, item):
    text = message(item)
    out = dict(item)
    out["sig"] = key.sign(text.encode()).hex()
    return out, text


def main():
    key = Ed25519PrivateKey.from_private_bytes(chain("holdem_evidence_key", 0))
    other = Ed25519PrivateKey.from_private_bytes(chain("holdem_evidence_key", 1))
    items = [
        {"type": "turn", "table": "t1", "hand": 3, "seat": 0, "actions": 4,
         "deadline_ms": 1700000030000, "server_ms": 1700000000000},
        {"type": "ack", "table": "t1", "hand": 3, "seat": 0, "kind": "commit",
         "value_hash": hashlib.sha256(("11" * 32).encode()).hexdigest(),
         "server_ms": 1699999990000},
        {"type": "ack", "table": "t1", "hand": 3, "seat": 0, "kind": "reveal",
         "value_hash": hashlib.sha256(("11" * 32).encode()).hexdigest(),
         "server_ms": 1699999995000},
        # A table id with the field separator, and one beyond ASCII.
        {"type": "turn", "table": "a:b", "hand": 1, "seat": 5, "actions": 0,
         "deadline_ms": 0, "server_ms": 0},
        # The largest numbers: 2^53 − 1, exact in a JavaScript number.
        {"type": "turn", "table": "mesa-ñ", "hand": 9007199254740991, "seat": 2,
         "actions": 99, "deadline_ms": 9007199254740991,
         "server_ms": 9007199254740991},
    ]
    for i in range(8):
        d = chain("holdem_evidence", i)
        table = "t" + d[0:3].hex()
        hand = 1 + int.from_bytes(d[3:7], "big") % 100000
        seat = d[7] % 6
        now = 1700000000000 + int.from_bytes(d[8:13], "big") % 100000000000
        if d[13] % 2 == 0:
            items.append({"type": "turn", "table": table, "hand": hand, "seat": seat,
                          "actions": d[14] % 40,
                          "deadline_ms": now + 1000 + int.from_bytes(d[15:18], "big") % 599001,
                          "server_ms": now})
        else:
            value = d[16:].hex() + d[:16].hex()
            items.append({"type": "ack", "table": table, "hand": hand, "seat": seat,
                          "kind": "commit" if d[14] % 2 == 0 else "reveal",
                          "value_hash": hashlib.sha256(value.encode()).hexdigest(),
                          "server_ms": now})
    cases = []
    for item in items:
        out, text = signed(key, item)
        cases.append({"item": out, "message": text, "valid": True})
    # Refused: signed by another key; a field changed after signing.
    out, text = signed(other, items[0])
    cases.append({"item": out, "message": text, "valid": False})
    out, text = signed(key, items[2])
    out["seat"] = 1
    cases.append({"item": out, "message": message(out), "valid": False})
    out, text = signed(key, items[0])
    out["deadline_ms"] += 1
    cases.append({"item": out, "message": message(out), "valid": False})
    doc = {
        "python_version": platform.python_version(),
        "cryptography_version": cryptography.__version__,
        "key_seed": chain("holdem_evidence_key", 0).hex(),
        "key": public_hex(key),
        "other_key": public_hex(other),
    }
    path = os.path.join(OUT, "primitives", "holdem_evidence.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n")
        for k, v in doc.items():
            f.write(f'  "{k}": {json.dumps(v)},\n')
        f.write('  "cases": [\n')
        f.write(",\n".join("    " + json.dumps(c, separators=(",", ":"), ensure_ascii=False)
                           for c in cases))
        f.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
