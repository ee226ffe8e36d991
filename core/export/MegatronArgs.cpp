#include "export/MegatronArgs.h"

#include "export/LaunchShape.h"

#include <numeric>
#include <string>

namespace ts {
namespace {

using Args = std::vector<CliArg>;

void flag(Args& args, std::string name) {
    args.push_back({std::move(name), {}});
}
void opt(Args& args, std::string name, std::string value) {
    args.push_back({std::move(name), {std::move(value)}});
}

void modelArgs(const ResolvedScenario& plan, Args& a, std::vector<ExportRefusal>& refusals) {
    const auto& m = plan.model;
    opt(a, "--num-layers", num(std::int64_t(m.layers)));
    opt(a, "--hidden-size", num(m.hidden));
    opt(a, "--ffn-hidden-size", num(m.ffnHidden));
    opt(a, "--num-attention-heads", num(std::int64_t(m.heads)));
    opt(a, "--kv-channels", num(std::int64_t(m.headDim)));
    if (m.kvHeads != m.heads) {
        flag(a, "--group-query-attention");
        opt(a, "--num-query-groups", num(std::int64_t(m.kvHeads)));
    }
    opt(a, "--seq-length", num(plan.training.seqLen));
    opt(a, "--max-position-embeddings", num(plan.training.seqLen));
    opt(a, "--vocab-size", num(m.vocab));
    if (isGatedMlp(m.mlp)) {
        // Llama-family conventions (Megatron-LM examples/llama): not plan settings, but what
        // a SwiGLU decoder is trained with. The clamped form is --quick-geglu instead
        // (MegatronModelArgs.cpp), which refuses --swiglu beside it (arguments.py:1268).
        if (m.mlp == MlpKind::SwiGlu)
            flag(a, "--swiglu");
        opt(a, "--normalization", "RMSNorm");
        opt(a, "--position-embedding-type", "rope");
    }
    megatronModelKeyArgs(plan, a, refusals); // biases, window, sinks, clamped SwiGLU
    if (!m.tiedEmbeddings)
        flag(a, "--untie-embeddings-and-output-weights");
    if (m.mla) {
        flag(a, "--multi-latent-attention");
        if (m.mla->qLoraRank > 0)
            opt(a, "--q-lora-rank", num(std::int64_t(m.mla->qLoraRank)));
        opt(a, "--kv-lora-rank", num(std::int64_t(m.mla->kvLoraRank)));
        opt(a, "--qk-head-dim", num(std::int64_t(m.mla->qkNopeHeadDim)));
        opt(a, "--qk-pos-emb-head-dim", num(std::int64_t(m.mla->qkRopeHeadDim)));
        opt(a, "--v-head-dim", num(std::int64_t(m.mla->vHeadDim)));
    }
    if (!m.moe)
        return;
    const auto& e = *m.moe;
    opt(a, "--num-experts", num(std::int64_t(e.experts)));
    opt(a, "--moe-router-topk", num(std::int64_t(e.topK)));
    opt(a, "--moe-ffn-hidden-size", num(e.expertFfnHidden));
    if (e.sharedExperts > 0)
        opt(a, "--moe-shared-expert-intermediate-size", num(e.sharedExperts * e.expertFfnHidden));
    if (e.firstDenseLayers > 0)
        opt(a, "--moe-layer-freq",
            "([0]*" + std::to_string(e.firstDenseLayers) + "+[1]*" +
                std::to_string(m.layers - e.firstDenseLayers) + ")");
    if (e.capacityFactor)
        opt(a, "--moe-expert-capacity-factor", num(*e.capacityFactor));
    if (e.groupCount() > 0) {
        opt(a, "--moe-router-num-groups", num(std::int64_t(e.groupCount())));
        opt(a, "--moe-router-group-topk", num(std::int64_t(e.groupsPerTokenCount())));
    }
}

void precisionArgs(const TrainingConfig& t, Args& a, std::vector<ExportRefusal>& refusals) {
    switch (t.precision) {
    case Precision::Fp32:
        break;
    case Precision::Fp16:
        flag(a, "--fp16");
        break;
    case Precision::Bf16:
        flag(a, "--bf16");
        break;
    case Precision::Fp8:
        flag(a, "--bf16");
        opt(a, "--fp8-format", "hybrid");
        opt(a, "--fp8-recipe", std::string(enumName(t.fp8Recipe)));
        break;
    case Precision::MxFp8:
        flag(a, "--bf16");
        opt(a, "--fp8-format", "e4m3");
        opt(a, "--fp8-recipe", "mxfp8");
        break;
    case Precision::NvFp4:
        flag(a, "--bf16");
        opt(a, "--fp4-format", "e2m1");
        opt(a, "--fp4-recipe", "nvfp4");
        break;
    }
    // training.grad_reduce_dtype "bf16": arguments.py accumulates and reduces bf16 runs'
    // gradients in FP32 unless --grad-reduce-in-bf16 (core_v0.15.0 line 2522).
    if (t.masterWeights && t.gradReduceDtype == GradReduceDtype::Bf16)
        flag(a, "--grad-reduce-in-bf16");
    if (t.optimizer == OptimizerKind::Adafactor)
        refusals.push_back({"/training/optimizer", "Megatron-LM's --optimizer offers adam and sgd "
                                                   "only; choose \"adam\" or \"sgd\""});
    else
        opt(a, "--optimizer", t.optimizer == OptimizerKind::Sgd ? "sgd" : "adam");
}

void recomputeArgs(const ParallelConfig& p, Args& a, std::vector<ExportRefusal>& refusals) {
    if (p.recompute == RecomputeMode::Selective) {
        opt(a, "--recompute-granularity", "selective");
        return;
    }
    if (p.recompute != RecomputeMode::Full)
        return;
    opt(a, "--recompute-granularity", "full");
    if (!p.recomputeLayers) {
        opt(a, "--recompute-method", "uniform"); // one layer per checkpoint: every layer
        opt(a, "--recompute-num-layers", "1");
        return;
    }
    // --recompute-num-layers counts layers of one model chunk (TransformerBlock builds one per
    // virtual stage; transformer_block.py, `block` method, core_v0.15.0).
    if (*p.recomputeLayers % p.vpp != 0) {
        refusals.push_back(
            {"/parallelism/recompute_layers",
             "Megatron-LM's --recompute-num-layers counts layers per virtual pipeline chunk: " +
                 std::to_string(*p.recomputeLayers) + " per stage is not a multiple of vpp " +
                 std::to_string(p.vpp) + "; use a multiple of vpp or null (every layer)"});
        return;
    }
    opt(a, "--recompute-method", "block");
    opt(a, "--recompute-num-layers", std::to_string(*p.recomputeLayers / p.vpp));
}

void trainingArgs(const ResolvedScenario& plan, const LaunchShape& s, Args& a,
                  std::vector<ExportRefusal>& refusals) {
    (void)s;
    const auto& t = plan.training;
    opt(a, "--micro-batch-size", num(t.microBatch));
    opt(a, "--global-batch-size", num(t.globalBatch));
    opt(a, "--train-iters", "$TRAIN_ITERS");
    opt(a, "--lr", "$LR");
    opt(a, "--lr-decay-style", "cosine");
    opt(a, "--log-interval", "1");
    opt(a, "--eval-iters", "0");
    precisionArgs(t, a, refusals);
    recomputeArgs(plan.parallel, a, refusals);
    // The fused loss kernel the estimate times (execution.cross_entropy "fused", inferred for
    // Megatron-LM; Megatron-Bridge's recipes set cross_entropy_loss_fusion too). Off by default
    // in core_v0.15.0 arguments.py; the unfused _VocabParallelCrossEntropy, which runs for the
    // other values, holds the same 4 bytes per logit (exp in place on one FP32 copy).
    if (plan.execution.crossEntropy == CrossEntropy::Fused)
        flag(a, "--cross-entropy-loss-fusion");
    if (plan.execution.crossEntropy == CrossEntropy::LinearChunked)
        refusals.push_back({"/execution/cross_entropy",
                            "Megatron-LM core_v0.15.0 computes the output layer whole before its "
                            "loss (no linear-chunked cross entropy): choose \"fused\""});
    // --attention-backend (arguments.py, AttnBackend: flash, fused, unfused, local, auto) when
    // the plan names one; "auto" is Megatron's default.
    switch (plan.execution.attentionBackend) {
    case AttentionBackend::Auto:
        break;
    case AttentionBackend::Flash:
        opt(a, "--attention-backend", "flash");
        break;
    case AttentionBackend::Cudnn:
        opt(a, "--attention-backend", "fused");
        break;
    case AttentionBackend::Unfused:
        opt(a, "--attention-backend", "unfused");
        break;
    }
    if (!plan.execution.fp8WeightCache && isLowPrecision(plan.training.precision))
        refusals.push_back({"/execution/fp8_weight_cache",
                            "disable_parameter_transpose_cache is a TransformerConfig field with "
                            "no pretrain_gpt.py flag at core_v0.15.0: export to Megatron-Bridge, "
                            "whose recipe sets it, or keep the cache"});
    if (plan.finetune) { // full fine-tuning: the model only, iteration 0 (arguments.py:2420)
        flag(a, "--finetune");
        opt(a, "--pretrained-checkpoint", "$PRETRAINED_CHECKPOINT");
    }
}

// --overlap-moe-expert-parallel-comm and TransformerConfig.__post_init__'s checks of it
// (megatron/core/transformer/transformer_config.py, core_v0.15.0): with pp > 1 only in the
// interleaved schedule (line 1447), the alltoall or flex dispatcher (1455, emitted above), no
// full recompute (1460-1466), bf16 or fp16 (1471).
void expertOverlapArgs(const ResolvedScenario& plan, Args& a,
                       std::vector<ExportRefusal>& refusals) {
    const auto& p = plan.parallel;
    const auto refuse = [&](const char* why) {
        refusals.push_back({"/parallelism/overlap/ep",
                            std::string("Megatron-LM overlaps the expert all-to-all only ") + why +
                                " (transformer_config.py __post_init__); set overlap ep to false"});
    };
    if (p.pp > 1 && p.vpp <= 1)
        refuse("in the interleaved schedule when pp > 1: give vpp > 1");
    if (plan.execution.moeDispatcher == MoeDispatcher::AllGather)
        refuse("with the alltoall or flex dispatcher: set execution.moe_dispatcher to alltoall");
    if (p.recompute == RecomputeMode::Full)
        refuse("without full recompute: use selective or no recompute");
    if (plan.training.precision == Precision::Fp32)
        refuse("in bf16 or fp16 training");
    flag(a, "--overlap-moe-expert-parallel-comm");
}

} // namespace

void pipelineArgs(const ResolvedScenario& plan, Args& a, std::vector<ExportRefusal>& refusals);
void dataParallelArgs(const ResolvedScenario& plan, Args& a, std::vector<ExportRefusal>& refusals);

MegatronArgs megatronArgs(const ResolvedScenario& plan, const LaunchShape& shape,
                          const ExportOptions& options, std::vector<ExportRefusal>& refusals) {
    MegatronArgs out;
    modelArgs(plan, out.model, refusals);
    trainingArgs(plan, shape, out.training, refusals);
    const auto& p = plan.parallel;
    opt(out.parallel, "--tensor-model-parallel-size", std::to_string(p.tp));
    opt(out.parallel, "--pipeline-model-parallel-size", std::to_string(p.pp));
    if (p.tp > 1 && p.sequenceParallel)
        flag(out.parallel, "--sequence-parallel");
    // moe_layer.py:266 (core_v0.15.0) raises at the first forward of a MoE layer under tensor
    // parallelism without sequence parallelism.
    if (plan.model.moe && p.tp > 1 && !p.sequenceParallel)
        refusals.push_back({"/parallelism/sequence_parallel",
                            "Megatron-LM's MoE layers under tensor parallelism need sequence "
                            "parallelism (moe_layer.py:266 raises at the first forward): set "
                            "sequence_parallel to true"});
    // arguments.py:931: "Tensor parallel communication/GEMM overlap can happen only when
    // sequence parallelism is enabled".
    if (p.tp > 1 && p.overlap.tp && !p.sequenceParallel)
        refusals.push_back({"/parallelism/overlap/tp",
                            "Megatron-LM overlaps tensor-parallel communication only with "
                            "sequence parallelism (arguments.py:931); set sequence_parallel to "
                            "true or overlap tp to false"});
    else if (p.tp > 1 && p.overlap.tp)
        flag(out.parallel, "--tp-comm-overlap");
    pipelineArgs(plan, out.parallel, refusals);
    // transformer_config.py:759: num_query_groups % tp == 0 (the resolver also allows tp a
    // multiple of kv_heads, KV replication, which Megatron-LM does not run).
    if (!plan.model.mla && plan.model.kvHeads % p.tp != 0)
        refusals.push_back({"/parallelism/tp",
                            "Megatron-LM splits the " + std::to_string(plan.model.kvHeads) +
                                " KV heads over tp = " + std::to_string(p.tp) +
                                " and needs kv_heads % tp == 0 (transformer_config.py:759): choose "
                                "tp dividing kv_heads"});
    // arguments.py:844: seq_length % (2 cp) == 0 with cp > 1.
    if (p.cp > 1 && plan.training.seqLen % (2 * p.cp) != 0)
        refusals.push_back(
            {"/parallelism/cp",
             "Megatron-LM needs seq_len a multiple of 2 x cp = " + std::to_string(2 * p.cp) +
                 " (arguments.py:844): choose cp or seq_len to match"});
    if (p.cp > 1) {
        opt(out.parallel, "--context-parallel-size", std::to_string(p.cp));
        opt(out.parallel, "--cp-comm-type", std::string(enumName(p.cpComm)));
    }
    if (plan.model.moe) {
        opt(out.parallel, "--expert-model-parallel-size", std::to_string(p.ep));
        opt(out.parallel, "--expert-tensor-parallel-size", std::to_string(p.etp));
        // The dispatcher the estimate times (execution.moe_dispatcher; Megatron's own default is
        // allgather). HybridEP has no flag at core_v0.15.0.
        switch (plan.execution.moeDispatcher) {
        case MoeDispatcher::AllGather:
            opt(out.parallel, "--moe-token-dispatcher-type", "allgather");
            break;
        case MoeDispatcher::AllToAll:
            opt(out.parallel, "--moe-token-dispatcher-type", "alltoall");
            break;
        case MoeDispatcher::DeepEp:
            opt(out.parallel, "--moe-token-dispatcher-type", "flex");
            flag(out.parallel, "--moe-enable-deepep");
            break;
        case MoeDispatcher::HybridEp:
            refusals.push_back({"/execution/moe_dispatcher",
                                "Megatron-LM core_v0.15.0 has no HybridEP dispatcher flag; choose "
                                "\"alltoall\" or \"deepep\""});
            break;
        }
        if (p.ep > 1 && p.overlap.ep)
            expertOverlapArgs(plan, out.parallel, refusals);
        // transformer_config.py:1344: "Please use --moe-router-pre-softmax when topk is 1".
        if (plan.model.moe->topK == 1)
            flag(out.parallel, "--moe-router-pre-softmax");
    }
    if (p.moeDispatchFp8)
        refusals.push_back({"/parallelism/moe_dispatch_fp8",
                            "Megatron-LM core_v0.15.0 has no flag for FP8 expert dispatch; set "
                            "it to false"});
    dataParallelArgs(plan, out.parallel, refusals);
    opt(out.data, "--tokenizer-type", "NullTokenizer");
    if (options.dataPath.empty()) {
        flag(out.data, "--mock-data");
    } else {
        opt(out.data, "--data-path", options.dataPath);
        opt(out.data, "--split", "949,50,1");
    }
    return out;
}

void megatronVariables(ShellScript& script, const LaunchShape& shape, const ExportOptions& options,
                       bool fineTuning) {
    script.comment("Steps: from training.tokens when the scenario gives them.");
    script.assignDefault("TRAIN_ITERS", num(shape.trainIters > 0 ? shape.trainIters : 100));
    script.assignDefault("LR", "3.0e-4");
    script.assignDefault("MEGATRON_LM",
                         options.megatronDir.empty() ? "/opt/Megatron-LM" : options.megatronDir);
    if (fineTuning) {
        script.comment("Full fine-tuning starts from this Megatron checkpoint of the base model.");
        script.assignDefault("PRETRAINED_CHECKPOINT", kPretrainedCheckpoint);
    }
}

std::vector<CliArg> allArgs(const MegatronArgs& args) {
    std::vector<CliArg> out;
    for (const auto* group : {&args.model, &args.training, &args.parallel, &args.data})
        out.insert(out.end(), group->begin(), group->end());
    return out;
}

} // namespace ts
