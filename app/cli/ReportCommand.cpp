// trainscape-cli report A B [C...] --format html|md|csv|pdf --out FILE [--db PATH|URL]
// A, B, ... are scenario files or library ids (ID or ID@VERSION). PDF is drawn by Qt: the CLI
// writes the HTML report and runs trainscape-report-pdf (app/reportpdf) on it, so that
// trainscape-cli itself links no Qt and runs where no GUI library is installed.

#include "CliCommands.h"
#include "LibraryCli.h"

#include "common/AtomicFile.h"
#include "report/ReportFormats.h"
#include "scenario/ScenarioIO.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ts::cli {

namespace {

struct ReportArgs {
    std::vector<std::string> items;
    std::string format = "html";
    std::string out;
    std::string db;
};

constexpr const char* kCommand = "report";

// Files first (a file named "3" is a file); else a library reference.
bool collectSources(const ReportArgs& args, std::vector<report::ScenarioSource>& sources,
                    int& exitCode) {
    std::unique_ptr<store::Library> library;
    for (const auto& item : args.items) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(item, ec)) {
            Diagnostics diags;
            auto text = readTextFile(item, diags);
            if (!text) {
                printDiagnostics(item, diags);
                exitCode = kExitBadInput;
                return false;
            }
            sources.push_back({*text, item, std::filesystem::path(item).stem().string()});
            continue;
        }
        const auto ref = parseVersionRef(item);
        if (!ref) {
            std::fprintf(stderr,
                         "trainscape-cli report: \"%s\" is neither a scenario file nor a library "
                         "id (ID or ID@VERSION)\n",
                         item.c_str());
            exitCode = kExitBadInput;
            return false;
        }
        if (!library && !(library = openLibraryArgument(args.db, kCommand, exitCode)))
            return false;
        auto version = library->version(ref->id, ref->version);
        auto summary = library->scenario(ref->id);
        if (!version || !summary) {
            exitCode = reportStoreError(kCommand, (!version ? version.error() : summary.error()),
                                        *library);
            return false;
        }
        sources.push_back({version->scenarioJson,
                           "library " + std::to_string(ref->id) + " version " +
                               std::to_string(version->info.number) + " (" + library->location() +
                               ")",
                           summary->name});
    }
    return true;
}

std::string catalogDescription(const Options& options) {
    std::string text = "built-in";
    for (const auto& file : options.catalogFiles)
        text += " + " + file;
    const std::string fingerprint = settingsFingerprint(options);
    if (!fingerprint.empty())
        text += " (settings " + fingerprint + ")";
    return text;
}

// The PDF tool beside this executable, or $TRAINSCAPE_REPORT_PDF.
std::string pdfTool() {
    if (const char* tool = std::getenv("TRAINSCAPE_REPORT_PDF"); tool && *tool)
        return tool;
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return (self.parent_path() / "trainscape-report-pdf").string();
}

int writePdf(const std::string& html, const std::string& out) {
    const std::string tool = pdfTool();
    if (::access(tool.c_str(), X_OK) != 0) {
        std::fprintf(stderr,
                     "trainscape-cli report: PDF is drawn by %s, which is not there (it is "
                     "built with the desktop application); use --format html, md or csv\n",
                     tool.c_str());
        return kExitFailure;
    }
    char temp[] = "/tmp/trainscape-report-XXXXXX.html";
    const int fd = ::mkstemps(temp, 5);
    if (fd < 0 || ::write(fd, html.data(), html.size()) != static_cast<ssize_t>(html.size())) {
        std::fprintf(stderr, "trainscape-cli report: cannot write a temporary file\n");
        if (fd >= 0)
            ::close(fd);
        return kExitFailure;
    }
    ::close(fd);
    const char* argv[] = {tool.c_str(), temp, out.c_str(), nullptr};
    pid_t pid = 0;
    int status = 0;
    const int spawned =
        ::posix_spawn(&pid, tool.c_str(), nullptr, nullptr, const_cast<char**>(argv), environ);
    if (spawned == 0)
        ::waitpid(pid, &status, 0);
    std::remove(temp);
    if (spawned != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "trainscape-cli report: %s could not write %s\n", tool.c_str(),
                     out.c_str());
        return kExitFailure;
    }
    return kExitOk;
}

int runReport(const Options& options, const ReportArgs& args) {
    const auto format = report::reportFormatFromName(args.format);
    if (!format) {
        std::fprintf(stderr,
                     "trainscape-cli report: unknown --format \"%s\": expected html, md, "
                     "csv or pdf\n",
                     args.format.c_str());
        return kExitBadInput;
    }
    std::vector<report::ScenarioSource> sources;
    int exitCode = kExitOk;
    if (!collectSources(args, sources, exitCode))
        return exitCode;
    Catalog catalog;
    CalibrationRegistry calibrations;
    if (!loadCatalog(options, catalog) || !loadCalibrations(options, calibrations))
        return kExitBadInput;
    Diagnostics diags;
    auto built =
        report::buildReport(sources, catalog, calibrations, catalogDescription(options), diags);
    for (const auto& d : diags.all())
        std::fprintf(stderr, "%s: %s\n", d.path.c_str(), d.message.c_str());
    if (!built)
        return kExitBadInput;
    if (*format == report::ReportFormat::Pdf)
        return writePdf(report::reportToHtml(*built), args.out);
    const std::string text = *format == report::ReportFormat::Html ? report::reportToHtml(*built)
                             : *format == report::ReportFormat::Markdown
                                 ? report::reportToMarkdown(*built)
                                 : report::reportToCsv(*built);
    if (auto written = writeFileAtomically(args.out, text); !written) {
        std::fprintf(stderr, "trainscape-cli report: %s\n", written.error.c_str());
        return kExitFailure;
    }
    return kExitOk;
}

} // namespace

void addReportCommand(CLI::App& app, Options& options, CommandRunner& run) {
    static ReportArgs args;
    CLI::App* sub = app.add_subcommand(
        "report", "Compare 2 to 8 scenarios (files, or library ids ID[@VERSION]) side by side");
    sub->add_option("SCENARIO", args.items, "Scenario files or library ids")
        ->required()
        ->expected(report::kMinScenarios, report::kMaxScenarios);
    sub->add_option("--format", args.format, "html (default), md, csv or pdf")->type_name("FORMAT");
    sub->add_option("--out", args.out, "Report file to write")->required()->type_name("FILE");
    sub->add_option("--db", args.db, "Library for ids: SQLite PATH or postgresql:// URL")
        ->envname("TRAINSCAPE_LIBRARY")
        ->type_name("PATH|URL");
    setRunner(sub, run, [&] { return runReport(options, args); });
}

} // namespace ts::cli
