// import FILE --from megatron|deepspeed|torchtitan [--hf-config FILE] [--seq-len N]
// [--cluster PRESET]: a launcher's configuration as a v1 scenario on standard output
// (core/import). Flags and keys it does not use are listed on standard error, never dropped.

#include "CliCommands.h"

#include "common/JsonObjectReader.h"
#include "import/LaunchImport.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

namespace ts::cli {
namespace {

// The *.py files in FILE's folder, by name (a torchtitan job's custom_import modules).
std::map<std::string, std::string> pythonFilesBeside(const std::string& file) {
    namespace fs = std::filesystem;
    std::map<std::string, std::string> out;
    std::error_code ec;
    const fs::path folder = fs::path(file).parent_path();
    for (const auto& entry : fs::directory_iterator(folder.empty() ? fs::path(".") : folder, ec)) {
        if (!entry.is_regular_file(ec) || entry.path().extension() != ".py")
            continue;
        Diagnostics ignored;
        if (const auto text = readTextFile(entry.path().string(), ignored))
            out[entry.path().filename().string()] = *text;
    }
    return out;
}

} // namespace

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
    input.numGpus = request.numGpus;
    if (request.cluster)
        input.clusterPreset = *request.cluster;
    if (*format == ImportFormat::Torchtitan) // a custom flavor's custom_import module
        input.companions = pythonFilesBeside(request.file);
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

void addImportCommand(CLI::App& app, Options& options, CommandRunner& run) {
    auto request = std::make_shared<ImportRequest>();
    CLI::App* sub = app.add_subcommand(
        "import", "Read a launch script, a DeepSpeed config or a torchtitan TOML back into a "
                  "scenario (standard output); what it cannot use is listed on standard error");
    sub->add_option("FILE", request->file, "The launch script or configuration file")->required();
    sub->add_option("--from", request->from, "megatron | deepspeed | torchtitan")->required();
    sub->add_option("--hf-config", request->hfConfig,
                    "Hugging Face config.json with the model (DeepSpeed)");
    sub->add_option("--seq-len", request->seqLen, "Sequence length (DeepSpeed)")
        ->check(CLI::PositiveNumber);
    sub->add_option("--num-gpus", request->numGpus,
                    "The job's GPUs (a DeepSpeed config without train_batch_size)")
        ->check(CLI::PositiveNumber);
    sub->add_option("--cluster", request->cluster,
                    "Cluster preset the job runs on (default dgx-h100)");
    setRunner(sub, run, [&options, request] { return runImportRequest(options, *request); });
}

} // namespace ts::cli
