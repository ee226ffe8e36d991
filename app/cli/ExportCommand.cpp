// export FILE --target T --out DIR [--json]: a scenario as launch files for a real launcher
// (core/export). Exit 2, naming the scenario field, when the target cannot express the plan.

#include "CliCommon.h"

#include "common/JsonObjectReader.h"
#include "export/Exporter.h"

#include <cstdio>
#include <filesystem>

namespace ts::cli {

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
    const ExportResult result = exporter->render(*plan, request.exportOptions);
    if (!result.refusals.empty()) {
        for (const auto& r : result.refusals)
            std::fprintf(stderr, "%s: %s cannot express %s: %s\n", request.file.c_str(),
                         std::string(exporter->id()).c_str(), r.path.c_str(), r.message.c_str());
        if (options.json) {
            Json out = {
                {"target", exporter->id()}, {"written", false}, {"refusals", Json::array()}};
            for (const auto& r : result.refusals)
                out["refusals"].push_back({{"path", r.path}, {"message", r.message}});
            std::printf("%s\n", out.dump(2).c_str());
        }
        return kExitBadInput;
    }
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
    if (options.json) {
        Json out = {{"target", exporter->id()}, {"written", true}, {"files", files}};
        std::printf("%s\n", out.dump(2).c_str());
    }
    return kExitOk;
}

int runExport(const Options& options) {
    ExportRequest request;
    const auto& args = options.positional;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        auto value = [&](std::string& into) {
            if (i + 1 >= args.size()) {
                std::fprintf(stderr, "trainscape-cli export: %s needs a value\n", arg.c_str());
                return false;
            }
            into = args[++i];
            return true;
        };
        bool ok = true;
        if (arg == "--target")
            ok = value(request.target);
        else if (arg == "--out")
            ok = value(request.outDir);
        else if (arg == "--data-path")
            ok = value(request.exportOptions.dataPath);
        else if (arg == "--megatron-dir")
            ok = value(request.exportOptions.megatronDir);
        else if (arg == "--image")
            ok = value(request.exportOptions.image);
        else if (arg == "--namespace")
            ok = value(request.exportOptions.namespaceName);
        else if (arg == "--partition")
            ok = value(request.exportOptions.slurmPartition);
        else if (arg == "--job-name")
            ok = value(request.exportOptions.jobName);
        else if (!arg.empty() && arg[0] == '-') {
            std::fprintf(stderr, "trainscape-cli export: unknown option \"%s\"\n", arg.c_str());
            return kExitBadInput;
        } else if (request.file.empty())
            request.file = arg;
        else {
            std::fprintf(stderr, "trainscape-cli export: expected one scenario FILE\n");
            return kExitBadInput;
        }
        if (!ok)
            return kExitBadInput;
    }
    if (request.file.empty() || request.target.empty()) {
        std::fprintf(stderr, "trainscape-cli export: usage: export FILE --target %s --out DIR\n",
                     exporterIds().c_str());
        return kExitBadInput;
    }
    return runExportRequest(options, request);
}

} // namespace ts::cli
