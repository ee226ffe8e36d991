#include "ExplainCard.h"

#include "QuantityText.h"

#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QTextDocument>
#include <QVBoxLayout>

#include <cmath>

namespace ts::gui {

namespace {

constexpr int kShownSensitivities = 6;

QString changeText(double ratio) {
    const double change = (ratio - 1) * 100;
    return QStringLiteral("%1%2%").arg(change >= 0 ? QStringLiteral("+") : QString(),
                                       QLocale().toString(change, 'f', 1));
}

QString linkName(CommLink link) {
    return ExplainCard::resourceName(linkClassName(link));
}

} // namespace

ExplainCard::ExplainCard(QWidget* parent)
    : QFrame(parent), title_(new QLabel(this)), headline_(new QLabel(this)),
      body_(new QLabel(this)) {
    setFrameShape(QFrame::StyledPanel);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setObjectName(QStringLiteral("explainCard"));
    title_->setForegroundRole(QPalette::PlaceholderText);
    QFont headlineFont = headline_->font();
    headlineFont.setWeight(QFont::DemiBold);
    headline_->setFont(headlineFont);
    headline_->setWordWrap(true);
    body_->setWordWrap(true);
    body_->setTextFormat(Qt::RichText);
    body_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(14, 10, 14, 12);
    layout->setSpacing(4);
    layout->addWidget(title_);
    layout->addWidget(headline_);
    layout->addWidget(body_);
    updateText();
}

void ExplainCard::setExplanation(const Explanation* explanation, const QString& reason) {
    if (explanation)
        explanation_ = *explanation;
    else
        explanation_.reset();
    reason_ = reason;
    updateText();
}

QString ExplainCard::headline() const {
    return headline_->text();
}

QString ExplainCard::bodyText() const {
    QTextDocument doc;
    doc.setHtml(body_->text());
    return doc.toPlainText();
}

QString ExplainCard::partName(const std::string& id) {
    if (id == "compute")
        return tr("Compute");
    if (id == "recompute")
        return tr("Recompute");
    if (id == "tp_exposed")
        return tr("TP communication");
    if (id == "cp_exposed")
        return tr("CP communication");
    if (id == "ep_exposed")
        return tr("EP all-to-all");
    if (id == "pp_exposed")
        return tr("PP send/receive");
    if (id == "pipeline_bubble")
        return tr("Pipeline bubble");
    if (id == "dp_exposed")
        return tr("DP gradient sync");
    if (id == "optimizer")
        return tr("Optimizer step");
    if (id == "offload_exposed")
        return tr("Offload transfers");
    return QString::fromStdString(id);
}

QString ExplainCard::resourceName(const std::string& id) {
    if (id == "tensor_cores")
        return tr("tensor cores");
    if (id == "hbm")
        return tr("HBM bandwidth");
    if (id == "scale_up")
        return tr("NVLink (scale-up)");
    if (id == "scale_out")
        return tr("scale-out network");
    if (id == "host")
        return tr("PCIe and host");
    if (id == "pipeline_idle")
        return tr("idle pipeline stages");
    return QString::fromStdString(id);
}

QString ExplainCard::knobText(const Sensitivity& s) {
    const QString from = QLocale().toString(s.from, 'g', 6);
    const QString to = QLocale().toString(s.to, 'g', 6);
    if (s.knob == "scale_up_bandwidth")
        return tr("NVLink %1 → %2 GB/s").arg(from, to);
    if (s.knob == "scale_out_bandwidth")
        return tr("NICs %1 → %2 Gbit/s").arg(from, to);
    if (s.knob == "oversubscription")
        return tr("Oversubscription %1:1 → %2:1").arg(from, to);
    if (s.knob == "dp")
        return tr("DP %1 → %2 (GPUs with it)").arg(from, to);
    return tr("%1 %2 → %3").arg(QString::fromStdString(s.knob).toUpper(), from, to);
}

void ExplainCard::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        updateText();
    QFrame::changeEvent(event);
}

void ExplainCard::updateText() {
    title_->setText(tr("WHY THIS STEP TIME"));
    if (!explanation_) {
        headline_->setText(reason_.isEmpty() ? tr("No estimate to explain") : reason_);
        body_->clear();
        return;
    }
    const Explanation& x = *explanation_;
    headline_->setText(tr("Bound by %1 on %2: %3% of the step")
                           .arg(partName(x.boundBy).toLower(), resourceName(x.boundOn),
                                QLocale().toString(100 * x.boundShare, 'f', 0)));
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    for (const StepPart& p : x.parts)
        html += QStringLiteral("<tr><td>%1</td><td align='right'>&nbsp;%2&nbsp;</td>"
                               "<td align='right'>%3%&nbsp;</td><td>%4</td></tr>")
                    .arg(partName(p.id).toHtmlEscaped(), secondsText(p.seconds),
                         QLocale().toString(100 * p.share, 'f', 1),
                         resourceName(p.resource).toHtmlEscaped());
    html += QStringLiteral("</table><p style='margin-top:6px'>");
    QStringList comm;
    for (const CommunicationPart& c : x.communication) {
        const QString dim = QString::fromStdString(c.dimension).toUpper();
        QString link =
            tr("%1, %2 GB/s per GPU").arg(linkName(c.link), QLocale().toString(c.linkGBps, 'g', 4));
        if (c.underOneLeaf)
            link += tr("; under one leaf switch: oversubscription does not apply");
        comm << (c.hidden()
                     ? tr("%1: %2 hidden behind compute (%3)")
                           .arg(dim, bytesText(c.bytesPerGpu), link)
                     : tr("%1: %2, %3 exposed (%4)")
                           .arg(dim, bytesText(c.bytesPerGpu), secondsText(c.exposedSeconds), link))
                    .toHtmlEscaped();
    }
    html += comm.join(QStringLiteral("<br>"));
    html += QStringLiteral("</p><p style='margin-top:6px'><b>%1</b><br>")
                .arg(tr("Edits with the largest effect").toHtmlEscaped());
    QStringList edits;
    int shown = 0;
    for (const Sensitivity& s : x.sensitivities) {
        if (shown++ >= kShownSensitivities)
            break;
        if (!s.invalidReason.empty()) {
            edits << tr("%1: not a valid plan").arg(knobText(s)).toHtmlEscaped();
            continue;
        }
        edits << tr("%1: step %2, peak memory %3%4")
                     .arg(knobText(s), s.stepRatio ? changeText(*s.stepRatio) : QString("—"),
                          s.peakRatio ? changeText(*s.peakRatio) : QString("—"),
                          s.fits && !*s.fits ? tr(" (does not fit)") : QString())
                     .toHtmlEscaped();
    }
    if (x.sensitivities.empty()) // a plan over pools: the edits are of one uniform plan
        edits << tr("none offered for a plan over pools (they edit one uniform plan)")
                     .toHtmlEscaped();
    html += edits.join(QStringLiteral("<br>")) + QStringLiteral("</p>");
    body_->setText(html);
}

} // namespace ts::gui
