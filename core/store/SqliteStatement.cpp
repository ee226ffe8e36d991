#include "store/SqliteStatement.h"

#include <cerrno>
#include <cstring>

#include <sys/resource.h>

namespace ts::store::sqlite {

namespace {

bool fileSizeLimited() {
    rlimit limit{};
    return ::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
}

} // namespace

StoreError errorFrom(sqlite3* db, int rc, const std::string& doing) {
    const int primary = rc & 0xff;
    const int sysErrno = db ? sqlite3_system_errno(db) : 0;
    std::string detail = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    // ENOSPC comes back as SQLITE_FULL; a write cut short by the file-size limit (EFBIG,
    // setrlimit(2)) as SQLITE_IOERR_WRITE, with errno no longer telling which.
    if (primary == SQLITE_FULL ||
        (primary == SQLITE_IOERR && (sysErrno == ENOSPC || sysErrno == EFBIG)) ||
        (rc == SQLITE_IOERR_WRITE && fileSizeLimited())) {
        return {StoreErrorKind::DiskFull,
                doing + ": the disk is full (or the file is over its size limit): " +
                    (sysErrno ? std::string(std::strerror(sysErrno)) : detail) +
                    "; nothing was saved, free some space and save again"};
    }
    if (primary == SQLITE_READONLY || (primary == SQLITE_CANTOPEN && sysErrno == EACCES) ||
        (primary == SQLITE_IOERR && (sysErrno == EROFS || sysErrno == EACCES))) {
        return {StoreErrorKind::ReadOnly,
                doing + ": the library is read-only (" + detail +
                    "); nothing was saved, make the file writable or save to another library"};
    }
    if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB)
        return {StoreErrorKind::Corrupt, doing + ": the library file is damaged: " + detail};
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
        return {StoreErrorKind::Conflict,
                doing + ": the library is locked by another process; try again"};
    return {StoreErrorKind::Io, doing + ": " + detail + " (code " + std::to_string(rc) +
                                    ", errno " + std::to_string(sysErrno) + ")"};
}

Statement::Statement(sqlite3* db, const char* sql) : db_(db) {
    prepareRc_ = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr);
    if (prepareRc_ != SQLITE_OK) {
        sqlite3_finalize(stmt_);
        stmt_ = nullptr;
    }
}

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int index, const std::string& text) {
    if (stmt_)
        sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                          SQLITE_TRANSIENT);
    return *this;
}

Statement& Statement::bind(int index, std::int64_t value) {
    if (stmt_)
        sqlite3_bind_int64(stmt_, index, value);
    return *this;
}

Statement& Statement::bindNull(int index) {
    if (stmt_)
        sqlite3_bind_null(stmt_, index);
    return *this;
}

int Statement::step() {
    return stmt_ ? sqlite3_step(stmt_) : prepareRc_;
}

int Statement::run() {
    int rc = step();
    while (rc == SQLITE_ROW)
        rc = step();
    return rc;
}

void Statement::reset() {
    if (stmt_) {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }
}

std::int64_t Statement::integer(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

std::string Statement::text(int column) const {
    const auto* bytes = sqlite3_column_text(stmt_, column);
    const int size = sqlite3_column_bytes(stmt_, column);
    return bytes ? std::string(reinterpret_cast<const char*>(bytes), static_cast<size_t>(size))
                 : std::string();
}

bool Statement::isNull(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

Transaction::Transaction(sqlite3* db, bool write) : db_(db) {
    Statement begin(db, write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
    beginRc_ = begin.run();
    open_ = beginRc_ == SQLITE_DONE;
    if (open_)
        beginRc_ = SQLITE_OK;
}

Transaction::~Transaction() {
    if (open_) {
        Statement rollback(db_, "ROLLBACK");
        rollback.run();
    }
}

int Transaction::commit() {
    Statement commitStmt(db_, "COMMIT");
    const int rc = commitStmt.run();
    if (rc == SQLITE_DONE) {
        open_ = false;
        return SQLITE_OK;
    }
    return rc;
}

} // namespace ts::store::sqlite
