#pragma once
// Resolved training settings and parallel plan.

#include "scenario/CostConfig.h"
#include "scenario/Enums.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ts {

struct TrainingConfig {
    std::int64_t seqLen = 0;
    std::int64_t globalBatch = 0; // sequences per optimizer step
    std::int64_t microBatch = 1;
    Precision precision = Precision::Bf16;
    // How FP8 GEMM inputs are scaled; read only when precision is Fp8 (Megatron-LM's
    // --fp8-recipe default "delayed"), and Delayed for every other precision.
    Fp8Recipe fp8Recipe = Fp8Recipe::Delayed;
    OptimizerKind optimizer = OptimizerKind::Adam;
    // Fused by default: Megatron's and DeepSpeed's FusedAdam, torchtitan's default
    // (optimizer.implementation "fused"), torchtune's configs from mid-2024 (fused: True).
    // torch.optim without a flag runs foreach, whose step holds a temporary the size of the
    // second moments (estimate/AllocatorMemory.h).
    OptimizerImpl optimizerImpl = OptimizerImpl::Fused;
    // Step each parameter in its gradient hook, so that no whole-model gradient buffer exists
    // (torchtune optimizer_in_bwd; needs one micro-batch per step).
    bool optimizerInBackward = false;
    // torch.compile of the model (torchtitan, torchtune): fused elementwise kernels keep fewer
    // activations than eager PyTorch (estimate/FinetuneMemory.h). Kept as stated: unstated is
    // the format's default false (compiled()), but time charges the eager operators' passes
    // only where the scenario says false (estimate/EagerKernels.h), as published
    // PyTorch-native performance runs compile.
    std::optional<bool> compile;
    bool compiled() const { return compile.value_or(false); }
    // true: 16-bit weights with FP32 master weights, FP32 gradients and FP32 optimizer states
    // (Megatron-LM, torchtitan mixed precision); false: weights, gradients and optimizer
    // states all in the training precision (torchtune "dtype: bf16", a Hugging Face model
    // loaded in bf16). Resolved default: true, false with a "finetune" section.
    bool masterWeights = true;
    // With master weights: the main gradient buffer's dtype, which sets the gradients' bytes
    // per parameter and the data-parallel reduction's (Enums.h GradReduceDtype). Kept as
    // stated: unstated, FP32 gradients (FP16 runs reduce in FP16: estimate/StageCosts.cpp).
    // Without master weights the gradients stay in the training precision and it is not read.
    std::optional<GradReduceDtype> gradReduceDtype;
    // Packed sequences whose attention stays within each document (THD / variable-length
    // attention: Megatron-Bridge's packed SFT data, cu_seqlens; document masking): the mean
    // tokens per document. nullopt: the whole sequence attends causally.
    std::optional<std::int64_t> documentTokens;
    std::optional<double> tokens; // total tokens to train
    bool operator==(const TrainingConfig&) const = default;
};

struct OffloadConfig {
    OffloadTarget optimizer = OffloadTarget::None;
    OffloadTarget params = OffloadTarget::None;
    OffloadTarget activations = OffloadTarget::None;
    bool operator==(const OffloadConfig&) const = default;
};

struct OverlapConfig {
    bool tp = true;
    bool dp = true;
    bool pp = true;
    // Expert-parallel all-to-alls hidden behind another micro-batch's compute (DeepSeek-V3's
    // DualPipe, Megatron-Core --overlap-moe-expert-parallel-comm). Default false.
    bool ep = false;
    bool operator==(const OverlapConfig&) const = default;
};

struct ParallelConfig {
    int tp = 1;
    int pp = 1;
    int cp = 1;
    int ep = 1;
    int etp = 1; // expert tensor parallel (resolved: defaults to tp)
    std::int64_t dp = 1;
    // Hybrid sharding (FSDP HYBRID_SHARD, torchtitan dp_shard, DeepSpeed MiCS): ZeRO shards
    // over groups of dpShard data-parallel ranks (times cp) and replicates across the
    // dp / dpShard groups. Resolved: equals dp when the scenario leaves it out (full sharding);
    // 0 in a plan built by hand means the same.
    std::int64_t dpShard = 0;
    CpCommType cpComm = CpCommType::P2P;
    int vpp = 1;
    std::vector<int> pipelineLayers; // pp*vpp entries, chunk order (always filled when resolved)
    bool sequenceParallel = false;
    int zero = 0;
    RecomputeMode recompute = RecomputeMode::None;
    std::optional<int> recomputeLayers; // with Full: layers per stage recomputed; nullopt = all
    PipelineScheduleKind schedule = PipelineScheduleKind::OneFOneB;
    OffloadConfig offload;
    OverlapConfig overlap;
    // Expert-parallel dispatch in FP8 with 1x128 FP32 scales, combine in BF16 (DeepSeek-V3
    // arXiv 2412.19437 sec. 3.3.2; DeepEP's dispatch takes FP8, its combine BF16). Default false.
    bool moeDispatchFp8 = false;
    // The input embedding / the output layer and loss take one transformer layer's slot in
    // the default pipeline split (Megatron --account-for-embedding-in-pipeline-split,
    // --account-for-loss-in-pipeline-split). pipelineLayers holds transformer layers only.
    bool embeddingInPipelineSplit = false;
    bool lossInPipelineSplit = false;
    bool operator==(const ParallelConfig&) const = default;

    std::int64_t microbatchesPerStep(std::int64_t globalBatch, std::int64_t microBatch) const {
        return globalBatch / (dp * microBatch);
    }
};

} // namespace ts
