#pragma once
// The error band of every estimate, from the residuals of the published runs: the table is
// generated at build time by trainscape-residuals from tests/data/published-dev.json and the
// current estimator (CMakeLists.txt beside this file), so it follows every change of the
// model. The CLI and the GUI attach the band to each estimate they show.

#include "accuracy/ErrorBand.h"
#include "estimate/Estimate.h"

#include <optional>
#include <span>

namespace ts {

struct ResolvedScenario;

// The generated table: one entry per published run the estimator estimates.
std::span<const ValidationResidual> publishedResiduals();

// time.expected_error for `scenario` (nullopt where no published run is similar enough).
std::optional<ExpectedError> publishedErrorBand(const ResolvedScenario& scenario);

// Sets estimate.expectedError from publishedErrorBand(scenario).
void attachPublishedErrorBand(Estimate& estimate, const ResolvedScenario& scenario);

} // namespace ts
