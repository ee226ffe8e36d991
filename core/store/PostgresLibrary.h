#pragma once
// The PostgreSQL library: a team's shared library on a server, behind the same interface as
// the SQLite one (libpq, every statement through PQexecParams with parameters). The
// connection string comes from the caller (an option or an environment variable); its
// password never appears in location() or in any message.
//
// Tables are prefixed "trainscape_" so the library can share a database with others. The
// schema version lives in trainscape_meta; migrations follow the SQLite steps one to one and
// run under an advisory lock, so two processes opening a new library at once do not race.

#include "store/Library.h"

#include <memory>
#include <string>

struct pg_conn;

namespace ts::store {

inline constexpr int kPostgresSchemaVersion = 3;

class PostgresLibrary final : public Library {
public:
    // `targetSchema` below the current one is for tests of each migration step.
    static Result<std::unique_ptr<PostgresLibrary>> open(const std::string& url,
                                                         int targetSchema = kPostgresSchemaVersion);
    ~PostgresLibrary() override;

    std::string location() const override { return location_; }
    int schemaVersion() const override;

    Result<ScenarioId> addScenario(const std::string& name, const std::string& scenarioJson,
                                   const std::string& note,
                                   const std::vector<std::string>& tags) override;
    Result<int> saveVersion(ScenarioId id, const std::string& scenarioJson, const std::string& note,
                            std::optional<int> basedOn) override;
    Result<std::vector<ScenarioSummary>> listScenarios() override;
    Result<ScenarioSummary> scenario(ScenarioId id) override;
    Result<std::vector<ScenarioSummary>> search(const std::string& query) override;
    Result<std::vector<VersionInfo>> versions(ScenarioId id) override;
    Result<StoredVersion> version(ScenarioId id, std::optional<int> number) override;
    Status rename(ScenarioId id, const std::string& name) override;
    Status addTag(ScenarioId id, const std::string& tag) override;
    Status removeTag(ScenarioId id, const std::string& tag) override;
    Result<ScenarioRecord> removeScenario(ScenarioId id) override;
    Result<std::optional<CachedEstimate>> cachedEstimate(ScenarioId id, int number) override;
    Status storeEstimate(ScenarioId id, int number, const CachedEstimate& estimate) override;
    Result<ScenarioRecord> record(ScenarioId id) override;
    Result<ScenarioId> insertRecord(const ScenarioRecord& record) override;
    Status backup(const std::string& path) override;

    // Drops every trainscape_ table (tests start from an empty database).
    Status dropAll();

    class Query; // PostgresQuery.h

private:
    PostgresLibrary(pg_conn* conn, std::string location, std::string password)
        : conn_(conn), location_(std::move(location)), password_(std::move(password)) {}

    Status migrateTo(int target);
    StoreError error(const std::string& doing, const char* sqlState = nullptr) const;
    Result<std::vector<ScenarioSummary>> summaries(std::optional<ScenarioId> only);
    Result<ScenarioRecord> readRecord(ScenarioId id);
    Status insertRecordRows(const ScenarioRecord& record, ScenarioId& id);
    Result<int> lockedLatest(ScenarioId id);
    Status runWrite(const char* sql, ScenarioId id, const std::string& text, const char* doing);

    pg_conn* conn_ = nullptr;
    std::string location_;
    std::string password_; // only to scrub it from messages
};

// "postgresql://user@host:5432/db" (any password removed).
std::string redactPostgresUrl(const std::string& url);

} // namespace ts::store
