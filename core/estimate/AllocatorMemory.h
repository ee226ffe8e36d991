#pragma once
// Memory as PyTorch reports it (issue 16, "Memory as PyTorch reports it";
// shared/spec/scenario-format.md, optional estimate keys):
// - allocated (torch.cuda.max_memory_allocated): the live tensors at the worst moment of the
//   step. Activations peak when the backward starts; gradients peak when it ends. They meet
//   only where gradients outlive the step's backward: a persistent gradient buffer
//   (Megatron-LM's contiguous main_grad buffer, with master weights) or accumulation over
//   several micro-batches. Otherwise torch's zero_grad(set_to_none=True) frees them after
//   each step (the PyTorch default since 2.0), and the peak is the larger of the two moments.
//   Optimizer-in-backward (torchtune optimizer_in_bwd) frees each gradient in its hook:
//   only the largest one is ever live.
//   The backward has two activation moments. First the loss and the output layer run
//   their backward while every layer's saved activations wait: autograd frees a node's saved
//   tensors once the node has run (torch/csrc/autograd/function.h, release_variables), so
//   the loss's saved logits are gone before the last transformer layer's backward begins.
//   Then each layer runs its backward, a checkpointed one after rebuilding its activations
//   (torch.utils.checkpoint), and a quantised base dequantises a weight for its GEMM: one
//   layer's working set beside the saved activations. The last of those layers (layer 0)
//   runs when every other gradient exists, so the working set meets the gradients too. The
//   output weight's gradient is produced while the loss's tensors are live (the output
//   layer's backward), the largest gradient of a dense model.
//   Scenarios accounted as Megatron-LM (execution.framework "megatron": FinetuneMemory.h,
//   pytorchNativeRecipe) keep theoretical_memory_usage.py's sum instead, the output layer's
//   activations beside every layer's and the working set (lossFreedBeforeLayers false).
//   The optimizer step is a third moment, after the backward: every gradient, no activation,
//   and what the step allocates. torch.optim's foreach Adam (its default on CUDA) computes
//   exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs) over the whole parameter list
//   (torch/optim/adam.py and adamw.py, _multi_tensor_adam): a temporary the size of the second
//   moments; the for-loop implementation one tensor's; fused kernels none. Optimizer-in-backward
//   steps one parameter at a time inside the backward: no such moment.
// - reserved (torch.cuda.max_memory_reserved): allocated plus what the caching allocator holds
//   beyond it. Allocations are rounded to 512 bytes and served from 2 MiB-multiple segments
//   (PyTorch c10/cuda/CUDACachingAllocator.cpp: kMinBlockSize 512, kRoundLarge 2 MiB); a
//   freed block is reused only by a request of its size class and stream, so the transient
//   tensors (activations, gathered weights, logits), whose sizes change through the step,
//   leave split blocks behind: a fraction of them. FSDP2 all-gathers and reduce-scatters
//   on their own streams (torch.distributed.fsdp fully_shard: all-gather and reduce-scatter
//   streams), whose pools keep one more layer's gathered weights and unsharded gradients.
// - device (peak_bytes, about what nvidia-smi shows): reserved plus the CUDA context and the
//   communication library's own buffers, which no tensor holds.

#include <algorithm>

namespace ts {

struct TensorMoments {
    double weights = 0;           // parameters (frozen base included)
    double optimizer = 0;         // optimizer states
    double gradients = 0;         // every gradient of the step, when all exist
    bool gradientsPersist = true; // they coexist with the activation peak
    double largestGradient = 0;   // optimizer-in-backward: the only gradient ever live
    bool optimizerInBackward = false;
    double activations = 0;            // layers' saved activations, all micro-batches in flight
    double lossActivations = 0;        // the loss and output layer's, freed by their backward
    double layerWorkingSet = 0;        // one layer's rebuilt activations and dequantised weight
    bool lossFreedBeforeLayers = true; // else the loss's activations count in every moment
    double transient = 0; // buffers beside the activations: gathered weights, dequantised copies
    bool shardedParameters = false; // FSDP / ZeRO-3 on separate collective streams
    double gatheredLayer = 0;       // one layer's gathered weights and unsharded gradients
    // A block freed before the loss's backward that no request up to its peak fits, so the
    // allocator still holds it then (FinetuneMemory.h, freedLogitBytes): the caching
    // allocator returns cached blocks to the driver only when a cudaMalloc fails
    // (CUDACachingAllocator.cpp, release_cached_blocks in the OOM path), and it serves a
    // request from a cached block only if the block is at least as large.
    double cachedBeforeLoss = 0;
    // What the optimizer step allocates (MemoryModel.h: 0 with optimizer-in-backward).
    double optimizerStepTemporary = 0;
};

struct AllocatorPeaks {
    double allocated = 0;
    double reserved = 0;
    bool activationMoment = true; // the peak is when the backward starts (else when it ends)
    double gradientsAtPeak = 0;   // gradients live at the peak moment
    double activationsAtPeak = 0;
    double optimizerTemporaryAtPeak = 0; // the optimizer step's temporary, when it is the peak
};

// Fraction of the transient tensors' bytes that the caching allocator keeps in split,
// unreusable blocks (default allocator settings, no expandable_segments). Tuned on
// torchtitan's 18 max_memory_reserved figures (tst_memory_accuracy): their median error falls
// as it falls (0.10: 33%, 0.05: 31%, 0.02: ~29%); 0.02 keeps reserved above allocated, as the
// allocator must. What those cases miss is activation accounting (torchtitan's op-level
// selective checkpointing, its FP32 cross entropy), not the allocator.
inline constexpr double kTransientFragmentation = 0.02;

// (Inline: a plan search calls it for every stage of every plan.)
inline AllocatorPeaks allocatorPeaks(const TensorMoments& m) {
    const double always = m.weights + m.optimizer;
    const double liveGradients =
        m.optimizerInBackward ? m.largestGradient : (m.gradientsPersist ? m.gradients : 0.0);
    const bool split = m.lossFreedBeforeLayers;
    // The loss's backward: every layer's saved activations, the loss's, and the output
    // weight's gradient being written (the largest one; persistent gradients hold it already).
    const bool outputGradient = split && m.lossActivations > 0 && !m.gradientsPersist;
    const double lossGradients =
        outputGradient ? std::max(liveGradients, m.largestGradient) : liveGradients;
    const double lossMoment =
        always + lossGradients + m.activations + m.lossActivations + m.transient;
    // The last layer's backward: the saved activations and one layer's working set.
    const double layerActivations =
        m.activations + m.layerWorkingSet + (split ? 0.0 : m.lossActivations);
    const double layerMoment = always + liveGradients + layerActivations + m.transient;
    const double backwardStart = std::max(lossMoment, layerMoment);
    // When it ends: every gradient of the step (none with optimizer-in-backward) and layer
    // 0's working set, the saved activations gone.
    const double endGradients = m.optimizerInBackward ? m.largestGradient : m.gradients;
    const double endActivations = split ? m.layerWorkingSet : 0.0;
    const double backwardEnd = always + endGradients + endActivations + m.transient;
    AllocatorPeaks p;
    p.activationMoment = backwardStart >= backwardEnd;
    p.allocated = std::max(backwardStart, backwardEnd);
    const bool atLoss = lossMoment > layerMoment;
    p.gradientsAtPeak = !p.activationMoment ? endGradients : atLoss ? lossGradients : liveGradients;
    p.activationsAtPeak = !p.activationMoment ? endActivations
                          : atLoss            ? m.activations + m.lossActivations
                                              : layerActivations;
    const double changing =
        (atLoss ? m.activations + m.lossActivations : layerActivations) + m.transient;
    p.reserved = p.allocated + kTransientFragmentation * changing +
                 (m.shardedParameters ? m.gatheredLayer : 0.0) +
                 (p.activationMoment && atLoss ? m.cachedBeforeLoss : 0.0);
    // The optimizer step: every gradient and the step's temporary; the activations' blocks
    // stay reserved from the backward.
    const double stepMoment = always + m.gradients + m.optimizerStepTemporary;
    if (m.optimizerStepTemporary > 0 && stepMoment > p.allocated) {
        p.allocated = stepMoment;
        p.activationMoment = false;
        p.gradientsAtPeak = m.gradients;
        p.activationsAtPeak = 0;
        p.optimizerTemporaryAtPeak = m.optimizerStepTemporary;
        p.reserved =
            std::max(p.reserved, stepMoment + (m.shardedParameters ? m.gatheredLayer : 0.0));
    }
    return p;
}

} // namespace ts
