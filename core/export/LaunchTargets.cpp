#include "export/LaunchTargets.h"

#include "export/Exporter.h"

namespace ts {

std::vector<std::string> launchTargets(const ResolvedScenario& plan) {
    std::vector<std::string> out;
    for (const auto& e : exporters())
        if (e->render(plan, {}).ok())
            out.emplace_back(e->id());
    return out;
}

bool launches(const ResolvedScenario& plan, const std::string& id) {
    if (id == "any") {
        for (const auto& e : exporters())
            if (e->render(plan, {}).ok())
                return true;
        return false;
    }
    const Exporter* e = findExporter(id);
    return e && e->render(plan, {}).ok();
}

} // namespace ts
