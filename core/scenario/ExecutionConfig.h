#pragma once
// How the framework executes the plan: the "execution" section of scenario format v1
// (shared/spec/scenario-format.md, "Execution keys"). The same plan runs at very different
// speeds under different token dispatchers, CUDA graph capture and expert kernels (the
// Megatron-Bridge 26.02 / 26.06 / 26.08 containers, shared/validation/README.md).

#include "scenario/Enums.h"

#include <optional>
#include <vector>

namespace ts {

// CPU time to issue one kernel when the scenario does not say (execution.host_launch_us):
// a PyTorch eager operator through Transformer Engine's Python wrappers. CUDA's own launch
// costs 2-4 us (NVIDIA, "Getting Started with CUDA Graphs", 2019: 3.8 us per kernel
// launched from a stream loop on V100); PyTorch's dispatcher and the Python layers of a
// TE module add a few more per kernel (PyTorch "Performance Tuning Guide": CUDA graphs
// "eliminate CPU overhead" of launching; Megatron-LM issue 1598 reports host-bound MoE
// layers). Fitted once on the published runs within 4-12 us (tests/tst_accuracy.cpp).
inline constexpr double kDefaultHostLaunchUs = 6.0;

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
    bool recomputes(RecomputeModule m) const {
        for (RecomputeModule r : recomputeModules)
            if (r == m)
                return true;
        return false;
    }
    bool operator==(const ExecutionConfig&) const = default;
};

} // namespace ts
