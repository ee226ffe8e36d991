#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz/) with clang, ASan and UBSan into build-fuzz/ and
# runs each for SECONDS (default 60), one after another, seeded from the examples, catalogs,
# calibration profiles and test fixtures. A crash or a broken invariant stops with the input
# saved in build-fuzz/artifacts/; turn it into a regression test. Summary at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"

scripts/install-deps.sh --fuzz
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DTRAINSCAPE_BUILD_FUZZERS=ON -DTRAINSCAPE_BUILD_GUI=OFF \
    -DTRAINSCAPE_BUILD_TESTS=OFF -DTRAINSCAPE_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-fuzz --parallel "$(nproc)"

seeds=build-fuzz/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{scenario,cluster_graph,gemm_csv,carbon_csv,nccl_log,catalog,calibration_profile,hf_config} \
    build-fuzz/artifacts build-fuzz/corpus
cp resources/examples/*.json "$seeds/scenario/"
cp tests/fuzz/seeds/graph.json "$seeds/cluster_graph/"
cp tests/fuzz/seeds/gemm.csv "$seeds/gemm_csv/"
cp tests/fuzz/seeds/grid.csv "$seeds/carbon_csv/"
cp tests/fixtures/nccl/*.txt "$seeds/nccl_log/"
cp resources/catalog/*.json "$seeds/catalog/"
cp resources/calibration/*.json tests/fixtures/nccl/*.json "$seeds/calibration_profile/"
for d in tests/fixtures/hf/*/; do
    [ -f "$d/config.json" ] && cp "$d/config.json" "$seeds/hf_config/$(basename "$d").json"
done

status=0
summary=()
for harness in build-fuzz/fuzz/fuzz_*; do
    name=$(basename "$harness")
    kind=${name#fuzz_}
    corpus=build-fuzz/corpus/$kind
    mkdir -p "$corpus"
    log=build-fuzz/$name.log
    echo "fuzz: $name for ${seconds}s"
    if "$harness" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix=build-fuzz/artifacts/"$name"- "$corpus" "$seeds/$kind" >"$log" 2>&1; then
        result="ok"
    else
        result="FAILED (see $log and build-fuzz/artifacts/)"
        status=1
    fi
    runs=$(grep -Eo '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
    summary+=("$name: ${runs:-0} runs in ${seconds}s, corpus $(ls "$corpus" | wc -l): $result")
done
printf '%s\n' "${summary[@]}"
exit "$status"
