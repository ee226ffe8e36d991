#include "ScenarioHeadline.h"

#include "QuantityText.h"

#include "catalog/Catalog.h"
#include "scenario/ResolvedScenario.h"

#include <QRegularExpression>
#include <QStringList>

namespace ts::gui {

namespace {

QString modelName(const ResolvedScenario& s) {
    const auto& models = Catalog::builtIn().models();
    if (const auto it = models.find(s.modelPreset); it != models.end())
        return QString::fromStdString(it->second.name);
    return ScenarioHeadline::tr("Custom model (%1 layers)").arg(s.model.layers);
}

} // namespace

QString ScenarioHeadline::plan(const ResolvedScenario& s) {
    const ParallelConfig& p = s.parallel;
    QStringList parts;
    if (p.tp > 1)
        parts << tr("TP %1").arg(p.tp);
    if (p.pp > 1)
        parts << (p.vpp > 1 ? tr("PP %1 × %2").arg(p.pp).arg(p.vpp) : tr("PP %1").arg(p.pp));
    if (p.cp > 1)
        parts << tr("CP %1").arg(p.cp);
    if (p.ep > 1)
        parts << tr("EP %1").arg(p.ep);
    parts << tr("DP %1").arg(countText(p.dp));
    return parts.join(QStringLiteral(" · "));
}

QString ScenarioHeadline::of(const ResolvedScenario& s) {
    if (s.hetero) { // pools of unlike GPUs: each pool's GPUs
        QStringList pools;
        for (const ResolvedPool& p : s.hetero->pools)
            pools << tr("%1 × %2").arg(countText(p.cluster.numGpus),
                                       QString::fromStdString(p.cluster.gpu.name));
        return tr("%1 on %2 · %3 pipelines")
            .arg(modelName(s), pools.join(" + "), countText(s.parallel.dp));
    }
    return tr("%1 on %2 × %3 · %4")
        .arg(modelName(s), countText(s.cluster.numGpus), QString::fromStdString(s.cluster.gpu.name),
             plan(s));
}

QString ScenarioHeadline::fileStem(const ResolvedScenario& s) {
    QString model = QString::fromStdString(s.modelPreset.empty() ? "model" : s.modelPreset);
    // "h100-sxm-80gb" -> "h100": the part before the first dash names the GPU well enough.
    QString gpu = QString::fromStdString(s.cluster.gpuId.empty() ? "gpu" : s.cluster.gpuId);
    gpu = gpu.section(QLatin1Char('-'), 0, 0);
    QString stem = QStringLiteral("%1-%2x%3").arg(model).arg(s.cluster.numGpus).arg(gpu);
    stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    return stem.toLower();
}

} // namespace ts::gui
