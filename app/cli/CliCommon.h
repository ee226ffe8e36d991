#pragma once
// Shared pieces of trainscape-cli's subcommands.

#include "calibration/CalibrationRegistry.h"
#include "catalog/Catalog.h"
#include "common/Diagnostics.h"
#include "export/Exporter.h"
#include "scenario/ResolvedScenario.h"

#include <optional>

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
    bool resolved = false; // validate --resolved: print the scenario with defaults explicit
    std::vector<std::string> catalogFiles;    // --catalog FILE, repeatable
    std::vector<std::string> calibrationDirs; // --calibration-dir DIR, repeatable
    std::vector<std::string> positional;
    // calibrate import-nccl / import-gemm
    std::string writePath;  // --write PROFILE.json
    std::string profileId;  // --id
    std::string gpu;        // --gpu
    std::string collective; // --collective (import-nccl)
};

// The built-in catalog plus the user's files; reports problems on stderr.
bool loadCatalog(const Options& options, Catalog& catalog);
// The built-in calibration profiles, then $TRAINSCAPE_CALIBRATION_DIR's, then the
// --calibration-dir folders'; reports problems on stderr.
bool loadCalibrations(const Options& options, CalibrationRegistry& registry);
void printDiagnostics(const std::string& file, const Diagnostics& diags);
// The one scenario FILE argument of `command`, resolved against the catalogs (loaded into
// `catalog`) and calibration profiles. On failure returns nullopt with `exitCode` set (problems
// with the command line, catalog or profiles are printed; the scenario's own diagnostics are left
// in `diags`).
std::optional<ResolvedScenario> resolveScenarioArgument(const Options& options, const char* command,
                                                        Catalog& catalog, Diagnostics& diags,
                                                        int& exitCode);

int runValidate(const Options& options);
int runEstimate(const Options& options);
int runCatalog(const Options& options); // positional: list KIND | show ID
int runNetwork(const Options& options);
int runCalibrateList(const Options& options);
int runCalibrateImportNccl(const Options& options);
int runCalibrateImportGemm(const Options& options);

// export FILE --target T --out DIR [--adapt] (ExportCommand.cpp).
struct ExportRequest {
    std::string file;
    std::string target;
    std::string outDir;
    bool adapt = false; // --adapt: the nearest plan the target runs (core/export/PlanAdaptation.h)
    ExportOptions exportOptions;
};
int runExportRequest(const Options& options, const ExportRequest& request);

// import FILE --from megatron|deepspeed|torchtitan [--hf-config FILE] (ImportCommand.cpp).
struct ImportRequest {
    std::string file;
    std::string from;
    std::string hfConfig;
    std::optional<std::int64_t> seqLen; // --seq-len, for a DeepSpeed config
    std::optional<std::int64_t>
        numGpus; // --num-gpus, for a DeepSpeed config without train_batch_size
    std::optional<std::string> cluster; // --cluster PRESET
};
int runImportRequest(const Options& options, const ImportRequest& request);

} // namespace ts::cli
