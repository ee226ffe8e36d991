#pragma once
// How the framework executes the plan: the "execution" section of scenario format v1
// (shared/spec/scenario-format.md, "Execution keys"). The same plan runs at very different
// speeds under different token dispatchers, CUDA graph capture and expert kernels (the
// Megatron-Bridge 26.02 / 26.06 / 26.08 containers, shared/validation/README.md).

#include "scenario/Enums.h"

#include <optional>
#include <vector>

namespace ts {

// CPU time to issue one counted kernel when the scenario does not say
// (execution.host_launch_us): what the host spends per operation of a PyTorch eager step
// through Transformer Engine's Python modules, not CUDA's launch alone. The sources bound it:
// - CUDA's own launch is 2-4 us (NVIDIA, "Getting Started with CUDA Graphs", 2019: 3.8 us
//   per kernel launched from a stream loop on V100);
// - a plain torch.nn.Linear forward costs the host 13.5 us on an x86 DGX H100
//   (TransformerEngine issue 2053, its benchmark table; 33-37 us on Grace hosts);
// - one TE linear module, which issues one GEMM (plus its casts under FP8), costs 115-140 us
//   per forward on the host (TransformerEngine PR 1191: TEColumnParallelLinear 140 us before,
//   115 us after that PR; Megatron's own ColumnParallelLinear 74 us), and TE's GroupedLinear
//   adds torch.split and two torch.empty calls per expert (TransformerEngine issue 1499).
// The estimate counts one kernel per GEMM and per fused elementwise or cast kernel, so the
// host cost per counted kernel lies between the bare operator (13.5 us) and a whole TE module
// on one kernel (140 us). Fitted once within that range on all 124 published runs
// (tests/tst_accuracy.cpp; the sweep is in docs/execution-model.md, "Host timeline"): only
// the 22 MoE runs without full-iteration CUDA graphs respond; at 6 us (the launch alone)
// every pass was GPU-bound and those runs 9-60% too fast.
inline constexpr double kDefaultHostLaunchUs = 40.0;

// execution.loss_chunks when unstated (torchtune's num_output_chunks default).
inline constexpr int kDefaultLossChunks = 8;
inline constexpr int kMaxLossChunks = 1 << 20; // one chunk per token of a 1M-token sequence

// As written in the file: every key optional.
struct ExecutionInput {
    std::optional<MoeDispatcher> moeDispatcher;   // "moe_dispatcher"
    std::optional<MoeGroupedGemm> moeGroupedGemm; // "moe_grouped_gemm"
    std::optional<bool> moeForceBalance;          // "moe_force_balance"
    std::optional<CudaGraphs> cudaGraphs;         // "cuda_graphs"
    // "recompute_modules": outer optional the key is written, inner null (= ["core_attn"]).
    std::optional<std::optional<std::vector<RecomputeModule>>> recomputeModules;
    std::optional<bool> fp8Attention;                        // "fp8_attention"
    std::optional<std::optional<double>> hostLaunchUs;       // "host_launch_us"; null = default
    std::optional<std::optional<Framework>> framework;       // "framework"; null = inferred
    std::optional<std::optional<CrossEntropy>> crossEntropy; // "cross_entropy"; null = inferred
    std::optional<int> lossChunks;                           // "loss_chunks"
    std::optional<AttentionBackend> attentionBackend;        // "attention_backend"
    std::optional<bool> fp8WeightCache;                      // "fp8_weight_cache"
    bool operator==(const ExecutionInput&) const = default;
};

// Resolved: the format's defaults applied.
struct ExecutionConfig {
    MoeDispatcher moeDispatcher = MoeDispatcher::AllToAll;
    MoeGroupedGemm moeGroupedGemm = MoeGroupedGemm::Grouped;
    bool moeForceBalance = false;
    CudaGraphs cudaGraphs = CudaGraphs::None;
    // What selective recompute recomputes (empty unless recompute is "selective").
    std::vector<RecomputeModule> recomputeModules;
    bool fp8Attention = false;
    double hostLaunchUs = kDefaultHostLaunchUs;
    Framework framework = Framework::Megatron;       // stated, or inferred (ExecutionJson.h)
    CrossEntropy crossEntropy = CrossEntropy::Fused; // stated, or inferred (ExecutionJson.h)
    // Chunks of "chunked" and "linear-chunked" cross entropy: torchtune's default
    // (CEWithChunkedOutputLoss num_output_chunks = 8; LinearCrossEntropyLoss num_output_chunks
    // = 8, torchtune/modules/loss at v0.6).
    int lossChunks = kDefaultLossChunks;
    // As stated; "auto" is resolved per GPU and model by the estimate
    // (estimate/AttentionBackend.h).
    AttentionBackend attentionBackend = AttentionBackend::Auto;
    // FP8/FP4: Transformer Engine keeps each weight's quantized copy from the first micro-batch
    // to the optimizer step (estimate/PrecisionMemory.h counts it); false = Megatron's
    // disable_parameter_transpose_cache.
    bool fp8WeightCache = true;
    bool recomputes(RecomputeModule m) const {
        for (RecomputeModule r : recomputeModules)
            if (r == m)
                return true;
        return false;
    }
    bool operator==(const ExecutionConfig&) const = default;
};

} // namespace ts
