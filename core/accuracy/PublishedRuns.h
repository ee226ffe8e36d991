#pragma once
// The published measured runs (tests/data/published-dev.json, a copy of shared/validation)
// estimated by the current estimator: each run's traits and step-time residual, the input of
// the error band (accuracy/ErrorBand.h). tools/errorband writes them into a generated table
// at build time; tst_error_band checks that the table still matches the estimator.

#include "accuracy/ErrorBand.h"
#include "estimate/Estimate.h"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts {

struct PublishedRun {
    std::string id;
    RunTraits traits;
    double measuredSeconds = 0;
    double predictedSeconds = 0;
    double residual() const { return predictedSeconds / measuredSeconds - 1; }
};

struct PublishedRuns {
    std::vector<PublishedRun> runs;
    // "id: why" of each case with a step time that did not estimate (the accuracy test
    // reports them; the band leaves them out).
    std::vector<std::string> notEstimated;
};

// Every case of `cases` (the dev set's array) with a measured step time, estimated with the
// built-in catalog and the estimator's default settings.
PublishedRuns estimatePublishedRuns(const nlohmann::json& cases);

// The estimate's figure for what a source measured (measured.memory_metric): PyTorch's
// allocated peak for "allocated" and "active", its reserved peak for "reserved", else the
// device's peak_bytes (unstated, "nvidia-smi").
double peakMemoryForMetric(const Estimate& estimate, const std::string& metric);

// A case whose weights and optimizer states alone exceed the GPU although the run fit: its
// optimizer lived outside the GPU (bitsandbytes' paged optimizers allocate CUDA unified
// memory, which torch's allocator neither counts nor keeps resident).
bool pagedOptimizerCase(const Estimate& estimate);

// A published peak-memory figure and the estimate of it, for the memory band.
struct PublishedMemoryRun {
    std::string id;
    RunTraits traits;
    double measuredBytes = 0;
    double predictedBytes = 0;
    double residual() const { return predictedBytes / measuredBytes - 1; }
};

struct PublishedMemory {
    std::vector<PublishedMemoryRun> runs;
    std::vector<std::string> notEstimated; // "id: why"
    std::vector<std::string> leftOut;      // "id: why": contradicted by their own data
};

// Every case with a measured peak memory (measured.peak_memory_gib) in each of `caseArrays`,
// estimated as published, leaving out the ids of `inconsistent` (id -> why) and the cases
// whose weights and optimizer states alone exceed the GPU although the run fit (a paged
// optimizer, outside torch's allocator).
PublishedMemory estimatePublishedMemory(const std::vector<nlohmann::json>& caseArrays,
                                        const nlohmann::json& inconsistent);

} // namespace ts
