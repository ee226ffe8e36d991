#include "report/ComparisonReport.h"

#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "estimate/EstimatorVersion.h"
#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"
#include "store/Library.h"

#include "calibration/CalibrationProfile.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace ts::report {

using Json = nlohmann::ordered_json;

namespace {

void copyDiagnostics(const Diagnostics& from, const std::string& source, Diagnostics& to) {
    for (const auto& d : from.all()) {
        const std::string path = source + ":" + (d.path.empty() ? "/" : d.path);
        if (d.severity == Severity::Error)
            to.error(path, d.message);
        else
            to.warning(path, d.message);
    }
}

std::optional<ReportScenario> buildOne(const ScenarioSource& source, const Catalog& catalog,
                                       const CalibrationRegistry& calibrations,
                                       Diagnostics& diags) {
    Diagnostics local;
    auto scenario = parseScenarioText(source.text, local);
    std::optional<ResolvedScenario> resolved;
    if (scenario)
        resolved = resolveScenario(*scenario, catalog, calibrations, local);
    std::optional<Estimate> estimate;
    if (resolved)
        estimate = estimatePlan(*resolved, local);
    copyDiagnostics(local, source.source, diags);
    if (!estimate)
        return std::nullopt;
    ReportScenario out;
    out.label = resolved->name.empty() ? source.fallbackLabel : resolved->name;
    out.source = source.source;
    out.inputs = scenarioToJson(explicitScenario(*resolved));
    out.estimate = std::move(*estimate);
    out.estimateJson = estimateToJson(out.estimate);
    out.calibration = resolved->calibrationProfile ? resolved->calibrationProfile->id + " (" +
                                                         resolved->calibrationProfile->name + ")"
                                                   : "built-in defaults";
    return out;
}

void flatten(const Json& value, const std::string& key, std::vector<std::string>& order,
             std::map<std::string, std::string>& out) {
    if (value.is_object()) {
        for (const auto& [child, v] : value.items())
            flatten(v, key.empty() ? child : key + "." + child, order, out);
        return;
    }
    if (!out.count(key))
        order.push_back(key);
    out[key] = value.is_string() ? value.get<std::string>() : value.dump();
}

std::string formatValue(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

constexpr double kGiB = double(1ull << 30);

// The interval of a figure proportional (or inversely proportional) to the step time.
std::optional<ErrorInterval> scaled(const std::optional<ErrorInterval>& step, bool inverse) {
    if (!step || !inverse)
        return step;
    // predicted/measured - 1 = e for the time gives 1/(1+e) - 1 for a rate.
    return ErrorInterval{1.0 / (1.0 + step->high) - 1.0, 1.0 / (1.0 + step->low) - 1.0,
                         step->cases};
}

struct MetricSpec {
    const char* group;
    const char* name;
    const char* unit;
    int decimals;
    double scale;
    enum class Error { None, Proportional, Inverse } error;
    std::optional<double> (*get)(const Estimate&);
};

const std::vector<MetricSpec>& metricSpecs() {
    using E = MetricSpec::Error;
    static const std::vector<MetricSpec> specs = {
        {"Memory", "Peak memory", "GiB", 1, kGiB, E::None,
         [](const Estimate& e) -> std::optional<double> { return e.peakBytes; }},
        {"Memory", "Capacity", "GiB", 1, kGiB, E::None,
         [](const Estimate& e) -> std::optional<double> { return e.capacityBytes; }},
        {"Memory", "Peak / capacity", "%", 1, 0.01, E::None,
         [](const Estimate& e) -> std::optional<double> {
             return e.capacityBytes > 0 ? std::optional(e.peakBytes / e.capacityBytes)
                                        : std::nullopt;
         }},
        {"Step time", "Step time", "s", 3, 1, E::Proportional,
         [](const Estimate& e) -> std::optional<double> { return e.stepSeconds; }},
#define TS_PART(label, field)                                                                      \
    {                                                                                              \
        "Step time", label, "s", 3, 1, E::None,                                                    \
            [](const Estimate& e) -> std::optional<double> { return e.time.field; }                \
    }
        TS_PART("compute", compute),
        TS_PART("recompute", recompute),
        TS_PART("TP exposed", tpExposed),
        TS_PART("CP exposed", cpExposed),
        TS_PART("EP exposed", epExposed),
        TS_PART("PP exposed", ppExposed),
        TS_PART("pipeline bubble", pipelineBubble),
        TS_PART("DP exposed", dpExposed),
        TS_PART("optimizer", optimizer),
        TS_PART("offload exposed", offloadExposed),
#undef TS_PART
        {"Throughput", "Tokens/s", "tokens/s", 0, 1, E::Inverse,
         [](const Estimate& e) -> std::optional<double> { return e.tokensPerS; }},
        {"Throughput", "Tokens/s per GPU", "tokens/s", 0, 1, E::Inverse,
         [](const Estimate& e) -> std::optional<double> { return e.tokensPerSPerGpu; }},
        {"Throughput", "MFU", "%", 1, 0.01, E::Inverse,
         [](const Estimate& e) -> std::optional<double> { return e.mfu; }},
        {"Run", "Time to train", "days", 1, 1, E::Proportional,
         [](const Estimate& e) { return e.trainDays; }},
        {"Run", "Cost", "USD", 0, 1, E::Proportional, [](const Estimate& e) { return e.trainUsd; }},
        {"Run", "Cost per million tokens", "USD", 3, 1, E::Proportional,
         [](const Estimate& e) { return e.usdPerMillionTokens; }},
        {"Run", "Energy", "MWh", 1, 1000, E::Proportional,
         [](const Estimate& e) { return e.trainKwh; }},
        {"Run", "CO2", "t", 1, 1000, E::Proportional,
         [](const Estimate& e) { return e.trainCo2Kg; }},
    };
    return specs;
}

} // namespace

std::optional<ComparisonReport> buildReport(const std::vector<ScenarioSource>& sources,
                                            const Catalog& catalog,
                                            const CalibrationRegistry& calibrations,
                                            const std::string& catalogDescription,
                                            Diagnostics& diags) {
    const int count = static_cast<int>(sources.size());
    if (count < kMinScenarios || count > kMaxScenarios) {
        diags.error("", "a comparison takes 2 to 8 scenarios, got " + std::to_string(count));
        return std::nullopt;
    }
    ComparisonReport report;
    for (const auto& source : sources) {
        auto one = buildOne(source, catalog, calibrations, diags);
        if (one)
            report.scenarios.push_back(std::move(*one));
    }
    if (diags.hasErrors())
        return std::nullopt;
    report.title = "Comparison of " + std::to_string(count) + " scenarios";
    report.provenance = {TRAINSCAPE_VERSION, estimatorVersion(), catalogDescription,
                         store::utcNow()};
    return report;
}

std::vector<InputRow> inputRows(const ComparisonReport& report) {
    std::vector<std::string> order;
    std::vector<std::map<std::string, std::string>> values;
    for (const auto& s : report.scenarios) {
        values.emplace_back();
        flatten(s.inputs, "", order, values.back());
    }
    std::vector<InputRow> rows;
    for (const auto& key : order) {
        if (key == "format")
            continue;
        InputRow row{key, {}, false};
        for (const auto& v : values) {
            auto it = v.find(key);
            row.values.push_back(it == v.end() ? std::string() : it->second);
            row.differs = row.differs || row.values.back() != row.values.front();
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::optional<ErrorInterval> stepTimeExpectedError(const Json& estimateJson) {
    const auto time = estimateJson.find("time");
    if (time == estimateJson.end() || !time->is_object())
        return std::nullopt;
    const auto error = time->find("expected_error");
    if (error == time->end() || !error->is_object() || !(*error)["low"].is_number() ||
        !(*error)["high"].is_number())
        return std::nullopt;
    return ErrorInterval{(*error)["low"].get<double>(), (*error)["high"].get<double>(),
                         error->value("cases", 0)};
}

std::string formatInterval(const ErrorInterval& interval) {
    char text[64];
    std::snprintf(text, sizeof text, "%+.0f%% … %+.0f%%", interval.low * 100, interval.high * 100);
    return text;
}

std::vector<OutputRow> outputRows(const ComparisonReport& report) {
    std::vector<OutputRow> rows;
    OutputRow fits{"Memory", "Fits in memory", "", {}, {}, {}, false};
    for (const auto& s : report.scenarios) {
        fits.values.push_back(s.estimate.fits ? 1.0 : 0.0);
        fits.text.push_back(s.estimate.fits ? "yes" : "no");
        fits.expectedError.push_back(std::nullopt);
    }
    fits.differs = fits.text != std::vector<std::string>(fits.text.size(), fits.text.front());
    rows.push_back(std::move(fits));
    for (const auto& spec : metricSpecs()) {
        OutputRow row{spec.group, spec.name, spec.unit, {}, {}, {}, false};
        for (const auto& s : report.scenarios) {
            auto value = spec.get(s.estimate);
            row.values.push_back(value);
            row.text.push_back(
                value ? formatValue(*value / spec.scale, spec.decimals) + " " + spec.unit : "n/a");
            const auto step = stepTimeExpectedError(s.estimateJson);
            row.expectedError.push_back(
                spec.error == MetricSpec::Error::None || !value
                    ? std::nullopt
                    : scaled(step, spec.error == MetricSpec::Error::Inverse));
            row.differs = row.differs || row.text.back() != row.text.front();
        }
        // A part of the step no scenario has (e.g. CP exposed without CP) is left out.
        const bool part =
            std::string(spec.group) == "Step time" && spec.name != std::string("Step time");
        bool allZero = true;
        for (const auto& v : row.values)
            allZero = allZero && v && *v == 0;
        if (!(part && allZero))
            rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace ts::report
