// PostgreSQL library: connecting, recognising a library, the schema and its migrations.

#include "store/PostgresLibrary.h"
#include "store/PostgresQuery.h"
#include "store/PostgresTransaction.h"

#include <cstring>

namespace ts::store {

namespace {

// Any key of the advisory-lock space, fixed for Trainscape ("TSLB").
constexpr const char* kMigrationLock = "SELECT pg_advisory_xact_lock(1414745154)";

const std::vector<std::vector<const char*>>& migrationSteps() {
    static const std::vector<std::vector<const char*>> steps = {
        // 0 -> 1: the first schema: scenarios and their versions.
        {"CREATE TABLE trainscape_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
         "INSERT INTO trainscape_meta VALUES ('application', 'trainscape.library'), "
         "('schema_version', '0')",
         "CREATE TABLE trainscape_scenarios (id BIGSERIAL PRIMARY KEY,"
         " name TEXT NOT NULL CHECK (length(name) > 0), created_at TEXT NOT NULL)",
         "CREATE TABLE trainscape_versions ("
         " scenario_id BIGINT NOT NULL REFERENCES trainscape_scenarios(id) ON DELETE CASCADE,"
         " number INTEGER NOT NULL CHECK (number > 0), created_at TEXT NOT NULL,"
         " note TEXT NOT NULL DEFAULT '', scenario_json TEXT NOT NULL,"
         " PRIMARY KEY (scenario_id, number))"},
        // 1 -> 2: tags.
        {"CREATE TABLE trainscape_tags ("
         " scenario_id BIGINT NOT NULL REFERENCES trainscape_scenarios(id) ON DELETE CASCADE,"
         " tag TEXT NOT NULL CHECK (length(tag) > 0), PRIMARY KEY (scenario_id, tag))",
         "CREATE INDEX trainscape_tags_by_tag ON trainscape_tags(tag)"},
        // 2 -> 3: cached estimates with the estimator version that made each.
        {"CREATE TABLE trainscape_estimates (scenario_id BIGINT NOT NULL,"
         " number INTEGER NOT NULL, estimator_version TEXT NOT NULL,"
         " estimate_json TEXT NOT NULL, computed_at TEXT NOT NULL,"
         " PRIMARY KEY (scenario_id, number),"
         " FOREIGN KEY (scenario_id, number) REFERENCES trainscape_versions(scenario_id, number)"
         "  ON DELETE CASCADE)"},
    };
    return steps;
}

// Notices ("relation exists, skipping") would go to stderr; the library reports through
// its results only.
void dropNotice(void*, const char*) {}

} // namespace

std::string redactPostgresUrl(const std::string& url) {
    // scheme://[user[:password]@]host...: drop ":password".
    const auto scheme = url.find("://");
    if (scheme == std::string::npos)
        return url;
    const auto at = url.find('@', scheme + 3);
    const auto slash = url.find('/', scheme + 3);
    if (at == std::string::npos || (slash != std::string::npos && slash < at))
        return url;
    const auto colon = url.find(':', scheme + 3);
    if (colon == std::string::npos || colon > at)
        return url;
    return url.substr(0, colon) + url.substr(at);
}

StoreError PostgresLibrary::error(const std::string& doing, const char* sqlState) const {
    std::string detail = PQerrorMessage(conn_);
    while (!detail.empty() && (detail.back() == '\n' || detail.back() == ' '))
        detail.pop_back();
    if (!password_.empty())
        for (auto at = detail.find(password_); at != std::string::npos; at = detail.find(password_))
            detail.replace(at, password_.size(), "***");
    const std::string state = sqlState ? sqlState : "";
    StoreErrorKind kind = StoreErrorKind::Io;
    if (PQstatus(conn_) != CONNECTION_OK || state.rfind("08", 0) == 0)
        kind = StoreErrorKind::Connection;
    else if (state == "53100")
        kind = StoreErrorKind::DiskFull;
    else if (state == "25006" || state == "42501")
        kind = StoreErrorKind::ReadOnly;
    else if (state == "40001" || state == "40P01" || state == "23505")
        kind = StoreErrorKind::Conflict;
    std::string message = doing + ": " + detail;
    if (kind == StoreErrorKind::Conflict)
        message += " (changed by another process at the same time; nothing was saved, try again)";
    return {kind, message};
}

Result<std::unique_ptr<PostgresLibrary>> PostgresLibrary::open(const std::string& url,
                                                               int targetSchema) {
    std::string password;
    char* parseError = nullptr;
    if (PQconninfoOption* options = PQconninfoParse(url.c_str(), &parseError)) {
        for (auto* o = options; o->keyword; ++o)
            if (std::strcmp(o->keyword, "password") == 0 && o->val)
                password = o->val;
        PQconninfoFree(options);
    } else {
        std::string why = parseError ? parseError : "cannot parse it";
        PQfreemem(parseError);
        return StoreError{StoreErrorKind::BadInput,
                          "invalid PostgreSQL URL " + redactPostgresUrl(url) + ": " + why};
    }
    PGconn* conn = PQconnectdb(url.c_str());
    std::unique_ptr<PostgresLibrary> library(
        new PostgresLibrary(conn, "postgresql:" + redactPostgresUrl(url), password));
    if (PQstatus(conn) != CONNECTION_OK)
        return library->error("cannot connect to " + redactPostgresUrl(url));
    PQsetNoticeProcessor(conn, dropNotice, nullptr);
    if (auto migrated = library->migrateTo(targetSchema); !migrated)
        return migrated.error();
    return library;
}

PostgresLibrary::~PostgresLibrary() {
    PQfinish(conn_);
}

int PostgresLibrary::schemaVersion() const {
    Query query(conn_, "SELECT value FROM trainscape_meta WHERE key = 'schema_version'");
    if (!query.run() || query.rows() != 1)
        return 0;
    return std::stoi(query.text(0, 0));
}

Status PostgresLibrary::migrateTo(int target) {
    PgTransaction transaction(conn_);
    Query lock(conn_, kMigrationLock);
    if (!transaction.begun() || !lock.run())
        return error("cannot open the library", lock.sqlState());
    Query exists(conn_, "SELECT to_regclass('trainscape_meta') IS NOT NULL");
    if (!exists.run())
        return error("cannot open the library", exists.sqlState());
    int schema = 0;
    if (exists.text(0, 0) == "t") {
        Query meta(conn_, "SELECT key, value FROM trainscape_meta");
        if (!meta.run())
            return error("cannot read the library", meta.sqlState());
        std::string application;
        for (int row = 0; row < meta.rows(); ++row) {
            if (meta.text(row, 0) == "application")
                application = meta.text(row, 1);
            else if (meta.text(row, 0) == "schema_version")
                schema = std::stoi(meta.text(row, 1));
        }
        if (application != "trainscape.library")
            return StoreError{StoreErrorKind::NotALibrary,
                              location_ + " holds a trainscape_meta table of another program; "
                                          "it was left untouched"};
        if (schema > kPostgresSchemaVersion)
            return StoreError{StoreErrorKind::TooNew,
                              location_ + " was made by a newer Trainscape (schema " +
                                  std::to_string(schema) + "); it was left untouched"};
    }
    const auto& steps = migrationSteps();
    for (int step = schema; step < target; ++step) {
        for (const char* sql : steps[static_cast<size_t>(step)]) {
            Query statement(conn_, sql);
            if (!statement.run())
                return error("cannot upgrade the library from schema " + std::to_string(step),
                             statement.sqlState());
        }
        Query bump(conn_, "UPDATE trainscape_meta SET value = $1 WHERE key = 'schema_version'");
        bump.bind(std::to_string(step + 1));
        if (!bump.run())
            return error("cannot upgrade the library", bump.sqlState());
    }
    if (!transaction.commit())
        return error("cannot upgrade the library");
    return Done{};
}

Status PostgresLibrary::dropAll() {
    Query drop(conn_, "DROP TABLE IF EXISTS trainscape_estimates, trainscape_tags, "
                      "trainscape_versions, trainscape_scenarios, trainscape_meta CASCADE");
    if (!drop.run())
        return error("cannot drop the library", drop.sqlState());
    return Done{};
}

} // namespace ts::store
