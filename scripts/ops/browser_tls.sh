#!/usr/bin/env bash
# The player page and a live table in headless Chromium over https/wss,
# against the service's own TLS listener with a certificate from a test CA
# made here (nothing committed). Needs /usr/bin/chromium and web/'s
# node_modules (`npm ci` in web/).
#
#   scripts/ops/browser_tls.sh     (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${FAIRSEED:-}" ]; then
  cargo build -q -p fairseed-cli
  FAIRSEED=$PWD/target/debug/fairseed
fi
[ -d web/node_modules/playwright-core ] || { echo "browser_tls.sh: run npm ci in web/ first" >&2; exit 2; }
work=$(mktemp -d)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
  -subj /CN=fairseed-test-ca -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost \
  -keyout "$work/key.pem" -out "$work/cert.csr" 2>/dev/null
openssl x509 -req -in "$work/cert.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -set_serial 1 -days 2 \
  -out "$work/cert.pem" -extfile <(printf 'subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n') 2>/dev/null
spki=$(openssl x509 -in "$work/cert.pem" -pubkey -noout | openssl pkey -pubin -outform der |
  openssl dgst -sha256 -binary | base64)
P=$(python3 scripts/ops/free_port.py)
"$FAIRSEED" serve --listen "127.0.0.1:$P" --data-dir "$work/data" --tls-cert "$work/cert.pem" \
  --tls-key "$work/key.pem" --holdem-ai-delay-ms 100 --holdem-next-hand-ms 200 >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 200); do grep -q "serving on https://" "$work/serve.log" && break; sleep 0.1; done
grep -q "serving on https://" "$work/serve.log" || { tail "$work/serve.log" >&2; exit 1; }
BASE="https://localhost:$P" SPKI="$spki" node scripts/ops/browser_tls.mjs
echo "browser_tls.sh: all passed"
