#pragma once
// The invariants of a launcher import (import/LaunchImport.h): a result carries a scenario or
// an error saying what is missing, never both or neither; the scenario it writes is one the
// planner reads (FuzzScenario.h), or is refused with a diagnostic, as `trainscape-cli import`
// does.

#include "FuzzScenario.h"

#include "import/LaunchImport.h"

namespace ts::fuzz {

inline void checkImport(const ImportResult& result) {
    FUZZ_CHECK(result.scenario.has_value() == result.error.empty());
    if (result.scenario)
        checkScenarioJson(*result.scenario);
}

} // namespace ts::fuzz
