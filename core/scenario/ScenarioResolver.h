#pragma once
// Resolution: presets from the catalog, then the scenario's explicit keys over them, then
// the format's defaults; then the consistency rules across fields (degrees multiply to
// the GPU count, heads divisible by tp, batch divisible by dp x micro-batch, ...).

#include "calibration/CalibrationRegistry.h"
#include "catalog/Catalog.h"
#include "common/Diagnostics.h"
#include "scenario/ResolvedScenario.h"
#include "scenario/Scenario.h"

#include <optional>
#include <string>

namespace ts {

// `calibration` names a profile of CalibrationRegistry::standard() (built-in and
// $TRAINSCAPE_CALIBRATION_DIR) unless a registry is given.
std::optional<ResolvedScenario> resolveScenario(const Scenario& scenario, const Catalog& catalog,
                                                Diagnostics& diags);
std::optional<ResolvedScenario> resolveScenario(const Scenario& scenario, const Catalog& catalog,
                                                const CalibrationRegistry& calibrations,
                                                Diagnostics& diags);

// Text -> parsed -> resolved, with every diagnostic collected.
std::optional<ResolvedScenario> resolveScenarioFile(const std::string& path, const Catalog& catalog,
                                                    Diagnostics& diags);
std::optional<ResolvedScenario> resolveScenarioFile(const std::string& path, const Catalog& catalog,
                                                    const CalibrationRegistry& calibrations,
                                                    Diagnostics& diags);

} // namespace ts
