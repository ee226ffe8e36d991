#include "LibraryCli.h"

#include "scenario/ScenarioIO.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace ts::cli {

std::unique_ptr<store::Library> openLibraryArgument(const std::string& db, const char* command,
                                                    int& exitCode) {
    std::string location = db.empty() ? store::defaultLibraryPath() : db;
    if (location.empty()) {
        std::fprintf(stderr,
                     "trainscape-cli %s: no library: give --db PATH|URL, set "
                     "TRAINSCAPE_LIBRARY, or set HOME for the default file\n",
                     command);
        exitCode = kExitBadInput;
        return nullptr;
    }
    auto library = store::openLibrary(location);
    if (!library) {
        exitCode = reportStoreError(command, library.error());
        return nullptr;
    }
    exitCode = kExitOk;
    return std::move(*library);
}

int reportStoreError(const char* command, const store::StoreError& error) {
    std::fprintf(stderr, "trainscape-cli %s: %s\n", command, error.message.c_str());
    switch (error.kind) {
    case store::StoreErrorKind::NotFound:
    case store::StoreErrorKind::BadInput:
    case store::StoreErrorKind::NotALibrary:
    case store::StoreErrorKind::TooNew:
        return kExitBadInput;
    default:
        return kExitFailure;
    }
}

int reportStoreError(const char* command, const store::StoreError& error,
                     const store::Library& library) {
    if (error.kind != store::StoreErrorKind::NotFound)
        return reportStoreError(command, error);
    store::StoreError named = error;
    named.message += " (" + library.location() + ")";
    return reportStoreError(command, named);
}

std::optional<VersionRef> parseVersionRef(const std::string& text) {
    const auto at = text.find('@');
    const std::string id = text.substr(0, at);
    auto digits = [](const std::string& s) {
        return !s.empty() && s.size() < 16 &&
               s.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!digits(id))
        return std::nullopt;
    VersionRef ref;
    ref.id = std::stoll(id);
    if (at != std::string::npos) {
        const std::string version = text.substr(at + 1);
        if (!digits(version) || version.size() > 9)
            return std::nullopt;
        ref.version = std::stoi(version);
    }
    return ref;
}

std::string settingsFingerprint(const Options& options) {
    if (options.catalogFiles.empty() && options.calibrationDirs.empty() &&
        !std::getenv(kCalibrationDirEnv))
        return {};
    std::uint64_t hash = 1469598103934665603ull; // FNV-1a 64
    auto mix = [&](const std::string& text) {
        for (unsigned char c : text) {
            hash ^= c;
            hash *= 1099511628211ull;
        }
    };
    for (const auto& file : options.catalogFiles) {
        Diagnostics ignored;
        mix(file);
        mix(readTextFile(file, ignored).value_or(""));
    }
    std::vector<std::string> dirs = options.calibrationDirs;
    if (const char* env = std::getenv(kCalibrationDirEnv))
        dirs.push_back(env);
    for (const auto& dir : dirs) {
        mix(dir);
        std::error_code ec;
        std::vector<std::string> files;
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
            files.push_back(entry.path().string());
        std::sort(files.begin(), files.end());
        for (const auto& file : files) {
            Diagnostics ignored;
            mix(file);
            mix(readTextFile(file, ignored).value_or(""));
        }
    }
    char text[32];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

} // namespace ts::cli
