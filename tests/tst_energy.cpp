// Energy, cost and CO2 (issue 7): the arithmetic on hand-built estimates (energy is power
// integrated over time, cost is hours x price, PUE and idle power are applied once), the
// hourly grid window, the scenario keys, and plausibility against published figures: no
// DGX H100 node above its rated 10.2 kW, and the Llama 3 405B pretraining's GPU-hours.

#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "energy/EnergyEstimate.h"
#include "energy/GridWindow.h"
#include "energy/PowerModel.h"
#include "energy/TrainingCost.h"
#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "scenario/CostResolver.h"
#include "scenario/GridCsv.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <cmath>
#include <string>
#include <vector>

using namespace ts;

namespace {

// One DGX H100 (8 GPUs), TDP 700 W, idle 70 W; the default fractions give 637 / 448 / 322 /
// 70 W by phase.
ClusterPower dgxH100Power(int stages = 1) {
    ClusterPower p;
    p.gpuTdpW = 700;
    p.gpuIdleW = 70;
    p.fractions = {0.9, 0.6, 0.4};
    p.numGpus = 8;
    p.gpusPerNode = 8;
    p.pipelineStages = stages;
    p.hostWPerNode = 2760;
    p.networkW = 0;
    p.pue = 1.3;
    return p;
}

// A 9 s step of one stage: 6 s compute (1 s of it elementwise), 1 s exposed TP, 2 s bubble;
// the timeline holds a forward [0, 3] and a backward [3, 7].
Estimate oneStageEstimate() {
    Estimate e;
    e.stepSeconds = 9;
    e.time.compute = 6;
    e.memoryBoundComputeSeconds = 1;
    e.time.tpExposed = 1;
    e.time.pipelineBubble = 2;
    e.stageTimes = {{0, 3, 4, 7, 7}};
    e.microbatches = 1;
    e.timelineMicrobatches = 1;
    e.timeline = {{0, 0, 0, TimelineOp::Forward, 0, 3}, {0, 0, 0, TimelineOp::Backward, 3, 7}};
    e.tokensPerS = 1000;
    return e;
}

std::optional<ResolvedScenario> resolveText(const std::string& text, Diagnostics& diags) {
    auto scenario = parseScenarioText(text, diags);
    if (!scenario)
        return std::nullopt;
    return resolveScenario(*scenario, Catalog::builtIn(), diags);
}

std::optional<ResolvedScenario> resolveExample(const QString& file) {
    Diagnostics diags;
    auto r = resolveScenarioFile(file.toStdString(), Catalog::builtIn(), diags);
    if (!r)
        qWarning("%s", diags.all().empty() ? "?" : diags.all().front().toString().c_str());
    return r;
}

bool containsText(const std::vector<std::string>& lines, const std::string& part) {
    for (const std::string& l : lines)
        if (l.find(part) != std::string::npos)
            return true;
    return false;
}

bool containsText(const std::vector<Message>& messages, const std::string& part) {
    for (const Message& m : messages)
        if (m.english.find(part) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestEnergy : public QObject {
    Q_OBJECT
private slots:
    void phaseSecondsFollowTheBreakdown();
    void energyIsPowerIntegratedOverTime();
    void traceIntegratesToStepEnergyOverStages();
    void pueAndIdlePowerAppliedOnce();
    void costIsHoursTimesPrice();
    void ownedCostAmortizesCapital();
    void gridWindowFindsTheLowHours();
    void gridCsvIsReadWithLineNumbers();
    void carbonCsvBesideTheScenario();
    void costKeysRoundTrip();
    void defaultsAreNamedInWarnings();
    void networkFromOpticsOrGiven();
    void everyDenseExampleReportsEnergy_data();
    void everyDenseExampleReportsEnergy();
    void dgxH100NodeStaysUnderItsRating();
    void llama3_405bGpuHoursNearPublished();
};

void TestEnergy::phaseSecondsFollowTheBreakdown() {
    const auto phases = stagePhaseSeconds(oneStageEstimate());
    QCOMPARE(phases.size(), std::size_t{1});
    QCOMPARE(phases[0].computeBound, 5.0);
    QCOMPARE(phases[0].memoryBound, 1.0);
    QCOMPARE(phases[0].communicating, 1.0);
    QCOMPARE(phases[0].idle, 2.0);
    QCOMPARE(phases[0].total(), 9.0);
}

void TestEnergy::energyIsPowerIntegratedOverTime() {
    const ClusterPower power = dgxH100Power();
    const PhaseWatts w = power.gpuWatts();
    QCOMPARE(w.computeBound, 637.0);
    QCOMPARE(w.memoryBound, 448.0);
    QCOMPARE(w.communicating, 322.0);
    QCOMPARE(w.idle, 70.0);
    const Estimate e = oneStageEstimate();
    const auto phases = stagePhaseSeconds(e);
    const EnergyBreakdown b = stepEnergy(power, phases, e.stepSeconds);
    // Per GPU: 5 x 637 + 1 x 448 + 1 x 322 + 2 x 70 = 4095 J.
    QCOMPARE(b.gpus, 8 * 4095.0);
    QCOMPARE(b.hosts, 2760.0 * 9);
    QCOMPARE(b.network, 0.0);
    QVERIFY(std::abs(b.cooling - 0.3 * (8 * 4095.0 + 2760.0 * 9)) < 1e-6);
    // The power trace of the same step integrates to the same energy.
    const PowerTrace trace = stepPowerTrace(power, phases, e);
    QVERIFY(trace.coversStep);
    QCOMPARE(trace.endS, 9.0);
    QVERIFY(std::abs(integrateTrace(trace.samples, trace.endS) - b.total()) < 1e-6 * b.total());
    // Active from 0 to 7 s, idle (GPUs at 70 W, hosts on) after.
    QCOMPARE(trace.samples.back().timeS, 7.0);
    QVERIFY(std::abs(trace.samples.back().watts - (8 * 70.0 + 2760) * 1.3) < 1e-9);
}

void TestEnergy::traceIntegratesToStepEnergyOverStages() {
    // Two stages, one micro-batch: stage 0 runs F [0, 1] and B [5, 7] and decides the 7 s
    // step; stage 1 runs F [1, 3] and B [3, 5].
    Estimate e;
    e.stepSeconds = 7;
    e.time.compute = 3;
    e.time.pipelineBubble = 4;
    e.stageTimes = {{0, 1, 2, 3, 7}, {1, 2, 2, 4, 5}};
    e.microbatches = e.timelineMicrobatches = 1;
    e.timeline = {{0, 0, 0, TimelineOp::Forward, 0, 1},
                  {1, 0, 0, TimelineOp::Forward, 1, 3},
                  {1, 0, 0, TimelineOp::Backward, 3, 5},
                  {0, 0, 0, TimelineOp::Backward, 5, 7}};
    ClusterPower power = dgxH100Power(2);
    power.networkW = 100;
    const auto phases = stagePhaseSeconds(e);
    QCOMPARE(phases[0].computeBound, 3.0);
    QCOMPARE(phases[0].idle, 4.0);
    QCOMPARE(phases[1].computeBound, 4.0); // its busy time, 4/3 of the deciding stage's
    QCOMPARE(phases[1].idle, 3.0);
    const EnergyBreakdown b = stepEnergy(power, phases, e.stepSeconds);
    QCOMPARE(b.network, 700.0);
    QCOMPARE(b.gpus, 4 * (7 * 637.0 + 7 * 70.0)); // 4 GPUs per stage
    const PowerTrace trace = stepPowerTrace(power, phases, e);
    QVERIFY(trace.coversStep);
    QVERIFY(std::abs(integrateTrace(trace.samples, trace.endS) - b.total()) < 1e-9 * b.total());
    // Every sample lies between all-idle and all-TDP.
    const double floor = (8 * 70.0 + 2760 + 100) * 1.3;
    const double ceiling = (8 * 700.0 + 2760 + 100) * 1.3;
    for (const PowerSample& s : trace.samples)
        QVERIFY(s.watts >= floor - 1e-6 && s.watts <= ceiling + 1e-6);
}

void TestEnergy::pueAndIdlePowerAppliedOnce() {
    // A step with no work at all: GPUs at idle power only, once.
    Estimate idle;
    idle.stepSeconds = 10;
    idle.time.pipelineBubble = 10;
    idle.stageTimes = {{0, 0, 0, 0, 0}};
    ClusterPower power = dgxH100Power();
    power.pue = 1.0;
    const auto phases = stagePhaseSeconds(idle);
    const EnergyBreakdown atOne = stepEnergy(power, phases, idle.stepSeconds);
    QCOMPARE(atOne.gpus, 8 * 70.0 * 10);
    QCOMPARE(atOne.cooling, 0.0);
    power.pue = 1.5;
    const EnergyBreakdown atOneHalf = stepEnergy(power, phases, idle.stepSeconds);
    QCOMPARE(atOneHalf.it(), atOne.it());
    QCOMPARE(atOneHalf.total(), 1.5 * atOne.total());
    // Raising idle power by 10 W raises the energy by exactly 8 GPUs x 10 W x 10 s x PUE.
    power.gpuIdleW = 80;
    const EnergyBreakdown higherIdle = stepEnergy(power, stagePhaseSeconds(idle), 10);
    QVERIFY(std::abs(higherIdle.total() - atOneHalf.total() - 8 * 10.0 * 10 * 1.5) < 1e-9);
}

void TestEnergy::costIsHoursTimesPrice() {
    Diagnostics diags;
    const auto sc = resolveText(R"({"format": "trainscape.scenario/1",
        "model": {"preset": "llama3-8b"}, "cluster": {"preset": "dgx-h100", "num_gpus": 8},
        "training": {"seq_len": 8192, "global_batch": 128, "tokens": 1e12},
        "costs": {"gpu_hour_usd": 2.5, "electricity_usd_kwh": 0.1, "pue": 1.2,
                  "grid_gco2_kwh": 400}})",
                                diags);
    QVERIFY(sc);
    const auto e = estimatePlan(*sc, diags);
    QVERIFY(e && e->trainSteps && e->trainUsd && e->trainKwh && e->trainCo2Kg);
    const double hours = *e->trainSteps * e->stepSeconds / 3600.0;
    QVERIFY(std::abs(*e->trainUsd - hours * 8 * 2.5) < 1e-9 * *e->trainUsd);
    QVERIFY(std::abs(*e->usdPerMillionTokens - 8 * 2.5 / 3600.0 / e->tokensPerS * 1e6) < 1e-9);
    // kWh = joules per step x steps; CO2 = kWh x intensity.
    QVERIFY(std::abs(*e->trainKwh - *e->stepJoules * *e->trainSteps / 3.6e6) < 1e-9 * *e->trainKwh);
    QVERIFY(std::abs(*e->trainCo2Kg - *e->trainKwh * 0.4) < 1e-9 * *e->trainCo2Kg);
    QVERIFY(std::abs(*e->avgPowerW * e->stepSeconds - *e->stepJoules) < 1e-9 * *e->stepJoules);
    QVERIFY(e->energyReport);
    QVERIFY(std::abs(*e->energyReport->trainElectricityUsd - *e->trainKwh * 0.1) < 1e-6);
    QCOMPARE(e->energyReport->pue, 1.2);
}

void TestEnergy::ownedCostAmortizesCapital() {
    HourlyCostInput in;
    in.ownership = Ownership::Owned;
    in.numGpus = 1024;
    in.nodes = 128;
    in.facilityKw = 1000;
    in.electricityUsdPerKwh = 0.08;
    in.amortizationYears = 4;
    in.nodeCapexUsd = 300'000;
    in.networkCapexUsd = 5'000'000;
    const HourlyCost c = hourlyCost(in);
    QVERIFY(c.usdPerHour);
    const double expected = (128 * 300'000.0 + 5'000'000.0) / (4 * 8760.0) + 1000 * 0.08;
    QVERIFY(std::abs(*c.usdPerHour - expected) < 1e-9);
    in.nodeCapexUsd.reset();
    QCOMPARE(hourlyCost(in).missing, std::string("node_capex_usd"));
    in.ownership = Ownership::Cloud;
    QCOMPARE(hourlyCost(in).missing, std::string("gpu_hour_usd"));
    QCOMPARE(usdPerMillionTokens(3600.0, 1e6), 1.0);
}

void TestEnergy::gridWindowFindsTheLowHours() {
    std::vector<GridHour> hours;
    for (int h = 0; h < 24; ++h) {
        std::string label = "h";
        label += std::to_string(h); // (GCC 12 warns, wrongly, on "h" + std::to_string(h))
        hours.push_back({label, h >= 10 && h < 13 ? 50.0 : 400.0, h == 2 ? 0.01 : 0.10});
    }
    // 3 hours at 1,000 kW.
    const auto w = bestGridWindow(hours, 3.0, 1000.0);
    QVERIFY(w);
    QCOMPARE(w->firstStart, std::string("h0"));
    QCOMPARE(w->firstCo2Kg, 3 * 1000 * 400 / 1000.0);
    QCOMPARE(w->lowestCo2Start, std::string("h10"));
    QCOMPARE(w->lowestCo2Kg, 3 * 1000 * 50 / 1000.0);
    QCOMPARE(w->lowestPriceStart, std::string("h0")); // covers h2, the cheap hour
    QVERIFY(std::abs(*w->firstElectricityUsd - 1000 * (0.1 + 0.1 + 0.01)) < 1e-9);
    QVERIFY(!w->wrapped);
    // A partial last hour, and a run longer than the series (which repeats it).
    const GridRun half = gridRun(hours, 10, 2.5, 1000.0);
    QVERIFY(std::abs(half.co2Kg - (50 + 50 + 0.5 * 50)) < 1e-9);
    const auto longRun = bestGridWindow(hours, 48.0, 1.0);
    QVERIFY(longRun->wrapped);
    QVERIFY(std::abs(longRun->firstCo2Kg - 2 * (21 * 400 + 3 * 50) / 1000.0) < 1e-12);
}

void TestEnergy::gridCsvIsReadWithLineNumbers() {
    Diagnostics diags;
    auto hours = parseGridCsv("# ERCOT, June\nhour,gco2_kwh,usd_kwh\n2024-06-01T00Z,410,0.07\n\n"
                              "2024-06-01T01Z,395.5,0.065\n",
                              "/costs/carbon_csv", diags);
    QVERIFY(hours);
    QCOMPARE(hours->size(), std::size_t{2});
    QCOMPARE((*hours)[1].gco2PerKwh, 395.5);
    QCOMPARE(*(*hours)[1].usdPerKwh, 0.065);
    Diagnostics bad;
    QVERIFY(!parseGridCsv("hour,co2\n0,1\n", "/costs/carbon_csv", bad));
    QVERIFY(bad.hasErrorAt("/costs/carbon_csv"));
    Diagnostics badNumber;
    QVERIFY(!parseGridCsv("hour,gco2_kwh\n0,12\n1,abc\n", "/costs/carbon_csv", badNumber));
    QVERIFY(containsText({badNumber.all().front().message}, "line 3"));
}

void TestEnergy::carbonCsvBesideTheScenario() {
    // A day of hourly intensity, low from 11:00 to 15:00 (a solar surplus), repeated by the
    // run; the scenario names the file relative to itself.
    const QString dir = test::outputDir() + "/energy-carbon";
    QDir().mkpath(dir);
    QFile csv(dir + "/grid.csv");
    QVERIFY(csv.open(QIODevice::WriteOnly | QIODevice::Truncate));
    csv.write("hour,gco2_kwh,usd_kwh\n");
    for (int h = 0; h < 24; ++h)
        csv.write(QString("T%1,%2,%3\n")
                      .arg(h)
                      .arg(h >= 11 && h < 15 ? 80 : 420)
                      .arg(h >= 11 && h < 15 ? 0.02 : 0.09)
                      .toUtf8());
    csv.close();
    QFile scenario(dir + "/scenario.json");
    QVERIFY(scenario.open(QIODevice::WriteOnly | QIODevice::Truncate));
    scenario.write(R"({"format": "trainscape.scenario/1",
        "model": {"preset": "llama3-8b"}, "cluster": {"preset": "dgx-h100", "num_gpus": 8},
        "training": {"seq_len": 8192, "global_batch": 128, "tokens": 2e9},
        "costs": {"gpu_hour_usd": 3, "pue": 1.2, "carbon_csv": "grid.csv"}})");
    scenario.close();
    Diagnostics diags;
    const auto sc =
        resolveScenarioFile((dir + "/scenario.json").toStdString(), Catalog::builtIn(), diags);
    QVERIFY2(sc, diags.all().empty() ? "" : diags.all().front().toString().c_str());
    QCOMPARE(sc->costs.gridHours.size(), std::size_t{24});
    QVERIFY(!sc->costs.gridGco2PerKwh); // the series stands in for the constant
    const auto e = estimatePlan(*sc, diags);
    QVERIFY(e && e->energyReport && e->energyReport->window && e->trainCo2Kg);
    const GridWindow& w = *e->energyReport->window;
    qInfo("run of %d h: start T0 %.1f kg CO2, best start %s %.1f kg", w.runHours, w.firstCo2Kg,
          w.lowestCo2Start.c_str(), w.lowestCo2Kg);
    QVERIFY(w.runHours < 24);
    QCOMPARE(*e->trainCo2Kg, w.firstCo2Kg);
    QVERIFY(w.lowestCo2Kg < w.firstCo2Kg);
    QCOMPARE(w.lowestCo2Start, std::string(w.runHours <= 4 ? "T11" : w.lowestCo2Start));
    QVERIFY(w.lowestElectricityUsd && *w.lowestElectricityUsd < *w.firstElectricityUsd);
    // A missing file is an error at the key.
    Diagnostics missing;
    auto bad = parseScenarioText(R"({"format": "trainscape.scenario/1",
        "model": {"preset": "llama3-8b"}, "cluster": {"preset": "dgx-h100", "num_gpus": 8},
        "training": {"seq_len": 8192, "global_batch": 128},
        "costs": {"carbon_csv": "/nonexistent/grid.csv"}})",
                                 missing);
    QVERIFY(bad);
    QVERIFY(!resolveScenario(*bad, Catalog::builtIn(), missing));
    QVERIFY(missing.hasErrorAt("/costs/carbon_csv"));
}

void TestEnergy::costKeysRoundTrip() {
    const char* text = R"({"format": "trainscape.scenario/1",
        "model": {"preset": "llama3-8b"}, "cluster": {"preset": "dgx-h100", "num_gpus": 16},
        "training": {"seq_len": 8192, "global_batch": 128},
        "costs": {"ownership": "owned", "amortization_years": 5, "node_capex_usd": 250000,
                  "network_capex_usd": 400000, "gpu_idle_w": 75, "gpu_compute_fraction": 0.85,
                  "gpu_memory_fraction": 0.5, "gpu_comm_fraction": 0.3,
                  "host_w_per_node": 2500, "network_w": 1200, "electricity_usd_kwh": 0.07}})";
    Diagnostics diags;
    auto s = parseScenarioText(text, diags);
    QVERIFY2(s, diags.all().empty() ? "" : diags.all().front().toString().c_str());
    auto again = parseScenarioText(scenarioToText(*s), diags);
    QVERIFY(again);
    QVERIFY(*again == *s);
    QCOMPARE(*s->costs->ownership, Ownership::Owned);
    auto r = resolveScenario(*s, Catalog::builtIn(), diags);
    QVERIFY(r);
    QCOMPARE(*r->costs.hostWPerNode, 2500.0);
    QCOMPARE(r->costs.gpuPower.computeBound, 0.85);
    auto e = estimatePlan(*r, diags);
    QVERIFY(e && e->usdPerMillionTokens && e->energyReport);
    QCOMPARE(e->energyReport->gpuWatts.idle, 75.0);
    QCOMPARE(e->energyReport->networkW, 1200.0);
    QCOMPARE(e->energyReport->ownership, std::string("owned"));
    // A typo and a wrong value are refused with their paths.
    Diagnostics typo;
    QVERIFY(!parseScenarioText(R"({"format": "trainscape.scenario/1", "model": {"preset":
        "llama3-8b"}, "cluster": {"preset": "dgx-h100", "num_gpus": 8}, "training":
        {"seq_len": 8192, "global_batch": 128}, "costs": {"ownership": "rented",
        "gpu_compute_fraction": 1.5}})",
                               typo));
    QVERIFY(typo.hasErrorAt("/costs/ownership"));
    QVERIFY(typo.hasErrorAt("/costs/gpu_compute_fraction"));
}

void TestEnergy::defaultsAreNamedInWarnings() {
    Diagnostics diags;
    const auto sc = resolveText(R"({"format": "trainscape.scenario/1",
        "model": {"preset": "llama3-8b"}, "cluster": {"preset": "dgx-h100", "num_gpus": 16},
        "training": {"seq_len": 8192, "global_batch": 128}})",
                                diags);
    QVERIFY(sc);
    const auto e = estimatePlan(*sc, diags);
    QVERIFY(e);
    for (const char* part : {"PUE assumed 1.3", "[uptime_new]", "367 gCO2/kWh", "[eia_co2]",
                             "GPU-hour price assumed $4.916", "[aws_cb]", "GPU idle power assumed",
                             "GPU power by phase assumed", "host power assumed", "[dgxh100_power]",
                             "network power assumed"})
        QVERIFY2(containsText(e->warnings, part), part);
    QVERIFY(e->usdPerMillionTokens && e->stepJoules && e->avgPowerW);
    // No tokens: no training totals.
    QVERIFY(!e->trainKwh && !e->trainUsd && !e->trainCo2Kg);
}

void TestEnergy::networkFromOpticsOrGiven() {
    QCOMPARE(fatTreeTiers(64, 64), 1);
    QCOMPARE(fatTreeTiers(2048, 64), 2);
    QCOMPARE(fatTreeTiers(2049, 64), 3);
    ClusterConfig cluster;
    cluster.gpuId = "h100-sxm-80gb";
    cluster.gpu.tdpW = 700;
    cluster.gpu.name = "H100";
    cluster.numGpus = 2048;
    cluster.gpusPerNode = 8;
    cluster.scaleOut.nicsPerNode = 8;
    cluster.scaleOut.switchRadix = 64;
    Diagnostics diags;
    // 2048 NIC ports, two tiers: 2048 x (1 + 2) switch ports at 8.5 W.
    const CostConfig c = resolveCosts(std::nullopt, cluster, Catalog::builtIn(), diags);
    QCOMPARE(*c.networkW, 2048 * 3 * 8.5);
    CostInput given;
    given.networkW = 90'000;
    QCOMPARE(*resolveCosts(given, cluster, Catalog::builtIn(), diags).networkW, 90'000.0);
    cluster.numGpus = 8; // one node: no scale-out fabric
    QCOMPARE(*resolveCosts(std::nullopt, cluster, Catalog::builtIn(), diags).networkW, 0.0);
}

void TestEnergy::everyDenseExampleReportsEnergy_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : test::exampleFiles())
        QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
}

void TestEnergy::everyDenseExampleReportsEnergy() {
    QFETCH(QString, file);
    const auto sc = resolveExample(file);
    QVERIFY(sc);
    Diagnostics diags;
    const auto e = estimatePlan(*sc, diags);
    if (!e)
        QSKIP("outside the estimator's scope (MoE/MLA, issue 5)");
    QVERIFY(e->stepJoules && e->avgPowerW && e->usdPerMillionTokens && e->energyReport);
    const EnergyReport& r = *e->energyReport;
    QVERIFY(r.stepJoules.gpus > 0 && r.stepJoules.hosts > 0 && r.stepJoules.cooling > 0);
    QVERIFY(sc->cluster.numGpus <= sc->cluster.gpusPerNode || r.stepJoules.network > 0);
    QVERIFY(!r.powerTrace.empty());
    QVERIFY(r.stepCo2Kg && *r.stepCo2Kg > 0);
    const auto json = estimateToJson(*e);
    const bool tokens = sc->training.tokens.has_value();
    for (const char* section : {"energy", "cost", "train"})
        for (const auto& [key, value] : json[section].items())
            if (tokens || (std::string(section) != "train" && key.rfind("train", 0) != 0))
                QVERIFY2(!value.is_null() || key == "node_max_w",
                         (std::string(section) + "." + key + " is null").c_str());
    if (tokens)
        QVERIFY(e->trainKwh && e->trainCo2Kg && e->trainUsd && e->trainSteps && e->trainDays);
}

void TestEnergy::dgxH100NodeStaysUnderItsRating() {
    int checked = 0;
    for (const QString& f : test::exampleFiles()) {
        const auto sc = resolveExample(f);
        if (!sc || sc->cluster.gpuId != "h100-sxm-80gb" || sc->cluster.gpusPerNode != 8)
            continue;
        Diagnostics diags;
        const auto e = estimatePlan(*sc, diags);
        if (!e)
            continue;
        const EnergyReport& r = *e->energyReport;
        // Rated maximum (DGX H100 user guide, via catalog.md B4), and the 8.4 kW measured
        // on an 8 x H100 node in training (Latif et al. 2024).
        QCOMPARE(r.nodeMaxW, 10200.0);
        QVERIFY2(r.peakNodeW <= 10200.0, qPrintable(f));
        QVERIFY2(r.peakNodeW <= 8400.0, qPrintable(f));
        // Average IT power per node: between idle and the peak.
        const double nodes = double(sc->cluster.numGpus) / 8;
        const double nodeAvgW = (r.stepJoules.gpus + r.stepJoules.hosts) / e->stepSeconds / nodes;
        QVERIFY2(nodeAvgW > 8 * r.gpuWatts.idle + r.hostWPerNode && nodeAvgW <= r.peakNodeW,
                 qPrintable(f));
        qInfo("%s: node peak %.2f kW, average %.2f kW (IT, GPUs + host)",
              qPrintable(QFileInfo(f).fileName()), r.peakNodeW / 1e3, nodeAvgW / 1e3);
        ++checked;
    }
    QVERIFY(checked >= 3);
}

void TestEnergy::llama3_405bGpuHoursNearPublished() {
    // Published: 30.84M H100 GPU-hours for Llama 3.1 405B (Meta's model card,
    // github.com/meta-llama/llama-models, models/llama3_1/MODEL_CARD.md), pretrained on about
    // 15.6T tokens (Llama 3 paper, arXiv:2407.21783, sec. 3). The published figure includes
    // what an estimate of steady training does not: restarts after failures, long-context and
    // annealing stages at other shapes, evaluation.
    auto sc =
        resolveExample(test::sourceDir() + "/resources/examples/llama3.1-405b-2048xh100.json");
    QVERIFY(sc);
    sc->training.tokens = 15.6e12;
    Diagnostics diags;
    const auto e = estimatePlan(*sc, diags);
    QVERIFY(e && e->energyReport && e->energyReport->trainGpuHours);
    const double gpuHours = *e->energyReport->trainGpuHours;
    const double published = 30.84e6;
    qInfo("Llama 3.1 405B: %.2fM GPU-hours estimated vs %.2fM published (%.0f%%), MFU %.1f%%, "
          "%.0f MWh, %.0f t CO2",
          gpuHours / 1e6, published / 1e6, 100 * gpuHours / published, 100 * e->mfu,
          *e->trainKwh / 1e3, *e->trainCo2Kg / 1e3);
    QVERIFY(gpuHours > 0.6 * published && gpuHours < 1.25 * published);
}

QTEST_GUILESS_MAIN(TestEnergy)
#include "tst_energy.moc"
