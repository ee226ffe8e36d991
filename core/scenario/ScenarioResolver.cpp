#include "scenario/ScenarioResolver.h"

#include "calibration/MeasuredPower.h"
#include "common/JsonObjectReader.h"
#include "hardware/AttentionKernel.h"
#include "hardware/GpuGeneration.h"
#include "hardware/PowerLimit.h"
#include "scenario/ClusterGraphJson.h"
#include "scenario/CostResolver.h"
#include "scenario/ExecutionJson.h"
#include "scenario/FinetuneResolver.h"
#include "scenario/HostResolver.h"
#include "scenario/Limits.h"
#include "scenario/PipelineSplit.h"
#include "scenario/PoolResolver.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioPaths.h"
#include "scenario/SectionJson.h"
#include "scenario/ShardingResolver.h"
#include "topology/TopologyModel.h"

#include <algorithm>
#include <memory>
#include <numeric>

namespace ts {

namespace {

// Defaults where neither the scenario nor a preset gives a value. The latencies are the
// format's own example values (shared/spec/scenario-format.md); cluster presets carry
// sourced ones.
constexpr double kDefaultScaleUpLatencyUs = 2.0;
constexpr double kDefaultScaleOutLatencyUs = 5.0;
constexpr int kDefaultSwitchRadix = 64; // 64-port NDR switches (Quantum-2 QM9700)

std::string knownIds(const auto& map) {
    std::string out;
    std::size_t n = 0;
    for (const auto& [id, entry] : map) {
        (void)entry;
        out += (n++ ? ", " : "") + id;
    }
    return out;
}

template <class T> T pick(const std::optional<T>& explicitValue, const std::optional<T>& preset) {
    return explicitValue ? *explicitValue : *preset;
}

std::optional<ModelConfig> resolveModel(const ModelInput& in, const Catalog& catalog,
                                        Diagnostics& diags, std::string& presetId) {
    ModelInput merged;
    if (in.preset) {
        const ModelPreset* preset = catalog.model(*in.preset);
        if (!preset) {
            diags.error("/model/preset", "unknown model preset \"" + *in.preset +
                                             "\"; known presets: " + knownIds(catalog.models()));
            return std::nullopt;
        }
        presetId = preset->id;
        merged = toModelInput(preset->model);
    }
    auto over = [](auto& base, const auto& value) {
        if (value)
            base = value;
    };
    over(merged.layers, in.layers);
    over(merged.hidden, in.hidden);
    over(merged.ffnHidden, in.ffnHidden);
    over(merged.heads, in.heads);
    over(merged.kvHeads, in.kvHeads);
    over(merged.headDim, in.headDim);
    over(merged.vocab, in.vocab);
    over(merged.mlp, in.mlp);
    over(merged.tiedEmbeddings, in.tiedEmbeddings);
    over(merged.mla, in.mla);
    over(merged.moe, in.moe);
    over(merged.slidingWindow, in.slidingWindow);
    over(merged.windowLayers, in.windowLayers);
    over(merged.attentionSinks, in.attentionSinks);
    over(merged.attentionBias, in.attentionBias);

    bool ok = true;
    auto required = [&](bool present, const char* key, const char* example) {
        if (!present) {
            diags.error(std::string("/model/") + key,
                        std::string("required key is missing (no \"preset\" gives it); e.g. ") +
                            example);
            ok = false;
        }
    };
    required(merged.layers.has_value(), "layers", "\"layers\": 32");
    required(merged.hidden.has_value(), "hidden", "\"hidden\": 4096");
    required(merged.ffnHidden.has_value(), "ffn_hidden", "\"ffn_hidden\": 14336");
    required(merged.heads.has_value(), "heads", "\"heads\": 32");
    required(merged.vocab.has_value(), "vocab", "\"vocab\": 128256");
    required(merged.mlp.has_value(), "mlp", "\"mlp\": \"swiglu\" (3 matrices) or \"gelu\" (2)");
    if (!ok)
        return std::nullopt;

    ModelConfig m;
    m.layers = *merged.layers;
    m.hidden = *merged.hidden;
    m.ffnHidden = *merged.ffnHidden;
    m.heads = *merged.heads;
    m.kvHeads = merged.kvHeads.value_or(m.heads);
    m.vocab = *merged.vocab;
    m.mlp = *merged.mlp;
    m.tiedEmbeddings = merged.tiedEmbeddings.value_or(false);
    m.mla = merged.mla.value_or(std::nullopt);
    m.moe = merged.moe.value_or(std::nullopt);
    m.slidingWindow = merged.slidingWindow.value_or(std::nullopt);
    m.windowLayers = merged.windowLayers.value_or(WindowLayers::All);
    m.attentionSinks = merged.attentionSinks.value_or(false);
    m.attentionBias = merged.attentionBias.value_or(m.mlp == MlpKind::Gelu);
    if (in.windowLayers && !m.slidingWindow)
        diags.warning("/model/window_layers",
                      "has no effect without model.sliding_window (full attention everywhere)");
    if (m.mla && (m.slidingWindow || m.attentionSinks))
        diags.warning(m.slidingWindow ? "/model/sliding_window" : "/model/attention_sinks",
                      "with model.mla: no published MLA model windows its attention or adds "
                      "sinks; the estimate applies it to the latent attention as stated");
    if (m.moe) { // "groups": null is no group limit, as an absent key
        if (!m.moe->groupCount())
            m.moe->groups.reset();
        if (!m.moe->groupsPerTokenCount())
            m.moe->groupsPerToken.reset();
    }
    if (merged.headDim) {
        m.headDim = *merged.headDim;
    } else if (m.hidden % m.heads != 0) {
        diags.error("/model/head_dim", "hidden = " + std::to_string(m.hidden) +
                                           " is not divisible by heads = " +
                                           std::to_string(m.heads) + ": give head_dim explicitly");
        ok = false;
    } else {
        m.headDim = static_cast<int>(m.hidden / m.heads);
    }
    if (m.kvHeads > m.heads || m.heads % m.kvHeads != 0) {
        diags.error("/model/kv_heads", "kv_heads = " + std::to_string(m.kvHeads) +
                                           " must divide heads = " + std::to_string(m.heads) +
                                           " (MHA: equal; GQA: a divisor; MQA: 1)");
        ok = false;
    }
    if (m.moe && !checkMoeGroups(*m.moe, "/model/moe", diags))
        ok = false;
    if (m.moe && m.moe->firstDenseLayers > m.layers) {
        diags.error("/model/moe/first_dense_layers",
                    std::to_string(m.moe->firstDenseLayers) +
                        " dense layers exceed layers = " + std::to_string(m.layers));
        ok = false;
    }
    if (!ok)
        return std::nullopt;
    return m;
}

std::optional<ClusterConfig> resolveCluster(const ClusterInput& in, const Catalog& catalog,
                                            Diagnostics& diags, std::string& presetId) {
    const ClusterPreset* preset = nullptr;
    if (in.preset) {
        preset = catalog.cluster(*in.preset);
        if (!preset) {
            diags.error("/cluster/preset",
                        "unknown cluster preset \"" + *in.preset +
                            "\"; known presets: " + knownIds(catalog.clusters()));
            return std::nullopt;
        }
        presetId = preset->id;
    }
    ClusterConfig c;
    bool ok = true;
    // GPU: explicit id or object, else the preset's.
    std::string gpuId = preset ? preset->gpuId : std::string();
    if (in.gpu && in.gpu->spec) {
        c.gpu = *in.gpu->spec;
        gpuId.clear();
    } else {
        if (in.gpu && in.gpu->catalogId)
            gpuId = *in.gpu->catalogId;
        if (gpuId.empty()) {
            diags.error("/cluster/gpu", "required key is missing: give a catalog GPU id (" +
                                            knownIds(catalog.gpus()) +
                                            "), a GPU object, or a cluster \"preset\"");
            ok = false;
        } else if (const GpuEntry* entry = catalog.gpu(gpuId)) {
            c.gpu = entry->spec;
        } else {
            diags.error(in.gpu ? "/cluster/gpu" : "/cluster/preset",
                        "unknown GPU id \"" + gpuId +
                            "\"; known GPUs: " + knownIds(catalog.gpus()));
            ok = false;
        }
    }
    c.gpuId = gpuId;
    c.gpu.powerSibling = findPowerSibling(c.gpu, catalog); // same silicon, other power limit
    if (!in.numGpus)
        return std::nullopt; // already reported by the reader
    c.numGpus = *in.numGpus;
    c.gpusPerNode = in.gpusPerNode ? *in.gpusPerNode : preset ? preset->gpusPerNode : 8;

    const ScaleUpInput up = in.scaleUp.value_or(ScaleUpInput{});
    c.scaleUp.domainGpus = up.domainGpus ? *up.domainGpus
                           : preset      ? preset->scaleUp.domainGpus
                                         : c.gpusPerNode;
    c.scaleUp.latencyUs = up.latencyUs ? *up.latencyUs
                          : preset     ? preset->scaleUp.latencyUs
                                       : kDefaultScaleUpLatencyUs;
    if (up.bandwidthGBps)
        c.scaleUp.bandwidthGBps = *up.bandwidthGBps;
    else if (preset)
        c.scaleUp.bandwidthGBps = preset->scaleUp.bandwidthGBps;
    else {
        diags.error("/cluster/scale_up/bandwidth_gb_s",
                    "required key is missing (no \"preset\" gives it): the scale-up bandwidth "
                    "per GPU per direction in GB/s, e.g. 450 for NVLink 4");
        ok = false;
    }

    const ScaleOutInput out = in.scaleOut.value_or(ScaleOutInput{});
    const ScaleOutConfig base = preset ? preset->scaleOut : ScaleOutConfig{};
    c.scaleOut.topology = out.topology ? *out.topology
                          : preset     ? base.topology
                                       : ScaleOutTopology::RailOptimized;
    c.scaleOut.nicsPerNode = out.nicsPerNode ? *out.nicsPerNode
                             : preset        ? base.nicsPerNode
                                             : c.gpusPerNode;
    c.scaleOut.oversubscription = out.oversubscription ? *out.oversubscription
                                  : preset             ? base.oversubscription
                                                       : 1.0;
    c.scaleOut.latencyUs = out.latencyUs ? *out.latencyUs
                           : preset      ? base.latencyUs
                                         : kDefaultScaleOutLatencyUs;
    c.scaleOut.switchRadix = out.switchRadix ? *out.switchRadix
                             : preset        ? base.switchRadix
                                             : kDefaultSwitchRadix;
    c.scaleOut.tiers = out.tiers ? *out.tiers : base.tiers;
    c.scaleOut.pods = out.pods ? *out.pods : base.pods;
    c.scaleOut.wanGbitPerS = out.wanGbitPerS ? *out.wanGbitPerS : base.wanGbitPerS;
    c.scaleOut.wanLatencyUs = out.wanLatencyUs ? *out.wanLatencyUs : base.wanLatencyUs;
    c.scaleOut.torusDims = out.torusDims ? *out.torusDims : base.torusDims;
    if (c.scaleOut.pods > 1) {
        if (c.scaleOut.wanGbitPerS <= 0) {
            diags.error("/cluster/scale_out/wan_gbit_s",
                        std::to_string(c.scaleOut.pods) +
                            " pods need the WAN bandwidth out of each pod in Gbit/s, e.g. 3200");
            ok = false;
        }
        const std::int64_t perPod = c.numGpus / c.scaleOut.pods;
        if (c.numGpus % c.scaleOut.pods != 0 || perPod % std::max(1, c.scaleUp.domainGpus) != 0) {
            diags.error("/cluster/scale_out/pods", std::to_string(c.numGpus) +
                                                       " GPUs do not split into " +
                                                       std::to_string(c.scaleOut.pods) +
                                                       " equal pods of whole scale-up domains of " +
                                                       std::to_string(c.scaleUp.domainGpus));
            ok = false;
        }
    }
    if (!resolveHost(in.host, preset ? &preset->host : nullptr, c.host, diags))
        ok = false;
    if (!c.host.pcieGBps) // the GPU's own host link (catalog "pcie_gb_s")
        c.host.pcieGBps = c.gpu.pcieGBps;
    if (in.graph && in.graph->is_object()) {
        if (auto graph = readClusterGraph(*in.graph, "/cluster/graph", diags)) {
            std::int64_t gpus = 0;
            for (const GraphNode& n : graph->nodes)
                gpus += n.kind == GraphNodeKind::Gpu;
            if (gpus != c.numGpus) {
                diags.error("/cluster/graph/nodes",
                            "the graph has " + std::to_string(gpus) +
                                " GPU nodes but cluster.num_gpus = " + std::to_string(c.numGpus));
                ok = false;
            }
            c.graph.graph = std::make_shared<const ClusterGraph>(std::move(*graph));
        } else {
            ok = false;
        }
    }
    // Beyond one scale-up domain, traffic leaves through the NICs.
    const bool needsScaleOut = c.numGpus > c.scaleUp.domainGpus;
    if (out.nicGbitPerS)
        c.scaleOut.nicGbitPerS = *out.nicGbitPerS;
    else if (preset)
        c.scaleOut.nicGbitPerS = base.nicGbitPerS;
    else if (needsScaleOut) {
        diags.error("/cluster/scale_out/nic_gbit_s",
                    "required key is missing (no \"preset\" gives it): the NIC rate in Gbit/s, "
                    "e.g. 400 for NDR InfiniBand");
        ok = false;
    }
    if (c.scaleOut.topology == ScaleOutTopology::Graph && !(in.graph && in.graph->is_object())) {
        diags.error("/cluster/graph", "scale_out.topology is \"graph\" but no graph is given");
        ok = false;
    }
    if (needsScaleOut && c.scaleOut.nicsPerNode == 0) {
        diags.error("/cluster/scale_out/nics_per_node",
                    "0 NICs per node, but " + std::to_string(c.numGpus) +
                        " GPUs do not fit in one scale-up domain of " +
                        std::to_string(c.scaleUp.domainGpus) + ": give at least 1");
        ok = false;
    }
    if (c.numGpus > c.gpusPerNode && c.numGpus % c.gpusPerNode != 0)
        diags.warning("/cluster/num_gpus",
                      message(MessageId::GpusNotWholeNodes,
                              {std::to_string(c.numGpus), std::to_string(c.gpusPerNode)}));
    if (!ok)
        return std::nullopt;
    return c;
}

// Product of the degrees, or 0 when it exceeds the largest cluster (no overflow).
std::int64_t boundedProduct(std::initializer_list<std::int64_t> factors) {
    std::int64_t product = 1;
    for (auto f : factors) {
        if (f <= 0 || product > limits::kMaxGpus / f)
            return 0;
        product *= f;
    }
    return product;
}

// FP8 expert dispatch (DeepSeek-V3 arXiv 2412.19437 sec. 3.3.2). DeepEP's dispatch takes
// an FP8 tensor with its 1x128 scales whatever the GEMMs run in (github deepseek-ai/DeepEP
// README: dispatch accepts a BF16 tensor or an (FP8, scales) pair; combine is BF16), so any
// training precision may use it; with non-FP8 GEMMs the experts dequantize what arrives.
void checkMoeDispatchFp8(const ParallelConfig& p, const TrainingConfig& training,
                         Diagnostics& diags) {
    if (!p.moeDispatchFp8)
        return;
    const char* path = "/parallelism/moe_dispatch_fp8";
    if (p.ep <= 1) {
        diags.warning(path, "has no effect with ep = 1: there is no expert all-to-all");
        return;
    }
    const Precision q = training.precision;
    if (q != Precision::Fp8 && q != Precision::MxFp8 && q != Precision::NvFp4)
        diags.warning(path, "training.precision \"" + std::string(enumName(q)) +
                                "\": the experts' GEMMs dequantize the FP8 activations they "
                                "receive, a rounding the " +
                                std::string(enumName(q)) +
                                " recipe does not otherwise have (DeepSeek-V3 dispatched FP8 "
                                "into FP8 GEMMs)");
}

// training.document_tokens: a packed document fits in its sequence, and the context-parallel
// ring (which splits the whole row) is not modelled over packed documents.
bool checkDocumentTokens(const TrainingConfig& t, const ParallelConfig& p, Diagnostics& diags) {
    if (!t.documentTokens)
        return true;
    if (*t.documentTokens > t.seqLen) {
        diags.error("/training/document_tokens",
                    std::to_string(*t.documentTokens) + " tokens per document exceeds seq_len " +
                        std::to_string(t.seqLen) +
                        ": give the mean length of the documents packed into a sequence, at "
                        "most seq_len, or remove the key (the whole sequence attends)");
        return false;
    }
    if (p.cp > 1) {
        diags.error("/training/document_tokens",
                    "packed documents under context parallelism (cp " + std::to_string(p.cp) +
                        ") are not modelled: set cp 1 or remove document_tokens");
        return false;
    }
    return true;
}

bool resolvePlan(const ParallelInput& in, const ModelConfig& model, const ClusterConfig& cluster,
                 TrainingConfig& training, ParallelConfig& p, Diagnostics& diags) {
    bool ok = true;
    auto fail = [&](const std::string& path, auto message) { // a Message or an English text
        diags.error(path, std::move(message));
        ok = false;
    };
    p.tp = in.tp.value_or(1);
    p.pp = in.pp.value_or(1);
    p.cp = in.cp.value_or(1);
    p.ep = in.ep.value_or(1);
    p.etp = in.etp && *in.etp ? **in.etp : p.tp;
    p.vpp = in.vpp.value_or(1);
    p.sequenceParallel = in.sequenceParallel.value_or(false);
    p.zero = in.zero.value_or(0);
    p.recompute = in.recompute.value_or(RecomputeMode::None);
    p.recomputeLayers = in.recomputeLayers ? *in.recomputeLayers : std::nullopt;
    p.schedule = in.schedule.value_or(p.vpp > 1 ? PipelineScheduleKind::Interleaved
                                                : PipelineScheduleKind::OneFOneB);
    if (in.offload) {
        p.offload.optimizer = in.offload->optimizer.value_or(OffloadTarget::None);
        p.offload.params = in.offload->params.value_or(OffloadTarget::None);
        p.offload.activations = in.offload->activations.value_or(OffloadTarget::None);
    }
    // Megatron-LM's command-line defaults: no TP/DP overlap unless asked for.
    p.overlap = OverlapConfig{false, false, false};
    if (in.overlap) {
        p.overlap.tp = in.overlap->tp.value_or(false);
        p.overlap.dp = in.overlap->dp.value_or(false);
        p.overlap.pp = in.overlap->pp.value_or(false);
        p.overlap.ep = in.overlap->ep.value_or(false);
    }
    p.moeDispatchFp8 = in.moeDispatchFp8.value_or(false);

    const std::int64_t gpus = cluster.numGpus;
    const std::int64_t modelParallel = boundedProduct({p.tp, p.pp, p.cp});
    if (in.dp && *in.dp) {
        p.dp = **in.dp;
        const std::int64_t all = boundedProduct({p.tp, p.pp, p.cp, p.dp});
        if (all != gpus)
            fail("/parallelism/dp",
                 message(MessageId::DegreesNotGpuCount,
                         {all ? std::to_string(all)
                              : std::string("more than ") + std::to_string(limits::kMaxGpus),
                          std::to_string(gpus)}));
    } else if (modelParallel == 0 || gpus % modelParallel != 0) {
        fail("/parallelism",
             message(MessageId::DegreesDoNotDivide,
                     {std::to_string(p.tp), std::to_string(p.pp), std::to_string(p.cp),
                      modelParallel ? std::to_string(modelParallel) : "too many",
                      std::to_string(gpus)}));
    } else {
        p.dp = gpus / modelParallel;
    }
    if (!resolveDpShard(in, ok, p, diags)) // full sharding unless dp_shard says otherwise
        ok = false;

    // Tensor parallelism splits heads, KV groups and the FFN (Megatron-LM column/row
    // parallel layers need exact division).
    if (model.heads % p.tp != 0)
        fail("/parallelism/tp", message(MessageId::HeadsNotDivisibleByTp,
                                        {std::to_string(model.heads), std::to_string(p.tp)}));
    if (!model.mla && model.kvHeads % p.tp != 0 && p.tp % model.kvHeads != 0)
        fail("/parallelism/tp", message(MessageId::KvHeadsAndTp,
                                        {std::to_string(model.kvHeads), std::to_string(p.tp)}));
    if (model.ffnHidden % p.tp != 0)
        fail("/parallelism/tp", message(MessageId::FfnNotDivisibleByTp,
                                        {std::to_string(model.ffnHidden), std::to_string(p.tp)}));
    if (!resolveCpComm(in, model, p, diags))
        ok = false;
    if (p.sequenceParallel && p.tp == 1)
        diags.warning("/parallelism/sequence_parallel",
                      message(MessageId::SequenceParallelNeedsTp));
    // DeepSpeed's PipelineEngine asserts zero stage < 2 (deepspeed/runtime/pipe/engine.py);
    // Megatron-LM's FSDP does not run with a pipeline either. torchtitan composes FSDP and PP.
    if (p.zero >= 3 && p.pp > 1)
        diags.warning("/parallelism/zero",
                      message(MessageId::Zero3WithPipeline, {std::to_string(p.pp)}));

    // Batch.
    if (training.microBatch > training.globalBatch)
        fail("/training/micro_batch",
             message(MessageId::MicroBatchAboveGlobal,
                     {std::to_string(training.microBatch), std::to_string(training.globalBatch)}));
    else if (ok && training.globalBatch % (p.dp * training.microBatch) != 0)
        fail("/training/global_batch",
             message(MessageId::GlobalBatchNotDivisible,
                     {std::to_string(training.globalBatch), std::to_string(p.dp),
                      std::to_string(training.microBatch),
                      std::to_string(p.dp * training.microBatch)}));

    // Pipeline chunks and schedule.
    const bool interleavedSchedule = p.schedule == PipelineScheduleKind::Interleaved ||
                                     p.schedule == PipelineScheduleKind::BreadthFirst;
    if (p.vpp > 1 && !interleavedSchedule && p.schedule != PipelineScheduleKind::ZeroBubble)
        fail("/parallelism/schedule",
             message(MessageId::VppNeedsInterleaved,
                     {std::to_string(p.vpp), std::string(enumName(p.schedule))}));
    if (p.schedule == PipelineScheduleKind::Interleaved && p.vpp < 2)
        fail("/parallelism/vpp", message(MessageId::InterleavedNeedsVpp));
    if (p.vpp > 1 && p.pp == 1)
        fail("/parallelism/vpp", message(MessageId::VppNeedsPipeline, {std::to_string(p.vpp)}));
    const std::int64_t chunks = static_cast<std::int64_t>(p.pp) * p.vpp;
    if (chunks > limits::kPipelineChunks.max)
        fail("/parallelism/vpp", "pp*vpp = " + std::to_string(chunks) +
                                     " pipeline chunks: at most " +
                                     std::to_string(limits::kPipelineChunks.max) + " (" +
                                     limits::kPipelineChunks.reason + ")");
    if (ok && p.dp * training.microBatch > 0 &&
        training.globalBatch / (p.dp * training.microBatch) > limits::kMicrobatches.max)
        fail("/training/global_batch",
             "global_batch / (dp*micro_batch) = " +
                 std::to_string(training.globalBatch / (p.dp * training.microBatch)) +
                 " micro-batches per step: at most " + std::to_string(limits::kMicrobatches.max) +
                 " (" + limits::kMicrobatches.reason + "); raise micro_batch");
    // The layers per chunk, with the embedding / loss pipeline-split slots (PipelineSplit.h).
    if (!resolvePipelineLayers(in, model, p, diags))
        ok = false;

    // Recompute.
    if (p.recomputeLayers && p.recompute != RecomputeMode::Full)
        fail("/parallelism/recompute_layers", message(MessageId::RecomputeLayersNeedFull));
    if (p.recomputeLayers && ok) {
        int perStage = 0;
        for (int r = 0; r < p.pp; ++r) {
            int stage = 0;
            for (int v = 0; v < p.vpp; ++v) {
                // ZB-V places chunk 1 of rank r as model chunk 2 pp - 1 - r (the V;
                // parallel/PipelineSchedule.h chunkModelIndex), the others loop.
                const bool vShape = p.schedule == PipelineScheduleKind::ZeroBubble && p.vpp == 2;
                const int k = vShape && v == 1 ? 2 * p.pp - 1 - r : v * p.pp + r;
                stage += p.pipelineLayers[static_cast<std::size_t>(k)];
            }
            perStage = std::max(perStage, stage);
        }
        if (*p.recomputeLayers > perStage)
            fail("/parallelism/recompute_layers",
                 message(MessageId::RecomputeLayersAboveStage,
                         {std::to_string(*p.recomputeLayers), std::to_string(perStage)}));
    }

    // Context parallelism splits the sequence; load-balanced causal attention splits it
    // into 2*cp chunks (Megatron-LM context parallelism).
    if (training.seqLen % p.cp != 0)
        fail("/parallelism/cp", message(MessageId::SeqLenNotDivisibleByCp,
                                        {std::to_string(training.seqLen), std::to_string(p.cp)}));
    else if (p.cp > 1 && training.seqLen % (2 * p.cp) != 0)
        diags.warning("/parallelism/cp", message(MessageId::SeqLenNotDivisibleBy2Cp));

    // Expert parallelism.
    if (!model.moe) {
        if (p.ep > 1)
            fail("/parallelism/ep", message(MessageId::EpNeedsMoe, {std::to_string(p.ep)}));
        if (in.etp && *in.etp)
            diags.warning("/parallelism/etp", message(MessageId::NoEffectWithoutMoe));
        if (p.moeDispatchFp8)
            diags.warning("/parallelism/moe_dispatch_fp8", message(MessageId::NoEffectWithoutMoe));
    } else if (ok) {
        checkMoeDispatchFp8(p, training, diags);
        if (model.moe->experts % p.ep != 0)
            fail("/parallelism/ep",
                 message(MessageId::ExpertsNotDivisibleByEp,
                         {std::to_string(model.moe->experts), std::to_string(p.ep)}));
        const std::int64_t denseRanks = boundedProduct({p.tp, p.cp, p.dp});
        const std::int64_t expertRanks = boundedProduct({p.etp, p.ep});
        if (expertRanks == 0 || denseRanks % expertRanks != 0)
            fail("/parallelism/ep", message(MessageId::ExpertRanksDoNotDivide,
                                            {std::to_string(p.etp), std::to_string(p.ep),
                                             std::to_string(denseRanks)}));
        if (model.moe->expertFfnHidden % p.etp != 0)
            fail("/parallelism/etp",
                 message(MessageId::ExpertFfnNotDivisibleByEtp,
                         {std::to_string(model.moe->expertFfnHidden), std::to_string(p.etp)}));
    }
    return ok;
}

} // namespace

std::optional<ResolvedScenario> resolveScenario(const Scenario& s, const Catalog& catalog,
                                                Diagnostics& diags) {
    return resolveScenario(s, catalog, CalibrationRegistry::standard(), diags);
}

std::optional<ResolvedScenario> resolveScenario(const Scenario& s, const Catalog& catalog,
                                                const CalibrationRegistry& calibrations,
                                                Diagnostics& diags) {
    if (s.cluster.pools) // heterogeneous clusters: resolved stage by stage
        return resolvePooledScenario(s, catalog, calibrations, diags);
    ResolvedScenario r;
    r.name = s.name.value_or("");
    auto model = resolveModel(s.model, catalog, diags, r.modelPreset);
    auto cluster = resolveCluster(s.cluster, catalog, diags, r.clusterPreset);

    const TrainingInput& t = s.training;
    if (!t.seqLen || !t.globalBatch)
        return std::nullopt; // reported by the reader
    r.training.seqLen = *t.seqLen;
    r.training.globalBatch = *t.globalBatch;
    r.training.microBatch = t.microBatch.value_or(1);
    r.training.precision = t.precision.value_or(Precision::Bf16);
    r.training.fp8Recipe = t.fp8Recipe.value_or(Fp8Recipe::Delayed); // Megatron-LM's default
    r.training.optimizer = t.optimizer.value_or(OptimizerKind::Adam);
    r.training.documentTokens = t.documentTokens;
    r.training.tokens = t.tokens;
    if (!model || !cluster)
        return std::nullopt;
    r.model = *model;
    r.cluster = *cluster;

    bool ok = true;
    const GpuSpec& gpu = r.cluster.gpu;
    const Precision precision = r.training.precision;
    if ((precision == Precision::Fp8 || precision == Precision::MxFp8) && gpu.fp8Tflops <= 0) {
        diags.error("/training/precision", "\"" + std::string(enumName(precision)) + "\" needs " +
                                               "FP8 tensor cores, which " + gpu.name +
                                               " lacks: use \"bf16\"");
        ok = false;
    }
    if (t.fp8Recipe && precision != Precision::Fp8) {
        // The recipe scales FP8 tensors; MXFP8 and NVFP4 fix their own block scaling.
        diags.error("/training/fp8_recipe",
                    "\"" + std::string(enumName(*t.fp8Recipe)) +
                        "\" is an FP8 scaling recipe: it needs training.precision \"fp8\" (now \"" +
                        std::string(enumName(precision)) + "\"); remove fp8_recipe or set " +
                        "precision \"fp8\"");
        ok = false;
    }
    if (precision == Precision::NvFp4 && !gpu.fp4Tflops) {
        diags.error("/training/precision", "\"nvfp4\" needs FP4 tensor cores (Blackwell), "
                                           "which " +
                                               gpu.name + " lacks: use \"fp8\" or \"bf16\"");
        ok = false;
    }
    if (!resolvePlan(s.parallelism.value_or(ParallelInput{}), r.model, r.cluster, r.training,
                     r.parallel, diags))
        ok = false;
    if (!resolveFinetune(s, r, diags)) // "finetune" and the training keys it brings
        ok = false;
    if (!checkDocumentTokens(r.training, r.parallel, diags))
        ok = false;
    // After the fine-tuning keys: they set training.master_weights, from which the framework
    // is inferred (ExecutionJson.h, inferFramework).
    if (!resolveExecution(s.execution, r.model, r.training, r.parallel, r.execution, diags))
        ok = false;
    else if (const std::string problem = attentionBackendProblem(
                 r.execution.attentionBackend, gpuGeneration(r.cluster.gpuId, r.cluster.gpu.name),
                 r.model.attentionSinks);
             !problem.empty())
        diags.warning("/execution/attention_backend", problem);
    // Transformer Engine v2.8 with sinks (dot_product_attention/utils.py get_attention_backend;
    // docs/gpt-oss-keys-sources.md): no backend takes packed (THD) sequences, and under
    // context parallelism only the fused backend with the all-to-all exchange.
    if (ok && r.model.attentionSinks && r.execution.framework == Framework::Megatron) {
        if (r.training.documentTokens)
            diags.warning("/training/document_tokens",
                          "packed sequences with model.attention_sinks: Transformer Engine "
                          "v2.8 has no attention backend for sinks in the THD layout");
        if (r.parallel.cp > 1 && r.parallel.cpComm != CpCommType::A2A)
            diags.warning("/parallelism/cp_comm",
                          "model.attention_sinks under context parallelism: Transformer Engine "
                          "v2.8 runs sinks only with cp_comm \"a2a\" (Megatron-Bridge's GPT-OSS "
                          "recipes set it)");
    }
    // The network, once: a drawn graph whose switch exceeds its radix, or with GPUs that
    // cannot reach each other, is refused by validate as by estimate and network.
    if (ok && r.cluster.graph) {
        Diagnostics network;
        TopologyModel::forCluster(r.cluster, &network);
        diags.append(network);
        if (network.hasErrors())
            ok = false;
    }
    const std::size_t errorsBeforeCosts = diags.errorCount();
    r.costs = resolveCosts(s.costs, r.cluster, catalog, diags);
    if (diags.errorCount() > errorsBeforeCosts)
        ok = false;
    if (s.calibration && *s.calibration) {
        const std::string& id = **s.calibration;
        auto profile = calibrations.find(id);
        if (!profile) {
            diags.error("/calibration", "unknown calibration profile \"" + id +
                                            "\"; known profiles: " + calibrations.knownIds() +
                                            " (or null for the default efficiencies)");
            ok = false;
        } else if (!profile->gpu.empty() && !r.cluster.gpuId.empty() &&
                   profile->gpu != r.cluster.gpuId) {
            diags.error("/calibration", "calibration profile \"" + id + "\" was made on " +
                                            profile->gpu + ", but the cluster's GPU is " +
                                            r.cluster.gpuId +
                                            ": pick a profile of that GPU, or null");
            ok = false;
        } else {
            if (!profile->gpu.empty() && r.cluster.gpuId.empty())
                diags.warning("/calibration", "calibration profile \"" + id + "\" was made on " +
                                                  profile->gpu +
                                                  "; the cluster's GPU is an explicit object, "
                                                  "so check that it is the same part");
            r.calibration = id;
            r.calibrationProfile = profile;
            // Measured board power replaces the energy model's assumed phase power.
            if (profile->power)
                applyMeasuredPower(*profile->power, id, s.costs, r.cluster.gpu.tdpW, r.costs,
                                   diags);
        }
    }
    if (!ok)
        return std::nullopt;
    return r;
}

std::optional<ResolvedScenario> resolveScenarioFile(const std::string& path, const Catalog& catalog,
                                                    Diagnostics& diags) {
    return resolveScenarioFile(path, catalog, CalibrationRegistry::standard(), diags);
}

std::optional<ResolvedScenario> resolveScenarioFile(const std::string& path, const Catalog& catalog,
                                                    const CalibrationRegistry& calibrations,
                                                    Diagnostics& diags) {
    auto scenario = loadScenarioFile(path, diags);
    if (!scenario)
        return std::nullopt;
    return resolveScenario(withPathsBesideFile(*scenario, path), catalog, calibrations, diags);
}

} // namespace ts
