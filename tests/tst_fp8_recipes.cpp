// FP8 scaling recipes (training.fp8_recipe; core/estimate/PrecisionMemory.h): the HBM bytes
// and kernels of the casts of one transformer layer's GEMM inputs per recipe against hand
// formulas, the block scales of the cached weight copies, "delayed" as the bitwise-equal
// default, the recipe named in the warnings, and the time breakdown summing to the step.

#include "EstimateChecks.h"
#include "EstimatorFixtures.h"
#include "TestSupport.h"
#include "catalog/Catalog.h"
#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "estimate/LayerCost.h"
#include "estimate/PrecisionMemory.h"
#include "hardware/BlockScaledGemm.h"
#include "hardware/HardwareProfile.h"
#include "model/TransformerArithmetic.h"
#include "parallel/CollectiveCost.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <cmath>
#include <string>

using namespace ts;

namespace {

using test::estimateOrFail;
using test::hasWarning;

// Llama 3 8B on one 8-GPU H100 node: tp 1, pp 1, dp 8, micro-batches of 4096 tokens.
ResolvedScenario node8(Precision precision, Fp8Recipe recipe) {
    ResolvedScenario sc =
        test::h100Scenario("fp8", test::llama3_8b(), {.gpus = 8, .globalBatch = 64});
    sc.training.precision = precision;
    sc.training.fp8Recipe = recipe;
    return sc;
}

// The bundled Llama 3 8B example with a training patch, through reader, resolver, estimator.
// The bundled Llama 3 8B example on `preset` (8 GPUs) with a training patch, resolved.
std::optional<ResolvedScenario> resolveExample(const nlohmann::ordered_json& training,
                                               const char* preset = "dgx-h100") {
    const std::string text =
        test::readAll(test::sourceDir() + "/resources/examples/llama3-8b-8xh100.json");
    auto doc = nlohmann::ordered_json::parse(text);
    for (const auto& [key, value] : training.items())
        doc["training"][key] = value;
    doc["cluster"] = {{"preset", preset}, {"num_gpus", 8}};
    Diagnostics diags;
    const auto scenario = scenarioFromJson(doc, diags);
    if (!scenario)
        return std::nullopt;
    return resolveScenario(*scenario, Catalog::builtIn(), diags);
}

std::optional<Estimate> estimateExample(const nlohmann::ordered_json& training,
                                        const char* preset = "dgx-h100") {
    const auto resolved = resolveExample(training, preset);
    if (!resolved)
        return std::nullopt;
    Diagnostics diags;
    return estimatePlan(*resolved, diags);
}

// One layer's cost with memory-bound time equal to bytes / 1e12 (1 TB/s, no kernel gap), or,
// with `kernelsOnly`, to 1 us per kernel and no bandwidth term.
LayerCost layerCost(const ResolvedScenario& sc, bool kernelsOnly) {
    HardwareProfile hw = defaultHardwareProfile(sc.cluster.gpu);
    hw.hbmGBps = kernelsOnly ? 1e15 : 1000.0;
    hw.hbmEfficiency = 1.0;
    hw.kernelOverheadUs = kernelsOnly ? 1.0 : 0.0;
    const AlphaBetaCollectiveCost collectives(sc.cluster);
    return transformerLayerCost(CostContext{sc, hw, collectives});
}

const char* recipeName(Fp8Recipe r) {
    return enumName(r).data();
}

} // namespace

class TestFp8Recipes : public QObject {
    Q_OBJECT
private slots:
    void castBytesPerRecipe_data();
    void castBytesPerRecipe();
    void castKernelsPerRecipe_data();
    void castKernelsPerRecipe();
    void blockwiseScaleMemory();
    void delayedIsTheBitwiseDefault();
    void recipesOrderStepTime();
    void warningsNameTheRecipe_data();
    void warningsNameTheRecipe();
    void breakdownSumsToStep_data();
    void breakdownSumsToStep();
    void nvfp4CastsTwoLevel();
    void blockScaledGemmEfficiency_data();
    void blockScaledGemmEfficiency();
    void blockScaledSlowerThanPerTensor();
};

void TestFp8Recipes::castBytesPerRecipe_data() {
    QTest::addColumn<int>("recipe");
    QTest::addColumn<double>("activationBytes"); // per element of an activation or gradient
    QTest::addColumn<double>("weightBytes");     // per weight element
    // Read 2 bytes, write the row-wise and the transposed FP8 copy (1 + 1).
    QTest::newRow("delayed") << int(Fp8Recipe::Delayed) << 4.0 << 4.0;
    // Current scaling reads the 16-bit input once more for its amax.
    QTest::newRow("tensorwise") << int(Fp8Recipe::Tensorwise) << 6.0 << 6.0;
    // One FP32 scale per 1x128 tile of each copy; per 128x128 block for weights.
    QTest::newRow("blockwise") << int(Fp8Recipe::Blockwise) << 2.0 + 2.0 * (1.0 + 4.0 / 128.0)
                               << 2.0 + 2.0 * (1.0 + 4.0 / (128.0 * 128.0));
}

void TestFp8Recipes::castBytesPerRecipe() {
    QFETCH(int, recipe);
    QFETCH(double, activationBytes);
    QFETCH(double, weightBytes);
    const auto r = static_cast<Fp8Recipe>(recipe);
    const ResolvedScenario sc = node8(Precision::Fp8, r);
    QCOMPARE(fp8CastBytesPerElement(sc.training, CastOperand::Activation), activationBytes);
    QCOMPARE(fp8CastBytesPerElement(sc.training, CastOperand::Weight), weightBytes);

    // Llama 3 8B, tp = 1, 4096 tokens: the layer's memory-bound bytes beyond BF16's are the
    // casts. Forward: the inputs of QKV and MLP up (h each), of the output projection (q)
    // and of MLP down (ffn), plus the weights; backward: the output gradients of QKV
    // (q + 2 kv), of MLP up (2 ffn), of the output projection and MLP down (h each).
    const double h = 4096, q = 4096, kv = 1024, ffn = 14336, tokens = 4096;
    const double inputs = 2 * h + q + ffn;
    const double gradInputs = q + 2 * kv + 2 * ffn + 2 * h;
    const double weights = h * (q + 2 * kv) + q * h + 3 * ffn * h;
    const LayerCost fp8 = layerCost(sc, false);
    const LayerCost bf16 = layerCost(node8(Precision::Bf16, Fp8Recipe::Delayed), false);
    const double fwdBytes = (fp8.forward.elementwise - bf16.forward.elementwise) * 1e12;
    const double bwdBytes = (fp8.backward.elementwise - bf16.backward.elementwise) * 1e12;
    const double wantFwd = activationBytes * inputs * tokens + weightBytes * weights;
    const double wantBwd = activationBytes * gradInputs * tokens;
    QVERIFY2(std::abs(fwdBytes - wantFwd) <= 1e-9 * wantFwd,
             qPrintable(QString("forward cast bytes %1, hand %2").arg(fwdBytes).arg(wantFwd)));
    QVERIFY2(std::abs(bwdBytes - wantBwd) <= 1e-9 * wantBwd,
             qPrintable(QString("backward cast bytes %1, hand %2").arg(bwdBytes).arg(wantBwd)));
}

void TestFp8Recipes::castKernelsPerRecipe_data() {
    QTest::addColumn<int>("recipe");
    QTest::addColumn<int>("passes");
    QTest::newRow("delayed") << int(Fp8Recipe::Delayed) << 1;
    QTest::newRow("tensorwise") << int(Fp8Recipe::Tensorwise) << 2; // amax, then cast
    QTest::newRow("blockwise") << int(Fp8Recipe::Blockwise) << 1;
}

void TestFp8Recipes::castKernelsPerRecipe() {
    QFETCH(int, recipe);
    QFETCH(int, passes);
    const ResolvedScenario sc = node8(Precision::Fp8, static_cast<Fp8Recipe>(recipe));
    QCOMPARE(fp8CastPasses(sc.training), passes);
    // Four GEMM inputs and four weights cast forward, four gradients backward.
    const LayerCost fp8 = layerCost(sc, true);
    const LayerCost bf16 = layerCost(node8(Precision::Bf16, Fp8Recipe::Delayed), true);
    const double fwdKernels = (fp8.forward.elementwise - bf16.forward.elementwise) * 1e6;
    const double bwdKernels = (fp8.backward.elementwise - bf16.backward.elementwise) * 1e6;
    QVERIFY(std::abs(fwdKernels - 8.0 * passes) < 1e-3);
    QVERIFY(std::abs(bwdKernels - 4.0 * passes) < 1e-3);
}

void TestFp8Recipes::blockwiseScaleMemory() {
    const Estimate delayed = estimateOrFail(node8(Precision::Fp8, Fp8Recipe::Delayed));
    const Estimate tensorwise = estimateOrFail(node8(Precision::Fp8, Fp8Recipe::Tensorwise));
    const Estimate blockwise = estimateOrFail(node8(Precision::Fp8, Fp8Recipe::Blockwise));
    // Per-tensor recipes cache the same two FP8 copies of each weight.
    QCOMPARE(tensorwise.peakBreakdown.weights, delayed.peakBreakdown.weights);
    // Blockwise adds an FP32 scale per 128 x 128 block to each of the two copies of the
    // transformer layers' weights (tp = 1, ZeRO 1 keeps them whole): 32 layers of
    // h (q + 2 kv) + q h + 3 ffn h linear weights plus two norm vectors.
    const double layerParams = 4096.0 * 6144 + 4096.0 * 4096 + 3 * 14336.0 * 4096 + 2 * 4096;
    QCOMPARE(countParameters(test::llama3_8b()).perLayer.total(), layerParams);
    const double scales = 32 * layerParams * 2 * 4.0 / (128.0 * 128.0);
    const double added = blockwise.peakBreakdown.weights - delayed.peakBreakdown.weights;
    QVERIFY2(std::abs(added - scales) <= 1e-6 * scales,
             qPrintable(QString("block scales %1 B, hand %2 B").arg(added).arg(scales)));
    QCOMPARE(lowPrecisionWeightCopyBytes(node8(Precision::Fp8, Fp8Recipe::Blockwise).training, 1,
                                         Framework::Megatron),
             2.0 * (1.0 + 4.0 / 16384.0));
    // ZeRO-3 caches no copy, whatever the recipe.
    QCOMPARE(lowPrecisionWeightCopyBytes(node8(Precision::Fp8, Fp8Recipe::Blockwise).training, 3,
                                         Framework::Megatron),
             0.0);
}

void TestFp8Recipes::delayedIsTheBitwiseDefault() {
    const auto none = estimateExample({{"precision", "fp8"}});
    const auto delayed = estimateExample({{"precision", "fp8"}, {"fp8_recipe", "delayed"}});
    QVERIFY(none && delayed);
    QCOMPARE(delayed->stepSeconds, none->stepSeconds); // exact: the same resolved scenario
    QCOMPARE(delayed->peakBytes, none->peakBytes);
    QCOMPARE(estimateToJson(*delayed).dump(), estimateToJson(*none).dump());
    // The other recipes change the estimate.
    const auto blockwise = estimateExample({{"precision", "fp8"}, {"fp8_recipe", "blockwise"}});
    QVERIFY(blockwise);
    QVERIFY(blockwise->stepSeconds != none->stepSeconds);
}

void TestFp8Recipes::recipesOrderStepTime() {
    // Same GEMMs for every recipe (no source gives block scaling on Hopper a slowdown, see
    // PrecisionMemory.cpp); current scaling moves the most bytes, blockwise a little more than
    // delayed.
    const Estimate delayed = estimateOrFail(node8(Precision::Fp8, Fp8Recipe::Delayed));
    const Estimate tensorwise = estimateOrFail(node8(Precision::Fp8, Fp8Recipe::Tensorwise));
    const Estimate blockwise = estimateOrFail(node8(Precision::Fp8, Fp8Recipe::Blockwise));
    QVERIFY(delayed.stepSeconds < blockwise.stepSeconds);
    QVERIFY(blockwise.stepSeconds < tensorwise.stepSeconds);
    // The casts are a few percent of an 8B layer's step, not more.
    QVERIFY(tensorwise.stepSeconds < 1.05 * delayed.stepSeconds);
    QCOMPARE(blockwise.mfu < delayed.mfu, true);
}

void TestFp8Recipes::warningsNameTheRecipe_data() {
    QTest::addColumn<int>("recipe");
    QTest::addColumn<bool>("blackwell");
    QTest::addColumn<QString>("assumes");
    QTest::newRow("delayed") << int(Fp8Recipe::Delayed) << false << QStringLiteral("amax history");
    QTest::newRow("tensorwise") << int(Fp8Recipe::Tensorwise) << false
                                << QStringLiteral("reading the input twice");
    QTest::newRow("blockwise-hopper")
        << int(Fp8Recipe::Blockwise) << false << QStringLiteral("per-tensor FP8 rate");
    QTest::newRow("blockwise-blackwell")
        << int(Fp8Recipe::Blockwise) << true << QStringLiteral("precision \"mxfp8\"");
}

void TestFp8Recipes::warningsNameTheRecipe() {
    QFETCH(int, recipe);
    QFETCH(bool, blackwell);
    QFETCH(QString, assumes);
    ResolvedScenario sc = node8(Precision::Fp8, static_cast<Fp8Recipe>(recipe));
    if (blackwell)
        sc.cluster.gpu.fp4Tflops = 9000; // FP4 tensor cores: block scaling in hardware
    const Estimate e = estimateOrFail(sc);
    const std::string name =
        std::string("FP8 recipe \"") + recipeName(static_cast<Fp8Recipe>(recipe)) + "\"";
    QVERIFY2(hasWarning(e, name), name.c_str());
    QVERIFY2(hasWarning(e, assumes.toStdString()), qPrintable(assumes));
    // No recipe warning without FP8.
    QVERIFY(!hasWarning(estimateOrFail(node8(Precision::Bf16, Fp8Recipe::Delayed)), "FP8 recipe"));
    QVERIFY(!hasWarning(estimateOrFail(node8(Precision::MxFp8, Fp8Recipe::Delayed)), "FP8 recipe"));
}

void TestFp8Recipes::breakdownSumsToStep_data() {
    QTest::addColumn<int>("recipe");
    QTest::newRow("delayed") << int(Fp8Recipe::Delayed);
    QTest::newRow("tensorwise") << int(Fp8Recipe::Tensorwise);
    QTest::newRow("blockwise") << int(Fp8Recipe::Blockwise);
}

void TestFp8Recipes::breakdownSumsToStep() {
    QFETCH(int, recipe);
    ResolvedScenario sc = node8(Precision::Fp8, static_cast<Fp8Recipe>(recipe));
    sc.parallel.pp = 2; // a pipeline too: the breakdown describes the bottleneck rank
    sc.parallel.dp = 4;
    sc.parallel.dpShard = 4;
    sc.parallel.pipelineLayers = {16, 16};
    const Estimate e = estimateOrFail(sc);
    QVERIFY(e.stepSeconds > 0);
    QVERIFY(test::sumsToStep(e));
}

void TestFp8Recipes::nvfp4CastsTwoLevel() {
    // NVFP4's per-tensor FP32 scale needs the tensor's amax before the cast (two passes); the
    // cast reads 2 bytes and writes two E2M1 copies of half a byte with an E4M3 scale per 16.
    TrainingConfig t;
    t.precision = Precision::NvFp4;
    QCOMPARE(fp8CastBytesPerElement(t, CastOperand::Activation), 2.0 + 2.0 + 0.5 + 0.5 + 2.0 / 16);
    QCOMPARE(fp8CastBytesPerElement(t, CastOperand::Weight), 2.0 + 2.0 + 0.5 + 0.5 + 2.0 / 16);
    QCOMPARE(fp8CastPasses(t), 2);
    t.precision = Precision::MxFp8; // one pass finds each block's power-of-two scale
    QCOMPARE(fp8CastBytesPerElement(t, CastOperand::Activation), 4.0);
    QCOMPARE(fp8CastPasses(t), 1);
}

void TestFp8Recipes::blockScaledGemmEfficiency_data() {
    QTest::addColumn<QString>("precision");
    QTest::addColumn<QString>("recipe"); // "" = the default
    QTest::addColumn<QString>("preset");
    QTest::addColumn<bool>("scaled");
    struct Row {
        const char *name, *precision, *recipe, *preset;
        bool scaled;
    };
    // Hopper has no block-scaled MMA: blockwise FP8 runs on its FP8 MMA there.
    for (const Row& r : {Row{"mxfp8 b200", "mxfp8", "", "dgx-b200", true},
                         Row{"nvfp4 b200", "nvfp4", "", "dgx-b200", true},
                         Row{"fp8 blockwise b200", "fp8", "blockwise", "dgx-b200", true},
                         Row{"fp8 delayed b200", "fp8", "", "dgx-b200", false},
                         Row{"fp8 tensorwise b200", "fp8", "tensorwise", "dgx-b200", false},
                         Row{"bf16 b200", "bf16", "", "dgx-b200", false},
                         Row{"fp8 blockwise h100", "fp8", "blockwise", "dgx-h100", false}})
        QTest::newRow(r.name) << QString(r.precision) << QString(r.recipe) << QString(r.preset)
                              << r.scaled;
}

void TestFp8Recipes::blockScaledGemmEfficiency() {
    QFETCH(QString, precision);
    QFETCH(QString, recipe);
    QFETCH(QString, preset);
    QFETCH(bool, scaled);
    nlohmann::ordered_json training = {{"precision", precision.toStdString()}};
    if (!recipe.isEmpty())
        training["fp8_recipe"] = recipe.toStdString();
    const auto sc = resolveExample(training, preset.toUtf8().constData());
    QVERIFY(sc);
    const HardwareProfile bare = defaultHardwareProfile(sc->cluster.gpu);
    const HardwareProfile used = defaultEstimatorSettings(*sc).hardware;
    const MatmulDtype dtype = matmulDtypeFor(sc->training.precision);
    const double ratio = used.forDtype(dtype).efficiency / bare.forDtype(dtype).efficiency;
    QCOMPARE(ratio, scaled ? kBlockScaledMmaEfficiency : 1.0);
    QCOMPARE(multipliesBlockScaled(sc->training, sc->cluster.gpu.fp4Tflops.has_value()), scaled);
}

void TestFp8Recipes::blockScaledSlowerThanPerTensor() {
    // On one B200 node the same plan in MXFP8 runs slower than in per-tensor FP8 (the
    // published Megatron-Bridge pairs: 0.9-11.8% slower), but still faster than BF16.
    const auto fp8 = estimateExample({{"precision", "fp8"}}, "dgx-b200");
    const auto mxfp8 = estimateExample({{"precision", "mxfp8"}}, "dgx-b200");
    const auto bf16 = estimateExample({{"precision", "bf16"}}, "dgx-b200");
    QVERIFY(fp8 && mxfp8 && bf16);
    const double ratio = mxfp8->stepSeconds / fp8->stepSeconds;
    QVERIFY2(ratio > 1.02 && ratio < 1.12, qPrintable(QString("MXFP8 / FP8 %1").arg(ratio)));
    QVERIFY(mxfp8->stepSeconds < bf16->stepSeconds);
}

QTEST_GUILESS_MAIN(TestFp8Recipes)
#include "tst_fp8_recipes.moc"
