#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (with a throwaway PostgreSQL server for
# the library tests). With TRAINSCAPE_SANITIZERS=1 it then builds core, the CLI and their
# tests again with AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/, no GUI; the
# runtimes come with g++, libasan8 and libubsan1) and runs those too: any memory error, leak
# or undefined behaviour fails the test that hit it. The output ends with the sanitizer
# stage's summary and times, then ctest's summary line of the main build.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh

# A throwaway PostgreSQL server for the library tests (scripts/test-postgres.sh).
source scripts/test-postgres.sh
log=$(mktemp)
asan_log=$(mktemp)
trap 'stop_test_postgres; rm -f "$log" "$asan_log"' EXIT
start_test_postgres
status=0
(cd build && ctest --output-on-failure --timeout 600) 2>&1 | tee "$log" || status=$?
summary=$(grep -E "tests passed, [0-9]+ tests failed out of" "$log" | tail -n 1 || true)

# Sanitizers (issue 19): any memory error or undefined behaviour fails the test that hit it.
if [ "${TRAINSCAPE_SANITIZERS:-0}" = "1" ]; then
    start=$(date +%s)
    # -O1 -g1: the level the ASan authors advise, with line tables for the reports; cheaper to
    # compile than -O2 -g, which matters as CI compiles it from scratch.
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DTRAINSCAPE_SANITIZE=ON \
        -DTRAINSCAPE_BUILD_GUI=OFF -DTRAINSCAPE_BUILD_BENCHMARKS=OFF >/dev/null
    cmake --build build-asan --parallel "$(nproc)"
    built=$(date +%s)
    export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:strict_string_checks=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
    (cd build-asan && ctest --output-on-failure --timeout 1200) 2>&1 | tee "$asan_log" ||
        status=$?
    asan_summary=$(grep -E "tests passed, [0-9]+ tests failed out of" "$asan_log" | tail -n 1 ||
        true)
    echo
    echo "sanitizers (ASan+UBSan, build $((built - start)) s, tests $(($(date +%s) - built)) s):" \
        "${asan_summary:-no summary line}"
fi
echo
echo "${summary:-ctest produced no summary line}"
exit "$status"
