#include "PlanDegreeOptions.h"

#include "CoreMessages.h"
#include "ScenarioDocument.h"

#include "catalog/Catalog.h"
#include "scenario/ScenarioPaths.h"
#include "scenario/ScenarioResolver.h"

#include <QFile>

#include <algorithm>

namespace ts::gui {

namespace {

// The GPU count as the scenario now stands (the last resolved one may be older).
std::int64_t gpuCount(const ScenarioDocument& document, const ResolvedScenario& r) {
    const auto gpus = document.effectiveValue("/cluster/num_gpus");
    return gpus && gpus->is_number_integer() ? gpus->get<std::int64_t>() : r.cluster.numGpus;
}

int degreeOf(const ResolvedScenario& r, const std::string& key) {
    const ParallelConfig& p = r.parallel;
    if (key == "tp")
        return p.tp;
    if (key == "pp")
        return p.pp;
    if (key == "cp")
        return p.cp;
    if (key == "ep")
        return p.ep;
    if (key == "etp")
        return p.etp;
    return p.vpp;
}

// Divisors of the GPU count up to a sensible bound per dimension (and the current value,
// so that it is always listed).
std::vector<int> candidates(const ResolvedScenario& r, std::int64_t numGpus, const std::string& key,
                            int current) {
    int bound = 64;
    if (key == "vpp")
        bound = 16;
    else if (key == "ep" || key == "etp")
        bound = r.model.moe ? std::max(1, r.model.moe->experts) : 8;
    else if (key == "pp")
        bound = std::max(1, std::min(r.model.layers, 128));
    std::vector<int> values;
    for (int d = 1; d <= bound; ++d)
        if (key == "vpp" ? true : numGpus % d == 0)
            values.push_back(d);
    if (key == "vpp") // a handful of chunk counts is what anyone chooses between
        values.erase(std::remove_if(values.begin(), values.end(),
                                    [](int v) { return v > 8 && v != 10 && v != 16; }),
                     values.end());
    if (std::find(values.begin(), values.end(), current) == values.end())
        values.push_back(current);
    std::sort(values.begin(), values.end());
    return values;
}

// `degree`, offered when the scenario with `changes` still resolves, else disabled with the
// first of core's reasons.
DegreeOption optionWith(const ScenarioDocument& document,
                        const std::vector<ScenarioValueChange>& changes, int degree) {
    DegreeOption option{degree, true, {}};
    Diagnostics diags;
    const std::optional<Scenario> scenario = document.withChanges(changes, diags);
    if (scenario && !diags.hasErrors())
        resolveScenario(
            withPathsBesideFile(*scenario, QFile::encodeName(document.filePath()).toStdString()),
            Catalog::builtIn(), diags);
    if (diags.hasErrors()) {
        option.enabled = false;
        const Diagnostic first = diags.errors().front();
        option.reason = PlanDegreeOptions::tr("Not available: %1 (%2)")
                            .arg(diagnosticText(first), QString::fromStdString(first.path));
    }
    return option;
}

} // namespace

int PlanDegreeOptions::currentDegree(const ScenarioDocument& document, const std::string& key) {
    const auto value = document.explicitValue("/parallelism/" + key);
    if (value && value->is_number_integer())
        return value->get<int>();
    const std::optional<ResolvedScenario>& r = document.lastResolved();
    return r ? degreeOf(*r, key) : 1;
}

std::optional<std::int64_t> PlanDegreeOptions::derivedDp(const ScenarioDocument& document) {
    const auto gpus = document.effectiveValue("/cluster/num_gpus");
    if (!gpus || !gpus->is_number_integer())
        return std::nullopt;
    const std::int64_t modelParallel = std::int64_t(currentDegree(document, "tp")) *
                                       currentDegree(document, "pp") *
                                       currentDegree(document, "cp");
    if (modelParallel <= 0 || gpus->get<std::int64_t>() % modelParallel != 0)
        return std::nullopt;
    return gpus->get<std::int64_t>() / modelParallel;
}

std::vector<ScenarioValueChange> PlanDegreeOptions::followingDp(const ScenarioDocument& document,
                                                                std::int64_t numGpus, int tp,
                                                                int pp, int cp) {
    std::vector<ScenarioValueChange> changes;
    const std::int64_t modelParallel = std::int64_t(tp) * pp * cp;
    const bool divides = modelParallel > 0 && numGpus % modelParallel == 0;
    const auto dpShard = document.explicitValue("/parallelism/dp_shard");
    if (dpShard && dpShard->is_number_integer() && divides &&
        (numGpus / modelParallel) % dpShard->get<std::int64_t>() != 0)
        changes.push_back({"/parallelism/dp_shard", nullptr}); // back to dp (full sharding)
    const auto dp = document.explicitValue("/parallelism/dp");
    if (dp && !dp->is_null()) {
        // When the product does not divide the GPU count no dp fits; leaving dp to the
        // resolver then gives the message that says so.
        if (divides)
            changes.push_back({"/parallelism/dp", numGpus / modelParallel});
        else
            changes.push_back({"/parallelism/dp", nullptr});
    }
    return changes;
}

std::vector<ScenarioValueChange>
PlanDegreeOptions::changesForGpuCount(const ScenarioDocument& document, std::int64_t numGpus) {
    std::vector<ScenarioValueChange> changes{{"/cluster/num_gpus", numGpus}};
    for (ScenarioValueChange& change :
         followingDp(document, numGpus, currentDegree(document, "tp"),
                     currentDegree(document, "pp"), currentDegree(document, "cp")))
        changes.push_back(std::move(change));
    return changes;
}

std::vector<ScenarioValueChange> PlanDegreeOptions::changesFor(const ScenarioDocument& document,
                                                               const std::string& key, int degree) {
    std::vector<ScenarioValueChange> changes{{"/parallelism/" + key, degree}};
    const std::optional<ResolvedScenario>& r = document.lastResolved();
    if (!r)
        return changes;
    auto degree_ = [&](const char* k) { return key == k ? degree : currentDegree(document, k); };
    for (ScenarioValueChange& change :
         followingDp(document, gpuCount(document, *r), degree_("tp"), degree_("pp"), degree_("cp")))
        changes.push_back(std::move(change));
    if (key == "pp" || key == "vpp") {
        const auto layers = document.explicitValue("/parallelism/pipeline_layers");
        if (layers && !layers->is_null())
            changes.push_back({"/parallelism/pipeline_layers", nullptr});
    }
    return changes;
}

std::vector<DegreeOption> PlanDegreeOptions::dpShardOptions(const ScenarioDocument& document) {
    std::vector<DegreeOption> result;
    const std::optional<ResolvedScenario>& r = document.lastResolved();
    if (!r)
        return result;
    const std::int64_t dp = derivedDp(document).value_or(r->parallel.dp);
    std::vector<std::int64_t> divisors;
    for (std::int64_t d = 1; d * d <= dp; ++d)
        if (dp % d == 0) {
            divisors.push_back(d);
            if (d != dp / d)
                divisors.push_back(dp / d);
        }
    std::sort(divisors.begin(), divisors.end());
    constexpr std::size_t kMaxOptions = 64; // dp is a power of two in practice: few divisors
    if (divisors.size() > kMaxOptions)
        divisors.erase(divisors.begin() + kMaxOptions - 1, divisors.end() - 1); // keep dp
    for (std::int64_t d : divisors)
        result.push_back(optionWith(document, {{"/parallelism/dp_shard", d}}, static_cast<int>(d)));
    return result;
}

std::vector<DegreeOption> PlanDegreeOptions::options(const ScenarioDocument& document,
                                                     const std::string& key) {
    std::vector<DegreeOption> result;
    const std::optional<ResolvedScenario>& r = document.lastResolved();
    if (!r)
        return result;
    for (int degree : candidates(*r, gpuCount(document, *r), key, currentDegree(document, key)))
        result.push_back(optionWith(document, changesFor(document, key, degree), degree));
    return result;
}

} // namespace ts::gui
