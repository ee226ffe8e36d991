// import FILE --from megatron|deepspeed|torchtitan [--hf-config FILE] [--seq-len N]
// [--cluster PRESET]: a launcher's configuration as a v1 scenario on standard output
// (core/import). Flags and keys it does not use are listed on standard error, never dropped.

#include "CliCommon.h"

#include "common/JsonObjectReader.h"
#include "import/LaunchImport.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <cstdio>

namespace ts::cli {

static void printList(const char* what, const std::vector<std::string>& items) {
    for (const auto& item : items)
        std::fprintf(stderr, "trainscape-cli import: %s: %s\n", what, item.c_str());
}

int runImportRequest(const Options& options, const ImportRequest& request) {
    const auto format = importFormatFromString(request.from);
    if (!format) {
        std::fprintf(stderr,
                     "trainscape-cli import: --from \"%s\": expected megatron, deepspeed "
                     "or torchtitan\n",
                     request.from.c_str());
        return kExitBadInput;
    }
    Diagnostics diags;
    const auto text = readTextFile(request.file, diags);
    if (!text) {
        printDiagnostics(request.file, diags);
        return kExitBadInput;
    }
    ImportInput input;
    input.text = *text;
    input.seqLen = request.seqLen;
    if (request.cluster)
        input.clusterPreset = *request.cluster;
    if (!request.hfConfig.empty()) {
        const auto hf = readTextFile(request.hfConfig, diags);
        const auto parsed = hf ? nlohmann::json::parse(*hf, nullptr, false) : nlohmann::json();
        if (!hf || parsed.is_discarded()) {
            std::fprintf(stderr,
                         "trainscape-cli import: --hf-config %s is not a readable JSON "
                         "file\n",
                         request.hfConfig.c_str());
            return kExitBadInput;
        }
        input.hfConfig = parsed;
    }
    const ImportResult result = importLaunchConfig(*format, input);
    printList("not read (unsupported)", result.unsupported);
    printList("ignored (no effect on the plan)", result.ignored);
    printList("note", result.notes);
    if (!result.scenario) {
        std::fprintf(stderr, "%s: %s\n", request.file.c_str(), result.error.c_str());
        return kExitBadInput;
    }
    // What it wrote must be a scenario the planner accepts.
    Catalog catalog;
    if (!loadCatalog(options, catalog))
        return kExitBadInput;
    Diagnostics check;
    const auto scenario = scenarioFromJson(*result.scenario, check);
    if (!scenario || !resolveScenario(*scenario, catalog, check)) {
        std::fprintf(stderr, "%s: the imported plan is not valid:\n", request.file.c_str());
        printDiagnostics(request.file, check);
        std::printf("%s\n", result.scenario->dump(2).c_str());
        return kExitBadInput;
    }
    std::printf("%s", scenarioToText(*scenario).c_str());
    return kExitOk;
}

int runImport(const Options& options) {
    ImportRequest request;
    const auto& args = options.positional;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const bool hasValue = i + 1 < args.size();
        if ((arg == "--from" || arg == "--hf-config" || arg == "--seq-len" || arg == "--cluster") &&
            !hasValue) {
            std::fprintf(stderr, "trainscape-cli import: %s needs a value\n", arg.c_str());
            return kExitBadInput;
        }
        if (arg == "--from") {
            request.from = args[++i];
        } else if (arg == "--hf-config") {
            request.hfConfig = args[++i];
        } else if (arg == "--cluster") {
            request.cluster = args[++i];
        } else if (arg == "--seq-len") {
            char* end = nullptr;
            const long long v = std::strtoll(args[++i].c_str(), &end, 10);
            if (*end || v <= 0) {
                std::fprintf(stderr, "trainscape-cli import: --seq-len must be a positive "
                                     "integer\n");
                return kExitBadInput;
            }
            request.seqLen = v;
        } else if (!arg.empty() && arg[0] == '-') {
            std::fprintf(stderr, "trainscape-cli import: unknown option \"%s\"\n", arg.c_str());
            return kExitBadInput;
        } else if (request.file.empty()) {
            request.file = arg;
        } else {
            std::fprintf(stderr, "trainscape-cli import: expected one FILE\n");
            return kExitBadInput;
        }
    }
    if (request.file.empty() || request.from.empty()) {
        std::fprintf(stderr, "trainscape-cli import: usage: import FILE --from "
                             "megatron|deepspeed|torchtitan [--hf-config FILE]\n");
        return kExitBadInput;
    }
    return runImportRequest(options, request);
}

} // namespace ts::cli
