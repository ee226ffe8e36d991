// trainscape-report-pdf REPORT.html OUT.pdf: draws a comparison report (as trainscape-cli
// report writes it in HTML) into a PDF with Qt's PDF writer, on the offscreen platform so it
// needs no display. trainscape-cli runs it for `report --format pdf` and so links no Qt itself.

#include "ReportPdf.h"

#include "scenario/ScenarioIO.h"

#include <QGuiApplication>

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: trainscape-report-pdf REPORT.html OUT.pdf\n");
        return 2;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Qt's note that XDG_RUNTIME_DIR is unset (usual on servers) is noise here.
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& text) {
        if (type != QtDebugMsg && type != QtInfoMsg && !text.contains("XDG_RUNTIME_DIR"))
            std::fprintf(stderr, "trainscape-report-pdf: %s\n", qPrintable(text));
    });
    QGuiApplication app(argc, argv);
    ts::Diagnostics diags;
    const auto html = ts::readTextFile(argv[1], diags);
    if (!html) {
        std::fprintf(stderr, "trainscape-report-pdf: %s: %s\n", argv[1],
                     diags.all().empty() ? "cannot read" : diags.all()[0].toString().c_str());
        return 2;
    }
    QString error;
    if (!ts::writeReportPdf(*html, QString::fromLocal8Bit(argv[2]), error)) {
        std::fprintf(stderr, "trainscape-report-pdf: %s\n", qPrintable(error));
        return 1;
    }
    return 0;
}
