#pragma once
// A comparison report (report/ReportFormats.h) as PDF, through Qt's PDF writer: the HTML
// report laid out by QTextDocument over A4 pages, each inline <svg> chart drawn by
// QSvgRenderer. The desktop application calls it directly; trainscape-cli runs the small
// trainscape-report-pdf tool (app/reportpdf) that calls it, so the CLI links no Qt.

#include <QByteArray>
#include <QString>

#include <string>

namespace ts {

// The PDF document's bytes ("" and `error` set when the HTML holds a chart Qt cannot draw).
QByteArray reportHtmlToPdf(const std::string& html, QString& error);

// Renders and writes atomically (common/AtomicFile.h).
bool writeReportPdf(const std::string& html, const QString& path, QString& error);

} // namespace ts
