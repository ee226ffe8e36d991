#include "store/LibraryBundle.h"

#include "common/Diagnostics.h"
#include "scenario/ScenarioIO.h"

#include <nlohmann/json.hpp>

namespace ts::store {

using Json = nlohmann::ordered_json;

namespace {

Json recordToJson(const ScenarioRecord& record) {
    Json versions = Json::array();
    for (const auto& v : record.versions)
        versions.push_back({{"number", v.info.number},
                            {"created_at", v.info.createdAt},
                            {"note", v.info.note},
                            {"scenario", Json::parse(v.scenarioJson)}});
    Json estimates = Json::array();
    for (const auto& [number, e] : record.estimates) {
        Json estimate = Json::parse(e.estimateJson, nullptr, false);
        if (estimate.is_discarded())
            continue; // a damaged cache entry is not worth carrying: it is recomputed
        estimates.push_back({{"version", number},
                             {"estimator_version", e.estimatorVersion},
                             {"computed_at", e.computedAt},
                             {"estimate", estimate}});
    }
    return {{"id", record.id},     {"name", record.name},  {"created_at", record.createdAt},
            {"tags", record.tags}, {"versions", versions}, {"estimates", estimates}};
}

StoreError bad(const std::string& path, const std::string& message) {
    return {StoreErrorKind::BadInput, "bundle " + path + ": " + message};
}

// A string member; an error naming its path when absent or not a string.
std::optional<StoreError> stringAt(const Json& object, const std::string& path, const char* key,
                                   std::string& out, bool required = true) {
    const auto it = object.find(key);
    if (it == object.end()) {
        if (!required)
            return std::nullopt;
        return bad(jsonPointerChild(path, key), "missing; expected a string");
    }
    if (!it->is_string())
        return bad(jsonPointerChild(path, key), "expected a string");
    out = it->get<std::string>();
    return std::nullopt;
}

Result<StoredVersion> versionFromJson(const Json& v, const std::string& path) {
    if (!v.is_object())
        return bad(path, "expected a version object");
    StoredVersion version;
    const auto number = v.find("number");
    if (number == v.end() || !number->is_number_integer() || number->get<long long>() < 1)
        return bad(jsonPointerChild(path, "number"), "expected an integer >= 1");
    version.info.number = number->get<int>();
    if (auto e = stringAt(v, path, "created_at", version.info.createdAt))
        return *e;
    if (auto e = stringAt(v, path, "note", version.info.note, false))
        return *e;
    const auto scenario = v.find("scenario");
    if (scenario == v.end() || !scenario->is_object())
        return bad(jsonPointerChild(path, "scenario"), "expected a scenario object");
    version.scenarioJson = scenario->dump(2) + "\n";
    return version;
}

Result<ScenarioRecord> recordFromJson(const Json& s, const std::string& path) {
    if (!s.is_object())
        return bad(path, "expected a scenario object");
    ScenarioRecord record;
    if (auto e = stringAt(s, path, "name", record.name))
        return *e;
    if (auto e = stringAt(s, path, "created_at", record.createdAt, false))
        return *e;
    if (auto tags = s.find("tags"); tags != s.end()) {
        if (!tags->is_array())
            return bad(jsonPointerChild(path, "tags"), "expected an array of strings");
        for (std::size_t i = 0; i < tags->size(); ++i) {
            if (!(*tags)[i].is_string())
                return bad(jsonPointerChild(jsonPointerChild(path, "tags"), i),
                           "expected a string");
            record.tags.push_back((*tags)[i].get<std::string>());
        }
    }
    const auto versions = s.find("versions");
    const std::string versionsPath = jsonPointerChild(path, "versions");
    if (versions == s.end() || !versions->is_array() || versions->empty())
        return bad(versionsPath, "expected a non-empty array of versions");
    for (std::size_t i = 0; i < versions->size(); ++i) {
        auto version = versionFromJson((*versions)[i], jsonPointerChild(versionsPath, i));
        if (!version)
            return version.error();
        record.versions.push_back(std::move(*version));
    }
    if (auto estimates = s.find("estimates"); estimates != s.end() && estimates->is_array()) {
        for (const auto& e : *estimates) {
            if (!e.is_object() || !e.contains("version") || !e["version"].is_number_integer() ||
                !e.contains("estimate") || !e.value("estimator_version", Json()).is_string())
                continue; // a cache entry that does not read is dropped: it is recomputed
            record.estimates.push_back(
                {e["version"].get<int>(),
                 CachedEstimate{e["estimator_version"].get<std::string>(), e["estimate"].dump(),
                                e.value("computed_at", std::string())}});
        }
    }
    return record;
}

} // namespace

Result<std::string> exportBundle(Library& library, const std::vector<ScenarioId>& ids) {
    std::vector<ScenarioId> chosen = ids;
    if (chosen.empty()) {
        auto all = library.listScenarios();
        if (!all)
            return all.error();
        for (const auto& s : *all)
            chosen.push_back(s.id);
    }
    Json scenarios = Json::array();
    for (ScenarioId id : chosen) {
        auto record = library.record(id);
        if (!record)
            return record.error();
        scenarios.push_back(recordToJson(*record));
    }
    Json bundle = {{"format", kBundleFormat},
                   {"trainscape_version", TRAINSCAPE_VERSION},
                   {"exported_at", utcNow()},
                   {"source", library.location()},
                   {"scenarios", scenarios}};
    return bundle.dump(2) + "\n";
}

Result<std::vector<ScenarioRecord>> parseBundle(const std::string& text) {
    Diagnostics diags;
    auto doc = parseJsonText(text, diags);
    if (!doc)
        return StoreError{StoreErrorKind::BadInput,
                          "the bundle is not JSON: " +
                              (diags.all().empty() ? std::string() : diags.all()[0].toString())};
    if (!doc->is_object() || doc->value("format", Json()) != kBundleFormat)
        return bad("/format", std::string("expected \"") + kBundleFormat + "\"");
    const auto scenarios = doc->find("scenarios");
    if (scenarios == doc->end() || !scenarios->is_array())
        return bad("/scenarios", "expected an array of scenarios");
    std::vector<ScenarioRecord> records;
    for (std::size_t i = 0; i < scenarios->size(); ++i) {
        auto record = recordFromJson((*scenarios)[i], jsonPointerChild("/scenarios", i));
        if (!record)
            return record.error();
        records.push_back(std::move(*record));
    }
    return records;
}

Result<std::vector<ScenarioId>> importBundle(Library& library, const std::string& text) {
    auto records = parseBundle(text);
    if (!records)
        return records.error();
    std::vector<ScenarioId> ids;
    for (auto& record : *records) {
        record.id = 0;
        auto id = library.insertRecord(record);
        if (!id) {
            StoreError error = id.error();
            error.message += " (importing \"" + record.name + "\"; " + std::to_string(ids.size()) +
                             " scenarios were imported before it)";
            return error;
        }
        ids.push_back(*id);
    }
    return ids;
}

} // namespace ts::store
