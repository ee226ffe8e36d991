#pragma once
// Adapting a plan to a target (`trainscape-cli export --adapt`, the export dialog's "Adapt
// plan to this target"): when a target refuses a setting, derive the nearest plan it can run,
// one refusal at a time, each change named by its scenario path with the old and new value
// and the target's reason. The adapted plan is re-estimated with the full estimator (step
// time and peak memory before and after); an adaptation that no longer fits in GPU memory, or
// a refusal no rule can answer, is refused by name. Without adaptation an exporter's refusal
// stands: a target never drops a setting silently.

#include "catalog/Catalog.h"
#include "export/Exporter.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace ts {

struct PlanChange {
    std::string path;              // JSON pointer in the scenario, e.g. "/parallelism/vpp"
    nlohmann::ordered_json before; // the value in effect (presets and defaults resolved)
    nlohmann::ordered_json after;
    std::string reason; // the target's limit that made the change
};

struct PlanFigures {
    double stepSeconds = 0;
    double peakBytes = 0;
    double capacityBytes = 0;
    bool fits = false;
};

struct AdaptedExport {
    nlohmann::ordered_json scenario;     // the adapted scenario document (the input's form)
    std::vector<PlanChange> changes;     // empty: the target takes the plan as it is
    std::vector<ExportRefusal> refusals; // non-empty: no adapted plan (what blocked it)
    PlanFigures before, after;
    ExportResult result; // the target's files for the adapted plan, plus the two below
    bool ok() const { return refusals.empty() && result.ok(); }
};

// The files an adapted export adds next to the launch files.
inline constexpr const char* kAdaptedScenarioFile = "adapted-scenario.json";
inline constexpr const char* kAdaptationNotesFile = "ADAPTATION.md";

// Renders `doc` for `exporter`, adapting the plan where the target refuses it.
AdaptedExport adaptAndExport(const nlohmann::ordered_json& doc, const Exporter& exporter,
                             const Catalog& catalog, const ExportOptions& options);

// One refusal's answer: the changes (JSON pointers into the scenario) that give the nearest
// plan the target can run, read from the explicit (fully resolved) scenario `plan`. Empty
// when the target has no nearby setting. Rules live in PlanAdaptationRules.cpp.
std::vector<PlanChange> adaptationFor(std::string_view target, const ExportRefusal& refusal,
                                      const nlohmann::ordered_json& plan);

// The list of changes as Markdown (ADAPTATION.md) and as JSON (--json).
std::string adaptationNotes(const AdaptedExport& adapted, std::string_view target,
                            const std::string& scenarioName);
nlohmann::ordered_json adaptationJson(const AdaptedExport& adapted);

} // namespace ts
