// SQLite library: the writes. Each is one BEGIN IMMEDIATE transaction.

#include "store/SqliteLibrary.h"
#include "store/SqliteStatement.h"

#include <nlohmann/json.hpp>

namespace ts::store {

using namespace sqlite;

namespace {

StoreError readOnlyError(const std::string& path) {
    return {StoreErrorKind::ReadOnly, "the library \"" + path +
                                          "\" is read-only; nothing was saved: make the file "
                                          "writable or save to another library"};
}

std::optional<StoreError> checkScenarioText(const std::string& json) {
    if (!nlohmann::json::accept(json))
        return StoreError{StoreErrorKind::BadInput, "the scenario is not valid JSON"};
    return std::nullopt;
}

// The latest version number of `id` (0 when it has none), or NotFound.
Result<int> latestVersion(sqlite3* db, ScenarioId id) {
    Statement exists(db, "SELECT COUNT(*) FROM scenarios WHERE id = ?1");
    exists.bind(1, id);
    int rc = exists.step();
    if (rc != SQLITE_ROW)
        return errorFrom(db, rc, "cannot read scenario " + std::to_string(id));
    if (exists.integer(0) == 0)
        return notFound(id);
    Statement latest(db, "SELECT COALESCE(MAX(number), 0) FROM versions WHERE scenario_id = ?1");
    latest.bind(1, id);
    rc = latest.step();
    if (rc != SQLITE_ROW)
        return errorFrom(db, rc, "cannot read scenario " + std::to_string(id));
    return static_cast<int>(latest.integer(0));
}

Status insertVersion(sqlite3* db, ScenarioId id, const StoredVersion& version) {
    Statement insert(db, "INSERT INTO versions (scenario_id, number, created_at, note, "
                         "scenario_json) VALUES (?1, ?2, ?3, ?4, ?5)");
    insert.bind(1, id)
        .bind(2, std::int64_t{version.info.number})
        .bind(3, version.info.createdAt)
        .bind(4, version.info.note)
        .bind(5, version.scenarioJson);
    const int rc = insert.run();
    if (rc != SQLITE_DONE)
        return errorFrom(db, rc, "cannot save version " + std::to_string(version.info.number));
    return Done{};
}

Status commitOrError(sqlite3* db, Transaction& transaction, const std::string& doing) {
    const int rc = transaction.commit();
    if (rc != SQLITE_OK)
        return errorFrom(db, rc, doing);
    return Done{};
}

} // namespace

Result<ScenarioId> SqliteLibrary::addScenario(const std::string& name,
                                              const std::string& scenarioJson,
                                              const std::string& note,
                                              const std::vector<std::string>& tags) {
    return insertRecord(firstVersionRecord(name, scenarioJson, note, tags));
}

Result<int> SqliteLibrary::saveVersion(ScenarioId id, const std::string& scenarioJson,
                                       const std::string& note, std::optional<int> basedOn) {
    if (readOnly_)
        return readOnlyError(path_);
    if (auto bad = checkScenarioText(scenarioJson))
        return *bad;
    Transaction transaction(db_, true);
    if (transaction.beginCode() != SQLITE_OK)
        return errorFrom(db_, transaction.beginCode(), "cannot save");
    auto latest = latestVersion(db_, id);
    if (!latest)
        return latest.error();
    if (basedOn && *basedOn != *latest)
        return conflict(id, *basedOn, *latest);
    const int number = *latest + 1;
    if (auto inserted = insertVersion(db_, id, {{number, utcNow(), note}, scenarioJson}); !inserted)
        return inserted.error();
    if (auto committed = commitOrError(db_, transaction, "cannot save"); !committed)
        return committed.error();
    return number;
}

Status SqliteLibrary::runWrite(const char* sql, ScenarioId id, const std::string& text,
                               const char* doing) {
    if (readOnly_)
        return readOnlyError(path_);
    Transaction transaction(db_, true);
    if (transaction.beginCode() != SQLITE_OK)
        return errorFrom(db_, transaction.beginCode(), doing);
    if (auto latest = latestVersion(db_, id); !latest)
        return latest.error();
    Statement statement(db_, sql);
    statement.bind(1, id).bind(2, text);
    const int rc = statement.run();
    if (rc != SQLITE_DONE)
        return errorFrom(db_, rc, doing);
    return commitOrError(db_, transaction, doing);
}

Status SqliteLibrary::rename(ScenarioId id, const std::string& name) {
    if (auto bad = checkName(name))
        return *bad;
    return runWrite("UPDATE scenarios SET name = ?2 WHERE id = ?1", id, name, "cannot rename");
}

Status SqliteLibrary::addTag(ScenarioId id, const std::string& tag) {
    if (auto bad = checkTag(tag))
        return *bad;
    return runWrite("INSERT OR IGNORE INTO tags (scenario_id, tag) VALUES (?1, ?2)", id, tag,
                    "cannot tag");
}

Status SqliteLibrary::removeTag(ScenarioId id, const std::string& tag) {
    return runWrite("DELETE FROM tags WHERE scenario_id = ?1 AND tag = ?2", id, tag,
                    "cannot remove the tag");
}

Result<ScenarioRecord> SqliteLibrary::removeScenario(ScenarioId id) {
    if (readOnly_)
        return readOnlyError(path_);
    Transaction transaction(db_, true);
    if (transaction.beginCode() != SQLITE_OK)
        return errorFrom(db_, transaction.beginCode(), "cannot delete");
    auto record = readRecord(id);
    if (!record)
        return record.error();
    Statement remove(db_, "DELETE FROM scenarios WHERE id = ?1");
    remove.bind(1, id);
    const int rc = remove.run();
    if (rc != SQLITE_DONE)
        return errorFrom(db_, rc, "cannot delete scenario " + std::to_string(id));
    if (auto committed = commitOrError(db_, transaction, "cannot delete"); !committed)
        return committed.error();
    return record;
}

Status SqliteLibrary::storeEstimate(ScenarioId id, int number, const CachedEstimate& estimate) {
    if (readOnly_)
        return readOnlyError(path_);
    Transaction transaction(db_, true);
    if (transaction.beginCode() != SQLITE_OK)
        return errorFrom(db_, transaction.beginCode(), "cannot cache the estimate");
    auto latest = latestVersion(db_, id);
    if (!latest)
        return latest.error();
    if (number < 1 || number > *latest)
        return versionNotFound(id, number);
    Statement put(db_, "INSERT OR REPLACE INTO estimates (scenario_id, number, "
                       "estimator_version, estimate_json, computed_at) "
                       "VALUES (?1, ?2, ?3, ?4, ?5)");
    put.bind(1, id)
        .bind(2, std::int64_t{number})
        .bind(3, estimate.estimatorVersion)
        .bind(4, estimate.estimateJson)
        .bind(5, estimate.computedAt.empty() ? utcNow() : estimate.computedAt);
    const int rc = put.run();
    if (rc != SQLITE_DONE)
        return errorFrom(db_, rc, "cannot cache the estimate");
    return commitOrError(db_, transaction, "cannot cache the estimate");
}

Result<ScenarioId> SqliteLibrary::insertRecord(const ScenarioRecord& record) {
    if (readOnly_)
        return readOnlyError(path_);
    Transaction transaction(db_, true);
    if (transaction.beginCode() != SQLITE_OK)
        return errorFrom(db_, transaction.beginCode(), "cannot save");
    ScenarioId id = record.id;
    if (auto inserted = insertRecordRows(record, id); !inserted)
        return inserted.error();
    if (auto committed = commitOrError(db_, transaction, "cannot save"); !committed)
        return committed.error();
    return id;
}

Status SqliteLibrary::insertRecordRows(const ScenarioRecord& record, ScenarioId& id) {
    if (auto bad = checkName(record.name))
        return *bad;
    if (record.versions.empty())
        return StoreError{StoreErrorKind::BadInput, "a scenario needs at least one version"};
    for (const auto& tag : record.tags)
        if (auto bad = checkTag(tag))
            return *bad;
    int previous = 0;
    for (const auto& version : record.versions) {
        if (version.info.number <= previous)
            return StoreError{StoreErrorKind::BadInput,
                              "version numbers must increase from 1; got " +
                                  std::to_string(version.info.number) + " after " +
                                  std::to_string(previous)};
        previous = version.info.number;
        if (auto bad = checkScenarioText(version.scenarioJson))
            return *bad;
    }
    if (id != 0) {
        Statement taken(db_, "SELECT COUNT(*) FROM scenarios WHERE id = ?1");
        taken.bind(1, id);
        if (int rc = taken.step(); rc != SQLITE_ROW)
            return errorFrom(db_, rc, "cannot save");
        if (taken.integer(0) != 0)
            return StoreError{StoreErrorKind::Conflict,
                              "scenario id " + std::to_string(id) + " is already taken"};
    }
    Statement scenario(db_, "INSERT INTO scenarios (id, name, created_at) VALUES (?1, ?2, ?3)");
    if (id != 0)
        scenario.bind(1, id);
    else
        scenario.bindNull(1);
    scenario.bind(2, record.name).bind(3, record.createdAt.empty() ? utcNow() : record.createdAt);
    if (int rc = scenario.run(); rc != SQLITE_DONE)
        return errorFrom(db_, rc, "cannot save the scenario");
    id = sqlite3_last_insert_rowid(db_);
    for (const auto& version : record.versions)
        if (auto inserted = insertVersion(db_, id, version); !inserted)
            return inserted;
    Statement tag(db_, "INSERT OR IGNORE INTO tags (scenario_id, tag) VALUES (?1, ?2)");
    for (const auto& name : record.tags) {
        tag.reset();
        tag.bind(1, id).bind(2, name);
        if (int rc = tag.run(); rc != SQLITE_DONE)
            return errorFrom(db_, rc, "cannot save the tags");
    }
    Statement estimate(db_, "INSERT INTO estimates (scenario_id, number, estimator_version, "
                            "estimate_json, computed_at) VALUES (?1, ?2, ?3, ?4, ?5)");
    for (const auto& [number, cached] : record.estimates) {
        estimate.reset();
        estimate.bind(1, id)
            .bind(2, std::int64_t{number})
            .bind(3, cached.estimatorVersion)
            .bind(4, cached.estimateJson)
            .bind(5, cached.computedAt);
        if (int rc = estimate.run(); rc != SQLITE_DONE)
            return errorFrom(db_, rc, "cannot save the cached estimates");
    }
    return Done{};
}

} // namespace ts::store
