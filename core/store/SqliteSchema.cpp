#include "store/SqliteSchema.h"

#include "store/SqliteStatement.h"

#include <string>

namespace ts::store::sqlite {

namespace {

int runAll(sqlite3* db, std::initializer_list<const char*> statements) {
    for (const char* sql : statements) {
        Statement statement(db, sql);
        const int rc = statement.run();
        if (rc != SQLITE_DONE)
            return rc;
    }
    return SQLITE_DONE;
}

// 0 -> 1: the first schema. application_id marks the file as a Trainscape library.
int createFirstSchema(sqlite3* db) {
    return runAll(db,
                  {
                      "PRAGMA application_id = 1414745154", // kApplicationId, 0x54534C42
                      "CREATE TABLE scenarios ("
                      " id INTEGER PRIMARY KEY,"
                      " name TEXT NOT NULL CHECK (length(name) > 0),"
                      " created_at TEXT NOT NULL)",
                      "CREATE TABLE versions ("
                      " scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,"
                      " number INTEGER NOT NULL CHECK (number > 0),"
                      " created_at TEXT NOT NULL,"
                      " note TEXT NOT NULL DEFAULT '',"
                      " scenario_json TEXT NOT NULL,"
                      " PRIMARY KEY (scenario_id, number))",
                  });
}

// 1 -> 2: tags, many per scenario.
int addTags(sqlite3* db) {
    return runAll(db,
                  {
                      "CREATE TABLE tags ("
                      " scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,"
                      " tag TEXT NOT NULL CHECK (length(tag) > 0),"
                      " PRIMARY KEY (scenario_id, tag))",
                      "CREATE INDEX tags_by_tag ON tags(tag)",
                  });
}

// 2 -> 3: one cached estimate per version, with the estimator version that made it.
int addEstimates(sqlite3* db) {
    return runAll(db,
                  {
                      "CREATE TABLE estimates ("
                      " scenario_id INTEGER NOT NULL,"
                      " number INTEGER NOT NULL,"
                      " estimator_version TEXT NOT NULL,"
                      " estimate_json TEXT NOT NULL,"
                      " computed_at TEXT NOT NULL,"
                      " PRIMARY KEY (scenario_id, number),"
                      " FOREIGN KEY (scenario_id, number) REFERENCES versions(scenario_id, number)"
                      "  ON DELETE CASCADE)",
                  });
}

int applyStep(sqlite3* db, int from) {
    switch (from) {
    case 0:
        return createFirstSchema(db);
    case 1:
        return addTags(db);
    case 2:
        return addEstimates(db);
    default:
        return SQLITE_INTERNAL;
    }
}

} // namespace

Status migrate(sqlite3* db, int fromVersion, int target) {
    for (int step = fromVersion; step < target; ++step) {
        Transaction transaction(db, true);
        if (transaction.beginCode() != SQLITE_OK)
            return errorFrom(db, transaction.beginCode(), "cannot upgrade the library");
        int rc = applyStep(db, step);
        if (rc == SQLITE_DONE) {
            // PRAGMA takes no bound parameters; the value is our own integer.
            const std::string sql = "PRAGMA user_version = " + std::to_string(step + 1);
            Statement setVersion(db, sql.c_str());
            rc = setVersion.run();
        }
        if (rc != SQLITE_DONE)
            return errorFrom(db, rc,
                             "cannot upgrade the library from schema " + std::to_string(step));
        rc = transaction.commit();
        if (rc != SQLITE_OK)
            return errorFrom(db, rc, "cannot upgrade the library");
    }
    return Done{};
}

} // namespace ts::store::sqlite
