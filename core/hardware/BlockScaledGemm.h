#pragma once
// Block-scaled GEMMs on Blackwell: MXFP8 (an E8M0 scale per 32 values) and NVFP4 (an E4M3 scale
// per 16 values) run on the fifth-generation tensor cores' block-scaled MMA
// (tcgen05.mma ...block_scale), which reads a scale vector beside every K-block of both operands:
// the scales travel through shared memory into tensor memory (tcgen05.cp) alongside the data,
// and Transformer Engine reorders each operand's scales into the layout the MMA expects before
// the GEMM (transformer_engine/pytorch/csrc/extensions/gemm.cpp: swizzle_scaling_factors for A
// and B). The datasheet rate is the FP8 (FP4) rate, but the profile's efficiency is the
// per-tensor FP8 MAMF (mamf-finder.py runs torch._scaled_mm with one scale per tensor), which
// has none of this traffic.
//
// Sources for the loss, none a GEMM table: torchao's B200 runs of Llama 3 8B in torchtitan
// (pytorch/ao docs/source/workflows/training.md, "Training e2e benchmarks on NVIDIA B200":
// 10417 tokens/s with float8 tensorwise, 9969 with mxfp8_cublas, the same model, batch and
// compile settings) put a whole step 4.5% slower under MXFP8, which through this model's
// casts is a block-scaled GEMM efficiency near 0.75; Megatron-Bridge's published runs of one
// model on one cluster in FP8 current scaling and in MXFP8 on GB200/GB300 (the dev set's six
// such pairs, each precision with its own tuned plan) are 0.9-11.8% slower under MXFP8, mean
// 7.6%. Fitted once on all published runs within 0.72-1:
// 0.88 reproduces the six pairs' mean ratio (1.087 vs 1.076), docs/execution-model.md
// "Block-scaled GEMMs".

#include "scenario/Enums.h"

namespace ts {

struct HardwareProfile;
struct TrainingConfig;

inline constexpr double kBlockScaledMmaEfficiency = 0.88;

// Whether the training precision multiplies block-scaled on a GPU whose tensor cores scale
// blocks (Blackwell: MXFP8, NVFP4, and the FP8 "blockwise" recipe, which Transformer Engine
// runs as MXFP8 there, gemm.cpp "Emulate the FP8 block scaling recipe with MXFP8").
bool multipliesBlockScaled(const TrainingConfig& training, bool blockScaledTensorCores);

// Scales the efficiency of the training precision's matmul dtype by kBlockScaledMmaEfficiency
// where multipliesBlockScaled holds.
void applyBlockScaledGemm(const TrainingConfig& training, bool blockScaledTensorCores,
                          HardwareProfile& hw);

} // namespace ts
