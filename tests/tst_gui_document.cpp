// The scenario document without a window: every edit is an undo step (and repeated edits
// of one field merge), the dirty state follows the undo stack's clean state, saving writes
// the file exactly as read, refused edits change nothing, plan degrees are offered with
// core's reasons, and Hugging Face config.json files map onto the catalog's architectures.

#include "TestSupport.h"

#include "HuggingFaceConfig.h"
#include "PlanDegreeOptions.h"
#include "ScenarioDocument.h"

#include "catalog/Catalog.h"
#include "scenario/ScenarioIO.h"
#include "scenario/SectionJson.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace ts;
using namespace ts::gui;

namespace {

QString example(const QString& name) {
    return test::sourceDir() + "/resources/examples/" + name;
}

QString hfFixture(const QString& name) {
    return test::sourceDir() + "/tests/fixtures/hf/" + name + "/config.json";
}

int tpOf(const ScenarioDocument& doc) {
    return doc.scenario().parallelism->tp.value_or(1);
}

} // namespace

class TestGuiDocument : public QObject {
    Q_OBJECT
private slots:
    void editIsUndoable();
    void repeatedEditsMerge();
    void dirtyFollowsCleanState();
    void refusedEditChangesNothing();
    void saveReproducesTheFile_data();
    void saveReproducesTheFile();
    void editedRoundTrip();
    void carbonCsvBesideTheFile();
    void degreeOptions();
    void huggingFaceMapping_data();
    void huggingFaceMapping();
    void huggingFaceOtherFamilies();
    void huggingFaceErrors();
};

void TestGuiDocument::editIsUndoable() {
    ScenarioDocument doc;
    Diagnostics diags;
    QVERIFY(doc.load(example("llama3-70b-64xh100.json"), diags));
    QVERIFY(doc.resolved());
    const Scenario original = doc.scenario();
    QSignalSpy changed(&doc, &ScenarioDocument::changed);

    // TP 8 -> 4: dp (written in the file) follows, 64 / (4 * 4) = 4.
    QVERIFY(doc.setValues(PlanDegreeOptions::changesFor(doc, "tp", 4), "Change TP"));
    QCOMPARE(tpOf(doc), 4);
    QCOMPARE(**doc.scenario().parallelism->dp, std::int64_t(4));
    QVERIFY(doc.resolved());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(doc.undoStack()->count(), 1);

    doc.undoStack()->undo();
    QCOMPARE(doc.scenario(), original);
    QCOMPARE(doc.resolved()->parallel.tp, 8);
    doc.undoStack()->redo();
    QCOMPARE(tpOf(doc), 4);
    QCOMPARE(doc.resolved()->parallel.dp, std::int64_t(4));
    QCOMPARE(changed.count(), 3);

    // Removing a key is an edit too: back to the preset's value.
    QVERIFY(doc.setValue("/model/layers", 40, "layers"));
    QCOMPARE(doc.resolved()->model.layers, 40);
    QVERIFY(doc.setValue("/model/layers", std::nullopt, "layers"));
    QCOMPARE(doc.resolved()->model.layers, 80);
    QVERIFY(!doc.explicitValue("/model/layers"));
    QCOMPARE(doc.effectiveValue("/model/layers")->get<int>(), 80);
}

void TestGuiDocument::repeatedEditsMerge() {
    ScenarioDocument doc;
    Diagnostics diags;
    QVERIFY(doc.load(example("llama3-70b-64xh100.json"), diags));
    for (int seq : {4096, 2048, 1024})
        QVERIFY(doc.setValue("/training/seq_len", seq, "Change sequence length"));
    QCOMPARE(doc.undoStack()->count(), 1); // a spin box stepped three times: one step
    QVERIFY(doc.setValue("/training/micro_batch", 2, "Change micro-batch"));
    QCOMPARE(doc.undoStack()->count(), 2);
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QCOMPARE(*doc.scenario().training.seqLen, std::int64_t(8192));
    // Stepping back to the start leaves no step at all.
    QVERIFY(doc.setValue("/training/seq_len", 4096, "Change sequence length"));
    QVERIFY(doc.setValue("/training/seq_len", 8192, "Change sequence length"));
    QVERIFY(!doc.undoStack()->canUndo() || doc.undoStack()->index() == 0);
    QVERIFY(!doc.isModified());
}

void TestGuiDocument::dirtyFollowsCleanState() {
    ScenarioDocument doc;
    Diagnostics diags;
    QVERIFY(doc.load(example("llama3-8b-8xh100.json"), diags));
    QSignalSpy modified(&doc, &ScenarioDocument::modifiedChanged);
    QVERIFY(!doc.isModified());
    QVERIFY(doc.setValue("/training/global_batch", 256, "batch"));
    QVERIFY(doc.isModified());
    QCOMPARE(modified.count(), 1);
    doc.undoStack()->undo();
    QVERIFY(!doc.isModified());
    QCOMPARE(modified.count(), 2);

    // A document made from an example has no file: unsaved until saved.
    doc.reset(doc.scenario());
    QVERIFY(doc.isModified());
    QCOMPARE(doc.displayName(), QString::fromStdString(*doc.scenario().name));
}

void TestGuiDocument::refusedEditChangesNothing() {
    ScenarioDocument doc;
    Diagnostics diags;
    QVERIFY(doc.load(example("llama3-70b-64xh100.json"), diags));
    const Scenario before = doc.scenario();
    QSignalSpy refused(&doc, &ScenarioDocument::editRefused);
    QVERIFY(!doc.setValue("/training/seq_len", "long", "seq"));
    QCOMPARE(refused.count(), 1);
    QCOMPARE(refused.at(0).at(0).toString(), QString("/training/seq_len"));
    QVERIFY(!refused.at(0).at(1).toString().isEmpty());
    QCOMPARE(doc.scenario(), before);
    QCOMPARE(doc.undoStack()->count(), 0);

    // Readable but inconsistent: accepted, and the resolver names the path.
    QVERIFY(doc.setValue("/model/heads", 60, "heads"));
    QVERIFY(!doc.resolved());
    QVERIFY2(doc.errorAt("/model/kv_heads").contains("heads = 60"),
             qPrintable(doc.errorAt("/model/kv_heads")));
    QVERIFY(doc.setValue("/model/heads", std::nullopt, "heads"));
    QVERIFY(doc.setValue("/model/ffn_hidden", 28676, "ffn"));
    QVERIFY(doc.errorAt("/parallelism/tp").contains("ffn_hidden = 28676"));
    QVERIFY(doc.errorAt("/parallelism").contains("ffn_hidden")); // below counts too
    QVERIFY(doc.errorAt("/model/ffn_hidden").isEmpty());

    // The estimator's errors count too, until the next change; an error on an object (not a
    // whole section) marks the fields inside it.
    QSignalSpy validity(&doc, &ScenarioDocument::validityChanged);
    Diagnostics estimator;
    estimator.error("/model/moe", "not modelled yet");
    doc.setEstimateDiagnostics(estimator);
    QCOMPARE(validity.count(), 1);
    QCOMPARE(doc.errorAt("/model/moe/experts"), QString("not modelled yet"));
    QVERIFY(doc.errorAt("/model/layers").isEmpty());
    QVERIFY(doc.setValue("/model/ffn_hidden", std::nullopt, "ffn"));
    QVERIFY(doc.errorAt("/model/moe/experts").isEmpty());
    Diagnostics section;
    section.error("/parallelism", "degrees do not divide the GPU count");
    doc.setEstimateDiagnostics(section);
    QVERIFY(doc.errorAt("/parallelism/pp").isEmpty()); // a whole section marks no field
    QVERIFY(!doc.errorAt("/parallelism").isEmpty());
    QVERIFY(doc.lastResolved()); // the editors keep showing inherited values
}

void TestGuiDocument::saveReproducesTheFile_data() {
    QTest::addColumn<QString>("path");
    for (const QString& path : test::exampleFiles())
        QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void TestGuiDocument::saveReproducesTheFile() {
    QFETCH(QString, path);
    ScenarioDocument doc;
    Diagnostics diags;
    QVERIFY(doc.load(path, diags));
    QDir().mkpath(test::outputDir() + "/roundtrip");
    const QString out = test::outputDir() + "/roundtrip/" + QFileInfo(path).fileName();
    QString error;
    QVERIFY2(doc.save(out, &error), qPrintable(error));
    QCOMPARE(doc.filePath(), out);
    // The same document: every key and value, in the same order (ordered_json compares in
    // order). Byte for byte but for numbers: core's writer spells a whole-number real as
    // "367.0" where a file may say "367"; JSON compares them equal.
    const auto saved = nlohmann::ordered_json::parse(test::readAll(out));
    const auto original = nlohmann::ordered_json::parse(test::readAll(path));
    QVERIFY2(saved == original, qPrintable(QString::fromStdString(saved.dump(2))));
    ScenarioDocument reopened;
    QVERIFY(reopened.load(out, diags));
    QCOMPARE(reopened.scenario(), doc.scenario());
}

// costs.carbon_csv is relative to the scenario's folder in the app as in the CLI, whatever
// the working folder is; saved elsewhere, the path is kept as written.
void TestGuiDocument::carbonCsvBesideTheFile() {
    QTemporaryDir dir;
    QFile csv(dir.filePath("grid.csv"));
    QVERIFY(csv.open(QIODevice::WriteOnly));
    csv.write("hour,gco2_kwh\n");
    for (int h = 0; h < 24; ++h)
        csv.write(QString("T%1,%2\n").arg(h).arg(100 + h).toUtf8());
    csv.close();
    QFile file(dir.filePath("scenario.json"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "trainscape.scenario/1",
        "model": {"preset": "llama3-8b"}, "cluster": {"preset": "dgx-h100", "num_gpus": 8},
        "training": {"seq_len": 8192, "global_batch": 128, "tokens": 2e9},
        "costs": {"gpu_hour_usd": 3, "carbon_csv": "grid.csv"}})");
    file.close();
    ScenarioDocument doc;
    Diagnostics diags;
    QVERIFY(QDir::current() != QDir(dir.path()));
    QVERIFY(doc.load(dir.filePath("scenario.json"), diags));
    QVERIFY2(!doc.diagnostics().hasErrors(),
             doc.diagnostics().hasErrors() ? doc.diagnostics().errors().front().toString().c_str()
                                           : "");
    QVERIFY(doc.resolved());
    QCOMPARE(doc.resolved()->costs.gridHours.size(), std::size_t{24});
    QCOMPARE(doc.scenario().costs->carbonCsv, std::optional<std::string>("grid.csv"));
    // Saved into another folder, which holds no grid.csv: the key names what is missing.
    QTemporaryDir other;
    QString error;
    QVERIFY2(doc.save(other.filePath("moved.json"), &error), qPrintable(error));
    QVERIFY(doc.diagnostics().hasErrorAt("/costs/carbon_csv"));
}

void TestGuiDocument::editedRoundTrip() {
    ScenarioDocument doc;
    Diagnostics diags;
    QVERIFY(doc.load(example("mixtral-8x7b-64xh100.json"), diags));
    QVERIFY(doc.setValue("/training/seq_len", 8192, "seq"));
    QVERIFY(doc.setValue("/cluster/scale_out/nic_gbit_s", 200.0, "nic"));
    QVERIFY(doc.isModified());
    QTemporaryDir dir;
    const QString out = dir.filePath("edited.json");
    QString error;
    QVERIFY2(doc.save(out, &error), qPrintable(error));
    QVERIFY(!doc.isModified());
    ScenarioDocument reopened;
    QVERIFY(reopened.load(out, diags));
    QCOMPARE(reopened.scenario(), doc.scenario());
    QCOMPARE(reopened.resolved()->training.seqLen, std::int64_t(8192));
    QCOMPARE(reopened.resolved()->cluster.scaleOut.nicGbitPerS, 200.0);
}

void TestGuiDocument::degreeOptions() {
    ScenarioDocument doc;
    Diagnostics diags;
    QVERIFY(doc.load(example("llama3-70b-64xh100.json"), diags));
    const std::vector<DegreeOption> tp = PlanDegreeOptions::options(doc, "tp");
    auto find = [&](int degree) {
        for (const DegreeOption& o : tp)
            if (o.degree == degree)
                return o;
        return DegreeOption{-1, false, {}};
    };
    QVERIFY(find(4).enabled);
    QVERIFY(find(8).enabled);
    // tp 32 with pp 4 needs 128 GPUs: offered, disabled, with the resolver's reason.
    QCOMPARE(find(32).degree, 32);
    QVERIFY(!find(32).enabled);
    QVERIFY2(find(32).reason.contains("/parallelism"), qPrintable(find(32).reason));
    // Expert parallelism needs a mixture-of-experts model.
    for (const DegreeOption& o : PlanDegreeOptions::options(doc, "ep"))
        QCOMPARE(o.enabled, o.degree == 1);
}

void TestGuiDocument::huggingFaceMapping_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("preset");
    QTest::newRow("llama") << "llama3-8b"
                           << "llama3-8b";
    QTest::newRow("mixtral") << "mixtral-8x7b"
                             << "mixtral-8x7b";
    QTest::newRow("qwen3-moe") << "qwen3-30b-a3b"
                               << "qwen3-30b-a3b";
    QTest::newRow("deepseek-v3") << "deepseek-v3"
                                 << "deepseek-v3";
}

void TestGuiDocument::huggingFaceMapping() {
    QFETCH(QString, fixture);
    QFETCH(QString, preset);
    const HuggingFaceImport imported = HuggingFaceConfig::fromFile(hfFixture(fixture));
    QVERIFY2(imported.model, qPrintable(imported.error));
    // The same architecture as the catalog's preset, which cites the same config.json.
    const ModelPreset* expected = Catalog::builtIn().model(preset.toStdString());
    QVERIFY(expected);
    nlohmann::ordered_json expectedJson = nlohmann::ordered_json::object();
    writeModelFields(toModelInput(expected->model), expectedJson);
    QCOMPARE(QString::fromStdString(nlohmann::json(*imported.model).dump(1)),
             QString::fromStdString(nlohmann::json(expectedJson).dump(1)));

    // And it is a model the scenario reader accepts.
    ScenarioDocument doc;
    Diagnostics diags;
    QVERIFY(doc.load(example("llama3-8b-8xh100.json"), diags));
    QVERIFY(doc.setValues({{"/model", *imported.model}}, "import", false));
    QVERIFY(!doc.explicitValue("/model/preset"));
}

void TestGuiDocument::huggingFaceOtherFamilies() {
    // Qwen1.5-MoE-A2.7B (Qwen2-MoE keys): one shared expert of four routed experts' width.
    const HuggingFaceImport qwen2 = HuggingFaceConfig::fromText(R"({
        "model_type": "qwen2_moe", "hidden_size": 2048, "num_hidden_layers": 24,
        "num_attention_heads": 16, "num_key_value_heads": 16, "intermediate_size": 5632,
        "moe_intermediate_size": 1408, "shared_expert_intermediate_size": 5632,
        "num_experts": 60, "num_experts_per_tok": 4, "vocab_size": 151936,
        "hidden_act": "silu", "tie_word_embeddings": false, "decoder_sparse_step": 1,
        "mlp_only_layers": []})");
    QVERIFY2(qwen2.model, qPrintable(qwen2.error));
    QCOMPARE((*qwen2.model)["moe"]["shared_experts"].get<int>(), 4);
    QCOMPARE((*qwen2.model)["moe"]["experts"].get<int>(), 60);
    QCOMPARE((*qwen2.model)["head_dim"].get<int>(), 128);
    QVERIFY(qwen2.notes.isEmpty());
    QVERIFY(!(*qwen2.model)["moe"].contains("groups")); // no n_group: no group limit

    // Group-limited routing: DeepSeek-V2 limits a token to 3 of 8 device groups
    // ("group_limited_greedy"); DeepSeek-V2-Lite's "greedy" ignores its n_group.
    const char* v2 = R"({
        "model_type": "deepseek_v2", "hidden_size": 5120, "num_hidden_layers": 60,
        "num_attention_heads": 128, "intermediate_size": 12288, "moe_intermediate_size": 1536,
        "n_routed_experts": 160, "num_experts_per_tok": 6, "n_shared_experts": 2,
        "first_k_dense_replace": 1, "vocab_size": 102400, "kv_lora_rank": 512,
        "q_lora_rank": 1536, "n_group": 8, "topk_group": 3, "topk_method": "%1"})";
    const HuggingFaceImport limited =
        HuggingFaceConfig::fromText(QString(v2).arg("group_limited_greedy").toUtf8());
    QVERIFY2(limited.model, qPrintable(limited.error));
    QCOMPARE((*limited.model)["moe"]["groups"].get<int>(), 8);
    QCOMPARE((*limited.model)["moe"]["groups_per_token"].get<int>(), 3);
    const HuggingFaceImport greedy =
        HuggingFaceConfig::fromText(QString(v2).arg("greedy").toUtf8());
    QVERIFY(greedy.model);
    QVERIFY(!(*greedy.model)["moe"].contains("groups"));

    // Mistral 7B: Llama's keys; a GELU model (GPT-2 style) maps to "gelu"; an unknown
    // model_type is read with a note.
    const HuggingFaceImport mistral = HuggingFaceConfig::fromText(R"({
        "model_type": "mistral", "hidden_size": 4096, "num_hidden_layers": 32,
        "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
        "vocab_size": 32000, "sliding_window": 4096})");
    QVERIFY(mistral.model);
    QCOMPARE((*mistral.model)["kv_heads"].get<int>(), 8);
    QVERIFY((*mistral.model)["moe"].is_null());
    const HuggingFaceImport other = HuggingFaceConfig::fromText(R"({
        "model_type": "other", "hidden_size": 1024, "num_hidden_layers": 4,
        "num_attention_heads": 16, "intermediate_size": 4096, "vocab_size": 50257,
        "hidden_act": "gelu_new", "tie_word_embeddings": true})");
    QVERIFY(other.model);
    QCOMPARE((*other.model)["mlp"].get<std::string>(), std::string("gelu"));
    QCOMPARE((*other.model)["kv_heads"].get<int>(), 16);
    QVERIFY((*other.model)["tied_embeddings"].get<bool>());
    QCOMPARE(other.notes.size(), 1);
}

void TestGuiDocument::huggingFaceErrors() {
    const HuggingFaceImport broken = HuggingFaceConfig::fromFile(hfFixture("broken"));
    QVERIFY(!broken.model);
    QVERIFY2(broken.error.contains("num_hidden_layers"), qPrintable(broken.error));
    QVERIFY(!HuggingFaceConfig::fromText("not json").model);
    QVERIFY(!HuggingFaceConfig::fromFile("/nonexistent/config.json").model);
}

QTEST_MAIN(TestGuiDocument)
#include "tst_gui_document.moc"
