#pragma once
// The actions of `trainscape-cli library ...` (declared in LibraryCommand.cpp).

#include "CliCommon.h"

#include <string>
#include <vector>

namespace ts::cli {

struct LibraryArgs {
    std::string db;
    std::string file, note, name, search, out, a, b;
    std::vector<std::string> tags;
    long long id = 0, to = 0;
    int version = 0, basedOn = 0; // 0 = not given (versions count from 1)
    bool estimate = false, remove = false;
    std::vector<long long> ids;
};

int libraryAdd(const Options& options, const LibraryArgs& args);
int libraryList(const Options& options, const LibraryArgs& args);
int libraryShow(const Options& options, const LibraryArgs& args);
int libraryVersions(const Options& options, const LibraryArgs& args);
int libraryDiff(const Options& options, const LibraryArgs& args);
int libraryTag(const Options& options, const LibraryArgs& args);
int libraryRemove(const Options& options, const LibraryArgs& args);
int libraryExport(const Options& options, const LibraryArgs& args);
int libraryImport(const Options& options, const LibraryArgs& args);
int libraryBackup(const Options& options, const LibraryArgs& args);

} // namespace ts::cli
