// calibrate list | import-nccl LOG... | import-gemm CSV  (issue 6: calibration profiles)

#include "CliCommands.h"

#include "calibration/GemmCsv.h"
#include "calibration/NcclTestsLog.h"
#include "calibration/ProfileJson.h"
#include "common/JsonObjectReader.h"
#include "common/TextFormat.h"
#include "scenario/ScenarioIO.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>

namespace ts::cli {

bool loadCalibrations(const Options& options, CalibrationRegistry& registry) {
    registry = CalibrationRegistry::builtIn();
    std::vector<std::string> dirs;
    if (const char* env = std::getenv(kCalibrationDirEnv); env && *env) {
        std::istringstream in(env);
        std::string dir;
        while (std::getline(in, dir, ':'))
            if (!dir.empty())
                dirs.push_back(dir);
    }
    dirs.insert(dirs.end(), options.calibrationDirs.begin(), options.calibrationDirs.end());
    bool ok = true;
    for (const auto& dir : dirs) {
        Diagnostics diags;
        if (!registry.addDirectory(dir, diags)) {
            printDiagnostics(dir, diags);
            ok = false;
        }
    }
    return ok;
}

namespace {

// The catalog, read only when a GPU id must be looked up (an import needs none otherwise).
class LazyCatalog {
public:
    explicit LazyCatalog(const Options& options) : options_(options) {}
    const Catalog* get() {
        if (!loaded_) {
            loaded_ = true;
            ok_ = loadCatalog(options_, catalog_);
        }
        return ok_ ? &catalog_ : nullptr;
    }

private:
    const Options& options_;
    Catalog catalog_;
    bool loaded_ = false;
    bool ok_ = false;
};

struct ImportOptions {
    std::vector<std::string> inputs;
    std::optional<Collective> collective;
    std::string writePath;
    std::string id;
    std::string gpu;
};

// The subcommand's own arguments (after "import-nccl" / "import-gemm"), as CLI11 parsed them.
bool importOptions(const Options& options, const char* sub, ImportOptions& out) {
    out.inputs = options.positional;
    out.writePath = options.writePath;
    out.id = options.profileId;
    out.gpu = options.gpu;
    if (!options.collective.empty()) {
        out.collective = collectiveFromName(options.collective);
        if (!out.collective) {
            std::fprintf(stderr,
                         "trainscape-cli calibrate %s: unknown collective \"%s\": expected "
                         "all_reduce, all_gather, reduce_scatter, all_to_all or send_recv\n",
                         sub, options.collective.c_str());
            return false;
        }
    }
    return true;
}

// The profile --write adds to: the existing file, or a new measured profile.
std::optional<CalibrationProfile> profileToWrite(const ImportOptions& opt, LazyCatalog& catalog) {
    std::error_code ec;
    if (std::filesystem::exists(opt.writePath, ec)) {
        Diagnostics diags;
        auto profile = loadProfileFile(opt.writePath, diags);
        if (!profile) {
            printDiagnostics(opt.writePath, diags);
            return std::nullopt;
        }
        if (!opt.gpu.empty() && profile->gpu != opt.gpu) {
            std::fprintf(stderr, "%s: the profile is for GPU \"%s\", not \"%s\"\n",
                         opt.writePath.c_str(), profile->gpu.c_str(), opt.gpu.c_str());
            return std::nullopt;
        }
        return profile;
    }
    if (!opt.gpu.empty() && !catalog.get())
        return std::nullopt;
    if (!opt.gpu.empty() && !catalog.get()->gpu(opt.gpu)) {
        std::fprintf(stderr,
                     "trainscape-cli calibrate: unknown GPU \"%s\"; see 'catalog list gpus'\n",
                     opt.gpu.c_str());
        return std::nullopt;
    }
    CalibrationProfile p;
    p.id = opt.id.empty() ? std::filesystem::path(opt.writePath).stem().string() : opt.id;
    p.name = p.id;
    p.kind = ProfileKind::Measured;
    p.gpu = opt.gpu;
    return p;
}

bool writeProfile(const CalibrationProfile& profile, const std::string& path) {
    // Check by reading back what would be written: an import never writes a profile that the
    // reader refuses.
    Diagnostics diags;
    if (!profileFromJson(profileToJson(profile), diags)) {
        printDiagnostics(path, diags);
        return false;
    }
    std::string error;
    if (!saveProfileFile(profile, path, error)) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
        return false;
    }
    return true;
}

int importNccl(const Options& options, LazyCatalog& catalog) {
    ImportOptions opt;
    if (!importOptions(options, "import-nccl", opt))
        return kExitBadInput;
    Json results = Json::array();
    std::vector<CollectiveMeasurement> measurements;
    std::vector<std::string> hosts, devices, programs;
    bool ok = true;
    for (const std::string& file : opt.inputs) {
        Diagnostics readDiags;
        auto text = readTextFile(file, readDiags);
        if (!text) {
            printDiagnostics(file, readDiags);
            ok = false;
            continue;
        }
        NcclLogError error;
        auto log = parseNcclTestsLog(*text, std::filesystem::path(file).filename().string(),
                                     opt.collective, error);
        if (!log) {
            std::fprintf(stderr, "%s:%d: %s\n", file.c_str(), error.line, error.message.c_str());
            ok = false;
            continue;
        }
        std::string fitError;
        const auto points = collectivePoints(*log);
        auto fit = fitAlphaBeta(points, log->collective, log->ranks, fitError);
        auto measurement = measurementFromLog(*log, fitError);
        if (!fit || !measurement) {
            // The fit judges the whole table: name its lines, as the parser names a line.
            if (!log->rows.empty())
                std::fprintf(stderr, "%s:%d: the table of lines %d-%d: %s\n", file.c_str(),
                             log->rows.front().line, log->rows.front().line, log->rows.back().line,
                             fitError.c_str());
            else
                std::fprintf(stderr, "%s: %s\n", file.c_str(), fitError.c_str());
            ok = false;
            continue;
        }
        measurement->source = "";
        measurements.push_back(*measurement);
        for (const auto& h : log->hosts)
            if (std::find(hosts.begin(), hosts.end(), h) == hosts.end())
                hosts.push_back(h);
        if (!log->deviceName.empty() &&
            std::find(devices.begin(), devices.end(), log->deviceName) == devices.end())
            devices.push_back(log->deviceName);
        programs.push_back(log->program.empty() ? std::filesystem::path(file).filename().string()
                                                : log->program);
        double peak = 0;
        for (const auto& p : points)
            peak = std::max(peak, p.busbwGBps);
        if (options.json) {
            results.push_back({{"file", file},
                               {"collective", collectiveName(log->collective)},
                               {"ranks", log->ranks},
                               {"nodes", log->nodes},
                               {"scope", collectiveScopeName(measurement->scope)},
                               {"device", log->deviceName},
                               {"latency_us", fit->latencyUs},
                               {"busbw_gb_s", fit->busbwGBps},
                               {"peak_busbw_gb_s", peak},
                               {"rows", log->rows.size()},
                               {"rows_fitted", fit->rowsUsed},
                               {"rms_relative_error", fit->rmsRelativeError},
                               {"fit", fit->twoRegime ? "two_regime" : "joint"}});
        } else {
            const std::string device = log->deviceName.empty() ? "" : " (" + log->deviceName + ")";
            std::printf("%s: %s, %d ranks on %d node%s%s: latency %.1f us, bus bandwidth %.1f GB/s "
                        "(%s over %d of %zu rows, rms error %.1f%%; peak measured %.1f GB/s)\n",
                        file.c_str(), collectiveName(log->collective), log->ranks, log->nodes,
                        log->nodes == 1 ? "" : "s", device.c_str(), fit->latencyUs, fit->busbwGBps,
                        fit->twoRegime ? "two-regime fit: plateau and large-message slope" : "fit",
                        fit->rowsUsed, points.size(), 100 * fit->rmsRelativeError, peak);
        }
    }
    if (options.json)
        std::printf("%s\n", results.dump(2).c_str());
    if (!ok)
        return kExitBadInput;
    if (opt.writePath.empty())
        return kExitOk;
    auto profile = profileToWrite(opt, catalog);
    if (!profile)
        return kExitBadInput;
    for (const auto& m : measurements) {
        auto same = std::find_if(profile->collectives.begin(), profile->collectives.end(),
                                 [&](const CollectiveMeasurement& e) {
                                     return e.collective == m.collective && e.scope == m.scope &&
                                            e.ranks == m.ranks && e.nodes == m.nodes;
                                 });
        if (same != profile->collectives.end())
            *same = m;
        else
            profile->collectives.push_back(m);
    }
    if (profile->provenance.where.empty()) {
        std::string where;
        for (const auto& h : hosts)
            where += (where.empty() ? "" : ", ") + h;
        for (const auto& d : devices)
            where += (where.empty() ? "" : "; ") + d;
        profile->provenance.where = "hosts " + where;
    }
    std::string how = "nccl-tests";
    for (const auto& p : programs)
        how += " " + p;
    how += ", imported by trainscape-cli calibrate import-nccl (out-of-place times; fit of "
           "time = latency + bytes x factor / busbw)";
    profile->provenance.how =
        profile->provenance.how.empty() ? how : profile->provenance.how + "; " + how;
    if (profile->deviceName.empty() && !devices.empty())
        profile->deviceName = devices.front();
    if (!writeProfile(*profile, opt.writePath))
        return kExitFailure;
    if (!options.json)
        std::printf("wrote %s (profile \"%s\", %zu collective entries)\n", opt.writePath.c_str(),
                    profile->id.c_str(), profile->collectives.size());
    return kExitOk;
}

int importGemm(const Options& options, LazyCatalog& catalog) {
    ImportOptions opt;
    if (!importOptions(options, "import-gemm", opt))
        return kExitBadInput;
    if (opt.inputs.size() != 1) {
        std::fprintf(stderr, "trainscape-cli calibrate import-gemm: expected one CSV file\n");
        return kExitBadInput;
    }
    const std::string& file = opt.inputs[0];
    Diagnostics readDiags;
    auto text = readTextFile(file, readDiags);
    if (!text) {
        printDiagnostics(file, readDiags);
        return kExitBadInput;
    }
    CsvError error;
    std::vector<int> rowLines;
    auto points = parseGemmCsv(*text, error, &rowLines);
    if (!points) {
        std::fprintf(stderr, "%s:%d: %s\n", file.c_str(), error.line, error.message.c_str());
        return kExitBadInput;
    }
    std::optional<CalibrationProfile> profile;
    if (!opt.writePath.empty()) {
        profile = profileToWrite(opt, catalog);
        if (!profile)
            return kExitBadInput;
    }
    const std::string gpuId = profile ? profile->gpu : opt.gpu;
    if (!gpuId.empty() && !catalog.get())
        return kExitBadInput;
    const GpuEntry* gpu = gpuId.empty() ? nullptr : catalog.get()->gpu(gpuId);
    if (!gpuId.empty() && !gpu) {
        std::fprintf(stderr, "trainscape-cli calibrate: unknown GPU \"%s\"\n", gpuId.c_str());
        return kExitBadInput;
    }
    const std::optional<HardwareProfile> hw =
        gpu ? std::optional<HardwareProfile>(defaultHardwareProfile(gpu->spec)) : std::nullopt;
    // A measured rate above the GPU's dense peak (its datasheet figure, the catalog's) is a
    // mistake in the file or in --gpu, not a fast kernel: refuse it, naming the line.
    for (std::size_t i = 0; hw && i < points->size(); ++i) {
        const MatmulPoint& p = (*points)[i];
        const double peak = hw->forDtype(p.dtype).peakTflops;
        if (peak > 0 && p.tflops > peak) {
            std::fprintf(stderr,
                         "%s:%d: %.1f TFLOP/s of %s is above the %s's dense peak of %.1f TFLOP/s "
                         "(efficiency %.2f): check the row's time or the --gpu\n",
                         file.c_str(), rowLines[i], p.tflops, matmulDtypeName(p.dtype),
                         gpuId.c_str(), peak, p.tflops / peak);
            return kExitBadInput;
        }
    }
    Json rows = Json::array();
    if (!options.json)
        std::printf("%8s %8s %8s %6s %10s %s\n", "m", "n", "k", "dtype", "TFLOP/s",
                    hw ? "efficiency" : "");
    for (const auto& p : *points) {
        const double peak = hw ? hw->forDtype(p.dtype).peakTflops : 0;
        Json row = {
            {"m", p.m},           {"n", p.n},
            {"k", p.k},           {"dtype", matmulDtypeName(p.dtype)},
            {"tflops", p.tflops}, {"efficiency", peak > 0 ? Json(p.tflops / peak) : Json(nullptr)}};
        rows.push_back(row);
        if (!options.json) {
            std::printf("%8lld %8lld %8lld %6s %10.1f", static_cast<long long>(p.m),
                        static_cast<long long>(p.n), static_cast<long long>(p.k),
                        matmulDtypeName(p.dtype), p.tflops);
            if (peak > 0)
                std::printf(" %.3f", p.tflops / peak);
            std::printf("\n");
        }
    }
    if (options.json)
        std::printf("%s\n", rows.dump(2).c_str());
    if (!profile)
        return kExitOk;
    for (const auto& p : *points) {
        auto same =
            std::find_if(profile->matmul.begin(), profile->matmul.end(), [&](const MatmulPoint& e) {
                return e.m == p.m && e.n == p.n && e.k == p.k && e.dtype == p.dtype;
            });
        if (same != profile->matmul.end())
            *same = p;
        else
            profile->matmul.push_back(p);
    }
    const std::string how = "matmul timings from " +
                            std::filesystem::path(file).filename().string() +
                            ", imported by trainscape-cli calibrate import-gemm";
    profile->provenance.how =
        profile->provenance.how.empty() ? how : profile->provenance.how + "; " + how;
    if (profile->provenance.where.empty())
        profile->provenance.where = "not recorded (give it in the profile)";
    if (!writeProfile(*profile, opt.writePath))
        return kExitFailure;
    if (!options.json)
        std::printf("wrote %s (profile \"%s\", %zu matmul points)\n", opt.writePath.c_str(),
                    profile->id.c_str(), profile->matmul.size());
    return kExitOk;
}

int listProfiles(const Options& options) {
    CalibrationRegistry registry;
    if (!loadCalibrations(options, registry))
        return kExitBadInput;
    Json out = Json::array();
    for (const auto& [id, p] : registry.profiles()) {
        if (options.json) {
            out.push_back({{"id", id},
                           {"name", p->name},
                           {"kind", p->kind == ProfileKind::Published ? "published" : "measured"},
                           {"gpu", p->gpu.empty() ? Json(nullptr) : Json(p->gpu)},
                           {"matmul_points", p->matmul.size()},
                           {"attention_points", p->attention.size()},
                           {"hbm", p->hbm.has_value()},
                           {"collectives", p->collectives.size()},
                           {"power_phases", measuredPhaseCount(p->power)},
                           {"origin", p->origin}});
        } else {
            std::printf("%-28s %-9s %-16s %s\n", id.c_str(),
                        p->kind == ProfileKind::Published ? "published" : "measured",
                        p->gpu.empty() ? "(network)" : p->gpu.c_str(),
                        terminalText(p->name).c_str());
        }
    }
    if (options.json)
        std::printf("%s\n", out.dump(2).c_str());
    return kExitOk;
}

} // namespace

int runCalibrateList(const Options& options) {
    return listProfiles(options);
}

int runCalibrateImportNccl(const Options& options) {
    LazyCatalog catalog(options);
    return importNccl(options, catalog);
}

int runCalibrateImportGemm(const Options& options) {
    LazyCatalog catalog(options);
    return importGemm(options, catalog);
}

namespace {

// --write, --id and --gpu, shared by both imports.
void addProfileOptions(CLI::App* sub, Options& options) {
    sub->add_option("--write", options.writePath,
                    "Add the result to this profile (created when missing)")
        ->type_name("PROFILE.json");
    sub->add_option("--id", options.profileId, "Id of a new profile")->type_name("ID");
    sub->add_option("--gpu", options.gpu, "Catalog GPU the measurements were taken on")
        ->type_name("GPU");
    addJsonFlag(sub, options);
}

} // namespace

void addCalibrateCommand(CLI::App& app, Options& options, CommandRunner& run) {
    CLI::App* calibrate = app.add_subcommand("calibrate", "Calibration profiles");
    calibrate->require_subcommand(1, 1);
    CLI::App* list =
        calibrate->add_subcommand("list", "List the calibration profiles a scenario can select");
    addJsonFlag(list, options);
    setRunner(list, run, [&options] { return runCalibrateList(options); });

    CLI::App* nccl = calibrate->add_subcommand(
        "import-nccl", "Fit latency and bus bandwidth to nccl-tests logs (all_reduce_perf, "
                       "all_gather_perf, reduce_scatter_perf, alltoall_perf, sendrecv_perf)");
    nccl->add_option("LOG", options.positional, "nccl-tests output files")->required();
    nccl->add_option("--collective", options.collective,
                     "all_reduce, all_gather, reduce_scatter, all_to_all or send_recv (default: "
                     "from the log)")
        ->type_name("NAME");
    addProfileOptions(nccl, options);
    setRunner(nccl, run, [&options] { return runCalibrateImportNccl(options); });

    CLI::App* gemm = calibrate->add_subcommand(
        "import-gemm", "A CSV of matmul timings (m,n,k,dtype,time_us or tflops) as a profile's "
                       "efficiency table");
    gemm->add_option("CSV", options.positional, "Matmul timings")->required()->expected(1);
    addProfileOptions(gemm, options);
    setRunner(gemm, run, [&options] { return runCalibrateImportGemm(options); });
}

} // namespace ts::cli
