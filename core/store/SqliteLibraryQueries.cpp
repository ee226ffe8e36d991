// SQLite library: the reads, and backup.

#include "store/LibrarySearch.h"
#include "store/SqliteLibrary.h"
#include "store/SqliteStatement.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include <unistd.h>

namespace ts::store {

using namespace sqlite;

Result<std::vector<ScenarioSummary>> SqliteLibrary::summaries(std::optional<ScenarioId> only) {
    Statement rows(db_, "SELECT s.id, s.name, s.created_at, MAX(v.number), COUNT(v.number), "
                        "MAX(v.created_at) FROM scenarios s JOIN versions v "
                        "ON v.scenario_id = s.id WHERE ?1 IS NULL OR s.id = ?1 "
                        "GROUP BY s.id ORDER BY s.id");
    if (only)
        rows.bind(1, *only);
    else
        rows.bindNull(1);
    std::vector<ScenarioSummary> out;
    std::map<ScenarioId, std::size_t> index;
    int rc = rows.step();
    for (; rc == SQLITE_ROW; rc = rows.step()) {
        ScenarioSummary summary;
        summary.id = rows.integer(0);
        summary.name = rows.text(1);
        summary.createdAt = rows.text(2);
        summary.latestVersion = static_cast<int>(rows.integer(3));
        summary.versionCount = static_cast<int>(rows.integer(4));
        summary.updatedAt = rows.text(5);
        index[summary.id] = out.size();
        out.push_back(std::move(summary));
    }
    if (rc != SQLITE_DONE)
        return errorFrom(db_, rc, "cannot list the library");
    Statement tags(db_, "SELECT scenario_id, tag FROM tags WHERE ?1 IS NULL OR scenario_id = ?1 "
                        "ORDER BY scenario_id, tag");
    if (only)
        tags.bind(1, *only);
    else
        tags.bindNull(1);
    for (rc = tags.step(); rc == SQLITE_ROW; rc = tags.step())
        if (auto it = index.find(tags.integer(0)); it != index.end())
            out[it->second].tags.push_back(tags.text(1));
    if (rc != SQLITE_DONE)
        return errorFrom(db_, rc, "cannot list the tags");
    return out;
}

Result<std::vector<ScenarioSummary>> SqliteLibrary::listScenarios() {
    Transaction transaction(db_, false);
    return summaries(std::nullopt);
}

Result<ScenarioSummary> SqliteLibrary::scenario(ScenarioId id) {
    Transaction transaction(db_, false);
    auto found = summaries(id);
    if (!found)
        return found.error();
    if (found->empty())
        return notFound(id);
    return found->front();
}

Result<std::vector<ScenarioSummary>> SqliteLibrary::search(const std::string& query) {
    Transaction transaction(db_, false);
    Statement match(db_, "SELECT s.id FROM scenarios s WHERE s.name LIKE ?1 ESCAPE '\\' "
                         "OR EXISTS (SELECT 1 FROM versions v WHERE v.scenario_id = s.id "
                         "AND v.note LIKE ?1 ESCAPE '\\') "
                         "OR EXISTS (SELECT 1 FROM tags t WHERE t.scenario_id = s.id "
                         "AND t.tag LIKE ?1 ESCAPE '\\')");
    std::optional<std::set<ScenarioId>> kept;
    for (const auto& word : searchWords(query)) {
        match.reset();
        match.bind(1, likePattern(word));
        std::set<ScenarioId> ids;
        int rc = match.step();
        for (; rc == SQLITE_ROW; rc = match.step())
            if (!kept || kept->count(match.integer(0)))
                ids.insert(match.integer(0));
        if (rc != SQLITE_DONE)
            return errorFrom(db_, rc, "cannot search the library");
        kept = std::move(ids);
    }
    auto all = summaries(std::nullopt);
    if (!all || !kept)
        return all;
    std::vector<ScenarioSummary> out;
    for (auto& summary : *all)
        if (kept->count(summary.id))
            out.push_back(std::move(summary));
    return out;
}

Result<std::vector<VersionInfo>> SqliteLibrary::versions(ScenarioId id) {
    Transaction transaction(db_, false);
    Statement rows(db_, "SELECT number, created_at, note FROM versions WHERE scenario_id = ?1 "
                        "ORDER BY number");
    rows.bind(1, id);
    std::vector<VersionInfo> out;
    int rc = rows.step();
    for (; rc == SQLITE_ROW; rc = rows.step())
        out.push_back({static_cast<int>(rows.integer(0)), rows.text(1), rows.text(2)});
    if (rc != SQLITE_DONE)
        return errorFrom(db_, rc, "cannot read the versions");
    if (out.empty())
        return notFound(id);
    return out;
}

Result<StoredVersion> SqliteLibrary::version(ScenarioId id, std::optional<int> number) {
    Transaction transaction(db_, false);
    Statement row(db_, "SELECT number, created_at, note, scenario_json FROM versions "
                       "WHERE scenario_id = ?1 AND (?2 IS NULL OR number = ?2) "
                       "ORDER BY number DESC LIMIT 1");
    row.bind(1, id);
    if (number)
        row.bind(2, std::int64_t{*number});
    else
        row.bindNull(2);
    const int rc = row.step();
    if (rc == SQLITE_DONE) {
        if (!number)
            return notFound(id);
        auto exists = summaries(id);
        if (exists && exists->empty())
            return notFound(id);
        return versionNotFound(id, *number);
    }
    if (rc != SQLITE_ROW)
        return errorFrom(db_, rc, "cannot read the version");
    return StoredVersion{{static_cast<int>(row.integer(0)), row.text(1), row.text(2)}, row.text(3)};
}

Result<std::optional<CachedEstimate>> SqliteLibrary::cachedEstimate(ScenarioId id, int number) {
    Transaction transaction(db_, false);
    Statement row(db_, "SELECT estimator_version, estimate_json, computed_at FROM estimates "
                       "WHERE scenario_id = ?1 AND number = ?2");
    row.bind(1, id).bind(2, std::int64_t{number});
    const int rc = row.step();
    if (rc == SQLITE_DONE)
        return std::optional<CachedEstimate>();
    if (rc != SQLITE_ROW)
        return errorFrom(db_, rc, "cannot read the cached estimate");
    return std::optional<CachedEstimate>(CachedEstimate{row.text(0), row.text(1), row.text(2)});
}

Result<ScenarioRecord> SqliteLibrary::readRecord(ScenarioId id) {
    auto summary = summaries(id);
    if (!summary)
        return summary.error();
    if (summary->empty())
        return notFound(id);
    ScenarioRecord record;
    record.id = id;
    record.name = summary->front().name;
    record.createdAt = summary->front().createdAt;
    record.tags = summary->front().tags;
    Statement rows(db_, "SELECT number, created_at, note, scenario_json FROM versions "
                        "WHERE scenario_id = ?1 ORDER BY number");
    rows.bind(1, id);
    int rc = rows.step();
    for (; rc == SQLITE_ROW; rc = rows.step())
        record.versions.push_back(
            {{static_cast<int>(rows.integer(0)), rows.text(1), rows.text(2)}, rows.text(3)});
    if (rc != SQLITE_DONE)
        return errorFrom(db_, rc, "cannot read the versions");
    Statement estimates(db_, "SELECT number, estimator_version, estimate_json, computed_at "
                             "FROM estimates WHERE scenario_id = ?1 ORDER BY number");
    estimates.bind(1, id);
    for (rc = estimates.step(); rc == SQLITE_ROW; rc = estimates.step())
        record.estimates.push_back(
            {static_cast<int>(estimates.integer(0)),
             CachedEstimate{estimates.text(1), estimates.text(2), estimates.text(3)}});
    if (rc != SQLITE_DONE)
        return errorFrom(db_, rc, "cannot read the estimates");
    return record;
}

Result<ScenarioRecord> SqliteLibrary::record(ScenarioId id) {
    Transaction transaction(db_, false);
    return readRecord(id);
}

// sqlite3_backup copies a consistent snapshot page by page while others keep writing; it goes
// to a temporary file first, renamed over `path` when complete.
Status SqliteLibrary::backup(const std::string& path) {
    const std::string temp = path + ".tmp-" + std::to_string(::getpid());
    std::remove(temp.c_str());
    sqlite3* target = nullptr;
    int rc =
        sqlite3_open_v2(temp.c_str(), &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    auto fail = [&](sqlite3* db, int code) {
        StoreError error = errorFrom(db, code, "cannot back up to \"" + path + "\"");
        sqlite3_close_v2(target);
        std::remove(temp.c_str());
        return error;
    };
    if (rc != SQLITE_OK)
        return fail(target, rc);
    sqlite3_backup* copy = sqlite3_backup_init(target, "main", db_, "main");
    if (!copy)
        return fail(target, sqlite3_errcode(target));
    rc = sqlite3_backup_step(copy, -1);
    sqlite3_backup_finish(copy);
    if (rc != SQLITE_DONE)
        return fail(target, rc);
    if ((rc = sqlite3_close(target)) != SQLITE_OK) {
        target = nullptr;
        return fail(nullptr, rc);
    }
    target = nullptr;
    std::error_code ec;
    std::filesystem::rename(temp, path, ec);
    if (ec) {
        std::remove(temp.c_str());
        return StoreError{StoreErrorKind::Io,
                          "cannot back up to \"" + path + "\": " + ec.message()};
    }
    return Done{};
}

} // namespace ts::store
