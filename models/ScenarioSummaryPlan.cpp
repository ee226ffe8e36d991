// The parallel-plan section of ScenarioSummary (split from ScenarioSummary.cpp for size).
#include "ScenarioSummary.h"

#include "QuantityText.h"

#include "scenario/ResolvedScenario.h"

#include <QStringList>

#include <algorithm>

namespace ts::gui {

namespace {

QString targetText(OffloadTarget target) {
    switch (target) {
    case OffloadTarget::None:
        return QString();
    case OffloadTarget::Cpu:
        return ScenarioSummary::tr("CPU memory");
    case OffloadTarget::Nvme:
        return ScenarioSummary::tr("NVMe");
    }
    return QString();
}

QString layersPerChunkText(const std::vector<int>& layers) {
    if (layers.empty())
        return ScenarioSummary::tr("not resolved");
    const bool even =
        std::all_of(layers.begin(), layers.end(), [&](int n) { return n == layers.front(); });
    const QString chunks = countText(std::int64_t(layers.size()));
    if (even && layers.size() == 1)
        return layers.front() == 1
                   ? ScenarioSummary::tr("1 layer")
                   : ScenarioSummary::tr("%1 layers").arg(countText(layers.front()));
    if (even && layers.front() == 1)
        return ScenarioSummary::tr("%1 chunks × 1 layer").arg(chunks);
    if (even)
        return ScenarioSummary::tr("%1 chunks × %2 layers").arg(chunks, countText(layers.front()));
    QStringList parts;
    for (int n : layers)
        parts << countText(n);
    return ScenarioSummary::tr("%1 layers").arg(parts.join(QStringLiteral(", ")));
}

} // namespace

SummarySection ScenarioSummary::planSection(const ResolvedScenario& s) {
    const ParallelConfig& p = s.parallel;
    SummarySection section{tr("Parallel plan"), QStringLiteral("/parallelism"), {}};
    auto add = [&](QString property, QString value, const char* key, QString toolTip = {}) {
        section.rows.push_back(
            {std::move(property), std::move(value), std::move(toolTip),
             key ? QStringLiteral("/parallelism/") + QLatin1String(key) : QString()});
    };
    auto ways = [](std::int64_t n) { return tr("%1-way").arg(countText(n)); };

    add(tr("Tensor parallel (TP)"), ways(p.tp), "tp");
    add(tr("Pipeline parallel (PP)"), ways(p.pp), "pp");
    add(tr("Virtual pipeline (VPP)"),
        p.vpp == 1 ? tr("1 chunk per rank") : tr("%1 chunks per rank").arg(countText(p.vpp)),
        "vpp");
    add(tr("Context parallel (CP)"), ways(p.cp), "cp");
    add(tr("Expert parallel (EP)"), ways(p.ep), "ep");
    if (s.model.moe)
        add(tr("Expert tensor parallel (ETP)"), ways(p.etp), "etp");
    add(tr("Data parallel (DP)"), ways(p.dp), "dp");
    add(tr("GPU grid"),
        tr("TP %1 × PP %2 × CP %3 × DP %4 = %5 GPUs")
            .arg(countText(p.tp), countText(p.pp), countText(p.cp), countText(p.dp),
                 countText(std::int64_t(p.tp) * p.pp * p.cp * p.dp)),
        nullptr, tr("Expert parallelism divides the data-parallel GPUs of the MoE layers"));
    const std::int64_t microbatches =
        p.dp > 0 && s.training.microBatch > 0
            ? p.microbatchesPerStep(s.training.globalBatch, s.training.microBatch)
            : 0;
    add(tr("Microbatches per step"),
        microbatches == 1 ? tr("1 microbatch per pipeline")
                          : tr("%1 microbatches per pipeline").arg(countText(microbatches)),
        nullptr, tr("Global batch / (DP × micro-batch)"));
    add(tr("Layers per pipeline chunk"), layersPerChunkText(p.pipelineLayers), "pipeline_layers");
    add(tr("Sequence parallel"), p.sequenceParallel ? tr("on") : tr("off"), "sequence_parallel");

    QString zero;
    switch (p.zero) {
    case 0:
        zero = tr("stage 0 (nothing sharded)");
        break;
    case 1:
        zero = tr("stage 1 (optimizer states sharded)");
        break;
    case 2:
        zero = tr("stage 2 (optimizer states and gradients sharded)");
        break;
    default:
        zero = tr("stage 3 (optimizer states, gradients and weights sharded)");
        break;
    }
    add(tr("ZeRO"), zero, "zero");

    QString recompute;
    switch (p.recompute) {
    case RecomputeMode::None:
        recompute = tr("none");
        break;
    case RecomputeMode::Selective:
        recompute = tr("selective (attention core)");
        break;
    case RecomputeMode::Full:
        recompute = p.recomputeLayers
                        ? tr("full, %1 layers per stage").arg(countText(*p.recomputeLayers))
                        : tr("full, every layer");
        break;
    }
    add(tr("Activation recompute"), recompute, "recompute");

    QString schedule;
    switch (p.schedule) {
    case PipelineScheduleKind::GPipe:
        schedule = tr("GPipe");
        break;
    case PipelineScheduleKind::OneFOneB:
        schedule = tr("1F1B");
        break;
    case PipelineScheduleKind::Interleaved:
        schedule = tr("interleaved 1F1B");
        break;
    case PipelineScheduleKind::ZeroBubble:
        // Two chunks per rank make it the V-shaped variant (parallel/ZeroBubbleV.h).
        schedule = p.vpp == 2 ? tr("zero bubble, V-shaped (ZB-V)") : tr("zero bubble (ZB-H1)");
        break;
    case PipelineScheduleKind::BreadthFirst:
        schedule = tr("breadth-first");
        break;
    }
    add(tr("Pipeline schedule"), schedule, "schedule");

    QStringList offload;
    if (p.offload.optimizer != OffloadTarget::None)
        offload << tr("optimizer states → %1").arg(targetText(p.offload.optimizer));
    if (p.offload.params != OffloadTarget::None)
        offload << tr("weights → %1").arg(targetText(p.offload.params));
    if (p.offload.activations != OffloadTarget::None)
        offload << tr("activations → %1").arg(targetText(p.offload.activations));
    add(tr("Offload"), offload.isEmpty() ? tr("none") : offload.join(QStringLiteral("; ")),
        "offload");

    QStringList overlap;
    if (p.overlap.tp)
        overlap << QStringLiteral("TP");
    if (p.overlap.dp)
        overlap << QStringLiteral("DP");
    if (p.overlap.pp)
        overlap << QStringLiteral("PP");
    add(tr("Communication overlap"),
        overlap.isEmpty() ? tr("none") : overlap.join(QStringLiteral(", ")), "overlap");
    return section;
}

} // namespace ts::gui
