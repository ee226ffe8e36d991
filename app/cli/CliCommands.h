#pragma once
// How trainscape-cli's subcommands are declared (CLI11, Debian libcli11-dev). Each command file
// adds its subcommand, with its own options and --help, through one add*Command function; main.cpp
// calls them all. The subcommand the user picked sets `run`, which main.cpp then calls.

#include "CliCommon.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace ts::cli {

using CommandRunner = std::function<int()>;

// When the user picks `sub`, `run` becomes `action` (called after the whole line is parsed).
void setRunner(CLI::App* sub, CommandRunner& run, std::function<int()> action);
// A subcommand that reads exactly one scenario FILE into options.positional, with --json.
CLI::App* addScenarioFileCommand(CLI::App& app, const std::string& name,
                                 const std::string& description, Options& options);
// The --json flag, spelled the same on every subcommand.
void addJsonFlag(CLI::App* sub, Options& options);

void addValidateCommand(CLI::App& app, Options& options, CommandRunner& run);
void addEstimateCommand(CLI::App& app, Options& options, CommandRunner& run);
void addCatalogCommand(CLI::App& app, Options& options, CommandRunner& run);
void addNetworkCommand(CLI::App& app, Options& options, CommandRunner& run);
void addCalibrateCommand(CLI::App& app, Options& options, CommandRunner& run);
void addLibraryCommand(CLI::App& app, Options& options, CommandRunner& run); // LibraryCommand.cpp
void addReportCommand(CLI::App& app, Options& options, CommandRunner& run);  // ReportCommand.cpp
void addSearchCommand(CLI::App& app, Options& options, CommandRunner& run);
void addCapacityCommand(CLI::App& app, Options& options, CommandRunner& run);
void addExportCommand(CLI::App& app, Options& options, CommandRunner& run);
void addImportCommand(CLI::App& app, Options& options, CommandRunner& run);

} // namespace ts::cli
