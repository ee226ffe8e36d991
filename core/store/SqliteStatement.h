#pragma once
// RAII over the SQLite C API: one prepared statement (every SQL text the library runs goes
// through sqlite3_prepare_v2 with bound parameters; nothing is pasted into SQL), and one
// transaction that rolls back unless committed.

#include "store/Library.h"

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>

namespace ts::store::sqlite {

// The StoreError for the connection's last failure (`rc`), naming what was being done.
StoreError errorFrom(sqlite3* db, int rc, const std::string& doing);

class Statement {
public:
    Statement(sqlite3* db, const char* sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool prepared() const { return stmt_ != nullptr; }
    int prepareCode() const { return prepareRc_; }

    // Parameters are numbered from 1, as in "?1".
    Statement& bind(int index, const std::string& text);
    Statement& bind(int index, std::int64_t value);
    Statement& bindNull(int index);

    // SQLITE_ROW, SQLITE_DONE or an error code.
    int step();
    // Runs to completion; returns SQLITE_DONE or the error code.
    int run();
    void reset();

    std::int64_t integer(int column) const;
    std::string text(int column) const;
    bool isNull(int column) const;

private:
    sqlite3* db_ = nullptr;
    sqlite3_stmt* stmt_ = nullptr;
    int prepareRc_ = SQLITE_OK;
};

// BEGIN IMMEDIATE (takes the write lock at once, so two writers never deadlock on a lock
// upgrade); ROLLBACK on destruction unless commit() succeeded.
class Transaction {
public:
    Transaction(sqlite3* db, bool write);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    int beginCode() const { return beginRc_; }
    int commit();

private:
    sqlite3* db_ = nullptr;
    int beginRc_ = SQLITE_OK;
    bool open_ = false;
};

} // namespace ts::store::sqlite
