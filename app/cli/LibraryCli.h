#pragma once
// Shared pieces of `trainscape-cli library` and `trainscape-cli report` (issue 14).

#include "CliCommon.h"

#include "store/Library.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ts::cli {

// The library named by --db (or $TRAINSCAPE_LIBRARY, which CLI11 reads into `db`), else
// the default file under the XDG data folder. Prints the refusal and sets `exitCode`.
std::unique_ptr<store::Library> openLibraryArgument(const std::string& db, const char* command,
                                                    int& exitCode);

// A StoreError on standard error; returns its exit code (2 for bad input or a file that is
// not a library, 1 otherwise).
int reportStoreError(const char* command, const store::StoreError& error);
// The same, naming the library when the error is "not found".
int reportStoreError(const char* command, const store::StoreError& error,
                     const store::Library& library);

// "12" or "12@3": a library scenario and optionally one of its versions.
struct VersionRef {
    store::ScenarioId id = 0;
    std::optional<int> version;
};
std::optional<VersionRef> parseVersionRef(const std::string& text);

// A fingerprint of the catalog files and calibration folders given on the command line
// ("" when none), part of the estimate cache key (store/VersionEstimate.h).
std::string settingsFingerprint(const Options& options);

} // namespace ts::cli
