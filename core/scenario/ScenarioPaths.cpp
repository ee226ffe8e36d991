#include "scenario/ScenarioPaths.h"

#include <filesystem>

namespace ts {

Scenario withPathsBesideFile(const Scenario& scenario, const std::string& scenarioFile) {
    Scenario out = scenario;
    if (scenarioFile.empty())
        return out;
    const std::filesystem::path folder = std::filesystem::path(scenarioFile).parent_path();
    auto rebase = [&](std::optional<std::string>& path) {
        if (path && !path->empty() && std::filesystem::path(*path).is_relative())
            *path = (folder / *path).string();
    };
    if (out.costs)
        rebase(out.costs->carbonCsv);
    return out;
}

} // namespace ts
