// validate and estimate.

#include "CliCommands.h"

#include "common/JsonObjectReader.h"
#include "common/TextFormat.h"
#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <cstdio>
#include <optional>

namespace ts::cli {

bool loadCatalog(const Options& options, Catalog& catalog) {
    catalog = Catalog::builtIn();
    bool ok = true;
    for (const auto& file : options.catalogFiles) {
        Diagnostics diags;
        if (!catalog.addFile(file, diags)) {
            printDiagnostics(file, diags);
            ok = false;
        }
    }
    return ok;
}

void printDiagnostics(const std::string& file, const Diagnostics& diags) {
    for (const auto& d : diags.all())
        std::fprintf(stderr, "%s: %s\n", file.c_str(), d.toString().c_str());
    if (diags.dropped() > 0)
        std::fprintf(stderr, "%s: ... and %zu more\n", file.c_str(), diags.dropped());
}

static Json diagnosticsToJson(const std::vector<Diagnostic>& list) {
    Json out = Json::array();
    for (const auto& d : list)
        out.push_back({{"path", d.path}, {"message", d.message}});
    return out;
}

std::optional<ResolvedScenario> resolveScenarioArgument(const Options& options, const char* command,
                                                        Catalog& catalog, Diagnostics& diags,
                                                        int& exitCode) {
    if (options.positional.size() != 1) {
        std::fprintf(stderr, "trainscape-cli %s: expected exactly one scenario FILE\n", command);
        exitCode = kExitBadInput;
        return std::nullopt;
    }
    if (!loadCatalog(options, catalog)) {
        exitCode = kExitBadInput;
        return std::nullopt;
    }
    CalibrationRegistry calibrations;
    if (!loadCalibrations(options, calibrations)) {
        exitCode = kExitBadInput;
        return std::nullopt;
    }
    auto resolved = resolveScenarioFile(options.positional[0], catalog, calibrations, diags);
    exitCode = resolved ? kExitOk : kExitBadInput;
    return resolved;
}

int runValidate(const Options& options) {
    Catalog catalog;
    Diagnostics diags;
    int exitCode = kExitOk;
    auto resolved = resolveScenarioArgument(options, "validate", catalog, diags, exitCode);
    if (options.positional.size() != 1)
        return exitCode;
    if (options.resolved && resolved) {
        printDiagnostics(options.positional[0], diags); // warnings, on stderr
        std::printf("%s", scenarioToText(explicitScenario(*resolved)).c_str());
        return exitCode;
    }
    if (options.json) {
        Json out = {{"valid", resolved.has_value()},
                    {"errors", diagnosticsToJson(diags.errors())},
                    {"warnings", diagnosticsToJson(diags.warnings())}};
        std::printf("%s\n", out.dump(2).c_str());
    } else {
        printDiagnostics(options.positional[0], diags);
        if (resolved)
            std::printf("%s: valid scenario (%s)\n", options.positional[0].c_str(),
                        resolved->name.empty() ? "unnamed" : terminalText(resolved->name).c_str());
    }
    return exitCode;
}

void setRunner(CLI::App* sub, CommandRunner& run, std::function<int()> action) {
    sub->callback([&run, action = std::move(action)] { run = action; });
}

void addJsonFlag(CLI::App* sub, Options& options) {
    sub->add_flag("--json", options.json, "Machine-readable output on standard output");
}

CLI::App* addScenarioFileCommand(CLI::App& app, const std::string& name,
                                 const std::string& description, Options& options) {
    CLI::App* sub = app.add_subcommand(name, description);
    sub->add_option("FILE", options.positional, "Scenario file (format trainscape.scenario/1)")
        ->required()
        ->expected(1);
    addJsonFlag(sub, options);
    return sub;
}

void addValidateCommand(CLI::App& app, Options& options, CommandRunner& run) {
    CLI::App* sub = addScenarioFileCommand(
        app, "validate", "Check a scenario; every error names its JSON path", options);
    sub->add_flag("--resolved", options.resolved,
                  "Print the scenario with every preset and default written out");
    setRunner(sub, run, [&options] { return runValidate(options); });
}

} // namespace ts::cli
