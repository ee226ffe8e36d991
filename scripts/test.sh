#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test. The output ends with ctest's
# summary line.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh

# A throwaway PostgreSQL server for the library tests (scripts/test-postgres.sh).
source scripts/test-postgres.sh
log=$(mktemp)
trap 'stop_test_postgres; rm -f "$log"' EXIT
start_test_postgres
status=0
(cd build && ctest --output-on-failure --timeout 600) 2>&1 | tee "$log" || status=$?
summary=$(grep -E "tests passed, [0-9]+ tests failed out of" "$log" | tail -n 1 || true)
echo
echo "${summary:-ctest produced no summary line}"
exit "$status"
