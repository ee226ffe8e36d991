#include "PublishedErrorBand.h"

#include "scenario/ResolvedScenario.h"

namespace ts {

std::optional<ExpectedError> publishedErrorBand(const ResolvedScenario& scenario) {
    return errorBand(runTraitsOf(scenario), publishedResiduals());
}

void attachPublishedErrorBand(Estimate& estimate, const ResolvedScenario& scenario) {
    estimate.expectedError = publishedErrorBand(scenario);
}

} // namespace ts
