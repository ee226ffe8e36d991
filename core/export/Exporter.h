#pragma once
// Launch configurations: one small exporter per target behind one interface. An exporter
// turns a resolved plan into the files its launcher reads, or refuses, naming the scenario
// field (JSON pointer) it cannot express. It never drops a setting silently.
// Targets and their sources: shared/reference/launchers.md.

#include "scenario/ResolvedScenario.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

enum class FileSyntax { Shell, Json, Toml, Yaml, Text };

struct ExportFile {
    std::string name; // a plain file name, no folder
    std::string text;
    FileSyntax syntax = FileSyntax::Text;
    bool executable = false;
};

struct ExportRefusal {
    std::string path;    // the scenario field, e.g. "/parallelism/schedule"
    std::string message; // what the target cannot express and what it could
    std::string toString() const { return path + ": " + message; }
};

struct ExportResult {
    std::vector<ExportFile> files;
    std::vector<ExportRefusal> refusals; // non-empty: nothing may be written
    bool ok() const { return refusals.empty() && !files.empty(); }
};

// What a scenario does not say but a launch needs: where things are. Every value is written
// quoted, so paths with spaces or '$' survive; empty values become variables the user sets.
struct ExportOptions {
    std::string jobName;        // default: from the scenario name
    std::string megatronDir;    // Megatron-LM checkout; default "$MEGATRON_LM" at run time
    std::string dataPath;       // default: mock data
    std::string image;          // container image for Kubernetes
    std::string namespaceName;  // Kubernetes namespace; default "default"
    std::string slurmPartition; // default: none (the cluster's default partition)
};

class Exporter {
public:
    virtual ~Exporter() = default;
    virtual std::string_view id() const = 0;    // "megatron", "deepspeed", ...
    virtual std::string_view title() const = 0; // "Megatron-LM (core_v0.15.0)"
    virtual std::vector<std::string> fileNames() const = 0;
    virtual ExportResult render(const ResolvedScenario& plan,
                                const ExportOptions& options) const = 0;
};

// Every target, in menu order. Adding one: a class in its own file and one line in
// ExporterRegistry.cpp.
const std::vector<std::unique_ptr<Exporter>>& exporters();
const Exporter* findExporter(std::string_view id);
std::string exporterIds(); // "megatron, bridge, ..." for messages

// Writes every file into `folder` (created when missing), each atomically; refuses to write
// anything for a result with refusals. Returns false with `error` set.
bool writeExport(const ExportResult& result, const std::string& folder, std::string& error);

} // namespace ts
