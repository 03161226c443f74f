#!/usr/bin/env bash
# The OpenAPI document is exactly as strict as the server: Schemathesis
# generates requests from it against the real binary, in its positive and
# negative modes, and fails on any 5xx, any schema-valid request refused
# (a 4xx other than 401/403/404/409/429) and any schema-invalid request
# accepted. Run by scripts/test.sh; bounded to about 3 minutes.
#
# Covered: the routes outside poker, matches, chess and records (those
# routes' documents are checked by their own tests), less `GET /v1/events`,
# whose answer is an endless stream. Strings are generated as ASCII: the
# client seed's limit is 64 UTF-8 bytes, which JSON Schema's maxLength (in
# characters) states exactly only for ASCII; the non-ASCII rules are tested
# in Rust (crates/core/src/seed.rs, crates/server/tests/inputs.rs). One
# worker: with two, CPython 3.11's AST compiler raised "recursion depth
# mismatch" inside Schemathesis's generator threads.
set -euo pipefail
cd "$(dirname "$0")/../.."

SECONDS_PER_RUN=${SECONDS_PER_RUN:-75}
OPERATOR_KEY="operator-key-for-schemathesis-only"

# Pinned: the version these runs were checked with.
SCHEMATHESIS_VERSION=4.32.5
if [[ "$(schemathesis --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1)" != "$SCHEMATHESIS_VERSION" ]]; then
  python3 -m pip install -q "schemathesis==$SCHEMATHESIS_VERSION" >/dev/null
fi
cargo build -q -p fairseed-server --bin fairseed-server --locked
BIN=${CARGO_TARGET_DIR:-target}/debug/fairseed-server

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

RUST_LOG=warn "$BIN" --listen 127.0.0.1:0 --data-dir "$WORK/data" --operator-key "$OPERATOR_KEY" \
  --rate-limit 0 --signups-per-minute 0 --auth-failures-per-minute 0 >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
URL=""
for _ in $(seq 300); do
  URL=$(grep -o 'http://[0-9.:]*' "$WORK/server.log" | head -1 || true)
  [[ -n "$URL" ]] && break
  sleep 0.1
done
[[ -n "$URL" ]] || { echo "schemathesis.sh: the server did not start" >&2; cat "$WORK/server.log" >&2; exit 1; }
TOKEN=$(python3 -c 'import json,sys,urllib.request as u; print(json.load(u.urlopen(u.Request(sys.argv[1] + "/v1/players", method="POST")))["token"])' "$URL")

# run LABEL CREDENTIAL PATH_REGEX
run() {
  echo "== schemathesis: $1"
  schemathesis run "$URL/v1/openapi.json" \
    --header "Authorization: Bearer $2" \
    --include-path-regex "$3" \
    --mode all --phases coverage,fuzzing \
    --checks not_a_server_error,negative_data_rejection,positive_data_acceptance \
    --generation-codec ascii --generation-deterministic \
    --max-time "$SECONDS_PER_RUN" --request-timeout 10 --workers 1
}
run "player routes" "$TOKEN" '^/(healthz|metrics|v1/(openapi\.json|players|me|seeds.*|dice/bets|selfpoker/.*))$'
run "operator players" "$OPERATOR_KEY" '^/v1/operator/players.*$'
