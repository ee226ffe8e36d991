// What a new user found on the bundled examples (issue 18), each as it now works: DP follows
// the GPU count and the degrees; every optional key can be set and reset in the app and a
// field never shows another document's value; the headline follows the scenario; File ▸ New,
// examples that are not "modified", Model ▸ Import, where Save starts and what it suggests,
// a file that fails to open; undo steps that name the value; the GPU's own cluster preset;
// ZeRO-3 with a pipeline.

#include "TestSupport.h"

#include "ClusterEditor.h"
#include "CostsEditor.h"
#include "EstimateCards.h"
#include "MainWindow.h"
#include "ModelEditor.h"
#include "PlanEditor.h"
#include "ResultsDashboard.h"
#include "RunCostCards.h"
#include "ScenarioDocument.h"
#include "ScenarioForm.h"
#include "Settings.h"
#include "TrainingEditor.h"
#include "Translations.h"

#include "estimate/Estimator.h"

#include <nlohmann/json.hpp>

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <set>

using namespace ts;
using namespace ts::gui;

namespace {

EstimateFunction coreEstimator() {
    return [](const ResolvedScenario& scenario, Diagnostics& diags) {
        return estimatePlan(scenario, defaultEstimatorSettings(scenario), diags);
    };
}

QString example(const QString& name) {
    return test::sourceDir() + "/resources/examples/" + name;
}

bool choose(QComboBox* combo, const QString& text) {
    const int index = combo->findText(text);
    if (index < 0)
        return false;
    combo->setCurrentIndex(index);
    emit combo->activated(index);
    return true;
}

bool chooseData(QComboBox* combo, const nlohmann::ordered_json& value) {
    for (int i = 0; i < combo->count(); ++i) {
        if (combo->itemData(i).toString().toStdString() == value.dump()) {
            combo->setCurrentIndex(i);
            emit combo->activated(i);
            return true;
        }
    }
    return false;
}

bool isItemEnabled(QComboBox* combo, const QString& text) {
    auto* model = qobject_cast<QStandardItemModel*>(combo->model());
    const int index = combo->findText(text);
    return model && index >= 0 && model->item(index)->isEnabled();
}

void type(QLineEdit* edit, const QString& text) {
    edit->setText(text);
    emit edit->editingFinished();
}

} // namespace

class TestGuiNewUser : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void dpFollowsGpuCountAndDegrees();
    void tokensCanBeSetAndReset();
    void noFieldShowsAnotherDocumentsValue();
    void nameCalibrationAndPipelineLayers();
    void costsDockSetsAndResets();
    void customGpuObject();
    void customGpuOptionalFigures();
    void everySpecKeyHasAnEditorWithReset();
    void newEditorsChangeTheScenario();
    void headlineFollowsTheScenario();
    void menusAndFiles();
    void failedOpenLeavesNothingStale();
    void undoStepsNameTheValue();
    void gpuOffersItsClusterPreset();
    void zero3WithPipelineIsFlagged();
};

void TestGuiNewUser::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    removeTranslations();
    QVERIFY(!test::sourceDir().isEmpty());
}

// Finding 1: GPUs 64 -> 128, then PP 16: DP shows what the plan resolves to, the plan stays
// valid, and the PP choices are checked against 128 GPUs.
void TestGuiNewUser::dpFollowsGpuCountAndDegrees() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    ScenarioDocument* doc = window.document();
    auto* gpus =
        qobject_cast<QSpinBox*>(window.clusterEditor()->form()->field("/cluster/num_gpus"));
    auto* dp = qobject_cast<QSpinBox*>(window.planEditor()->form()->field("/parallelism/dp"));
    auto* pp = qobject_cast<QComboBox*>(window.planEditor()->form()->field("/parallelism/pp"));
    QVERIFY(gpus && dp && pp);
    QCOMPARE(dp->value(), 2);

    gpus->setValue(128);
    QVERIFY2(doc->resolved().has_value(),
             qPrintable(doc->diagnostics().errors().empty()
                            ? QString()
                            : QString::fromStdString(doc->diagnostics().errors().front().message)));
    QCOMPARE(doc->resolved()->parallel.dp, std::int64_t(4));
    QCOMPARE(dp->value(), 4);
    // With 128 GPUs and TP 8, PP 8 gives DP 2: offered.
    QVERIFY(isItemEnabled(pp, "8"));
    QVERIFY(isItemEnabled(pp, "16"));

    QVERIFY(choose(pp, "16"));
    const auto dpNow = doc->resolved() ? doc->resolved()->parallel.dp : 0;
    QCOMPARE(dp->value(), int(128 / (8 * 16)));
    if (doc->resolved())
        QCOMPARE(dpNow, std::int64_t(1));
    QVERIFY(!window.planEditor()->form()->isFieldInvalid("/cluster/num_gpus"));
}

// Finding 2: tokens, not in the file, can be typed; the run's figures appear; reset removes it.
void TestGuiNewUser::tokensCanBeSetAndReset() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QVERIFY(window.waitForEstimate());
    auto* cards = window.dashboard()->runCostCards();
    QCOMPARE(cards->valueText(RunCostCards::Card::Days), QString("—"));
    QVERIFY(cards->valueToolTip(RunCostCards::Card::Days).contains("tokens"));
    // Not a bare "—": the card says which figure it waits for (finding 13).
    QVERIFY(cards->detailText(RunCostCards::Card::Days).contains("Tokens to train"));

    ScenarioForm* form = window.trainingEditor()->form();
    auto* tokens = qobject_cast<QLineEdit*>(form->field("/training/tokens"));
    QVERIFY(tokens);
    QVERIFY(tokens->isEnabled());
    QVERIFY(tokens->text().isEmpty());
    QVERIFY(!form->resetButton("/training/tokens")->isVisible());
    type(tokens, "15000");
    QCOMPARE(window.document()->resolved()->training.tokens, std::optional<double>(1.5e13));
    QVERIFY(window.waitForEstimate());
    QTRY_VERIFY(cards->valueText(RunCostCards::Card::Days) != QString("—"));
    QVERIFY(cards->valueText(RunCostCards::Card::Cost) != QString("—"));

    window.show();
    QVERIFY(form->resetButton("/training/tokens")->isVisible());
    form->resetButton("/training/tokens")->click();
    QVERIFY(!window.document()->explicitValue("/training/tokens"));
    QVERIFY(tokens->text().isEmpty());
    QVERIFY(window.waitForEstimate());
    QTRY_COMPARE(cards->valueText(RunCostCards::Card::Days), QString("—"));
    // Set and reset: two steps, and the file is as it was.
    QCOMPARE(window.document()->undoStack()->count(), 2);

    // A value that is not a number is refused on the field, not written.
    type(tokens, "lots");
    QVERIFY(form->isFieldInvalid("/training/tokens"));
    QVERIFY(!window.document()->explicitValue("/training/tokens"));
}

// Finding 2: after a document with tokens, one without shows none (nor any other old value).
void TestGuiNewUser::noFieldShowsAnotherDocumentsValue() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3.1-405b-2048xh100.json")));
    auto* tokens =
        qobject_cast<QLineEdit*>(window.trainingEditor()->form()->field("/training/tokens"));
    QVERIFY(!tokens->text().isEmpty());
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QVERIFY(tokens->text().isEmpty());
    QCOMPARE(tokens->placeholderText(), QString("not set"));
    // The MoE fields of a dense model are disabled and show no value at all.
    auto* experts =
        qobject_cast<QSpinBox*>(window.modelEditor()->form()->field("/model/moe/experts"));
    QVERIFY(experts);
    QVERIFY(window.openScenario(example("mixtral-8x7b-64xh100.json")));
    QCOMPARE(experts->value(), 8);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QVERIFY(!experts->isEnabled());
    QCOMPARE(experts->text(), QString("not set"));
}

// Finding 2: the scenario name, the calibration profile and pipeline_layers.
void TestGuiNewUser::nameCalibrationAndPipelineLayers() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    ScenarioDocument* doc = window.document();

    auto* name = qobject_cast<QLineEdit*>(window.trainingEditor()->form()->field("/name"));
    QVERIFY(name);
    type(name, "Sizing run A");
    QCOMPARE(doc->resolved()->name, std::string("Sizing run A"));

    auto* calibration =
        qobject_cast<QComboBox*>(window.clusterEditor()->form()->field("/calibration"));
    QVERIFY(calibration);
    QVERIFY(calibration->count() >= 2); // none, and the shipped profiles
    QCOMPARE(calibration->currentIndex(), 0);
    for (int i = 1; i < calibration->count(); ++i) {
        const auto id =
            nlohmann::ordered_json::parse(calibration->itemData(i).toString().toStdString());
        if (chooseData(calibration, id) && doc->resolved())
            break;
        doc->undoStack()->undo(); // a profile made for another GPU: the next one
    }
    QVERIFY(doc->explicitValue("/calibration").has_value());
    window.clusterEditor()->form()->resetButton("/calibration")->click();
    QVERIFY(!doc->explicitValue("/calibration"));

    auto* layers = qobject_cast<QLineEdit*>(
        window.planEditor()->form()->field("/parallelism/pipeline_layers"));
    QVERIFY(layers);
    QCOMPARE(layers->placeholderText().split(", ").size(), 4 * 5); // pp 4 x vpp 5 chunks
    QStringList uneven;
    for (int i = 0; i < 20; ++i)
        uneven << QString::number(i == 0 ? 3 : (i == 19 ? 5 : 4));
    type(layers, uneven.join(", "));
    QVERIFY(doc->resolved());
    QCOMPARE(doc->resolved()->parallel.pipelineLayers.front(), 3);
    QCOMPARE(doc->resolved()->parallel.pipelineLayers.back(), 5);
    type(layers, "40, 40"); // two numbers for twenty chunks: the resolver says so
    QVERIFY(window.planEditor()->form()->isFieldInvalid("/parallelism/pipeline_layers"));
    type(layers, QString());
    QVERIFY(!doc->explicitValue("/parallelism/pipeline_layers"));

    // Offload keys, written into the file's offload object, can be reset too.
    auto* offload = qobject_cast<QComboBox*>(
        window.planEditor()->form()->field("/parallelism/offload/optimizer"));
    QVERIFY(chooseData(offload, "cpu"));
    QCOMPARE(*doc->explicitValue("/parallelism/offload/optimizer"), nlohmann::ordered_json("cpu"));
    window.planEditor()->form()->resetButton("/parallelism/offload/optimizer")->click();
    QVERIFY(!doc->explicitValue("/parallelism/offload/optimizer"));
}

// Finding 2: the Costs dock.
void TestGuiNewUser::costsDockSetsAndResets() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-8b-8xh100.json")));
    ScenarioDocument* doc = window.document();
    ScenarioForm* form = window.costsEditor()->form();
    auto* price = qobject_cast<QLineEdit*>(form->field("/costs/gpu_hour_usd"));
    auto* pue = qobject_cast<QLineEdit*>(form->field("/costs/pue"));
    QVERIFY(price && pue);
    const bool hadCosts = doc->explicitValue("/costs").has_value();
    type(price, "3.25");
    QCOMPARE(doc->resolved()->costs.gpuHourUsd, std::optional<double>(3.25));
    type(pue, "1.1");
    QCOMPARE(doc->resolved()->costs.pue, std::optional<double>(1.1));
    type(pue, QString());
    QVERIFY(!doc->explicitValue("/costs/pue"));
    QVERIFY(pue->placeholderText().contains("assumed"));
    form->resetButton("/costs/gpu_hour_usd")->click();
    QVERIFY(!doc->explicitValue("/costs/gpu_hour_usd"));
    QCOMPARE(doc->explicitValue("/costs").has_value(), hadCosts);
    auto* ownership = qobject_cast<QComboBox*>(form->field("/costs/ownership"));
    QVERIFY(chooseData(ownership, "owned"));
    QCOMPARE(doc->resolved()->costs.ownership, Ownership::Owned);
}

// Finding 2: a custom GPU object, started from the GPU in use and edited figure by figure.
void TestGuiNewUser::customGpuObject() {
    ClusterEditor::setPresetOfferAnswer(false);
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-8b-8xh100.json")));
    ScenarioDocument* doc = window.document();
    ScenarioForm* form = window.clusterEditor()->form();
    auto* memory = qobject_cast<QDoubleSpinBox*>(form->field("/cluster/gpu/memory_gib"));
    QVERIFY(memory);
    QVERIFY(!memory->isEnabled());
    QCOMPARE(memory->value(), doc->resolved()->cluster.gpu.memoryGiB); // the catalog part's
    auto* gpu = qobject_cast<QComboBox*>(form->field("/cluster/gpu"));
    QVERIFY(chooseData(gpu, nlohmann::ordered_json{{"custom", true}}));
    QVERIFY(doc->explicitValue("/cluster/gpu")->is_object());
    QVERIFY(doc->resolved());
    QVERIFY(memory->isEnabled());
    memory->setValue(120);
    QCOMPARE(doc->resolved()->cluster.gpu.memoryGiB, 120.0);
    auto* name = qobject_cast<QLineEdit*>(form->field("/cluster/gpu/name"));
    type(name, "H100 with more HBM");
    QCOMPARE(doc->resolved()->cluster.gpu.name, std::string("H100 with more HBM"));
    QVERIFY(gpu->currentText().contains("H100 with more HBM"));
    ClusterEditor::setPresetOfferAnswer(std::nullopt);
}

// Finding 2: the optional figures of a custom GPU (FP16, TF32, FP4, measured matmul, idle
// power, SM count, PCIe) can be typed and cleared again; on a catalog GPU they show its own.
void TestGuiNewUser::customGpuOptionalFigures() {
    ClusterEditor::setPresetOfferAnswer(false);
    const auto restore = qScopeGuard([] { ClusterEditor::setPresetOfferAnswer(std::nullopt); });
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-8b-8xh100.json")));
    ScenarioDocument* doc = window.document();
    ScenarioForm* form = window.clusterEditor()->form();
    auto* mamf = qobject_cast<QLineEdit*>(form->field("/cluster/gpu/mamf_bf16_tflops"));
    QVERIFY(mamf);
    QVERIFY(!mamf->isEnabled());
    const auto catalogMamf = doc->resolved()->cluster.gpu.mamfBf16Tflops;
    QVERIFY(catalogMamf);
    QCOMPARE(mamf->placeholderText(), QLocale().toString(*catalogMamf, 'g', 8));
    QVERIFY(mamf->text().isEmpty());

    auto* gpu = qobject_cast<QComboBox*>(form->field("/cluster/gpu"));
    QVERIFY(chooseData(gpu, nlohmann::ordered_json{{"custom", true}}));
    QVERIFY(mamf->isEnabled());
    struct Figure {
        const char* key;
        const char* typed;
        double expected;
    };
    const Figure figures[] = {{"fp16_tflops", "900", 900},       {"tf32_tflops", "450", 450},
                              {"fp4_tflops", "1800", 1800},      {"mamf_bf16_tflops", "700", 700},
                              {"mamf_fp8_tflops", "1300", 1300}, {"idle_w", "75", 75},
                              {"sm_count", "120", 120},          {"pcie_gb_s", "50", 50},
                              {"sfu_exp_tera_per_s", "4", 4}};
    for (const Figure& f : figures) {
        const std::string pointer = std::string("/cluster/gpu/") + f.key;
        auto* edit = qobject_cast<QLineEdit*>(form->field(pointer));
        QVERIFY2(edit, f.key);
        QVERIFY2(edit->isEnabled(), f.key);
        type(edit, f.typed);
        const auto written = doc->explicitValue(pointer);
        QVERIFY2(written && written->get<double>() == f.expected, f.key);
        QVERIFY2(doc->resolved(), f.key); // still a valid scenario
        QAbstractButton* reset = form->resetButton(pointer);
        QVERIFY2(reset && !reset->isHidden(), f.key);
    }
    QCOMPARE(doc->resolved()->cluster.gpu.smCount, std::optional<int>(120));
    QCOMPARE(doc->resolved()->cluster.gpu.fp4Tflops, std::optional<double>(1800));
    QCOMPARE(doc->resolved()->cluster.gpu.sfuExpTeraPerS, std::optional<double>(4));
    for (const Figure& f : figures) {
        const std::string pointer = std::string("/cluster/gpu/") + f.key;
        form->resetButton(pointer)->click();
        QVERIFY2(!doc->explicitValue(pointer), f.key);
    }
    QVERIFY(doc->explicitValue("/cluster/gpu")->is_object()); // the required figures stay
    QVERIFY(!doc->resolved()->cluster.gpu.smCount);
}

namespace {

// The keys of the scenario format, as JSON pointers: the leaves of the JSON Schema
// (resources/schema/scenario.schema.json, which tests/check_schema.py holds to the reader and
// tests/check_docs_reference.py to docs/scenario-format.md). `required` collects the keys
// the format requires, which have no reset.
void schemaKeys(const nlohmann::json& schema, const nlohmann::json& node, const std::string& at,
                std::vector<std::string>& out, std::set<std::string>& required) {
    auto resolve = [&schema](const nlohmann::json& n) -> const nlohmann::json& {
        const nlohmann::json* p = &n;
        for (int depth = 0; depth < 8; ++depth) {
            if (p->contains("$ref")) {
                const std::string ref = (*p)["$ref"];
                p = &schema["$defs"][ref.substr(ref.rfind('/') + 1)];
                continue;
            }
            const nlohmann::json* next = nullptr;
            for (const char* alt : {"oneOf", "anyOf"})
                if (p->contains(alt))
                    for (const auto& option : (*p)[alt])
                        if (!next && (option.contains("$ref") || option.contains("properties")))
                            next = &option;
            if (!next)
                break;
            p = next;
        }
        return *p;
    };
    const nlohmann::json& object = resolve(node);
    if (!object.contains("properties"))
        return;
    for (const auto& name : object.value("required", nlohmann::json::array()))
        required.insert(at + "/" + name.get<std::string>());
    for (const auto& [name, sub] : object["properties"].items()) {
        const std::string pointer = at + "/" + name;
        const nlohmann::json& resolved = resolve(sub);
        if (resolved.contains("properties") && pointer != "/cluster/graph")
            schemaKeys(schema, sub, pointer, out, required);
        else
            out.push_back(pointer);
    }
}

} // namespace

// "Every scenario key of the spec can be set and reset in the app": each key of the format
// has an editor in the window, found by its JSON pointer, and each optional key a reset (a
// reset button, or a line edit that, cleared, removes the key). `format` is the file's
// version tag, which the app writes itself; `cluster.graph` is the drawn topology, edited on
// the Topology tab (tst_gui_topology).
void TestGuiNewUser::everySpecKeyHasAnEditorWithReset() {
    QFile file(test::sourceDir() + "/resources/schema/scenario.schema.json");
    QVERIFY(file.open(QIODevice::ReadOnly));
    const nlohmann::json schema = nlohmann::json::parse(file.readAll().toStdString());
    std::vector<std::string> keys;
    std::set<std::string> required;
    schemaKeys(schema, schema, "", keys, required);
    QVERIFY(keys.size() > 100);

    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("mixtral-8x7b-64xh100.json")));
    QStringList missing;
    for (const std::string& key : keys) {
        if (key == "/format" || key == "/cluster/graph")
            continue;
        const QString name = QString::fromStdString(key);
        QWidget* editor = window.findChild<QWidget*>(name);
        if (!editor) {
            missing << name + " (no editor)";
            continue;
        }
        // A key its object requires has no reset (the GPU object's figures, the MLA object's);
        // the model's own keys do, since a preset may give them.
        const bool modelKey = key.rfind("/model/", 0) == 0 && key.find('/', 7) == std::string::npos;
        if (required.count(key) && !modelKey)
            continue;
        auto* line = qobject_cast<QLineEdit*>(editor);
        const bool clears = line && !line->isReadOnly();
        if (!clears && !window.findChild<QAbstractButton*>(name + "#reset"))
            missing << name + " (no reset)";
    }
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(", ")));
}

// The editors added for the last keys change what the estimator reads, and their resets
// bring the defaults back: MLA figures of a preset model, the capacity factor, ETP,
// recompute_layers, the network's radix, tiers, torus and pods.
void TestGuiNewUser::newEditorsChangeTheScenario() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("deepseek-v3-1024xh100.json")));
    ScenarioDocument* doc = window.document();
    ScenarioForm* model = window.modelEditor()->form();
    auto* kvRank = qobject_cast<QSpinBox*>(model->field("/model/mla/kv_lora_rank"));
    QVERIFY(kvRank && kvRank->isEnabled());
    QCOMPARE(kvRank->value(), doc->resolved()->model.mla->kvLoraRank); // the preset's 512
    kvRank->setValue(256);
    QVERIFY(doc->resolved());
    QCOMPARE(doc->resolved()->model.mla->kvLoraRank, 256);
    QCOMPARE(doc->resolved()->model.mla->qLoraRank, 1536); // the rest of the preset's object
    auto* capacity = qobject_cast<QLineEdit*>(model->field("/model/moe/capacity_factor"));
    QVERIFY(capacity && capacity->isEnabled());
    type(capacity, "1.25");
    QCOMPARE(doc->resolved()->model.moe->capacityFactor, std::optional<double>(1.25));
    model->resetButton("/model/moe/capacity_factor")->click();
    QVERIFY(!doc->resolved()->model.moe->capacityFactor);

    ScenarioForm* plan = window.planEditor()->form();
    auto* etp = qobject_cast<QLineEdit*>(plan->field("/parallelism/etp"));
    QVERIFY(etp && etp->isEnabled());
    type(etp, "1");
    QCOMPARE(doc->resolved()->parallel.etp, 1);
    auto* layers = qobject_cast<QLineEdit*>(plan->field("/parallelism/recompute_layers"));
    QVERIFY(layers);
    QCOMPARE(layers->isEnabled(), doc->resolved()->parallel.recompute == RecomputeMode::Full);

    ScenarioForm* cluster = window.clusterEditor()->form();
    auto* radix = qobject_cast<QSpinBox*>(cluster->field("/cluster/scale_out/switch_radix"));
    QVERIFY(radix && radix->isEnabled());
    radix->setValue(32);
    QCOMPARE(doc->resolved()->cluster.scaleOut.switchRadix, 32);
    cluster->resetButton("/cluster/scale_out/switch_radix")->click();
    QCOMPARE(doc->resolved()->cluster.scaleOut.switchRadix, 64);
    auto* tiers = qobject_cast<QLineEdit*>(cluster->field("/cluster/scale_out/tiers"));
    QVERIFY(tiers && tiers->isEnabled());
    type(tiers, "3");
    QCOMPARE(doc->resolved()->cluster.scaleOut.tiers, std::optional<int>(3));
    type(tiers, "");
    QVERIFY(!doc->explicitValue("/cluster/scale_out/tiers"));
    auto* torus = qobject_cast<QLineEdit*>(cluster->field("/cluster/scale_out/torus_dims"));
    QVERIFY(torus && torus->isEnabled());
    type(torus, "8, 4, 4");
    QCOMPARE(doc->explicitValue("/cluster/scale_out/torus_dims")->dump(), std::string("[8,4,4]"));
    QCOMPARE(torus->text(), QString("8, 4, 4"));
    type(torus, "");
    QVERIFY(!doc->explicitValue("/cluster/scale_out/torus_dims"));
    auto* pods = qobject_cast<QSpinBox*>(cluster->field("/cluster/scale_out/pods"));
    QVERIFY(pods && pods->isEnabled());
    auto* wan = qobject_cast<QDoubleSpinBox*>(cluster->field("/cluster/scale_out/wan_gbit_s"));
    QVERIFY(wan && wan->isEnabled());
    wan->setValue(3200);
    QCOMPARE(doc->resolved()->cluster.scaleOut.wanGbitPerS, 3200.0);
    cluster->resetButton("/cluster/scale_out/wan_gbit_s")->click();
    QVERIFY(!doc->explicitValue("/cluster/scale_out/wan_gbit_s"));
}

// Finding 3: the headline follows the plan; a name the user gives stays.
void TestGuiNewUser::headlineFollowsTheScenario() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QVERIFY(window.windowTitle().contains("TP 8, PP 4 interleaved, DP 2"));
    auto* tp = qobject_cast<QComboBox*>(window.planEditor()->form()->field("/parallelism/tp"));
    QVERIFY(choose(tp, "4"));
    QVERIFY(!window.windowTitle().contains("TP 8"));
    QVERIFY2(window.windowTitle().contains("TP 4"), qPrintable(window.windowTitle()));
    QVERIFY(window.windowTitle().contains("DP 4"));
    auto* name = qobject_cast<QLineEdit*>(window.trainingEditor()->form()->field("/name"));
    type(name, "Llama 70B, TP 4 trial");
    QVERIFY(window.windowTitle().startsWith("Llama 70B, TP 4 trial"));
    window.document()->undoStack()->undo(); // the name
    window.document()->undoStack()->undo(); // TP
    QVERIFY(window.windowTitle().contains("TP 8, PP 4 interleaved, DP 2"));
}

// Finding 7: File ▸ New, examples, Model ▸ Import, Save's folder and name.
void TestGuiNewUser::menusAndFiles() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.newAction());
    window.newAction()->trigger();
    QVERIFY(window.document()->resolved().has_value());
    QVERIFY(!window.document()->isModified());
    QVERIFY(window.planEditor()->isEnabled());

    QVERIFY(window.newFromExample(":/examples/llama3-70b-64xh100.json"));
    QVERIFY(!window.document()->isModified());
    QVERIFY(!window.isWindowModified());
    QCOMPARE(window.document()->suggestedFileName(), QString("llama3-70b-64xh100.json"));
    auto* tp = qobject_cast<QComboBox*>(window.planEditor()->form()->field("/parallelism/tp"));
    QVERIFY(choose(tp, "4"));
    QVERIFY(window.document()->isModified());

    bool found = false;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu() && menu->text().remove('&') == "Model")
            for (QAction* action : menu->menu()->actions())
                found = found || action->text() == "Import Hugging Face config.json…";
    QVERIFY(found);
    QVERIFY(window.importHfAction()->isEnabled());

    // Open and Save As start in the same folder; a saved file suggests its own name.
    QTemporaryDir dir;
    QVERIFY(window.saveScenarioAs(dir.filePath("a.json")));
    QCOMPARE(window.dialogDirectory(), QFileInfo(dir.filePath("a.json")).absolutePath());
    QCOMPARE(window.document()->suggestedFileName(), QString("a.json"));
    window.newAction()->trigger();
    QCOMPARE(window.document()->suggestedFileName(), QString("llama3-8b-8xh100.json"));
}

// Finding 7: a file that fails to open leaves no values in the docks and no recent entry.
void TestGuiNewUser::failedOpenLeavesNothingStale() {
    QTemporaryDir dir;
    const QString bad = dir.filePath("broken.json");
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"format\": \"trainscape.scenario/1\", \"model\": 3}");
    file.close();
    settings::recentFiles.clear();
    MainWindow window(coreEstimator());
    QVERIFY(window.openScenario(example("llama3.1-405b-2048xh100.json")));
    QVERIFY(!window.openScenario(bad));
    QVERIFY(!settings::recentFiles.get().contains(QFileInfo(bad).absoluteFilePath()));
    QCOMPARE(settings::recentFiles.get().size(), 1);
    auto* tp = qobject_cast<QComboBox*>(window.planEditor()->form()->field("/parallelism/tp"));
    QVERIFY(tp->currentText().isEmpty());
    auto* tokens =
        qobject_cast<QLineEdit*>(window.trainingEditor()->form()->field("/training/tokens"));
    QVERIFY(tokens->text().isEmpty());
    auto* seq =
        qobject_cast<QSpinBox*>(window.trainingEditor()->form()->field("/training/seq_len"));
    QCOMPARE(seq->text(), QString("not set"));
    QVERIFY(!window.planEditor()->isEnabled());
    settings::recentFiles.clear();
}

// Finding 8: history entries name the value; Ctrl+Y redoes; two edits are two steps.
void TestGuiNewUser::undoStepsNameTheValue() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QUndoStack* stack = window.document()->undoStack();
    auto* tp = qobject_cast<QComboBox*>(window.planEditor()->form()->field("/parallelism/tp"));
    QVERIFY(choose(tp, "4"));
    QCOMPARE(stack->text(0), QString("TP 8 → 4"));
    QVERIFY(window.redoAction()->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Y)));
    stack->undo();
    QVERIFY(stack->canRedo());

    auto* seq =
        qobject_cast<QSpinBox*>(window.trainingEditor()->form()->field("/training/seq_len"));
    stack->clear();
    seq->setValue(4096);
    QTest::qWait(int(ChangeScenarioValue::kMergeWindowMs) + 150);
    seq->setValue(2048);
    QCOMPARE(stack->count(), 2);
    QCOMPARE(stack->text(1), QString("Sequence length 4,096 tokens → 2,048 tokens"));
    // Within the merge window (an arrow held down, typing): one step, from first to last.
    seq->setValue(1024);
    QCOMPARE(stack->count(), 2);
    QCOMPARE(stack->text(1), QString("Sequence length 4,096 tokens → 1,024 tokens"));
}

// Finding 9: another GPU offers its own cluster preset instead of keeping the old figures.
void TestGuiNewUser::gpuOffersItsClusterPreset() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    ScenarioDocument* doc = window.document();
    auto* gpu = qobject_cast<QComboBox*>(window.clusterEditor()->form()->field("/cluster/gpu"));
    ClusterEditor::setPresetOfferAnswer(true);
    QVERIFY(chooseData(gpu, "a100-sxm-80gb"));
    QCOMPARE(*doc->explicitValue("/cluster/preset"), nlohmann::ordered_json("dgx-a100"));
    QVERIFY(doc->resolved());
    QCOMPARE(doc->resolved()->cluster.gpuId, std::string("a100-sxm-80gb"));
    QCOMPARE(doc->undoStack()->count(), 1);
    doc->undoStack()->undo();
    ClusterEditor::setPresetOfferAnswer(false);
    QVERIFY(chooseData(gpu, "a100-sxm-80gb"));
    QCOMPARE(*doc->explicitValue("/cluster/preset"), nlohmann::ordered_json("dgx-h100"));
    QCOMPARE(doc->resolved()->cluster.gpuId, std::string("a100-sxm-80gb"));
    ClusterEditor::setPresetOfferAnswer(std::nullopt);
}

// Finding 9: ZeRO-3 with PP > 1 is accepted with a warning that says who refuses it.
void TestGuiNewUser::zero3WithPipelineIsFlagged() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    ScenarioDocument* doc = window.document();
    QVERIFY(doc->setValue("/parallelism/zero", 3, "ZeRO 3"));
    bool warned = false;
    for (const Diagnostic& d : doc->diagnostics().warnings())
        warned = warned || (d.path == "/parallelism/zero" &&
                            d.message.find("Megatron-LM") != std::string::npos);
    QVERIFY(warned);
}

QTEST_MAIN(TestGuiNewUser)
#include "tst_gui_newuser.moc"
