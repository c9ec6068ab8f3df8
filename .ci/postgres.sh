# Sourced by .ci/run: start the machine's PostgreSQL cluster, create a role and a test
# database, and export DATABASE_URL for the tests marked "postgres" (they skip without it).
# Never fails the run: without PostgreSQL those tests are skipped, and the run says so.

mayagames_start_postgres() {
  if [ -n "${DATABASE_URL:-}" ]; then
    echo "postgres: using the given DATABASE_URL"; return 0
  fi
  if ! command -v pg_lsclusters >/dev/null 2>&1; then
    echo "postgres: not installed; the PostgreSQL tests will be skipped"; return 0
  fi
  local as_postgres="runuser -u postgres --"
  if [ "$(id -u)" -ne 0 ]; then as_postgres="sudo -n -u postgres"; fi
  local version cluster port
  if [ -z "$(pg_lsclusters --no-header 2>/dev/null)" ]; then
    version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    pg_createcluster "$version" main >/dev/null || true
  fi
  read -r version cluster port _ < <(pg_lsclusters --no-header 2>/dev/null | head -n 1) || true
  if [ -z "${port:-}" ]; then
    echo "postgres: no cluster could be created; the PostgreSQL tests will be skipped"; return 0
  fi
  pg_ctlcluster "$version" "$cluster" start >/dev/null 2>&1 || true
  if ! $as_postgres psql -p "$port" -tAc "SELECT 1" >/dev/null 2>&1; then
    echo "postgres: cluster $version/$cluster did not start; the PostgreSQL tests will be skipped"
    return 0
  fi
  $as_postgres psql -p "$port" -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'mayagames'" | grep -q 1 \
    || $as_postgres psql -p "$port" -qc "CREATE ROLE mayagames LOGIN PASSWORD 'mayagames'"
  $as_postgres psql -p "$port" -tAc "SELECT 1 FROM pg_database WHERE datname = 'mayagames_test'" | grep -q 1 \
    || $as_postgres createdb -p "$port" -O mayagames mayagames_test
  export DATABASE_URL="postgresql://mayagames:mayagames@127.0.0.1:${port}/mayagames_test"
  echo "postgres: $version/$cluster on port $port, DATABASE_URL exported"
}

mayagames_start_postgres
