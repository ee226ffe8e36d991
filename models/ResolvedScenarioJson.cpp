#include "ResolvedScenarioJson.h"

#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"

namespace ts::gui {

nlohmann::ordered_json resolvedScenarioJson(const ResolvedScenario& resolved) {
    return scenarioToJson(explicitScenario(resolved));
}

} // namespace ts::gui
