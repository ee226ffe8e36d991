#include "LibraryActions.h"

#include "LibraryCli.h"

#include "common/AtomicFile.h"
#include "common/JsonObjectReader.h"
#include "common/TextFormat.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"
#include "store/LibraryBundle.h"
#include "store/ScenarioDiff.h"
#include "store/VersionEstimate.h"

#include <cstdio>
#include <filesystem>

namespace ts::cli {

using store::ScenarioId;

namespace {

constexpr const char* kCommand = "library";

// The scenario file, checked as `validate` checks it: a library keeps only valid scenarios.
std::optional<std::string> readValidScenario(const Options& options, const std::string& file,
                                             std::string& name, int& exitCode) {
    Catalog catalog;
    CalibrationRegistry calibrations;
    if (!loadCatalog(options, catalog) || !loadCalibrations(options, calibrations)) {
        exitCode = kExitBadInput;
        return std::nullopt;
    }
    Diagnostics diags;
    auto text = readTextFile(file, diags);
    std::optional<Scenario> scenario;
    if (text)
        scenario = parseScenarioText(*text, diags);
    if (scenario)
        resolveScenario(*scenario, catalog, calibrations, diags);
    if (diags.hasErrors()) {
        printDiagnostics(file, diags);
        exitCode = kExitBadInput;
        return std::nullopt;
    }
    if (name.empty())
        name = scenario->name.value_or(std::filesystem::path(file).stem().string());
    return text;
}

Json summaryJson(const store::ScenarioSummary& s) {
    return {{"id", s.id},
            {"name", s.name},
            {"tags", s.tags},
            {"latest_version", s.latestVersion},
            {"versions", s.versionCount},
            {"created_at", s.createdAt},
            {"updated_at", s.updatedAt}};
}

} // namespace

int libraryAdd(const Options& options, const LibraryArgs& args) {
    int exitCode = kExitOk;
    std::string name = args.name;
    auto text = readValidScenario(options, args.file, name, exitCode);
    if (!text)
        return exitCode;
    auto library = openLibraryArgument(args.db, kCommand, exitCode);
    if (!library)
        return exitCode;
    ScenarioId id = args.to;
    int version = 1;
    if (args.to != 0) {
        auto saved =
            library->saveVersion(args.to, *text, args.note,
                                 args.basedOn ? std::optional<int>(args.basedOn) : std::nullopt);
        if (!saved)
            return reportStoreError(kCommand, saved.error(), *library);
        version = *saved;
        for (const auto& tag : args.tags)
            if (auto tagged = library->addTag(id, tag); !tagged)
                return reportStoreError(kCommand, tagged.error(), *library);
    } else {
        auto added = library->addScenario(name, *text, args.note, args.tags);
        if (!added)
            return reportStoreError(kCommand, added.error(), *library);
        id = *added;
    }
    if (options.json)
        std::printf("%s\n", Json({{"id", id}, {"version", version}}).dump(2).c_str());
    else
        std::printf("scenario %lld version %d saved to %s\n", static_cast<long long>(id), version,
                    library->location().c_str());
    return kExitOk;
}

int libraryList(const Options& options, const LibraryArgs& args) {
    int exitCode = kExitOk;
    auto library = openLibraryArgument(args.db, kCommand, exitCode);
    if (!library)
        return exitCode;
    auto list = args.search.empty() ? library->listScenarios() : library->search(args.search);
    if (!list)
        return reportStoreError(kCommand, list.error(), *library);
    Json out = Json::array();
    for (const auto& s : *list) {
        bool tagged = true;
        for (const auto& tag : args.tags)
            tagged = tagged && std::find(s.tags.begin(), s.tags.end(), tag) != s.tags.end();
        if (!tagged)
            continue;
        out.push_back(summaryJson(s));
        if (!options.json) {
            std::string tags;
            for (const auto& t : s.tags)
                tags += (tags.empty() ? "" : ",") + t;
            std::printf("%6lld  v%-4d %s  %-24s %s\n", static_cast<long long>(s.id),
                        s.latestVersion, s.updatedAt.c_str(), terminalText(tags).c_str(),
                        terminalText(s.name).c_str());
        }
    }
    if (options.json)
        std::printf("%s\n",
                    Json({{"library", library->location()}, {"scenarios", out}}).dump(2).c_str());
    return kExitOk;
}

int libraryShow(const Options& options, const LibraryArgs& args) {
    int exitCode = kExitOk;
    auto library = openLibraryArgument(args.db, kCommand, exitCode);
    if (!library)
        return exitCode;
    auto version =
        library->version(args.id, args.version ? std::optional<int>(args.version) : std::nullopt);
    if (!version)
        return reportStoreError(kCommand, version.error(), *library);
    if (!args.estimate) {
        std::printf("%s", version->scenarioJson.c_str());
        if (!version->scenarioJson.empty() && version->scenarioJson.back() != '\n')
            std::printf("\n");
        return kExitOk;
    }
    Catalog catalog;
    CalibrationRegistry calibrations;
    if (!loadCatalog(options, catalog) || !loadCalibrations(options, calibrations))
        return kExitBadInput;
    Diagnostics diags;
    auto estimate = store::estimateOfVersion(*library, args.id, version->info.number, catalog,
                                             calibrations, settingsFingerprint(options), diags);
    if (!estimate) {
        printDiagnostics("scenario " + std::to_string(args.id), diags);
        return reportStoreError(kCommand, estimate.error(), *library);
    }
    std::fprintf(stderr, "trainscape-cli library: estimate %s (estimator %s)\n",
                 estimate->fromCache ? "from the cache" : "computed and cached",
                 estimate->estimatorVersion.c_str());
    std::printf("%s\n", estimate->estimateJson.c_str());
    return kExitOk;
}

int libraryVersions(const Options& options, const LibraryArgs& args) {
    int exitCode = kExitOk;
    auto library = openLibraryArgument(args.db, kCommand, exitCode);
    if (!library)
        return exitCode;
    auto versions = library->versions(args.id);
    if (!versions)
        return reportStoreError(kCommand, versions.error(), *library);
    Json out = Json::array();
    for (const auto& v : *versions) {
        out.push_back({{"number", v.number}, {"created_at", v.createdAt}, {"note", v.note}});
        if (!options.json)
            std::printf("v%-4d %s  %s\n", v.number, v.createdAt.c_str(), v.note.c_str());
    }
    if (options.json)
        std::printf("%s\n", Json({{"id", args.id}, {"versions", out}}).dump(2).c_str());
    return kExitOk;
}

int libraryDiff(const Options& options, const LibraryArgs& args) {
    const auto a = parseVersionRef(args.a), b = parseVersionRef(args.b);
    if (!a || !b) {
        std::fprintf(stderr,
                     "trainscape-cli library diff: expected ID or ID@VERSION, got "
                     "\"%s\"\n",
                     (!a ? args.a : args.b).c_str());
        return kExitBadInput;
    }
    int exitCode = kExitOk;
    auto library = openLibraryArgument(args.db, kCommand, exitCode);
    if (!library)
        return exitCode;
    std::string texts[2];
    const VersionRef refs[2] = {*a, *b};
    for (int i = 0; i < 2; ++i) {
        auto version = library->version(refs[i].id, refs[i].version);
        if (!version)
            return reportStoreError(kCommand, version.error(), *library);
        texts[i] = version->scenarioJson;
    }
    Json changes = Json::array();
    for (const auto& change : store::diffScenarioTexts(texts[0], texts[1])) {
        auto value = [](const std::string& text) {
            return text.empty() ? Json() : Json::parse(text);
        };
        changes.push_back(
            {{"key", change.key}, {"a", value(change.before)}, {"b", value(change.after)}});
        if (!options.json)
            std::printf("%-40s %s -> %s\n", change.key.c_str(),
                        change.before.empty() ? "(absent)" : change.before.c_str(),
                        change.after.empty() ? "(absent)" : change.after.c_str());
    }
    if (options.json)
        std::printf("%s\n",
                    Json({{"a", args.a}, {"b", args.b}, {"changes", changes}}).dump(2).c_str());
    else if (changes.empty())
        std::printf("no differences\n");
    return kExitOk;
}

int libraryTag(const Options&, const LibraryArgs& args) {
    int exitCode = kExitOk;
    auto library = openLibraryArgument(args.db, kCommand, exitCode);
    if (!library)
        return exitCode;
    for (const auto& tag : args.tags) {
        auto done = args.remove ? library->removeTag(args.id, tag) : library->addTag(args.id, tag);
        if (!done)
            return reportStoreError(kCommand, done.error(), *library);
    }
    return kExitOk;
}

int libraryRemove(const Options&, const LibraryArgs& args) {
    int exitCode = kExitOk;
    auto library = openLibraryArgument(args.db, kCommand, exitCode);
    if (!library)
        return exitCode;
    auto removed = library->removeScenario(args.id);
    if (!removed)
        return reportStoreError(kCommand, removed.error(), *library);
    std::printf("deleted scenario %lld \"%s\" (%zu versions)\n", args.id,
                terminalText(removed->name).c_str(), removed->versions.size());
    return kExitOk;
}

int libraryExport(const Options&, const LibraryArgs& args) {
    int exitCode = kExitOk;
    auto library = openLibraryArgument(args.db, kCommand, exitCode);
    if (!library)
        return exitCode;
    std::vector<ScenarioId> ids(args.ids.begin(), args.ids.end());
    auto bundle = store::exportBundle(*library, ids);
    if (!bundle)
        return reportStoreError(kCommand, bundle.error(), *library);
    if (auto written = writeFileAtomically(args.out, *bundle); !written) {
        std::fprintf(stderr, "trainscape-cli library export: %s\n", written.error.c_str());
        return kExitFailure;
    }
    return kExitOk;
}

int libraryImport(const Options& options, const LibraryArgs& args) {
    Diagnostics diags;
    auto text = readTextFile(args.file, diags);
    if (!text) {
        printDiagnostics(args.file, diags);
        return kExitBadInput;
    }
    int exitCode = kExitOk;
    auto library = openLibraryArgument(args.db, kCommand, exitCode);
    if (!library)
        return exitCode;
    auto ids = store::importBundle(*library, *text);
    if (!ids)
        return reportStoreError(kCommand, ids.error(), *library);
    if (options.json)
        std::printf("%s\n", Json({{"ids", *ids}}).dump(2).c_str());
    else
        std::printf("imported %zu scenarios into %s\n", ids->size(), library->location().c_str());
    return kExitOk;
}

int libraryBackup(const Options&, const LibraryArgs& args) {
    int exitCode = kExitOk;
    auto library = openLibraryArgument(args.db, kCommand, exitCode);
    if (!library)
        return exitCode;
    if (auto done = library->backup(args.out); !done)
        return reportStoreError(kCommand, done.error(), *library);
    return kExitOk;
}

} // namespace ts::cli
