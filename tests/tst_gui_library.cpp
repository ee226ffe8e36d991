// The desktop's Library and Compare tabs, offscreen: Save to library makes versions, the
// Library view searches, diffs two versions, opens one, deletes with undo; the Compare view
// shows cards and the report's charts and exports the report. Screenshots under
// test-output/screenshots/.

#include "TestSupport.h"

#include "CompareView.h"
#include "LibraryView.h"
#include "MainWindow.h"
#include "ScenarioDocument.h"
#include "Screenshot.h"

#include "scenario/ScenarioIO.h"

#include <QMessageBox>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace ts;
using namespace ts::gui;

namespace {

QString screenshotDir() {
    const QString dir = test::outputDir() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir;
}

QString example(const char* name) {
    return test::sourceDir() + "/resources/examples/" + name;
}

} // namespace

class TestGuiLibrary : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void saveDiffOpenDeleteUndo();
    void compareAndExport();

private:
    QTemporaryDir dir_;
};

void TestGuiLibrary::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    qputenv("TRAINSCAPE_LIBRARY", dir_.filePath("desktop.sqlite").toUtf8());
}

void TestGuiLibrary::saveDiffOpenDeleteUndo() {
    MainWindow window;
    window.setRememberRecentFiles(false);
    window.setSavePromptOverride(QMessageBox::Discard);
    QVERIFY(window.saveToLibraryAction());
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QVERIFY(window.saveToLibrary("as bundled"));
    QVERIFY(window.document()->setValue("/parallelism/recompute", nlohmann::ordered_json("full"),
                                        "full recompute"));
    QVERIFY(window.scenario().has_value()); // still valid
    QVERIFY(window.saveToLibrary("full recompute"));
    LibraryView* view = window.libraryView();
    QCOMPARE(view->scenarioCount(), 1);
    const store::ScenarioId id = view->selectedScenario();
    QVERIFY(id != 0);
    QCOMPARE(view->library()->versions(id)->size(), size_t(2));

    view->selectVersions({1, 2});
    QVERIFY(view->diffSelectedVersions());
    QVERIFY2(view->diffText().contains(QRegularExpression("parallelism.recompute: .* → \"full\"")),
             qPrintable(view->diffText()));
    QVERIFY(view->addTagToSelected("h100"));
    view->setSearchText("h100");
    QCOMPARE(view->scenarioCount(), 1);
    view->setSearchText("no-such-thing");
    QCOMPARE(view->scenarioCount(), 0);
    view->setSearchText("");
    QVERIFY(view->selectScenario(id));
    view->selectVersions({1, 2});
    view->diffSelectedVersions();
    QVERIFY(window.showView("library"));
    QString error;
    QVERIFY2(saveScreenshot(window, screenshotDir() + "/library-view.png", &error),
             qPrintable(error));

    // Open version 1: the document is that version again.
    view->selectVersions({1});
    QVERIFY(view->openSelectedVersion());
    QVERIFY(window.document()->scenario().parallelism->recompute !=
            std::optional(RecomputeMode::Full));
    // Saving now is a new version 3 based on 1 -- refused: version 2 came after it.
    QVERIFY(!window.saveToLibrary("from v1"));
    QCOMPARE(view->library()->versions(id)->size(), size_t(2));

    // Delete, then undo: the same id with both versions and the tag.
    QVERIFY(view->deleteSelectedScenario());
    QCOMPARE(view->scenarioCount(), 0);
    QVERIFY(view->undoStack()->canUndo());
    view->undoStack()->undo();
    QCOMPARE(view->scenarioCount(), 1);
    QCOMPARE(view->library()->versions(id)->size(), size_t(2));
    QCOMPARE(view->library()->scenario(id)->tags, std::vector<std::string>{"h100"});
    view->undoStack()->redo();
    QCOMPARE(view->scenarioCount(), 0);
    view->undoStack()->undo();
    QCOMPARE(view->scenarioCount(), 1);
}

void TestGuiLibrary::compareAndExport() {
    MainWindow window;
    window.setRememberRecentFiles(false);
    window.setSavePromptOverride(QMessageBox::Discard);
    QVERIFY(window.openScenario(example("gpt3-175b-1024xa100.json")));
    QVERIFY(window.saveToLibrary("GPT-3"));
    CompareView* compare = window.compareView();
    auto list = window.libraryView()->library()->listScenarios();
    QVERIFY(list.ok() && list->size() >= 2);
    compare->refresh();
    QVERIFY(compare->setChecked(list->at(0).id, true));
    QVERIFY(!compare->compareChecked()); // one is not a comparison
    QVERIFY2(compare->statusText().contains("2 to 8"), qPrintable(compare->statusText()));
    QVERIFY(compare->setChecked(list->at(1).id, true));
    compare->addFile(example("mixtral-8x7b-64xh100.json"));
    QVERIFY2(compare->compareChecked(), qPrintable(compare->statusText()));
    QCOMPARE(compare->cardCount(), 3);
    QCOMPARE(compare->chartCount(), 3); // breakdown, totals, memory per stage (one per scenario)
    QVERIFY(window.showView("compare"));
    QString error;
    QVERIFY2(saveScreenshot(window, screenshotDir() + "/compare-view.png", &error, {1400, 1300}),
             qPrintable(error));
    for (const char* suffix : {"html", "md", "csv", "pdf"}) {
        const QString path = dir_.filePath(QStringLiteral("report.") + suffix);
        QVERIFY2(compare->exportReport(path, error), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 1000);
    }
    QVERIFY(test::readAll(dir_.filePath("report.pdf")).rfind("%PDF-", 0) == 0);
    QVERIFY(!compare->exportReport(dir_.filePath("report.docx"), error));
    QVERIFY(error.contains(".html, .md, .csv or .pdf"));
}

QTEST_MAIN(TestGuiLibrary)
#include "tst_gui_library.moc"
