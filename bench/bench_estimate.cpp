// One full estimate of a 1024-GPU plan: GPT-3 175B on 1024 A100 (DGX A100), tp 8, pp 16
// interleaved with vpp 3, dp 8, 192 micro-batches per step (18,432 schedule operations).
// - BM_EstimateCli: what `trainscape-cli estimate` runs (default settings): the schedule is
//   simulated until its steady state (48 micro-batches here, recorded as the timeline) and the
//   rest is shifted, exactly.
// - BM_EstimateSearch: the same without recording the timeline.
// - BM_EstimateCompleteTimeline: every one of the 18,432 operations simulated and recorded,
//   for a Gantt chart of the whole step.

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

const char* kScenario = R"({
  "format": "trainscape.scenario/1",
  "name": "GPT-3 175B on 1024 A100",
  "model": {"layers": 96, "hidden": 12288, "ffn_hidden": 49152, "heads": 96, "kv_heads": 96,
            "vocab": 51200, "mlp": "gelu", "tied_embeddings": true},
  "cluster": {"preset": "dgx-a100", "num_gpus": 1024},
  "training": {"seq_len": 2048, "global_batch": 1536, "micro_batch": 1, "precision": "bf16"},
  "parallelism": {"tp": 8, "pp": 16, "vpp": 3, "schedule": "interleaved",
                  "sequence_parallel": true, "zero": 1, "recompute": "selective"}
})";

const ts::ResolvedScenario& scenario() {
    static const ts::ResolvedScenario resolved = [] {
        ts::Diagnostics diags;
        auto parsed = ts::parseScenarioText(kScenario, diags);
        std::optional<ts::ResolvedScenario> r;
        if (parsed)
            r = ts::resolveScenario(*parsed, ts::Catalog::builtIn(), diags);
        if (!r) {
            for (const auto& d : diags.all())
                std::fprintf(stderr, "%s\n", d.toString().c_str());
            std::abort();
        }
        return *r;
    }();
    return resolved;
}

void BM_EstimateCli(benchmark::State& state) {
    const ts::ResolvedScenario& sc = scenario();
    for (auto _ : state) {
        ts::Diagnostics diags;
        auto e = ts::estimatePlan(sc, diags);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimateCli)->Unit(benchmark::kMicrosecond);

void BM_EstimateSearch(benchmark::State& state) {
    const ts::ResolvedScenario& sc = scenario();
    ts::EstimatorSettings settings = ts::defaultEstimatorSettings(sc);
    settings.recordTimeline = false;
    for (auto _ : state) {
        ts::Diagnostics diags;
        auto e = ts::estimatePlan(sc, settings, diags);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimateSearch)->Unit(benchmark::kMicrosecond);

// BM_EstimateSearch with the two-level alpha-beta collectives instead of the cluster graph's
// (core/topology, cached per cluster and group shape): the graph's cost per estimate.
void BM_EstimateSearchTwoLevel(benchmark::State& state) {
    const ts::ResolvedScenario& sc = scenario();
    ts::EstimatorSettings settings = ts::defaultEstimatorSettings(sc);
    settings.recordTimeline = false;
    settings.topologyCollectives = false;
    for (auto _ : state) {
        ts::Diagnostics diags;
        auto e = ts::estimatePlan(sc, settings, diags);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimateSearchTwoLevel)->Unit(benchmark::kMicrosecond);

void BM_EstimateCompleteTimeline(benchmark::State& state) {
    const ts::ResolvedScenario& sc = scenario();
    ts::EstimatorSettings settings = ts::defaultEstimatorSettings(sc);
    settings.maxScheduleEvents = std::int64_t(1) << 40;
    for (auto _ : state) {
        ts::Diagnostics diags;
        auto e = ts::estimatePlan(sc, settings, diags);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimateCompleteTimeline)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
