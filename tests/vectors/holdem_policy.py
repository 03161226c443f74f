#!/usr/bin/env python3
"""fairseed hold'em table policies: vectors of their JSON and its sha256.

Written from docs/spec.md §19 and §19.3 with Python's json and hashlib alone,
independently of the Rust crates, and writes
  tests/vectors/primitives/holdem_policy.json
Each case: the policy's fields, its JSON exactly as the table's log commits to
it (fields in the spec's order, no spaces) and the sha256 of that JSON, the
`policy` check's commit. Deterministic: the inputs come from a SHA-256 chain.
"""
import hashlib
import json
import os
import platform

OUT = os.path.dirname(os.path.abspath(__file__))


def policy_json(seats, small, big, stack, action_ms, ais, ai_seats, idle_close_ms, public=False):
    # docs/spec.md §19.3: config (seats, small_blind, big_blind, starting_stack,
    # action_ms), ais, ai_seats only when given, idle_close_ms, public only
    # when true (§19.4); no spaces.
    policy = {
        "config": {
            "seats": seats,
            "small_blind": small,
            "big_blind": big,
            "starting_stack": stack,
            "action_ms": action_ms,
        },
        "ais": ais,
    }
    if ai_seats:
        policy["ai_seats"] = ai_seats
    policy["idle_close_ms"] = idle_close_ms
    if public:
        policy["public"] = True
    return json.dumps(policy, separators=(",", ":"))


def chain(label, i):
    return hashlib.sha256(f"fairseed-vectors:{label}:{i}".encode()).digest()


def main():
    fixed = [
        (6, 50, 100, 10000, 30000, [2, 2], [], 600000),
        (2, 1, 2, 200, 5000, [1], [], 60000),
        (6, 50, 100, 10000, 30000, [1, 2, 3, 1, 2, 3], [0, 1, 2, 3, 4, 5], 600000),
        (4, 10, 20, 400, 5000, [2, 3], [1, 3], 600000),
        (3, 4294967296, 4294967296, 1099511627776, 600000, [], [], 86400000),
        (6, 50, 100, 10000, 30000, [2, 2], [], 600000, True),
        (2, 1, 2, 200, 5000, [], [], 60000, True),
    ]
    for i in range(16):
        d = chain("holdem_policy", i)
        seats = 2 + d[0] % 5
        big = 2 + int.from_bytes(d[1:5], "big") % 10000
        small = 1 + d[5] % big
        stack = big * (1 + d[6] % 200)
        action_ms = 1000 + int.from_bytes(d[7:11], "big") % 599001
        ais = [1 + b % 3 for b in d[12 : 12 + d[11] % seats]]
        idle = 100 + int.from_bytes(d[20:24], "big") % 86399901
        fixed.append((seats, small, big, stack, action_ms, ais, [], idle))
    cases = []
    for args in fixed:
        text = policy_json(*args)
        cases.append({"policy": text, "sha256": hashlib.sha256(text.encode()).hexdigest()})
    path = os.path.join(OUT, "primitives", "holdem_policy.json")
    with open(path, "w") as f:
        f.write('{\n  "python_version": "%s",\n  "cases": [\n' % platform.python_version())
        f.write(",\n".join("    " + json.dumps(c, separators=(",", ":")) for c in cases))
        f.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
