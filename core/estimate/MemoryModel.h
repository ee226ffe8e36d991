#pragma once
// Memory per GPU: model states (weights, gradients, optimizer states) by precision and ZeRO
// stage, activations per layer (Korthikanti et al. 2022), communication buffers and framework
// overhead.

#include "scenario/Enums.h"
#include "scenario/ModelConfig.h"
#include "scenario/PlanConfig.h"

#include <cstdint>

#include <algorithm>

namespace ts {

// Bytes per parameter of each model state before ZeRO sharding.
struct StateBytesPerParam {
    double weights = 2;
    double gradients = 4;
    double optimizer = 12;
    // ZeRO 2 keeps the gradients whole (modelStateBytes): FSDP2 without resharding, which
    // torchtitan runs under pipeline parallelism (parallelize_llama.py at 9dec370,
    // reshard_after_forward False with PP), where torch.distributed.pipelining turns off
    // gradient sync until the last micro-batch's backward (set_requires_gradient_sync(False))
    // and FSDP2 accumulates each unsharded gradient in the reduce dtype, FP32
    // (FSDPParam.to_accumulated_grad_if_needed; torchtitan mixed_precision_reduce float32).
    bool unshardedGradientsUnderZero2 = false;
};

// Megatron-LM accounting (megatron/training/theoretical_memory_usage.py: 18 bytes per
// parameter, 6 + 12/d with the distributed optimizer): 16-bit weights, FP32 main gradients
// (bf16 training accumulates and reduces gradients in FP32; Megatron arguments.py), and Adam's
// FP32 master weights, momentum and variance (12). FP32 training keeps no master copy.
// SGD with momentum: master + momentum (8); Adafactor: master + factored moments (~4).
StateBytesPerParam megatronStateBytes(Precision precision, OptimizerKind optimizer);

// 8-bit Adam (Dettmers et al. 2022, arXiv 2110.02861, sec. 2): momentum and variance in one
// byte each, quantised in blocks of 2048 with an FP32 absmax per block and state.
inline constexpr double kAdam8bitStateBytes = 2.0 * (1.0 + 4.0 / 2048.0);

// The state bytes of a training configuration: Megatron's accounting with master weights
// (training.master_weights), else every state in the training precision, as torchtune and a
// Hugging Face model loaded in bf16 keep them (torch.optim.AdamW allocates its moments like
// the parameter): weights 2, gradients 2, Adam 2 x 2, 8-bit Adam 2, SGD 2, Adafactor ~0.
// FP32 masters under FSDP2 (torchtitan: FP32 sharded parameters, FP32 reduce dtype) keep
// Megatron's bytes per state, and ZeRO 2 keeps its FP32 gradients whole
// (unshardedGradientsUnderZero2), which Megatron-LM (framework "megatron") does not run.
StateBytesPerParam stateBytesPerParam(const TrainingConfig& training, Framework framework);

// HBM bytes one optimizer step moves per local parameter (Estimator.cpp's step time). With
// master weights (Megatron-LM / apex multi-tensor Adam): read the FP32 gradient (4), read and
// write the FP32 master (8), momentum (8) and variance (8), write the 16-bit weight (2), plus
// the gradient-norm pass (4) and zeroing the gradient buffer (4): 38; 8-bit moments move 1
// byte each way instead of 4: 26. SGD with momentum 30, Adafactor ~26. Without master
// weights the same passes over 16-bit states: Adam 2 + 4 + 4 + 4 + 2 + 2 = 18, 8-bit Adam 14,
// SGD 14, Adafactor 12.
double optimizerStepBytesPerParam(const TrainingConfig& training);

// Bytes the optimizer step allocates beside the states (estimate/AllocatorMemory.h): with Adam
// under "foreach" a second-moment-sized temporary (torch._foreach_sqrt of exp_avg_sqs:
// `optimizerBytes` x the variance's share of the states, 4 of 12 with master weights, else
// half), under "for_loop" one tensor's (`largestLocalParams` x the variance's bytes), fused
// none. 8-bit Adam (bitsandbytes' own kernels), SGD and Adafactor: none counted.
double optimizerStepTemporaryBytes(const TrainingConfig& training, double optimizerBytes,
                                   double largestLocalParams);

// The ZeRO paper's accounting (Rajbhandari et al. 2020, sec. 3.1): fp16 weights 2, fp16
// gradients 2, K = 12 optimizer bytes.
inline constexpr StateBytesPerParam kZeroPaperStateBytes{2, 2, 12};

struct ModelStateBytes {
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;
    double total() const { return weights + gradients + optimizer; }
};

// ZeRO (Rajbhandari et al. 2020, Fig. 1): stage 1 shards optimizer states over the
// `shardRanks` data-parallel ranks (= Megatron's distributed optimizer), stage 2 also
// gradients, stage 3 also weights. The estimator passes dp x cp, or dp_shard x cp under
// hybrid sharding (estimate/DataParallelCost.h), or the expert-DP group for routed experts.
// (Inline: a plan search calls it twice for every stage of every plan.)
inline ModelStateBytes modelStateBytes(double params, std::int64_t shardRanks, int zero,
                                       const StateBytesPerParam& bytes) {
    const double d = static_cast<double>(std::max<std::int64_t>(1, shardRanks));
    ModelStateBytes m;
    m.weights = params * bytes.weights / (zero >= 3 ? d : 1.0);
    const bool shardGradients = zero >= 3 || (zero == 2 && !bytes.unshardedGradientsUnderZero2);
    m.gradients = params * bytes.gradients / (shardGradients ? d : 1.0);
    m.optimizer = params * bytes.optimizer / (zero >= 1 ? d : 1.0);
    return m;
}

// What Korthikanti et al. 2022 assume (GPT: dropout after attention and MLP, attention
// scores materialised) versus a flash-attention, dropout-free model (Llama, most 2024 runs).
// Megatron-LM's fused vocabulary-parallel cross entropy keeps the FP32 logits, which it
// turns into the softmax in place (theoretical_memory_usage.py: 4sbV/t for the output layer).
inline constexpr double kFusedLossBytesPerLogit = 4.0;

struct ActivationAssumptions {
    bool flashAttention = true; // no s x s scores in memory (Dao et al. 2022)
    bool dropout = false;       // 1-byte masks after attention, attention output, and MLP
    // Eager PyTorch modules (torchtune, Hugging Face Transformers without torch.compile) keep
    // each elementwise op's inputs, where fused kernels (Megatron-LM / TransformerEngine,
    // torch.compile) keep one tensor: each RMSNorm its FP32 upcast (4h more), RoPE the FP32
    // copies of Q and K (4q + 4kv), SwiGLU the SiLU output (2 ffn).
    bool eagerElementwise = false;
    // PyTorch-native attention repeats K and V to every query head before SDPA, which saves
    // its inputs: 4 (q - kv) more than the grouped K and V, compiled or not (torchtune
    // torchtune/modules/attention.py at 1814feb17, `k.unsqueeze(2).expand(...).flatten(1, 2)`,
    // a copy; torchtitan models/llama/model.py repeat_kv; Hugging Face repeat_kv). SDPA is an
    // extern kernel under torch.compile: Inductor materialises its inputs.
    bool expandedKeyValues = false;
    // "selective" as PyTorch's op-level selective checkpointing (torchtitan
    // parallelize_llama.py at 9dec370, _save_list and _custom_policy; torchtune's selective
    // "op" option, torchtune/training/activations.py at 1814feb17): each layer keeps its
    // input and the outputs of the ops on the save list (every other matmul, counted per
    // layer; SDPA with its log-sum-exp; reduce-scatters), and recomputes the rest. Else
    // Megatron's selective recompute of the attention core (Korthikanti sec. 4.2).
    bool opLevelSelective = false;
    // Bytes per logit (per vocabulary entry and token, before TP's vocabulary split) that the
    // loss holds when the backward starts (outputLayerActivationBytes; lossBytesPerLogit in
    // FinetuneMemory.h says which recipe keeps how many).
    double lossBytesPerLogit = kFusedLossBytesPerLogit;
    // PyTorch's tensor parallelism (DTensor, torchtitan): with sequence parallelism the
    // column-parallel linears' all-gathered input is what their matmul saves, whole, where
    // Megatron-LM saves the sequence shard and gathers it again in the backward (Korthikanti
    // sec. 4.2.2): the QKV and MLP inputs (2h each) and the output layer's input are not
    // divided by t.
    bool gatheredLinearInputs = false;
    // LoRA on a frozen base: a linear layer's input is kept only for a weight gradient, so a
    // frozen layer without an adapter drops it (the QKV input 2h, the MLP input 2h, the
    // down-projection input 2 ffn).
    bool dropQkvInput = false;
    bool dropMlpInput = false;
    bool dropDownInput = false;
};

struct ActivationLayout {
    std::int64_t seqLen = 0;
    std::int64_t microBatch = 1;
    int tp = 1;
    bool sequenceParallel = false;
};

// Bytes one transformer layer keeps for backward with no recompute (16-bit activations).
// With the paper's assumptions (GELU, ffn = 4h, MHA, dropout, no flash) this is exactly
// Korthikanti et al. 2022, Table 2: sbh(34 + 5as/h) without parallelism,
// sbh(10 + 24/t + 5as/(ht)) with TP, (sbh/t)(34 + 5as/h) with TP + SP.
double layerActivationBytes(const ModelConfig& model, const ActivationLayout& layout,
                            const ActivationAssumptions& assumptions = {});

// Selective recompute (Korthikanti sec. 4.2): the attention core is recomputed, so its
// s x s tensors are not kept: sbh(10 + 24/t) with TP, 34 sbh / t with TP + SP.
// With assumptions.opLevelSelective, PyTorch's op-level policy instead (MemoryModel.cpp,
// opLevelSelectiveBytesPerToken).
double layerActivationBytesSelective(const ModelConfig& model, const ActivationLayout& layout,
                                     const ActivationAssumptions& assumptions = {});

// Full recompute keeps only the layer input: 2sbh (divided by t under SP).
double layerActivationBytesFull(const ModelConfig& model, const ActivationLayout& layout);

// The last stage's extra activations for one micro-batch: the final norm input and what
// the loss holds per logit, 4sbh + L sbV/t with L = assumptions.lossBytesPerLogit (Megatron
// theoretical_memory_usage.py: 4sbh(1 + V/h) for the output layer, L = 4).
double outputLayerActivationBytes(const ModelConfig& model, const ActivationLayout& layout,
                                  const ActivationAssumptions& assumptions = {});

// Peak micro-batch activations held by pipeline rank `stage`, in units of "one micro-batch
// through all of this rank's layers" (Narayanan et al. 2021 sec. 2.2; Megatron
// theoretical_memory_usage.py): GPipe m; 1F1B min(m, p - s); interleaved: the warm-up
// chunk-forwards plus one, (p - s - 1) * 2 + (v - 1) * p + 1, over v (first stage:
// p (1 + (p - 1) / (p v))); breadth-first m (Lamy-Poirier 2023); zero bubble ZB-H1 as 1F1B
// (Qi et al. 2024 sec. 2.1); ZB-V (two half-size chunks per rank) min(2p, 2m, m + s + 1) / 2,
// p on every rank once m >= 2p - 1: 1F1B's first stage (Qi et al. 2024 sec. 6).
double microbatchesInFlight(PipelineScheduleKind schedule, int stages, int chunks, int stage,
                            std::int64_t microbatches);

// Framework overhead (not held by tensors): CUDA context with cuBLAS/cuDNN workspaces,
// ~ 0.5-1 GiB per process (PyTorch "CUDA semantics" notes; ml-engineering
// training/performance "memory: CUDA context"), and the caching allocator's fragmentation,
// a fraction of what tensors hold.
inline constexpr double kCudaContextBytes = 0.75 * (1ull << 30);
inline constexpr double kAllocatorFragmentation = 0.05;

// NCCL buffers: NCCL_BUFFSIZE 4 MiB per channel per peer direction (NCCL environment
// variables doc) with up to 32 channels on NVLink/IB: ~ 256 MiB per communicator in use.
inline constexpr double kNcclBytesPerCommunicator = 256.0 * (1ull << 20);

} // namespace ts
