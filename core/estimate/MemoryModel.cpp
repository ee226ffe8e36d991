#include "estimate/MemoryModel.h"

#include "model/TransformerArithmetic.h"
#include "parallel/ZeroBubbleV.h"

#include <algorithm>

namespace ts {

StateBytesPerParam megatronStateBytes(Precision precision, OptimizerKind optimizer) {
    StateBytesPerParam b;
    const bool fp32 = precision == Precision::Fp32;
    b.weights = fp32 ? 4.0 : 2.0;
    b.gradients = 4.0;
    const double master = fp32 ? 0.0 : 4.0;
    switch (optimizer) {
    case OptimizerKind::Adam:
        b.optimizer = master + 8.0;
        break;
    case OptimizerKind::Sgd:
        b.optimizer = master + 4.0;
        break;
    case OptimizerKind::Adafactor:
        // Row and column second-moment factors: negligible against the master weights.
        b.optimizer = master + 0.0;
        break;
    case OptimizerKind::Adam8bit:
        b.optimizer = master + kAdam8bitStateBytes;
        break;
    }
    if (fp32 && optimizer == OptimizerKind::Adafactor)
        b.optimizer = 0.0;
    return b;
}

StateBytesPerParam stateBytesPerParam(const TrainingConfig& training, Framework framework) {
    if (training.masterWeights) {
        StateBytesPerParam b = megatronStateBytes(training.precision, training.optimizer);
        if (training.gradReduceDtype) // the main gradient buffer (PlanConfig.h)
            b.gradients = *training.gradReduceDtype == GradReduceDtype::Bf16 ? 2.0 : 4.0;
        b.unshardedGradientsUnderZero2 = framework == Framework::Pytorch;
        return b;
    }
    const double w = training.precision == Precision::Fp32 ? 4.0 : 2.0;
    StateBytesPerParam b;
    b.weights = w;
    b.gradients = w;
    switch (training.optimizer) {
    case OptimizerKind::Adam:
        b.optimizer = 2.0 * w;
        break;
    case OptimizerKind::Adam8bit:
        b.optimizer = kAdam8bitStateBytes;
        break;
    case OptimizerKind::Sgd:
        b.optimizer = w;
        break;
    case OptimizerKind::Adafactor:
        b.optimizer = 0.0;
        break;
    }
    return b;
}

double optimizerStepTemporaryBytes(const TrainingConfig& training, double optimizerBytes,
                                   double largestLocalParams) {
    if (training.optimizer != OptimizerKind::Adam || training.optimizerInBackward)
        return 0.0;
    const double varianceShare = training.masterWeights ? 4.0 / 12.0 : 0.5;
    const double varianceBytes = training.masterWeights                  ? 4.0
                                 : training.precision == Precision::Fp32 ? 4.0
                                                                         : 2.0;
    switch (training.optimizerImpl) {
    case OptimizerImpl::Foreach:
        return varianceShare * optimizerBytes;
    case OptimizerImpl::ForLoop:
        return optimizerBytes > 0 ? varianceBytes * largestLocalParams : 0.0;
    case OptimizerImpl::Fused:
        return 0.0;
    }
    return 0.0;
}

double optimizerStepBytesPerParam(const TrainingConfig& training) {
    const bool master = training.masterWeights;
    switch (training.optimizer) {
    case OptimizerKind::Adam:
        return master ? 38.0 : 18.0;
    case OptimizerKind::Adam8bit:
        return master ? 26.0 : 14.0;
    case OptimizerKind::Sgd:
        return master ? 30.0 : 14.0;
    case OptimizerKind::Adafactor:
        return master ? 26.0 : 12.0;
    }
    return 38.0;
}

namespace {

struct ActivationTerms {
    double gathered = 0;   // per token, never divided by TP (gatheredLinearInputs)
    double replicated = 0; // per token, bytes / h units not divided by TP without SP
    double sharded = 0;    // divided by TP
    double scores = 0;     // bytes per (token x s x head): the s x s attention terms
};

// Per-token bytes of one layer, split as in Korthikanti et al. 2022, sec. 4.1.
ActivationTerms layerTerms(const ModelConfig& m, const ActivationAssumptions& a) {
    const double h = static_cast<double>(m.hidden);
    const double q = static_cast<double>(queryWidth(m));
    const double kv = static_cast<double>(keyValueWidth(m));
    const double ffn = static_cast<double>(m.ffnHidden);
    const double mask = a.dropout ? 1.0 : 0.0;
    ActivationTerms t;
    // Attention block: QKV input 2h (replicated), Q 2q, K and V 2kv each, output-projection
    // input 2q; dropout mask after the output projection h (replicated).
    t.replicated += 2.0 * h + mask * h;
    t.sharded += 2.0 * q + 4.0 * kv + 2.0 * q;
    if (!a.flashAttention) {
        // Softmax output 2, dropout mask 1, dropout output 2 bytes per score (5as^2b).
        t.scores = 2.0 + mask + (a.dropout ? 2.0 : 0.0);
    } else {
        // Flash attention keeps only the FP32 log-sum-exp per query row and head.
        t.sharded += 4.0 * m.heads;
    }
    // MLP: input 2h (replicated); GELU: its input and the down-projection input, 2ffn each;
    // SwiGLU: gate and up outputs and the down-projection input, 2ffn each; dropout mask h.
    t.replicated += 2.0 * h + mask * h;
    t.sharded += (m.mlp == MlpKind::Gelu ? 4.0 : 6.0) * ffn;
    // The inputs of the two norms, 2h each (replicated).
    t.replicated += 4.0 * h;
    if (a.eagerElementwise) { // MemoryModel.h, ActivationAssumptions
        t.replicated += 8.0 * h;
        t.sharded += 4.0 * q + 4.0 * kv;
        if (isGatedMlp(m.mlp))
            t.sharded += 2.0 * ffn;
    }
    if (a.expandedKeyValues)
        t.sharded += 4.0 * (q - kv);
    if (a.dropQkvInput)
        t.replicated -= 2.0 * h;
    if (a.dropMlpInput)
        t.replicated -= 2.0 * h;
    if (a.gatheredLinearInputs) {
        const double inputs = (a.dropQkvInput ? 0.0 : 2.0 * h) + (a.dropMlpInput ? 0.0 : 2.0 * h);
        t.replicated -= inputs;
        t.gathered += inputs;
    }
    if (a.dropDownInput)
        t.sharded -= 2.0 * ffn;
    return t;
}

double tokens(const ActivationLayout& l) {
    return static_cast<double>(l.seqLen) * static_cast<double>(l.microBatch);
}

// torchtitan's op-level selective checkpointing (parallelize_llama.py at 9dec370): the
// policy saves the outputs of aten.mm except every second one, counted per layer in forward
// order (wq 1, wk 2, wv 3, wo 4, w1 5, w3 6, w2 7; GELU: fc1 5, fc2 6), of SDPA (output and
// its FP32 log-sum-exp) and of the reduce-scatters; the checkpoint keeps the layer input.
// Saved per token: input 2h, wq 2q, wv 2kv, SDPA 2q + 4 heads, w1 / fc1 2 ffn, and for
// SwiGLU the w2 product 2h, which a row-parallel layer holds whole (partial sums) before its
// reduction; with SP the two reduce-scatter outputs, 2h / t each. Column-parallel outputs
// shard over t.
double opLevelSelectiveBytesPerToken(const ModelConfig& m, const ActivationLayout& l) {
    const double t = std::max(1, l.tp);
    const double h = static_cast<double>(m.hidden);
    const double q = static_cast<double>(queryWidth(m));
    const double kv = static_cast<double>(keyValueWidth(m));
    const double ffn = static_cast<double>(m.ffnHidden);
    double bytes = 2.0 * h / (l.sequenceParallel ? t : 1.0);
    bytes += (2.0 * q + 2.0 * kv + 2.0 * q + 4.0 * m.heads + 2.0 * ffn) / t;
    if (isGatedMlp(m.mlp))
        bytes += 2.0 * h;
    if (t > 1 && l.sequenceParallel)
        bytes += 2.0 * (2.0 * h / t);
    return bytes;
}

} // namespace

double layerActivationBytes(const ModelConfig& model, const ActivationLayout& layout,
                            const ActivationAssumptions& assumptions) {
    const ActivationTerms t = layerTerms(model, assumptions);
    const double tp = std::max(1, layout.tp);
    const double replicated = layout.sequenceParallel ? t.replicated / tp : t.replicated;
    const double s = static_cast<double>(layout.seqLen);
    const double scores = t.scores * s * model.heads / tp; // 5as/h x h per token
    return tokens(layout) * (t.gathered + replicated + t.sharded / tp + scores);
}

double layerActivationBytesSelective(const ModelConfig& model, const ActivationLayout& layout,
                                     const ActivationAssumptions& assumptions) {
    if (assumptions.opLevelSelective)
        return tokens(layout) * opLevelSelectiveBytesPerToken(model, layout);
    const ActivationTerms t = layerTerms(model, assumptions);
    const double tp = std::max(1, layout.tp);
    const double replicated = layout.sequenceParallel ? t.replicated / tp : t.replicated;
    return tokens(layout) * (t.gathered + replicated + t.sharded / tp);
}

double layerActivationBytesFull(const ModelConfig& model, const ActivationLayout& layout) {
    const double tp = std::max(1, layout.tp);
    return tokens(layout) * 2.0 * static_cast<double>(model.hidden) /
           (layout.sequenceParallel ? tp : 1.0);
}

double outputLayerActivationBytes(const ModelConfig& model, const ActivationLayout& layout,
                                  const ActivationAssumptions& assumptions) {
    const double tp = std::max(1, layout.tp);
    const double h = static_cast<double>(model.hidden);
    const double perLogit = assumptions.lossBytesPerLogit;
    const double sp = layout.sequenceParallel ? tp : 1.0;
    // The final norm's input, and the output layer's (gathered whole under DTensor SP).
    const double inputs =
        2.0 * h / sp + (assumptions.gatheredLinearInputs ? 2.0 * h : 2.0 * h / sp);
    return tokens(layout) * (inputs + perLogit * model.vocab / tp);
}

double microbatchesInFlight(PipelineScheduleKind schedule, int stages, int chunks, int stage,
                            std::int64_t microbatches) {
    const double m = static_cast<double>(microbatches);
    switch (schedule) {
    case PipelineScheduleKind::GPipe:
    case PipelineScheduleKind::BreadthFirst: // every micro-batch, through all the chunks
        return m;
    case PipelineScheduleKind::Interleaved: {
        const double v = std::max(1, chunks);
        const double warmup = double(stages - stage - 1) * 2.0 + (v - 1.0) * stages;
        return std::min(m * v, warmup + 1.0) / v;
    }
    case PipelineScheduleKind::ZeroBubble:
        if (chunks == 2) // ZB-V: 2p half-size chunk activations at most (parallel/ZeroBubbleV.h)
            return double(zeroBubbleVPeakChunks(stages, stage, microbatches)) / 2.0;
        return std::min(m, double(stages - stage));
    default:
        return std::min(m, double(stages - stage));
    }
}

} // namespace ts
