// The Capacity view driven offscreen: a capacity plan from the form, checked against core's
// planner run on the same request; the per-kind summary, the scaling table and its chart;
// "impossible" reasons in place; "Apply plan" as one undoable edit; Cancel. Screenshots go to
// TRAINSCAPE_TEST_OUT/screenshots.

#include "CapacityRunner.h"
#include "CapacityTableModels.h"
#include "CapacityView.h"
#include "ScenarioDocument.h"
#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "scenario/ScenarioIO.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSpinBox>
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
    QTest::qWait(20); // the headers lay their sections out on the next event loop pass
    w.grab().save(path);
    return path;
}

// What trainscape-cli capacity computes for the same request.
CapacityResult planDirectly(const ScenarioDocument& doc, double tokens, double days,
                            std::vector<std::string> gpus, std::int64_t maxGpus) {
    CapacityRequest req;
    req.tokens = tokens;
    req.deadlineDays = days;
    req.gpus = std::move(gpus);
    req.maxGpus = maxGpus;
    req.search.domain = capacityDomain();
    Diagnostics diags;
    auto r = planCapacity(doc.scenario(), Catalog::builtIn(), CalibrationRegistry::standard(), req,
                          diags);
    return r ? *r : CapacityResult{};
}

double cell(const QAbstractItemModel* m, int row, int column) {
    return m->index(row, column).data(Qt::UserRole).toDouble();
}

} // namespace

class TestGuiCapacity : public QObject {
    Q_OBJECT

private slots:
    void planShowApplyUndo() {
        ScenarioDocument doc;
        Diagnostics diags;
        QVERIFY(doc.load(example("llama3-8b-8xh100.json"), diags));
        CapacityView view(&doc);
        view.resize(1100, 1000);
        view.show();
        view.tokensBox()->setValue(1000); // 1T tokens
        view.deadlineBox()->setValue(30);
        view.maxGpusBox()->setValue(1024);
        view.setCheckedGpus({"h100-sxm-80gb", "a100-sxm-80gb"});
        QTest::mouseClick(view.planButton(), Qt::LeftButton);
        QVERIFY(!view.planButton()->isEnabled());
        QVERIFY(view.cancelButton()->isEnabled());
        QVERIFY(view.runner()->waitForFinished(240000));
        QVERIFY2(view.statusText().contains("2 of 2"), qPrintable(view.statusText()));

        // The same numbers as core's planner, kinds in the list's (the catalog's) order.
        const CapacityResult direct =
            planDirectly(doc, 1e12, 30, {"a100-sxm-80gb", "h100-sxm-80gb"}, 1024);
        const CapacitySummaryModel* summary = view.summaryModel();
        QCOMPARE(summary->rowCount(), int(direct.gpus.size()));
        for (int r = 0; r < summary->rowCount(); ++r) {
            const CapacityGpu& g = direct.gpus[std::size_t(r)];
            QVERIFY(g.fewest && g.cheapest);
            QCOMPARE(summary->index(r, CapacitySummaryModel::Gpu).data(Qt::UserRole).toString(),
                     QString::fromStdString(g.gpu));
            QCOMPARE(cell(summary, r, CapacitySummaryModel::Fewest),
                     double(g.scaling[*g.fewest].numGpus));
            QCOMPARE(cell(summary, r, CapacitySummaryModel::Cheapest),
                     double(g.scaling[*g.cheapest].numGpus));
            QCOMPARE(cell(summary, r, CapacitySummaryModel::FewestDays),
                     *g.scaling[*g.fewest].best->estimate.trainDays);
        }

        // The scaling table of the first kind: days fall as the GPUs double, the fewest row
        // is the first that meets the deadline, and it is selected.
        const CapacityScalingModel* scaling = view.scalingModel();
        const CapacityGpu& first = direct.gpus[0];
        QCOMPARE(scaling->rowCount(), int(first.scaling.size()));
        for (int r = 1; r < scaling->rowCount(); ++r) {
            QCOMPARE(cell(scaling, r, CapacityScalingModel::Gpus),
                     2 * cell(scaling, r - 1, CapacityScalingModel::Gpus));
            QVERIFY(cell(scaling, r, CapacityScalingModel::Days) <
                    cell(scaling, r - 1, CapacityScalingModel::Days));
        }
        const int fewest = int(*first.fewest);
        QCOMPARE(cell(scaling, fewest, CapacityScalingModel::Deadline), 1.0);
        if (fewest > 0)
            QCOMPARE(cell(scaling, fewest - 1, CapacityScalingModel::Deadline), 0.0);
        QCOMPARE(cell(scaling, 0, CapacityScalingModel::ScalingEfficiency), 1.0);
        QCOMPARE(view.scalingTable()->selectionModel()->currentIndex().row(), fewest);
        QVERIFY(view.applyButton()->isEnabled());

        // The chart: days of both kinds, the cost of the selected one, the deadline line.
        QCOMPARE(view.plot()->graphCount(), 3);
        QCOMPARE(view.plot()->graph(0)->dataCount(), int(first.scaling.size()));
        QCOMPARE(view.plot()->graph(1)->valueAxis(), view.plot()->yAxis2);
        QVERIFY(view.plot()->itemCount() >= 1);
        screenshot(view, "capacity-view.png");

        // The second kind: its scaling table and chart.
        view.summaryTable()->selectRow(1);
        const CapacityGpu& second = direct.gpus[1];
        QCOMPARE(scaling->gpu()->gpu, second.gpu);
        QCOMPARE(scaling->rowCount(), int(second.scaling.size()));
        QCOMPARE(view.plot()->graph(2)->name(), QString::fromStdString(second.gpu) + ": cost");
        screenshot(view, "capacity-view-second-kind.png");

        // The scenario's $3 GPU-hour is its H100's: the planner prices the H100 sizes at it,
        // the A100 sizes at the catalog's.
        QCOMPARE(second.gpu, std::string("h100-sxm-80gb"));
        const CapacityRow& applied = second.scaling[*second.fewest];
        QCOMPARE(applied.best->scenario.costs.gpuHourUsd.value_or(0), 3.0);
        const CapacityRow& other = first.scaling[*first.fewest];
        QVERIFY(other.best->scenario.costs.gpuHourUsd.value_or(3.0) != 3.0);

        // Apply the fewest size of the second kind: one undo step that keeps the price of the
        // scenario's own GPU; undo restores the file's.
        const int steps = doc.undoStack()->count();
        QTest::mouseClick(view.applyButton(), Qt::LeftButton);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QVERIFY(doc.resolved());
        QCOMPARE(doc.resolved()->cluster.numGpus, applied.numGpus);
        QCOMPARE(doc.scenario().cluster.preset.value_or(""), second.clusterPreset);
        QCOMPARE(planChoiceOf(*doc.resolved()), applied.best->plan);
        QCOMPARE(doc.scenario().training.tokens.value_or(0), 1e12);
        QVERIFY(doc.scenario().costs && doc.scenario().costs->gpuHourUsd);
        QCOMPARE(*doc.scenario().costs->gpuHourUsd, 3.0);
        QCOMPARE(*doc.resolved()->costs.gpuHourUsd, 3.0);
        doc.undoStack()->undo();
        QCOMPARE(doc.resolved()->cluster.numGpus, std::int64_t(8));
        QCOMPARE(doc.scenario().costs->gpuHourUsd.value_or(0), 3.0);

        // Applying the other kind drops the price with the GPU it was of (the A100's is the
        // catalog's, as the planner priced it); undo brings it back.
        view.summaryTable()->selectRow(0);
        QCOMPARE(scaling->gpu()->gpu, first.gpu);
        QTest::mouseClick(view.applyButton(), Qt::LeftButton);
        QCOMPARE(doc.scenario().cluster.preset.value_or(""), first.clusterPreset);
        QVERIFY(!doc.scenario().costs || !doc.scenario().costs->gpuHourUsd);
        QCOMPARE(doc.resolved()->costs.gpuHourUsd, other.best->scenario.costs.gpuHourUsd);
        doc.undoStack()->undo();
        QCOMPARE(doc.scenario().costs->gpuHourUsd.value_or(0), 3.0);
    }

    void impossibleReasonsInPlace() {
        ScenarioDocument doc;
        Diagnostics diags;
        QVERIFY(doc.load(example("llama3-8b-8xh100.json"), diags));
        CapacityView view(&doc);
        view.resize(1100, 900);
        view.show();
        view.tokensBox()->setValue(1000);
        view.deadlineBox()->setValue(0.5);
        view.maxGpusBox()->setValue(64);
        view.setCheckedGpus({"h100-sxm-80gb"});
        view.startPlan();
        QVERIFY(view.runner()->waitForFinished(240000));
        QVERIFY2(view.statusText().contains("0 of 1"), qPrintable(view.statusText()));
        const CapacitySummaryModel* summary = view.summaryModel();
        QCOMPARE(summary->rowCount(), 1);
        QVERIFY(summary->impossible(0));
        const QString reason =
            summary->index(0, CapacitySummaryModel::Fewest).data(Qt::DisplayRole).toString();
        QVERIFY2(reason.startsWith("Impossible: the deadline of 0.5 days needs"),
                 qPrintable(reason));
        // Shown across the sizes' columns, not clipped into one.
        QCOMPARE(view.summaryTable()->columnSpan(0, CapacitySummaryModel::Fewest),
                 CapacitySummaryModel::ColumnCount - CapacitySummaryModel::Fewest);
        QCOMPARE(view.scalingModel()->rowCount(), 4); // 8, 16, 32 and 64 GPUs
        screenshot(view, "capacity-view-impossible.png");

        // A budget below any plan: every size says why it has none, and nothing to apply.
        view.deadlineBox()->setValue(30);
        view.budgetCheck()->setChecked(true);
        view.budgetBox()->setValue(0.001); // $1,000
        view.startPlan();
        QVERIFY(view.runner()->waitForFinished(240000));
        QVERIFY(summary->impossible(0));
        const CapacityScalingModel* scaling = view.scalingModel();
        QVERIFY(scaling->rowCount() > 0);
        for (int r = 0; r < scaling->rowCount(); ++r)
            QCOMPARE(scaling->index(r, CapacityScalingModel::Plan).data().toString(),
                     QString("no plan within the budget"));
        view.scalingTable()->selectRow(0);
        QVERIFY(!view.applyButton()->isEnabled());
        screenshot(view, "capacity-view-budget.png");
    }

    void cancelStopsThePlan() {
        ScenarioDocument doc;
        Diagnostics diags;
        QVERIFY(doc.load(example("gpt3-175b-1024xa100.json"), diags));
        CapacityView view(&doc);
        QStringList all;
        for (const auto& [id, preset] : Catalog::builtIn().clusters())
            all << QString::fromStdString(preset.gpuId);
        view.setCheckedGpus(all);
        view.startPlan();
        QVERIFY(view.cancelButton()->isEnabled());
        QTest::mouseClick(view.cancelButton(), Qt::LeftButton);
        QVERIFY(view.runner()->waitForFinished(120000));
        QVERIFY2(view.statusText().startsWith("Cancelled"), qPrintable(view.statusText()));
        QVERIFY(view.planButton()->isEnabled());
    }

    void noGpuKindSaysSo() {
        ScenarioDocument doc;
        Diagnostics diags;
        QVERIFY(doc.load(example("llama3-8b-8xh100.json"), diags));
        CapacityView view(&doc);
        view.setCheckedGpus({});
        view.startPlan();
        QVERIFY(!view.runner()->isRunning());
        QVERIFY2(view.statusText().contains("GPU kind"), qPrintable(view.statusText()));
    }
};

QTEST_MAIN(TestGuiCapacity)
#include "tst_gui_capacity.moc"
