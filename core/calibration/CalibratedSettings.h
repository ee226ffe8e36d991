#pragma once
// From a calibration profile to the estimator's settings: the profile's measurements replace
// the default efficiencies, interpolated between the measured points on log-size.
//   matmul:      efficiency(M, N, K, dtype): the measured efficiencies interpolated in
//                log(M, N, K) space (LogInterpolation.h), exact at a measured point, lowered
//                where the model judges the query worse than its measured neighbours (smaller,
//                or quantizing worse), never raised, and never above the best measured point.
//                The sustained fraction still applies on top.
//   attention:   forward and backward TFLOP/s, interpolated in log(seq, head dim) for the
//                same causal setting.
//   HBM:         achieved bandwidth replaces datasheet x default efficiency.
//   collectives: bus bandwidth by message size, interpolated on log-bytes between the nccl-tests
//                rows (the fit outside them), per collective and scope (NVLink domain or
//                across nodes).
// Whatever the profile does not cover keeps the default model.

#include "calibration/CalibrationProfile.h"
#include "estimate/Estimator.h"

namespace ts {

// Replaces in `settings` what `profile` measured. `settings.hardware` must already hold the
// scenario GPU's defaults (its peaks are the efficiency denominators).
void applyCalibration(const CalibrationProfile& profile, EstimatorSettings& settings);

// defaultEstimatorSettings(scenario) with `profile` applied.
EstimatorSettings calibratedEstimatorSettings(const ResolvedScenario& scenario,
                                              const CalibrationProfile& profile);

} // namespace ts
