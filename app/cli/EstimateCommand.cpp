// estimate FILE [--json]

#include "CliCommon.h"

#include "scenario/ScenarioResolver.h"

#include <cstdio>

namespace ts::cli {

int runEstimate(const Options& options) {
    if (options.positional.size() != 1) {
        std::fprintf(stderr, "trainscape-cli estimate: expected exactly one scenario FILE\n");
        return kExitBadInput;
    }
    Catalog catalog;
    if (!loadCatalog(options, catalog))
        return kExitBadInput;
    Diagnostics diags;
    const std::string& file = options.positional[0];
    auto resolved = resolveScenarioFile(file, catalog, diags);
    printDiagnostics(file, diags);
    if (!resolved)
        return kExitBadInput;
    std::fprintf(stderr,
                 "%s: the estimator is not built into this version yet: nothing is "
                 "computed rather than a made-up number\n",
                 file.c_str());
    return kExitNotModelled;
}

} // namespace ts::cli
