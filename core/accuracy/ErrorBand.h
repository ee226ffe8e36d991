#pragma once
// The error band of a step-time estimate (time.expected_error, shared/spec/scenario-format.md):
// from the validation residuals (predicted / measured - 1) of the published runs most like
// the scenario, the interval that held for 80% of them. Which runs are alike is a weighted
// distance over what decides how far off the model is (RunTraits, SimilarityWeights); the
// residuals themselves are computed at build time by tools/errorband from the current
// estimator, never written by hand. docs/error-band.md describes the method.

#include "estimate/Estimate.h"
#include "hardware/GpuGeneration.h"
#include "scenario/Enums.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

struct ResolvedScenario;

// What decides how far off the step-time model is for a run.
struct RunTraits {
    bool moe = false;
    GpuGeneration generation = GpuGeneration::Unknown;
    Precision precision = Precision::Bf16;
    CudaGraphs cudaGraphs = CudaGraphs::None;
    MoeDispatcher dispatcher = MoeDispatcher::AllToAll; // read for MoE runs only
    bool longContext = false;                           // cp > 1
    bool finetune = false;
    std::int64_t numGpus = 1;
    bool pytorch = false; // execution.framework "pytorch": whose kernels hold the memory
    bool operator==(const RunTraits&) const = default;
};

// One published run: its id and traits, and the estimator's residual on it.
struct ValidationResidual {
    std::string_view id;
    RunTraits traits;
    double residual = 0; // predicted / measured - 1, step time
};

RunTraits runTraitsOf(const ResolvedScenario& scenario);

// The distance between two runs: the sum of the weights of what differs. A run differing
// only in its size by 2x is 0.25 away; a dense run from an MoE run, 3.
struct SimilarityWeights {
    double moe = 3.0;             // dense vs mixture-of-experts: MoE has its own model and errors
    double generation = 1.0;      // Ampere / Hopper / Blackwell ...
    double precision = 1.0;       // BF16/FP16 vs FP8 vs NVFP4; FP8 vs MXFP8 counts half
    double cudaGraphs = 1.0;      // none vs full; none or full vs "layers" counts half
    double dispatcher = 0.5;      // MoE: all-to-all / all-gather vs DeepEP / HybridEP
    double longContext = 1.0;     // cp > 1 vs cp = 1
    double finetune = 1.0;        // fine-tuning vs pre-training
    double perGpuDoubling = 0.25; // per factor 2 in the GPU count ...
    double scaleCap = 1.0;        // ... up to this much (16x and beyond)
    double framework = 0.0;       // Megatron-LM vs PyTorch modules (the memory band only)
};
double runDistance(const RunTraits& a, const RunTraits& b, const SimilarityWeights& w = {});

// Which runs count as similar, and the interval's coverage.
struct ErrorBandRule {
    double maxDistance = 1.5; // farther runs are not similar
    int minCases = 8;         // fewer similar runs: no band (null)
    int nearestCases = 30;    // the nearest this many (and every run tied with the last)
    double coverage = 0.8;
    SimilarityWeights weights = {};
    const char* population = "published runs"; // what the basis text counts
};

// The rule of the peak-memory band (memory.expected_error, a project key; docs/error-band.md):
// what sets how far off the memory model is differs from the step time's. The kernel stack
// decides it first (Megatron-LM's and PyTorch's modules keep different tensors, and only
// PyTorch runs published their memory), then fine-tuning against pre-training and dense
// against MoE; the GPU generation, precision, CUDA graphs and dispatcher barely move which
// tensors are live, and the scale moves it less than the step time.
ErrorBandRule memoryErrorBandRule();

// The central interval of `values` that holds `coverage` of them: the (1 - c) / 2 and
// (1 + c) / 2 quantiles, linearly interpolated between order statistics (numpy's default, as
// tests/tst_accuracy.cpp computes its percentiles); for c = 0.8 the 10th and 90th percentiles.
struct Interval {
    double low = 0;
    double high = 0;
};
double quantile(std::vector<double> values, double q); // q in [0, 1]; 0 for no values
std::optional<Interval> centralInterval(std::vector<double> values, double coverage);

// The band for `scenario` from `runs`, leaving out the run called `excludeId` (the
// leave-one-out test). nullopt when fewer than rule.minCases runs are within maxDistance.
std::optional<ExpectedError> errorBand(const RunTraits& scenario,
                                       std::span<const ValidationResidual> runs,
                                       const ErrorBandRule& rule = {},
                                       std::string_view excludeId = {});

// "−4% … +6% on 31 similar runs": the band in words, for the CLI's text output.
std::string errorBandText(const ExpectedError& band);

} // namespace ts
