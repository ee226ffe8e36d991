#pragma once
// The published measured runs (tests/data/published-dev.json, a copy of shared/validation)
// estimated by the current estimator: each run's traits and step-time residual, the input of
// the error band (accuracy/ErrorBand.h). tools/errorband writes them into a generated table
// at build time; tst_error_band checks that the table still matches the estimator.

#include "accuracy/ErrorBand.h"

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

} // namespace ts
