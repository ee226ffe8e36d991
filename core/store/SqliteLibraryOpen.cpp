// Opening an SQLite library: recognising a library file (and refusing, untouched, one that is
// not), creating a new one, upgrading an old schema.

#include "store/SqliteLibrary.h"
#include "store/SqliteSchema.h"
#include "store/SqliteStatement.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace ts::store {

using namespace sqlite;

namespace {

constexpr char kSqliteMagic[] = "SQLite format 3"; // the first 16 bytes, with the NUL

// Reads the 100-byte database header (sqlite.org/fileformat.html, 1.3) without SQLite, so a
// foreign file is judged without being opened for writing.
std::optional<StoreError> checkHeader(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return StoreError{StoreErrorKind::Io,
                          "cannot read \"" + path + "\": " + std::strerror(errno)};
    std::array<unsigned char, 100> header{};
    in.read(reinterpret_cast<char*>(header.data()), header.size());
    const auto got = in.gcount();
    const std::string refusal = "\"" + path + "\" is not a Trainscape library (";
    const std::string untouched = "); it was left untouched";
    if (got < 100 || std::memcmp(header.data(), kSqliteMagic, 16) != 0)
        return StoreError{StoreErrorKind::NotALibrary,
                          refusal + "not an SQLite database" + untouched};
    const std::uint32_t applicationId = (std::uint32_t(header[68]) << 24) |
                                        (std::uint32_t(header[69]) << 16) |
                                        (std::uint32_t(header[70]) << 8) | header[71];
    if (applicationId != static_cast<std::uint32_t>(kApplicationId))
        return StoreError{StoreErrorKind::NotALibrary,
                          refusal + "an SQLite database of another program" + untouched};
    return std::nullopt;
}

// A read-only WAL library needs its -shm file, which SQLite cannot create in a folder we may
// not write (sqlite.org/wal.html, "Read-Only Databases"). With no -wal file there either, the
// last writer checkpointed and closed, so the file is complete: open it immutable.
std::string readOnlyUri(const std::string& path) {
    namespace fs = std::filesystem;
    std::string uri = "file:";
    for (char c : fs::absolute(path).string()) {
        if (c == '%' || c == '?' || c == '#') {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
            uri += hex;
        } else {
            uri += c;
        }
    }
    std::error_code ec;
    const fs::path folder = fs::absolute(path).parent_path();
    if (!fs::exists(path + "-wal", ec) && ::access(folder.c_str(), W_OK) != 0)
        return uri + "?immutable=1";
    return uri + "?mode=ro";
}

Result<std::string> pragmaText(sqlite3* db, const char* sql) {
    Statement statement(db, sql);
    const int rc = statement.step();
    if (rc != SQLITE_ROW)
        return errorFrom(db, rc, "cannot read the library");
    return statement.text(0);
}

// Per-connection settings. WAL lets readers work while one process writes; FULL syncs the
// WAL on every commit, so a committed version survives a power cut, not only a crash.
Status configure(sqlite3* db, bool readOnly) {
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, 15000);
    for (const char* sql : {"PRAGMA foreign_keys = ON", "PRAGMA synchronous = FULL"}) {
        Statement statement(db, sql);
        const int rc = statement.run();
        if (rc != SQLITE_DONE)
            return errorFrom(db, rc, "cannot open the library");
    }
    if (!readOnly) {
        auto mode = pragmaText(db, "PRAGMA journal_mode = WAL");
        if (!mode)
            return mode.error();
    }
    return Done{};
}

// The checks on an existing file, through SQLite, reading only.
Status checkExisting(sqlite3* db, const std::string& path, int& schema) {
    auto quick = pragmaText(db, "PRAGMA quick_check");
    if (!quick) {
        StoreError error = quick.error();
        if (error.kind == StoreErrorKind::Io)
            error.kind = StoreErrorKind::Corrupt;
        error.message = "\"" + path + "\" cannot be read as a library: " + error.message +
                        "; it was left untouched";
        return error;
    }
    if (*quick != "ok")
        return StoreError{StoreErrorKind::Corrupt,
                          "\"" + path + "\" is a damaged library (" + *quick +
                              "); it was left untouched: restore a backup"};
    auto version = pragmaText(db, "PRAGMA user_version");
    if (!version)
        return version.error();
    schema = std::stoi(*version);
    if (schema > kSchemaVersion)
        return StoreError{StoreErrorKind::TooNew,
                          "\"" + path + "\" was made by a newer Trainscape (schema " + *version +
                              ", this one reads up to " + std::to_string(kSchemaVersion) +
                              "); it was left untouched"};
    if (schema < 1)
        return StoreError{StoreErrorKind::NotALibrary,
                          "\"" + path +
                              "\" is not a Trainscape library (no schema); it was "
                              "left untouched"};
    return Done{};
}

} // namespace

Result<std::unique_ptr<SqliteLibrary>> SqliteLibrary::open(const std::string& path) {
    namespace fs = std::filesystem;
    if (path.empty())
        return StoreError{StoreErrorKind::BadInput, "no library file given"};
    std::error_code ec;
    const bool exists = fs::exists(path, ec) && fs::file_size(path, ec) > 0;
    if (exists) {
        if (auto refused = checkHeader(path))
            return *refused;
    } else if (const fs::path parent = fs::path(path).parent_path(); !parent.empty()) {
        fs::create_directories(parent, ec);
    }
    const bool readOnly = exists && ::access(path.c_str(), W_OK) != 0;
    const int flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(readOnly ? readOnlyUri(path).c_str() : path.c_str(), &db,
                                   flags | SQLITE_OPEN_URI, nullptr);
    std::unique_ptr<SqliteLibrary> library(new SqliteLibrary(db, path, readOnly));
    if (rc != SQLITE_OK)
        return errorFrom(db, rc, "cannot open the library \"" + path + "\"");
    int schema = 0;
    if (exists) {
        sqlite3_busy_timeout(db, 15000);
        if (auto checked = checkExisting(db, path, schema); !checked)
            return checked.error();
    } else {
        // The mark goes into the main file before WAL is switched on, so the header check
        // above finds it even when a crash leaves the rest in the WAL.
        std::string sql = "PRAGMA application_id = " + std::to_string(kApplicationId);
        Statement mark(db, sql.c_str());
        if (const int markRc = mark.run(); markRc != SQLITE_DONE)
            return errorFrom(db, markRc, "cannot create the library \"" + path + "\"");
    }
    if (auto configured = configure(db, readOnly); !configured)
        return configured.error();
    if (schema < kSchemaVersion) {
        if (readOnly)
            return StoreError{StoreErrorKind::ReadOnly,
                              "\"" + path + "\" needs an upgrade to schema " +
                                  std::to_string(kSchemaVersion) + " but is read-only"};
        if (auto migrated = migrate(db, schema, kSchemaVersion); !migrated)
            return migrated.error();
    }
    return library;
}

SqliteLibrary::~SqliteLibrary() {
    sqlite3_close_v2(db_);
}

int SqliteLibrary::schemaVersion() const {
    auto version = pragmaText(db_, "PRAGMA user_version");
    return version ? std::stoi(*version) : 0;
}

std::string SqliteLibrary::integrityCheck() {
    Statement statement(db_, "PRAGMA integrity_check");
    std::string result;
    int rc = statement.step();
    while (rc == SQLITE_ROW) {
        if (!result.empty())
            result += "; ";
        result += statement.text(0);
        rc = statement.step();
    }
    if (rc != SQLITE_DONE)
        return errorFrom(db_, rc, "integrity_check").message;
    return result;
}

} // namespace ts::store
