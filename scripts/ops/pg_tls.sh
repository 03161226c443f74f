#!/usr/bin/env bash
# TLS to PostgreSQL as the URL's sslmode asks, through the real binary,
# against a server with ssl = on (PGHOST/PGPORT, default 127.0.0.1:5432,
# user postgres): with sslmode=require every connection of the service is
# TLS (pg_stat_ssl); with sslmode=verify-full and a root that did not sign
# the server's certificate the service refuses to start.
#
#   scripts/ops/pg_tls.sh          (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${FAIRSEED:-}" ]; then
  cargo build -q -p fairseed-cli
  FAIRSEED=$PWD/target/debug/fairseed
fi
host=${PGHOST:-127.0.0.1}
pgport=${PGPORT:-5432}
q() { psql -h "$host" -p "$pgport" -U postgres -Atc "$1"; }
[ "$(q 'SHOW ssl')" = on ] || { echo "pg_tls.sh: the server at $host:$pgport has ssl off" >&2; exit 2; }
db=ops_pg_tls_$$
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  dropdb -h "$host" -p "$pgport" -U postgres --if-exists "$db" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "pg_tls.sh: FAIL: $*" >&2; tail -5 "$work"/*.log >&2; exit 1; }
ok() { echo "ok - $*"; }
createdb -h "$host" -p "$pgport" -U postgres "$db"
P=$(python3 scripts/ops/free_port.py)
"$FAIRSEED" serve --listen "127.0.0.1:$P" --data-dir "$work/data" \
  --database "postgres://postgres@$host:$pgport/$db?sslmode=require" >"$work/require.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 300); do grep -q "serving on" "$work/require.log" && break; sleep 0.1; done
grep -q "serving on" "$work/require.log" || fail "sslmode=require: never listened"
curl -sf -X POST "http://127.0.0.1:$P/v1/players" >/dev/null || fail "no answer"
plain=$(q "SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.datname = '$db' AND NOT s.ssl")
tls=$(q "SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.datname = '$db' AND s.ssl")
[ "$tls" -gt 0 ] && [ "$plain" = 0 ] || fail "connections: $tls over TLS, $plain plain"
ok "sslmode=require: all $tls connections of the service use TLS"
kill "${pids[0]}"
wait "${pids[0]}" 2>/dev/null || true
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=other-ca \
  -keyout "$work/other.key" -out "$work/other.pem" 2>/dev/null
status=0
timeout 60 "$FAIRSEED" serve --listen 127.0.0.1:0 --data-dir "$work/data" \
  --database "postgres://postgres@$host:$pgport/$db?sslmode=verify-full&sslrootcert=$work/other.pem" \
  >"$work/verify.log" 2>&1 || status=$?
[ "$status" = 2 ] || fail "sslmode=verify-full with a foreign root: exit $status"
grep -q "connecting to PostgreSQL" "$work/verify.log" || fail "the refusal does not say what failed"
ok "sslmode=verify-full with a root that did not sign the server's certificate: refused (exit 2)"
echo "pg_tls.sh: all passed"
