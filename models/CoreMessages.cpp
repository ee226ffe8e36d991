#include "CoreMessages.h"

#include <QCoreApplication>

#include <array>

namespace ts::gui {

namespace {

struct Entry {
    std::string_view key;
    const char* source;
};

// One entry per id of core/common/Messages.def, with the same English template (a test
// compares them).
// clang-format off
const std::array kEntries{
    Entry{"estimate.does_not_fit", QT_TRANSLATE_NOOP("CoreMessage", "does not fit: stage %1 needs %2 of %3")},
    Entry{"estimate.memory_nearly_full", QT_TRANSLATE_NOOP("CoreMessage", "plan uses %1% of memory: fragmentation risk")},
    Entry{"estimate.schedule_incomplete", QT_TRANSLATE_NOOP("CoreMessage", "the pipeline schedule simulation did not complete")},
    Entry{"estimate.expert_imbalance", QT_TRANSLATE_NOOP("CoreMessage", "expert imbalance factor assumed 1.1 (busiest expert-parallel rank over the mean; DeepSeek-V3 report, arXiv 2412.19437)")},
    Entry{"estimate.expert_all_to_all_exposed", QT_TRANSLATE_NOOP("CoreMessage", "expert-parallel all-to-alls counted as exposed: set parallelism.overlap.ep to hide them behind another micro-batch's compute (DualPipe, Megatron-Core's --overlap-moe-expert-parallel-comm)")},
    Entry{"estimate.expert_overlap_schedule", QT_TRANSLATE_NOOP("CoreMessage", "parallelism.overlap.ep: only the all-to-all overlap is modelled; DualPipe's bidirectional pipeline schedule is not (the schedule stays %1)")},
    Entry{"estimate.network_graph", QT_TRANSLATE_NOOP("CoreMessage", "network graph: %1: %2")},
    Entry{"estimate.network_graph_two_level", QT_TRANSLATE_NOOP("CoreMessage", "network graph: %1: %2 (collectives use the two-level model)")},
    Entry{"estimate.power_sibling", QT_TRANSLATE_NOOP("CoreMessage", "%1 has no measured matmul throughput (MAMF): borrowed from %2 (same dense peaks) and scaled by the power limits %3 W / %4 W = %5, for GEMMs and attention")},
    Entry{"estimate.fp8_delayed", QT_TRANSLATE_NOOP("CoreMessage", "FP8 recipe \"delayed\" (TransformerEngine DelayedScaling, Megatron-LM's default): per-tensor scales from the amax history of earlier iterations, so each GEMM input is cast in one fused pass (row-wise and transposed copies); the linear layers' GEMMs run in FP8 at the GPU's FP8 rate; attention, norms, embedding and output layer stay in BF16")},
    Entry{"estimate.fp8_tensorwise", QT_TRANSLATE_NOOP("CoreMessage", "FP8 recipe \"tensorwise\" (per-tensor current scaling: TransformerEngine Float8CurrentScaling, torchao float8 tensorwise): each cast first reduces the tensor's amax, reading the input twice (6 instead of 4 bytes per element, two kernels); the amax all-reduce across sequence-parallel ranks is not counted; the linear layers' GEMMs run in FP8 at the GPU's FP8 rate; attention, norms, embedding and output layer stay in BF16")},
    Entry{"estimate.fp8_blockwise_native", QT_TRANSLATE_NOOP("CoreMessage", "FP8 recipe \"blockwise\" (TransformerEngine Float8BlockScaling, DeepSeek-V3 sec. 3.3): FP32 scales per 1x128 tile of activations and gradients and per 128x128 weight block, found and applied in one fused pass per cast; this GPU applies block scales in its tensor cores (TransformerEngine runs the recipe as MXFP8 there: precision \"mxfp8\" is the native choice); the linear layers' GEMMs run in FP8 at the GPU's FP8 rate; attention, norms, embedding and output layer stay in BF16")},
    Entry{"estimate.fp8_blockwise", QT_TRANSLATE_NOOP("CoreMessage", "FP8 recipe \"blockwise\" (TransformerEngine Float8BlockScaling, DeepSeek-V3 sec. 3.3): FP32 scales per 1x128 tile of activations and gradients and per 128x128 weight block, found and applied in one fused pass per cast; GEMMs at the per-tensor FP8 rate: the FP32 promotion every 128 elements overlaps the tensor-core work (DeepSeek-V3 sec. 3.3.2; DeepGEMM reaches ~1550 TFLOPS on H800), and no source gives a slowdown; the linear layers' GEMMs run in FP8 at the GPU's FP8 rate; attention, norms, embedding and output layer stay in BF16")},
    Entry{"offload.pcie", QT_TRANSLATE_NOOP("CoreMessage", "offload transfers at %1 GB/s per GPU and direction (cluster.host.pcie_gb_s), one layer ahead of the compute")},
    Entry{"offload.cpu_step", QT_TRANSLATE_NOOP("CoreMessage", "CPU optimizer step assumed host-memory-bandwidth-bound: %1 bytes per parameter at %2 GB/s per node (the datasheet peak) shared by %3 GPUs; no delayed parameter update (ZeRO-Offload, arXiv 2101.06840)")},
    Entry{"offload.nvme", QT_TRANSLATE_NOOP("CoreMessage", "NVMe at %1 GB/s read and %2 GB/s write per node shared by %3 GPUs; a drive's reads and writes take turns")},
    Entry{"offload.activations_pipeline", QT_TRANSLATE_NOOP("CoreMessage", "activation offload with pp > 1: Megatron-Core's CPU offloading needs pp = 1 (Megatron Bridge docs, CPU offloading), and TransformerEngine's default offload schedule assumes all forwards before the backwards")},
    Entry{"offload.activations_nvme", QT_TRANSLATE_NOOP("CoreMessage", "activation offload to nvme: TransformerEngine, Megatron-Core and ZeRO-R offload activations to CPU memory only; modelled as CPU offload bounced on to the drives")},
    Entry{"offload.optimizer_microbatches", QT_TRANSLATE_NOOP("CoreMessage", "optimizer offload: DeepSpeed ZeRO-1/2 reduce the gradients in every micro-batch before copying them out; the data-parallel time counts one reduction per step")},
    Entry{"offload.host_memory_unknown", QT_TRANSLATE_NOOP("CoreMessage", "offloaded states need %1 GiB of host memory per node; the node's memory is unknown (cluster.host.memory_gib)")},
    Entry{"offload.host_memory_short", QT_TRANSLATE_NOOP("CoreMessage", "offloaded states need %1 GiB of host memory per node but the node has %2 GiB")},
    Entry{"offload.nvme_unknown", QT_TRANSLATE_NOOP("CoreMessage", "offloaded states need %1 TB of NVMe per node; the node's drives are unknown (cluster.host.nvme_gib)")},
    Entry{"offload.nvme_short", QT_TRANSLATE_NOOP("CoreMessage", "offloaded states need %1 TB of NVMe per node but the node has %2 TB")},
    Entry{"energy.no_pue", QT_TRANSLATE_NOOP("CoreMessage", "no PUE given or catalogued: cooling not counted; set costs.pue")},
    Entry{"energy.idle_power_default", QT_TRANSLATE_NOOP("CoreMessage", "GPU idle power assumed 10% of TDP (no sourced figure); set costs.gpu_idle_w")},
    Entry{"energy.no_host_power", QT_TRANSLATE_NOOP("CoreMessage", "host power not counted; set costs.host_w_per_node")},
    Entry{"energy.node_peak_above_rating", QT_TRANSLATE_NOOP("CoreMessage", "a node peaks at %1, above its rated maximum of %2: check costs.host_w_per_node and the GPU power fractions")},
    Entry{"energy.no_cost", QT_TRANSLATE_NOOP("CoreMessage", "no cost: %1 ownership needs costs.%2")},
    Entry{"energy.owned_network_capital", QT_TRANSLATE_NOOP("CoreMessage", "owned: network capital not counted; set costs.network_capex_usd")},
    Entry{"energy.carbon_series_repeated", QT_TRANSLATE_NOOP("CoreMessage", "the run (%1 h) is longer than costs.carbon_csv (%2 h): the series was repeated")},
    Entry{"energy.carbon_needs_tokens", QT_TRANSLATE_NOOP("CoreMessage", "costs.carbon_csv needs training.tokens: the start window is chosen for the whole run")},
    Entry{"costs.pue_assumed", QT_TRANSLATE_NOOP("CoreMessage", "PUE assumed %1, new large facilities%2; set costs.pue")},
    Entry{"costs.grid_assumed", QT_TRANSLATE_NOOP("CoreMessage", "grid carbon intensity assumed %1 gCO2/kWh, US average 2023%2; set costs.grid_gco2_kwh")},
    Entry{"costs.electricity_assumed", QT_TRANSLATE_NOOP("CoreMessage", "electricity assumed $%1/kWh, US industrial average 2023%2; set costs.electricity_usd_kwh")},
    Entry{"costs.gpu_hour_price_assumed", QT_TRANSLATE_NOOP("CoreMessage", "GPU-hour price assumed $%1 (%2, %3)%4; set costs.gpu_hour_usd")},
    Entry{"costs.no_gpu_hour_price", QT_TRANSLATE_NOOP("CoreMessage", "no sourced GPU-hour price for %1: set costs.gpu_hour_usd for the cost")},
    Entry{"costs.idle_power_assumed", QT_TRANSLATE_NOOP("CoreMessage", "GPU idle power assumed %1 (%2% of TDP; no sourced figure); set costs.gpu_idle_w")},
    Entry{"costs.idle_power_above_tdp", QT_TRANSLATE_NOOP("CoreMessage", "idle power %1 exceeds the GPU's TDP of %2")},
    Entry{"costs.phase_power_assumed", QT_TRANSLATE_NOOP("CoreMessage", "GPU power by phase assumed idle + %1 (compute-bound), %2 (memory-bound), %3 (communicating) x (TDP - idle); no sourced training power; set costs.gpu_compute_fraction, gpu_memory_fraction, gpu_comm_fraction")},
    Entry{"costs.phase_power_measured", QT_TRANSLATE_NOOP("CoreMessage", "GPU power by phase measured on calibration profile %1: idle %2, compute-bound %3, memory-bound %4, communicating %5 (- = not measured); the power model draws idle + %6 (compute-bound), %7 (memory-bound), %8 (communicating) x (TDP - idle)")},
    Entry{"costs.host_power_assumed", QT_TRANSLATE_NOOP("CoreMessage", "host power assumed %1 per node: %2% of %3's %4 maximum less %5 x %6 GPUs%7; set costs.host_w_per_node")},
    Entry{"costs.no_server_power", QT_TRANSLATE_NOOP("CoreMessage", "no server power catalogued for %1 x %2: host power not counted; set costs.host_w_per_node")},
    Entry{"costs.network_power_assumed", QT_TRANSLATE_NOOP("CoreMessage", "network power assumed %1: switch-side optics only (%2 W per port%3, %4 ports, %5 tiers); switch and NIC chips not counted; set costs.network_w")},
    Entry{"execution.fp8_attention_not_modelled", QT_TRANSLATE_NOOP("CoreMessage", "/execution/fp8_attention: true is read but its effect is not modelled yet; the step time assumes attention in BF16")},
    Entry{"execution.recompute_modules_memory_not_modelled", QT_TRANSLATE_NOOP("CoreMessage", "/execution/recompute_modules: a PyTorch-native recipe checkpoints by its op-level save list: the recompute time of these modules is modelled, but the activation memory follows that save list")},
    Entry{"input.required_missing", QT_TRANSLATE_NOOP("CoreMessage", "required key is missing")},
    Entry{"input.must_not_be_null", QT_TRANSLATE_NOOP("CoreMessage", "must not be null")},
    Entry{"input.integer_out_of_range", QT_TRANSLATE_NOOP("CoreMessage", "%1 is out of range: expected an integer from %2 to %3")},
    Entry{"input.not_whole_number", QT_TRANSLATE_NOOP("CoreMessage", "%1 is not a whole number: expected an integer from %2 to %3")},
    Entry{"input.number_out_of_range", QT_TRANSLATE_NOOP("CoreMessage", "%1 is out of range: expected a number from %2 to %3")},
    Entry{"input.number_out_of_range_exclusive", QT_TRANSLATE_NOOP("CoreMessage", "%1 is out of range: expected a number greater than %2 and at most %3")},
    Entry{"input.choice_invalid", QT_TRANSLATE_NOOP("CoreMessage", "%1 is not valid: expected one of %2")},
    Entry{"plan.degrees_not_gpu_count", QT_TRANSLATE_NOOP("CoreMessage", "tp*pp*cp*dp = %1 but cluster.num_gpus = %2: the degrees must multiply to the GPU count")},
    Entry{"plan.degrees_do_not_divide", QT_TRANSLATE_NOOP("CoreMessage", "tp*pp*cp = %1*%2*%3 = %4 does not divide cluster.num_gpus = %5: choose degrees whose product divides the GPU count")},
    Entry{"plan.heads_not_divisible_by_tp", QT_TRANSLATE_NOOP("CoreMessage", "heads = %1 is not divisible by tp = %2")},
    Entry{"plan.kv_heads_and_tp", QT_TRANSLATE_NOOP("CoreMessage", "kv_heads = %1 and tp = %2 must divide one another")},
    Entry{"plan.ffn_not_divisible_by_tp", QT_TRANSLATE_NOOP("CoreMessage", "ffn_hidden = %1 is not divisible by tp = %2")},
    Entry{"plan.sequence_parallel_needs_tp", QT_TRANSLATE_NOOP("CoreMessage", "has no effect with tp = 1 (Megatron-LM turns it off)")},
    Entry{"plan.zero3_with_pipeline", QT_TRANSLATE_NOOP("CoreMessage", "ZeRO-3 with pp = %1: Megatron-LM and DeepSpeed refuse it (DeepSpeed's pipeline engine takes ZeRO 0 or 1); torchtitan runs FSDP with pipeline parallelism")},
    Entry{"plan.experts_not_divisible_by_ep", QT_TRANSLATE_NOOP("CoreMessage", "experts = %1 is not divisible by ep = %2")},
    Entry{"plan.expert_ranks_do_not_divide", QT_TRANSLATE_NOOP("CoreMessage", "etp*ep = %1*%2 must divide tp*cp*dp = %3")},
    Entry{"plan.expert_ffn_not_divisible_by_etp", QT_TRANSLATE_NOOP("CoreMessage", "expert_ffn_hidden = %1 is not divisible by etp = %2")},
    Entry{"plan.micro_batch_above_global", QT_TRANSLATE_NOOP("CoreMessage", "micro_batch = %1 exceeds global_batch = %2")},
    Entry{"plan.global_batch_not_divisible", QT_TRANSLATE_NOOP("CoreMessage", "global_batch = %1 is not divisible by dp*micro_batch = %2*%3 = %4")},
    Entry{"plan.vpp_needs_interleaved", QT_TRANSLATE_NOOP("CoreMessage", "vpp = %1 needs schedule \"interleaved\" or \"breadth-first\", not \"%2\"")},
    Entry{"plan.interleaved_needs_vpp", QT_TRANSLATE_NOOP("CoreMessage", "the interleaved schedule needs vpp >= 2 chunks per rank")},
    Entry{"plan.vpp_needs_pipeline", QT_TRANSLATE_NOOP("CoreMessage", "vpp = %1 needs pp > 1")},
    Entry{"plan.recompute_layers_need_full", QT_TRANSLATE_NOOP("CoreMessage", "only applies with recompute \"full\"")},
    Entry{"plan.recompute_layers_above_stage", QT_TRANSLATE_NOOP("CoreMessage", "%1 exceeds the %2 layers of the largest pipeline stage")},
    Entry{"plan.seq_len_not_divisible_by_cp", QT_TRANSLATE_NOOP("CoreMessage", "seq_len = %1 is not divisible by cp = %2")},
    Entry{"plan.seq_len_not_divisible_by_2cp", QT_TRANSLATE_NOOP("CoreMessage", "seq_len is not divisible by 2*cp: causal load balancing of attention is not exact")},
    Entry{"plan.ep_needs_moe", QT_TRANSLATE_NOOP("CoreMessage", "ep = %1 needs a mixture-of-experts model (model.moe)")},
    Entry{"plan.no_effect_without_moe", QT_TRANSLATE_NOOP("CoreMessage", "has no effect without model.moe")},
    Entry{"execution.framework_from_zero", QT_TRANSLATE_NOOP("CoreMessage", "not set: read as \"pytorch\" (FSDP2 or DeepSpeed on PyTorch modules) from parallelism.zero = %1; set \"megatron\" for Megatron-FSDP with Transformer Engine")},
    Entry{"cluster.gpus_not_whole_nodes", QT_TRANSLATE_NOOP("CoreMessage", "%1 GPUs do not fill whole nodes of %2")},
    Entry{"cluster.gpus", QT_TRANSLATE_NOOP("CoreMessage", "%1 × %2")},
    Entry{"cluster.custom_gpus", QT_TRANSLATE_NOOP("CoreMessage", "%1 × %2 (a custom GPU)")},
    Entry{"hetero.unused_gpus", QT_TRANSLATE_NOOP("CoreMessage", "%1 of the pools' GPUs are not used by parallelism.pipelines")},
    Entry{"hetero.straggler", QT_TRANSLATE_NOOP("CoreMessage", "pipeline %1, stage %2 on pool '%3' sets the step; the other replicas wait for it at the gradient reduction (Sailor, SOSP'25: the slowest replica sets the iteration time)")},
    Entry{"hetero.cross_pool_reduction", QT_TRANSLATE_NOOP("CoreMessage", "stage %1's gradient reduction spans pools %2: ring all-reduce at the slowest link on the ring, %3 GB/s per GPU")},
    Entry{"hetero.pool_does_not_fit", QT_TRANSLATE_NOOP("CoreMessage", "does not fit: pool '%1' needs %2 of %3")},
};
// clang-format on

// Replaces %1..%9 by the arguments in one pass, as core's fillPlaceholders does.
QString filled(const QString& text, const std::vector<std::string>& args) {
    QString out;
    out.reserve(text.size() + 16 * int(args.size()));
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('%') && i + 1 < text.size() && text.at(i + 1) >= QLatin1Char('1') &&
            text.at(i + 1) <= QLatin1Char('9')) {
            const auto n = std::size_t(text.at(i + 1).unicode() - '1');
            if (n < args.size()) {
                out += QString::fromStdString(args[n]);
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

} // namespace

const char* messageSourceText(std::string_view key) {
    if (key.empty())
        return nullptr;
    for (const Entry& entry : kEntries)
        if (entry.key == key)
            return entry.source;
    return nullptr;
}

QString messageText(const Message& message) {
    const char* source = messageSourceText(messageKey(message.id));
    if (!source)
        return QString::fromStdString(message.english);
    return filled(QCoreApplication::translate("CoreMessage", source), message.args);
}

QString diagnosticText(const Diagnostic& diagnostic) {
    if (diagnostic.id == MessageId::None)
        return QString::fromStdString(diagnostic.message);
    Message m;
    m.id = diagnostic.id;
    m.args = diagnostic.args;
    m.english = diagnostic.message;
    return messageText(m) + QString::fromStdString(diagnostic.amendment);
}

} // namespace ts::gui
