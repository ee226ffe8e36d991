#include "ScenarioSummary.h"

#include "QuantityText.h"

#include "catalog/Catalog.h"
#include "scenario/ResolvedScenario.h"

#include <QStringList>

#include <algorithm>

namespace ts::gui {

namespace {

QString counted(std::int64_t n, const QString& one, const QString& many) {
    return (n == 1 ? one : many).arg(countText(n));
}

QString yesNo(bool value, const QString& yes, const QString& no) {
    return value ? yes : no;
}

} // namespace

std::vector<SummarySection> ScenarioSummary::build(const ResolvedScenario& scenario) {
    std::vector<SummarySection> sections;
    sections.push_back(scenarioSection(scenario));
    sections.push_back(modelSection(scenario));
    sections.push_back(clusterSection(scenario));
    sections.push_back(trainingSection(scenario));
    sections.push_back(planSection(scenario));
    sections.push_back(costSection(scenario));
    return sections;
}

SummarySection ScenarioSummary::scenarioSection(const ResolvedScenario& s) {
    SummarySection section{tr("Scenario"), QString(), {}};
    section.rows.push_back({tr("Name"),
                            s.name.empty() ? tr("(unnamed)") : QString::fromStdString(s.name),
                            QString(), QStringLiteral("/name")});
    section.rows.push_back(
        {tr("Calibration profile"),
         s.calibration ? QString::fromStdString(*s.calibration) : tr("none (default efficiencies)"),
         tr("Measured kernel and collective efficiencies that replace the "
            "defaults"),
         QStringLiteral("/calibration")});
    return section;
}

SummarySection ScenarioSummary::modelSection(const ResolvedScenario& s) {
    const ModelConfig& m = s.model;
    SummarySection section{tr("Model"), QStringLiteral("/model"), {}};
    auto add = [&](QString property, QString value, const char* key, QString toolTip = {}) {
        section.rows.push_back({std::move(property), std::move(value), std::move(toolTip),
                                QStringLiteral("/model/") + QLatin1String(key)});
    };

    QString preset = tr("none (explicit architecture)");
    if (!s.modelPreset.empty()) {
        preset = QString::fromStdString(s.modelPreset);
        if (const ModelPreset* entry = Catalog::builtIn().model(s.modelPreset))
            preset = tr("%1 (%2)").arg(QString::fromStdString(entry->name), preset);
    }
    add(tr("Preset"), preset, "preset");
    add(tr("Layers"), counted(m.layers, tr("%1 layer"), tr("%1 layers")), "layers");
    add(tr("Hidden size"), countText(m.hidden), "hidden", tr("Model width (d_model)"));

    QString attention =
        tr("GQA, %1 query heads per KV head").arg(m.kvHeads > 0 ? m.heads / m.kvHeads : 0);
    if (m.mla)
        attention = tr("MLA (multi-head latent attention)");
    else if (m.kvHeads == m.heads)
        attention = tr("MHA (multi-head attention)");
    else if (m.kvHeads == 1)
        attention = tr("MQA (multi-query attention)");
    add(tr("Attention heads"), counted(m.heads, tr("%1 head"), tr("%1 heads")), "heads");
    add(tr("KV heads"),
        tr("%1 · %2").arg(counted(m.kvHeads, tr("%1 head"), tr("%1 heads")), attention),
        "kv_heads");
    const int headDim = m.headDim > 0 ? m.headDim : (m.heads > 0 ? int(m.hidden / m.heads) : 0);
    if (!m.mla) // MLA has its own head dimensions, listed below
        add(tr("Head dimension"), countText(headDim), "head_dim");
    add(tr("FFN hidden size"), countText(m.ffnHidden), "ffn_hidden",
        m.moe ? tr("Width of the dense layers' MLP") : QString());
    add(tr("Vocabulary"), counted(m.vocab, tr("%1 token"), tr("%1 tokens")), "vocab");
    add(tr("MLP"), m.mlp == MlpKind::SwiGlu ? tr("SwiGLU (3 matrices)") : tr("GeLU (2 matrices)"),
        "mlp");
    add(tr("Embeddings"),
        yesNo(m.tiedEmbeddings, tr("tied (input = output)"), tr("separate input and output")),
        "tied_embeddings");

    if (m.moe) {
        const MoeConfig& moe = *m.moe;
        add(tr("Experts"),
            tr("%1 routed + %2 shared").arg(countText(moe.experts), countText(moe.sharedExperts)),
            "moe/experts");
        add(tr("Experts per token"), tr("top-%1").arg(moe.topK), "moe/top_k");
        add(tr("Expert FFN hidden size"), countText(moe.expertFfnHidden), "moe/expert_ffn_hidden");
        add(tr("Dense layers first"),
            counted(moe.firstDenseLayers, tr("%1 layer"), tr("%1 layers")),
            "moe/first_dense_layers");
        add(tr("Capacity factor"),
            moe.capacityFactor ? numberText(*moe.capacityFactor)
                               : tr("dropless (no capacity limit)"),
            "moe/capacity_factor");
    } else {
        add(tr("Mixture of experts"), tr("none (dense)"), "moe");
    }
    if (m.mla) {
        const MlaConfig& mla = *m.mla;
        add(tr("Query LoRA rank"),
            mla.qLoraRank > 0 ? countText(mla.qLoraRank) : tr("none (uncompressed queries)"),
            "mla/q_lora_rank");
        add(tr("KV LoRA rank"), countText(mla.kvLoraRank), "mla/kv_lora_rank");
        add(tr("QK head dimension"),
            tr("%1 + %2 RoPE").arg(countText(mla.qkNopeHeadDim), countText(mla.qkRopeHeadDim)),
            "mla/qk_nope_head_dim");
        add(tr("V head dimension"), countText(mla.vHeadDim), "mla/v_head_dim");
    }
    return section;
}

SummarySection ScenarioSummary::clusterSection(const ResolvedScenario& s) {
    const ClusterConfig& c = s.cluster;
    SummarySection section{tr("Cluster"), QStringLiteral("/cluster"), {}};
    auto add = [&](QString property, QString value, const char* key, QString toolTip = {}) {
        section.rows.push_back(
            {std::move(property), std::move(value), std::move(toolTip),
             key ? QStringLiteral("/cluster/") + QLatin1String(key) : QString()});
    };

    QString preset = tr("none (explicit cluster)");
    if (!s.clusterPreset.empty()) {
        preset = QString::fromStdString(s.clusterPreset);
        if (const ClusterPreset* entry = Catalog::builtIn().cluster(s.clusterPreset))
            preset = tr("%1 (%2)").arg(QString::fromStdString(entry->name), preset);
    }
    add(tr("Preset"), preset, "preset");
    add(tr("GPU"), QString::fromStdString(c.gpu.name), "gpu",
        c.gpuId.empty() ? tr("Explicit GPU object")
                        : tr("Catalog id: %1").arg(QString::fromStdString(c.gpuId)));
    add(tr("GPU memory"), gibText(c.gpu.memoryGiB), "gpu");
    add(tr("HBM bandwidth"), gbPerSText(c.gpu.hbmGBps), "gpu");
    add(tr("BF16 dense peak"), tflopsText(c.gpu.bf16Tflops), "gpu",
        tr("Dense tensor-core peak, without 2:4 sparsity"));
    add(tr("FP8 dense peak"),
        c.gpu.fp8Tflops > 0 ? tflopsText(c.gpu.fp8Tflops) : tr("none (no FP8 tensor cores)"),
        "gpu");
    add(tr("TDP"), wattsText(c.gpu.tdpW), "gpu");
    add(tr("GPUs"), counted(c.numGpus, tr("%1 GPU"), tr("%1 GPUs")), "num_gpus");
    add(tr("GPUs per node"), counted(c.gpusPerNode, tr("%1 GPU"), tr("%1 GPUs")), "gpus_per_node");
    if (c.gpusPerNode > 0) {
        const std::int64_t nodes = (c.numGpus + c.gpusPerNode - 1) / c.gpusPerNode;
        add(tr("Nodes"), counted(nodes, tr("%1 node"), tr("%1 nodes")), nullptr,
            tr("GPUs / GPUs per node"));
    }

    const ScaleUpConfig& up = c.scaleUp;
    add(tr("Scale-up domain"), counted(up.domainGpus, tr("%1 GPU"), tr("%1 GPUs")),
        "scale_up/domain_gpus", tr("GPUs joined by the NVLink-class fabric"));
    add(tr("Scale-up bandwidth"), tr("%1 per GPU per direction").arg(gbPerSText(up.bandwidthGBps)),
        "scale_up/bandwidth_gb_s");
    add(tr("Scale-up latency"), microsecondsText(up.latencyUs), "scale_up/latency_us");

    const ScaleOutConfig& out = c.scaleOut;
    QString topology;
    switch (out.topology) {
    case ScaleOutTopology::RailOptimized:
        topology = tr("rail-optimized fat-tree");
        break;
    case ScaleOutTopology::RailOnly:
        topology = tr("rail-only");
        break;
    case ScaleOutTopology::FatTree:
        topology = tr("fat-tree");
        break;
    case ScaleOutTopology::Torus:
        topology = tr("torus");
        break;
    case ScaleOutTopology::Graph:
        topology = tr("explicit graph");
        break;
    }
    add(tr("Scale-out topology"), topology, "scale_out/topology");
    add(tr("NICs per node"), counted(out.nicsPerNode, tr("%1 NIC"), tr("%1 NICs")),
        "scale_out/nics_per_node");
    add(tr("NIC bandwidth"), tr("%1 per NIC per direction").arg(gbitPerSText(out.nicGbitPerS)),
        "scale_out/nic_gbit_s");
    add(tr("Oversubscription"), tr("%1 : 1").arg(numberText(out.oversubscription)),
        "scale_out/oversubscription");
    add(tr("Scale-out latency"), microsecondsText(out.latencyUs), "scale_out/latency_us");
    add(tr("Switch radix"), counted(out.switchRadix, tr("%1 port"), tr("%1 ports")),
        "scale_out/switch_radix");
    add(tr("Switch tiers"),
        out.tiers ? counted(*out.tiers, tr("%1 tier"), tr("%1 tiers"))
                  : tr("automatic (as few as the size needs)"),
        "scale_out/tiers");
    return section;
}

SummarySection ScenarioSummary::trainingSection(const ResolvedScenario& s) {
    const TrainingConfig& t = s.training;
    SummarySection section{tr("Training"), QStringLiteral("/training"), {}};
    auto add = [&](QString property, QString value, const char* key, QString toolTip = {}) {
        section.rows.push_back(
            {std::move(property), std::move(value), std::move(toolTip),
             key ? QStringLiteral("/training/") + QLatin1String(key) : QString()});
    };
    add(tr("Sequence length"), counted(t.seqLen, tr("%1 token"), tr("%1 tokens")), "seq_len");
    add(tr("Global batch"), counted(t.globalBatch, tr("%1 sequence"), tr("%1 sequences")),
        "global_batch", tr("Sequences per optimizer step"));
    add(tr("Micro-batch"), counted(t.microBatch, tr("%1 sequence"), tr("%1 sequences")),
        "micro_batch");
    add(tr("Tokens per step"),
        tr("%1 tokens").arg(siPrefixed(double(t.globalBatch) * double(t.seqLen))), nullptr,
        tr("Global batch × sequence length"));

    static constexpr const char* kPrecisions[] = {"FP32", "FP16", "BF16", "FP8", "MXFP8", "NVFP4"};
    add(tr("Precision"), QLatin1String(kPrecisions[static_cast<int>(t.precision)]), "precision");
    if (t.precision == Precision::Fp8) {
        QString recipe;
        switch (t.fp8Recipe) {
        case Fp8Recipe::Delayed:
            recipe = tr("delayed, per tensor");
            break;
        case Fp8Recipe::Tensorwise:
            recipe = tr("current, per tensor");
            break;
        case Fp8Recipe::Blockwise:
            recipe = tr("blockwise, 1×128 and 128×128");
            break;
        }
        add(tr("FP8 scaling"), recipe, "fp8_recipe");
    }
    QString optimizer;
    switch (t.optimizer) {
    case OptimizerKind::Adam:
        optimizer = tr("Adam");
        break;
    case OptimizerKind::Sgd:
        optimizer = tr("SGD");
        break;
    case OptimizerKind::Adafactor:
        optimizer = tr("Adafactor");
        break;
    case OptimizerKind::Adam8bit:
        optimizer = tr("8-bit Adam");
        break;
    }
    add(tr("Optimizer"), optimizer, "optimizer");
    if (s.finetune) {
        const FinetuneConfig& f = *s.finetune;
        static constexpr const char* kBases[] = {"BF16", "FP16", "FP8", "INT8", "NF4"};
        const QString base = QLatin1String(kBases[static_cast<int>(f.baseWeights)]);
        QString method = tr("full fine-tuning");
        if (f.adapters())
            method = tr("%1, rank %2 on %3 modules, %4 base")
                         .arg(f.method == FinetuneMethod::Qlora ? tr("QLoRA") : tr("LoRA"))
                         .arg(f.loraRank)
                         .arg(f.targets.size())
                         .arg(base);
        add(tr("Fine-tuning"), method, nullptr,
            tr("The frozen base keeps no gradients or optimizer states"));
    }
    add(tr("Tokens to train"),
        t.tokens ? tr("%1 tokens").arg(siPrefixed(*t.tokens)) : tr("not set"), "tokens");
    return section;
}

SummarySection ScenarioSummary::costSection(const ResolvedScenario& s) {
    const CostConfig& c = s.costs;
    SummarySection section{tr("Costs"), QStringLiteral("/costs"), {}};
    auto add = [&](QString property, const std::optional<double>& value, const QString& format,
                   const char* key) {
        section.rows.push_back({std::move(property),
                                value ? format.arg(numberText(*value)) : tr("not set"), QString(),
                                QStringLiteral("/costs/") + QLatin1String(key)});
    };
    add(tr("GPU-hour price"), c.gpuHourUsd, tr("%1 USD per GPU-hour"), "gpu_hour_usd");
    add(tr("Electricity price"), c.electricityUsdPerKwh, tr("%1 USD per kWh"),
        "electricity_usd_kwh");
    add(tr("PUE"), c.pue, tr("%1 × IT power"), "pue");
    add(tr("Grid carbon intensity"), c.gridGco2PerKwh, tr("%1 gCO₂e per kWh"), "grid_gco2_kwh");
    return section;
}

} // namespace ts::gui
