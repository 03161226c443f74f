"""Renders the results collected by compare.sh as a Markdown table."""
import json
import pathlib
import sys

out = pathlib.Path(sys.argv[1])
verify_n = int(sys.argv[2])


def criterion(group, bench):
    base = out / "criterion" / group / bench / "new"
    est = json.loads((base / "estimates.json").read_text())
    meta = json.loads((base / "benchmark.json").read_text())
    elements = meta["throughput"]["Elements"]
    ns = est["mean"]["point_estimate"]  # per iteration
    return elements / (ns * 1e-9)


def ref(name):
    return json.loads((out / name).read_text().splitlines()[0])["per_sec"]


def fmt(x):
    if x >= 1e6:
        return f"{x / 1e6:.2f} M/s"
    if x >= 1e3:
        return f"{x / 1e3:.1f} k/s"
    return f"{x:.1f} /s"


# openssl speed -mr: "+F:<n>:<alg>:<bytes per second>"; 8192-byte inputs ~ the bulk rate.
rates = {}
for line in (out / "openssl.txt").read_text().splitlines():
    _, _, alg, bps = line.split(":")
    rates[alg] = float(bps)
sha256_blocks = rates["sha256"] / 64
sha512_blocks = rates["sha512"] / 128

dice = criterion("dice_v1", "roll")
dice_many = criterion("dice_v1", "roll_many")
deal = criterion("match_seed_v2", "bridge_deal52")
deck = criterion("selfpoker", "deck")
deck_commit = criterion("selfpoker", "deck_and_commit")
root = criterion("poker_hmac_v1", "hand_value_deal_and_root")

rows = [
    # what, fairseed, reference, hash bound, goal
    ("dice rolls, batched (`roll_many`: bulk verify; 8 bets per AVX-512 pass, 4 per AVX2)", dice_many, ("Node, seeds/002 `roll`", ref("node-dice.json")),
     sha512_blocks / 2, "2 SHA-512 blocks at openssl's one-stream rate", 2.5e6),
    ("dice rolls, one at a time (`roll`: a server's bet)", dice, ("Node, seeds/002 `roll`", ref("node-dice.json")),
     sha512_blocks / 2, "2 SHA-512 blocks at openssl's one-stream rate", None),
    ("52-card deals (match_seed_v2 bridge; 16 words per AVX-512 pass, 2 per SHA-NI)", deal, ("Node, seeds/000 `shuffle`", ref("node-deal52.json")),
     sha256_blocks / (51 * 3), "51 words × 3 SHA-256 blocks at openssl's one-stream rate", 200e3),
    ("selfpoker decks (NumPy permutation(52))", deck, ("NumPy `default_rng(s).permutation(52)`", ref("numpy-selfpoker.json")),
     None, "no hash", 2.5e6),
    ("selfpoker deck + commit", deck_commit, None, None, "", None),
    ("poker hand: value, deck, 52 salts, 64-leaf Merkle root", root, None,
     sha256_blocks / (4 + 51 * 2 + 52 * 2 + 52 * 2 + 63 * 3), "~500 SHA-256 blocks", None),
]

print("| what (one core) | fairseed | reference code | reference | speed-up | hash bound | goal |")
print("|---|---|---|---|---|---|---|")
for what, ours, reference, bound, bound_note, goal in rows:
    ref_name, ref_rate = reference if reference else ("—", None)
    speedup = f"{ours / ref_rate:.0f}×" if ref_rate else "—"
    bound_s = f"{fmt(bound)} ({bound_note})" if bound else (bound_note or "—")
    goal_s = (f"≥ {fmt(goal)} {'✔' if ours >= goal else '✘'}") if goal else "—"
    print(f"| {what} | {fmt(ours)} | {ref_name} | {fmt(ref_rate) if ref_rate else '—'} | {speedup} | {bound_s} | {goal_s} |")
print(f"| SHA-256 / SHA-512 compressions (openssl speed, 8 KiB) | — | openssl | {fmt(sha256_blocks)} / {fmt(sha512_blocks)} | — | — | — |")

hf = json.loads((out / "hyperfine.json").read_text())
size = int((out / "dice.bytes").read_text())
rss_kib = int((out / "verify-rss.txt").read_text().split()[-1])
print()
print(f"`fairseed verify` on {verify_n:,} dice records ({size / 2**20:.0f} MiB JSON Lines), hyperfine, peak RSS {rss_kib / 1024:.0f} MiB:")
print()
print("| command | mean wall | ± | records/s | goal |")
print("|---|---|---|---|---|")
for r in hf["results"]:
    mean = r["mean"]
    # The goal is for 1,000,000 records; a shorter (--quick) run is scaled up to it.
    per_million = mean * 1_000_000 / verify_n
    goal = (f"1M in < 1 s {'✔' if per_million < 1 else '✘'}"
            + ("" if verify_n == 1_000_000 else f" (scaled: {per_million:.2f} s)")) if "all cores" in r["command"] else "—"
    print(f"| `fairseed {r['command']}` | {mean:.3f} s | {r['stddev'] or 0:.3f} s | {fmt(verify_n / mean)} | {goal} |")

print()
print(f"Machine: {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}, "
      f"load average (1/5/15 min) {(out / 'load-before.txt').read_text().strip()} before the run, "
      f"{(out / 'load-after.txt').read_text().strip()} after.")
