"""Selfpoker decks per second with the seed's own reference line (seeds/004):
numpy.random.default_rng(seed).permutation(52), plus the commitment it sits with.
Usage: python3 selfpoker.py [N]"""
import hashlib
import json
import sys
import time

import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
checksum = 0
t0 = time.perf_counter()
for graine in range(n):
    paquet = list(np.random.default_rng(graine).permutation(52))
    checksum += int(paquet[0])
secs = time.perf_counter() - t0
print(json.dumps({"what": "selfpoker decks (numpy reference)", "n": n, "secs": secs,
                  "per_sec": n / secs, "checksum": checksum, "numpy": np.__version__}))
# The commitment costs one SHA-256 per deck; measured apart so the deck rate stays NumPy's.
t0 = time.perf_counter()
for graine in range(n):
    hashlib.sha256(f"selfpoker:{graine}".encode()).hexdigest()
secs = time.perf_counter() - t0
print(json.dumps({"what": "selfpoker commits (python hashlib)", "n": n, "secs": secs, "per_sec": n / secs}))
