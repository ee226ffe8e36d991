#include "ReportPdf.h"

#include "common/AtomicFile.h"

#include <QBuffer>
#include <QImage>
#include <QMarginsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgRenderer>
#include <QTextDocument>
#include <QUrl>

namespace ts {

namespace {

// Charts become images at three times their size (about 290 dpi on the page): sharp in print,
// while the report's text stays text.
constexpr int kChartScale = 3;
// The widest a chart may be drawn, in the document's pixels (A4 less the margins, at 96 dpi).
constexpr int kMaxChartWidth = 640;

// Replaces each <svg>...</svg> by an <img> of it, registered with the document.
bool inlineCharts(std::string& html, QTextDocument& document, QString& error) {
    std::size_t at = 0;
    int index = 0;
    while ((at = html.find("<svg", at)) != std::string::npos) {
        const std::size_t end = html.find("</svg>", at);
        if (end == std::string::npos) {
            error = QStringLiteral("an <svg> chart is not closed");
            return false;
        }
        const QByteArray svg = QByteArray::fromStdString(html.substr(at, end + 6 - at));
        QSvgRenderer renderer(svg);
        if (!renderer.isValid()) {
            error = QStringLiteral("chart %1 is not valid SVG").arg(index + 1);
            return false;
        }
        const QSize size = renderer.defaultSize();
        QImage image(size * kChartScale, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderer.render(&painter);
        painter.end();
        const QString name = QStringLiteral("chart-%1.png").arg(index);
        document.addResource(QTextDocument::ImageResource, QUrl(name), image);
        const int width = std::min(size.width(), kMaxChartWidth);
        const int height = size.height() * width / std::max(size.width(), 1);
        const std::string img = "<p><img src=\"" + name.toStdString() + "\" width=\"" +
                                std::to_string(width) + "\" height=\"" + std::to_string(height) +
                                "\"></p>";
        html.replace(at, end + 6 - at, img);
        at += img.size();
        ++index;
    }
    return true;
}

// The page's style in points: Qt's rich text takes CSS pixels as device pixels, which on a
// 1200 dpi PDF device would make 13 px text unreadably small.
const char* kPrintStyle = R"(<style>
body { font-family: "DejaVu Sans"; font-size: 8pt; }
h1 { font-size: 15pt; } h2 { font-size: 11pt; }
th { background-color: #eef2f7; font-weight: bold; }
td.num { text-align: right; }
td.mark { color: #b00000; font-weight: bold; }
.err { color: #555555; font-size: 6.5pt; }
.note { color: #555555; }
</style>)";

void usePrintStyle(std::string& html) {
    const auto begin = html.find("<style>");
    const auto end = html.find("</style>");
    if (begin != std::string::npos && end != std::string::npos && end > begin)
        html.replace(begin, end + 8 - begin, kPrintStyle);
}

} // namespace

QByteArray reportHtmlToPdf(const std::string& html, QString& error) {
    QTextDocument document;
    document.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 8));
    std::string text = html;
    if (!inlineCharts(text, document, error))
        return {};
    usePrintStyle(text);
    document.setHtml(QString::fromStdString(text));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    writer.setTitle(document.metaInformation(QTextDocument::DocumentTitle));
    writer.setCreator(QStringLiteral("Trainscape"));
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                     QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter));
    document.print(&writer);
    buffer.close();
    return bytes;
}

bool writeReportPdf(const std::string& html, const QString& path, QString& error) {
    const QByteArray pdf = reportHtmlToPdf(html, error);
    if (pdf.isEmpty()) {
        if (error.isEmpty())
            error = QStringLiteral("the PDF came out empty");
        return false;
    }
    const auto written =
        writeFileAtomically(path.toStdString(), std::string_view(pdf.constData(), pdf.size()));
    if (!written) {
        error = QString::fromStdString(written.error);
        return false;
    }
    return true;
}

} // namespace ts
