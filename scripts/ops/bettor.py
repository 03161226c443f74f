#!/usr/bin/env python3
"""Places dice bets one after another until killed, appending the id of each
acknowledged bet (a 200 answer) to a file, one a line, flushed at once: a
line there is a bet the service acknowledged.

    bettor.py BASE_URL TOKEN OUT_FILE KEY_PREFIX
"""
import json
import sys
import urllib.request

base, token, out, prefix = sys.argv[1:5]
body = json.dumps({"amount": 1, "condition": "under", "target": 5000}).encode()
i = 0
with open(out, "a", buffering=1) as acked:
    while True:
        i += 1
        req = urllib.request.Request(
            f"{base}/v1/dice/bets",
            data=body,
            headers={
                "Authorization": f"Bearer {token}",
                "Idempotency-Key": f"{prefix}{i}",
                "Content-Type": "application/json",
            },
        )
        try:
            with urllib.request.urlopen(req, timeout=5) as r:
                if r.status == 200:
                    acked.write(f"{json.load(r)['bet_id']}\n")
        except Exception:  # the service or its database is down: try again
            pass
