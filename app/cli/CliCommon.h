#pragma once
// Shared pieces of trainscape-cli's subcommands.

#include "catalog/Catalog.h"
#include "common/Diagnostics.h"

#include <string>
#include <vector>

namespace ts::cli {

// Exit codes (shared/spec/scenario-format.md: 2 for bad input).
enum ExitCode : int {
    kExitOk = 0,
    kExitFailure = 1,     // an operation failed (e.g. cannot write output)
    kExitBadInput = 2,    // invalid scenario, catalog or command line
    kExitNotModelled = 3, // valid input the estimator cannot compute yet
};

struct Options {
    bool json = false;
    std::vector<std::string> catalogFiles; // --catalog FILE, repeatable
    std::vector<std::string> positional;
};

// The built-in catalog plus the user's files; reports problems on stderr.
bool loadCatalog(const Options& options, Catalog& catalog);
void printDiagnostics(const std::string& file, const Diagnostics& diags);

int runValidate(const Options& options);
int runEstimate(const Options& options);
int runCatalog(const Options& options);

} // namespace ts::cli
