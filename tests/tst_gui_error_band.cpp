// The error band in the main window, offscreen (time.expected_error; tools/errorband): with the
// application's estimator, the toolbar badge and the step-time card show how far off the
// published runs most like the scenario were ("−12 % … +11 %", "on 28 similar runs") and say
// what made them similar in their tooltips; a scenario no published run is like (a QLoRA
// fine-tune on one RTX 4090) shows no band and says why, while its memory card shows the
// memory band (memory.expected_error) that the Megatron-LM plan lacks; the card speaks
// Chinese under zh_CN.
// Screenshots of the dashboard with a band and without.

#include "TestSupport.h"

#include "AppEstimator.h"
#include "EstimateBadge.h"
#include "EstimateCards.h"
#include "MainWindow.h"
#include "QuantityText.h"
#include "Screenshot.h"
#include "Translations.h"

#include <QStandardPaths>
#include <QtTest>

using namespace ts;
using namespace ts::gui;

namespace {

QString example(const char* name) {
    return test::sourceDir() + "/resources/examples/" + name;
}

void shoot(MainWindow& window, const QString& name) {
    const QString dir = test::outputDir() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    QString error;
    QVERIFY2(saveScreenshot(window, dir + "/" + name + ".png", &error, {1600, 1000}),
             qPrintable(error));
}

} // namespace

class TestGuiErrorBand : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void badgeAndCardShowTheBand();
    void noSimilarRunNoBand();
    void cardInChinese();
};

void TestGuiErrorBand::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    removeTranslations();
    QVERIFY(!test::sourceDir().isEmpty());
}

void TestGuiErrorBand::badgeAndCardShowTheBand() {
    MainWindow window(applicationEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QVERIFY(window.waitForEstimate());
    const std::optional<Estimate>& e = window.estimate();
    QVERIFY(e && e->expectedError);
    const ExpectedError& band = *e->expectedError;
    QVERIFY(band.low < 0 && band.high > 0); // dense Hopper runs: off either way
    QVERIFY(band.cases >= 8);
    const QString range = errorBandText(band.low, band.high);
    QVERIFY2(range.contains(QString::fromUtf8("\u2026")), qPrintable(range));

    const QString badge = window.badge()->text();
    QVERIFY2(badge.contains("/step (" + range + ")"), qPrintable(badge));
    QVERIFY2(window.badge()->toolTip().contains(QString::fromStdString(band.basis)),
             qPrintable(window.badge()->toolTip()));

    EstimateCards* cards = window.estimateCards();
    const QString detail = cards->detailText(EstimateCards::Card::StepTime);
    QVERIFY2(detail.contains(range + " on " + QString::number(band.cases) + " similar runs"),
             qPrintable(detail));
    const QString tip = cards->valueToolTip(EstimateCards::Card::StepTime);
    QVERIFY2(tip.contains("most similar published runs"), qPrintable(tip));
    QVERIFY2(tip.contains("compute:"), qPrintable(tip)); // the breakdown is still there
    // No memory was published for a Megatron-LM run: no memory band, and the card says why.
    QVERIFY(!e->memoryExpectedError);
    QVERIFY(cards->valueToolTip(EstimateCards::Card::Memory).contains("No memory error band"));
    shoot(window, "error-band-llama3-70b-64xh100");
}

void TestGuiErrorBand::noSimilarRunNoBand() {
    MainWindow window(applicationEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3.1-8b-qlora-1xrtx4090.json")));
    QVERIFY(window.waitForEstimate());
    QVERIFY(window.estimate() && !window.estimate()->expectedError);
    QVERIFY(!window.badge()->text().contains(QString::fromUtf8("\u2026")));
    QVERIFY(window.badge()->toolTip().contains("No error band"));
    QVERIFY(!window.estimateCards()
                 ->detailText(EstimateCards::Card::StepTime)
                 .contains("similar runs"));
    QVERIFY(window.estimateCards()
                ->valueToolTip(EstimateCards::Card::StepTime)
                .contains("No error band"));
    // Its memory has a band, from the published torchtune figures (memory.expected_error).
    const auto& memoryBand = window.estimate()->memoryExpectedError;
    QVERIFY(memoryBand);
    const QString memoryRange = errorBandText(memoryBand->low, memoryBand->high);
    QVERIFY2(window.estimateCards()->detailText(EstimateCards::Card::Memory).contains(memoryRange),
             qPrintable(window.estimateCards()->detailText(EstimateCards::Card::Memory)));
    const QString memoryTip = window.estimateCards()->valueToolTip(EstimateCards::Card::Memory);
    QVERIFY2(memoryTip.contains("most similar published memory figures"), qPrintable(memoryTip));
    QVERIFY2(memoryTip.contains("weights:"), qPrintable(memoryTip)); // the parts are still there
    shoot(window, "error-band-none-llama3.1-8b-qlora-1xrtx4090");
}

void TestGuiErrorBand::cardInChinese() {
    QVERIFY(installTranslations(QStringLiteral("zh_CN")));
    MainWindow window(applicationEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QVERIFY(window.waitForEstimate());
    const int cases = window.estimate()->expectedError->cases;
    const QString detail = window.estimateCards()->detailText(EstimateCards::Card::StepTime);
    removeTranslations();
    QVERIFY2(detail.contains(QString::fromUtf8("基于 %1 个相似运行").arg(cases)),
             qPrintable(detail));
}

QTEST_MAIN(TestGuiErrorBand)
#include "tst_gui_error_band.moc"
