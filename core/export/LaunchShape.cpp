#include "export/LaunchShape.h"

#include "common/JsonObjectReader.h"

#include <cctype>
#include <cmath>

namespace ts {

std::string num(std::int64_t value) {
    return std::to_string(value);
}

std::string num(double value) {
    return formatNumber(value);
}

// The launchers train with FP32 master weights and a stock optimizer; what fine-tuning they run
// is the target's FineTuning. Every other fine-tuning key is refused by name, not dropped.
static void refuseFineTuning(const ResolvedScenario& plan, std::vector<ExportRefusal>& refusals,
                             FineTuning fineTuning) {
    if (fineTuning == FineTuning::Torchtune)
        return; // refuseForTorchtune (TorchtuneChecks.cpp) says what its recipes run
    const TrainingConfig& t = plan.training;
    const auto& f = plan.finetune;
    const bool quantisedBase =
        f && (f->method == FinetuneMethod::Qlora || f->baseWeights == BaseWeights::Nf4 ||
              f->baseWeights == BaseWeights::Int8 || f->baseWeights == BaseWeights::Fp8);
    if (f && fineTuning == FineTuning::None)
        refusals.push_back({"/finetune", "a DeepSpeed config holds no fine-tuning setting (the "
                                         "training script loads the weights and wraps adapters); "
                                         "use the torchtune target (full, LoRA, QLoRA), bridge "
                                         "(LoRA) or megatron (full)"});
    else if (f && fineTuning == FineTuning::Full && f->adapters())
        refusals.push_back({"/finetune", "this target fine-tunes every weight (full); it has no "
                                         "LoRA or QLoRA adapters: use method \"full\", the "
                                         "bridge target (LoRA) or torchtune (LoRA, QLoRA)"});
    else if (f && quantisedBase)
        refusals.push_back({"/finetune", "this target's fine-tuning recipes train LoRA adapters "
                                         "over a bf16 base; a quantised base (QLoRA, NF4/INT8/FP8 "
                                         "base weights) has no recipe: use method \"lora\", or "
                                         "the torchtune target (QLoRA on NF4)"});
    if (t.optimizer == OptimizerKind::Adam8bit)
        refusals.push_back({"/training/optimizer",
                            "8-bit Adam (bitsandbytes, torchao) is not an "
                            "optimizer of this launcher: use \"adam\", or the "
                            "torchtune target"});
    if (t.optimizerInBackward)
        refusals.push_back({"/training/optimizer_in_backward",
                            "this launcher steps the optimizer after the backward: set it "
                            "false, or use the torchtune target (full fine-tuning)"});
    if (!t.masterWeights && !plan.finetune)
        refusals.push_back({"/training/master_weights",
                            "this launcher keeps FP32 master weights and gradients: set it true"});
}

LaunchShape launchShape(const ResolvedScenario& plan, std::vector<ExportRefusal>& refusals,
                        FineTuning fineTuning) {
    LaunchShape s;
    if (plan.hetero) {
        // None of the pinned launchers places pipeline stages on unlike GPUs: Megatron-LM runs
        // one tp for every stage and splits the global batch evenly over identical replicas
        // (its maintainers: heterogeneous training "not on our roadmap", Megatron-LM issue 922);
        // DeepSpeed, torchtitan and torchtune build one device mesh of one GPU kind.
        refusals.push_back({"/parallelism/pipelines",
                            "this target launches one uniform cluster: a plan over "
                            "cluster.pools (stages on unlike GPUs) exports to Megatron-LM "
                            "(target \"megatron\": one tp everywhere, node ranks placed by "
                            "pool), or export each pool's uniform plan"});
        return s;
    }
    const auto& c = plan.cluster;
    const auto& p = plan.parallel;
    const auto& t = plan.training;
    s.world = c.numGpus;
    s.gpusPerNode = c.numGpus < c.gpusPerNode ? c.numGpus : c.gpusPerNode;
    if (s.gpusPerNode <= 0 || s.world % s.gpusPerNode != 0) {
        refusals.push_back(
            {"/cluster/num_gpus",
             "a launcher starts the same number of processes on every node: " + num(s.world) +
                 " GPUs do not fill whole nodes of " + std::to_string(c.gpusPerNode) +
                 "; use a multiple of cluster.gpus_per_node"});
        return s;
    }
    s.nodes = s.world / s.gpusPerNode;
    refuseFineTuning(plan, refusals, fineTuning);
    s.dp = p.dp;
    const std::int64_t model = std::int64_t(p.tp) * p.pp * p.cp;
    if (s.dp * model != s.world)
        refusals.push_back({"/parallelism/dp", "dp x tp x pp x cp = " + num(s.dp * model) +
                                                   " but the world is " + num(s.world)});
    const std::int64_t perStep = s.dp * t.microBatch;
    if (perStep <= 0 || t.globalBatch % perStep != 0)
        refusals.push_back(
            {"/training/global_batch",
             num(t.globalBatch) + " is not a multiple of micro_batch x dp = " + num(perStep)});
    else
        s.gradAccum = t.globalBatch / perStep;
    if (plan.model.moe) {
        const std::int64_t expertModel = std::int64_t(p.etp) * p.ep * p.pp;
        if (s.world % expertModel != 0)
            refusals.push_back({"/parallelism/ep", "etp x ep x pp = " + num(expertModel) +
                                                       " does not divide the world " +
                                                       num(s.world)});
        else
            s.expertDp = s.world / expertModel;
    }
    if (t.tokens && t.seqLen > 0 && t.globalBatch > 0)
        s.trainIters = std::int64_t(std::ceil(*t.tokens / double(t.seqLen * t.globalBatch)));
    return s;
}

std::string jobName(const ResolvedScenario& plan, const ExportOptions& options) {
    std::string source = !options.jobName.empty()    ? options.jobName
                         : !plan.name.empty()        ? plan.name
                         : !plan.modelPreset.empty() ? plan.modelPreset
                                                     : std::string("trainscape");
    std::string out;
    for (char ch : source) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c))
            out += char(std::tolower(c));
        else if (!out.empty() && out.back() != '-')
            out += '-';
        if (out.size() >= 40)
            break;
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out.empty() ? "trainscape" : out;
}

std::vector<std::string> planSummary(const ResolvedScenario& plan, const LaunchShape& s) {
    const auto& p = plan.parallel;
    return {"Plan: world " + num(s.world) + " = " + num(s.nodes) +
                (s.nodes == 1 ? " node x " : " nodes x ") + num(s.gpusPerNode) + " GPUs = DP " +
                num(s.dp) + " x TP " + std::to_string(p.tp) + " x PP " + std::to_string(p.pp) +
                " x CP " + std::to_string(p.cp),
            "Global batch " + num(plan.training.globalBatch) + " = micro " +
                num(plan.training.microBatch) + " x grad-accum " + num(s.gradAccum) + " x DP " +
                num(s.dp)};
}

} // namespace ts
