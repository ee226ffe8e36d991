#!/usr/bin/env bash
# Configures and builds Trainscape (Release) into build/; binaries land in build/bin/.
#   scripts/build.sh            everything: both programs, every test and benchmark
#   scripts/build.sh TARGET...  only those targets (scripts/run.sh: trainscape trainscape-cli)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
targets=()
for t in "$@"; do
    targets+=(--target "$t")
done
cmake --build build --parallel "$(nproc)" "${targets[@]}"
