#include "AppEstimator.h"

#include "PublishedErrorBand.h"
#include "TimelineChart.h"

#include "estimate/Estimator.h"

namespace ts::gui {

EstimateFunction applicationEstimator() {
    return [](const ResolvedScenario& scenario, Diagnostics& diags) {
        EstimatorSettings settings = defaultEstimatorSettings(scenario);
        settings.maxScheduleEvents = TimelineChart::kScheduleEvents;
        std::optional<Estimate> estimate = estimatePlan(scenario, settings, diags);
        if (estimate)
            attachPublishedErrorBand(*estimate, scenario);
        return estimate;
    };
}

} // namespace ts::gui
