// Heterogeneous clusters in the main window, offscreen (issue 32 item 6): the bundled Llama 3
// 70B plan on 64 H100 + 128 A100 estimates; the Cluster dock's pools editor lists the pools and
// pipelines and edits them through the document (one undo step each); the memory chart puts
// each stage against its own pool's capacity; a uniform scenario turns into pools and back.
// Screenshots of the dashboard and the Cluster dock.

#include "TestSupport.h"

#include "CapacityRunner.h"
#include "CapacityView.h"
#include "ClusterEditor.h"
#include "MainWindow.h"
#include "MemoryChart.h"
#include "PoolsEditor.h"
#include "ResultsDashboard.h"
#include "ScenarioDocument.h"
#include "Screenshot.h"
#include "SearchView.h"
#include "TopologyCanvas.h"
#include "Translations.h"

#include "SearchResultsModel.h"
#include "SearchRunner.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QUndoStack>
#include <QtTest>

using namespace ts;
using namespace ts::gui;

namespace {

EstimateFunction coreEstimator() {
    return [](const ResolvedScenario& scenario, Diagnostics& diags) {
        return estimatePlan(scenario, defaultEstimatorSettings(scenario), diags);
    };
}

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

PoolsEditor* poolsEditor(MainWindow& window) {
    return window.clusterEditor()->findChild<PoolsEditor*>();
}

} // namespace

class TestGuiPools : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        removeTranslations();
        QVERIFY(!test::sourceDir().isEmpty());
    }

    void mixedClusterEstimatesAndEdits() {
        MainWindow window(coreEstimator());
        window.setRememberRecentFiles(false);
        QVERIFY(window.openScenario(example("llama3-70b-64xh100-128xa100.json")));
        QVERIFY(window.waitForEstimate());
        const std::optional<Estimate>& e = window.estimate();
        QVERIFY(e && e->hetero);
        QCOMPARE(e->hetero->perPool.size(), std::size_t(2));
        QCOMPARE(e->hetero->usedGpus, std::int64_t(192));
        QCOMPARE(window.dashboard()->memoryChart()->plot()->xAxis->label(),
                 QString("Pipeline stage and pool"));
        shoot(window, "pools-llama3-70b-64xh100-128xa100-dashboard");

        PoolsEditor* pools = poolsEditor(window);
        QVERIFY(pools);
        QCOMPARE(pools->poolsTable()->rowCount(), 2);
        QCOMPARE(pools->pipelinesTable()->rowCount(), 1);
        QCOMPARE(pools->pipelinesTable()->item(0, 1)->text(), QString("h100:8, a100:8, a100:8"));
        QVERIFY(window.showView("cluster"));
        shoot(window, "pools-llama3-70b-64xh100-128xa100-cluster");
        QVERIFY(window.showView("layout")); // each stage on its pool
        shoot(window, "pools-llama3-70b-64xh100-128xa100-layout");
        QVERIFY(window.showView("topology")); // each pool's network as a group
        shoot(window, "pools-llama3-70b-64xh100-128xa100-topology");
        auto* canvas = window.findChild<TopologyCanvas*>();
        QVERIFY(canvas);
        QVERIFY(canvas->exportPng(test::outputDir() + "/screenshots/pools-canvas.png", 1600));

        // Fewer replicas: one edit, one undo step, a new estimate with fewer GPUs in use.
        const int before = window.document()->undoStack()->count();
        pools->pipelinesTable()->item(0, 0)->setText("4");
        QCOMPARE(window.document()->undoStack()->count(), before + 1);
        QCOMPARE(window.document()->explicitValue("/parallelism/pipelines/0/count")->get<int>(), 4);
        QVERIFY(window.waitForEstimate());
        QCOMPARE(window.estimate()->hetero->usedGpus, std::int64_t(96));
        QCOMPARE(window.estimate()->hetero->unusedGpus, std::int64_t(96));

        // A pool asked for more GPUs than it has is refused at its path, beside the table.
        pools->poolsTable()->item(1, 2)->setText("8");
        QVERIFY(window.document()
                    ->errorAt("/parallelism/pipelines/0/stages/1/pool")
                    .contains("has 8 GPUs"));
        QVERIFY(pools->problemLabel()->text().contains("pool 'a100' has 8 GPUs"));
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->explicitValue("/cluster/pools/1/num_gpus")->get<int>(), 128);

        // A malformed stage list is refused by the editor, and nothing changes.
        const int steps = window.document()->undoStack()->count();
        pools->pipelinesTable()->item(0, 1)->setText("h100:x");
        QCOMPARE(window.document()->undoStack()->count(), steps);
        QVERIFY(pools->problemLabel()->text().contains("pool:tp"));
    }

    // The Search view searches a scenario over pools as the command line does (which pools,
    // stage order, tp per stage, layers, replicas), and applies a plan as pipelines.
    void searchViewSearchesPools() {
        MainWindow window(coreEstimator());
        window.setRememberRecentFiles(false);
        QVERIFY(window.openScenario(example("llama3-70b-64xh100-128xa100.json")));
        QVERIFY(window.waitForEstimate());
        QVERIFY(window.showView("search"));
        auto* view = window.findChild<SearchView*>();
        QVERIFY(view);
        view->searchButton()->click();
        QVERIFY(view->runner()->waitForFinished(240000));
        QVERIFY2(view->resultsModel()->rowCount() > 0, qPrintable(view->statusText()));
        const SearchedPlan& best = view->resultsModel()->plan(0);
        QVERIFY(best.pooled && best.scenario.hetero);
        QVERIFY(!best.description.empty());
        shoot(window, "pools-search");
        view->table()->selectRow(0);
        view->applyButton()->click();
        QVERIFY(window.waitForEstimate());
        QVERIFY(window.document()->resolved() && window.document()->resolved()->hetero);
        QCOMPARE(window.document()->explicitValue("/parallelism/pipelines"),
                 std::optional<nlohmann::ordered_json>(
                     scenarioToJson(*best.pooled)["parallelism"]["pipelines"]));
        QVERIFY(std::abs(window.estimate()->stepSeconds / best.estimate.stepSeconds - 1) < 1e-6);
    }

    // Capacity from the GPUs a user has: the fastest and the cheapest plan over the inventory's
    // pools and each pool alone, beside renting; a bad inventory is refused naming its entry.
    void capacityFromAnInventory() {
        ScenarioDocument doc;
        Diagnostics diags;
        QVERIFY(doc.load(example("llama3-70b-64xh100-128xa100.json"), diags));
        CapacityView view(&doc);
        view.resize(1400, 1000);
        view.show();
        view.tokensBox()->setValue(20); // billions
        view.deadlineBox()->setValue(30);
        view.maxGpusBox()->setValue(256);
        view.setCheckedGpus({"h100-sxm-80gb"});
        view.inventoryField()->setText(test::sourceDir() +
                                       "/resources/inventories/64xh100-128xa100.json");
        QTest::mouseClick(view.planButton(), Qt::LeftButton);
        QVERIFY(view.runner()->waitForFinished(240000));
        QTRY_VERIFY(view.inventoryLabel()->text().contains("fastest"));
        const QString text = view.inventoryLabel()->text();
        QVERIFY2(text.contains("64 × h100-sxm-80gb + 128 × a100-sxm-80gb"), qPrintable(text));
        QVERIFY(text.contains("h100-sxm-80gb alone") && text.contains("a100-sxm-80gb alone"));
        const QString dir = test::outputDir() + QStringLiteral("/screenshots");
        QDir().mkpath(dir);
        QVERIFY(view.grab().save(dir + "/pools-capacity-inventory.png"));

        const QString bad = test::outputDir() + "/bad-inventory.json";
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"([{"gpu": "h900", "num_gpus": 8}])");
        f.close();
        view.inventoryField()->setText(bad);
        view.startPlan();
        QVERIFY2(view.statusText().contains("/0/gpu"), qPrintable(view.statusText()));
    }

    void uniformClusterTurnsIntoPools() {
        MainWindow window(coreEstimator());
        window.setRememberRecentFiles(false);
        QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
        QVERIFY(window.waitForEstimate());
        const double uniform = window.estimate()->stepSeconds;
        PoolsEditor* pools = poolsEditor(window);
        QVERIFY(pools && pools->usePoolsButton()->isEnabled());
        pools->usePoolsButton()->click();
        QVERIFY(window.waitForEstimate());
        QVERIFY2(window.document()->resolved() && window.document()->resolved()->hetero,
                 "the scenario resolves with pools");
        // One pool of the same GPUs: the same plan, the same step (tests/tst_hetero.cpp).
        QVERIFY(std::abs(window.estimate()->stepSeconds / uniform - 1.0) < 1e-3);
        pools->addPoolButton()->click();
        QCOMPARE(pools->poolsTable()->rowCount(), 2);
        QCOMPARE(window.document()->explicitValue("/cluster/pools/1/gpu")->get<std::string>(),
                 std::string("a100-sxm-80gb"));
        QVERIFY(window.waitForEstimate());
        std::string why;
        for (const Diagnostic& d : window.document()->diagnostics().all())
            why += d.toString() + "\n";
        QVERIFY2(window.document()->resolved(), why.c_str());
        QCOMPARE(window.estimate()->hetero->unusedGpus, std::int64_t(8));
    }
};

QTEST_MAIN(TestGuiPools)
#include "tst_gui_pools.moc"
