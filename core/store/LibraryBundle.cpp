#include "store/LibraryBundle.h"

#include "common/Diagnostics.h"
#include "scenario/ScenarioIO.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <optional>

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
    if (number == v.end() || !number->is_number_integer() || number->get<long long>() < 1 ||
        number->get<long long>() > std::numeric_limits<int>::max())
        return bad(jsonPointerChild(path, "number"),
                   "expected an integer from 1 to " +
                       std::to_string(std::numeric_limits<int>::max()));
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

// A cached estimate of one of `record`'s versions; nullopt for an entry that does not read or
// names no version of the record: the cache is dropped, and recomputed.
std::optional<std::pair<int, CachedEstimate>> estimateFromJson(const Json& e,
                                                               const ScenarioRecord& record) {
    if (!e.is_object() || !e.contains("estimate"))
        return std::nullopt;
    const Json version = e.value("version", Json());
    const Json estimator = e.value("estimator_version", Json());
    const Json computed = e.value("computed_at", Json(""));
    if (!version.is_number_integer() || !estimator.is_string() || !computed.is_string())
        return std::nullopt;
    const long long number = version.get<long long>();
    const bool known = std::any_of(record.versions.begin(), record.versions.end(),
                                   [number](const auto& v) { return v.info.number == number; });
    if (!known)
        return std::nullopt;
    return std::pair{int(number), CachedEstimate{estimator.get<std::string>(), e["estimate"].dump(),
                                                 computed.get<std::string>()}};
}

Result<ScenarioRecord> recordFromJson(const Json& s, const std::string& path) {
    if (!s.is_object())
        return bad(path, "expected a scenario object");
    ScenarioRecord record;
    if (auto e = stringAt(s, path, "name", record.name))
        return *e;
    // The checks the library runs on insert, here, so that a bundle is refused whole before
    // anything is written (not half-imported).
    if (auto e = checkName(record.name))
        return bad(jsonPointerChild(path, "name"), e->message);
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
            if (auto e = checkTag(record.tags.back()))
                return bad(jsonPointerChild(jsonPointerChild(path, "tags"), i), e->message);
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
        if (!record.versions.empty() && version->info.number <= record.versions.back().info.number)
            return bad(jsonPointerChild(jsonPointerChild(versionsPath, i), "number"),
                       "version numbers must increase; got " +
                           std::to_string(version->info.number) + " after " +
                           std::to_string(record.versions.back().info.number));
        record.versions.push_back(std::move(*version));
    }
    if (auto estimates = s.find("estimates"); estimates != s.end() && estimates->is_array())
        for (const auto& e : *estimates)
            if (auto cached = estimateFromJson(e, record))
                record.estimates.push_back(std::move(*cached));
    // One cached estimate per version (the first given), by version as the library keeps them.
    const auto byVersion = [](const auto& a, const auto& b) { return a.first < b.first; };
    std::stable_sort(record.estimates.begin(), record.estimates.end(), byVersion);
    record.estimates.erase(
        std::unique(record.estimates.begin(), record.estimates.end(),
                    [](const auto& a, const auto& b) { return a.first == b.first; }),
        record.estimates.end());
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
