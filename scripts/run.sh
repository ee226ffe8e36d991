#!/usr/bin/env bash
# Installs what is missing, builds, and opens Trainscape on a bundled example scenario.
# With no display, prints that example's estimate from trainscape-cli instead.
#   scripts/run.sh [SCENARIO.json]
set -euo pipefail
cd "$(dirname "$0")/.."
scenario="${1:-resources/examples/llama3-70b-64xh100.json}"

scripts/install-deps.sh
# The two programs only: no tests or benchmarks to open the window.
scripts/build.sh trainscape trainscape-cli

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec build/bin/trainscape "$scenario"
fi
echo "run: no display found: printing the estimate of $scenario from trainscape-cli"
echo "     (on a desktop, this command opens the Trainscape window instead)"
status=0
build/bin/trainscape-cli estimate "$scenario" || status=$?
if [ "$status" -eq 3 ]; then
    build/bin/trainscape-cli validate "$scenario"
fi
exit "$status"
