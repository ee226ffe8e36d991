#include "estimate/RoutedExperts.h"

#include "estimate/EagerKernels.h"
#include "estimate/MoeLayerCost.h"
#include "estimate/PrecisionMemory.h"
#include "hardware/KernelTime.h"

#include <algorithm>

namespace ts {

namespace {

struct ExpertShape {
    const HardwareProfile& hw;
    MoeGroupedGemm kind;
    MatmulDtype dtype;
    double inBytes;
    double local; // experts on this rank
};

// One expert linear [routed x k] x [k x n] over the local experts, forward, input-gradient and
// FP32-accumulated weight-gradient GEMMs. Each expert's weight gradient is its own GEMM of
// reduction routed / local; the forward and input gradient are one GEMM per expert
// ("per-expert") or the union of the experts' tiles ("grouped", "fused").
void expertLinear(const ExpertShape& e, double routed, double n, double k, PassCost& f,
                  PassCost& b) {
    if (routed <= 0 || n <= 0 || k <= 0)
        return;
    const double perExpert = routed / e.local;
    if (e.kind != MoeGroupedGemm::Fused) {
        f.gemm += e.local * matmulSeconds(e.hw, e.dtype, perExpert, n, k, e.inBytes, 2.0);
        b.gemm += e.local * matmulSeconds(e.hw, e.dtype, perExpert, k, n, e.inBytes, 2.0);
    } else {
        f.gemm += matmulSeconds(e.hw, e.dtype, routed, n, k, e.inBytes, 2.0);
        b.gemm += matmulSeconds(e.hw, e.dtype, routed, k, n, e.inBytes, 2.0);
    }
    b.gemm += e.local * matmulSeconds(e.hw, e.dtype, k, n, perExpert, e.inBytes,
                                      kWeightGradientAccumulateBytes);
    // The host issues one GEMM per expert unless the expert MLP is one fused kernel.
    const double launches = e.kind == MoeGroupedGemm::Fused ? 1.0 : e.local;
    f.kernels += launches;
    b.kernels += 2.0 * launches;
}

// Permute and unpermute kernels per pass: the alltoall dispatcher's permute, chunk sort, unsort
// and unpermute with their index computations; the flex dispatchers' fused permute on either
// side; allgather's local permute, unpermute and mask.
double permuteKernels(MoeDispatcher d) {
    switch (d) {
    case MoeDispatcher::AllToAll:
        return 6;
    case MoeDispatcher::AllGather:
        return 3;
    case MoeDispatcher::DeepEp:
    case MoeDispatcher::HybridEp:
        return 2;
    }
    return 2;
}

// Device-to-host syncs of one forward's dispatch (Megatron-LM
// megatron/core/transformer/moe/token_dispatcher.py and fused_a2a.py):
// - alltoall: tokens_per_expert is copied to the host to size the all-to-all's splits;
// - deepep: DeepEP's normal-mode dispatch makes the CPU wait for the GPU's count of received
//   tokens to allocate them ("the CPU will wait for GPU's signal to arrive, so this is not
//   compatible with CUDA graph", FusedDispatch.forward);
// - hybridep: sync-free only when given a static bound on the permuted tokens
//   (moe_expert_rank_capacity_factor, which a full-iteration CUDA graph needs: nothing in it
//   can wait for the host); otherwise "HybridEP sizes buffers dynamically (CPU sync in
//   dispatch)" (_HybridEPManager.setup_metadata);
// - allgather: none (every rank receives the whole group's tokens).
// The backward's dispatch and combine reuse the forward's counts (DeepEP's cached handle).
double dispatchHostSyncs(const ExecutionConfig& ex) {
    switch (ex.moeDispatcher) {
    case MoeDispatcher::AllToAll:
    case MoeDispatcher::DeepEp:
        return 1.0;
    case MoeDispatcher::HybridEp:
        return ex.cudaGraphs == CudaGraphs::Full ? 0.0 : 1.0;
    case MoeDispatcher::AllGather:
        return 0.0;
    }
    return 0.0;
}

// The EP communication of one pass: dispatch and combine (the backward runs them again, for
// the gradients, in reverse).
struct DispatchComm {
    CollectiveTime pass;
    double kernels = 0;
};

DispatchComm dispatchComm(const CostContext& ctx, const RoutedExpertsInput& in) {
    const ResolvedScenario& sc = ctx.scenario;
    const ParallelConfig& p = sc.parallel;
    DispatchComm out;
    if (p.ep <= 1)
        return out;
    const double act = activationBytes(sc);
    const double dispatchElement = p.moeDispatchFp8 ? kFp8DispatchElementBytes : act;
    const long long stride = std::max(1, p.etp);
    const GroupPlacement epGroup{p.ep, stride};
    // A rank sends its tokens x etp / tp (expert tensor parallelism), the busiest receiving
    // `imbalance` times the mean.
    const double rankTokens = in.tokens * double(p.etp) / double(std::max(1, p.tp));
    const double h = double(sc.model.hidden);
    switch (sc.execution.moeDispatcher) {
    case MoeDispatcher::AllToAll: {
        // One copy per selected expert, its own rank's among them (nccl-tests send buffer).
        const double copies = rankTokens * in.imbalance * sc.model.moe->topK * h;
        addCollective(out.pass, ctx.collectives.cost(Collective::AllToAll, copies * dispatchElement,
                                                     epGroup));
        addCollective(out.pass, ctx.collectives.cost(Collective::AllToAll, copies * act, epGroup));
        out.kernels = 2;
        break;
    }
    case MoeDispatcher::AllGather: {
        // The gathered tokens of the whole EP group, and the reduce-scatter of the outputs.
        const double gathered = rankTokens * double(p.ep) * h;
        addCollective(out.pass, ctx.collectives.cost(Collective::AllGather,
                                                     gathered * dispatchElement, epGroup));
        addCollective(out.pass,
                      ctx.collectives.cost(Collective::ReduceScatter, gathered * act, epGroup));
        out.kernels = 2;
        break;
    }
    case MoeDispatcher::DeepEp:
    case MoeDispatcher::HybridEp: {
        const ExpertAllToAll combine = expertAllToAll(ctx.collectives, sc, in.imbalance, act);
        const ExpertAllToAll dispatch =
            p.moeDispatchFp8
                ? expertAllToAll(ctx.collectives, sc, in.imbalance, kFp8DispatchElementBytes)
                : combine;
        addCollective(out.pass, dispatch.total);
        addCollective(out.pass, combine.total);
        // DeepEP: a layout/notify kernel before each dispatch and combine (DeepEP README,
        // get_dispatch_layout and the notify kernels of the normal mode).
        out.kernels = 4;
        break;
    }
    }
    return out;
}

} // namespace

void addRoutedExperts(const CostContext& ctx, const RoutedExpertsInput& in, LayerCost& out) {
    const ResolvedScenario& sc = ctx.scenario;
    const ModelConfig& m = sc.model;
    const MoeConfig& moe = *m.moe;
    const ParallelConfig& p = sc.parallel;
    const ExecutionConfig& ex = sc.execution;
    const HardwareProfile& hw = ctx.hw;
    const MatmulDtype dtype = matmulDtypeFor(sc.training.precision);
    const bool fp8 = dtype == MatmulDtype::Fp8 || dtype == MatmulDtype::Fp4;
    const double etp = std::max(1, p.etp);
    const double local = std::max(1, moe.experts / std::max(1, p.ep));
    const ExpertShape shape{hw, ex.moeGroupedGemm, dtype, matmulInputBytes(dtype), local};
    const double h = double(m.hidden);
    const double effn = double(moe.expertFfnHidden) / etp;
    const bool swiglu = isGatedMlp(m.mlp);
    const double up = (swiglu ? 2.0 : 1.0) * effn;
    const double actBytes = activationBytes(sc);
    const bool fused = ex.moeGroupedGemm == MoeGroupedGemm::Fused;
    PassCost f, b;

    expertLinear(shape, in.routedTokens, up, h, f, b);
    expertLinear(shape, in.routedTokens, h, effn, f, b);

    // Memory-bound work on the routed copies, in 16-bit passes over every copy (a read or a
    // write of copies x h x 2 bytes), as Megatron-Core's MoE layer runs it (token_dispatcher.py,
    // moe_utils.py permute / unpermute, fused_a2a.py):
    // - forward: the dispatch writes each copy into its expert's slot (1), the unpermute reads
    //   the expert output and writes it scaled by its routing probability (2), the combine
    //   reads it to send (1), writes it on the receiving rank and reads it to sum the top_k
    //   copies of each token (2): 6;
    // - backward: the combine's gradient is dispatched as copies (read 1, write 1), the
    //   unpermute's backward reads that gradient and the saved expert output for the
    //   probabilities' gradient and writes the input gradient (3), the dispatch's gradient
    //   reads it to send (1), writes it and reads it to sum per token (2): 8;
    // - the alltoall dispatcher's separate permute before the send and chunk sort after it,
    //   and their reverses around the combine, read and write every copy again: 4 more
    //   passes each way (sort_chunks_by_idxs);
    // plus, per token, reading the hidden state to dispatch and writing the combined output
    // (and their gradients), and the expert activation function (SwiGLU: read 2 effn, write
    // effn per copy).
    const double copies = in.routedTokens / std::max(1.0, in.tokens);
    const bool allToAll = ex.moeDispatcher == MoeDispatcher::AllToAll;
    const double fwdPasses = kRoutedCopyForwardPasses + (allToAll ? 4.0 : 0.0);
    const double bwdPasses = kRoutedCopyBackwardPasses + (allToAll ? 4.0 : 0.0);
    const double copyBytes = copies * h * actBytes;
    const double actFn = activationFunctionBytes(m.mlp) * effn * copies;
    // Eager PyTorch modules run the experts' SwiGLU as separate kernels (EagerKernels.h).
    const EagerBytes eager = eagerActivationBytes(sc, effn * copies);
    const double fwdBytes = fwdPasses * copyBytes + 2.0 * h * actBytes + actFn + eager.forward;
    const double bwdBytes =
        bwdPasses * copyBytes + 2.0 * h * actBytes + 2.0 * actFn + eager.backward;
    double fwdKernels = permuteKernels(ex.moeDispatcher) + (fused ? 0.0 : 1.0);
    double bwdKernels = fwdKernels;
    double fwdElementwise = fwdBytes * in.tokens, bwdElementwise = bwdBytes * in.tokens;
    if (fp8 && !fused) {
        // FP8 casts of each expert's GEMM inputs (forward: the dispatched tokens and the
        // activation output; backward: the output gradients of both GEMMs) and of its weights
        // once per micro-batch, as the dense layer's (estimate/LayerCost.cpp), one cast kernel
        // per expert and operand (TransformerEngine GroupedLinear quantizes per split).
        const int passes = fp8CastPasses(sc.training);
        const double castBytes = fp8CastBytesPerElement(sc.training, CastOperand::Activation);
        const double weightBytes = fp8CastBytesPerElement(sc.training, CastOperand::Weight);
        fwdElementwise +=
            castBytes * (h + effn) * in.routedTokens + weightBytes * local * (up + effn) * h;
        bwdElementwise += castBytes * (h + up) * in.routedTokens;
        fwdKernels += 4.0 * local * passes; // two inputs, two weights
        bwdKernels += 2.0 * local * passes;
    }
    f.elementwise += memoryBoundSeconds(hw, fwdElementwise, int(fwdKernels));
    b.elementwise += memoryBoundSeconds(hw, bwdElementwise, int(bwdKernels));
    f.kernels += fwdKernels;
    b.kernels += bwdKernels;

    const DispatchComm comm = dispatchComm(ctx, in);
    addCollective(out.epForward, comm.pass);
    addCollective(out.epBackward, comm.pass);
    f.kernels += comm.kernels;
    b.kernels += comm.kernels;

    // The expert activation function alone (the moe_act module of selective recompute).
    out.modules.moeAct = memoryBoundSeconds(
        hw, activationFunctionBytes(m.mlp) * effn * in.routedTokens, fused ? 0 : 1);
    out.expertForward = f;
    out.expertBackward = b;
    for (auto [into, part] : {std::pair{&out.forward, &f}, {&out.backward, &b}}) {
        into->gemm += part->gemm;
        into->elementwise += part->elementwise;
        into->kernels += part->kernels;
    }
    out.hostSyncs = dispatchHostSyncs(ex);
}

} // namespace ts
