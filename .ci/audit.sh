# Sourced by .ci/run (one line, before the build): PostgreSQL for `skillgraph audit`'s tests.
# Installs Debian's postgresql (and openssl, to make the server's self-signed certificate),
# starts a throwaway cluster in a temporary folder (initdb + pg_ctl; password authentication over
# TCP, TLS on with a self-signed certificate), and exports SKILLGRAPH_AUDIT_PG_URL, which
# server/tests/audit_postgres.rs reads: it loads the rows of the SQLite fixtures into it and
# asserts the same output from both. The cluster is stopped when the sourcing script exits, pass
# or fail (a watcher on its process, since .ci/run sets its own EXIT trap later).

audit_pg_setup() {
  local need=()
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
  command -v openssl >/dev/null || need+=(openssl)
  if ((${#need[@]})); then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
  fi
  local bin dir port password as_pg=()
  bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
  dir="$(mktemp -d)"
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  password="ci-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
  printf '%s\n' "$password" >"$dir/pw"
  # initdb refuses to run as root: the cluster belongs to the postgres user.
  if [[ $(id -u) -eq 0 ]]; then
    chown -R postgres:postgres "$dir"
    as_pg=(runuser -u postgres --)
  fi
  "${as_pg[@]}" "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$dir/pw" \
    --auth-local=trust --auth-host=scram-sha-256 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log"; return 1; }
  openssl req -new -x509 -days 2 -nodes -subj /CN=localhost \
    -keyout "$dir/data/server.key" -out "$dir/data/server.crt" 2>/dev/null
  chmod 600 "$dir/data/server.key"
  [[ $(id -u) -eq 0 ]] && chown postgres:postgres "$dir/data/server.key" "$dir/data/server.crt"
  "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c ssl=on" start >/dev/null \
    || { cat "$dir/server.log"; return 1; }
  # Stops the cluster once the CI script (this shell) is gone, however it ends.
  local parent=$$
  (
    while kill -0 "$parent" 2>/dev/null; do sleep 2; done
    "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1
    rm -rf "$dir"
  ) </dev/null >/dev/null 2>&1 &
  export SKILLGRAPH_AUDIT_PG_URL="postgresql://postgres:$password@127.0.0.1:$port/postgres"
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (TLS on), stopped when CI ends"
}
audit_pg_setup
