#include "CompareView.h"

#include "ReportPdf.h"

#include "common/AtomicFile.h"
#include "report/ReportFormats.h"
#include "report/ReportSvg.h"
#include "scenario/ScenarioIO.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QScrollArea>
#include <QSvgRenderer>
#include <QVBoxLayout>

namespace ts::gui {

namespace {

constexpr int kIdRole = Qt::UserRole + 1;   // library id, or 0 for a file
constexpr int kPathRole = Qt::UserRole + 2; // the file

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

// The report's SVG chart as a picture, at the screen's pixel ratio.
QLabel* chartLabel(const std::string& svg, QWidget* parent) {
    QSvgRenderer renderer(QByteArray::fromStdString(svg));
    const qreal ratio = parent->devicePixelRatioF();
    QImage image(renderer.defaultSize() * ratio, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderer.render(&painter);
    painter.end();
    QPixmap pixmap = QPixmap::fromImage(image);
    pixmap.setDevicePixelRatio(ratio);
    auto* label = new QLabel(parent);
    label->setPixmap(pixmap);
    return label;
}

} // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    buildUi();
    retranslate();
}

void CompareView::buildUi() {
    picks_ = new QListWidget(this);
    picks_->setMaximumHeight(150);
    addFiles_ = new QPushButton(this);
    compare_ = new QPushButton(this);
    export_ = new QPushButton(this);
    export_->setEnabled(false);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(addFiles_, &QPushButton::clicked, this, [this] {
        for (const QString& file : QFileDialog::getOpenFileNames(
                 this, tr("Add scenario files"), QString(), tr("Scenarios (*.json)")))
            addFile(file);
    });
    connect(compare_, &QPushButton::clicked, this, [this] { compareChecked(); });
    connect(export_, &QPushButton::clicked, this, &CompareView::exportFromDialog);

    cardsHost_ = new QWidget(this);
    cards_ = new QGridLayout(cardsHost_);
    chartsHost_ = new QWidget(this);
    charts_ = new QVBoxLayout(chartsHost_);
    auto* results = new QWidget(this);
    auto* resultsLayout = new QVBoxLayout(results);
    resultsLayout->addWidget(cardsHost_);
    resultsLayout->addWidget(chartsHost_);
    resultsLayout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(results);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(addFiles_);
    buttons->addWidget(compare_);
    buttons->addWidget(export_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(picks_);
    layout->addLayout(buttons);
    layout->addWidget(status_);
    layout->addWidget(scroll, 1);
}

void CompareView::retranslate() {
    addFiles_->setText(tr("Add files…"));
    compare_->setText(tr("Compare"));
    export_->setText(tr("Export report…"));
    status_->setText(tr("Check 2 to 8 scenarios and press Compare."));
}

void CompareView::setLibrary(std::shared_ptr<store::Library> library) {
    library_ = std::move(library);
    refresh();
}

void CompareView::refresh() {
    QSet<qint64> checked;
    QStringList files;
    for (int i = 0; i < picks_->count(); ++i) {
        auto* item = picks_->item(i);
        const qint64 id = item->data(kIdRole).toLongLong();
        if (id == 0)
            files << item->data(kPathRole).toString();
        else if (item->checkState() == Qt::Checked)
            checked.insert(id);
    }
    picks_->clear();
    if (library_) {
        if (auto list = library_->listScenarios()) {
            for (const auto& s : *list) {
                auto* item = new QListWidgetItem(tr("%1 (library %2, version %3)")
                                                     .arg(qs(s.name))
                                                     .arg(s.id)
                                                     .arg(s.latestVersion),
                                                 picks_);
                item->setData(kIdRole, QVariant::fromValue<qint64>(s.id));
                item->setCheckState(checked.contains(s.id) ? Qt::Checked : Qt::Unchecked);
            }
        }
    }
    for (const QString& file : files)
        addFile(file);
}

bool CompareView::setChecked(store::ScenarioId id, bool checked) {
    for (int i = 0; i < picks_->count(); ++i)
        if (picks_->item(i)->data(kIdRole).toLongLong() == id) {
            picks_->item(i)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
            return true;
        }
    return false;
}

void CompareView::addFile(const QString& path) {
    auto* item = new QListWidgetItem(tr("%1 (file)").arg(QFileInfo(path).fileName()), picks_);
    item->setData(kIdRole, QVariant::fromValue<qint64>(0));
    item->setData(kPathRole, path);
    item->setCheckState(Qt::Checked);
}

bool CompareView::compareChecked() {
    std::vector<report::ScenarioSource> sources;
    for (int i = 0; i < picks_->count(); ++i) {
        const auto* item = picks_->item(i);
        if (item->checkState() != Qt::Checked)
            continue;
        const qint64 id = item->data(kIdRole).toLongLong();
        if (id == 0) {
            const QString path = item->data(kPathRole).toString();
            Diagnostics diags;
            sources.push_back({readTextFile(path.toStdString(), diags).value_or(""),
                               path.toStdString(), QFileInfo(path).baseName().toStdString()});
        } else if (library_) {
            auto version = library_->version(id, std::nullopt);
            auto summary = library_->scenario(id);
            if (!version || !summary) {
                status_->setText(qs((!version ? version.error() : summary.error()).message));
                return false;
            }
            sources.push_back({version->scenarioJson,
                               "library " + std::to_string(id) + " version " +
                                   std::to_string(version->info.number),
                               summary->name});
        }
    }
    Diagnostics diags;
    report_ = report::buildReport(sources, Catalog::builtIn(), CalibrationRegistry::standard(),
                                  "built-in", diags);
    if (!report_) {
        QStringList problems;
        for (const auto& d : diags.errors())
            problems << qs(d.path + ": " + d.message);
        status_->setText(problems.join('\n'));
        export_->setEnabled(false);
        showReport();
        return false;
    }
    status_->setText(
        tr("%n scenario(s) compared", nullptr, static_cast<int>(report_->scenarios.size())));
    export_->setEnabled(true);
    showReport();
    return true;
}

void CompareView::showReport() {
    while (QLayoutItem* item = cards_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    while (QLayoutItem* item = charts_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (!report_)
        return;
    const auto rows = report::outputRows(*report_);
    const char* shown[] = {"Fits in memory", "Peak memory", "Step time", "Tokens/s", "MFU",
                           "Time to train",  "Cost",        "Energy",    "CO2"};
    for (std::size_t s = 0; s < report_->scenarios.size(); ++s) {
        auto* card = new QFrame(cardsHost_);
        card->setFrameShape(QFrame::StyledPanel);
        auto* layout = new QVBoxLayout(card);
        auto* title = new QLabel(
            QStringLiteral("<b>%1</b>").arg(qs(report_->scenarios[s].label).toHtmlEscaped()), card);
        title->setWordWrap(true);
        layout->addWidget(title);
        for (const auto& row : rows) {
            if (std::find(std::begin(shown), std::end(shown), row.name) == std::end(shown))
                continue;
            QString text = qs(row.name) + ": " + qs(row.text[s]);
            if (row.expectedError[s])
                text +=
                    QStringLiteral(" (%1)").arg(qs(report::formatInterval(*row.expectedError[s])));
            auto* label = new QLabel(text, card);
            label->setTextInteractionFlags(Qt::TextSelectableByMouse);
            if (row.differs)
                label->setStyleSheet(QStringLiteral("background: #fff2b3; color: #1a1a1a;"));
            layout->addWidget(label);
        }
        layout->addStretch(1);
        cards_->addWidget(card, static_cast<int>(s) / 4, static_cast<int>(s) % 4);
    }
    charts_->addWidget(chartLabel(report::stepBreakdownSvg(*report_), chartsHost_));
    charts_->addWidget(chartLabel(report::runTotalsSvg(*report_), chartsHost_));
    auto* memory = new QWidget(chartsHost_);
    auto* memoryLayout = new QGridLayout(memory);
    for (std::size_t s = 0; s < report_->scenarios.size(); ++s)
        memoryLayout->addWidget(
            chartLabel(report::memoryPerStageSvg(report_->scenarios[s]), memory),
            static_cast<int>(s) / 2, static_cast<int>(s) % 2);
    charts_->addWidget(memory);
}

bool CompareView::exportReport(const QString& path, QString& error) {
    if (!report_) {
        error = tr("Compare scenarios first.");
        return false;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("pdf"))
        return writeReportPdf(report::reportToHtml(*report_), path, error);
    std::string text;
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        text = report::reportToHtml(*report_);
    else if (suffix == QLatin1String("md"))
        text = report::reportToMarkdown(*report_);
    else if (suffix == QLatin1String("csv"))
        text = report::reportToCsv(*report_);
    else {
        error = tr("Unknown report format “%1”: use .html, .md, .csv or .pdf").arg(suffix);
        return false;
    }
    const auto written = writeFileAtomically(path.toStdString(), text);
    if (!written)
        error = qs(written.error);
    return written.ok();
}

void CompareView::exportFromDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export report"), QStringLiteral("comparison.html"),
        tr("HTML (*.html);;Markdown (*.md);;CSV (*.csv);;PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    QString error;
    status_->setText(exportReport(path, error) ? tr("Report written to %1").arg(path) : error);
}

QString CompareView::statusText() const {
    return status_->text();
}

int CompareView::cardCount() const {
    return cards_->count();
}

int CompareView::chartCount() const {
    return charts_->count();
}

} // namespace ts::gui
