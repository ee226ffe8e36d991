// The Search view driven offscreen: a search from the form, the sortable results table, the
// scatter with its Pareto front and the scenario's own plan, hover text, "Apply plan" as one
// undoable edit, and Cancel. Screenshots go to TRAINSCAPE_TEST_OUT/screenshots.

#include "ScenarioDocument.h"
#include "SearchResultsModel.h"
#include "SearchRunner.h"
#include "SearchView.h"
#include "TestSupport.h"

#include "export/LaunchTargets.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QUndoStack>
#include <QtTest>

using namespace ts;
using namespace ts::gui;

namespace {

QString example(const char* name) {
    return test::sourceDir() + "/resources/examples/" + name;
}

QString screenshot(QWidget& w, const QString& name) {
    const QString dir = test::outputDir() + "/screenshots";
    QDir().mkpath(dir);
    const QString path = dir + "/" + name;
    w.grab().save(path);
    return path;
}

} // namespace

class TestGuiSearch : public QObject {
    Q_OBJECT

private slots:
    void searchSortApplyUndo() {
        ScenarioDocument doc;
        Diagnostics diags;
        QVERIFY(doc.load(example("llama3-70b-64xh100.json"), diags));
        SearchView view(&doc);
        view.resize(1100, 800);
        view.show();
        view.pinsEdit()->setText("micro_batch=1,offload.optimizer=none,offload.params=none,"
                                 "offload.activations=none,dp_shard=0");
        QTest::mouseClick(view.searchButton(), Qt::LeftButton);
        QVERIFY(!view.searchButton()->isEnabled());
        QVERIFY(view.runner()->waitForFinished(240000));
        QVERIFY2(view.statusText().contains("full estimates"), qPrintable(view.statusText()));
        SearchResultsModel* model = view.resultsModel();
        QCOMPARE(model->rowCount(), 20);
        // Best first by step time.
        for (int r = 1; r < model->rowCount(); ++r)
            QVERIFY(
                model->index(r, SearchResultsModel::StepTime).data(Qt::UserRole).toDouble() >=
                model->index(r - 1, SearchResultsModel::StepTime).data(Qt::UserRole).toDouble());
        // The scatter: timed plans, the front, the best plans and this scenario's plan.
        QCOMPARE(view.plot()->graphCount(), 4);
        QVERIFY(view.plot()->graph(0)->dataCount() > 100);
        QVERIFY(view.plot()->graph(1)->dataCount() >= 2);
        const auto best = model->plan(0).estimate;
        view.plot()->replot();
        const QPointF at(view.plot()->xAxis->coordToPixel(best.stepSeconds),
                         view.plot()->yAxis->coordToPixel(best.peakBytes / double(1ull << 30)));
        QVERIFY(view.hoverText(at).contains("s/step"));
        screenshot(view, "search-view.png");

        // Sort by peak memory, largest first; pick the row with the least memory.
        view.table()->sortByColumn(SearchResultsModel::PeakMemory, Qt::DescendingOrder);
        const int last = model->rowCount() - 1;
        QVERIFY(model->index(0, SearchResultsModel::PeakMemory).data(Qt::UserRole).toDouble() >=
                model->index(last, SearchResultsModel::PeakMemory).data(Qt::UserRole).toDouble());
        view.table()->selectRow(last);
        const PlanChoice chosen = model->plan(last).plan;
        const int steps = doc.undoStack()->count();
        QTest::mouseClick(view.applyButton(), Qt::LeftButton);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QVERIFY(doc.resolved());
        QCOMPARE(planChoiceOf(*doc.resolved()), chosen);
        doc.undoStack()->undo();
        QCOMPARE(doc.resolved()->parallel.tp, 8); // the example's
        screenshot(view, "search-view-sorted.png");
    }

    // The launcher choice (issue 37 item 2): with torchtitan chosen, the best plan is one
    // torchtitan exports as it is; with no filter the list may hold plans no launcher runs.
    void launcherChoiceKeepsWhatItRuns() {
        ScenarioDocument doc;
        Diagnostics diags;
        QVERIFY(
            doc.load(ts::test::sourceDir() + "/resources/examples/llama3-70b-64xh100.json", diags));
        SearchView view(&doc);
        view.pinsEdit()->setText("micro_batch=1,offload.optimizer=none,offload.params=none,"
                                 "offload.activations=none,recompute=selective|full");
        const int titan = view.targetBox()->findData(QString("torchtitan"));
        QVERIFY(titan >= 0);
        view.targetBox()->setCurrentIndex(titan);
        view.searchButton()->click();
        QVERIFY(view.runner()->waitForFinished(240000));
        QVERIFY(view.resultsModel()->rowCount() > 0);
        for (int r = 0; r < view.resultsModel()->rowCount(); ++r)
            QVERIFY(launches(view.resultsModel()->plan(r).scenario, "torchtitan"));
    }

    void cancelStopsTheSearch() {
        ScenarioDocument doc;
        Diagnostics diags;
        QVERIFY(doc.load(example("gpt3-175b-1024xa100.json"), diags));
        SearchView view(&doc);
        view.startSearch();
        QVERIFY(view.cancelButton()->isEnabled());
        QTest::mouseClick(view.cancelButton(), Qt::LeftButton);
        QVERIFY(view.runner()->waitForFinished(120000));
        QVERIFY2(view.statusText().startsWith("Cancelled"), qPrintable(view.statusText()));
        QVERIFY(view.searchButton()->isEnabled());
    }

    void badPinsSaySo() {
        ScenarioDocument doc;
        Diagnostics diags;
        QVERIFY(doc.load(example("llama3-8b-8xh100.json"), diags));
        SearchView view(&doc);
        view.pinsEdit()->setText("tp=eight");
        view.startSearch();
        QVERIFY(!view.runner()->isRunning());
        QVERIFY2(view.statusText().contains("tp"), qPrintable(view.statusText()));
    }
};

QTEST_MAIN(TestGuiSearch)
#include "tst_gui_search.moc"
