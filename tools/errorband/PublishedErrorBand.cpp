#include "PublishedErrorBand.h"

#include "scenario/ResolvedScenario.h"

namespace ts {

std::optional<ExpectedError> publishedErrorBand(const ResolvedScenario& scenario) {
    return errorBand(runTraitsOf(scenario), publishedResiduals());
}

std::optional<ExpectedError> publishedMemoryErrorBand(const ResolvedScenario& scenario) {
    return errorBand(runTraitsOf(scenario), publishedMemoryResiduals(), memoryErrorBandRule());
}

void attachPublishedErrorBand(Estimate& estimate, const ResolvedScenario& scenario) {
    estimate.expectedError = publishedErrorBand(scenario);
    estimate.memoryExpectedError = publishedMemoryErrorBand(scenario);
}

} // namespace ts
