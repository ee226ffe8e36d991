#include "accuracy/ErrorBand.h"

#include "scenario/ResolvedScenario.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ts {

namespace {

// FP16 and BF16 run on the same tensor cores at the same peak; FP32 trains slower still but
// is far from every published run. FP8 and MXFP8 share the 8-bit peak with different
// scaling; NVFP4 has its own.
int precisionClass(Precision p) {
    switch (p) {
    case Precision::Fp32:
        return 0;
    case Precision::Fp16:
    case Precision::Bf16:
        return 1;
    case Precision::Fp8:
    case Precision::MxFp8:
        return 2;
    case Precision::NvFp4:
        return 3;
    }
    return 0;
}

double precisionDistance(Precision a, Precision b) {
    if (precisionClass(a) != precisionClass(b))
        return 1.0;
    return a == b || precisionClass(a) == 1 ? 0.0 : 0.5;
}

int graphsRank(CudaGraphs g) {
    return g == CudaGraphs::None ? 0 : g == CudaGraphs::Layers ? 1 : 2;
}

// DeepEP and HybridEP deduplicate tokens per destination and need no host sync per layer;
// all-to-all and all-gather do neither (shared/validation/README.md, "How the runs were
// executed").
bool syncFreeDispatch(MoeDispatcher d) {
    return d == MoeDispatcher::DeepEp || d == MoeDispatcher::HybridEp;
}

const char* precisionName(Precision p) {
    switch (p) {
    case Precision::Fp32:
        return "FP32";
    case Precision::Fp16:
        return "FP16";
    case Precision::Bf16:
        return "BF16";
    case Precision::Fp8:
        return "FP8";
    case Precision::MxFp8:
        return "MXFP8";
    case Precision::NvFp4:
        return "NVFP4";
    }
    return "";
}

const char* graphsName(CudaGraphs g) {
    return g == CudaGraphs::None     ? "no CUDA graphs"
           : g == CudaGraphs::Layers ? "per-layer CUDA graphs"
                                     : "full-iteration CUDA graphs";
}

std::string percentText(double fraction) {
    const long v = std::lround(100.0 * fraction);
    char buf[32];
    // U+2212 MINUS SIGN, as a typesetter writes a negative percentage.
    std::snprintf(buf, sizeof buf, "%s%ld%%", v < 0 ? "\u2212" : v > 0 ? "+" : "", std::labs(v));
    return buf;
}

struct Neighbour {
    double distance;
    const ValidationResidual* run;
};

// The basis in words: the scenario's traits and how many of the chosen runs share each.
std::string basisText(const RunTraits& s, const std::vector<Neighbour>& chosen,
                      std::size_t candidates, const ErrorBandRule& rule) {
    const std::size_t n = chosen.size();
    const auto share = [&](const std::string& what, auto same) {
        std::size_t k = 0;
        for (const Neighbour& c : chosen)
            k += same(c.run->traits) ? 1 : 0;
        return ", " + what + " " + std::to_string(k) + "/" + std::to_string(n);
    };
    char head[160];
    std::snprintf(head, sizeof head, "the %zu nearest of %zu %s (distance <= %.2g)", n, candidates,
                  rule.population, rule.maxDistance);
    std::string out = head;
    out += share(s.moe ? "MoE" : "dense", [&](const RunTraits& t) { return t.moe == s.moe; });
    out += share(gpuGenerationName(s.generation),
                 [&](const RunTraits& t) { return t.generation == s.generation; });
    out += share(precisionName(s.precision), [&](const RunTraits& t) {
        return precisionDistance(t.precision, s.precision) == 0.0;
    });
    out += share(graphsName(s.cudaGraphs),
                 [&](const RunTraits& t) { return t.cudaGraphs == s.cudaGraphs; });
    if (s.moe)
        out += share(syncFreeDispatch(s.dispatcher) ? "DeepEP/HybridEP dispatch"
                                                    : "all-to-all/all-gather dispatch",
                     [&](const RunTraits& t) {
                         return t.moe &&
                                syncFreeDispatch(t.dispatcher) == syncFreeDispatch(s.dispatcher);
                     });
    out += share(s.longContext ? "cp > 1" : "cp = 1",
                 [&](const RunTraits& t) { return t.longContext == s.longContext; });
    if (rule.weights.framework > 0)
        out += share(s.pytorch ? "PyTorch modules" : "Megatron-LM",
                     [&](const RunTraits& t) { return t.pytorch == s.pytorch; });
    const bool anyFinetune = std::any_of(chosen.begin(), chosen.end(),
                                         [](const Neighbour& c) { return c.run->traits.finetune; });
    if (s.finetune && !anyFinetune)
        out += ", fine-tuning (no published run is)";
    else if (s.finetune || anyFinetune)
        out += share(s.finetune ? "fine-tuning" : "pre-training",
                     [&](const RunTraits& t) { return t.finetune == s.finetune; });
    std::int64_t fewest = chosen.front().run->traits.numGpus, most = fewest;
    for (const Neighbour& c : chosen) {
        fewest = std::min(fewest, c.run->traits.numGpus);
        most = std::max(most, c.run->traits.numGpus);
    }
    return out + "; " + std::to_string(fewest) + "-" + std::to_string(most) + " GPUs";
}

} // namespace

RunTraits runTraitsOf(const ResolvedScenario& s) {
    RunTraits t;
    t.moe = s.model.moe.has_value();
    t.generation = gpuGeneration(s.cluster.gpuId, s.cluster.gpu.name);
    t.precision = s.training.precision;
    t.cudaGraphs = s.execution.cudaGraphs;
    t.dispatcher = s.execution.moeDispatcher;
    t.longContext = s.parallel.cp > 1;
    t.finetune = s.finetune.has_value();
    t.numGpus = std::max<std::int64_t>(1, s.cluster.numGpus);
    t.pytorch = s.execution.framework == Framework::Pytorch;
    return t;
}

ErrorBandRule memoryErrorBandRule() {
    ErrorBandRule r;
    r.population = "published memory figures";
    r.maxDistance = 1.0; // fine-tuning and pre-training (1.0 apart) do not mix with anything else
    SimilarityWeights& w = r.weights;
    w.framework = 3.0; // no Megatron-LM run published its memory: no band borrowed from PyTorch
    w.moe = 3.0;
    w.finetune = 1.0;
    w.longContext = 1.0;
    w.generation = 0.25;
    w.precision = 0.25;
    w.cudaGraphs = 0.0;
    w.dispatcher = 0.0;
    w.perGpuDoubling = 0.125;
    w.scaleCap = 0.5;
    return r;
}

double runDistance(const RunTraits& a, const RunTraits& b, const SimilarityWeights& w) {
    double d = 0;
    if (a.moe != b.moe)
        d += w.moe;
    // An unknown generation is like no other, itself included.
    if (a.generation != b.generation || a.generation == GpuGeneration::Unknown)
        d += w.generation;
    d += w.precision * precisionDistance(a.precision, b.precision);
    d += w.cudaGraphs * 0.5 * std::abs(graphsRank(a.cudaGraphs) - graphsRank(b.cudaGraphs));
    if (a.moe && b.moe && syncFreeDispatch(a.dispatcher) != syncFreeDispatch(b.dispatcher))
        d += w.dispatcher;
    if (a.longContext != b.longContext)
        d += w.longContext;
    if (a.finetune != b.finetune)
        d += w.finetune;
    if (a.pytorch != b.pytorch)
        d += w.framework;
    const double doublings = std::abs(std::log2(double(a.numGpus) / double(b.numGpus)));
    d += std::min(w.scaleCap, w.perGpuDoubling * doublings);
    return d;
}

double quantile(std::vector<double> values, double q) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const double pos = std::clamp(q, 0.0, 1.0) * double(values.size() - 1);
    const std::size_t lo = std::size_t(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (pos - double(lo)) * (values[hi] - values[lo]);
}

std::optional<Interval> centralInterval(std::vector<double> values, double coverage) {
    if (values.empty() || !(coverage > 0 && coverage <= 1))
        return std::nullopt;
    return Interval{quantile(values, (1 - coverage) / 2), quantile(values, (1 + coverage) / 2)};
}

std::optional<ExpectedError> errorBand(const RunTraits& scenario,
                                       std::span<const ValidationResidual> runs,
                                       const ErrorBandRule& rule, std::string_view excludeId) {
    std::vector<Neighbour> near;
    std::size_t candidates = 0;
    for (const ValidationResidual& r : runs) {
        if (!excludeId.empty() && r.id == excludeId)
            continue;
        ++candidates;
        const double d = runDistance(scenario, r.traits, rule.weights);
        if (d <= rule.maxDistance + 1e-12)
            near.push_back({d, &r});
    }
    if (near.size() < std::size_t(std::max(1, rule.minCases)))
        return std::nullopt;
    // Nearest first; ties by id, so the choice does not depend on the table's order.
    std::sort(near.begin(), near.end(), [](const Neighbour& a, const Neighbour& b) {
        return a.distance != b.distance ? a.distance < b.distance : a.run->id < b.run->id;
    });
    std::size_t keep = std::min(near.size(), std::size_t(std::max(1, rule.nearestCases)));
    while (keep < near.size() && near[keep].distance <= near[keep - 1].distance + 1e-12)
        ++keep; // every run as near as the last one kept
    near.resize(keep);
    std::vector<double> residuals;
    for (const Neighbour& c : near)
        residuals.push_back(c.run->residual);
    const auto interval = centralInterval(residuals, rule.coverage);
    if (!interval)
        return std::nullopt;
    return ExpectedError{interval->low, interval->high, int(near.size()),
                         basisText(scenario, near, candidates, rule)};
}

std::string errorBandText(const ExpectedError& band) {
    return percentText(band.low) + " \u2026 " + percentText(band.high) + " on " +
           std::to_string(band.cases) + " similar runs";
}

} // namespace ts
