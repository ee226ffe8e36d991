#pragma once
// The closed vocabularies of scenario format v1 (shared/spec/scenario-format.md), with
// their spelling in JSON.

#include <array>
#include <optional>
#include <string_view>

namespace ts {

// ClampedSwiGlu: GPT-OSS's gated unit, gate * sigmoid(1.702 gate) * (up + 1) with the gate
// clamped above at 7 and up to [-7, 7] (openai/gpt-oss gpt_oss/torch/model.py `swiglu`; Hugging
// Face modeling_gpt_oss.py GptOssExperts): three matrices like SwiGLU.
enum class MlpKind { Gelu, SwiGlu, ClampedSwiGlu };
// Gated units (SwiGLU and its clamped form): gate and up projections, three matrices.
constexpr bool isGatedMlp(MlpKind k) {
    return k != MlpKind::Gelu;
}
// The layers a sliding window applies to (model.window_layers): every layer, or layers 0, 2,
// 4, ... with full attention between (GPT-OSS layer_types; Megatron window_attn_skip_freq 2).
enum class WindowLayers { All, Alternate };
// The attention kernel (execution.attention_backend): what the framework picks, FlashAttention,
// cuDNN fused attention through Transformer Engine, or the unfused path that materialises the
// s x s scores (estimate/AttentionBackend.h resolves "auto").
enum class AttentionBackend { Auto, Flash, Cudnn, Unfused };
enum class ScaleOutTopology { RailOptimized, RailOnly, FatTree, Torus, Graph };
enum class Precision { Fp32, Fp16, Bf16, Fp8, MxFp8, NvFp4 };
// Scaling of FP8 GEMM inputs under precision "fp8" (Megatron-LM --fp8-recipe; "mxfp8" is its
// own precision): per-tensor scales from an amax history (TransformerEngine DelayedScaling), from
// the tensor itself (Float8CurrentScaling, torchao dynamic tensorwise), or per 1x128 tile and
// 128x128 weight block (Float8BlockScaling; DeepSeek-V3, arXiv 2412.19437 sec. 3.3).
enum class Fp8Recipe { Delayed, Tensorwise, Blockwise };
// The precisions that quantize GEMM inputs (and keep a quantized weight copy): FP8, MXFP8, NVFP4.
constexpr bool isLowPrecision(Precision p) {
    return p == Precision::Fp8 || p == Precision::MxFp8 || p == Precision::NvFp4;
}
// Adam8bit: AdamW with 8-bit block-quantised moments (Dettmers et al. 2022, "8-bit Optimizers
// via Block-wise Quantization", arXiv 2110.02861; bitsandbytes AdamW8bit, torchao AdamW8bit).
enum class OptimizerKind { Adam, Sgd, Adafactor, Adam8bit };
// How the optimizer step runs over the parameters (torch.optim's `fused` / `foreach` flags;
// torchtitan's optimizer.implementation): one fused kernel per chunk of tensors, foreach ops
// over the whole parameter list (torch.optim's default on CUDA), or one tensor at a time.
enum class OptimizerImpl { Fused, Foreach, ForLoop };
// The main gradient buffer beside FP32 master weights: the dtype gradients accumulate in over
// micro-batches and are reduced in across data-parallel ranks. FP32 is Megatron-LM's default
// for bf16 (arguments.py: accumulate_allreduce_grads_in_fp32 unless --grad-reduce-in-bf16)
// and torchtitan's (training.mixed_precision_reduce "float32"); Megatron-Bridge's performance
// recipes set ddp.grad_reduce_in_fp32 = False (scripts/performance/configs/*, v0.3.0-v0.6.0).
enum class GradReduceDtype { Fp32, Bf16 };
enum class RecomputeMode { None, Selective, Full };
enum class PipelineScheduleKind { GPipe, OneFOneB, Interleaved, ZeroBubble, BreadthFirst };
enum class OffloadTarget { None, Cpu, Nvme };
// Context-parallel attention communication (Megatron-LM --cp-comm-type): ring attention with
// K/V passed peer to peer, K/V all-gathered (Llama 3 paper sec. 3.3.2), or all-to-all of heads
// (DeepSpeed-Ulysses, Jacobs et al. 2023).
enum class CpCommType { P2P, AllGather, A2A };
enum class Ownership { Cloud, Owned };
// How the framework executes the plan (scenario format "Execution keys"; Megatron-Core flags).
// --moe-token-dispatcher-type allgather / alltoall / flex with the DeepEP or HybridEP backend.
enum class MoeDispatcher { AllGather, AllToAll, DeepEp, HybridEp };
// Sequential per-expert GEMMs, --moe-grouped-gemm (Transformer Engine GroupedLinear), or a
// fused grouped expert MLP.
enum class MoeGroupedGemm { PerExpert, Grouped, Fused };
// CUDA graph capture: none, per layer / partial scopes, the whole iteration.
enum class CudaGraphs { None, Layers, Full };
// The kernel stack that runs the layers (execution.framework): Megatron-LM / NeMo /
// Megatron-Bridge with Transformer Engine's fused modules and fused cross entropy, or PyTorch
// modules (torchtitan, torchtune, Hugging Face Transformers, DeepSpeed).
enum class Framework { Megatron, Pytorch };
// The cross entropy's implementation (execution.cross_entropy): a fused kernel that never holds
// the whole FP32 logits (Megatron-Core's fused vocab-parallel cross entropy), torchtune's
// CEWithChunkedOutputLoss (the output projection and loss in 8 chunks), or F.cross_entropy
// on an FP32 upcast of all the logits at once (torchtitan, Hugging Face Transformers,
// torchtune's torch.nn.CrossEntropyLoss configs).
// LinearChunked: the output projection and the loss computed chunk by chunk, never holding
// all logits (torchtune LinearCrossEntropyLoss; Liger fused linear cross entropy).
enum class CrossEntropy { Fused, Chunked, Plain, LinearChunked };
// Megatron-Core --recompute-modules names (with --recompute-granularity selective).
enum class RecomputeModule { CoreAttn, MoeAct, LayerNorm, MlaUpProj, Mlp, Moe, SharedExperts };
// Fine-tuning (the format's "finetune" section): every weight trained, or low-rank adapters
// on a frozen base (LoRA, Hu et al. 2021, arXiv 2106.09685) stored in 16 bits or quantised
// (QLoRA, Dettmers et al. 2023, arXiv 2305.14314).
enum class FinetuneMethod { Full, Lora, Qlora };
// Storage of the frozen base weights: 16-bit, FP8 or INT8 (one scale per output row), or
// 4-bit NormalFloat in blocks of 64 (QLoRA sec. 3).
enum class BaseWeights { Bf16, Fp16, Fp8, Int8, Nf4 };
// The modules an adapter can wrap, by their Hugging Face PEFT names (Llama naming).
enum class LoraTarget { QProj, KProj, VProj, OProj, GateProj, UpProj, DownProj, LmHead };

template <class E> struct EnumNames;

#define TS_ENUM_NAMES(E, ...)                                                                      \
    template <> struct EnumNames<E> {                                                              \
        static constexpr auto names = std::to_array<std::string_view>({__VA_ARGS__});              \
    };

TS_ENUM_NAMES(MlpKind, "gelu", "swiglu", "clamped-swiglu")
TS_ENUM_NAMES(WindowLayers, "all", "alternate")
TS_ENUM_NAMES(AttentionBackend, "auto", "flash", "cudnn", "unfused")
TS_ENUM_NAMES(ScaleOutTopology, "rail-optimized", "rail-only", "fat-tree", "torus", "graph")
TS_ENUM_NAMES(Precision, "fp32", "fp16", "bf16", "fp8", "mxfp8", "nvfp4")
TS_ENUM_NAMES(Fp8Recipe, "delayed", "tensorwise", "blockwise")
TS_ENUM_NAMES(OptimizerKind, "adam", "sgd", "adafactor", "adam8bit")
TS_ENUM_NAMES(OptimizerImpl, "fused", "foreach", "for_loop")
TS_ENUM_NAMES(GradReduceDtype, "fp32", "bf16")
TS_ENUM_NAMES(RecomputeMode, "none", "selective", "full")
TS_ENUM_NAMES(PipelineScheduleKind, "gpipe", "1f1b", "interleaved", "zero-bubble", "breadth-first")
TS_ENUM_NAMES(OffloadTarget, "none", "cpu", "nvme")
TS_ENUM_NAMES(CpCommType, "p2p", "allgather", "a2a")
TS_ENUM_NAMES(Ownership, "cloud", "owned")
TS_ENUM_NAMES(MoeDispatcher, "allgather", "alltoall", "deepep", "hybridep")
TS_ENUM_NAMES(MoeGroupedGemm, "per-expert", "grouped", "fused")
TS_ENUM_NAMES(CudaGraphs, "none", "layers", "full")
TS_ENUM_NAMES(Framework, "megatron", "pytorch")
TS_ENUM_NAMES(CrossEntropy, "fused", "chunked", "plain", "linear-chunked")
TS_ENUM_NAMES(RecomputeModule, "core_attn", "moe_act", "layernorm", "mla_up_proj", "mlp", "moe",
              "shared_experts")
TS_ENUM_NAMES(FinetuneMethod, "full", "lora", "qlora")
TS_ENUM_NAMES(BaseWeights, "bf16", "fp16", "fp8", "int8", "nf4")
TS_ENUM_NAMES(LoraTarget, "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj",
              "down_proj", "lm_head")
#undef TS_ENUM_NAMES

template <class E> constexpr std::string_view enumName(E value) {
    return EnumNames<E>::names[static_cast<std::size_t>(value)];
}

template <class E> constexpr std::optional<E> enumFromString(std::string_view text) {
    const auto& names = EnumNames<E>::names;
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == text)
            return static_cast<E>(i);
    return std::nullopt;
}

} // namespace ts
