#!/usr/bin/env bash
# Configures and builds Trainscape (Release) into build/; binaries land in build/bin/.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --parallel "$(nproc)"
