#pragma once
// Hand-built model and GPU descriptions shared by the estimator's unit tests (the figures of
// the public Llama 3 8B, Mixtral 8x7B and DeepSeek-V3 configs and the H100 SXM datasheet, as
// in resources/catalog), and resolved scenarios built from them.

#include "scenario/ClusterConfig.h"
#include "scenario/ModelConfig.h"
#include "scenario/ResolvedScenario.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace ts::test {

inline ModelConfig llama3_8b() {
    ModelConfig m;
    m.layers = 32;
    m.hidden = 4096;
    m.ffnHidden = 14336;
    m.heads = 32;
    m.kvHeads = 8;
    m.headDim = 128;
    m.vocab = 128256;
    m.mlp = MlpKind::SwiGlu;
    return m;
}

// Llama 3 8B's layers with 8 experts of its FFN size, top 2, and a 32000-token vocabulary.
inline ModelConfig mixtral8x7b() {
    ModelConfig m = llama3_8b();
    m.vocab = 32000;
    m.moe = MoeConfig{8, 2, 14336, 0, 0, std::nullopt, {}, {}};
    return m;
}

// MLA and 256 routed experts (top 8) plus a shared one, 3 dense layers first. `grouped`: the
// node-limited routing of HF config.json (n_group 8, topk_group 4).
inline ModelConfig deepseekV3(bool grouped = false) {
    ModelConfig m;
    m.layers = 61;
    m.hidden = 7168;
    m.ffnHidden = 18432;
    m.heads = 128;
    m.kvHeads = 128;
    m.headDim = 56; // hidden / heads: unused under MLA
    m.vocab = 129280;
    m.mlp = MlpKind::SwiGlu;
    m.mla = MlaConfig{1536, 512, 128, 64, 128};
    m.moe = MoeConfig{256, 8, 2048, 1, 3, std::nullopt, {}, {}};
    if (grouped) {
        m.moe->groups = std::optional<int>(8);
        m.moe->groupsPerToken = std::optional<int>(4);
    }
    return m;
}

inline GpuSpec h100() {
    GpuSpec g;
    g.name = "H100 SXM";
    g.memoryGiB = 80;
    g.hbmGBps = 3350;
    g.bf16Tflops = 989.4;
    g.fp8Tflops = 1978.9;
    g.fp32Tflops = 66.9;
    g.tdpW = 700;
    g.mamfBf16Tflops = 794.5;
    g.mamfFp8Tflops = 1402.6;
    g.smCount = 132;
    return g;
}

// 64 H100 SXM in 8 DGX-like nodes: NVLink 450 GB/s in domains of 8, 8 x 400 Gbit/s NICs.
inline void useH100Cluster64(ResolvedScenario& sc) {
    sc.cluster.gpu = h100();
    sc.cluster.numGpus = 64;
    sc.cluster.gpusPerNode = 8;
    sc.cluster.scaleUp = {8, 450.0, 2.0};
    sc.cluster.scaleOut.nicGbitPerS = 400;
    sc.cluster.scaleOut.nicsPerNode = 8;
}

// The shape of a plan on useH100Cluster64's nodes (designated initializers name what a test
// changes): `gpus` of its GPUs, micro-batches of one seqLen-token sequence, dp = gpus /
// (tp x pp).
struct H100Plan {
    int gpus = 64;
    std::int64_t globalBatch = 256;
    std::int64_t seqLen = 4096;
    int tp = 1;
    int pp = 1;
};

// `model` in BF16 on `plan`, a hand-built resolved scenario: the layers split evenly over the
// pp stages (the remainder on the last ones), dp fully sharded (dp_shard = dp, as a resolved
// scenario without dp_shard), ZeRO 1, selective recompute, every other key at its default.
inline ResolvedScenario h100Scenario(std::string name, const ModelConfig& model, H100Plan plan) {
    ResolvedScenario sc;
    sc.name = std::move(name);
    sc.model = model;
    useH100Cluster64(sc);
    sc.cluster.numGpus = plan.gpus;
    sc.training.seqLen = plan.seqLen;
    sc.training.globalBatch = plan.globalBatch;
    sc.training.microBatch = 1;
    sc.training.precision = Precision::Bf16;
    ParallelConfig& p = sc.parallel;
    p.tp = plan.tp;
    p.pp = plan.pp;
    p.dp = plan.gpus / (plan.tp * plan.pp);
    p.dpShard = p.dp;
    p.vpp = 1;
    p.pipelineLayers.assign(static_cast<std::size_t>(plan.pp), model.layers / plan.pp);
    for (int i = 0; i < model.layers % plan.pp; ++i)
        ++p.pipelineLayers[static_cast<std::size_t>(plan.pp - 1 - i)];
    p.zero = 1;
    p.recompute = RecomputeMode::Selective;
    return sc;
}

} // namespace ts::test
