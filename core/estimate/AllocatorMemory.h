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
    double activations = 0; // at the start of the backward (all micro-batches in flight)
    double transient = 0;   // buffers beside the activations: gathered weights, dequantised copies
    bool shardedParameters = false; // FSDP / ZeRO-3 on separate collective streams
    double gatheredLayer = 0;       // one layer's gathered weights and unsharded gradients
};

struct AllocatorPeaks {
    double allocated = 0;
    double reserved = 0;
    bool activationMoment = true; // the peak is when the backward starts (else when it ends)
    double gradientsAtPeak = 0;   // gradients live at the peak moment
    double activationsAtPeak = 0;
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
    // When the backward starts: the activations of every micro-batch in flight.
    const double backwardStart = always + liveGradients + m.activations + m.transient;
    // When it ends: every gradient of the step (none with optimizer-in-backward), the
    // activations gone.
    const double backwardEnd =
        always + (m.optimizerInBackward ? m.largestGradient : m.gradients) + m.transient;
    AllocatorPeaks p;
    p.activationMoment = backwardStart >= backwardEnd;
    p.allocated = std::max(backwardStart, backwardEnd);
    p.gradientsAtPeak = p.activationMoment
                            ? liveGradients
                            : (m.optimizerInBackward ? m.largestGradient : m.gradients);
    p.activationsAtPeak = p.activationMoment ? m.activations : 0.0;
    const double changing = m.activations + m.transient;
    p.reserved = p.allocated + kTransientFragmentation * changing +
                 (m.shardedParameters ? m.gatheredLayer : 0.0);
    return p;
}

} // namespace ts
