#include "PlanDegreeOptions.h"

#include "ScenarioDocument.h"

#include "catalog/Catalog.h"
#include "scenario/ScenarioResolver.h"

#include <algorithm>

namespace ts::gui {

namespace {

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
std::vector<int> candidates(const ResolvedScenario& r, const std::string& key) {
    int bound = 64;
    if (key == "vpp")
        bound = 16;
    else if (key == "ep" || key == "etp")
        bound = r.model.moe ? std::max(1, r.model.moe->experts) : 8;
    else if (key == "pp")
        bound = std::max(1, std::min(r.model.layers, 128));
    std::vector<int> values;
    for (int d = 1; d <= bound; ++d)
        if (key == "vpp" ? true : r.cluster.numGpus % d == 0)
            values.push_back(d);
    if (key == "vpp") // a handful of chunk counts is what anyone chooses between
        values.erase(std::remove_if(values.begin(), values.end(),
                                    [](int v) { return v > 8 && v != 10 && v != 16; }),
                     values.end());
    const int current = degreeOf(r, key);
    if (std::find(values.begin(), values.end(), current) == values.end())
        values.push_back(current);
    std::sort(values.begin(), values.end());
    return values;
}

} // namespace

std::vector<ScenarioValueChange> PlanDegreeOptions::changesFor(const ScenarioDocument& document,
                                                               const std::string& key, int degree) {
    std::vector<ScenarioValueChange> changes{{"/parallelism/" + key, degree}};
    const std::optional<ResolvedScenario>& r = document.lastResolved();
    if (!r)
        return changes;
    const ParallelConfig& p = r->parallel;
    const int tp = key == "tp" ? degree : p.tp;
    const int pp = key == "pp" ? degree : p.pp;
    const int cp = key == "cp" ? degree : p.cp;
    const auto dp = document.explicitValue("/parallelism/dp");
    if (dp && !dp->is_null()) {
        const std::int64_t modelParallel = std::int64_t(tp) * pp * cp;
        // When the product does not divide the GPU count no dp fits; leaving dp to the
        // resolver then gives the message that says so.
        if (modelParallel > 0 && r->cluster.numGpus % modelParallel == 0)
            changes.push_back({"/parallelism/dp", r->cluster.numGpus / modelParallel});
        else
            changes.push_back({"/parallelism/dp", nullptr});
    }
    if (key == "pp" || key == "vpp") {
        const auto layers = document.explicitValue("/parallelism/pipeline_layers");
        if (layers && !layers->is_null())
            changes.push_back({"/parallelism/pipeline_layers", nullptr});
    }
    return changes;
}

std::vector<DegreeOption> PlanDegreeOptions::options(const ScenarioDocument& document,
                                                     const std::string& key) {
    std::vector<DegreeOption> result;
    const std::optional<ResolvedScenario>& r = document.lastResolved();
    if (!r)
        return result;
    for (int degree : candidates(*r, key)) {
        DegreeOption option{degree, true, {}};
        Diagnostics diags;
        const std::optional<Scenario> scenario =
            document.withChanges(changesFor(document, key, degree), diags);
        if (scenario && !diags.hasErrors())
            resolveScenario(*scenario, Catalog::builtIn(), diags);
        if (diags.hasErrors()) {
            option.enabled = false;
            const Diagnostic first = diags.errors().front();
            option.reason =
                tr("Not available: %1 (%2)")
                    .arg(QString::fromStdString(first.message), QString::fromStdString(first.path));
        }
        result.push_back(option);
    }
    return result;
}

} // namespace ts::gui
