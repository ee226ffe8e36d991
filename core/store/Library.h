#pragma once
// The scenario library (DESIGN.md, core/store): scenarios, each with its versions (every save
// is a new version with its time and note), the estimate of each version cached with the
// estimator version that made it, and tags. One interface, two backends: SQLite (the embedded
// default, SqliteLibrary.h) and PostgreSQL (a team's shared library, PostgresLibrary.h).
//
// Every call is one transaction. Errors are values: a StoreError says what failed and what to
// do about it; nothing throws.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ts::store {

enum class StoreErrorKind {
    NotFound,    // no such scenario or version
    BadInput,    // e.g. an empty name, a bundle that does not parse
    Conflict,    // changed by another process since the caller read it
    NotALibrary, // the file or database is not a Trainscape library
    Corrupt,     // the file is damaged
    TooNew,      // made by a newer Trainscape (schema above ours)
    ReadOnly,    // the file or database refuses writes
    DiskFull,    // no space (or over the file-size limit)
    Connection,  // cannot reach the server
    Io,          // any other failure of the database
};

struct StoreError {
    StoreErrorKind kind = StoreErrorKind::Io;
    std::string message;
};

// A value or a StoreError.
template <typename T> class Result {
public:
    Result(T value) : value_(std::move(value)) {}
    Result(StoreError error) : error_(std::move(error)) {}
    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }
    T& value() { return *value_; }
    const T& value() const { return *value_; }
    T* operator->() { return &*value_; }
    const T* operator->() const { return &*value_; }
    T& operator*() { return *value_; }
    const T& operator*() const { return *value_; }
    const StoreError& error() const { return error_; }

private:
    std::optional<T> value_;
    StoreError error_;
};

struct Done {}; // the value of a call that returns nothing
using Status = Result<Done>;

using ScenarioId = std::int64_t;

struct ScenarioSummary {
    ScenarioId id = 0;
    std::string name;
    std::vector<std::string> tags; // sorted
    int latestVersion = 0;         // versions are numbered 1, 2, ...
    int versionCount = 0;
    std::string createdAt; // ISO 8601 UTC, e.g. 2026-12-01T20:47:03.123Z
    std::string updatedAt; // the latest version's time
};

struct VersionInfo {
    int number = 0;
    std::string createdAt;
    std::string note;
};

struct StoredVersion {
    VersionInfo info;
    std::string scenarioJson; // the scenario file's text, as saved
};

struct CachedEstimate {
    std::string estimatorVersion; // what made it (estimate/EstimatorVersion.h)
    std::string estimateJson;     // "trainscape.estimate/1"
    std::string computedAt;
};

// Everything about one scenario, for export, import and undoing a delete.
struct ScenarioRecord {
    ScenarioId id = 0; // 0 = let the library choose
    std::string name;
    std::string createdAt;
    std::vector<std::string> tags;
    std::vector<StoredVersion> versions;                   // by number, ascending
    std::vector<std::pair<int, CachedEstimate>> estimates; // version number -> estimate
};

class Library {
public:
    virtual ~Library() = default;

    // "sqlite:/path/file.sqlite" or the server's URL without its password.
    virtual std::string location() const = 0;
    virtual int schemaVersion() const = 0;

    // A new scenario with its first version. Returns its id.
    virtual Result<ScenarioId> addScenario(const std::string& name, const std::string& scenarioJson,
                                           const std::string& note,
                                           const std::vector<std::string>& tags) = 0;
    // A new version of `id`. `basedOn` is the version the caller started from: when another
    // version was saved since, the save is refused with StoreErrorKind::Conflict ("changed by
    // another process") instead of silently becoming the newest. nullopt appends
    // unconditionally. Returns the new version's number.
    virtual Result<int> saveVersion(ScenarioId id, const std::string& scenarioJson,
                                    const std::string& note, std::optional<int> basedOn) = 0;

    virtual Result<std::vector<ScenarioSummary>> listScenarios() = 0;
    virtual Result<ScenarioSummary> scenario(ScenarioId id) = 0;
    // Scenarios whose name, notes or tags contain every word of `query` (case-insensitive).
    virtual Result<std::vector<ScenarioSummary>> search(const std::string& query) = 0;
    virtual Result<std::vector<VersionInfo>> versions(ScenarioId id) = 0;
    // nullopt = the latest.
    virtual Result<StoredVersion> version(ScenarioId id, std::optional<int> number) = 0;

    virtual Status rename(ScenarioId id, const std::string& name) = 0;
    virtual Status addTag(ScenarioId id, const std::string& tag) = 0;
    virtual Status removeTag(ScenarioId id, const std::string& tag) = 0;
    // Deletes the scenario with its versions, tags and estimates; returns all of it so that
    // the caller can undo with insertRecord().
    virtual Result<ScenarioRecord> removeScenario(ScenarioId id) = 0;

    // The cached estimate of a version, whatever estimator made it (nullopt: none cached).
    virtual Result<std::optional<CachedEstimate>> cachedEstimate(ScenarioId id, int number) = 0;
    // Replaces the cached estimate of a version.
    virtual Status storeEstimate(ScenarioId id, int number, const CachedEstimate& estimate) = 0;

    virtual Result<ScenarioRecord> record(ScenarioId id) = 0;
    // Inserts a whole scenario in one transaction. With record.id != 0 it keeps that id (an
    // undone delete) and fails with Conflict when the id is taken. Returns the id.
    virtual Result<ScenarioId> insertRecord(const ScenarioRecord& record) = 0;

    // A consistent copy of the whole library at `path` (SQLite: a library file; PostgreSQL:
    // a bundle, see LibraryBundle.h).
    virtual Status backup(const std::string& path) = 0;
};

// Opens (creating when absent) a library: a `postgresql://` or `postgres://` URL (or a
// libpq "key=value" string starting with "postgresql:") is a PostgreSQL library; anything
// else is an SQLite file path. A file that is not a library, or is damaged, is refused and
// left untouched.
Result<std::unique_ptr<Library>> openLibrary(const std::string& pathOrUrl);

bool isPostgresUrl(const std::string& pathOrUrl);

// $XDG_DATA_HOME/trainscape/library.sqlite, or ~/.local/share/trainscape/library.sqlite
// (XDG Base Directory Specification 0.8); "" when neither variable is set.
std::string defaultLibraryPath();

// The current time as ISO 8601 UTC with milliseconds (both backends store this text, so
// times sort and compare alike).
std::string utcNow();

// A new scenario's record: its first version, saved now.
ScenarioRecord firstVersionRecord(const std::string& name, const std::string& scenarioJson,
                                  const std::string& note, const std::vector<std::string>& tags);

// "a name", "name must not be empty" ... shared by the backends.
std::optional<StoreError> checkName(const std::string& name);
std::optional<StoreError> checkTag(const std::string& tag);
StoreError notFound(ScenarioId id);
StoreError versionNotFound(ScenarioId id, int number);
StoreError conflict(ScenarioId id, int basedOn, int latest);

} // namespace ts::store
