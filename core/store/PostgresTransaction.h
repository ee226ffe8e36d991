#pragma once
// BEGIN ... COMMIT on a libpq connection; ROLLBACK on destruction unless committed.

#include <libpq-fe.h>

#include <cstring>

namespace ts::store {

class PgTransaction {
public:
    explicit PgTransaction(PGconn* conn) : conn_(conn) {
        PGresult* result = PQexec(conn_, "BEGIN");
        begun_ = PQresultStatus(result) == PGRES_COMMAND_OK;
        PQclear(result);
    }
    ~PgTransaction() {
        if (begun_)
            PQclear(PQexec(conn_, "ROLLBACK"));
    }
    PgTransaction(const PgTransaction&) = delete;
    PgTransaction& operator=(const PgTransaction&) = delete;

    bool begun() const { return begun_; }
    bool commit() {
        PGresult* result = PQexec(conn_, "COMMIT");
        // COMMIT of a failed transaction "succeeds" as ROLLBACK: check which it was.
        const bool ok = PQresultStatus(result) == PGRES_COMMAND_OK &&
                        std::strcmp(PQcmdStatus(result), "COMMIT") == 0;
        PQclear(result);
        begun_ = false;
        return ok;
    }

private:
    PGconn* conn_;
    bool begun_ = false;
};

} // namespace ts::store
