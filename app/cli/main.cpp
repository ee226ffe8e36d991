// trainscape-cli: the headless face of Trainscape. Everything the desktop application
// computes can be computed here, on a server with no display.

#include "CliCommon.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

const char* kUsage =
    R"(Usage: trainscape-cli [--catalog FILE]... COMMAND [ARGS] [--json]

Plan distributed training of large language models: memory, step time, throughput.

Commands:
  estimate FILE [--json]      Estimate memory, step time and throughput of a scenario.
  validate FILE [--json]      Check a scenario; every error names its JSON path.
  catalog list gpus|clusters|models [--json]
                              List the catalog's GPUs, cluster presets or model presets.
  catalog show ID [--json]    Show one catalog entry with the sources of its numbers.

Options:
  --catalog FILE   Add or override catalog entries from FILE (format trainscape.catalog/1).
  --json           Machine-readable output.
  -h, --help       Show this help.
  -V, --version    Show the version.

Exit codes: 0 success; 1 failure; 2 invalid input (scenario, catalog or command line);
3 valid input that the estimator does not model yet.
)";

} // namespace

int main(int argc, char** argv) {
    using namespace ts::cli;
    Options options;
    std::string command;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::fputs(kUsage, stdout);
            return kExitOk;
        }
        if (arg == "-V" || arg == "--version") {
            std::printf("trainscape-cli %s\n", TRAINSCAPE_VERSION);
            return kExitOk;
        }
        if (arg == "--json") {
            options.json = true;
        } else if (arg == "--catalog") {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "trainscape-cli: --catalog needs a FILE\n");
                return kExitBadInput;
            }
            options.catalogFiles.push_back(argv[++i]);
        } else if (arg.size() > 1 && arg[0] == '-') {
            std::fprintf(stderr, "trainscape-cli: unknown option \"%s\"; see --help\n",
                         arg.c_str());
            return kExitBadInput;
        } else if (command.empty()) {
            command = arg;
        } else {
            options.positional.push_back(arg);
        }
    }
    if (command.empty()) {
        std::fputs(kUsage, stderr);
        return kExitBadInput;
    }
    if (command == "estimate")
        return runEstimate(options);
    if (command == "validate")
        return runValidate(options);
    if (command == "catalog")
        return runCatalog(options);
    std::fprintf(stderr,
                 "trainscape-cli: unknown command \"%s\": expected estimate, validate or "
                 "catalog; see --help\n",
                 command.c_str());
    return kExitBadInput;
}
