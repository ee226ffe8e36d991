// trainscape-cli: the headless face of Trainscape. Everything the desktop application
// computes can be computed here, on a server with no display. The command line is declared
// with CLI11: every subcommand has its own --help (CliCommands.h).

#include "CliCommands.h"

#include <cstdio>
#include <iostream>
#include <string>

namespace {

const char* kFooter =
    R"(Run 'trainscape-cli COMMAND --help' for a command's own options.

Exit codes: 0 success; 1 failure; 2 invalid input (scenario, catalog or command line);
3 valid input that the estimator does not model yet.)";

// Options that every subcommand accepts, before or after its name.
void addGlobalOptions(CLI::App& app, ts::cli::Options& options) {
    app.add_option("--catalog", options.catalogFiles,
                   "Add or override catalog entries from FILE (format trainscape.catalog/1); "
                   "repeatable")
        ->type_name("FILE")
        ->expected(1);
    app.add_option("--calibration-dir", options.calibrationDirs,
                   "Add the calibration profiles (*.json) in DIR; also read from the folders in "
                   "$TRAINSCAPE_CALIBRATION_DIR (separated by ':'); repeatable")
        ->type_name("DIR")
        ->expected(1);
    app.set_version_flag("-V,--version", std::string("trainscape-cli ") + TRAINSCAPE_VERSION);
}

// CLI11 reports a mistyped command as "A subcommand is required"; name it instead.
bool reportUnknownCommand(const CLI::App& app, int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--catalog" || arg == "--calibration-dir") {
            ++i;
            continue;
        }
        if (arg.empty() || arg[0] == '-')
            continue;
        std::string names;
        bool known = false;
        for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
            names += (names.empty() ? "" : ", ") + sub->get_name();
            known = known || sub->check_name(arg);
        }
        if (known)
            return false;
        std::fprintf(stderr,
                     "trainscape-cli: unknown command \"%s\": expected one of %s; see "
                     "--help\n",
                     arg.c_str(), names.c_str());
        return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv) {
    using namespace ts::cli;
    CLI::App app{"Plan distributed training of large language models: memory, step time, "
                 "throughput, network, energy and cost.",
                 "trainscape-cli"};
    app.footer(kFooter);
    app.require_subcommand(1, 1);
    app.fallthrough(); // global options may follow the subcommand
    Options options;
    addGlobalOptions(app, options);
    CommandRunner run;
    addEstimateCommand(app, options, run);
    addValidateCommand(app, options, run);
    addCatalogCommand(app, options, run);
    addNetworkCommand(app, options, run);
    addCalibrateCommand(app, options, run);
    addLibraryCommand(app, options, run);
    addReportCommand(app, options, run);
    addSearchCommand(app, options, run);
    addCapacityCommand(app, options, run);
    addExportCommand(app, options, run);
    addImportCommand(app, options, run);
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) { // --help, --version
        return app.exit(e) == 0 ? kExitOk : kExitBadInput;
    } catch (const CLI::ParseError& e) {
        if (!reportUnknownCommand(app, argc, argv))
            app.exit(e, std::cout, std::cerr);
        return kExitBadInput;
    }
    return run ? run() : kExitBadInput;
}
