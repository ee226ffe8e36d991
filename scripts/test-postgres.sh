#!/usr/bin/env bash
# Sourced by scripts/test.sh: starts a throwaway PostgreSQL server for the library tests and
# exports its URL in TRAINSCAPE_TEST_POSTGRES_URL; stop_test_postgres (run at exit) stops it
# and deletes its files. The server listens on a Unix socket in its own temporary folder only
# (no TCP port), with scram-sha-256 passwords so the tests see a real password in the URL.
# initdb and postgres refuse to run as root: as root they run as the "postgres" user (from
# Debian's postgresql package) or "nobody".

pg_test_dir=""
pg_test_bin=""

stop_test_postgres() {
    if [ -n "$pg_test_dir" ] && [ -f "$pg_test_dir/data/postmaster.pid" ]; then
        pg_as_owner "$pg_test_bin/pg_ctl" -D "$pg_test_dir/data" -m immediate -w stop \
            >/dev/null 2>&1 || true
    fi
    if [ -n "$pg_test_dir" ]; then
        rm -rf "$pg_test_dir"
    fi
}

pg_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u "$pg_test_user" -- "$@"
    else
        "$@"
    fi
}

start_test_postgres() {
    pg_test_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$pg_test_bin" ] || [ ! -x "$pg_test_bin/initdb" ]; then
        echo "test-postgres: no PostgreSQL server found (Debian package postgresql)" >&2
        return 1
    fi
    pg_test_user=$(id -un)
    if [ "$(id -u)" -eq 0 ]; then
        pg_test_user=postgres
        id postgres >/dev/null 2>&1 || pg_test_user=nobody
    fi
    pg_test_dir=$(mktemp -d /tmp/trainscape-pg.XXXXXX)
    local password
    password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
    printf '%s\n' "$password" >"$pg_test_dir/pwfile"
    if [ "$(id -u)" -eq 0 ]; then
        chown -R "$pg_test_user" "$pg_test_dir"
    fi
    pg_as_owner "$pg_test_bin/initdb" -D "$pg_test_dir/data" -U trainscape \
        --auth=scram-sha-256 --pwfile="$pg_test_dir/pwfile" --no-sync -E UTF8 \
        >"$pg_test_dir/initdb.log" 2>&1 || { cat "$pg_test_dir/initdb.log" >&2; return 1; }
    rm -f "$pg_test_dir/pwfile"
    pg_as_owner "$pg_test_bin/pg_ctl" -D "$pg_test_dir/data" -l "$pg_test_dir/server.log" -w \
        -o "-c listen_addresses='' -k $pg_test_dir -c fsync=off -c max_connections=60" start \
        >/dev/null || { cat "$pg_test_dir/server.log" >&2; return 1; }
    PGPASSWORD="$password" "$pg_test_bin/createdb" -h "$pg_test_dir" -U trainscape \
        trainscape_test || return 1
    export TRAINSCAPE_TEST_POSTGRES_URL="postgresql://trainscape:${password}@/trainscape_test?host=${pg_test_dir}"
    # The URL holds the password: say where the server is, never the URL itself.
    echo "test-postgres: PostgreSQL $("$pg_test_bin/postgres" --version | awk '{print $3}') on" \
        "the socket in $pg_test_dir (URL in TRAINSCAPE_TEST_POSTGRES_URL)"
}
