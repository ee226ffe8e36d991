// The explanation of an estimate (core/estimate/Explain.h): the parts of the step and what
// bounds them, the link class of each parallel group, exposed and hidden communication, and
// the sensitivities, each of which must equal a full estimate of the edited scenario. On
// DeepSeek-V3 (EP 64 over 8 nodes) it says why a 4:1 oversubscribed rail-optimized network
// changes nothing: the expert all-to-all stays under one rail leaf switch; on a fat-tree it
// crosses the spine and oversubscription slows the step. Edits that do not apply (NVLink or
// NIC bandwidth on one GPU) or change nothing are left out (issue 18).

#include "TestSupport.h"

#include "calibration/CalibrationRegistry.h"
#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "estimate/Explain.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <cmath>

using namespace ts;

namespace {

struct Explained {
    ResolvedScenario scenario;
    Estimate estimate;
    Explanation explanation;
};

std::optional<Explained> explainFile(const QString& name) {
    Diagnostics diags;
    const std::string path = (test::sourceDir() + "/resources/examples/" + name).toStdString();
    auto r = resolveScenarioFile(path, Catalog::builtIn(), diags);
    if (!r)
        return std::nullopt;
    auto e = estimatePlan(*r, diags);
    if (!e)
        return std::nullopt;
    return Explained{*r, *e,
                     explainEstimate(*r, *e, Catalog::builtIn(), CalibrationRegistry::standard())};
}

const Sensitivity* knob(const Explanation& x, const std::string& name, double to) {
    for (const Sensitivity& s : x.sensitivities)
        if (s.knob == name && s.to == to)
            return &s;
    return nullptr;
}

const CommunicationPart* comm(const Explanation& x, const std::string& dim) {
    for (const CommunicationPart& c : x.communication)
        if (c.dimension == dim)
            return &c;
    return nullptr;
}

} // namespace

class TestExplain : public QObject {
    Q_OBJECT
private slots:
    void groupLinkClasses();
    void everyExampleIsExplained_data();
    void everyExampleIsExplained();
    void sensitivityIsAFullEstimate();
    void deepSeekOversubscriptionDoesNotApply();
    void fatTreeCrossesTheSpine();
    void jsonAndText();
    void oneGpuListsOnlyEditsThatApply();
};

void TestExplain::groupLinkClasses() {
    QCOMPARE(groupLinkClass(1, 1, 8), CommLink::None);
    QCOMPARE(groupLinkClass(8, 1, 8), CommLink::ScaleUp);  // TP 8 in a DGX
    QCOMPARE(groupLinkClass(2, 4, 8), CommLink::ScaleUp);  // ranks 0 and 4
    QCOMPARE(groupLinkClass(2, 8, 8), CommLink::ScaleOut); // the next node
    QCOMPARE(groupLinkClass(64, 1, 8), CommLink::ScaleOut);
    QCOMPARE(groupLinkClass(3, 1, 8), CommLink::ScaleOut); // some groups cut by the domain
    QCOMPARE(groupLinkClass(5, 1, 72), CommLink::ScaleOut);
    QCOMPARE(groupLinkClass(8, 9, 72), CommLink::ScaleUp);
}

void TestExplain::everyExampleIsExplained_data() {
    QTest::addColumn<QString>("file");
    for (const QString& path : test::exampleFiles())
        QTest::newRow(qPrintable(QFileInfo(path).fileName())) << QFileInfo(path).fileName();
}

void TestExplain::everyExampleIsExplained() {
    QFETCH(QString, file);
    const auto x = explainFile(file);
    QVERIFY(x);
    const Explanation& e = x->explanation;
    QVERIFY(!e.parts.empty());
    QCOMPARE(e.boundBy, e.parts.front().id);
    QVERIFY(e.boundShare > 0 && e.boundShare <= 1.0 + 1e-9);
    double shares = 0;
    for (const StepPart& p : e.parts) {
        QVERIFY(p.seconds > 0);
        QVERIFY(!p.resource.empty());
        shares += p.share;
    }
    QVERIFY(std::abs(shares - 1) < 1e-6); // the parts are the whole step
    // The edits are of one uniform plan (tp, pp, dp, one cluster's links): none is offered for
    // a plan over pools (core/estimate/Explain.cpp).
    QCOMPARE(e.sensitivities.empty(), x->scenario.hetero.has_value());
    // Valid edits first, by the size of their effect.
    for (std::size_t i = 1; i < e.sensitivities.size(); ++i) {
        const Sensitivity& a = e.sensitivities[i - 1];
        const Sensitivity& b = e.sensitivities[i];
        if (a.invalidReason.empty() && b.invalidReason.empty())
            QVERIFY(a.changeMagnitude() >= b.changeMagnitude());
        QVERIFY(!(!a.invalidReason.empty() && b.invalidReason.empty()));
    }
    // TP stays inside the NVLink domain in every example; DP leaves it whenever dp > 1 on
    // more than one domain.
    if (const CommunicationPart* tp = comm(e, "tp"))
        QCOMPARE(tp->link, CommLink::ScaleUp);
    if (const CommunicationPart* dp = comm(e, "dp"); dp && x->scenario.cluster.numGpus > 8)
        QCOMPARE(dp->link, CommLink::ScaleOut);
}

// The pp-halved sensitivity of Llama 3 70B is the estimate of the scenario with pp 2.
void TestExplain::sensitivityIsAFullEstimate() {
    const auto x = explainFile("llama3-70b-64xh100.json");
    QVERIFY(x);
    const Sensitivity* pp2 = knob(x->explanation, "pp", 2);
    QVERIFY(pp2);
    QVERIFY2(pp2->invalidReason.empty(), pp2->invalidReason.c_str());
    Diagnostics diags;
    const std::string path =
        (test::sourceDir() + "/resources/examples/llama3-70b-64xh100.json").toStdString();
    auto scenario = loadScenarioFile(path, diags);
    QVERIFY(scenario);
    scenario->parallelism->pp = 2;
    scenario->parallelism->dp = std::optional<std::int64_t>{};
    auto r = resolveScenario(*scenario, Catalog::builtIn(), diags);
    QVERIFY(r);
    auto e = estimatePlan(*r, diags);
    QVERIFY(e);
    QVERIFY(std::abs(*pp2->stepRatio - e->stepSeconds / x->estimate.stepSeconds) < 1e-9);
    QVERIFY(std::abs(*pp2->peakRatio - e->peakBytes / x->estimate.peakBytes) < 1e-9);
    QCOMPARE(*pp2->fits, e->fits);
    // Doubling the NVLink bandwidth cannot slow a step down.
    const Sensitivity* nvlink =
        knob(x->explanation, "scale_up_bandwidth", 2 * x->scenario.cluster.scaleUp.bandwidthGBps);
    QVERIFY(nvlink && nvlink->stepRatio);
    QVERIFY(*nvlink->stepRatio <= 1.0 + 1e-12);
}

void TestExplain::deepSeekOversubscriptionDoesNotApply() {
    const auto x = explainFile("deepseek-v3-1024xh100.json");
    QVERIFY(x);
    const CommunicationPart* ep = comm(x->explanation, "ep");
    QVERIFY(ep);
    QCOMPARE(ep->link, CommLink::ScaleOut); // EP 64 spans 8 nodes
    QVERIFY(ep->bytesPerGpu > 0);
    // Its exposed share waits on the NICs, under one rail leaf: NIC bandwidth matters, the
    // leaf's oversubscription does not.
    QVERIFY(ep->underOneLeaf);
    // 4:1 oversubscription changes neither step nor memory, so it is not listed among the
    // edits (the communication part above says why).
    QVERIFY(!knob(x->explanation, "oversubscription", 4));
    for (const Sensitivity& s : x->explanation.sensitivities)
        QVERIFY2(!s.changesNothing(x->estimate.fits), s.knob.c_str());
    const Sensitivity* slowerNics = knob(x->explanation, "scale_out_bandwidth", 200);
    QVERIFY(slowerNics && *slowerNics->stepRatio > 1.01);
}

// The same plan on a fat-tree: each leaf holds all NICs of 4 nodes, so the 8-node expert
// groups cross the spine and 4:1 oversubscription slows the step.
void TestExplain::fatTreeCrossesTheSpine() {
    Diagnostics diags;
    const std::string path =
        (test::sourceDir() + "/resources/examples/deepseek-v3-1024xh100.json").toStdString();
    auto scenario = loadScenarioFile(path, diags);
    QVERIFY(scenario);
    if (!scenario->cluster.scaleOut)
        scenario->cluster.scaleOut = ScaleOutInput{};
    scenario->cluster.scaleOut->topology = ScaleOutTopology::FatTree;
    auto r = resolveScenario(*scenario, Catalog::builtIn(), diags);
    QVERIFY(r);
    auto e = estimatePlan(*r, diags);
    QVERIFY(e);
    const Explanation x =
        explainEstimate(*r, *e, Catalog::builtIn(), CalibrationRegistry::standard());
    const CommunicationPart* ep = comm(x, "ep");
    QVERIFY(ep && !ep->underOneLeaf);
    const Sensitivity* over = knob(x, "oversubscription", 4);
    QVERIFY(over && over->stepRatio);
    QVERIFY(*over->stepRatio > 1.05);
}

void TestExplain::jsonAndText() {
    const auto x = explainFile("mixtral-8x7b-64xh100.json");
    QVERIFY(x);
    const auto j = explanationToJson(x->explanation);
    QCOMPARE(QString::fromStdString(j["bound_by"].get<std::string>()),
             QString::fromStdString(x->explanation.boundBy));
    QCOMPARE(j["step_parts"].size(), x->explanation.parts.size());
    QCOMPARE(j["sensitivity"].size(), x->explanation.sensitivities.size());
    const std::string text = explanationToText(x->explanation);
    QVERIFY(text.find("What bounds the step") != std::string::npos);
    QVERIFY(text.find("ep ") != std::string::npos);
}

// The QLoRA example on one RTX 4090: no NVLink, no network, and no degree that can grow
// with the GPU count kept. What is left is DP (more GPUs), and it changes the step.
void TestExplain::oneGpuListsOnlyEditsThatApply() {
    const auto x = explainFile("llama3.1-8b-qlora-1xrtx4090.json");
    QVERIFY(x);
    QCOMPARE(x->scenario.cluster.numGpus, std::int64_t{1});
    const Explanation& e = x->explanation;
    QVERIFY(!e.sensitivities.empty());
    for (const Sensitivity& s : e.sensitivities) {
        QVERIFY2(s.knob == "dp", s.knob.c_str());
        QVERIFY2(s.invalidReason.empty(), s.invalidReason.c_str());
        QVERIFY(!s.changesNothing(x->estimate.fits));
    }
    const std::string text = explanationToText(e);
    QVERIFY2(text.find("bandwidth") == std::string::npos, text.c_str());
    QVERIFY2(text.find("+0.0%") == std::string::npos, text.c_str());
    QVERIFY2(text.find("not a valid plan") == std::string::npos, text.c_str());
}

QTEST_APPLESS_MAIN(TestExplain)
#include "tst_explain.moc"
