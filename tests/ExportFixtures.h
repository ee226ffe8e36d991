#pragma once
// The scenarios every exporter is checked on: the bundled examples and the export fixtures
// (tests/fixtures/export/scenarios), with their golden outputs under tests/fixtures/export.

#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "export/PlanAdaptation.h"
#include "scenario/ScenarioResolver.h"

#include <QDir>
#include <QFileInfo>

#include <optional>

namespace ts::test {

inline QStringList exportScenarioFiles() {
    QStringList files = exampleFiles();
    QDir dir(sourceDir() + "/tests/fixtures/export/scenarios");
    for (const QString& name : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

inline QString goldenDir(const QString& scenarioFile, const QString& target) {
    return sourceDir() + "/tests/fixtures/export/golden/" +
           QFileInfo(scenarioFile).completeBaseName() + "/" + target;
}

inline std::optional<ResolvedScenario> resolveFile(const QString& path, QString& error) {
    Diagnostics diags;
    auto plan = resolveScenarioFile(path.toStdString(), Catalog::builtIn(), diags);
    if (!plan)
        for (const auto& d : diags.errors())
            error += QString::fromStdString(d.toString()) + "\n";
    return plan;
}

// `trainscape-cli export --adapt` on a scenario file, with the built-in catalog.
inline AdaptedExport adaptFile(const QString& path, const Exporter& exporter) {
    const auto doc = nlohmann::ordered_json::parse(readAll(path), nullptr, false);
    if (doc.is_discarded()) {
        AdaptedExport out;
        out.refusals.push_back({"", "not JSON: " + path.toStdString()});
        return out;
    }
    return adaptAndExport(doc, exporter, Catalog::builtIn(), {});
}

} // namespace ts::test
