#pragma once
// What fine-tuning changes in memory (scenario "finetune" section): the frozen base is
// stored in its own format and carries no gradients or optimizer states; LoRA adapters
// (Hu et al. 2021, arXiv 2106.09685) add A (r x in) and B (out x r) per wrapped module, each
// trained with full states. Full fine-tuning is pre-training's accounting and needs nothing
// here.
//
// Base storage per weight (linear layers of the transformer layers; embeddings, norms and
// the output layer stay in 16 bits, as Hugging Face PEFT with bitsandbytes and torchtune keep
// them):
// - bf16 / fp16: 2 bytes;
// - fp8: 1 byte and one FP32 scale per output row (torchao float8 weight-only);
// - int8: 1 byte and one FP32 absmax per output row (LLM.int8, Dettmers et al. 2022,
//   arXiv 2208.07339; bitsandbytes Int8Params.SCB);
// - nf4: 4 bits and one absmax per block of 64 weights: FP32 (4 / 64 bytes), or with double
//   quantisation an 8-bit absmax and one FP32 scale per 256 absmaxes, 1/64 + 4/(64 * 256)
//   (QLoRA, Dettmers et al. 2023, arXiv 2305.14314, sec. 3: 0.5 -> 0.127 bits per weight;
//   torchao NF4Tensor block_size 64, scaler_block_size 256).
//
// With tensor parallelism the base shards like pre-training weights; an adapter of a
// column-parallel module (q, k, v, gate, up, lm_head) shards B and replicates A, one of a
// row-parallel module (o, down) shards A and replicates B (Megatron-Bridge / NeMo LoRA).

#include "estimate/MemoryModel.h"
#include "scenario/FinetuneConfig.h"
#include "scenario/ModelConfig.h"
#include "scenario/ResolvedScenario.h"

namespace ts {

// Bytes per stored weight of a frozen base linear layer with `inFeatures` inputs.
double baseWeightBytesPerParam(BaseWeights base, bool doubleQuant, double inFeatures);

// One transformer layer under fine-tuning, per GPU (tensor-parallel shard), in parameters.
struct FinetuneLayer {
    double frozenLinearBytes = 0; // the frozen base linear weights, in their storage format
    double frozenLinearParams = 0;
    double adapterParams = 0;        // LoRA A and B of the wrapped modules
    double adapterFlopsPerToken = 0; // forward: 2 r (in + out) per wrapped module
    // Forward HBM bytes per token of the adapters' small GEMMs beside the base: read the
    // module input, write and read the rank-r product, add into the output (2 bytes each).
    double adapterBytesPerToken = 0;
    double largestLinear = 0; // elements of the largest frozen linear (one dequantised copy)
};

// Adapters on a dense or MoE layer of `model` (MoE: the routed experts of one expert-parallel
// rank, `experts / ep`, and the shared experts). `tp` shards as above.
FinetuneLayer finetuneLayer(const ModelConfig& model, const FinetuneConfig& finetune, int tp,
                            int ep, bool moeLayer);

// The output layer's adapter (lm_head) on the last stage: r (h + V / tp).
double outputAdapterParams(const ModelConfig& model, const FinetuneConfig& finetune, int tp);

// One pipeline stage of an adapter method (LoRA / QLoRA) on one GPU.
struct FinetuneStageInput {
    double denseLayers = 0;
    double moeLayers = 0;
    bool embedding = false;      // holds the input embedding
    bool output = false;         // holds the final norm and the output layer
    bool ownOutputMatrix = true; // untied, or tied with the copy on another stage
    std::int64_t shardRanks = 1; // ZeRO / FSDP shard group
    int zero = 0;
};

struct FinetuneStageMemory {
    double frozenBytes = 0;   // the frozen base after sharding
    double adapterParams = 0; // trainable parameters before ZeRO sharding
    ModelStateBytes adapters; // their weights, gradients and optimizer states after ZeRO
    // ZeRO-3 / FSDP: one transformer layer's frozen base (in its storage format) and
    // adapters, gathered for its forward and backward, and the adapters' unsharded gradients.
    double gatheredLayerBytes = 0;
    double layerAdapterGradientBytes = 0;
    // A quantised base: the 16-bit copy of the largest linear dequantised for its GEMM.
    double dequantisedBytes = 0;
};

FinetuneStageMemory finetuneStageMemory(const ResolvedScenario& scenario,
                                        const FinetuneStageInput& stage,
                                        const StateBytesPerParam& stateBytes);

// A PyTorch-native recipe (torchtune, torchtitan, DeepSpeed) rather than Megatron-LM's:
// execution.framework "pytorch", stated or inferred (scenario/ExecutionJson.h,
// inferFramework: states in the training precision, torch.compile, or ZeRO 2/3 sharding).
// Resolved once per scenario, so a plan search that varies ZeRO keeps one accounting.
bool pytorchNativeRecipe(const ResolvedScenario& scenario);

// What the loss holds per logit when the backward starts (MemoryModel.h,
// ActivationAssumptions::lossBytesPerLogit), by execution.cross_entropy (stated, or inferred
// from the framework: scenario/ExecutionJson.h, inferCrossEntropy):
// - "fused", Megatron-LM's fused cross entropy: kFusedLossBytesPerLogit (4);
// - "plain", e.g. torchtitan (PyTorch-native with FP32 masters): F.cross_entropy on the FP32
//   upcast of the bf16 logits, never compiled (train.py loss_fn at 9dec370: "compiling loss
//   function causes CUDA errors", and `del pred` before backward): the saved FP32 log-softmax, the
//   NLL gradient and the log-softmax gradient, 4 + 4 + 4 = 12; with TP, DTensor's loss
//   parallel in its backward: the saved log-softmax, the zeros_like gradient, the exponential
//   and their sum, 4 x 4 = 16 (its forward holds 14);
//   the same for torchtune's torch.nn.CrossEntropyLoss configs (the Llama 2 configs at
//   0217d44c2, whose model returns `self.output(h).float()`). Counted as eager under
//   training.compile too: torchtune 0.2 compiles the model and leaves the loss eager; a
//   compiled F.cross_entropy (training.compile_loss at 1814feb17) may hold less;
// - "chunked", torchtune (states in bf16): its Llama 3 configs' CEWithChunkedOutputLoss (8
//   chunks, torchtune/modules/loss/ce_chunked_output_loss.py; e.g. recipes/configs/llama3_2/
//   3B_full_single_device.yaml at 1814feb17). Eager, every chunk keeps its FP32 log-softmax
//   (4) and one chunk at a time its two FP32 gradients, nll_loss_backward's and
//   _log_softmax_backward_data's (8 / 8): 5. With training.compile the recipe compiles the
//   chunk's upcast and cross entropy together (training.compile_loss): one kernel, which
//   saves the bf16 logits only (2) and writes one chunk's bf16 gradient at a time (2 / 8),
//   the FP32 values staying in registers: 2.25.
double lossBytesPerLogit(const ResolvedScenario& scenario);

// The forward's 16-bit logits of one micro-batch on the last stage, which torchtitan frees
// before the backward (`del pred`, train.py at 9dec370) while its loss's FP32 tensors, twice
// their size, cannot reuse the block (AllocatorMemory.h, TensorMoments::cachedBeforeLoss):
// 2 bytes per logit under the "plain" FP32 cross entropy and DTensor's loss parallel on
// PyTorch modules, else 0 (the fused and chunked losses never hold the whole logits).
double freedLogitBytes(const ResolvedScenario& scenario, const ActivationLayout& layout);

// The activation accounting of a scenario: eager PyTorch modules in a PyTorch-native recipe
// without training.compile; op-level selective checkpointing in a PyTorch-native recipe; the
// loss's bytes per logit; the inputs a frozen base drops (MemoryModel.h,
// ActivationAssumptions). Megatron-style recipes run fused kernels, compiled or not.
ActivationAssumptions activationAssumptionsFor(const ResolvedScenario& scenario,
                                               ActivationAssumptions base);

} // namespace ts
