#pragma once
// Checks shared by the estimator's unit tests: an estimate that must succeed, relative
// closeness, the time breakdown against the step, the warnings, and a failure message.

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "scenario/ResolvedScenario.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <nlohmann/json.hpp>

#include <QString>
#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace ts::test {

// The estimate of `sc`, or a fatal test failure that lists the diagnostics refusing it.
inline Estimate estimateOrFail(const ResolvedScenario& sc, const EstimatorSettings& settings) {
    Diagnostics diags;
    const auto e = estimatePlan(sc, settings, diags);
    if (!e) {
        std::string why;
        for (const auto& d : diags.all())
            why += d.toString() + "\n";
        qFatal("estimate failed: %s", why.c_str());
    }
    return *e;
}

// A scenario document read, resolved against the built-in catalog and estimated, as the CLI
// does; nullopt with every diagnostic that refused it in `why`.
inline std::optional<Estimate> estimateDocument(const nlohmann::json& doc, std::string& why) {
    Diagnostics diags;
    const auto scenario = parseScenarioText(doc.dump(), diags);
    std::optional<ResolvedScenario> resolved;
    if (scenario)
        resolved = resolveScenario(*scenario, Catalog::builtIn(), diags);
    std::optional<Estimate> estimate;
    if (resolved)
        estimate = estimatePlan(*resolved, diags);
    for (const auto& d : diags.errors())
        why += d.toString() + "\n";
    return estimate;
}

inline Estimate estimateOrFail(const ResolvedScenario& sc) {
    return estimateOrFail(sc, defaultEstimatorSettings(sc));
}

// The default settings but the collective model: true, the cluster's graph (the default);
// false, the two-level alpha-beta model.
inline Estimate estimateOrFail(const ResolvedScenario& sc, bool topologyCollectives) {
    EstimatorSettings settings = defaultEstimatorSettings(sc);
    settings.topologyCollectives = topologyCollectives;
    return estimateOrFail(sc, settings);
}

// `a` within `rel` of the expected `b`, relative to |b|.
inline bool near(double a, double b, double rel) {
    return std::abs(a - b) <= rel * std::abs(b);
}

// The time breakdown adds up to the step, to rounding.
inline bool sumsToStep(const Estimate& e) {
    return near(e.time.sum(), e.stepSeconds, 1e-12);
}

inline bool hasWarning(const Estimate& e, const std::string& piece) {
    return std::any_of(e.warnings.begin(), e.warnings.end(), [&](const Message& w) {
        return w.english.find(piece) != std::string::npos;
    });
}

// "a vs b" to 12 significant digits, for failure messages.
inline QString pair(double a, double b) {
    return QString("%1 vs %2").arg(a, 0, 'g', 12).arg(b, 0, 'g', 12);
}

} // namespace ts::test
