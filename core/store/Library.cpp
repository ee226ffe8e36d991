#include "store/Library.h"

#include "store/LibrarySearch.h"
#include "store/PostgresLibrary.h"
#include "store/SqliteLibrary.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>

namespace ts::store {

bool isPostgresUrl(const std::string& pathOrUrl) {
    return pathOrUrl.rfind("postgresql://", 0) == 0 || pathOrUrl.rfind("postgres://", 0) == 0;
}

Result<std::unique_ptr<Library>> openLibrary(const std::string& pathOrUrl) {
    if (isPostgresUrl(pathOrUrl)) {
        auto library = PostgresLibrary::open(pathOrUrl);
        if (!library)
            return library.error();
        return std::unique_ptr<Library>(std::move(*library));
    }
    auto library = SqliteLibrary::open(pathOrUrl);
    if (!library)
        return library.error();
    return std::unique_ptr<Library>(std::move(*library));
}

std::string defaultLibraryPath() {
    std::string base;
    if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data == '/')
        base = data;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = std::string(home) + "/.local/share";
    else
        return {};
    return base + "/trainscape/library.sqlite";
}

std::string utcNow() {
    using namespace std::chrono;
    const auto now = system_clock::now();
    const std::time_t seconds = system_clock::to_time_t(now);
    const auto millis = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[64];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                  static_cast<int>(millis));
    return text;
}

ScenarioRecord firstVersionRecord(const std::string& name, const std::string& scenarioJson,
                                  const std::string& note, const std::vector<std::string>& tags) {
    ScenarioRecord record;
    record.name = name;
    record.createdAt = utcNow();
    record.tags = tags;
    StoredVersion first;
    first.info.number = 1;
    first.info.createdAt = record.createdAt;
    first.info.note = note;
    first.scenarioJson = scenarioJson;
    record.versions.push_back(std::move(first));
    return record;
}

std::optional<StoreError> checkName(const std::string& name) {
    if (name.empty())
        return StoreError{StoreErrorKind::BadInput, "a scenario name must not be empty"};
    if (name.size() > 1000)
        return StoreError{StoreErrorKind::BadInput,
                          "a scenario name must be at most 1000 bytes long"};
    return std::nullopt;
}

std::optional<StoreError> checkTag(const std::string& tag) {
    if (tag.empty() || tag.size() > 100)
        return StoreError{StoreErrorKind::BadInput,
                          "a tag must be 1 to 100 bytes long, got \"" + tag + "\""};
    for (char c : tag)
        if (c == ' ' || c == '\t' || c == '\n' || c == ',')
            return StoreError{StoreErrorKind::BadInput,
                              "a tag is one word (no spaces or commas), got \"" + tag + "\""};
    return std::nullopt;
}

StoreError notFound(ScenarioId id) {
    return {StoreErrorKind::NotFound,
            "no scenario with id " + std::to_string(id) + " in the library"};
}

StoreError versionNotFound(ScenarioId id, int number) {
    return {StoreErrorKind::NotFound,
            "scenario " + std::to_string(id) + " has no version " + std::to_string(number)};
}

StoreError conflict(ScenarioId id, int basedOn, int latest) {
    return {StoreErrorKind::Conflict,
            "scenario " + std::to_string(id) + " was changed by another process: version " +
                std::to_string(latest) + " was saved after version " + std::to_string(basedOn) +
                " that this save started from; nothing was saved: reload it and save again"};
}

std::vector<std::string> searchWords(const std::string& query) {
    std::istringstream in(query);
    std::vector<std::string> words;
    std::string word;
    while (in >> word)
        words.push_back(word);
    return words;
}

std::string likePattern(const std::string& word) {
    std::string pattern = "%";
    for (char c : word) {
        if (c == '%' || c == '_' || c == '\\')
            pattern += '\\';
        pattern += c;
    }
    return pattern + "%";
}

} // namespace ts::store
