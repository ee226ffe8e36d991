#pragma once
// The SQLite library's schema: its version in PRAGMA user_version, one migration function per
// step (SQLite's own habit), each step applied in its own transaction together with the new
// user_version, so a crash leaves the file at one step or the next, never between.
//   1: scenarios and their versions (the first schema)
//   2: tags
//   3: cached estimates, with the estimator version that made each

#include "store/Library.h"

#include <sqlite3.h>

namespace ts::store::sqlite {

inline constexpr int kSchemaVersion = 3;
// PRAGMA application_id of a Trainscape library ("TSLB"), so another program's SQLite file
// is never mistaken for one.
inline constexpr int kApplicationId = 0x54534C42;

// Migrates an empty file (user_version 0) or a library at an older schema up to `target`
// (tests stop at an older schema to check the next step). Each step commits on its own.
Status migrate(sqlite3* db, int fromVersion, int target);

} // namespace ts::store::sqlite
