#pragma once
// One parameterised libpq statement (PQexecParams, text parameters) and its result.

#include "store/PostgresLibrary.h"

#include <libpq-fe.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts::store {

class PostgresLibrary::Query {
public:
    Query(PGconn* conn, const char* sql) : conn_(conn), sql_(sql) {}
    ~Query() { PQclear(result_); }
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;

    Query& bind(const std::string& text) {
        params_.push_back(text);
        return *this;
    }
    Query& bind(std::int64_t value) { return bind(std::to_string(value)); }
    Query& bindNull() {
        params_.push_back(std::nullopt);
        return *this;
    }

    // True when the statement succeeded (a command, or rows).
    bool run() {
        std::vector<const char*> values;
        for (const auto& p : params_)
            values.push_back(p ? p->c_str() : nullptr);
        PQclear(result_);
        result_ = PQexecParams(conn_, sql_, static_cast<int>(values.size()), nullptr, values.data(),
                               nullptr, nullptr, 0);
        const auto status = PQresultStatus(result_);
        return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
    }
    const char* sqlState() const {
        return result_ ? PQresultErrorField(result_, PG_DIAG_SQLSTATE) : nullptr;
    }
    int rows() const { return PQntuples(result_); }
    std::string text(int row, int column) const {
        return std::string(PQgetvalue(result_, row, column),
                           static_cast<size_t>(PQgetlength(result_, row, column)));
    }
    std::int64_t integer(int row, int column) const { return std::stoll(text(row, column)); }
    bool isNull(int row, int column) const { return PQgetisnull(result_, row, column) != 0; }

private:
    PGconn* conn_;
    const char* sql_;
    std::vector<std::optional<std::string>> params_;
    PGresult* result_ = nullptr;
};

} // namespace ts::store
