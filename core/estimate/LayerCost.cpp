#include "estimate/LayerCost.h"

#include "estimate/AttentionCore.h"

#include "estimate/ContextParallel.h"
#include "estimate/EagerKernels.h"
#include "estimate/FinetuneCost.h"
#include "estimate/MoeLayerCost.h"
#include "estimate/PrecisionMemory.h"
#include "hardware/KernelTime.h"
#include "model/TransformerArithmetic.h"

#include <algorithm>

namespace ts {

namespace {

struct Shape {
    double tokens; // micro-batch x sequence / cp: the GEMM M dimension
    double h, q, kv, ffn, upWidth, vocab;
    double tp;
    double replicated; // 1/tp under sequence parallelism, else 1
    MatmulDtype dtype;
    double inBytes;
    double actBytes; // activations between kernels: FP32 training 4, else 16-bit
    bool fp8;
    // Low-precision casts of GEMM inputs (estimate/PrecisionMemory.h): HBM bytes per element
    // of an activation or gradient and of a weight, and kernels per cast.
    double castBytes, weightCastBytes;
    int castPasses;
    // LoRA / QLoRA: the base linears are frozen and need no weight-gradient GEMM.
    bool frozenBase;
};

Shape shapeOf(const ResolvedScenario& sc) {
    const ModelConfig& m = sc.model;
    Shape s{};
    // Context parallelism splits every sequence over cp ranks (Megatron-Core CP docs).
    s.tokens = double(sc.training.seqLen) * double(sc.training.microBatch) /
               double(std::max(1, sc.parallel.cp));
    s.h = double(m.hidden);
    s.q = double(queryWidth(m));
    s.kv = double(keyValueWidth(m));
    s.ffn = double(m.ffnHidden);
    s.upWidth = (isGatedMlp(m.mlp) ? 2.0 : 1.0) * s.ffn;
    s.vocab = double(m.vocab);
    s.tp = std::max(1, sc.parallel.tp);
    s.replicated = sc.parallel.sequenceParallel ? 1.0 / s.tp : 1.0;
    s.dtype = matmulDtypeFor(sc.training.precision);
    s.fp8 = s.dtype == MatmulDtype::Fp8 || s.dtype == MatmulDtype::Fp4;
    s.inBytes = matmulInputBytes(s.dtype);
    s.actBytes = activationBytes(sc);
    s.castBytes = fp8CastBytesPerElement(sc.training, CastOperand::Activation);
    s.weightCastBytes = fp8CastBytesPerElement(sc.training, CastOperand::Weight);
    s.castPasses = fp8CastPasses(sc.training);
    s.frozenBase = sc.finetune && sc.finetune->adapters();
    return s;
}

// Forward, input-gradient and weight-gradient GEMMs of one linear layer [M x K] x [K x N]
// (the backward costs twice the forward; Narayanan et al. 2021 sec. 5.1). Weight gradients
// accumulate into FP32 main gradients (Megatron-LM). A frozen weight (LoRA's base) gets no
// weight gradient: its backward is the input-gradient GEMM alone.
void addLinear(const HardwareProfile& hw, const Shape& s, double n, double k, PassCost& fwd,
               PassCost& bwd) {
    const double m = s.tokens;
    fwd.gemm += matmulSeconds(hw, s.dtype, m, n, k, s.inBytes, 2.0);
    bwd.gemm += matmulSeconds(hw, s.dtype, m, k, n, s.inBytes, 2.0);
    fwd.kernels += 1;
    bwd.kernels += 1;
    if (!s.frozenBase) {
        bwd.gemm += matmulSeconds(hw, s.dtype, k, n, m, s.inBytes, kWeightGradientAccumulateBytes);
        bwd.kernels += 1;
    }
}

GroupPlacement tpGroup(const ResolvedScenario& sc) {
    return {sc.parallel.tp, 1};
}

} // namespace

void addCollective(CollectiveTime& into, const CollectiveTime& c, double times) {
    into.seconds += times * c.seconds;
    into.scaleUpBytes += times * c.scaleUpBytes;
    into.scaleOutBytes += times * c.scaleOutBytes;
}

double tensorParallelGatherBytes(const ResolvedScenario& sc, double bytes) {
    if (sc.execution.framework == Framework::Pytorch && sc.training.precision == Precision::Fp8)
        return bytes * kFloat8ElementBytes / activationBytes(sc);
    return bytes;
}

void addLayerTensorParallel(const CostContext& ctx, double bytes, CollectiveTime& forward,
                            CollectiveTime& backward) {
    const ResolvedScenario& sc = ctx.scenario;
    if (sc.parallel.tp <= 1)
        return;
    const GroupPlacement g = tpGroup(sc);
    // (Their kernels: tensorParallelKernels.)
    if (sc.parallel.sequenceParallel) {
        const CollectiveTime ag =
            ctx.collectives.cost(Collective::AllGather, tensorParallelGatherBytes(sc, bytes), g);
        const CollectiveTime rs = ctx.collectives.cost(Collective::ReduceScatter, bytes, g);
        addCollective(forward, ag, 2);
        addCollective(forward, rs, 2);
        addCollective(backward, ag, tensorParallelBackwardGathers(sc.execution.framework));
        addCollective(backward, rs, 2);
    } else {
        const CollectiveTime ar = ctx.collectives.cost(Collective::AllReduce, bytes, g);
        addCollective(forward, ar, 2);
        addCollective(backward, ar, 2);
    }
}

int tensorParallelBackwardGathers(Framework framework) {
    return framework == Framework::Pytorch ? 2 : 4;
}

TensorParallelKernels tensorParallelKernels(const ParallelConfig& plan, Framework framework) {
    if (plan.tp <= 1)
        return {};
    if (!plan.sequenceParallel)
        return TensorParallelKernels{2, 2};
    return TensorParallelKernels{4, 2.0 + tensorParallelBackwardGathers(framework)};
}

void addAttentionKernels(int cp, PassCost& forward, PassCost& backward) {
    // FlashAttention / cuDNN fused attention: one forward kernel; the backward's
    // preprocessing (dO . O), main and dQ conversion kernels (FlashAttention-2,
    // Dao 2023, Algorithm 2 and its implementation). A ring over cp ranks runs one per step
    // (Megatron-Core / TE context parallelism), plus its send/receive and correction.
    const double steps = std::max(1, cp);
    forward.kernels += steps * (cp > 1 ? 3.0 : 1.0);
    backward.kernels += steps * (cp > 1 ? 5.0 : 3.0);
}

double activationFunctionBytes(MlpKind mlp) {
    return isGatedMlp(mlp) ? 6.0 : 4.0;
}

double layerNormModuleSeconds(const HardwareProfile& hw, double hidden, double replicated,
                              double tokens) {
    return memoryBoundSeconds(hw, 8.0 * hidden * replicated * tokens, 2);
}

double selectiveRecomputeSeconds(const ExecutionConfig& execution, const LayerCost& layer) {
    if (execution.recomputeModules.empty())
        return layer.forward.attention;
    double seconds = 0;
    for (RecomputeModule m : execution.recomputeModules) {
        switch (m) {
        case RecomputeModule::CoreAttn:
            seconds += layer.forward.attention;
            break;
        case RecomputeModule::LayerNorm:
            seconds += layer.modules.layernorm;
            break;
        case RecomputeModule::MlaUpProj:
            seconds += layer.modules.mlaUpProj;
            break;
        case RecomputeModule::MoeAct:
            seconds += layer.modules.moeAct;
            break;
        case RecomputeModule::Mlp:
            seconds += layer.modules.mlp;
            break;
        case RecomputeModule::Moe:
            seconds += layer.expertForward.compute();
            break;
        case RecomputeModule::SharedExperts:
            seconds += layer.modules.sharedExperts;
            break;
        }
    }
    return seconds;
}

double exposedAfterOverlap(double commSeconds, double computeSeconds, double exposedFraction) {
    return std::max(exposedFraction * commSeconds, commSeconds - computeSeconds);
}

LayerCost transformerLayerCost(const CostContext& ctx) {
    const ResolvedScenario& sc = ctx.scenario;
    const HardwareProfile& hw = ctx.hw;
    const Shape s = shapeOf(sc);
    LayerCost c;

    addLinear(hw, s, (s.q + 2.0 * s.kv) / s.tp, s.h, c.forward, c.backward); // QKV
    addLinear(hw, s, s.h, s.q / s.tp, c.forward, c.backward);                // output proj.
    const double beforeMlp = c.forward.gemm;
    addLinear(hw, s, s.upWidth / s.tp, s.h, c.forward, c.backward); // MLP up (+gate)
    addLinear(hw, s, s.h, s.ffn / s.tp, c.forward, c.backward);     // MLP down
    c.modules.mlp = c.forward.gemm - beforeMlp;

    // The attention core as the backend runs it (estimate/AttentionCore.h): fused, with context
    // parallelism over the cp group by parallelism.cp_comm, or the materialised scores.
    const double mb = double(sc.training.microBatch);
    const double qBytes = s.q / s.tp * s.actBytes * mb;
    AttentionCoreInput core;
    core.shape = attentionShapeOf(sc.training, double(sc.model.heads) / s.tp, sc.model.headDim);
    core.tokenBytes = AttentionTokenBytes{qBytes, 2.0 * s.kv / s.tp * s.actBytes * mb, qBytes,
                                          double(sc.model.kvHeads) / s.tp};
    core.dtype = s.fp8 ? MatmulDtype::Bf16 : s.dtype;
    const AttentionCoreCost attention = attentionCoreCost(ctx, core);
    c.forward.attention = attention.forward.attention;
    c.backward.attention = attention.backward.attention;
    c.forward.kernels += attention.forward.kernels;
    c.backward.kernels += attention.backward.kernels;
    c.cpForward = attention.cpForward;
    c.cpBackward = attention.cpBackward;

    // Memory-bound work per token, forward, in bytes (16-bit activations, fused kernels as in
    // Megatron-LM / TransformerEngine): two norms (read + write h), two residual adds with
    // bias and dropout fused (read 2h, write h), the activation function (GELU: read and
    // write ffn; SwiGLU: read 2 ffn, write ffn). Norms and residuals run on 1/tp of the tokens
    // under sequence parallelism. The backward moves about twice the forward's bytes (it reads
    // the saved input and the incoming gradient and writes the outgoing gradient).
    const double actBytes = activationFunctionBytes(sc.model.mlp);
    double fwdBytes = (8.0 * s.h + 12.0 * s.h) * s.replicated + actBytes * s.ffn / s.tp;
    double bwdBytes = 2.0 * fwdBytes;
    // Eager PyTorch modules run each operator apart (estimate/EagerKernels.h).
    const EagerBytes eager = eagerAttentionBytes(sc, s.replicated, s.q / s.tp, s.kv / s.tp);
    const EagerBytes eagerMlp = eagerActivationBytes(sc, s.ffn / s.tp);
    fwdBytes += eager.forward + eagerMlp.forward;
    bwdBytes += eager.backward + eagerMlp.backward;
    int fwdKernels = 5, bwdKernels = 9;
    if (s.fp8) {
        // FP8 recipes (TransformerEngine, torchao float8) cast every GEMM input: read 2 bytes,
        // write 1 byte (plus a transposed copy for the backward GEMMs), and the weights once
        // per micro-batch; the gradients are cast in the backward. The recipe sets the bytes
        // and kernels of each cast (estimate/PrecisionMemory.h): current scaling reads the
        // input once more for its amax, block scaling writes an FP32 scale per block.
        const double gemmInputs = 2.0 * s.h + (s.q + s.ffn) / s.tp;
        const double gemmGradInputs = (s.q + 2.0 * s.kv + s.upWidth) / s.tp + 2.0 * s.h;
        fwdBytes += s.castBytes * gemmInputs;
        bwdBytes += s.castBytes * gemmGradInputs;
        const double weights =
            (s.h * (s.q + 2.0 * s.kv) + s.q * s.h + (s.upWidth + s.ffn) * s.h) / s.tp;
        c.forward.elementwise +=
            memoryBoundSeconds(hw, s.weightCastBytes * weights, 4 * s.castPasses);
        fwdKernels += 4 * s.castPasses;
        bwdKernels += 4 * s.castPasses;
    }
    c.forward.elementwise += memoryBoundSeconds(hw, fwdBytes * s.tokens, fwdKernels);
    c.backward.elementwise += memoryBoundSeconds(hw, bwdBytes * s.tokens, bwdKernels);
    // Two norms read and write h each (the layernorm module of selective recompute), the
    // activation function with the MLP.
    c.modules.layernorm = layerNormModuleSeconds(hw, s.h, s.replicated, s.tokens);
    c.modules.mlp += memoryBoundSeconds(hw, actBytes * s.ffn / s.tp * s.tokens, 1);
    c.forward.kernels += fwdKernels;
    c.backward.kernels += bwdKernels;

    // Tensor parallelism (Shoeybi et al. 2019; Korthikanti et al. 2022 sec. 4.2.2): without
    // SP, two all-reduces of the [s, b, h] activations forward and two backward. With SP,
    // forward: two all-gathers and two reduce-scatters; backward: two reduce-scatters of the
    // column-parallel input gradients, two all-gathers of the row-parallel output gradients
    // and two all-gathers re-gathering the column-parallel inputs for the weight gradients.
    addLayerTensorParallel(ctx, s.tokens * s.h * s.actBytes, c.tpForward, c.tpBackward);
    const TensorParallelKernels tpk = tensorParallelKernels(sc.parallel, sc.execution.framework);
    c.forward.kernels += tpk.forward;
    c.backward.kernels += tpk.backward;
    if (sc.finetune)
        addFinetuneLayerWork(ctx, s.tokens, c.forward, c.backward); // estimate/FinetuneCost.h
    return c;
}

AttentionShape attentionShapeOf(const TrainingConfig& training, double headsPerRank, int headDim) {
    const double rows = double(training.microBatch) * headsPerRank;
    if (!training.documentTokens)
        return {rows, training.seqLen, headDim, kCausalAttention};
    const double documents = double(training.seqLen) / double(*training.documentTokens);
    return {rows * documents, *training.documentTokens, headDim, kCausalAttention};
}

EdgeLayerCost embeddingCost(const CostContext& ctx) {
    const ResolvedScenario& sc = ctx.scenario;
    const HardwareProfile& hw = ctx.hw;
    const Shape s = shapeOf(sc);
    EdgeLayerCost c;
    // Table lookup (write the [tokens, h] output); backward scatter-adds into FP32 gradients.
    c.forward.elementwise = memoryBoundSeconds(hw, s.tokens * s.h * s.actBytes, 1);
    // A frozen embedding (LoRA's base) has no gradient to scatter.
    if (!s.frozenBase)
        c.backward.elementwise = memoryBoundSeconds(hw, s.tokens * s.h * 10.0, 1);
    if (s.tp > 1) {
        // Vocabulary-parallel embedding: the partial lookups are summed across TP.
        const double bytes = s.tokens * s.h * s.actBytes;
        const Collective kind =
            sc.parallel.sequenceParallel ? Collective::ReduceScatter : Collective::AllReduce;
        c.tpForward = ctx.collectives.cost(kind, bytes, tpGroup(sc));
    }
    return c;
}

EdgeLayerCost outputLayerCost(const CostContext& ctx) {
    const ResolvedScenario& sc = ctx.scenario;
    const HardwareProfile& hw = ctx.hw;
    const Shape s = shapeOf(sc);
    EdgeLayerCost c;
    // The output projection stays in BF16 under FP8 recipes (TransformerEngine and torchao
    // convert the transformer layers' linears only).
    const MatmulDtype dtype = s.fp8 ? MatmulDtype::Bf16 : s.dtype;
    const double inBytes = s.fp8 ? 2.0 : s.inBytes;
    const double n = s.vocab / s.tp;
    c.forward.gemm = matmulSeconds(hw, dtype, s.tokens, n, s.h, inBytes, 2.0);
    c.backward.gemm = matmulSeconds(hw, dtype, s.tokens, s.h, n, inBytes, 2.0);
    // The output layer is frozen under LoRA unless an adapter wraps lm_head (then the adapter,
    // not the matrix, gets the gradient: estimate/FinetuneCost.h).
    if (!s.frozenBase)
        c.backward.gemm +=
            matmulSeconds(hw, dtype, s.h, n, s.tokens, inBytes, kWeightGradientAccumulateBytes);
    // Final norm, then the vocabulary-parallel cross entropy in FP32 (read the 16-bit logits,
    // write and re-read FP32 values; the backward writes the logit gradients).
    c.forward.elementwise =
        memoryBoundSeconds(hw, s.tokens * (4.0 * s.h * s.replicated + 10.0 * n), 4);
    c.backward.elementwise =
        memoryBoundSeconds(hw, s.tokens * (8.0 * s.h * s.replicated + 10.0 * n), 4);
    if (s.tp > 1) {
        const double bytes = s.tokens * s.h * s.actBytes;
        const GroupPlacement g = tpGroup(sc);
        // Cross-entropy max and sum all-reduces (FP32 per token), and with SP the gather of the
        // final norm output and the reduce-scatter of its gradient.
        c.tpForward = ctx.collectives.cost(Collective::AllReduce, s.tokens * 8.0, g);
        if (sc.parallel.sequenceParallel) {
            addCollective(c.tpForward, ctx.collectives.cost(Collective::AllGather, bytes, g));
            c.tpBackward = ctx.collectives.cost(Collective::ReduceScatter, bytes, g);
        } else {
            c.tpBackward = ctx.collectives.cost(Collective::AllReduce, bytes, g);
        }
    }
    if (sc.finetune)
        addFinetuneOutputWork(ctx, s.tokens, c.forward, c.backward);
    return c;
}

} // namespace ts
