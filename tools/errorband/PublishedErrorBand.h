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

// The generated tables: one entry per published run the estimator estimates (step time), and
// one per published peak-memory figure it estimates, the contradicted ones left out
// (tests/data/finetune-inconsistent.json).
std::span<const ValidationResidual> publishedResiduals();
std::span<const ValidationResidual> publishedMemoryResiduals();

// time.expected_error for `scenario` (nullopt where no published run is similar enough).
std::optional<ExpectedError> publishedErrorBand(const ResolvedScenario& scenario);
// memory.expected_error (a project key): the same over the memory figures, by
// memoryErrorBandRule (nullopt for a Megatron-LM scenario: none published its memory).
std::optional<ExpectedError> publishedMemoryErrorBand(const ResolvedScenario& scenario);

// Sets estimate.expectedError and estimate.memoryExpectedError from the two above.
void attachPublishedErrorBand(Estimate& estimate, const ResolvedScenario& scenario);

} // namespace ts
