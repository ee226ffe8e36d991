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
  validate FILE [--json] [--resolved]
                              Check a scenario; every error names its JSON path. With
                              --resolved, print it with every preset and default written out.
  catalog list gpus|clusters|models|servers|prices|network [--json]
                              List the catalog's GPUs, cluster presets, model presets,
                              servers, cloud prices or network parts.
  catalog show ID [--json]    Show one catalog entry with the sources of its numbers.
  network FILE [--json]       The cluster as a graph: topology summary, what the plan's groups
                              get from it, and the network's bill of materials.
  calibrate list [--json]     List the calibration profiles a scenario can select.
  calibrate import-nccl LOG... [--collective NAME] [--write PROFILE.json] [--id ID]
                              [--gpu GPU] [--json]
                              Fit latency and bus bandwidth to nccl-tests logs
                              (all_reduce_perf, all_gather_perf, reduce_scatter_perf,
                              alltoall_perf, sendrecv_perf); optionally write a profile.
  calibrate import-gemm CSV [--write PROFILE.json] [--id ID] [--gpu GPU] [--json]
                              A CSV of matmul timings (m,n,k,dtype,time_us or tflops) as a
                              profile's efficiency table.

  export FILE --target megatron|bridge|deepspeed|torchtitan|slurm|k8s --out DIR [--json]
         [--data-path P] [--megatron-dir D] [--image I] [--namespace N] [--partition P]
                              Write the launch files of a target; exit 2 naming the field
                              the target cannot express.
  import FILE --from megatron|deepspeed|torchtitan [--hf-config config.json] [--seq-len N]
         [--cluster PRESET]   Read a launch script, a DeepSpeed config or a torchtitan TOML
                              back into a scenario (stdout); what it cannot use goes to stderr.

Options:
  --catalog FILE   Add or override catalog entries from FILE (format trainscape.catalog/1).
  --calibration-dir DIR
                   Add the calibration profiles (*.json) in DIR; also read from the folders
                   in $TRAINSCAPE_CALIBRATION_DIR (separated by ':').
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
        if (arg == "--resolved") {
            options.resolved = true;
        } else if (arg == "--json") {
            options.json = true;
        } else if (arg == "--catalog") {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "trainscape-cli: --catalog needs a FILE\n");
                return kExitBadInput;
            }
            options.catalogFiles.push_back(argv[++i]);
        } else if (arg == "--calibration-dir") {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "trainscape-cli: --calibration-dir needs a DIR\n");
                return kExitBadInput;
            }
            options.calibrationDirs.push_back(argv[++i]);
        } else if (command == "calibrate" || command == "export" || command == "import") {
            options.positional.push_back(arg); // their own options: <Command>Command.cpp
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
    if (command == "network")
        return runNetwork(options);
    if (command == "calibrate")
        return runCalibrate(options);
    if (command == "export")
        return runExport(options);
    if (command == "import")
        return runImport(options);
    std::fprintf(stderr,
                 "trainscape-cli: unknown command \"%s\": expected estimate, validate, "
                 "catalog, network, calibrate, export or import; see --help\n",
                 command.c_str());
    return kExitBadInput;
}
