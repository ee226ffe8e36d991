#include "calibration/CalibrationRegistry.h"

#include "calibration/ProfileJson.h"
#include "scenario/ScenarioIO.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace ts::embedded {
struct File {
    const char* name;
    const char* data;
    std::size_t size;
};
extern const File kCalibrationFiles[];
extern const std::size_t kCalibrationFilesCount;
} // namespace ts::embedded

namespace ts {

namespace {

// Prefixes each new diagnostic's message with the file it came from, keeping its path.
void appendWithOrigin(Diagnostics& into, const Diagnostics& from, const std::string& origin) {
    for (const auto& d : from.all()) {
        const std::string message = origin + ": " + d.message;
        if (d.severity == Severity::Error)
            into.error(d.path, message);
        else
            into.warning(d.path, message);
    }
}

} // namespace

const CalibrationRegistry& CalibrationRegistry::builtIn() {
    static const CalibrationRegistry registry = [] {
        CalibrationRegistry r;
        for (std::size_t i = 0; i < embedded::kCalibrationFilesCount; ++i) {
            const auto& file = embedded::kCalibrationFiles[i];
            Diagnostics diags;
            if (!r.addDocument(std::string(file.data, file.size),
                               std::string("built-in:") + file.name, diags)) {
                for (const auto& d : diags.all())
                    std::fprintf(stderr, "built-in calibration profile %s: %s\n", file.name,
                                 d.toString().c_str());
                std::abort();
            }
        }
        return r;
    }();
    return registry;
}

const CalibrationRegistry& CalibrationRegistry::standard() {
    static const CalibrationRegistry registry = [] {
        CalibrationRegistry r = builtIn();
        if (const char* dirs = std::getenv(kCalibrationDirEnv); dirs && *dirs) {
            std::istringstream in(dirs);
            std::string dir;
            while (std::getline(in, dir, ':'))
                if (!dir.empty())
                    r.addDirectory(dir, r.loadDiagnostics_);
        }
        return r;
    }();
    return registry;
}

bool CalibrationRegistry::addDocument(const std::string& jsonText, const std::string& origin,
                                      Diagnostics& diagnostics) {
    Diagnostics local;
    auto profile = parseProfile(jsonText, local);
    if (!profile) {
        appendWithOrigin(diagnostics, local, origin);
        return false;
    }
    // An id names one profile: a second file with a taken id (a user's copy of a shipped
    // profile, two exports under one name) would silently change what scenarios select.
    if (auto taken = find(profile->id)) {
        diagnostics.error("/id", origin + ": the id " + quoteInput(profile->id) +
                                     " is already taken by " + taken->origin +
                                     "; give this profile another id (e.g. " +
                                     quoteInput(profile->id + "-lab") + ")");
        return false;
    }
    profile->origin = origin;
    add(std::move(*profile));
    return true;
}

bool CalibrationRegistry::addFile(const std::string& path, Diagnostics& diagnostics) {
    Diagnostics local;
    auto text = readTextFile(path, local);
    if (!text) {
        appendWithOrigin(diagnostics, local, path);
        return false;
    }
    return addDocument(*text, path, diagnostics);
}

bool CalibrationRegistry::addDirectory(const std::string& path, Diagnostics& diagnostics) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
        diagnostics.error("",
                          "calibration folder \"" + path + "\" does not exist or is not a folder");
        return false;
    }
    std::vector<fs::path> files;
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" && it->is_regular_file(ec))
            files.push_back(it->path());
    if (ec) {
        diagnostics.error("", "cannot read calibration folder \"" + path + "\": " + ec.message());
        return false;
    }
    std::sort(files.begin(), files.end());
    bool ok = true;
    for (const auto& file : files)
        ok = addFile(file.string(), diagnostics) && ok;
    return ok;
}

void CalibrationRegistry::add(CalibrationProfile profile) {
    const std::string id = profile.id;
    profiles_[id] = std::make_shared<const CalibrationProfile>(std::move(profile));
}

std::shared_ptr<const CalibrationProfile> CalibrationRegistry::find(const std::string& id) const {
    auto it = profiles_.find(id);
    return it == profiles_.end() ? nullptr : it->second;
}

std::string CalibrationRegistry::knownIds() const {
    std::string out;
    for (const auto& [id, profile] : profiles_)
        out += (out.empty() ? "" : ", ") + id;
    return out.empty() ? "(none)" : out;
}

} // namespace ts
