#!/usr/bin/env bash
# Runs the whole calibration suite on one GPU and writes its results into OUT_DIR:
#   profile.json     the calibration profile (trainscape.calibration/1): matmul, attention,
#                    HBM bandwidth, kernel overhead
#   e2e-runs.json    measured single-GPU training runs, in the validation case format
#   matmul.csv       every timed GEMM (trainscape-cli calibrate import-gemm reads it)
#   hbm.json, matmul.json, attention.json   the sweeps' own outputs (with the environment)
#   power.csv        board power sampled at 10 Hz during all steps (power_sampler.py)
#   phases.csv       each step's span (phase,start_s,end_s): idle, memory_bound,
#                    compute_bound, attention, training; the profile's "power" averages
#                    power.csv over the sweeps' GPU-busy spans ("busy" in their JSON) where
#                    they hold enough samples, else over these
#   run_all.log      everything printed
# Nine files, one folder: within what a device session brings back.
#
# Usage: [PROFILE_ID=id] tools/calibrate/run_all.sh OUT_DIR [TOTAL_BUDGET_S]
# TOTAL_BUDGET_S (default 420) is split among the sweeps; with interpreter and CUDA start-up
# and 5 s of idle power before the first sweep (not counted in the budget), the whole suite
# ends in about 8 minutes on an H100/H200. Nothing is downloaded.
set -uo pipefail

OUT=${1:?usage: run_all.sh OUT_DIR [TOTAL_BUDGET_S]}
TOTAL=${2:-420}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PY=${PYTHON:-python3}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1

# Shares of the budget: matmul 36%, attention 20%, end-to-end 40%, HBM ~ 4% (fixed work).
MATMUL_S=$((TOTAL * 36 / 100))
ATTENTION_S=$((TOTAL * 20 / 100))
E2E_S=$((TOTAL * 40 / 100))

status=0
run() {
    local name=$1
    shift
    echo "=== $name: $*"
    local t0=$SECONDS
    if ! "$@"; then
        echo "=== $name FAILED (the other steps go on)"
        status=1
    fi
    echo "=== $name took $((SECONDS - t0)) s"
}

# phase PHASE NAME COMMAND...: run() a step and append its span (unix seconds) to phases.csv.
PHASES="$OUT/phases.csv"
phase() {
    local phase=$1
    shift
    local start
    start=$(date +%s.%N)
    run "$@"
    echo "$phase,$start,$(date +%s.%N)" >>"$PHASES"
}

# The power sampler runs in the background from before the first step to before the profile.
SAMPLER=
stop_sampler() {
    if [ -n "$SAMPLER" ]; then
        kill -TERM "$SAMPLER" 2>/dev/null
        wait "$SAMPLER"
        SAMPLER=
    fi
}

{
    echo "=== tools/calibrate/run_all.sh into $OUT, budget ${TOTAL} s, $(date -u +%FT%TZ)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,power.limit,clocks.max.sm \
        --format=csv 2>/dev/null || echo "(nvidia-smi not available)"
    "$PY" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' || true
    echo "phase,start_s,end_s" >"$PHASES"
    "$PY" "$HERE/power_sampler.py" --out "$OUT/power.csv" --interval-ms 100 &
    SAMPLER=$!
    trap stop_sampler EXIT
    # Idle: the sampler is up, no process holds a CUDA context yet.
    phase idle idle sleep 5
    phase memory_bound hbm "$PY" "$HERE/hbm_bandwidth.py" --json "$OUT/hbm.json"
    phase compute_bound matmul "$PY" "$HERE/matmul_sweep.py" --csv "$OUT/matmul.csv" \
        --json "$OUT/matmul.json" --budget-s "$MATMUL_S"
    phase attention attention "$PY" "$HERE/attention_sweep.py" --json "$OUT/attention.json" \
        --budget-s "$ATTENTION_S"
    phase training e2e "$PY" "$HERE/e2e_train.py" --json "$OUT/e2e-runs.json" \
        --budget-s "$E2E_S"
    stop_sampler
    run profile "$PY" "$HERE/make_profile.py" --out "$OUT/profile.json" \
        ${PROFILE_ID:+--id "$PROFILE_ID"} --power "$OUT/power.csv" --phases "$PHASES" \
        "$OUT/hbm.json" "$OUT/matmul.json" "$OUT/attention.json"
    echo "=== done in $SECONDS s, status $status"
    exit "$status"
} 2>&1 | tee "$OUT/run_all.log"
exit "${PIPESTATUS[0]}"
