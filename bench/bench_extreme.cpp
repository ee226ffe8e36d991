// Bounded cost (issue 19): every scenario of bench/extreme/ — valid ones at the edges of
// scenario/Limits.h (the largest pp with each schedule, 10^7 micro-batches, ~10^6 GPUs, 10^4
// layers, 10^5 experts, a 10^8 vocabulary, a 2^30-token sequence) — resolved and estimated as
// `trainscape-cli estimate` does (with the timeline). One benchmark per file; the counters
// give the peak resident memory after it (ru_maxrss, which only grows, so the last one is
// the worst). tests/tst_extreme_corpus.cpp checks the same corpus under RLIMIT_AS.

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioResolver.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <sys/resource.h>

namespace {

double peakResidentMiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // KiB on Linux
}

void estimateFile(benchmark::State& state, const std::string& path) {
    for (auto _ : state) {
        ts::Diagnostics diags;
        auto resolved = ts::resolveScenarioFile(path, ts::Catalog::builtIn(), diags);
        if (!resolved) {
            state.SkipWithError(("refused: " + diags.all().front().toString()).c_str());
            return;
        }
        auto estimate = ts::estimatePlan(*resolved, diags);
        if (!estimate) {
            state.SkipWithError("not modelled");
            return;
        }
        benchmark::DoNotOptimize(estimate->stepSeconds);
    }
    state.counters["peak_rss_mib"] = peakResidentMiB();
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> files;
    for (const auto& entry :
         std::filesystem::directory_iterator(TRAINSCAPE_SOURCE_DIR "/bench/extreme"))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    for (const std::string& file : files)
        benchmark::RegisterBenchmark(std::filesystem::path(file).stem().c_str(),
                                     [file](benchmark::State& s) { estimateFile(s, file); })
            ->Unit(benchmark::kMillisecond)
            ->Iterations(1);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
