// The core's messages in the user's language (issue 18, finding 10). core/ has no Qt: each of
// its user-facing messages carries a stable id and arguments beside the English text
// (common/Message.h); the app maps each id to a translated template (models/CoreMessages.cpp).
// Here: every id the core can emit has a template in the app, the same English, and a Chinese
// translation with the same placeholders; in Chinese the estimator's messages, the status line
// and the GPU subtitle of every bundled example are Chinese; the command line stays English.

#include "TestSupport.h"

#include "CoreMessages.h"
#include "DiagnosticsModel.h"
#include "MainWindow.h"
#include "ScenarioDocument.h"
#include "TimelineChart.h"
#include "Translations.h"

#include "catalog/Catalog.h"
#include "common/Message.h"
#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "scenario/ClusterText.h"
#include "scenario/ScenarioResolver.h"

#include <QLabel>
#include <QRegularExpression>
#include <QSet>
#include <QStatusBar>
#include <QtTest>

using namespace ts;
using namespace ts::gui;

namespace {

EstimateFunction coreEstimator() {
    return [](const ResolvedScenario& scenario, Diagnostics& diags) {
        EstimatorSettings settings = defaultEstimatorSettings(scenario);
        settings.maxScheduleEvents = TimelineChart::kScheduleEvents;
        return estimatePlan(scenario, settings, diags);
    };
}

bool hasChinese(const QString& text) {
    static const QRegularExpression han(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
    return text.contains(han);
}

QString translated(const char* source) {
    return QCoreApplication::translate("CoreMessage", source);
}

} // namespace

class TestGuiLanguage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void placeholdersFillInOnePass();
    void everyCoreMessageHasATranslation();
    void examplesInChinese_data();
    void examplesInChinese();
    void refusedEditInChinese();
    void commandLineStaysEnglish();
};

void TestGuiLanguage::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    removeTranslations();
}

void TestGuiLanguage::placeholdersFillInOnePass() {
    QCOMPARE(fillPlaceholders("%2 of %1, %3%", {"a", "%1"}), std::string("%1 of a, %3%"));
    QCOMPARE(placeholderCount("plan uses %1% of memory"), 1);
    const Message m = message(MessageId::DoesNotFit, {"3", "90.0 GiB", "80.0 GiB"});
    QCOMPARE(m.english, std::string("does not fit: stage 3 needs 90.0 GiB of 80.0 GiB"));
    QCOMPARE(messageText(m), QString::fromStdString(m.english)); // English: no translator
    QCOMPARE(messageText(plainMessage("free text")), QString("free text"));
}

// Completeness: an id added to core/common/Messages.def without an entry in the app (or
// without its Chinese translation) fails here.
void TestGuiLanguage::everyCoreMessageHasATranslation() {
    QVERIFY(allMessageIds().size() > 50);
    QVERIFY(installTranslations("zh_CN"));
    const auto restore = qScopeGuard([] { removeTranslations(); });
    QSet<QString> keys;
    for (MessageId id : allMessageIds()) {
        const QString key =
            QString::fromUtf8(messageKey(id).data(), qsizetype(messageKey(id).size()));
        QVERIFY2(!keys.contains(key), qPrintable("duplicate message id " + key));
        keys.insert(key);
        const char* source = messageSourceText(messageKey(id));
        QVERIFY2(source, qPrintable("no app-side translation entry for " + key));
        QCOMPARE(
            QString::fromUtf8(source),
            QString::fromUtf8(messageTemplate(id).data(), qsizetype(messageTemplate(id).size())));
        const QString chinese = translated(source);
        QVERIFY2(chinese != QString::fromUtf8(source) && hasChinese(chinese),
                 qPrintable("no Chinese translation for " + key));
        QCOMPARE(placeholderCount(chinese.toStdString()), placeholderCount(messageTemplate(id)));
        for (int n = 1; n <= placeholderCount(messageTemplate(id)); ++n)
            QVERIFY2(chinese.contains(QStringLiteral("%%1").arg(n)),
                     qPrintable(key + " lacks %" + QString::number(n)));
    }
    QVERIFY(!messageSourceText("no.such_id"));
}

void TestGuiLanguage::examplesInChinese_data() {
    QTest::addColumn<QString>("file");
    for (const QString& path : test::exampleFiles())
        QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

// Every message the Messages dock shows for a bundled example has an id and reads in
// Chinese, and so do the status line and the subtitle naming the GPUs.
void TestGuiLanguage::examplesInChinese() {
    QFETCH(QString, file);
    QVERIFY(installTranslations("zh_CN"));
    const auto restore = qScopeGuard([] { removeTranslations(); });
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(file));
    QVERIFY(window.waitForEstimate(30000));
    DiagnosticsModel* model = window.diagnosticsModel();
    QVERIFY(model->rowCount() > 0); // every example has at least its cost assumptions
    for (int row = 0; row < model->rowCount(); ++row) {
        const Diagnostic& d = model->diagnostics()[std::size_t(row)];
        const QString shown = model->index(row, DiagnosticsModel::MessageColumn).data().toString();
        QVERIFY2(d.id != MessageId::None, qPrintable("no message id: " + shown));
        QVERIFY2(hasChinese(shown), qPrintable(shown));
        QVERIFY2(shown != QString::fromStdString(d.message), qPrintable(shown));
    }
    auto* subtitle = window.findChild<QLabel*>(QStringLiteral("scenarioSubtitle"));
    QVERIFY(subtitle);
    QVERIFY2(subtitle->text().contains(QString::fromUtf8("块")), qPrintable(subtitle->text()));
    const QString gpu = QString::fromStdString(window.scenario()->cluster.gpu.name);
    QVERIFY2(subtitle->text().contains(gpu), qPrintable(subtitle->text()));
    const QString status = window.statusBar()->currentMessage();
    QVERIFY2(hasChinese(status), qPrintable(status));
    for (QLabel* label : window.statusBar()->findChildren<QLabel*>())
        if (!label->text().isEmpty())
            QVERIFY2(hasChinese(label->text()), qPrintable(label->text()));
}

// A refused edit names the reader's reason in the status line, in Chinese.
void TestGuiLanguage::refusedEditInChinese() {
    QVERIFY(installTranslations("zh_CN"));
    const auto restore = qScopeGuard([] { removeTranslations(); });
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(test::sourceDir() + "/resources/examples/llama3-70b-64xh100.json"));
    QVERIFY(window.waitForEstimate());
    QVERIFY(
        !window.document()->setValue("/training/seq_len", nlohmann::ordered_json(0), "seq_len"));
    const QString status = window.statusBar()->currentMessage();
    QVERIFY2(status.contains(QString::fromUtf8("超出范围")), qPrintable(status));
    QVERIFY2(status.contains("/training/seq_len"), qPrintable(status));
    QVERIFY2(!status.contains("out of range"), qPrintable(status));
    // The invalid plan's error in the Messages dock is Chinese too.
    QVERIFY(window.document()->setValue("/parallelism/tp", nlohmann::ordered_json(3), "tp"));
    QTRY_VERIFY(window.diagnosticsModel()->errorCount() > 0);
    bool chineseError = false;
    for (int row = 0; row < window.diagnosticsModel()->rowCount(); ++row)
        chineseError = chineseError || hasChinese(window.diagnosticsModel()
                                                      ->index(row, DiagnosticsModel::MessageColumn)
                                                      .data()
                                                      .toString());
    QVERIFY(chineseError);
}

// The command line's text comes from the core alone: English, whatever the app's language.
void TestGuiLanguage::commandLineStaysEnglish() {
    QVERIFY(installTranslations("zh_CN"));
    const auto restore = qScopeGuard([] { removeTranslations(); });
    Diagnostics diags;
    const auto resolved = resolveScenarioFile(
        (test::sourceDir() + "/resources/examples/llama3-70b-64xh100.json").toStdString(),
        Catalog::builtIn(), diags);
    QVERIFY(resolved);
    const auto estimate = estimatePlan(*resolved, diags);
    QVERIFY(estimate && !estimate->warnings.empty());
    const QString text = QString::fromStdString(estimateToText(*estimate));
    QVERIFY(text.contains("warning: GPU idle power assumed"));
    QVERIFY(!hasChinese(text));
    QCOMPARE(clusterGpusText(resolved->cluster).english,
             std::string("64 × ") + resolved->cluster.gpu.name);
    QVERIFY(messageText(clusterGpusText(resolved->cluster)).contains(QString::fromUtf8("块")));
}

QTEST_MAIN(TestGuiLanguage)
#include "tst_gui_language.moc"
