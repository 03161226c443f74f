#!/usr/bin/env bash
# HTTPS and WSS through the real binary, with a test CA made here by openssl
# (no key is committed):
#   1. the service's own TLS listener: HTTPS requests, an event stream, a
#      hold'em table's WebSocket over wss;
#   2. SIGHUP reloads the certificate: new handshakes get the new one, an
#      event stream opened before keeps flowing, a broken file keeps the old;
#   3. nginx (Debian) with packaging/nginx/fairseed.conf in front of a plain
#      listener: HTTP, Server-Sent Events and the WebSocket over https/wss,
#      and X-Forwarded-For read only because the proxy is trusted: the
#      per-address signup limit and the access lines see each client; the
#      proxy connects from 127.0.0.2, the one address trusted, so a client
#      on 127.0.0.1 sending its own X-Forwarded-For straight to the service
#      is not believed (its signups share one bucket, its access lines name
#      127.0.0.1).
#
#   scripts/ops/tls.sh            (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
name=tls.sh
source "$(dirname "$0")/lib.sh"
root=$PWD
command -v nginx >/dev/null || { echo "tls.sh: nginx is not installed (apt-get install nginx-light)" >&2; exit 2; }

# A test CA and two server certificates for localhost (serials 0A and 0B).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
  -subj /CN=fairseed-test-ca -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
for n in a b; do
  serial=$([ $n = a ] && echo 0x0A || echo 0x0B)
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost \
    -keyout "$work/$n.key" -out "$work/$n.csr" 2>/dev/null
  openssl x509 -req -in "$work/$n.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" \
    -set_serial "$serial" -days 2 -out "$work/$n.pem" \
    -extfile <(printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n') 2>/dev/null
done
cp "$work/a.pem" "$work/cert.pem"
cp "$work/a.key" "$work/key.pem"
KEY=tls-test-operator-key-0123456789

start() { # start NAME CONFIG: runs the service, waits until it says where it serves
  "$FAIRSEED" serve --config "$2" >"$work/$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 200); do
    grep -q "serving on" "$work/$1.log" && return 0
    kill -0 "${pids[-1]}" 2>/dev/null || fail "$1 exited"
    sleep 0.1
  done
  fail "$1 never listened"
}
serial() { # the serial of the certificate a new handshake on port $1 gets
  openssl s_client -connect "127.0.0.1:$1" -servername localhost </dev/null 2>/dev/null |
    openssl x509 -noout -serial
}
signup() { # signup BASE [X-Forwarded-For [SOURCE]]: the status of POST /v1/players
  local h=()
  [ -n "${2:-}" ] && h=(-H "X-Forwarded-For: $2")
  [ -n "${3:-}" ] && h+=(--interface "$3")
  curl -s -o "$work/last.json" -w '%{http_code}' --cacert "$work/ca.pem" "${h[@]}" -X POST "$1/v1/players"
}
token() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["token"])' "$work/last.json"; }
bet() { # bet BASE TOKEN KEY
  curl -sf --cacert "$work/ca.pem" -H "Authorization: Bearer $2" -H "Idempotency-Key: $3" \
    -H 'Content-Type: application/json' -d '{"amount": 1, "condition": "under", "target": 5000}' \
    "$1/v1/dice/bets" >/dev/null
}
table() { # table BASE TOKEN: a live hold'em table's id
  curl -sf --cacert "$work/ca.pem" -H "Authorization: Bearer $2" -H 'Content-Type: application/json' \
    -d '{"ais": [1], "seats": 2}' "$1/v1/holdem/tables" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["table_id"])'
}
events_seen() { grep -c '^event: dice' "$1" 2>/dev/null || true; }

# 1. The service's own TLS listener.
P=$(port)
cat >"$work/tls.toml" <<TOML
listen = "127.0.0.1:$P"
data_dir = "$work/data"
operator_key = "$KEY"
tls_cert = "$work/cert.pem"
tls_key = "$work/key.pem"
log_format = "json"
TOML
start tls "$work/tls.toml"
grep -q "serving on https://127.0.0.1:$P" "$work/tls.log" || fail "not announced as https"
base=https://localhost:$P
[ "$(signup "$base")" = 201 ] || fail "POST /v1/players over https"
tok=$(token)
ok "https request verified against the test CA"
if curl -s -o /dev/null "http://127.0.0.1:$P/healthz"; then fail "plain http answered on the TLS port"; fi
ok "plain http is refused on the TLS port"
tid=$(table "$base" "$tok")
out=$(python3 scripts/ops/wsclient.py "wss://localhost:$P/v1/holdem/tables/$tid/ws" --cafile "$work/ca.pem")
[ "$out" = "message state" ] || fail "wss: $out"
ok "wss: a table's WebSocket says its state"

# 2. SIGHUP: an event stream opened on the old certificate keeps flowing.
[ "$(serial "$P")" = serial=0A ] || fail "first certificate: $(serial "$P")"
curl -sN --cacert "$work/ca.pem" -H "Authorization: Bearer $tok" "$base/v1/events?topic=dice" >"$work/sse-direct.out" &
pids+=($!)
sleep 0.5
bet "$base" "$tok" before-hup || fail "bet before SIGHUP"
cp "$work/b.pem" "$work/cert.pem"
cp "$work/b.key" "$work/key.pem"
kill -HUP "${pids[0]}"
for _ in $(seq 1 50); do grep -q "TLS certificate and key reloaded" "$work/tls.log" && break; sleep 0.1; done
grep -q "TLS certificate and key reloaded" "$work/tls.log" || fail "no reload logged"
[ "$(serial "$P")" = serial=0B ] || fail "after SIGHUP: $(serial "$P")"
ok "SIGHUP: new handshakes get the new certificate"
bet "$base" "$tok" after-hup || fail "bet after SIGHUP"
for _ in $(seq 1 50); do [ "$(events_seen "$work/sse-direct.out")" -ge 2 ] && break; sleep 0.1; done
[ "$(events_seen "$work/sse-direct.out")" -ge 2 ] || fail "the event stream opened before SIGHUP stopped"
ok "SIGHUP: an event stream opened before the reload still receives events"
echo "not a certificate" >"$work/cert.pem"
kill -HUP "${pids[0]}"
for _ in $(seq 1 50); do grep -q "TLS certificate not reloaded" "$work/tls.log" && break; sleep 0.1; done
grep -q "TLS certificate not reloaded" "$work/tls.log" || fail "a broken certificate was not reported"
[ "$(serial "$P")" = serial=0B ] || fail "a broken file replaced the certificate"
ok "SIGHUP with a broken file keeps the current certificate"
kill "${pids[0]}"
wait "${pids[0]}" 2>/dev/null || true

# 3. nginx in front, the service plain on the loopback, the proxy trusted
# (it connects from 127.0.0.2; 127.0.0.1 is an ordinary client here).
Q=$(port)
R=$(port)
cat >"$work/plain.toml" <<TOML
listen = "127.0.0.1:$Q"
data_dir = "$work/data"
operator_key = "$KEY"
trusted_proxies = ["127.0.0.2"]
signups_per_minute = 2
log_format = "json"
TOML
start plain "$work/plain.toml"
mkdir -p "$work/nginx"
sed -e "s|server 127.0.0.1:7878;|server 127.0.0.1:$Q;|" \
    -e "s|listen 443 ssl;|listen 127.0.0.1:$R ssl;|" \
    -e "/listen \[::\]:443 ssl;/d" \
    -e "s|/etc/ssl/fairseed/fullchain.pem|$work/a.pem|" \
    -e "s|/etc/ssl/fairseed/privkey.pem|$work/a.key|" \
    -e "s|proxy_pass http://fairseed;|proxy_pass http://fairseed; proxy_bind 127.0.0.2;|" \
    packaging/nginx/fairseed.conf >"$work/nginx/site.conf"
cat >"$work/nginx/nginx.conf" <<NGINX
daemon off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx.log;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    include $work/nginx/site.conf;
}
NGINX
nginx -t -c "$work/nginx/nginx.conf" -p "$work/nginx" >"$work/nginx-t.log" 2>&1 || fail "nginx -t"
nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" &
pids+=($!)
for _ in $(seq 1 50); do curl -s -o /dev/null --cacert "$work/ca.pem" "https://localhost:$R/healthz" && break; sleep 0.1; done
front=https://localhost:$R
# Clients of nginx on 127.0.0.3 and 127.0.0.4; the first also claims other
# addresses in its own X-Forwarded-For, which nginx passes on before the
# address it saw: the service takes the rightmost untrusted one, 127.0.0.3.
[ "$(signup "$front" "" 127.0.0.3)" = 201 ] || fail "through nginx: signup 1"
tok=$(token)
limited=
for i in $(seq 1 20); do
  code=$(signup "$front" "198.51.100.$i" 127.0.0.3)
  [ "$code" = 429 ] && { limited=yes; break; }
  [ "$code" = 201 ] || fail "through nginx: signup answered $code"
done
[ -n "$limited" ] || fail "through nginx: signups from one client claiming other addresses were never limited"
[ "$(signup "$front" "" 127.0.0.4)" = 201 ] || fail "through nginx: another client shared the first one's limit"
ok "nginx: https, and the per-address limit sees each client by the address nginx forwards, not the one it claims"
grep -q '"client":"127.0.0.4"' "$work/plain.log" || fail "the access line does not name the client"
! grep -q '"client":"198.51.100.' "$work/plain.log" || fail "a client's own X-Forwarded-For was believed"
ok "access lines carry the client's address"
direct=http://127.0.0.1:$Q
limited=
for i in $(seq 1 20); do
  code=$(signup "$direct" "203.0.113.$i" 127.0.0.5)
  [ "$code" = 429 ] && { limited=yes; break; }
  [ "$code" = 201 ] || fail "straight to the service: signup answered $code"
done
[ -n "$limited" ] || fail "an untrusted client choosing its X-Forwarded-For was never limited"
! grep -q '"client":"203.0.113.' "$work/plain.log" || fail "an untrusted client's X-Forwarded-For was believed"
ok "an untrusted client's own X-Forwarded-For is ignored: one bucket, its own address in the log"
curl -sN --cacert "$work/ca.pem" -H "Authorization: Bearer $tok" "$front/v1/events?topic=dice" >"$work/sse-proxy.out" &
pids+=($!)
sleep 0.5
bet "$front" "$tok" via-proxy || fail "bet through nginx"
for _ in $(seq 1 50); do [ "$(events_seen "$work/sse-proxy.out")" -ge 1 ] && break; sleep 0.1; done
[ "$(events_seen "$work/sse-proxy.out")" -ge 1 ] || fail "no event through nginx"
ok "nginx: Server-Sent Events arrive unbuffered"
tid=$(table "$front" "$tok")
out=$(python3 scripts/ops/wsclient.py "wss://localhost:$R/v1/holdem/tables/$tid/ws" --cafile "$work/ca.pem")
[ "$out" = "message state" ] || fail "wss through nginx: $out"
ok "nginx: a table's WebSocket over wss"
echo "tls.sh: all passed"
