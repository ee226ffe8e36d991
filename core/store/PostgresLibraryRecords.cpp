// PostgreSQL library: whole scenarios (export, import, delete and its undo).

#include "store/PostgresLibrary.h"
#include "store/PostgresQuery.h"
#include "store/PostgresTransaction.h"

#include <nlohmann/json.hpp>

namespace ts::store {

Result<ScenarioRecord> PostgresLibrary::readRecord(ScenarioId id) {
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
    Query rows(conn_, "SELECT number, created_at, note, scenario_json FROM trainscape_versions "
                      "WHERE scenario_id = $1 ORDER BY number");
    rows.bind(id);
    if (!rows.run())
        return error("cannot read the versions", rows.sqlState());
    for (int r = 0; r < rows.rows(); ++r)
        record.versions.push_back(
            {{static_cast<int>(rows.integer(r, 0)), rows.text(r, 1), rows.text(r, 2)},
             rows.text(r, 3)});
    Query estimates(conn_, "SELECT number, estimator_version, estimate_json, computed_at FROM "
                           "trainscape_estimates WHERE scenario_id = $1 ORDER BY number");
    estimates.bind(id);
    if (!estimates.run())
        return error("cannot read the estimates", estimates.sqlState());
    for (int r = 0; r < estimates.rows(); ++r)
        record.estimates.push_back(
            {static_cast<int>(estimates.integer(r, 0)),
             CachedEstimate{estimates.text(r, 1), estimates.text(r, 2), estimates.text(r, 3)}});
    return record;
}

Result<ScenarioRecord> PostgresLibrary::record(ScenarioId id) {
    PgTransaction transaction(conn_); // one snapshot for the three reads
    Query snapshot(conn_, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    if (!snapshot.run())
        return error("cannot read the library", snapshot.sqlState());
    return readRecord(id);
}

Result<ScenarioRecord> PostgresLibrary::removeScenario(ScenarioId id) {
    PgTransaction transaction(conn_);
    if (auto latest = lockedLatest(id); !latest)
        return latest.error();
    auto record = readRecord(id);
    if (!record)
        return record.error();
    Query remove(conn_, "DELETE FROM trainscape_scenarios WHERE id = $1");
    remove.bind(id);
    if (!remove.run())
        return error("cannot delete scenario " + std::to_string(id), remove.sqlState());
    if (!transaction.commit())
        return error("cannot delete scenario " + std::to_string(id));
    return record;
}

Result<ScenarioId> PostgresLibrary::insertRecord(const ScenarioRecord& record) {
    PgTransaction transaction(conn_);
    ScenarioId id = record.id;
    if (auto inserted = insertRecordRows(record, id); !inserted)
        return inserted.error();
    if (!transaction.commit())
        return error("cannot save");
    return id;
}

Status PostgresLibrary::insertRecordRows(const ScenarioRecord& record, ScenarioId& id) {
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
        if (!nlohmann::json::accept(version.scenarioJson))
            return StoreError{StoreErrorKind::BadInput, "the scenario is not valid JSON"};
    }
    const std::string created = record.createdAt.empty() ? utcNow() : record.createdAt;
    if (id != 0) {
        Query insert(conn_, "INSERT INTO trainscape_scenarios (id, name, created_at) VALUES "
                            "($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id");
        insert.bind(id).bind(record.name).bind(created);
        if (!insert.run())
            return error("cannot save the scenario", insert.sqlState());
        if (insert.rows() == 0)
            return StoreError{StoreErrorKind::Conflict,
                              "scenario id " + std::to_string(id) + " is already taken"};
        // Keep the id sequence ahead of ids inserted by hand.
        Query bump(conn_, "SELECT setval(pg_get_serial_sequence('trainscape_scenarios', 'id'), "
                          "GREATEST((SELECT MAX(id) FROM trainscape_scenarios), 1))");
        if (!bump.run())
            return error("cannot save the scenario", bump.sqlState());
    } else {
        Query insert(conn_, "INSERT INTO trainscape_scenarios (name, created_at) VALUES ($1, $2) "
                            "RETURNING id");
        insert.bind(record.name).bind(created);
        if (!insert.run())
            return error("cannot save the scenario", insert.sqlState());
        id = insert.integer(0, 0);
    }
    for (const auto& version : record.versions) {
        Query insert(conn_, "INSERT INTO trainscape_versions (scenario_id, number, created_at, "
                            "note, scenario_json) VALUES ($1, $2, $3, $4, $5)");
        insert.bind(id)
            .bind(std::int64_t{version.info.number})
            .bind(version.info.createdAt)
            .bind(version.info.note)
            .bind(version.scenarioJson);
        if (!insert.run())
            return error("cannot save the versions", insert.sqlState());
    }
    for (const auto& tag : record.tags) {
        Query insert(conn_, "INSERT INTO trainscape_tags (scenario_id, tag) VALUES ($1, $2) "
                            "ON CONFLICT DO NOTHING");
        insert.bind(id).bind(tag);
        if (!insert.run())
            return error("cannot save the tags", insert.sqlState());
    }
    for (const auto& [number, cached] : record.estimates) {
        Query insert(conn_, "INSERT INTO trainscape_estimates (scenario_id, number, "
                            "estimator_version, estimate_json, computed_at) "
                            "VALUES ($1, $2, $3, $4, $5)");
        insert.bind(id)
            .bind(std::int64_t{number})
            .bind(cached.estimatorVersion)
            .bind(cached.estimateJson)
            .bind(cached.computedAt);
        if (!insert.run())
            return error("cannot save the cached estimates", insert.sqlState());
    }
    return Done{};
}

} // namespace ts::store
