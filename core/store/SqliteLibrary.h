#pragma once
// The SQLite library (the embedded default): one file, WAL journal, foreign keys on, every
// write in a BEGIN IMMEDIATE transaction with synchronous=FULL, so a killed process or a
// power cut loses at most the save in progress, never a committed one.

#include "store/Library.h"

#include <sqlite3.h>

#include <memory>
#include <string>

namespace ts::store {

class SqliteLibrary final : public Library {
public:
    // Opens or creates the file. Refuses (leaving it untouched) a file that is not a
    // Trainscape library, is damaged, or was made by a newer Trainscape. A file this process
    // may not write is opened read-only: reads work, writes fail with ReadOnly.
    static Result<std::unique_ptr<SqliteLibrary>> open(const std::string& path);
    ~SqliteLibrary() override;

    std::string location() const override { return "sqlite:" + path_; }
    int schemaVersion() const override;
    bool readOnly() const { return readOnly_; }
    // "ok", or what PRAGMA integrity_check found.
    std::string integrityCheck();

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

private:
    SqliteLibrary(sqlite3* db, std::string path, bool readOnly)
        : db_(db), path_(std::move(path)), readOnly_(readOnly) {}

    // Within an open transaction.
    Result<std::vector<ScenarioSummary>> summaries(std::optional<ScenarioId> only);
    Result<ScenarioRecord> readRecord(ScenarioId id);
    Status insertRecordRows(const ScenarioRecord& record, ScenarioId& id);
    Status runWrite(const char* sql, ScenarioId id, const std::string& text, const char* doing);

    sqlite3* db_ = nullptr;
    std::string path_;
    bool readOnly_ = false;
};

} // namespace ts::store
