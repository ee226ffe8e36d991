#include "estimate/RecomputeModulesMemory.h"

#include "model/TransformerArithmetic.h"

#include <algorithm>

namespace ts {

namespace {

bool listed(const std::vector<RecomputeModule>& modules, RecomputeModule m) {
    return std::find(modules.begin(), modules.end(), m) != modules.end();
}

// Bytes per token that recomputing module `m` frees (RecomputeModulesMemory.h).
double freedBytesPerToken(const RecomputedLayer& l, RecomputeModule m,
                          const std::vector<RecomputeModule>& modules) {
    const ModelConfig& model = l.model;
    const ActivationAssumptions& a = l.assumptions;
    const double t = std::max(1, l.layout.tp);
    const double sp = l.layout.sequenceParallel ? t : 1.0;
    const double h = double(model.hidden);
    const double actFn = isGatedMlp(model.mlp) ? 6.0 : 4.0;
    switch (m) {
    case RecomputeModule::CoreAttn:
        return 0.0; // the caller's coreAttention figure
    case RecomputeModule::LayerNorm: {
        const double inputs = (a.dropQkvInput ? 0.0 : 2.0 * h) + (a.dropMlpInput ? 0.0 : 2.0 * h);
        return a.gatheredLinearInputs ? inputs : inputs / sp;
    }
    case RecomputeModule::MlaUpProj:
        if (!model.mla)
            return 0.0;
        return (2.0 * double(queryWidth(l.accounted)) + 4.0 * double(keyValueWidth(l.accounted))) /
               t;
    case RecomputeModule::MoeAct:
        if (!model.moe || listed(modules, RecomputeModule::Moe))
            return 0.0;
        return 2.0 * model.moe->topK * l.imbalance * double(model.moe->expertFfnHidden) / t;
    case RecomputeModule::Moe:
        if (!model.moe)
            return 0.0;
        return (actFn * model.moe->topK * l.imbalance * double(model.moe->expertFfnHidden) +
                2.0 * model.moe->topK * h) /
               t;
    case RecomputeModule::SharedExperts:
        if (!model.moe)
            return 0.0;
        return actFn * model.moe->sharedExperts * double(model.moe->expertFfnHidden) / t;
    case RecomputeModule::Mlp:
        return model.moe ? 0.0 : actFn * double(model.ffnHidden) / t;
    }
    return 0.0;
}

} // namespace

double recomputeModulesActivationBytes(const RecomputedLayer& l,
                                       const std::vector<RecomputeModule>& modules) {
    if (modules.empty()) // null: ["core_attn"]
        return l.coreAttention;
    const double tokens = double(l.layout.seqLen) * double(l.layout.microBatch);
    double stored = listed(modules, RecomputeModule::CoreAttn) ? l.coreAttention : l.none;
    for (RecomputeModule m : modules)
        stored -= tokens * freedBytesPerToken(l, m, modules);
    return std::max(l.full, stored);
}

} // namespace ts
