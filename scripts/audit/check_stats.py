#!/usr/bin/env python3
"""The audit's statistics computed independently with SciPy
(docs/decisions/0021-exact-cell-tests.md).

crates/audit/tests/vectors/stats.json holds, for a few sample sizes, the
binomial tails, critical counts, smallest alarming sizes, false-alarm rates
and 90 % power factors of the audit's cell tests, and the exact coverage of
the return to player's 99 % interval for bets of one chance. The Rust test
crates/audit/tests/vectors.rs checks fairseed-audit against the file; this
script checks the file against SciPy.

    python3 scripts/audit/check_stats.py           # check the file (the test command)
    python3 scripts/audit/check_stats.py --write   # rewrite it
    python3 scripts/audit/check_stats.py --table   # the power table of docs/spec.md §16.8
"""

import json
import math
import sys
from pathlib import Path

from scipy import optimize, stats

VECTORS = Path(__file__).resolve().parents[2] / "crates/audit/tests/vectors/stats.json"
ALARM_P = 1e-6
POWER = 0.9
# name: (cells, probability of each cell per observation)
TESTS = {"rolls": (100, 0.01), "cards": (52 * 52, 1 / 52)}
SIZES = {"rolls": [5, 10, 20, 50, 100, 1000, 10_000, 100_000, 1_000_000],
         "cards": [6, 10, 20, 100, 1000, 10_000, 100_000]}
Z_99 = stats.norm.isf(0.005)
MAX_SKEW = 0.25


def upper(n, p, c):
    """P(X >= c)."""
    return float(stats.binom.sf(c - 1, n, p))


def lower(n, p, c):
    """P(X <= c)."""
    return float(stats.binom.cdf(c, n, p))


def critical_most(cells, p, n, alpha):
    """The smallest count c of one cell with 2 * cells * P(X >= c) < alpha (n + 1 if none)."""
    lo, hi = 0, n + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if 2 * cells * upper(n, p, mid) < alpha:
            hi = mid
        else:
            lo = mid + 1
    return lo


def critical_least(cells, p, n, alpha):
    """The largest count c of one cell with 2 * cells * P(X <= c) < alpha, or None."""
    if not 2 * cells * lower(n, p, 0) < alpha:
        return None
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if 2 * cells * lower(n, p, mid) < alpha:
            lo = mid
        else:
            hi = mid - 1
    return lo


def min_n(cells, p, alpha):
    n = 1
    while 2 * cells * p ** n >= alpha:
        n += 1
    return n


def size(cells, p, n, alpha):
    high = upper(n, p, critical_most(cells, p, n, alpha))
    c = critical_least(cells, p, n, alpha)
    low = 0.0 if c is None else lower(n, p, c)
    return cells * (high + low)


def power_factor(cells, p, n, alpha):
    """The smallest factor F by which one cell is more likely than each other
    that the test catches with probability POWER."""
    c = critical_most(cells, p, n, alpha)
    if c > n:
        return math.inf
    q = optimize.brentq(lambda q: upper(n, q, c) - POWER, p, 1.0, xtol=1e-15, rtol=1e-13)
    return q * (1 - p) / (p * (1 - q))


def rtp_coverage(chance, bets):
    """Exact P(the rules' mean lies in the 99 % interval) for `bets` bets of
    100 chips at `chance` in 10 000: wins are Binomial(bets, chance/10000)."""
    p = chance / 10_000
    m = (100 * 9900 // chance) / 100
    sd = math.sqrt(p * (1 - p)) * m
    half = Z_99 * sd / math.sqrt(bets)
    theoretical = p * m
    inside = [w for w in range(bets + 1) if abs(w * m / bets - theoretical) <= half]
    return sum(float(stats.binom.pmf(w, bets, p)) for w in inside)


def rtp_skew(chance, bets):
    p = chance / 10_000
    return (1 - 2 * p) / math.sqrt(bets * p * (1 - p))


def compute():
    tails = []
    for n, p, c in [(20, 0.01, 7), (100_000, 0.01, 1200), (100_000, 0.01, 800),
                    (1000, 1 / 52, 45), (1_000_000, 0.01, 10_500), (6, 1 / 52, 6)]:
        tails.append({"n": n, "p": p, "c": c, "upper": upper(n, p, c), "lower": lower(n, p, c)})
    tests = {}
    for name, (cells, p) in TESTS.items():
        rows = []
        for n in SIZES[name]:
            rows.append({
                "n": n,
                "critical_most": critical_most(cells, p, n, ALARM_P),
                "critical_least": critical_least(cells, p, n, ALARM_P),
                "size_1e-2": size(cells, p, n, 1e-2),
                "size_1e-6": size(cells, p, n, ALARM_P),
                "power_factor": power_factor(cells, p, n, ALARM_P),
            })
        tests[name] = {"cells": cells, "p": p, "min_n": min_n(cells, p, ALARM_P), "sizes": rows}
    coverage = []
    for chance in [100, 300, 4950, 9800]:
        # The fewest bets of this chance whose skewness is at most MAX_SKEW, and more.
        first = math.ceil(((1 - 2 * chance / 10_000) / MAX_SKEW) ** 2 / (chance / 10_000 * (1 - chance / 10_000)))
        for bets in sorted({max(first, 2), 4 * max(first, 2)}):
            coverage.append({"chance": chance, "bets": bets, "skew": rtp_skew(chance, bets),
                             "coverage": rtp_coverage(chance, bets)})
    return {"alarm_p": ALARM_P, "power": POWER, "tails": tails, "tests": tests, "rtp_coverage": coverage}


def close(a, b, rel=1e-9):
    if a is None or b is None:
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-300
    return a == b


def compare(want, got, path="$"):
    bad = []
    if isinstance(want, dict):
        for key in want:
            bad += compare(want[key], got.get(key) if isinstance(got, dict) else None, f"{path}.{key}")
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return [f"{path}: {len(want)} items, the file has {got!r}"]
        for i, (w, g) in enumerate(zip(want, got)):
            bad += compare(w, g, f"{path}[{i}]")
    elif not close(want, got):
        bad.append(f"{path}: SciPy gives {want!r}, the file has {got!r}")
    return bad


def table():
    print("| sample | too few below | caught 9 times in 10 at p < 1e-6 |")
    print("|---|---|---|")
    for name, (cells, p) in TESTS.items():
        for n in SIZES[name]:
            f = power_factor(cells, p, n, ALARM_P)
            what = "one 1 % range" if name == "rolls" else "one card at one position"
            print(f"| {n:,} {'rolls' if name == 'rolls' else 'deals'} | {min_n(cells, p, ALARM_P)} | {what} {f:.3g} times as likely |")


def main():
    if "--table" in sys.argv:
        table()
        return 0
    data = compute()
    if "--write" in sys.argv:
        VECTORS.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {VECTORS}")
        return 0
    bad = compare(data, json.loads(VECTORS.read_text()))
    for line in bad:
        print(f"check_stats: {line}", file=sys.stderr)
    if not bad:
        print(f"check_stats: {VECTORS.name} agrees with SciPy")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
