// Launchers' own startup checks as export rules (issue 37 item 1). torchtitan v0.2.2
// (docs/export-deepspeed-torchtitan-audit.md): pure DDP takes no tp or pp, the sequence splits
// over 2 x tp x cp, async TP needs torch.compile (refused unless the scenario states it; the
// adaptation turns it on), and MXFP8 with tp > 1 does not combine with compile.
// Megatron-LM core_v0.15.0 (docs/export-megatron-audit.md): the interleaved schedule without
// p2p overlap needs pp > 2 (arguments.py:608), MoE with tp > 1 needs sequence parallelism
// (moe_layer.py:266); the export dialog's adaptation turns each on.

#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "export/Exporter.h"
#include "export/PlanAdaptation.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

using namespace ts;
using nlohmann::json;

namespace {

json plan(int tp, int pp, int zero, bool asyncTp) {
    json j = json::parse(R"({"format": "trainscape.scenario/1", "model": {"preset": "llama3-8b"},
      "cluster": {"preset": "dgx-h100", "num_gpus": 16},
      "training": {"seq_len": 8192, "global_batch": 64, "precision": "bf16"},
      "parallelism": {"sequence_parallel": true, "overlap": {"dp": true}}})");
    j["parallelism"]["tp"] = tp;
    j["parallelism"]["pp"] = pp;
    j["parallelism"]["zero"] = zero;
    j["parallelism"]["overlap"]["tp"] = asyncTp;
    if (tp == 1)
        j["parallelism"]["sequence_parallel"] = false;
    return j;
}

ExportResult render(const json& doc, const char* target = "torchtitan") {
    Diagnostics diags;
    auto s = parseScenarioText(doc.dump(), diags);
    auto r = s ? resolveScenario(*s, Catalog::builtIn(), diags) : std::nullopt;
    if (!r)
        qFatal("does not resolve: %s",
               diags.errors().empty() ? "" : diags.errors()[0].toString().c_str());
    return findExporter(target)->render(*r, {});
}

bool refusedAt(const ExportResult& r, const std::string& path) {
    for (const ExportRefusal& x : r.refusals)
        if (x.path == path)
            return true;
    return false;
}

} // namespace

class TestLauncherRules : public QObject {
    Q_OBJECT
private slots:
    void ddpTakesNoOtherParallelism() {
        QVERIFY(refusedAt(render(plan(4, 1, 0, false)), "/parallelism/zero"));
        QVERIFY(refusedAt(render(plan(1, 2, 0, false)), "/parallelism/zero"));
        QVERIFY(render(plan(1, 1, 0, false)).ok()); // pure DDP
        QVERIFY(render(plan(4, 1, 3, false)).ok()); // FSDP + TP
    }
    void sequenceSplitsOverTwiceTpCp() {
        json odd = plan(4, 1, 3, false);
        odd["training"]["seq_len"] = 8196; // divisible by 4, not by 8
        QVERIFY(refusedAt(render(odd), "/training/seq_len"));
    }
    void asyncTpNeedsCompile() {
        QVERIFY(refusedAt(render(plan(4, 1, 3, true)), "/training/compile")); // unstated
        json compiled = plan(4, 1, 3, true);
        compiled["training"]["compile"] = true;
        const ExportResult on = render(compiled);
        QVERIFY(on.ok());
        const std::string& toml = on.files[0].text;
        QVERIFY(toml.find("enable_async_tensor_parallel = true") != std::string::npos);
        const auto compile = toml.find("[compile]");
        QVERIFY(compile != std::string::npos);
        QVERIFY(toml.find("enable = true", compile) != std::string::npos);
        json off = plan(4, 1, 3, true);
        off["training"]["compile"] = false;
        QVERIFY(refusedAt(render(off), "/training/compile"));
        json mx = compiled;
        mx["training"]["precision"] = "mxfp8";
        mx["cluster"] = {{"preset", "dgx-b200"}, {"num_gpus", 16}};
        QVERIFY(refusedAt(render(mx), "/training/precision"));
    }
    void megatronMoeWithTpNeedsSequenceParallel() {
        json moe = plan(2, 1, 1, false);
        moe["model"] = {{"preset", "mixtral-8x7b"}};
        moe["parallelism"]["ep"] = 8;
        moe["parallelism"]["sequence_parallel"] = false;
        QVERIFY(refusedAt(render(moe, "megatron"), "/parallelism/sequence_parallel"));
        moe["parallelism"]["sequence_parallel"] = true;
        QVERIFY(!refusedAt(render(moe, "megatron"), "/parallelism/sequence_parallel"));
    }
    void megatronInterleavedWithoutOverlapNeedsThreeStages() {
        json two = plan(4, 2, 1, false);
        two["parallelism"]["vpp"] = 2;
        two["parallelism"]["overlap"]["pp"] = false;
        QVERIFY(refusedAt(render(two, "megatron"), "/parallelism/overlap/pp"));
        json four = two;
        four["parallelism"]["pp"] = 4;
        four["cluster"]["num_gpus"] = 32;
        const ExportResult ok = render(four, "megatron");
        QVERIFY(ok.ok());
        QVERIFY(ok.files[0].text.find("--no-overlap-p2p-communication") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestLauncherRules)
#include "tst_launcher_rules.moc"
