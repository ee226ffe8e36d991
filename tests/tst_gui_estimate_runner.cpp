// The app's estimate runner refuses an estimate with a number that is not finite, as the CLI
// does (`trainscape-cli estimate` exits 2 with "the estimate's /time/step_s is not a finite
// number: ..."): the result carries no estimate and the same message as an error, and the main
// window shows "—" with that message in Messages instead of "inf s". A finite estimate of the
// same scenario passes untouched.

#include "TestSupport.h"

#include "DiagnosticsModel.h"
#include "EstimateCards.h"
#include "EstimateRunner.h"
#include "MainWindow.h"

#include "catalog/Catalog.h"
#include "estimate/EstimateFinite.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <limits>

using namespace ts;
using namespace ts::gui;

namespace {

const char* const kCliMessage =
    "the estimate's /time/step_s is not a finite number: the scenario's figures are beyond "
    "what the model can represent (see the accepted ranges in core/scenario/Limits.h)";

// The real estimator; `poison` makes its step time infinite, as an input past what the model
// represents would.
EstimateFunction estimator(bool poison) {
    return [poison](const ResolvedScenario& scenario, Diagnostics& diags) {
        EstimatorSettings settings = defaultEstimatorSettings(scenario);
        settings.recordTimeline = false;
        auto estimate = estimatePlan(scenario, settings, diags);
        if (estimate && poison)
            estimate->stepSeconds = std::numeric_limits<double>::infinity();
        return estimate;
    };
}

ResolvedScenario example() {
    Diagnostics diags;
    auto scenario = parseScenarioText(
        test::readAll(test::sourceDir() + "/resources/examples/llama3-8b-8xh100.json"), diags);
    if (!scenario)
        qFatal("the example does not read");
    auto resolved = resolveScenario(*scenario, Catalog::builtIn(), diags);
    if (!resolved)
        qFatal("the example does not resolve");
    return *resolved;
}

std::shared_ptr<const EstimateResult> run(bool poison) {
    EstimateRunner runner(estimator(poison));
    std::shared_ptr<const EstimateResult> delivered;
    QObject::connect(
        &runner, &EstimateRunner::finished,
        [&delivered](const std::shared_ptr<const EstimateResult>& result) { delivered = result; });
    runner.request(example());
    if (!runner.waitForIdle(60000))
        return nullptr;
    return delivered;
}

} // namespace

class TestGuiEstimateRunner : public QObject {
    Q_OBJECT
private slots:
    void finiteEstimatePasses() {
        const auto result = run(false);
        QVERIFY(result);
        QVERIFY(result->estimate);
        QVERIFY(!result->diagnostics.hasErrors());
        QVERIFY(!nonFiniteEstimateError(*result->estimate));
    }

    void nonFiniteEstimateIsRefused() {
        const auto result = run(true);
        QVERIFY(result);
        QVERIFY(!result->estimate);
        QVERIFY(result->diagnostics.hasErrors());
        QCOMPARE(result->diagnostics.errors().at(0).message, std::string(kCliMessage));
        QCOMPARE(nonFiniteEstimateMessage("/time/step_s"), std::string(kCliMessage));
    }

    void windowShowsTheRefusal() {
        MainWindow window(estimator(true));
        window.setRememberRecentFiles(false);
        QVERIFY(
            window.openScenario(test::sourceDir() + "/resources/examples/llama3-8b-8xh100.json"));
        QVERIFY(window.waitForEstimate());
        QCOMPARE(window.estimateCards()->valueText(EstimateCards::Card::StepTime),
                 QStringLiteral("—"));
        const DiagnosticsModel& messages = *window.diagnosticsModel();
        QVERIFY(messages.errorCount() >= 1);
        bool found = false;
        for (int r = 0; r < messages.rowCount(); ++r)
            found = found || messages.index(r, DiagnosticsModel::MessageColumn)
                                 .data()
                                 .toString()
                                 .contains(QString::fromUtf8(kCliMessage));
        QVERIFY2(found, "the non-finite refusal is not in Messages");
    }
};

QTEST_MAIN(TestGuiEstimateRunner)
#include "tst_gui_estimate_runner.moc"
