#pragma once
// Which flash-attention kernel the framework runs, and what that changes on the GPU
// (hardware/KernelTime.h times attention as its matmuls at the profile's tensor-core
// efficiencies plus its softmax exponentials).
//
// The profile's attention efficiencies (HardwareProfile.cpp) were fitted on the published runs,
// where each GPU generation met one kernel family: on Hopper, FlashAttention-2 through PyTorch's
// scaled_dot_product_attention (the torchtitan runs, execution.framework "pytorch"); on
// Blackwell, Transformer Engine's cuDNN fused attention (the Megatron-Bridge runs). On Hopper,
// Megatron-LM runs Transformer Engine's fused attention too, whose cuDNN kernels use Hopper's
// asynchronous tensor-core instructions (wgmma, TMA) that FlashAttention-2 does not: the
// FlashAttention-3 paper (Shah et al. 2024, Fig. 4, H100 SXM5, BF16, head dim 128, causal)
// measures cuDNN at 484-539 TFLOP/s forward from 2k to 16k tokens against FlashAttention-2's
// 298-335, 1.6 times. On Ampere both are mma.sync kernels of one design; on Blackwell the fit
// already is cuDNN's.

#include "hardware/GpuGeneration.h"
#include "scenario/Enums.h"

#include <string>

namespace ts {

struct HardwareProfile;

// Transformer Engine's fused attention on Hopper over FlashAttention-2, as a factor on the
// attention matmuls' tensor-core efficiency (forward and backward). Fitted once on the
// published Megatron-LM / NeMo H100 runs within 1 ... 1.6 (the kernel benchmark's ratio, which
// omits what TE adds around the kernel: the sbhd/bshd layout conversions and the softmax
// statistics it saves): 1.3, docs/execution-model.md "Attention kernel".
inline constexpr double kTeFusedAttentionHopperFactor = 1.3;

// The backend that runs attention (execution.attention_backend), "auto" resolved as the
// framework picks for this GPU and model (AttentionKernel.cpp cites the selection rules):
// Megatron-LM runs Transformer Engine's get_attention_backend, PyTorch-native frameworks
// scaled_dot_product_attention's flash kernel; where no fused kernel supports the model's
// attention sinks, the unfused path.
AttentionBackend resolvedAttentionBackend(AttentionBackend stated, Framework framework,
                                          GpuGeneration generation, bool attentionSinks);

// Why a stated backend cannot run this model on this GPU (empty when it can): what the
// estimate warns of, naming /execution/attention_backend.
std::string attentionBackendProblem(AttentionBackend stated, GpuGeneration generation,
                                    bool attentionSinks);

// The factor for a backend's fused kernel on a GPU generation (1 where the fit holds).
double attentionKernelFactor(AttentionBackend backend, GpuGeneration generation);

// Scales the profile's attention efficiencies by attentionKernelFactor (at most 1).
void applyAttentionKernel(AttentionBackend backend, GpuGeneration generation, HardwareProfile& hw);

} // namespace ts
