// PostgreSQL library: reads and writes. A save locks the scenario's row (SELECT ... FOR
// UPDATE), so two writers of one scenario take turns and each sees the other's version.

#include "common/AtomicFile.h"
#include "store/LibraryBundle.h"
#include "store/LibrarySearch.h"
#include "store/PostgresLibrary.h"
#include "store/PostgresQuery.h"
#include "store/PostgresTransaction.h"

#include <map>
#include <set>

#include <nlohmann/json.hpp>

namespace ts::store {

Result<int> PostgresLibrary::lockedLatest(ScenarioId id) {
    Query lock(conn_, "SELECT id FROM trainscape_scenarios WHERE id = $1 FOR UPDATE");
    lock.bind(id);
    if (!lock.run())
        return error("cannot read scenario " + std::to_string(id), lock.sqlState());
    if (lock.rows() == 0)
        return notFound(id);
    Query latest(conn_, "SELECT COALESCE(MAX(number), 0) FROM trainscape_versions "
                        "WHERE scenario_id = $1");
    latest.bind(id);
    if (!latest.run())
        return error("cannot read scenario " + std::to_string(id), latest.sqlState());
    return static_cast<int>(latest.integer(0, 0));
}

Result<ScenarioId> PostgresLibrary::addScenario(const std::string& name,
                                                const std::string& scenarioJson,
                                                const std::string& note,
                                                const std::vector<std::string>& tags) {
    return insertRecord(firstVersionRecord(name, scenarioJson, note, tags));
}

Result<int> PostgresLibrary::saveVersion(ScenarioId id, const std::string& scenarioJson,
                                         const std::string& note, std::optional<int> basedOn) {
    if (!nlohmann::json::accept(scenarioJson))
        return StoreError{StoreErrorKind::BadInput, "the scenario is not valid JSON"};
    PgTransaction transaction(conn_);
    auto latest = lockedLatest(id);
    if (!latest)
        return latest.error();
    if (basedOn && *basedOn != *latest)
        return conflict(id, *basedOn, *latest);
    Query insert(conn_, "INSERT INTO trainscape_versions (scenario_id, number, created_at, note, "
                        "scenario_json) VALUES ($1, $2, $3, $4, $5)");
    insert.bind(id).bind(std::int64_t{*latest + 1}).bind(utcNow()).bind(note).bind(scenarioJson);
    if (!insert.run())
        return error("cannot save", insert.sqlState());
    if (!transaction.commit())
        return error("cannot save");
    return *latest + 1;
}

Result<std::vector<ScenarioSummary>> PostgresLibrary::summaries(std::optional<ScenarioId> only) {
    Query rows(conn_, "SELECT s.id, s.name, s.created_at, MAX(v.number), COUNT(v.number), "
                      "MAX(v.created_at) FROM trainscape_scenarios s JOIN trainscape_versions v "
                      "ON v.scenario_id = s.id WHERE $1::BIGINT IS NULL OR s.id = $1::BIGINT "
                      "GROUP BY s.id ORDER BY s.id");
    Query tags(conn_, "SELECT scenario_id, tag FROM trainscape_tags WHERE $1::BIGINT IS NULL "
                      "OR scenario_id = $1::BIGINT ORDER BY scenario_id, tag");
    if (only) {
        rows.bind(*only);
        tags.bind(*only);
    } else {
        rows.bindNull();
        tags.bindNull();
    }
    if (!rows.run())
        return error("cannot list the library", rows.sqlState());
    std::vector<ScenarioSummary> out;
    std::map<ScenarioId, std::size_t> index;
    for (int r = 0; r < rows.rows(); ++r) {
        ScenarioSummary s;
        s.id = rows.integer(r, 0);
        s.name = rows.text(r, 1);
        s.createdAt = rows.text(r, 2);
        s.latestVersion = static_cast<int>(rows.integer(r, 3));
        s.versionCount = static_cast<int>(rows.integer(r, 4));
        s.updatedAt = rows.text(r, 5);
        index[s.id] = out.size();
        out.push_back(std::move(s));
    }
    if (!tags.run())
        return error("cannot list the tags", tags.sqlState());
    for (int r = 0; r < tags.rows(); ++r)
        if (auto it = index.find(tags.integer(r, 0)); it != index.end())
            out[it->second].tags.push_back(tags.text(r, 1));
    return out;
}

Result<std::vector<ScenarioSummary>> PostgresLibrary::listScenarios() {
    return summaries(std::nullopt);
}

Result<ScenarioSummary> PostgresLibrary::scenario(ScenarioId id) {
    auto found = summaries(id);
    if (!found)
        return found.error();
    if (found->empty())
        return notFound(id);
    return found->front();
}

Result<std::vector<ScenarioSummary>> PostgresLibrary::search(const std::string& query) {
    std::optional<std::set<ScenarioId>> kept;
    for (const auto& word : searchWords(query)) {
        Query match(conn_, "SELECT s.id FROM trainscape_scenarios s WHERE s.name ILIKE $1 "
                           "OR EXISTS (SELECT 1 FROM trainscape_versions v WHERE "
                           "v.scenario_id = s.id AND v.note ILIKE $1) "
                           "OR EXISTS (SELECT 1 FROM trainscape_tags t WHERE "
                           "t.scenario_id = s.id AND t.tag ILIKE $1)");
        match.bind(likePattern(word)); // '\' is ILIKE's default escape
        if (!match.run())
            return error("cannot search the library", match.sqlState());
        std::set<ScenarioId> ids;
        for (int r = 0; r < match.rows(); ++r)
            if (!kept || kept->count(match.integer(r, 0)))
                ids.insert(match.integer(r, 0));
        kept = std::move(ids);
    }
    auto all = summaries(std::nullopt);
    if (!all || !kept)
        return all;
    std::vector<ScenarioSummary> out;
    for (auto& s : *all)
        if (kept->count(s.id))
            out.push_back(std::move(s));
    return out;
}

Result<std::vector<VersionInfo>> PostgresLibrary::versions(ScenarioId id) {
    Query rows(conn_, "SELECT number, created_at, note FROM trainscape_versions "
                      "WHERE scenario_id = $1 ORDER BY number");
    rows.bind(id);
    if (!rows.run())
        return error("cannot read the versions", rows.sqlState());
    std::vector<VersionInfo> out;
    for (int r = 0; r < rows.rows(); ++r)
        out.push_back({static_cast<int>(rows.integer(r, 0)), rows.text(r, 1), rows.text(r, 2)});
    if (out.empty())
        return notFound(id);
    return out;
}

Result<StoredVersion> PostgresLibrary::version(ScenarioId id, std::optional<int> number) {
    Query row(conn_, "SELECT number, created_at, note, scenario_json FROM trainscape_versions "
                     "WHERE scenario_id = $1 AND ($2::INTEGER IS NULL OR number = $2::INTEGER) "
                     "ORDER BY number DESC LIMIT 1");
    row.bind(id);
    if (number)
        row.bind(std::int64_t{*number});
    else
        row.bindNull();
    if (!row.run())
        return error("cannot read the version", row.sqlState());
    if (row.rows() == 0) {
        auto exists = summaries(id);
        if (!number || (exists && exists->empty()))
            return notFound(id);
        return versionNotFound(id, *number);
    }
    return StoredVersion{{static_cast<int>(row.integer(0, 0)), row.text(0, 1), row.text(0, 2)},
                         row.text(0, 3)};
}

Status PostgresLibrary::runWrite(const char* sql, ScenarioId id, const std::string& text,
                                 const char* doing) {
    PgTransaction transaction(conn_);
    if (auto latest = lockedLatest(id); !latest)
        return latest.error();
    Query write(conn_, sql);
    write.bind(id).bind(text);
    if (!write.run())
        return error(doing, write.sqlState());
    if (!transaction.commit())
        return error(doing);
    return Done{};
}

Status PostgresLibrary::rename(ScenarioId id, const std::string& name) {
    if (auto bad = checkName(name))
        return *bad;
    return runWrite("UPDATE trainscape_scenarios SET name = $2 WHERE id = $1", id, name,
                    "cannot rename");
}

Status PostgresLibrary::addTag(ScenarioId id, const std::string& tag) {
    if (auto bad = checkTag(tag))
        return *bad;
    return runWrite("INSERT INTO trainscape_tags (scenario_id, tag) VALUES ($1, $2) "
                    "ON CONFLICT DO NOTHING",
                    id, tag, "cannot tag");
}

Status PostgresLibrary::removeTag(ScenarioId id, const std::string& tag) {
    return runWrite("DELETE FROM trainscape_tags WHERE scenario_id = $1 AND tag = $2", id, tag,
                    "cannot remove the tag");
}

Result<std::optional<CachedEstimate>> PostgresLibrary::cachedEstimate(ScenarioId id, int number) {
    Query row(conn_, "SELECT estimator_version, estimate_json, computed_at FROM "
                     "trainscape_estimates WHERE scenario_id = $1 AND number = $2");
    row.bind(id).bind(std::int64_t{number});
    if (!row.run())
        return error("cannot read the cached estimate", row.sqlState());
    if (row.rows() == 0)
        return std::optional<CachedEstimate>();
    return std::optional<CachedEstimate>(
        CachedEstimate{row.text(0, 0), row.text(0, 1), row.text(0, 2)});
}

Status PostgresLibrary::storeEstimate(ScenarioId id, int number, const CachedEstimate& estimate) {
    PgTransaction transaction(conn_);
    auto latest = lockedLatest(id);
    if (!latest)
        return latest.error();
    if (number < 1 || number > *latest)
        return versionNotFound(id, number);
    Query put(conn_, "INSERT INTO trainscape_estimates (scenario_id, number, estimator_version, "
                     "estimate_json, computed_at) VALUES ($1, $2, $3, $4, $5) "
                     "ON CONFLICT (scenario_id, number) DO UPDATE SET "
                     "estimator_version = EXCLUDED.estimator_version, "
                     "estimate_json = EXCLUDED.estimate_json, computed_at = EXCLUDED.computed_at");
    put.bind(id)
        .bind(std::int64_t{number})
        .bind(estimate.estimatorVersion)
        .bind(estimate.estimateJson)
        .bind(estimate.computedAt.empty() ? utcNow() : estimate.computedAt);
    if (!put.run())
        return error("cannot cache the estimate", put.sqlState());
    if (!transaction.commit())
        return error("cannot cache the estimate");
    return Done{};
}

Status PostgresLibrary::backup(const std::string& path) {
    auto bundle = exportBundle(*this, {});
    if (!bundle)
        return bundle.error();
    if (auto written = writeFileAtomically(path, *bundle); !written)
        return StoreError{StoreErrorKind::Io, "cannot back up: " + written.error};
    return Done{};
}

} // namespace ts::store
