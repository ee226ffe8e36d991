// export FILE --target T --out DIR [--adapt] [--json]: a scenario as launch files for a real
// launcher (core/export). Exit 2, naming the scenario field, when the target cannot express the
// plan; with --adapt, the nearest plan it runs (core/export/PlanAdaptation.h), its changes
// listed, re-estimated, and written next to the launch files.

#include "CliCommands.h"

#include "common/JsonObjectReader.h"
#include "export/Exporter.h"
#include "export/PlanAdaptation.h"
#include "scenario/ScenarioIO.h"

#include <cstdio>
#include <filesystem>
#include <memory>

namespace ts::cli {
namespace {

void printRefusals(const Options& options, const ExportRequest& request, const Exporter& exporter,
                   const std::vector<ExportRefusal>& refusals, const char* hint) {
    for (const auto& r : refusals)
        std::fprintf(stderr, "%s: %s cannot express %s: %s\n", request.file.c_str(),
                     std::string(exporter.id()).c_str(), r.path.c_str(), r.message.c_str());
    if (hint)
        std::fprintf(stderr, "%s", hint);
    if (options.json) {
        Json out = {{"target", exporter.id()}, {"written", false}, {"refusals", Json::array()}};
        for (const auto& r : refusals)
            out["refusals"].push_back({{"path", r.path}, {"message", r.message}});
        std::printf("%s\n", out.dump(2).c_str());
    }
}

int writeFiles(const Options& options, const ExportRequest& request, const Exporter& exporter,
               const ExportResult& result, const AdaptedExport* adapted) {
    std::string error;
    if (!writeExport(result, request.outDir, error)) {
        std::fprintf(stderr, "trainscape-cli export: %s\n", error.c_str());
        return kExitFailure;
    }
    Json files = Json::array();
    for (const auto& f : result.files) {
        const std::string path = (std::filesystem::path(request.outDir) / f.name).string();
        if (options.json)
            files.push_back({{"name", f.name}, {"path", path}, {"bytes", f.text.size()}});
        else
            std::printf("%s\n", path.c_str());
    }
    if (adapted && !adapted->changes.empty() && !options.json)
        for (const auto& c : adapted->changes)
            std::fprintf(stderr, "adapted %s: %s -> %s\n", c.path.c_str(), c.before.dump().c_str(),
                         c.after.dump().c_str());
    if (options.json) {
        Json out = {{"target", exporter.id()}, {"written", true}, {"files", files}};
        out["adapted"] = adapted && !adapted->changes.empty();
        if (adapted && !adapted->changes.empty())
            out["adaptation"] = adaptationJson(*adapted);
        std::printf("%s\n", out.dump(2).c_str());
    }
    return kExitOk;
}

int runAdaptedExport(const Options& options, const ExportRequest& request, const Exporter& exporter,
                     const Catalog& catalog) {
    Diagnostics diags;
    const auto text = readTextFile(request.file, diags);
    const auto doc = text ? parseJsonText(*text, diags) : std::nullopt;
    if (!doc) {
        printDiagnostics(request.file, diags);
        return kExitBadInput;
    }
    const AdaptedExport adapted = adaptAndExport(*doc, exporter, catalog, request.exportOptions);
    if (!adapted.ok()) {
        printRefusals(options, request, exporter,
                      adapted.refusals.empty() ? adapted.result.refusals : adapted.refusals,
                      nullptr);
        return kExitBadInput;
    }
    return writeFiles(options, request, exporter, adapted.result, &adapted);
}

} // namespace

int runExportRequest(const Options& options, const ExportRequest& request) {
    const Exporter* exporter = findExporter(request.target);
    if (!exporter) {
        std::fprintf(stderr,
                     "trainscape-cli export: --target \"%s\" is not a target; expected %s\n",
                     request.target.c_str(), exporterIds().c_str());
        return kExitBadInput;
    }
    if (request.outDir.empty()) {
        std::fprintf(stderr, "trainscape-cli export: --out DIR is required\n");
        return kExitBadInput;
    }
    Options scenarioOptions = options;
    scenarioOptions.positional = {request.file};
    Catalog catalog;
    Diagnostics diags;
    int exitCode = kExitOk;
    auto plan = resolveScenarioArgument(scenarioOptions, "export", catalog, diags, exitCode);
    if (!plan) {
        printDiagnostics(request.file, diags);
        return exitCode;
    }
    if (request.adapt)
        return runAdaptedExport(options, request, *exporter, catalog);
    const ExportResult result = exporter->render(*plan, request.exportOptions);
    if (!result.refusals.empty()) {
        printRefusals(options, request, *exporter, result.refusals,
                      "(add --adapt to export the nearest plan this target runs, with every "
                      "change listed)\n");
        return kExitBadInput;
    }
    return writeFiles(options, request, *exporter, result, nullptr);
}

void addExportCommand(CLI::App& app, Options& options, CommandRunner& run) {
    auto request = std::make_shared<ExportRequest>();
    CLI::App* sub = app.add_subcommand(
        "export", "Write a scenario's launch files for a target (" + exporterIds() +
                      "); exit 2 naming the field the target cannot express");
    sub->add_option("FILE", request->file, "Scenario file (format trainscape.scenario/1)")
        ->required();
    sub->add_option("--target", request->target, "One of: " + exporterIds())->required();
    sub->add_option("--out", request->outDir, "Folder for the files (created when missing)")
        ->required();
    auto& o = request->exportOptions;
    sub->add_option("--data-path", o.dataPath, "Megatron dataset prefix (default: mock data)");
    sub->add_option("--megatron-dir", o.megatronDir,
                    "Megatron-LM (or Megatron-Bridge) checkout in the job's environment");
    sub->add_option("--image", o.image, "Container image for the Kubernetes manifests");
    sub->add_option("--namespace", o.namespaceName, "Kubernetes namespace (default: default)");
    sub->add_option("--partition", o.slurmPartition, "Slurm partition");
    sub->add_option("--job-name", o.jobName, "Job name (default: from the scenario name)");
    sub->add_flag("--adapt", request->adapt,
                  "Where the target refuses a setting, export the nearest plan it runs: every "
                  "change listed (ADAPTATION.md), re-estimated, and the adapted scenario written "
                  "beside the files");
    addJsonFlag(sub, options);
    setRunner(sub, run, [&options, request] { return runExportRequest(options, *request); });
}

} // namespace ts::cli
