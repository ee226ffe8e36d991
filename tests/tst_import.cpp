// core/import: a launcher's configuration back into a scenario. Round trip: for every
// bundled example and export fixture, and every target whose files can be imported
// (megatron, slurm: the launch script; deepspeed: ds_config.json; torchtitan: the TOML),
// import(export(s)) resolves to the same launch plan as s. Unknown flags and keys are listed,
// never dropped; a hand-written Megatron-LM script reads as bash would expand it.

#include "ExportFixtures.h"

#include "export/Exporter.h"
#include "import/LaunchImport.h"
#include "import/PlanEquivalence.h"
#include "import/ShellWords.h"
#include "scenario/ScenarioIO.h"

#include <QProcess>
#include <QtTest>

using namespace ts;

namespace {

struct Importable {
    const char* target;
    const char* file;
    ImportFormat format;
};
constexpr Importable kImportable[] = {{"megatron", "train_megatron.sh", ImportFormat::Megatron},
                                      {"slurm", "train.sbatch", ImportFormat::Megatron},
                                      {"deepspeed", "ds_config.json", ImportFormat::DeepSpeed},
                                      {"torchtitan", "torchtitan.toml", ImportFormat::Torchtitan}};

std::optional<ResolvedScenario> resolveJson(const nlohmann::ordered_json& doc, QString& error) {
    Diagnostics diags;
    auto scenario = scenarioFromJson(doc, diags);
    auto plan = scenario ? resolveScenario(*scenario, Catalog::builtIn(), diags) : std::nullopt;
    for (const auto& d : diags.errors())
        error += QString::fromStdString(d.toString()) + "\n";
    return plan;
}

} // namespace

class TestImport : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data();
    void roundTrip();
    void shellWords();
    void handWrittenMegatron();
    void unknownKeysListed();
    void missingPiecesNamed();
    void badValuesNamed();
    void commandLine();
};

void TestImport::roundTrip_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<int>("which");
    for (const QString& file : test::exportScenarioFiles())
        for (int i = 0; i < int(std::size(kImportable)); ++i)
            QTest::newRow(
                qPrintable(QFileInfo(file).completeBaseName() + "/" + kImportable[i].target))
                << file << i;
}

void TestImport::roundTrip() {
    QFETCH(QString, scenario);
    QFETCH(int, which);
    const Importable& kind = kImportable[which];
    QString error;
    auto plan = test::resolveFile(scenario, error);
    QVERIFY2(plan, qPrintable(error));
    const Exporter& exporter = *findExporter(kind.target);
    ExportResult exported = exporter.render(*plan, {});
    if (!exported.ok()) { // export --adapt: the round trip holds for the adapted plan
        const AdaptedExport adapted = test::adaptFile(scenario, exporter);
        if (!adapted.ok())
            QSKIP("the target refuses this plan even adapted (ADAPTATION-REFUSED.txt)");
        plan = resolveJson(adapted.scenario, error);
        QVERIFY2(plan, qPrintable(error));
        exported = adapted.result;
    }
    for (const auto& f : exported.files)
        if (f.name == kind.file && f.text.find("run_recipe.py") != std::string::npos)
            QSKIP("a LoRA job runs Megatron-Bridge's run_recipe.py, which no importer reads");
    ImportInput input;
    for (const auto& f : exported.files) {
        if (f.name == kind.file)
            input.text = f.text;
        if (f.name.size() > 3 && f.name.compare(f.name.size() - 3, 3, ".py") == 0)
            input.companions[f.name] = f.text; // a torchtitan custom flavor's module
    }
    input.clusterPreset = plan->clusterPreset;
    input.seqLen = plan->training.seqLen;
    input.numGpus = plan->cluster.numGpus;
    if (kind.format == ImportFormat::DeepSpeed) {
        const QString hf = test::sourceDir() + "/tests/fixtures/hf/" +
                           QString::fromStdString(plan->modelPreset) + "/config.json";
        if (plan->modelPreset == "gpt3-175b") // OpenAI published no weights, so no config
            QSKIP("a DeepSpeed import takes its model from a Hugging Face config; GPT-3 has none");
        QVERIFY2(QFile::exists(hf), qPrintable("no Hugging Face config for " + hf));
        input.hfConfig = nlohmann::json::parse(test::readAll(hf));
    }
    const ImportResult imported = importLaunchConfig(kind.format, input);
    QVERIFY2(imported.scenario, imported.error.c_str());
    std::string unsupported;
    for (const auto& u : imported.unsupported)
        unsupported += u + "; ";
    QVERIFY2(imported.unsupported.empty(), unsupported.c_str());
    // Megatron-LM's fused loss is written (--cross-entropy-loss-fusion) and read back.
    if (kind.format == ImportFormat::Megatron &&
        plan->execution.crossEntropy == CrossEntropy::Fused)
        QCOMPARE(imported.scenario->value("/execution/cross_entropy"_json_pointer, std::string()),
                 std::string("fused"));
    const auto back = resolveJson(*imported.scenario, error);
    QVERIFY2(back, qPrintable(error + QString::fromStdString(imported.scenario->dump(2))));
    QString diff;
    for (const auto& path : launchPlanDifferences(*plan, *back))
        diff += QString::fromStdString(path) + " ";
    QVERIFY2(diff.isEmpty(), qPrintable("differs at " + diff + "\n" +
                                        QString::fromStdString(imported.scenario->dump(2))));
}

void TestImport::shellWords() {
    const std::string text = "A=\"x y\"\n"
                             "B=( --one \"$A\" '--two $A' )\n"
                             "if [[ -z \"${C:-}\" ]]; then C=3; fi\n"
                             "run \"${B[@]}\" --c=$C \\\n"
                             "    ${D:-dflt} \"$(hostname)\" 'it'\\''s'\n";
    const auto script = readShellCommands(text);
    const std::vector<std::string> expected = {"run",   "--one", "x y",         "--two $A",
                                               "--c=3", "dflt",  "$(hostname)", "it's"};
    QVERIFY(!script.commands.empty());
    QCOMPARE(script.commands.back(), expected);
    QCOMPARE(script.notes.size(), std::size_t(1)); // the command substitution

    // Quote removal inside ${NAME:-word} (Megatron-LM core_v0.15.0 examples/mixtral/
    // train_mixtral_8x7b_distributed.sh: NNODES=${SLURM_NNODES:-"1"}): bash gives 1, not "1".
    const auto fallback = readShellCommands("N=${SLURM_NNODES:-\"1\"}\nM=${X:-'a b'}\n"
                                            "run --nnodes $N \"$M\" ${Y:-\\\"q}\n");
    QVERIFY(!fallback.commands.empty());
    QCOMPARE(fallback.commands.back(),
             (std::vector<std::string>{"run", "--nnodes", "1", "a b", "\"q"}));
}

void TestImport::handWrittenMegatron() {
    ImportInput input;
    input.text =
        test::readAll(test::sourceDir() + "/tests/fixtures/import/megatron-handwritten.sh");
    const ImportResult r = importMegatron(input);
    QVERIFY2(r.scenario, r.error.c_str());
    const auto& p = (*r.scenario)["parallelism"];
    QCOMPARE(p["tp"].get<int>(), 4);
    QCOMPARE(p["pp"].get<int>(), 2);
    QCOMPARE(p["dp"].get<int>(), 4);
    QCOMPARE(p["zero"].get<int>(), 1);
    QCOMPARE(p["recompute"].get<std::string>(), std::string("selective"));
    QCOMPARE((*r.scenario)["cluster"]["num_gpus"].get<int>(), 32);
    QCOMPARE((*r.scenario)["model"]["kv_heads"].get<int>(), 8);
    QCOMPARE(r.unsupported, (std::vector<std::string>{"--my-custom-flag 7", "--manual-gc"}));
    QVERIFY(std::find(r.ignored.begin(), r.ignored.end(), "--save") != r.ignored.end());
    QString error;
    QVERIFY2(resolveJson(*r.scenario, error), qPrintable(error));
}

void TestImport::unknownKeysListed() {
    ImportInput ds;
    ds.text = R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 2,
                  "gradient_accumulation_steps": 4, "bf16": {"enabled": true},
                  "zero_optimization": {"stage": 2, "made_up_key": 1},
                  "flops_profiler": {"enabled": true}, "curriculum_learning": {"enabled": true}})";
    ds.hfConfig = nlohmann::json::parse(
        test::readAll(test::sourceDir() + "/tests/fixtures/hf/llama3-8b/config.json"));
    ds.seqLen = 4096;
    const ImportResult r = importDeepSpeed(ds);
    QVERIFY2(r.scenario, r.error.c_str());
    QCOMPARE((*r.scenario)["cluster"]["num_gpus"].get<int>(), 8);
    QCOMPARE(r.unsupported, (std::vector<std::string>{"zero_optimization.made_up_key",
                                                      "curriculum_learning.enabled"}));
    ImportInput tt;
    tt.text = "[model]\nname = 'llama3'\nflavor = '8B'\n[parallelism]\n"
              "data_parallel_shard_degree = 8\nfancy = true\n[training]\nseq_len = 4096\n"
              "global_batch_size = 64\nlocal_batch_size = 2\n[compile]\nenable = true\n";
    const ImportResult t = importTorchtitan(tt);
    QVERIFY2(t.scenario, t.error.c_str());
    QCOMPARE(t.unsupported, std::vector<std::string>{"parallelism.fancy"});
    QCOMPARE((*t.scenario)["training"]["compile"], nlohmann::ordered_json(true)); // compile.enable
    QCOMPARE((*t.scenario)["execution"]["framework"], nlohmann::ordered_json("pytorch"));
}

void TestImport::missingPiecesNamed() {
    ImportInput ds;
    ds.text = R"({"train_batch_size": 64})";
    QVERIFY(QString::fromStdString(importDeepSpeed(ds).error).contains("--hf-config"));
    ImportInput mg;
    mg.text = "python pretrain_gpt.py --num-layers 2";
    QVERIFY(QString::fromStdString(importMegatron(mg).error).contains("--nnodes"));
    ImportInput tt;
    tt.text = "[model]\nname = 'gpt'\nflavor = 'x'\n";
    QVERIFY(QString::fromStdString(importTorchtitan(tt).error).contains("flavor"));
    tt.text = "not = [toml";
    QVERIFY(QString::fromStdString(importTorchtitan(tt).error).startsWith("not TOML"));
}

// Found by the fuzz harnesses (tests/fuzz/regressions/import_*): a degree of 0 divided by zero,
// degrees multiplied past int64, and a key of the wrong type threw out of the importer. Each is
// now refused naming the key and what would be right.
void TestImport::badValuesNamed() {
    const std::string flavor8b = "[model]\nname = 'llama3'\nflavor = '8B'\n";
    ImportInput tt;
    tt.text = flavor8b + "[parallelism]\ndata_parallel_shard_degree = 8\n"
                         "pipeline_parallel_degree = 0\n";
    QCOMPARE(importTorchtitan(tt).error,
             std::string("parallelism.pipeline_parallel_degree 0: expected a whole number from 1 "
                         "to 1000000 (40x the largest published training run)"));
    tt.text = flavor8b + "[parallelism]\ndata_parallel_shard_degree = 1000000\n"
                         "tensor_parallel_degree = 1000000\ncontext_parallel_degree = 1000000\n";
    QVERIFY(QString::fromStdString(importTorchtitan(tt).error)
                .startsWith("parallelism: the degrees multiply to 1000000000000000000"));
    tt.text = flavor8b + "[optimizer]\nimplementation = 'multi_tensor'\n";
    QCOMPARE(importTorchtitan(tt).error,
             std::string("optimizer.implementation \"multi_tensor\": expected \"fused\", "
                         "\"foreach\" or \"for-loop\""));
    tt.text = flavor8b + "[optimizer]\nimplementation = 3\n";
    QCOMPARE(importTorchtitan(tt).error,
             std::string("optimizer.implementation: expected \"fused\", \"foreach\" or "
                         "\"for-loop\""));
    tt.text = flavor8b + "[parallelism]\ndata_parallel_shard_degree = 8\n[optimizer]\n"
                         "implementation = 'for-loop'\n";
    const ImportResult loop = importTorchtitan(tt);
    QVERIFY2(loop.scenario, loop.error.c_str());
    QCOMPARE(loop.scenario->at("training").at("optimizer_impl").get<std::string>(),
             std::string("for_loop"));
    ImportInput ds;
    ds.hfConfig = nlohmann::json::parse(
        test::readAll(test::sourceDir() + "/tests/fixtures/hf/llama3-8b/config.json"));
    ds.seqLen = 4096;
    const std::string batch = R"("train_batch_size": 64, "train_micro_batch_size_per_gpu": 2,
                                 "gradient_accumulation_steps": 4)";
    ds.text = "{" + batch + R"(, "optimizer": {"type": true}})";
    QCOMPARE(importDeepSpeed(ds).error, std::string("optimizer.type: expected a string"));
    ds.text = "{" + batch + R"(, "zero_optimization": {"offload_param": {"device": 3}}})";
    QCOMPARE(importDeepSpeed(ds).error,
             std::string("zero_optimization.offload_param.device: expected a string"));
    ds.text = "{" + batch + R"(, "pipeline": {"stages": 0}, "activation_checkpointing": {}})";
    QVERIFY(QString::fromStdString(importDeepSpeed(ds).error)
                .startsWith("pipeline.stages: expected a whole number from 1 to 128"));
    ds.text = R"({"train_batch_size": 0, "train_micro_batch_size_per_gpu": 4294967296,
                  "gradient_accumulation_steps": 4294967296})";
    QVERIFY(QString::fromStdString(importDeepSpeed(ds).error)
                .startsWith("train_batch_size: expected a whole number from 1 to 4294967296"));
}

void TestImport::commandLine() {
    QProcess run;
    run.start(test::binDir() + "/trainscape-cli",
              {"import", test::sourceDir() + "/tests/fixtures/import/megatron-handwritten.sh",
               "--from", "megatron"});
    QVERIFY(run.waitForFinished(20000));
    QCOMPARE(run.exitCode(), 0);
    const auto scenario = nlohmann::json::parse(run.readAllStandardOutput().toStdString());
    QCOMPARE(scenario["format"].get<std::string>(), std::string("trainscape.scenario/1"));
    QVERIFY(QString::fromUtf8(run.readAllStandardError()).contains("--my-custom-flag 7"));
    run.start(test::binDir() + "/trainscape-cli",
              {"import", test::sourceDir() + "/README.md", "--from", "slurm"});
    QVERIFY(run.waitForFinished(20000));
    QCOMPARE(run.exitCode(), 2);
}

QTEST_GUILESS_MAIN(TestImport)
#include "tst_import.moc"
