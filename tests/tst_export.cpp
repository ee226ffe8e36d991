// Launch configurations (core/export): every target on every bundled example and export
// fixture against its golden files (or its golden refusal), shell quoting that survives
// spaces, quotes and '$', refusals that name the field, and atomic writing.
// The real parsers (tomllib, PyYAML, yamllint, json, bash -n, shellcheck), the flag and key
// lists of the targets' sources and the C7 invariants run over the golden files in
// tests/check_export.py (ctest export_formats). TRAINSCAPE_UPDATE_GOLDENS=1 rewrites them.

#include "ExportFixtures.h"

#include "export/Exporter.h"
#include "export/ShellScript.h"

#include <yaml-cpp/yaml.h>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace ts;

namespace {

QString refusalText(const ExportResult& result) {
    QString text;
    for (const auto& r : result.refusals)
        text += QString::fromStdString(r.toString()) + "\n";
    return text;
}

bool updating() {
    return qEnvironmentVariableIntValue("TRAINSCAPE_UPDATE_GOLDENS") == 1;
}

void writeText(const QString& path, const QString& text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text.toUtf8());
}

// A golden folder: the launch files; or REFUSED.txt (the target's refusal as it is) with the
// adapted export's files (--adapt), or with ADAPTATION-REFUSED.txt when no adapted plan runs.
void writeGolden(const QString& dir, const ExportResult& result, const AdaptedExport* adapted) {
    QDir(dir).removeRecursively();
    QDir().mkpath(dir);
    std::string error;
    if (result.refusals.empty()) {
        QVERIFY2(writeExport(result, dir.toStdString(), error), error.c_str());
        return;
    }
    writeText(dir + "/REFUSED.txt", refusalText(result));
    if (adapted->ok()) {
        QVERIFY2(writeExport(adapted->result, dir.toStdString(), error), error.c_str());
    } else {
        ExportResult refused;
        refused.refusals = adapted->refusals;
        writeText(dir + "/ADAPTATION-REFUSED.txt", refusalText(refused));
    }
}

// ADAPTATION.md's figures come from the estimator, which other work calibrates: the golden
// holds the list of changes exactly and the figures' table by its rows.
std::string changesPart(const std::string& notes) {
    return notes.substr(0, notes.find("Re-estimated"));
}

// Files an export may add to the target's own: a torchtitan custom flavor's module and the
// adapted scenario with its notes.
bool extraFile(const QString& name) {
    return name == "trainscape_flavor.py" || name == kAdaptedScenarioFile ||
           name == kAdaptationNotesFile;
}

void compareFiles(const QString& dir, const Exporter& exporter, const ExportResult& result,
                  QStringList& names) {
    for (const auto& f : result.files) {
        const QString name = QString::fromStdString(f.name);
        names << name;
        const std::string golden = test::readAll(dir + "/" + name);
        if (name == kAdaptationNotesFile) {
            QCOMPARE(changesPart(f.text), changesPart(golden));
            QVERIFY(f.text.find("| Step time |") != std::string::npos);
            QVERIFY(f.text.find("| Peak memory per GPU |") != std::string::npos);
            continue;
        }
        QVERIFY2(golden == f.text, qPrintable("differs from the golden: " + dir + "/" + name));
    }
    QStringList own;
    for (const auto& f : result.files)
        if (!extraFile(QString::fromStdString(f.name)))
            own << QString::fromStdString(f.name);
    QStringList expected;
    for (const auto& name : exporter.fileNames())
        expected << QString::fromStdString(name);
    QCOMPARE(own, expected);
}

ExportResult renderFile(const QString& scenario, const Exporter& exporter) {
    QString error;
    auto plan = test::resolveFile(scenario, error);
    if (!plan)
        return {{}, {{"", error.toStdString()}}};
    return exporter.render(*plan, {});
}

QString dryRun(const QString& script, const QStringList& env = {}) {
    QProcess bash;
    auto environment = QProcessEnvironment::systemEnvironment();
    environment.insert("DRY_RUN", "1");
    for (const QString& kv : env)
        environment.insert(kv.section('=', 0, 0), kv.section('=', 1));
    bash.setProcessEnvironment(environment);
    bash.start("bash", {script});
    bash.waitForFinished(20000);
    return QString::fromUtf8(bash.readAllStandardOutput());
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT
private slots:
    void everyTargetHasFiles();
    void goldens_data();
    void goldens();
    void refusalsNameTheField_data();
    void refusalsNameTheField();
    void shellQuoting();
    void valuesWithSpacesAndDollars();
    void writeIsAtomic();
    void refusedResultWritesNothing();
    void adaptation_data();
    void adaptation();
    void commandLine();
    void torchtuneRefusals_data();
    void torchtuneRefusals();
    void torchtuneRecipes_data();
    void torchtuneRecipes();
    void torchtuneDataPath();
    void torchtuneLoss();
};

void TestExport::everyTargetHasFiles() {
    QCOMPARE(exporters().size(), std::size_t(7));
    for (const auto& e : exporters()) {
        QVERIFY(findExporter(e->id()) == e.get());
        QVERIFY(!e->fileNames().empty());
        QVERIFY(!e->title().empty());
    }
    QVERIFY(findExporter("nemo-run") == nullptr);
}

void TestExport::goldens_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("target");
    for (const QString& file : test::exportScenarioFiles())
        for (const auto& e : exporters()) {
            const QString target = QString::fromStdString(std::string(e->id()));
            QTest::newRow(qPrintable(QFileInfo(file).completeBaseName() + "/" + target))
                << file << target;
        }
}

void TestExport::goldens() {
    QFETCH(QString, scenario);
    QFETCH(QString, target);
    const Exporter* exporter = findExporter(target.toStdString());
    QVERIFY(exporter);
    const ExportResult result = renderFile(scenario, *exporter);
    const QString dir = test::goldenDir(scenario, target);
    std::optional<AdaptedExport> adapted;
    if (!result.refusals.empty())
        adapted = test::adaptFile(scenario, *exporter);
    if (updating())
        writeGolden(dir, result, adapted ? &*adapted : nullptr);
    QStringList names;
    if (!result.refusals.empty()) {
        QVERIFY(result.files.empty());
        QCOMPARE(refusalText(result), QString::fromStdString(test::readAll(dir + "/REFUSED.txt")));
        names << "REFUSED.txt";
        if (adapted->ok()) {
            QVERIFY(!adapted->changes.empty());
            compareFiles(dir, *exporter, adapted->result, names);
        } else {
            ExportResult refused;
            refused.refusals = adapted->refusals;
            QCOMPARE(refusalText(refused),
                     QString::fromStdString(test::readAll(dir + "/ADAPTATION-REFUSED.txt")));
            names << "ADAPTATION-REFUSED.txt";
        }
    } else {
        QVERIFY2(!QFile::exists(dir + "/REFUSED.txt"),
                 "the golden says refused, the exporter wrote");
        compareFiles(dir, *exporter, result, names);
    }
    names.sort();
    QCOMPARE(QDir(dir).entryList(QDir::Files, QDir::Name), names);
}

void TestExport::refusalsNameTheField_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("path");
    const QString ex = test::sourceDir() + "/resources/examples/";
    QTest::newRow("megatron zero-bubble") << "megatron" << ex + "deepseek-v3-1024xh100.json"
                                          << "/parallelism/schedule";
    QTest::newRow("bridge 5 of 8 layers with vpp 2")
        << "bridge" << ex + "llama3.1-405b-2048xh100.json"
        << "/parallelism/recompute_layers";
    QTest::newRow("deepspeed selective") << "deepspeed" << ex + "mixtral-8x7b-64xh100.json"
                                         << "/parallelism/recompute";
    QTest::newRow("deepspeed fp8") << "deepspeed" << ex + "deepseek-v3-1024xh100.json"
                                   << "/training/precision";
    QTest::newRow("torchtitan zero 1") << "torchtitan" << ex + "llama3-70b-64xh100.json"
                                       << "/parallelism/zero";
    QTest::newRow("torchtitan gelu, no custom flavor")
        << "torchtitan" << ex + "gpt3-175b-1024xa100.json"
        << "/model/mlp";
    QTest::newRow("torchtune pre-training") << "torchtune" << ex + "llama3-8b-8xh100.json"
                                            << "/finetune";
    QTest::newRow("megatron qlora") << "megatron" << ex + "llama3.1-8b-qlora-1xrtx4090.json"
                                    << "/finetune";
}

void TestExport::refusalsNameTheField() {
    QFETCH(QString, target);
    QFETCH(QString, scenario);
    QFETCH(QString, path);
    const ExportResult result = renderFile(scenario, *findExporter(target.toStdString()));
    QVERIFY(!result.ok());
    QVERIFY(result.files.empty());
    bool named = false;
    for (const auto& r : result.refusals)
        named = named || QString::fromStdString(r.path) == path;
    QVERIFY2(named, qPrintable(refusalText(result)));
}

void TestExport::shellQuoting() {
    QCOMPARE(QString::fromStdString(shellQuote("plain/path-1.0")), QString("plain/path-1.0"));
    QCOMPARE(QString::fromStdString(shellQuote("a b")), QString("'a b'"));
    QCOMPARE(QString::fromStdString(shellQuote("$HOME")), QString("'$HOME'"));
    QCOMPARE(QString::fromStdString(shellQuote("it's")), QString("'it'\\''s'"));
    QCOMPARE(QString::fromStdString(shellQuote("")), QString("''"));
    QCOMPARE(QString::fromStdString(shellWord("$LR")), QString("\"${LR}\""));
    QCOMPARE(QString::fromStdString(commentText("a\nb")), QString("a b"));
}

// What bash hands to torchrun is exactly what the user typed, whatever it holds.
void TestExport::valuesWithSpacesAndDollars() {
    QString error;
    auto plan = test::resolveFile(test::exampleFiles().filter("llama3-8b").front(), error);
    QVERIFY2(plan, qPrintable(error));
    ExportOptions options;
    options.dataPath = "/data/my corpus/$USER's \"text\"_document";
    options.megatronDir = "/opt/Megatron LM $v1";
    options.slurmPartition = "gpu batch";
    QTemporaryDir dir;
    for (const char* target : {"megatron", "slurm"}) {
        const ExportResult result = findExporter(target)->render(*plan, options);
        QVERIFY(result.ok());
        std::string werror;
        QVERIFY(writeExport(result, dir.path().toStdString(), werror));
        const QString script = dir.filePath(QString::fromStdString(result.files.front().name));
        const QStringList words = dryRun(script).split('\n');
        QVERIFY2(words.contains(QString::fromStdString(options.dataPath)), target);
        QVERIFY2(words.contains("/opt/Megatron LM $v1/pretrain_gpt.py"), target);
        QProcess check;
        check.start("bash", {"-n", script});
        QVERIFY(check.waitForFinished(10000));
        QCOMPARE(check.exitCode(), 0);
    }
    // The environment overrides a default without being re-expanded.
    const ExportResult result = findExporter("megatron")->render(*plan, {});
    std::string werror;
    QVERIFY(writeExport(result, dir.path().toStdString(), werror));
    const QStringList words =
        dryRun(dir.filePath("train_megatron.sh"), {"MEGATRON_LM=/x/$(rm -rf /)"}).split('\n');
    QVERIFY(words.contains("/x/$(rm -rf /)/pretrain_gpt.py"));
}

void TestExport::writeIsAtomic() {
    QTemporaryDir dir;
    const QString out = dir.filePath("nested/out");
    ExportResult result;
    result.files.push_back({"a.sh", "#!/bin/sh\necho new\n", FileSyntax::Shell, true});
    result.files.push_back({"b.json", "{}\n", FileSyntax::Json});
    QDir().mkpath(out);
    {
        QFile old(out + "/b.json");
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old contents, longer than the new ones");
    }
    std::string error;
    QVERIFY2(writeExport(result, out.toStdString(), error), error.c_str());
    QCOMPARE(QString::fromStdString(test::readAll(out + "/b.json")), QString("{}\n"));
    QVERIFY(QFileInfo(out + "/a.sh").isExecutable());
    QVERIFY(!QFileInfo(out + "/b.json").isExecutable());
    QCOMPARE(QDir(out).entryList(QDir::Files | QDir::Hidden).size(), 2); // no temporaries left
    // A folder that cannot be created is an error, not a crash.
    QFile blocker(dir.filePath("file"));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    QVERIFY(!writeExport(result, dir.filePath("file/sub").toStdString(), error));
    QVERIFY(!error.empty());
}

void TestExport::refusedResultWritesNothing() {
    QTemporaryDir dir;
    ExportResult result;
    result.files.push_back({"x.sh", "echo\n", FileSyntax::Shell});
    result.refusals.push_back({"/parallelism/zero", "no"});
    std::string error;
    QVERIFY(!writeExport(result, dir.filePath("out").toStdString(), error));
    QVERIFY(QString::fromStdString(error).contains("/parallelism/zero"));
    QVERIFY(!QFile::exists(dir.filePath("out/x.sh")));
}

// --adapt: the nearest plan a target runs, its first change, re-estimated; or refused by name
// when no adapted plan fits in memory.
void TestExport::adaptation_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("path");   // the first change, or the refusal's field
    QTest::addColumn<QString>("before"); // JSON text; empty: the adaptation is refused
    QTest::addColumn<QString>("after");
    const QString ex = test::sourceDir() + "/resources/examples/";
    QTest::newRow("deepspeed selective recompute") << "deepspeed" << ex + "llama3-8b-8xh100.json"
                                                   << "/parallelism/recompute"
                                                   << "\"selective\""
                                                   << "\"full\"";
    QTest::newRow("torchtitan zero 1") << "torchtitan" << ex + "llama3-70b-64xh100.json"
                                       << "/parallelism/zero"
                                       << "1"
                                       << "2";
    QTest::newRow("megatron zero-bubble") << "megatron" << ex + "deepseek-v3-1024xh100.json"
                                          << "/parallelism/schedule"
                                          << "\"zero-bubble\""
                                          << "\"1f1b\"";
    QTest::newRow("megatron recompute per chunk")
        << "megatron" << ex + "llama3.1-405b-2048xh100.json"
        << "/parallelism/recompute_layers"
        << "5"
        << "6";
    QTest::newRow("torchtitan gelu") << "torchtitan" << ex + "gpt3-175b-1024xa100.json"
                                     << "/model/mlp"
                                     << "\"gelu\""
                                     << "\"swiglu\"";
    QTest::newRow("deepspeed fp8") << "deepspeed" << ex + "deepseek-v3-1024xh100.json"
                                   << "/training/precision"
                                   << "\"fp8\""
                                   << "\"bf16\"";
    QTest::newRow("torchtune selective recompute")
        << "torchtune"
        << test::sourceDir() +
               "/tests/fixtures/export/scenarios/llama3-8b-full-finetune-8xh100.json"
        << "/parallelism/recompute"
        << "\"selective\""
        << "\"full\"";
    QTest::newRow("megatron qlora: full fine-tuning does not fit")
        << "megatron" << ex + "llama3.1-8b-qlora-1xrtx4090.json"
        << "/finetune"
        << ""
        << "";
}

void TestExport::adaptation() {
    QFETCH(QString, target);
    QFETCH(QString, scenario);
    QFETCH(QString, path);
    QFETCH(QString, before);
    QFETCH(QString, after);
    const Exporter& exporter = *findExporter(target.toStdString());
    QVERIFY(!renderFile(scenario, exporter).ok()); // refused without --adapt
    const AdaptedExport adapted = test::adaptFile(scenario, exporter);
    if (before.isEmpty()) {
        QVERIFY(!adapted.ok());
        QCOMPARE(QString::fromStdString(adapted.refusals.front().path), path);
        QVERIFY2(adapted.refusals.front().message.find("no adapted plan fits in memory") !=
                     std::string::npos,
                 adapted.refusals.front().message.c_str());
        QVERIFY(adapted.result.files.empty());
        return;
    }
    QVERIFY2(adapted.ok(),
             adapted.refusals.empty() ? "no files" : adapted.refusals.front().toString().c_str());
    QVERIFY(!adapted.changes.empty());
    const PlanChange* change = nullptr;
    for (const auto& c : adapted.changes)
        if (QString::fromStdString(c.path) == path)
            change = &c;
    QVERIFY2(change, qPrintable("no change at " + path));
    QCOMPARE(QString::fromStdString(change->before.dump()), before);
    QCOMPARE(QString::fromStdString(change->after.dump()), after);
    QVERIFY(!change->reason.empty());
    QVERIFY(adapted.before.stepSeconds > 0 && adapted.after.stepSeconds > 0);
    QVERIFY(adapted.after.fits && adapted.after.peakBytes <= adapted.after.capacityBytes);
    // The adapted scenario is what the files were made from: it resolves, and the target
    // takes it as it is.
    QTemporaryDir dir;
    const QString file = dir.filePath("adapted.json");
    writeText(file, QString::fromStdString(adapted.scenario.dump(2)));
    const ExportResult again = renderFile(file, exporter);
    QVERIFY2(again.ok(), again.refusals.empty() ? "" : again.refusals.front().toString().c_str());
    const std::string& notes = adapted.result.files.back().text;
    QCOMPARE(adapted.result.files.back().name, std::string(kAdaptationNotesFile));
    QVERIFY(notes.find("`" + change->path + "`") != std::string::npos);
}

// trainscape-cli export: files listed with --json, exit 2 naming the field on a refusal.
void TestExport::commandLine() {
    QTemporaryDir dir;
    const QString cli = test::binDir() + "/trainscape-cli";
    const QString example = test::sourceDir() + "/resources/examples/";
    QProcess run;
    run.start(cli, {"export", example + "llama3-8b-8xh100.json", "--target", "deepspeed", "--out",
                    dir.filePath("ds"), "--json"});
    QVERIFY(run.waitForFinished(20000));
    QCOMPARE(run.exitCode(), 2); // selective recompute
    const auto refused = nlohmann::json::parse(run.readAllStandardOutput().toStdString());
    QCOMPARE(refused["refusals"][0]["path"].get<std::string>(),
             std::string("/parallelism/recompute"));
    const QString refusal = QString::fromUtf8(run.readAllStandardError());
    QVERIFY(refusal.contains("/parallelism/recompute"));
    QVERIFY(refusal.contains("--adapt"));
    QVERIFY(!QDir(dir.filePath("ds")).exists());

    run.start(cli, {"export", example + "llama3-8b-8xh100.json", "--target", "deepspeed", "--out",
                    dir.filePath("ds"), "--adapt", "--json"});
    QVERIFY(run.waitForFinished(20000));
    QCOMPARE(run.exitCode(), 0);
    const auto adapted = nlohmann::json::parse(run.readAllStandardOutput().toStdString());
    QVERIFY(adapted["adapted"].get<bool>());
    const auto& change = adapted["adaptation"]["changes"][0];
    QCOMPARE(change["path"].get<std::string>(), std::string("/parallelism/recompute"));
    QCOMPARE(change["before"].get<std::string>(), std::string("selective"));
    QCOMPARE(change["after"].get<std::string>(), std::string("full"));
    QVERIFY(adapted["adaptation"]["after"]["fits"].get<bool>());
    QVERIFY(adapted["adaptation"]["after"]["step_seconds"].get<double>() > 0);
    QVERIFY(QFile::exists(dir.filePath("ds/ds_config.json")));
    QVERIFY(QFile::exists(dir.filePath("ds/ADAPTATION.md")));
    run.start(cli, {"validate", dir.filePath("ds/adapted-scenario.json")});
    QVERIFY(run.waitForFinished(20000));
    QCOMPARE(run.exitCode(), 0);

    run.start(cli, {"export", example + "llama3.1-8b-qlora-1xrtx4090.json", "--target", "megatron",
                    "--out", dir.filePath("q"), "--adapt"});
    QVERIFY(run.waitForFinished(20000));
    QCOMPARE(run.exitCode(), 2);
    QVERIFY(QString::fromUtf8(run.readAllStandardError()).contains("no adapted plan fits"));
    QVERIFY(!QDir(dir.filePath("q")).exists());

    run.start(cli, {"export", example + "llama3-8b-8xh100.json", "--target", "torchtitan", "--out",
                    dir.filePath("tt"), "--json"});
    QVERIFY(run.waitForFinished(20000));
    QCOMPARE(run.exitCode(), 0);
    const auto written = nlohmann::json::parse(run.readAllStandardOutput().toStdString());
    QCOMPARE(written["files"].size(), std::size_t(2));
    QVERIFY(QFile::exists(dir.filePath("tt/torchtitan.toml")));
    // --adapt on a plan the target takes as it is changes nothing and adds no file.
    run.start(cli, {"export", example + "llama3-8b-8xh100.json", "--target", "torchtitan", "--out",
                    dir.filePath("tt2"), "--adapt", "--json"});
    QVERIFY(run.waitForFinished(20000));
    QCOMPARE(run.exitCode(), 0);
    const auto same = nlohmann::json::parse(run.readAllStandardOutput().toStdString());
    QVERIFY(!same["adapted"].get<bool>());
    QCOMPARE(same["files"].size(), std::size_t(2));
    QVERIFY(!QFile::exists(dir.filePath("tt2/adapted-scenario.json")));

    run.start(cli, {"export", example + "llama3-8b-8xh100.json", "--target", "nemo-run", "--out",
                    dir.filePath("x")});
    QVERIFY(run.waitForFinished(20000));
    QCOMPARE(run.exitCode(), 2);
    QVERIFY(QString::fromUtf8(run.readAllStandardError()).contains("megatron, bridge"));
}

namespace {

ResolvedScenario qloraPlan() {
    QString error;
    auto plan = test::resolveFile(
        test::sourceDir() + "/resources/examples/llama3.1-8b-qlora-1xrtx4090.json", error);
    if (!plan)
        qFatal("%s", qPrintable(error));
    return *plan;
}

using PlanEdit = std::function<void(ResolvedScenario&)>;

} // namespace

Q_DECLARE_METATYPE(PlanEdit)

// Each setting torchtune v0.6.1's recipes cannot run is refused by its path, one at a time, on
// the QLoRA example (which torchtune takes as it is).
void TestExport::torchtuneRefusals_data() {
    QTest::addColumn<PlanEdit>("edit");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("words"); // in the message
    QTest::newRow("pipeline") << PlanEdit([](ResolvedScenario& p) {
        p.cluster.numGpus = p.cluster.gpusPerNode = 2;
        p.parallel.pp = 2;
    }) << "/parallelism/pp"
                              << "no pipeline parallelism";
    QTest::newRow("tp with LoRA") << PlanEdit([](ResolvedScenario& p) {
        p.cluster.numGpus = p.cluster.gpusPerNode = 2;
        p.parallel.tp = 2;
    }) << "/parallelism/tp"
                                  << "lora_finetune_distributed";
    QTest::newRow("a model without a builder")
        << PlanEdit([](ResolvedScenario& p) { p.model.hidden = 5120; }) << "/model"
        << "llama3_1_8b";
    QTest::newRow("mixture of experts") << PlanEdit([](ResolvedScenario& p) {
        p.model.moe = MoeConfig{8, 2, 14336, 0, 0, {}, {}, {}};
    }) << "/model/moe"
                                        << "no mixture-of-experts builder";
    QTest::newRow("half the MLP") << PlanEdit([](ResolvedScenario& p) {
        p.finetune->targets = {LoraTarget::QProj, LoraTarget::VProj, LoraTarget::GateProj};
    }) << "/finetune/lora_targets"
                                  << "apply_lora_to_mlp";
    QTest::newRow("no attention adapter") << PlanEdit([](ResolvedScenario& p) {
        p.finetune->targets = {LoraTarget::GateProj, LoraTarget::UpProj, LoraTarget::DownProj};
    }) << "/finetune/lora_targets"
                                          << "lora_attn_modules";
    QTest::newRow("int8 base for QLoRA")
        << PlanEdit([](ResolvedScenario& p) { p.finetune->baseWeights = BaseWeights::Int8; })
        << "/finetune/base_weights"
        << "NF4";
    QTest::newRow("single quantisation")
        << PlanEdit([](ResolvedScenario& p) { p.finetune->doubleQuant = false; })
        << "/finetune/double_quant"
        << "NF4Tensor";
    QTest::newRow("selective recompute")
        << PlanEdit([](ResolvedScenario& p) { p.parallel.recompute = RecomputeMode::Selective; })
        << "/parallelism/recompute"
        << "whole transformer layers";
    QTest::newRow("activation offload without checkpointing") << PlanEdit([](ResolvedScenario& p) {
        p.parallel.recompute = RecomputeMode::None;
        p.parallel.offload.activations = OffloadTarget::Cpu;
    }) << "/parallelism/offload/activations"
                                                              << "activation checkpointing";
    QTest::newRow("optimizer offload on one GPU")
        << PlanEdit([](ResolvedScenario& p) { p.parallel.offload.optimizer = OffloadTarget::Cpu; })
        << "/parallelism/offload/optimizer"
        << "fsdp_cpu_offload";
    QTest::newRow("optimizer in backward with LoRA")
        << PlanEdit([](ResolvedScenario& p) { p.training.optimizerInBackward = true; })
        << "/training/optimizer_in_backward"
        << "LoRA recipes";
    QTest::newRow("FP32 master weights")
        << PlanEdit([](ResolvedScenario& p) { p.training.masterWeights = true; })
        << "/training/master_weights"
        << "no FP32 master copy";
    QTest::newRow("fp16") << PlanEdit([](ResolvedScenario& p) {
        p.training.precision = Precision::Fp16;
    }) << "/training/precision"
                          << "bf16 or fp32";
    QTest::newRow("sgd") << PlanEdit([](ResolvedScenario& p) {
        p.training.optimizer = OptimizerKind::Sgd;
    }) << "/training/optimizer"
                         << "PagedAdamW8bit";
    QTest::newRow("pre-training") << PlanEdit([](ResolvedScenario& p) { p.finetune.reset(); })
                                  << "/finetune"
                                  << "pre-trains";
}

void TestExport::torchtuneRefusals() {
    QFETCH(PlanEdit, edit);
    QFETCH(QString, path);
    QFETCH(QString, words);
    const Exporter& torchtune = *findExporter("torchtune");
    ResolvedScenario plan = qloraPlan();
    QVERIFY(torchtune.render(plan, {}).ok());
    edit(plan);
    const ExportResult result = torchtune.render(plan, {});
    QVERIFY(result.files.empty());
    QVERIFY2(!result.refusals.empty(), "not refused");
    QCOMPARE(QString::fromStdString(result.refusals.front().path), path);
    QVERIFY2(QString::fromStdString(result.refusals.front().message).contains(words),
             result.refusals.front().message.c_str());
}

// The recipe, the builder and the settings torchtune reads, read back with yaml-cpp; the key
// lists of the recipes and the finetune-dev runs are checked in check_export.py.
void TestExport::torchtuneRecipes_data() {
    QTest::addColumn<PlanEdit>("edit");
    QTest::addColumn<QString>("recipe");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("key");   // a top-level key
    QTest::addColumn<QString>("value"); // its scalar value
    QTest::newRow("QLoRA on one GPU")
        << PlanEdit([](ResolvedScenario&) {}) << "lora_finetune_single_device"
        << "torchtune.models.llama3_1.qlora_llama3_1_8b"
        << "gradient_accumulation_steps"
        << "8";
    QTest::newRow("LoRA on 8 GPUs") << PlanEdit([](ResolvedScenario& p) {
        p.finetune->method = FinetuneMethod::Lora;
        p.finetune->baseWeights = BaseWeights::Bf16;
        p.cluster.numGpus = 8;
        p.cluster.gpusPerNode = 8;
        p.parallel.dp = 8;
        p.parallel.dpShard = 8;
        p.parallel.zero = 3;
    }) << "lora_finetune_distributed"
                                    << "torchtune.models.llama3_1.lora_llama3_1_8b"
                                    << "gradient_accumulation_steps"
                                    << "1";
    QTest::newRow("full with 8-bit Adam in the backward") << PlanEdit([](ResolvedScenario& p) {
        p.finetune->method = FinetuneMethod::Full;
        p.finetune->baseWeights = BaseWeights::Bf16;
        p.finetune->targets.clear();
        p.training.optimizer = OptimizerKind::Adam8bit;
        p.training.optimizerInBackward = true;
        p.training.globalBatch = 2;
    }) << "full_finetune_single_device"
                                                          << "torchtune.models.llama3_1.llama3_1_8b"
                                                          << "optimizer_in_bwd"
                                                          << "true";
    QTest::newRow("full with tensor parallelism") << PlanEdit([](ResolvedScenario& p) {
        p.finetune->method = FinetuneMethod::Full;
        p.finetune->baseWeights = BaseWeights::Bf16;
        p.finetune->targets.clear();
        p.cluster.numGpus = 8;
        p.cluster.gpusPerNode = 8;
        p.parallel.tp = 2;
        p.parallel.overlap.tp = false;
        p.parallel.dp = 4;
        p.parallel.dpShard = 4;
        p.parallel.zero = 3;
        p.training.globalBatch = 8;
    }) << "full_finetune_distributed"
                                                  << "torchtune.models.llama3_1.llama3_1_8b"
                                                  << "tensor_parallel_dim"
                                                  << "2";
    QTest::newRow("no preset: llama3_1, the alternatives named")
        << PlanEdit([](ResolvedScenario& p) { p.modelPreset.clear(); })
        << "lora_finetune_single_device"
        << "torchtune.models.llama3_1.qlora_llama3_1_8b"
        << "compile"
        << "true";
    QTest::newRow("Llama 3 by its preset")
        << PlanEdit([](ResolvedScenario& p) { p.modelPreset = "llama3-8b"; })
        << "lora_finetune_single_device"
        << "torchtune.models.llama3.qlora_llama3_8b"
        << "dtype"
        << "bf16";
}

void TestExport::torchtuneRecipes() {
    QFETCH(PlanEdit, edit);
    QFETCH(QString, recipe);
    QFETCH(QString, model);
    QFETCH(QString, key);
    QFETCH(QString, value);
    ResolvedScenario plan = qloraPlan();
    edit(plan);
    const ExportResult result = findExporter("torchtune")->render(plan, {});
    QVERIFY2(result.ok(), refusalText(result).toUtf8());
    const YAML::Node config = YAML::Load(result.files.front().text);
    QCOMPARE(QString::fromStdString(config["model"]["_component_"].as<std::string>()), model);
    QCOMPARE(QString::fromStdString(config[key.toStdString()].as<std::string>()), value);
    QCOMPARE(config["batch_size"].as<std::int64_t>(), plan.training.microBatch);
    QCOMPARE(config["batch_size"].as<std::int64_t>() *
                 config["gradient_accumulation_steps"].as<std::int64_t>() * plan.parallel.dp,
             plan.training.globalBatch);
    QVERIFY(result.files.front().text.find("recipes/" + recipe.toStdString() + ".py") !=
            std::string::npos);
    QVERIFY(result.files.back().text.find(" " + recipe.toStdString() + " --config") !=
            std::string::npos);
    const bool adapters = plan.finetune->adapters();
    QCOMPARE(result.files.front().text.find("# Model: llama3_8b, llama3_1_8b have these") !=
                 std::string::npos,
             plan.modelPreset.empty());
    QCOMPARE(config["dataset"]["_component_"].as<std::string>(),
             std::string("torchtune.datasets.alpaca_cleaned_dataset"));
    QCOMPARE(bool(config["model"]["lora_rank"]), adapters);
    QCOMPARE(bool(config["optimizer_in_bwd"]), !adapters);
    if (adapters)
        QCOMPARE(config["model"]["lora_rank"].as<int>(), plan.finetune->loraRank);
}

// execution.cross_entropy picks the loss component: the chunked loss (inferred for torchtune's
// bf16 states), or torch.nn.CrossEntropyLoss for "plain".
void TestExport::torchtuneLoss() {
    ResolvedScenario plan = qloraPlan();
    QCOMPARE(plan.execution.crossEntropy, CrossEntropy::Chunked);
    const auto lossOf = [](const ResolvedScenario& p) {
        const ExportResult result = findExporter("torchtune")->render(p, {});
        return result.ok()
                   ? YAML::Load(result.files.front().text)["loss"]["_component_"].as<std::string>()
                   : std::string("refused");
    };
    QCOMPARE(lossOf(plan), std::string("torchtune.modules.loss.CEWithChunkedOutputLoss"));
    plan.execution.crossEntropy = CrossEntropy::Plain;
    QCOMPARE(lossOf(plan), std::string("torch.nn.CrossEntropyLoss"));
    // A Megatron-LM plan's fused loss: torchtune's chunked loss, said in the file.
    plan.execution.crossEntropy = CrossEntropy::Fused;
    QCOMPARE(lossOf(plan), std::string("torchtune.modules.loss.CEWithChunkedOutputLoss"));
    const ExportResult fused = findExporter("torchtune")->render(plan, {});
    QVERIFY(fused.files.front().text.find("has no torchtune component") != std::string::npos);
}

// --data-path replaces the placeholder dataset with torchtune's text_completion_dataset over
// the user's file; the path survives YAML quoting whatever it holds.
void TestExport::torchtuneDataPath() {
    ExportOptions options;
    options.dataPath = "/data/my corpus/$USER's \"text\": #1.jsonl";
    const ExportResult result = findExporter("torchtune")->render(qloraPlan(), options);
    QVERIFY(result.ok());
    const std::string& text = result.files.front().text;
    QVERIFY(text.find("PLACEHOLDER") == std::string::npos);
    const YAML::Node dataset = YAML::Load(text)["dataset"];
    QCOMPARE(dataset["_component_"].as<std::string>(),
             std::string("torchtune.datasets.text_completion_dataset"));
    QCOMPARE(dataset["source"].as<std::string>(), std::string("json"));
    QCOMPARE(dataset["data_files"].as<std::string>(), options.dataPath);
    QCOMPARE(dataset["column"].as<std::string>(), std::string("text"));
    QVERIFY(dataset["packed"].as<bool>());
    options.dataPath = "/data/corpus.txt";
    const YAML::Node plain =
        YAML::Load(findExporter("torchtune")->render(qloraPlan(), options).files.front().text);
    QCOMPARE(plain["dataset"]["source"].as<std::string>(), std::string("text"));
}

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
