#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz/) with clang, ASan and UBSan into build-fuzz/ and
# runs each for SECONDS (default 60), one after another, seeded from the examples, catalogs,
# calibration profiles and test fixtures. A crash or a broken invariant stops that harness with
# the input saved in build-fuzz/artifacts/; turn it into a regression test. Summary at the end:
# runs, seconds, corpus size and result per harness.
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]   e.g. scripts/fuzz.sh 600 fuzz_scenario
#   TRAINSCAPE_FUZZ_JOBS=2 scripts/fuzz.sh   build with 2 jobs (default: every core)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true

scripts/install-deps.sh --fuzz
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DTRAINSCAPE_BUILD_FUZZERS=ON -DTRAINSCAPE_BUILD_GUI=OFF \
    -DTRAINSCAPE_BUILD_TESTS=OFF -DTRAINSCAPE_BUILD_BENCHMARKS=OFF >/dev/null
all=(fuzz_scenario fuzz_cluster_graph fuzz_gemm_csv fuzz_carbon_csv fuzz_nccl_log fuzz_catalog
    fuzz_calibration_profile fuzz_hf_config fuzz_import_megatron fuzz_import_deepspeed
    fuzz_import_torchtitan fuzz_library_bundle)
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=("${all[@]}")
cmake --build build-fuzz --parallel "${TRAINSCAPE_FUZZ_JOBS:-$(nproc)}" --target "${harnesses[@]}"

seeds=build-fuzz/seeds
golden=tests/fixtures/export/golden
rm -rf "$seeds"
mkdir -p "$seeds" build-fuzz/artifacts build-fuzz/corpus
for kind in "${all[@]#fuzz_}"; do mkdir -p "$seeds/$kind"; done
cp resources/examples/*.json tests/fixtures/export/scenarios/*.json "$seeds/scenario/"
cp tests/fuzz/seeds/graph.json "$seeds/cluster_graph/"
cp tests/fuzz/seeds/gemm.csv "$seeds/gemm_csv/"
cp tests/fuzz/seeds/grid.csv "$seeds/carbon_csv/"
cp tests/fixtures/nccl/*.txt "$seeds/nccl_log/"
cp resources/catalog/*.json "$seeds/catalog/"
cp resources/calibration/*.json "$seeds/calibration_profile/"
for d in tests/fixtures/hf/*/; do
    [ -f "$d/config.json" ] && cp "$d/config.json" "$seeds/hf_config/$(basename "$d").json"
done
cp tests/fixtures/import/*.sh "$seeds/import_megatron/"
for d in "$golden"/*/; do
    name=$(basename "$d")
    for f in "$d"megatron/*.sh; do [ -f "$f" ] && cp "$f" "$seeds/import_megatron/$name.sh"; done
    [ -f "$d"deepspeed/ds_config.json ] &&
        cp "$d"deepspeed/ds_config.json "$seeds/import_deepspeed/$name.json"
    for f in "$d"torchtitan/*.toml; do
        [ -f "$f" ] && cp "$f" "$seeds/import_torchtitan/$name.toml"
    done
done
cp tests/fuzz/seeds/bundle.json "$seeds/library_bundle/"

status=0
summary=()
for name in "${harnesses[@]}"; do
    kind=${name#fuzz_}
    corpus=build-fuzz/corpus/$kind
    mkdir -p "$corpus"
    log=build-fuzz/$name.log
    echo "fuzz: $name for ${seconds}s"
    start=$(date +%s)
    if build-fuzz/fuzz/"$name" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=build-fuzz/artifacts/"$name"- \
        "$corpus" "$seeds/$kind" >"$log" 2>&1; then
        result="ok"
    else
        result="FAILED (see $log and build-fuzz/artifacts/)"
        status=1
    fi
    runs=$(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$log" | grep -Eo '[0-9]+$' || true)
    [ -n "$runs" ] || runs=$(grep -Eo '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
    size=$(find "$corpus" -type f | wc -l)
    summary+=("$name: ${runs:-0} runs in $(($(date +%s) - start))s, corpus $size: $result")
done
printf '%s\n' "${summary[@]}"
exit "$status"
