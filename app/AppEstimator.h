#pragma once
// The estimator the desktop application runs: core's, with a schedule simulation as long as
// the Gantt chart draws, and the error band of the published runs most like the scenario
// (time.expected_error, tools/errorband) attached to each estimate.

#include "EstimateRunner.h"

namespace ts::gui {

EstimateFunction applicationEstimator();

} // namespace ts::gui
