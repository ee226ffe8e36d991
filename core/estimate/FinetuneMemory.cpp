#include "estimate/FinetuneMemory.h"

#include "model/TransformerArithmetic.h"

#include <cstdint>

#include <algorithm>
#include <vector>

namespace ts {

namespace {

// NF4 (QLoRA sec. 3): 64 weights per block, 256 block absmaxes per second-level FP32 scale.
constexpr double kNf4Block = 64.0;
constexpr double kNf4ScaleBlock = 256.0;

// F.cross_entropy on FP32 logits (FinetuneMemory.h, lossBytesPerLogit): the saved log-softmax
// output, nll_loss_backward's gradient and _log_softmax_backward_data's result, 4 bytes each.
constexpr double kEagerLossBytesPerLogit = 12.0;
// DTensor loss parallel (torch/distributed/tensor/parallel/loss.py): its forward
// (_log_softmax) holds the bf16 logits, their FP32 upcast, the max-shifted copy and the
// exponential being summed, 2 + 3 x 4 = 14; its backward (_nll_loss_and_log_softmax_backward,
// `(grad_input + torch.exp(x)) * grad_output`) the saved log-softmax, the zeros_like
// gradient, the exponential and their sum, 4 x 4 = 16, the larger.
constexpr double kLossParallelBytesPerLogit = 16.0;
// "linear-chunked" (torchtune LinearCrossEntropyLoss; Liger fused linear cross entropy): the
// output projection and the loss run one chunk of tokens at a time and no chunk's logits stay
// for the backward, so what the loss holds at its peak is one chunk's working set: its 16-bit
// logits, their FP32 upcast and the FP32 gradient, 2 + 4 + 4 bytes per logit.
constexpr double kLinearChunkWorkingBytesPerLogit = 10.0;

// One linear module [in -> out] of a layer, and whether the plan shards its output (column
// parallel) or its input (row parallel).
struct Module {
    LoraTarget name;
    double in = 0, out = 0;
    bool columnParallel = true;
    double copies = 1; // MoE: experts on this rank
};

std::vector<Module> layerModules(const ModelConfig& m, int ep, bool moeLayer) {
    const double h = double(m.hidden);
    const double q = double(queryWidth(m)), kv = double(keyValueWidth(m));
    std::vector<Module> mods{{LoraTarget::QProj, h, q, true},
                             {LoraTarget::KProj, h, kv, true},
                             {LoraTarget::VProj, h, kv, true},
                             {LoraTarget::OProj, q, h, false}};
    double ffn = double(m.ffnHidden), copies = 1;
    if (moeLayer && m.moe) {
        ffn = double(m.moe->expertFfnHidden);
        copies = double(m.moe->experts) / std::max(1, ep) + m.moe->sharedExperts;
    }
    if (isGatedMlp(m.mlp))
        mods.push_back({LoraTarget::GateProj, h, ffn, true, copies});
    mods.push_back({LoraTarget::UpProj, h, ffn, true, copies});
    mods.push_back({LoraTarget::DownProj, ffn, h, false, copies});
    return mods;
}

} // namespace

double baseWeightBytesPerParam(BaseWeights base, bool doubleQuant, double inFeatures) {
    const double perRowScale = inFeatures > 0 ? 4.0 / inFeatures : 0.0;
    switch (base) {
    case BaseWeights::Bf16:
    case BaseWeights::Fp16:
        return 2.0;
    case BaseWeights::Fp8:
    case BaseWeights::Int8:
        return 1.0 + perRowScale;
    case BaseWeights::Nf4:
        return 0.5 + (doubleQuant ? 1.0 / kNf4Block + 4.0 / (kNf4Block * kNf4ScaleBlock)
                                  : 4.0 / kNf4Block);
    }
    return 2.0;
}

FinetuneLayer finetuneLayer(const ModelConfig& model, const FinetuneConfig& f, int tp, int ep,
                            bool moeLayer) {
    FinetuneLayer out;
    const double t = std::max(1, tp);
    const double r = f.adapters() ? double(f.loraRank) : 0.0;
    for (const Module& mod : layerModules(model, ep, moeLayer)) {
        const double elements = mod.in * mod.out / t;
        out.frozenLinearParams += mod.copies * elements;
        out.frozenLinearBytes +=
            mod.copies * elements * baseWeightBytesPerParam(f.baseWeights, f.doubleQuant, mod.in);
        out.largestLinear = std::max(out.largestLinear, elements);
        if (r <= 0 || !f.wraps(mod.name))
            continue;
        const double a = mod.columnParallel ? r * mod.in : r * mod.in / t;
        const double b = mod.columnParallel ? mod.out * r / t : mod.out * r;
        out.adapterParams += mod.copies * (a + b);
        out.adapterFlopsPerToken += mod.copies * 2.0 * (a + b);
        const double in = mod.columnParallel ? mod.in : mod.in / t;
        const double outWidth = mod.columnParallel ? mod.out / t : mod.out;
        out.adapterBytesPerToken += mod.copies * 2.0 * (in + 2.0 * r + 2.0 * outWidth);
    }
    return out;
}

FinetuneStageMemory finetuneStageMemory(const ResolvedScenario& sc, const FinetuneStageInput& in,
                                        const StateBytesPerParam& stateBytes) {
    const ModelConfig& m = sc.model;
    const FinetuneConfig& f = *sc.finetune;
    const int tp = std::max(1, sc.parallel.tp);
    const FinetuneLayer dense = finetuneLayer(m, f, tp, sc.parallel.ep, false);
    const FinetuneLayer moe = m.moe ? finetuneLayer(m, f, tp, sc.parallel.ep, true) : dense;
    const ParameterCounts counts = countParameters(m);
    // Norms, embedding and the output matrix stay in 16 bits (weights' bytes).
    const double sixteen = stateBytes.weights;
    double frozen = in.denseLayers * dense.frozenLinearBytes +
                    in.moeLayers * moe.frozenLinearBytes +
                    (in.denseLayers + in.moeLayers) * counts.perLayer.norms * sixteen;
    double adapters = in.denseLayers * dense.adapterParams + in.moeLayers * moe.adapterParams;
    const double matrix = double(m.vocab) * double(m.hidden) / tp * sixteen;
    if (in.embedding)
        frozen += matrix;
    if (in.output) {
        frozen += (in.ownOutputMatrix ? matrix : 0.0) + counts.finalNorm * sixteen;
        adapters += outputAdapterParams(m, f, tp);
    }
    FinetuneStageMemory out;
    const double shards = in.zero >= 3 ? double(std::max<std::int64_t>(1, in.shardRanks)) : 1.0;
    out.frozenBytes = frozen / shards;
    out.adapterParams = adapters;
    out.adapters = modelStateBytes(adapters, in.shardRanks, in.zero, stateBytes);
    const FinetuneLayer& big = in.moeLayers > 0 ? moe : dense;
    out.gatheredLayerBytes = big.frozenLinearBytes + counts.perLayer.norms * sixteen +
                             big.adapterParams * stateBytes.weights;
    out.layerAdapterGradientBytes = big.adapterParams * stateBytes.gradients;
    const bool quantised = f.baseWeights != BaseWeights::Bf16 && f.baseWeights != BaseWeights::Fp16;
    out.dequantisedBytes = quantised ? 2.0 * big.largestLinear : 0.0;
    return out;
}

bool pytorchNativeRecipe(const ResolvedScenario& sc) {
    return sc.execution.framework == Framework::Pytorch;
}

double lossBytesPerLogit(const ResolvedScenario& sc) {
    switch (sc.execution.crossEntropy) {
    case CrossEntropy::Fused:
        return kFusedLossBytesPerLogit;
    case CrossEntropy::Plain:
        return pytorchNativeRecipe(sc) && sc.parallel.tp > 1 ? kLossParallelBytesPerLogit
                                                             : kEagerLossBytesPerLogit;
    case CrossEntropy::LinearChunked:
        return kLinearChunkWorkingBytesPerLogit / std::max(1, sc.execution.lossChunks);
    case CrossEntropy::Chunked:
        break;
    }
    // CEWithChunkedOutputLoss (execution.loss_chunks, torchtune's default 8).
    const bool compiled = sc.training.compiled();
    const double perChunk = compiled ? 2.0 : 4.0 + 4.0;
    return (compiled ? 2.0 : 4.0) + perChunk / std::max(1, sc.execution.lossChunks);
}

double freedLogitBytes(const ResolvedScenario& sc, const ActivationLayout& layout) {
    // lossBytesPerLogit's FP32 cross entropy over the whole logits (with or without loss
    // parallel) on PyTorch modules.
    if (!pytorchNativeRecipe(sc) || sc.execution.crossEntropy != CrossEntropy::Plain)
        return 0.0;
    const double logits = double(layout.seqLen) * double(layout.microBatch) *
                          double(sc.model.vocab) / double(std::max(1, layout.tp));
    return 2.0 * logits;
}

ActivationAssumptions activationAssumptionsFor(const ResolvedScenario& sc,
                                               ActivationAssumptions a) {
    const bool native = pytorchNativeRecipe(sc);
    a.eagerElementwise = native && !sc.training.compiled();
    a.expandedKeyValues = native;
    a.opLevelSelective = native;
    a.gatheredLinearInputs = native && sc.parallel.tp > 1 && sc.parallel.sequenceParallel;
    a.lossBytesPerLogit = lossBytesPerLogit(sc);
    if (sc.finetune && sc.finetune->adapters()) {
        const FinetuneConfig& f = *sc.finetune;
        a.dropQkvInput = !f.wraps(LoraTarget::QProj) && !f.wraps(LoraTarget::KProj) &&
                         !f.wraps(LoraTarget::VProj);
        a.dropMlpInput = !f.wraps(LoraTarget::GateProj) && !f.wraps(LoraTarget::UpProj);
        a.dropDownInput = !f.wraps(LoraTarget::DownProj);
    }
    return a;
}

double outputAdapterParams(const ModelConfig& model, const FinetuneConfig& f, int tp) {
    if (!f.adapters() || !f.wraps(LoraTarget::LmHead))
        return 0.0;
    return double(f.loraRank) * (double(model.hidden) + double(model.vocab) / std::max(1, tp));
}

} // namespace ts
