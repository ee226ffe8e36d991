#include "import/PlanEquivalence.h"

#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"

namespace ts {

ResolvedScenario launchPlan(const ResolvedScenario& s) {
    ResolvedScenario out;
    out.model = s.model;
    out.finetune = s.finetune; // which weights train: a launch setting
    out.training = s.training;
    out.training.tokens.reset();
    out.parallel = s.parallel;
    out.cluster.numGpus = s.cluster.numGpus;
    out.cluster.gpusPerNode = s.cluster.gpusPerNode;
    auto& p = out.parallel;
    if (p.tp == 1) {
        p.overlap.tp = false;
        p.sequenceParallel = false;
    }
    if (p.pp == 1)
        p.overlap.pp = false;
    if (p.dp == 1)
        p.overlap.dp = false;
    if (p.ep == 1)
        p.overlap.ep = false;
    if (p.cp == 1)
        p.cpComm = CpCommType::P2P;
    if (!s.model.moe) {
        p.ep = 1;
        p.etp = p.tp;
    }
    if (p.zero == 0 || p.dpShard <= 0)
        p.dpShard = p.dp;
    if (s.training.precision != Precision::Fp8)
        out.training.fp8Recipe = Fp8Recipe::Delayed;
    // Unstated, the gradient buffer is FP32 (the format's default): "fp32" stated is the same.
    if (out.training.gradReduceDtype == GradReduceDtype::Fp32)
        out.training.gradReduceDtype.reset();
    if (p.recompute != RecomputeMode::Full ||
        (p.recomputeLayers && p.pp > 0 && *p.recomputeLayers * p.pp >= s.model.layers))
        p.recomputeLayers.reset();
    return out;
}

std::vector<std::string> launchPlanDifferences(const ResolvedScenario& a,
                                               const ResolvedScenario& b) {
    const auto ja = nlohmann::json(scenarioToJson(explicitScenario(launchPlan(a))));
    const auto jb = nlohmann::json(scenarioToJson(explicitScenario(launchPlan(b))));
    std::vector<std::string> paths;
    for (const auto& op : nlohmann::json::diff(ja, jb))
        paths.push_back(op["path"].get<std::string>());
    return paths;
}

} // namespace ts
