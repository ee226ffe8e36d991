// One full estimate of a 1024-GPU plan: GPT-3 175B on 1024 A100 (DGX A100), tp 8, pp 16
// interleaved with vpp 3, dp 8, 192 micro-batches per step (18,432 schedule operations).
// - BM_EstimateCli: what `trainscape-cli estimate` runs (default settings): the schedule is
//   simulated until its steady state (48 micro-batches here, recorded as the timeline) and the
//   rest is shifted, exactly.
// - BM_EstimateSearch: the same without recording the timeline.
// - BM_EstimateCompleteTimeline: every one of the 18,432 operations simulated and recorded,
//   for a Gantt chart of the whole step.
// - BM_PipelineZeroBubbleH1 / BM_PipelineZeroBubbleV: the zero-bubble schedule simulations
//   alone (ZB-H1, vpp 1; ZB-V, vpp 2) for p stages and m micro-batches, at the estimator's
//   default event budget (kScheduleEventBudget) and without a timeline, as in a plan search.

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "parallel/PipelineSchedule.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

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

// Stage times as the estimator gives them: equal layers per chunk (F 1, B 2.2 of which W
// 1 per stage), a little heavier first chunk (embedding) and last model chunk (output layer,
// loss), and a point-to-point delay.
void pipelineBenchmark(benchmark::State& state, int chunks) {
    const int p = static_cast<int>(state.range(0));
    const std::int64_t m = state.range(1);
    const std::size_t n = static_cast<std::size_t>(p) * chunks;
    std::vector<double> f(n, 1.0 / chunks), b(n, 2.2 / chunks), w(n, 1.0 / chunks);
    const int last =
        ts::modelChunkPlace(ts::PipelineScheduleKind::ZeroBubble, p, chunks, p * chunks - 1).stage;
    const int lastChunk = chunks - 1;
    f[0] += 0.05;
    b[0] += 0.1;
    f[static_cast<std::size_t>(last) * chunks + lastChunk] += 0.4;
    b[static_cast<std::size_t>(last) * chunks + lastChunk] += 0.8;
    ts::PipelineInput in;
    in.schedule = ts::PipelineScheduleKind::ZeroBubble;
    in.stages = p;
    in.chunks = chunks;
    in.microbatches = m;
    in.forwardSeconds = f.data();
    in.backwardSeconds = b.data();
    in.weightGradSeconds = w.data();
    in.edgeDelaySeconds = 0.02;
    for (auto _ : state) {
        ts::PipelineResult r = ts::simulatePipeline(in, nullptr, ts::kScheduleEventBudget);
        benchmark::DoNotOptimize(r);
    }
}

void BM_PipelineZeroBubbleH1(benchmark::State& state) {
    pipelineBenchmark(state, 1);
}
BENCHMARK(BM_PipelineZeroBubbleH1)
    ->ArgsProduct({{8, 16, 64}, {64, 256, 1024}})
    ->Unit(benchmark::kMicrosecond);

void BM_PipelineZeroBubbleV(benchmark::State& state) {
    pipelineBenchmark(state, 2);
}
BENCHMARK(BM_PipelineZeroBubbleV)
    ->ArgsProduct({{8, 16, 64}, {64, 256, 1024}})
    ->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
