// Power-limited tensor throughput (core/hardware/PowerLimit.h): a GPU without a measured MAMF
// borrows the MAMF of the catalog part with the same dense peaks and scales it, and the
// attention efficiencies, by the ratio of board power limits.

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "hardware/HardwareProfile.h"
#include "hardware/PowerLimit.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <cmath>
#include <string>

using namespace ts;

namespace {

const GpuSpec& catalogGpu(const char* id) {
    const GpuEntry* entry = Catalog::builtIn().gpu(id);
    if (!entry)
        qFatal("catalog GPU %s is missing", id);
    return entry->spec;
}

bool near(double a, double b, double rel = 1e-9) {
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

} // namespace

class TestPowerLimit : public QObject {
    Q_OBJECT
private slots:
    void measuredPartsNeedNoSibling();
    void gb300BorrowsFromGb200();
    void cappedH100();
    void resolvedScenarioWarns();
};

void TestPowerLimit::measuredPartsNeedNoSibling() {
    for (const char* id : {"h100-sxm-80gb", "a100-sxm-80gb", "gb200", "b200-sxm-180gb"}) {
        QVERIFY2(!findPowerSibling(catalogGpu(id), Catalog::builtIn()), id);
        QCOMPARE(powerLimitThroughputScale(catalogGpu(id)), 1.0);
    }
    // No catalog part shares the MI250X's peaks: no sibling, the default efficiency.
    QVERIFY(!findPowerSibling(catalogGpu("mi250x"), Catalog::builtIn()));
}

void TestPowerLimit::gb300BorrowsFromGb200() {
    GpuSpec gb300 = catalogGpu("gb300");
    gb300.powerSibling = findPowerSibling(gb300, Catalog::builtIn());
    QVERIFY(gb300.powerSibling);
    QCOMPARE(QString::fromStdString(gb300.powerSibling->gpuId), QString("gb200"));
    const GpuSpec& gb200 = catalogGpu("gb200");
    const double scale = gb300.tdpW / gb200.tdpW; // 1,400 W / 1,200 W
    QVERIFY(near(powerLimitThroughputScale(gb300), std::pow(scale, kPowerExponent)));
    const HardwareProfile hw = defaultHardwareProfile(gb300);
    const HardwareProfile ref = defaultHardwareProfile(gb200);
    QVERIFY(near(hw.forDtype(MatmulDtype::Fp8).efficiency,
                 ref.forDtype(MatmulDtype::Fp8).efficiency * std::pow(scale, kPowerExponent)));
    QVERIFY(near(hw.attentionForwardEfficiency,
                 ref.attentionForwardEfficiency * std::pow(scale, kPowerExponent)));
}

void TestPowerLimit::cappedH100() {
    // torchtitan's benchmark GPU: H100 96 GB HBM2e at a 500 W power limit, same dense peaks
    // as the 700 W H100 SXM.
    GpuSpec capped = catalogGpu("h100-sxm-80gb");
    capped.name = "H100 96GB 500 W";
    capped.tdpW = 500;
    capped.hbmGBps = 2400;
    capped.mamfBf16Tflops.reset();
    capped.mamfFp8Tflops.reset();
    capped.powerSibling = findPowerSibling(capped, Catalog::builtIn());
    QVERIFY(capped.powerSibling);
    // The H200 has the same peaks; the H100's HBM bandwidth is the nearer.
    QCOMPARE(QString::fromStdString(capped.powerSibling->gpuId), QString("h100-sxm-80gb"));
    const HardwareProfile hw = defaultHardwareProfile(capped);
    const double expected = std::pow(500.0 / 700.0, kPowerExponent) * 794.5 / 989.4;
    QVERIFY2(near(hw.forDtype(MatmulDtype::Bf16).efficiency, expected, 1e-3),
             qPrintable(QString::number(hw.forDtype(MatmulDtype::Bf16).efficiency)));
    QVERIFY(hw.attentionBackwardEfficiency <
            defaultHardwareProfile(catalogGpu("h100-sxm-80gb")).attentionBackwardEfficiency);
}

void TestPowerLimit::resolvedScenarioWarns() {
    const auto estimateFor = [](const std::string& gpu) {
        const std::string text = R"({"format": "trainscape.scenario/1",
          "model": {"preset": "llama3-8b"},
          "cluster": {"gpu": )" + gpu +
                                 R"(, "num_gpus": 8, "gpus_per_node": 8,
                      "scale_up": {"domain_gpus": 8, "bandwidth_gb_s": 450}},
          "training": {"seq_len": 8192, "global_batch": 16, "micro_batch": 2},
          "parallelism": {"zero": 3}})";
        Diagnostics diags;
        std::optional<Estimate> estimate;
        if (const auto scenario = parseScenarioText(text, diags))
            if (const auto resolved = resolveScenario(*scenario, Catalog::builtIn(), diags))
                estimate = estimatePlan(*resolved, diags);
        if (!estimate)
            qWarning("%s", diags.all().empty() ? "?" : diags.all().front().toString().c_str());
        return estimate;
    };
    const auto capped = estimateFor(R"({"name": "H100 500 W", "memory_gib": 96,
        "hbm_gb_s": 2400, "bf16_tflops": 989.4, "fp8_tflops": 1978.9, "fp32_tflops": 66.9,
        "tdp_w": 500})");
    const auto full = estimateFor(R"("h100-sxm-80gb")");
    QVERIFY(capped && full);
    bool warned = false;
    for (const Message& w : capped->warnings)
        warned = warned || w.english.find("borrowed from h100-sxm-80gb") != std::string::npos;
    QVERIFY(warned);
    for (const Message& w : full->warnings)
        QVERIFY(w.english.find("borrowed") == std::string::npos);
    // Tensor-core work slows by the power ratio; elementwise work (HBM-bound) does not.
    const double ratio = capped->time.compute / full->time.compute;
    QVERIFY2(ratio > 1.2 && ratio < std::pow(700.0 / 500.0, kPowerExponent) + 1e-9,
             qPrintable(QString::number(ratio)));
}

QTEST_GUILESS_MAIN(TestPowerLimit)
#include "tst_power_limit.moc"
