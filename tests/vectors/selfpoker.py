#!/usr/bin/env python3
"""fairseed selfpoker and NumPy vectors from the poker site's own Python lines.

Runs the lines of reference/selfpoker.txt with NumPy over chosen seeds and player
counts, deals per docs/spec.md §9.3, and writes
  tests/vectors/records/selfpoker.jsonl   selfpoker records (docs/spec.md §10.7) with outcome
  tests/vectors/primitives/numpy.json     SeedSequence / PCG64 / permutation vectors
Deterministic: the pseudo-random seeds come from a SHA-256 chain. Run before generate.js.
"""
import hashlib
import json
import os
import platform
import sys

import numpy as np

OUT = os.path.dirname(os.path.abspath(__file__))


def seed_commit_deck(graine):
    # The left side of the site's `assert … == commit`: the commit itself.
    commit = hashlib.sha256(f"selfpoker:{graine}".encode()).hexdigest()
    # ===== BEGIN copied from reference/selfpoker.txt =====
    paquet = list(np.random.default_rng(graine).permutation(52))
    # n jogadores: cartas 0..2n-1 = mãos (2 por jogador), 2n..2n+4 = cartas comunitárias
    # ===== END copied =====
    return commit, [int(c) for c in paquet]


def deal(deck, players):
    # docs/spec.md §9.3: player j gets deck[2j], deck[2j+1]; the board is deck[2p .. 2p+4].
    holes = [[deck[2 * j], deck[2 * j + 1]] for j in range(players)]
    board = deck[2 * players : 2 * players + 5]
    return holes, board


def chain(label, i):
    """The i-th 63-bit pseudo-random seed of a fixed SHA-256 chain."""
    h = hashlib.sha256(f"fairseed-vectors:{label}:{i}".encode()).digest()
    return int.from_bytes(h, "big") >> (256 - 63)


FIXED = [0, 1, 42, 2**63 - 1, 1234567890123456789]
RANDOM = [chain("selfpoker", i) for i in range(50)]
EXTRA = [2, 2**32 - 1, 2**32, 2**53 - 1, 2**53, 2**53 + 1, 2**62]


def records():
    recs = []
    seeds = FIXED + RANDOM + EXTRA
    for idx, graine in enumerate(seeds):
        # Every fixed seed with several player counts; the others with one count each.
        counts = range(2, 11) if graine in FIXED else [2 + idx % 9]
        for players in counts:
            commit, deck = seed_commit_deck(graine)
            holes, board = deal(deck, players)
            # `seed` as a JSON integer or as a decimal string, alternating (docs/spec.md §10.7).
            as_string = (idx + players) % 3 == 0
            recs.append(
                {
                    "scheme": "selfpoker",
                    "commit": commit,
                    "seed": str(graine) if as_string else graine,
                    "players": players,
                    "outcome": {"deck": deck, "holes": holes, "board": board},
                }
            )
    # Make sure both spellings of the extreme seeds are present.
    for graine in (0, 2**63 - 1):
        for seed in (graine, str(graine)):
            commit, deck = seed_commit_deck(graine)
            holes, board = deal(deck, 6)
            recs.append(
                {
                    "scheme": "selfpoker",
                    "commit": commit,
                    "seed": seed,
                    "players": 6,
                    "outcome": {"deck": deck, "holes": holes, "board": board},
                }
            )
    return recs


def numpy_vectors():
    cases = []
    seeds = FIXED + RANDOM[:12] + EXTRA
    for graine in seeds:
        ss = np.random.SeedSequence(graine)
        case = {
            "seed": graine,
            "seed_str": str(graine),
            "pool": [int(x) for x in ss.pool],
            "generate_state_u64": [int(x) for x in np.random.SeedSequence(graine).generate_state(4, np.uint64)],
            "random_raw": [int(x) for x in np.random.PCG64(graine).random_raw(8)],
            "permutations": {},
        }
        ns = [1, 2, 3, 10, 52, 1000] if graine in FIXED else [1, 2, 3, 10, 52]
        for n in ns:
            case["permutations"][str(n)] = [int(x) for x in np.random.default_rng(graine).permutation(n)]
        cases.append(case)
    return cases


def dumps(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def main():
    recs = records()
    os.makedirs(os.path.join(OUT, "records"), exist_ok=True)
    os.makedirs(os.path.join(OUT, "primitives"), exist_ok=True)
    with open(os.path.join(OUT, "records", "selfpoker.jsonl"), "w", encoding="utf-8") as f:
        for r in recs:
            f.write(dumps(r) + "\n")
    cases = numpy_vectors()
    with open(os.path.join(OUT, "primitives", "numpy.json"), "w", encoding="utf-8") as f:
        f.write("{\n")
        f.write(f'  "numpy_version": {dumps(np.__version__)},\n')
        f.write(f'  "python_version": {dumps(platform.python_version())},\n')
        f.write('  "cases": [\n')
        f.write(",\n".join("    " + dumps(c) for c in cases))
        f.write("\n  ]\n}\n")
    print(f"selfpoker.jsonl: {len(recs)} records; numpy.json: {len(cases)} seeds; numpy {np.__version__}", file=sys.stderr)


if __name__ == "__main__":
    main()
