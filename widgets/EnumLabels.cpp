#include "EnumLabels.h"

namespace ts::gui {

std::vector<FieldChoice> EnumLabels::mlp() {
    return {{tr("SwiGLU (gated, 3 matrices)"), "swiglu"},
            {tr("Clamped SwiGLU (GPT-OSS, 3 matrices)"), "clamped-swiglu"},
            {tr("GELU (2 matrices)"), "gelu"}};
}

std::vector<FieldChoice> EnumLabels::windowLayers() {
    return {{tr("Every layer"), "all"}, {tr("Every other layer (0, 2, 4, …)"), "alternate"}};
}

// execution.attention_backend (core/hardware/AttentionKernel.h resolves "auto").
std::vector<FieldChoice> EnumLabels::attentionBackend() {
    return {{tr("Automatic"), "auto", true, tr("What the framework picks for this GPU and model")},
            {tr("FlashAttention"), "flash", true, tr("No attention sinks")},
            {tr("cuDNN fused"), "cudnn", true,
             tr("Transformer Engine's FusedAttention; sinks with cuDNN 9.13.1 or later")},
            {tr("Unfused"), "unfused", true,
             tr("Materialised s × s scores: slower and much more memory")}};
}

std::vector<FieldChoice> EnumLabels::precision() {
    return {{tr("BF16 mixed precision"), "bf16"},
            {tr("FP16 mixed precision"), "fp16"},
            {tr("FP8 (Transformer Engine)"), "fp8"},
            {tr("MXFP8"), "mxfp8"},
            {tr("NVFP4"), "nvfp4"},
            {tr("FP32"), "fp32"}};
}

std::vector<FieldChoice> EnumLabels::optimizer() {
    return {{tr("Adam / AdamW"), "adam"},
            {tr("SGD with momentum"), "sgd"},
            {tr("Adafactor"), "adafactor"},
            {tr("8-bit AdamW (bitsandbytes, torchao)"), "adam8bit"}};
}

std::vector<FieldChoice> EnumLabels::optimizerImpl() {
    return {{tr("Fused"), "fused"},
            {tr("foreach (torch.optim default)"), "foreach"},
            {tr("For-loop (per tensor)"), "for_loop"}};
}

std::vector<FieldChoice> EnumLabels::gradReduceDtype() {
    return {{tr("FP32 (default)"), "fp32", true,
             tr("Megatron-LM's default for bf16 training, torchtitan's mixed_precision_reduce")},
            {tr("BF16"), "bf16", true,
             tr("Megatron-LM --grad-reduce-in-bf16; Megatron-Bridge's performance recipes")}};
}

std::vector<FieldChoice> EnumLabels::recompute() {
    return {{tr("None"), "none"},
            {tr("Selective (attention)"), "selective"},
            {tr("Full (whole layers)"), "full"}};
}

std::vector<FieldChoice> EnumLabels::schedule() {
    return {{tr("1F1B"), "1f1b"},
            {tr("Interleaved 1F1B"), "interleaved"},
            {tr("GPipe"), "gpipe"},
            {tr("Zero bubble"), "zero-bubble"},
            {tr("Breadth-first"), "breadth-first"}};
}

std::vector<FieldChoice> EnumLabels::zero() {
    return {{tr("0 — replicated optimizer"), 0},
            {tr("1 — shard optimizer states"), 1},
            {tr("2 — shard gradients too"), 2},
            {tr("3 — shard parameters too (FSDP)"), 3}};
}

std::vector<FieldChoice> EnumLabels::scaleOutTopology() {
    return {{tr("Rail-optimized fat-tree"), "rail-optimized"},
            {tr("Rail-only"), "rail-only"},
            {tr("Fat-tree"), "fat-tree"},
            {tr("Torus"), "torus"}};
}

// ZeRO-Offload (CPU) and ZeRO-Infinity (NVMe) targets.
std::vector<FieldChoice> EnumLabels::offload() {
    return {{tr("None (GPU memory)"), "none"}, {tr("CPU memory"), "cpu"}, {tr("NVMe"), "nvme"}};
}

// Megatron-LM --cp-comm-type.
std::vector<FieldChoice> EnumLabels::cpComm() {
    return {{tr("Ring, peer-to-peer (P2P)"), "p2p", true,
             tr("Ring attention: K/V blocks passed between neighbours, overlapped with compute")},
            {tr("All-gather K/V"), "allgather", true,
             tr("K/V all-gathered before attention (Llama 3)")},
            {tr("All-to-all heads (Ulysses)"), "a2a", true,
             tr("DeepSpeed-Ulysses: heads redistributed; needs heads divisible by TP × CP")}};
}

// Megatron-Core --moe-token-dispatcher-type (flex with the DeepEP / HybridEP backend).
std::vector<FieldChoice> EnumLabels::moeDispatcher() {
    return {{tr("All-to-all"), "alltoall", true,
             tr("One copy per selected expert, separate permutes, a host sync per MoE layer")},
            {tr("DeepEP"), "deepep", true,
             tr("Deduplicated per destination rank, fused permutes, no host sync")},
            {tr("HybridEP"), "hybridep", true,
             tr("DeepEP-style deduplication with NVLink-domain forwarding, no host sync")},
            {tr("All-gather"), "allgather", true, tr("Tokens gathered over the EP group")}};
}

std::vector<FieldChoice> EnumLabels::moeGroupedGemm() {
    return {{tr("Grouped GEMM"), "grouped", true,
             tr("One grouped kernel over the local experts (--moe-grouped-gemm)")},
            {tr("One GEMM per expert"), "per-expert", true,
             tr("Sequential GEMMs, one launch per expert")},
            {tr("Fused expert MLP"), "fused", true,
             tr("Fused grouped expert MLP: no separate casts or activation kernels")}};
}

// execution.framework: whose kernels hold the memory (core/scenario/ExecutionJson.h).
std::vector<FieldChoice> EnumLabels::framework() {
    return {{tr("Megatron-LM"), "megatron", true,
             tr("Megatron-LM, NeMo, Megatron-Bridge: Transformer Engine's fused modules, "
                "cuDNN fused attention and fused cross entropy")},
            {tr("PyTorch modules"), "pytorch", true,
             tr("torchtitan, torchtune, Hugging Face, DeepSpeed: FlashAttention-2 through "
                "SDPA, op-level selective checkpointing, FP32 cross entropy")}};
}

// execution.cross_entropy: what the loss holds per logit (core/estimate/FinetuneMemory.h).
std::vector<FieldChoice> EnumLabels::crossEntropy() {
    return {{tr("Fused"), "fused", true,
             tr("Megatron-Core's fused vocab-parallel cross entropy: 4 bytes per logit")},
            {tr("Chunked"), "chunked", true,
             tr("torchtune's CEWithChunkedOutputLoss: the output and loss in chunks")},
            {tr("Plain (FP32)"), "plain", true,
             tr("F.cross_entropy on FP32 logits (torchtitan, Hugging Face, "
                "torch.nn.CrossEntropyLoss): 12 bytes per logit")},
            {tr("Linear-chunked"), "linear-chunked", true,
             tr("Output projection and loss chunk by chunk, no logits kept (torchtune "
                "LinearCrossEntropyLoss, Liger)")}};
}

std::vector<FieldChoice> EnumLabels::cudaGraphs() {
    return {{tr("None"), "none"},
            {tr("Per layer (partial)"), "layers"},
            {tr("Whole iteration"), "full"}};
}

} // namespace ts::gui
