// trainscape: the desktop application. Command-line parsing and start-up only; the window
// lives in MainWindow.
//
//   trainscape [SCENARIO]                       open a scenario file
//   trainscape --screenshot OUT.png [SCENARIO]  render the window offscreen to a PNG, exit
//       exit 0: written; exit 2: the scenario is invalid (the PNG is still written and shows
//       the errors in the Messages list; they are also printed on stderr); exit 1: the PNG
//       could not be written (or the arguments are wrong).
//   --view NAME       with --screenshot: the view in front (MainWindow::viewNames(): the tabs
//                     dashboard, layout, file, topology, search, capacity, library, compare and
//                     the editors model, cluster, plan, training, costs, summary)
//   --language zh_CN (or TRAINSCAPE_LANGUAGE=zh_CN) overrides the language chosen in the
//   settings (View ▸ Language), which defaults to the system's.

#include "AppEstimator.h"
#include "DiagnosticsModel.h"
#include "MainWindow.h"
#include "Screenshot.h"
#include "Settings.h"
#include "Translations.h"

#include "common/Diagnostics.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>

#include <cstdio>
#include <cstring>

namespace {

// The value of `--name VALUE` or `--name=VALUE` before QApplication parses anything; the
// platform and the language must be chosen before the application object exists.
const char* preScan(int argc, char** argv, const char* name, bool* present = nullptr) {
    const std::size_t length = std::strlen(name);
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--") == 0)
            break;
        if (std::strncmp(argv[i], name, length) != 0)
            continue;
        if (argv[i][length] == '=') {
            if (present)
                *present = true;
            return argv[i] + length + 1;
        }
        if (argv[i][length] == '\0') {
            if (present)
                *present = true;
            return i + 1 < argc ? argv[i + 1] : nullptr;
        }
    }
    return nullptr;
}

void printDiagnostics(const ts::gui::MainWindow& window) {
    for (const ts::Diagnostic& d : window.diagnosticsModel()->diagnostics())
        std::fprintf(stderr, "trainscape: %s\n", d.toString().c_str());
}

} // namespace

int main(int argc, char* argv[]) {
    // --screenshot, --help and --version need no display: run them on the offscreen
    // platform unless the user chose one.
    bool needsNoDisplay = false;
    for (const char* option : {"--screenshot", "--help", "-h", "--help-all", "--version", "-v"})
        preScan(argc, argv, option, &needsNoDisplay);
    if (needsNoDisplay && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("trainscape"));
    QApplication::setOrganizationName(QStringLiteral("Trainscape"));
    QApplication::setApplicationVersion(QStringLiteral(TRAINSCAPE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.trainscape.trainscape"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/trainscape.svg")));

    QString language = ts::gui::settings::language;
    if (qEnvironmentVariableIsSet("TRAINSCAPE_LANGUAGE"))
        language = qEnvironmentVariable("TRAINSCAPE_LANGUAGE");
    if (const char* option = preScan(argc, argv, "--language"))
        language = QString::fromLocal8Bit(option);
    ts::gui::installTranslations(language);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Planner for distributed training of large language "
                                            "models."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QCoreApplication::translate("main", "Render the main window offscreen to <png> and exit."),
        QCoreApplication::translate("main", "png"));
    const QCommandLineOption languageOption(
        QStringLiteral("language"),
        QCoreApplication::translate("main", "User interface language, e.g. zh_CN (default: the "
                                            "system's)."),
        QCoreApplication::translate("main", "locale"));
    const QCommandLineOption viewOption(
        QStringLiteral("view"),
        QCoreApplication::translate("main", "With --screenshot: the view to show (%1).")
            .arg(ts::gui::MainWindow::viewNames().join(QStringLiteral(", "))),
        QCoreApplication::translate("main", "view"), QStringLiteral("dashboard"));
    parser.addOption(screenshotOption);
    parser.addOption(viewOption);
    parser.addOption(languageOption);
    parser.addPositionalArgument(
        QStringLiteral("scenario"),
        QCoreApplication::translate("main", "Scenario file to open (JSON)."),
        QStringLiteral("[scenario]"));
    parser.process(app); // exits for --help, --version and unknown options

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        std::fprintf(stderr, "trainscape: %s\n",
                     qPrintable(QCoreApplication::translate("main", "at most one scenario file")));
        return 1;
    }
    const QString scenarioPath = positional.value(0);

    ts::gui::MainWindow window(ts::gui::applicationEstimator());
    if (parser.isSet(screenshotOption)) {
        window.setRememberRecentFiles(false);
        const bool valid = scenarioPath.isEmpty() || window.openScenario(scenarioPath);
        if (!window.showView(parser.value(viewOption))) {
            std::fprintf(stderr, "trainscape: unknown view %s (views: %s)\n",
                         qPrintable(parser.value(viewOption)),
                         qPrintable(ts::gui::MainWindow::viewNames().join(QStringLiteral(", "))));
            return 1;
        }
        window.waitForEstimate(); // a screenshot shows computed values, never placeholders
        QString error;
        const QString out = parser.value(screenshotOption);
        if (!ts::gui::saveScreenshot(window, out, &error)) {
            std::fprintf(stderr, "trainscape: cannot write %s: %s\n", qPrintable(out),
                         qPrintable(error));
            return 1;
        }
        if (!valid) {
            std::fprintf(stderr, "trainscape: %s is not a valid scenario\n",
                         qPrintable(scenarioPath));
            printDiagnostics(window);
            return 2;
        }
        return 0;
    }
    window.restoreWindowState();
    if (!scenarioPath.isEmpty())
        window.openScenario(scenarioPath);
    window.show();
    return QApplication::exec();
}
