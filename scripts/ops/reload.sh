#!/usr/bin/env bash
# SIGHUP (`systemctl reload`) through the real binary, without TLS, as the
# packaged configuration runs it:
#   1. a SIGHUP with the file unchanged: the process stays and says so;
#   2. the file lowers `rate_limit`, sets `log_level` and changes
#      `header_timeout`: the limit applies to the next requests, the level
#      is taken, `header_timeout` is named as waiting for a restart;
#   3. a file that no longer parses changes nothing and says why;
#   4. SIGTERM still ends it with status 0.
#
#   scripts/ops/reload.sh          (FAIRSEED=path/to/fairseed to skip the build)
set -euo pipefail
name=reload.sh
source "$(dirname "$0")/lib.sh"
P=$(port)
base=http://127.0.0.1:$P
conf=$work/fairseed.toml
printf 'data_dir = "%s"\nrate_limit = 100\n' "$work/data" >"$conf"
serve serve.log --config "$conf" || fail "start"
tok=$(new_player)
me() { curl -s -o /dev/null -w '%{http_code}\n' -H "Authorization: Bearer $tok" "$base/v1/me"; }
alive() { kill -0 "$server" 2>/dev/null && [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/healthz")" = 200 ]; }
hangup() { # hangup N: SIGHUP, then until the log holds N reload outcomes
  kill -HUP "$server"
  for _ in $(seq 1 100); do
    [ "$(grep -c '"SIGHUP: ' "$work/serve.log")" -ge "$1" ] && return 0
    sleep 0.1
  done
  fail "no log line for SIGHUP $1"
}

hangup 1
alive || fail "the process did not survive a SIGHUP without TLS"
grep -q '"SIGHUP: configuration reloaded"' "$work/serve.log" || fail "no reload line"
ok "SIGHUP without TLS: still serving, logged"
[ "$(for _ in $(seq 1 20); do me; done | grep -c 429)" = 0 ] || fail "429 at rate_limit = 100"

printf 'data_dir = "%s"\nrate_limit = 1\nlog_level = "warn"\nheader_timeout = 5\n' "$work/data" >"$conf"
hangup 3
alive || fail "the process did not survive the second SIGHUP"
reloaded=$(grep '"SIGHUP: configuration reloaded"' "$work/serve.log" | tail -1)
case $reloaded in *log_level*rate_limit* | *rate_limit*log_level*) ;; *) fail "the reload does not name log_level and rate_limit: $reloaded" ;; esac
grep '"SIGHUP: these options changed' "$work/serve.log" | grep -q 'header_timeout' ||
  fail "header_timeout not named as needing a restart"
limited=$(for _ in $(seq 1 20); do me; done | grep -c 429 || true)
[ "$limited" -gt 0 ] || fail "rate_limit = 1 was not applied (no 429 in 20 requests)"
ok "rate_limit 100 -> 1 applied ($limited of 20 requests refused with 429); header_timeout named as needing a restart"
lines=$(grep -c '"fairseed::access"' "$work/serve.log")
me >/dev/null
[ "$(grep -c '"fairseed::access"' "$work/serve.log")" = "$lines" ] || fail "log_level = warn still writes access lines"
ok "log_level = warn applied (no access line after the reload)"

echo 'rate_limit = "many"' >"$conf"
kill -HUP "$server"
for _ in $(seq 1 100); do grep -q 'the configuration was not reloaded' "$work/serve.log" && break; sleep 0.1; done
grep -q 'the configuration was not reloaded' "$work/serve.log" || fail "a broken file was not reported"
alive || fail "a broken file on SIGHUP stopped the service"
ok "a file that does not parse: reported, nothing changed, still serving"

kill -TERM "$server"
status=0
wait "$server" || status=$?
[ "$status" = 0 ] || fail "exit status $status after SIGTERM"
ok "SIGTERM after the reloads: exit 0"
echo "reload.sh: all passed"
