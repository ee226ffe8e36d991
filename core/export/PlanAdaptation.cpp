// The adaptation loop: render, take the first refusal a rule answers, change the scenario,
// resolve and render again, until the target takes the plan; then re-estimate both plans.

#include "export/PlanAdaptation.h"

#include "estimate/Estimator.h"
#include "export/LaunchShape.h"
#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <cstdio>
#include <optional>

namespace ts {
namespace {

using Json = nlohmann::ordered_json;

// A refusal per change at most; a plan that needs more has nothing near it on this target.
constexpr int kMaxSteps = 24;

struct ResolvedDoc {
    std::optional<ResolvedScenario> plan;
    Json explicitDoc;
    std::string error;
};

ResolvedDoc resolveDoc(const Json& doc, const Catalog& catalog) {
    ResolvedDoc out;
    Diagnostics diags;
    auto scenario = scenarioFromJson(doc, diags);
    if (scenario)
        out.plan = resolveScenario(*scenario, catalog, diags);
    if (!out.plan) {
        for (const auto& d : diags.errors())
            out.error += (out.error.empty() ? "" : "; ") + d.toString();
        return out;
    }
    out.explicitDoc = scenarioToJson(explicitScenario(*out.plan));
    return out;
}

std::optional<PlanFigures> figures(const ResolvedScenario& plan, std::string& error) {
    Diagnostics diags;
    const auto estimate = estimatePlan(plan, diags);
    if (!estimate) {
        for (const auto& d : diags.errors())
            error += (error.empty() ? "" : "; ") + d.toString();
        return std::nullopt;
    }
    return PlanFigures{estimate->stepSeconds, estimate->peakBytes, estimate->capacityBytes,
                       estimate->fits};
}

Json valueAt(const Json& doc, const std::string& path) {
    const Json::json_pointer pointer(path);
    return doc.contains(pointer) ? doc.at(pointer) : Json();
}

// Records `change` (keeping the first "before" of a path changed twice) and writes it into
// `doc`. Returns false when it changes nothing.
bool apply(const PlanChange& change, const Json& explicitDoc, Json& doc,
           std::vector<PlanChange>& changes) {
    const Json::json_pointer pointer(change.path);
    if (valueAt(explicitDoc, change.path) == change.after ||
        (doc.contains(pointer) && doc.at(pointer) == change.after))
        return false;
    doc[pointer] = change.after;
    for (auto& known : changes)
        if (known.path == change.path) {
            known.after = change.after;
            known.reason = change.reason;
            return true;
        }
    changes.push_back(change);
    return true;
}

std::string gib(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / double(1ull << 30));
    return text;
}

ExportRefusal noLongerFits(const PlanFigures& after, const std::vector<PlanChange>& changes) {
    std::string what;
    for (const auto& c : changes)
        what +=
            (what.empty() ? "" : ", ") + c.path + " " + c.before.dump() + " -> " + c.after.dump();
    return {changes.empty() ? std::string("/parallelism") : changes.back().path,
            "the nearest plan this target runs (" + what + ") needs " + gib(after.peakBytes) +
                " per GPU, above the " + gib(after.capacityBytes) +
                " it has; no adapted plan fits in memory"};
}

// What stops the adaptation at `result`: the refusals no rule answers.
std::vector<ExportRefusal> unanswered(const ExportResult& result) {
    std::vector<ExportRefusal> out;
    for (auto r : result.refusals) {
        r.message += " (no adaptation on this target)";
        out.push_back(std::move(r));
    }
    return out;
}

void appendAdaptationFiles(AdaptedExport& out, std::string_view target, const std::string& name) {
    out.result.files.push_back(
        {kAdaptedScenarioFile, out.scenario.dump(2) + "\n", FileSyntax::Json});
    out.result.files.push_back(
        {kAdaptationNotesFile, adaptationNotes(out, target, name), FileSyntax::Text});
}

} // namespace

AdaptedExport adaptAndExport(const nlohmann::ordered_json& doc, const Exporter& exporter,
                             const Catalog& catalog, const ExportOptions& options) {
    AdaptedExport out;
    out.scenario = doc;
    ResolvedDoc current = resolveDoc(doc, catalog);
    if (!current.plan) {
        out.refusals.push_back({"", "the scenario does not resolve: " + current.error});
        return out;
    }
    const std::string name = current.plan->name;
    out.result = exporter.render(*current.plan, options);
    if (out.result.ok())
        return out; // the target takes the plan as it is
    std::string error;
    const auto before = figures(*current.plan, error);
    if (!before) {
        out.refusals.push_back({"", "cannot estimate the plan to compare it: " + error});
        return out;
    }
    out.before = *before;
    for (int step = 0; step < kMaxSteps && !out.result.ok(); ++step) {
        bool changed = false;
        for (const auto& refusal : out.result.refusals) {
            for (const auto& change : adaptationFor(exporter.id(), refusal, current.explicitDoc))
                changed = apply(change, current.explicitDoc, out.scenario, out.changes) || changed;
            if (changed)
                break;
        }
        if (!changed) {
            std::string fitError;
            const auto now = figures(*current.plan, fitError);
            out.refusals = now && !now->fits ? std::vector{noLongerFits(*now, out.changes)}
                                             : unanswered(out.result);
            return out;
        }
        current = resolveDoc(out.scenario, catalog);
        if (!current.plan) {
            out.refusals.push_back(
                {out.changes.back().path, "the adapted plan does not resolve: " + current.error});
            return out;
        }
        out.result = exporter.render(*current.plan, options);
    }
    if (!out.result.ok()) {
        out.refusals = unanswered(out.result);
        return out;
    }
    const auto after = figures(*current.plan, error);
    if (!after) {
        out.refusals.push_back(
            {out.changes.back().path, "cannot estimate the adapted plan: " + error});
        return out;
    }
    out.after = *after;
    if (!after->fits) {
        out.refusals.push_back(noLongerFits(*after, out.changes));
        out.result.files.clear();
        return out;
    }
    out.scenario["name"] = name + " (adapted for " + std::string(exporter.id()) + ")";
    // The launch files name the adapted scenario in their header.
    current = resolveDoc(out.scenario, catalog);
    out.result = exporter.render(*current.plan, options);
    appendAdaptationFiles(out, exporter.id(), name);
    return out;
}

std::string adaptationNotes(const AdaptedExport& adapted, std::string_view target,
                            const std::string& scenarioName) {
    const auto& b = adapted.before;
    const auto& a = adapted.after;
    std::string md = "# Plan adapted for the " + std::string(target) + " target\n\n";
    md += "Scenario: " + (scenarioName.empty() ? std::string("(unnamed)") : scenarioName) +
          "\n\nThe target cannot run this plan as it is. Trainscape " TRAINSCAPE_VERSION
          " exported the nearest plan it can run; `" +
          std::string(kAdaptedScenarioFile) +
          "` is that plan as a scenario (open it in Trainscape). Changes:\n\n";
    md += "| Field | Was | Now | Why |\n|---|---|---|---|\n";
    for (const auto& c : adapted.changes) {
        std::string why = c.reason;
        for (std::size_t i = 0; (i = why.find('|', i)) != std::string::npos; i += 2)
            why.replace(i, 1, "\\|");
        md += "| `" + c.path + "` | `" + c.before.dump() + "` | `" + c.after.dump() + "` | " + why +
              " |\n";
    }
    char line[256];
    std::snprintf(line, sizeof line,
                  "\nRe-estimated with the full estimator:\n\n"
                  "| | Before | After |\n|---|---|---|\n"
                  "| Step time | %.3f s | %.3f s (%+.1f%%) |\n",
                  b.stepSeconds, a.stepSeconds,
                  b.stepSeconds > 0 ? 100.0 * (a.stepSeconds / b.stepSeconds - 1.0) : 0.0);
    md += line;
    md += "| Peak memory per GPU | " + gib(b.peakBytes) + " of " + gib(b.capacityBytes) +
          (b.fits ? "" : " (does not fit)") + " | " + gib(a.peakBytes) + " of " +
          gib(a.capacityBytes) + " |\n";
    return md;
}

nlohmann::ordered_json adaptationJson(const AdaptedExport& adapted) {
    auto figuresJson = [](const PlanFigures& f) {
        return Json{{"step_seconds", f.stepSeconds},
                    {"peak_bytes", f.peakBytes},
                    {"capacity_bytes", f.capacityBytes},
                    {"fits", f.fits}};
    };
    Json changes = Json::array();
    for (const auto& c : adapted.changes)
        changes.push_back(
            {{"path", c.path}, {"before", c.before}, {"after", c.after}, {"reason", c.reason}});
    return {{"changes", changes},
            {"before", figuresJson(adapted.before)},
            {"after", figuresJson(adapted.after)}};
}

} // namespace ts
