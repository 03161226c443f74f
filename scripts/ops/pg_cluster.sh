# Sourced after lib.sh by the operator tests that run PostgreSQL clusters
# of their own (failover.sh, db_down.sh, alerts.sh): the newest server
# programs under /usr/lib/postgresql, each cluster in $work/NAME on a
# loopback port, all stopped (immediately) on exit before lib.sh's cleanup.
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "$name: no PostgreSQL server binaries under /usr/lib/postgresql" >&2; exit 2; }
as_pg=()
if [ "$(id -u)" = 0 ]; then as_pg=(runuser -u postgres --); fi
chmod 0777 "$work"
clusters=()
stop_clusters() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for c in "${clusters[@]}"; do
    "${as_pg[@]}" "$bin/pg_ctl" -D "$work/$c" stop -m immediate >/dev/null 2>&1 || true
  done
  cleanup
}
trap stop_clusters EXIT
# cluster_start NAME PORT [CONF LINES...]: a new cluster with a database
# `fairseed`, trust auth on 127.0.0.1, and the extra configuration lines.
cluster_start() {
  local c=$1 port=$2
  shift 2
  clusters+=("$c")
  "${as_pg[@]}" "$bin/initdb" -D "$work/$c" -U postgres --auth=trust >"$work/initdb-$c.log" 2>&1 ||
    fail "initdb $c"
  {
    echo "listen_addresses = '127.0.0.1'"
    echo "port = $port"
    echo "unix_socket_directories = '$work'"
    # What is tested is a killed process, not a power cut: the page cache
    # survives, and fsync would only slow this machine's disk.
    echo "fsync = off"
    printf '%s\n' "$@"
  } >>"$work/$c/postgresql.conf"
  "${as_pg[@]}" "$bin/pg_ctl" -D "$work/$c" -l "$work/$c.log" -w start >/dev/null ||
    fail "the cluster $c did not start"
  psql -h 127.0.0.1 -p "$port" -U postgres -Atc "CREATE DATABASE fairseed" >/dev/null
}
# psql_at PORT SQL: one query on the database `fairseed`, unaligned.
psql_at() { psql -h 127.0.0.1 -p "$1" -U postgres -d fairseed -Atc "$2"; }
