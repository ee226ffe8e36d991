#pragma once
// Accepted ranges of every quantity Trainscape reads, each with the reason for its bounds.
// They are wide enough for any real run and keep the arithmetic downstream far from overflow,
// infinities and unbounded work: a value beyond them is refused with a message that quotes
// the range, its reason and the JSON path (or file:line), never clamped.
//
// Reference points for the reasons: the largest published runs use 16k-24k GPUs (Llama 3
// 405B: 16,384 H100, Dubey et al. 2024 sec. 3.3) and pipelines of at most 64 stages
// (Megatron-LM 1T: pp 64, Narayanan et al. 2021 Table 1); the slowest link a cluster uses is
// 1 GbE (0.125 GB/s); the densest part's peak is B300's 15 PFLOPS dense FP4.

#include "common/Range.h"

#include <cstdint>

namespace ts::limits {

// Model.
inline constexpr IntRange kLayers{1, 10'000, "100x the deepest published LLM"};
inline constexpr IntRange kHidden{1, 1'000'000, "40x the widest published LLM"};
inline constexpr IntRange kFfnHidden{1, 10'000'000, "the widest published FFN times 100"};
inline constexpr IntRange kHeads{1, 100'000, "published LLMs use at most a few hundred"};
inline constexpr IntRange kHeadDim{1, 100'000, "published LLMs use 64 to 256"};
inline constexpr IntRange kVocab{1, 100'000'000, "the largest vocabularies hold ~256k tokens"};
inline constexpr IntRange kExperts{1, 100'000, "the largest MoE models use a few hundred"};
// A capacity factor far below 1 drops nearly every token; Switch Transformer uses
// 1.0-2.0 (Fedus et al. 2022, sec. 2.2); 0.01 keeps the arithmetic finite.
inline constexpr RealRange kCapacityFactor{0.01, 1000, "Switch Transformer uses 1.0 to 2.0"};

// Cluster.
inline constexpr IntRange kGpus{1, 1'000'000, "40x the largest published training run"};
inline constexpr IntRange kGpusPerNode{1, 4'096, "servers hold 4 to 16 GPUs"};
inline constexpr IntRange kDomainGpus{1, 1'000'000, "at most the cluster"};
inline constexpr IntRange kNicsPerNode{1, 1'024, "servers hold at most 16 NICs"};
inline constexpr IntRange kSwitchRadix{2, 100'000, "switch ASICs have at most 512 ports"};
inline constexpr IntRange kTiers{1, 8, "three tiers reach 100k endpoints"};
inline constexpr IntRange kPods{1, 1'024, "multi-datacenter runs span a few sites"};
// Every bandwidth: at least 1/12 of 1 GbE, so that no transfer time approaches infinity.
inline constexpr RealRange kBandwidthGBps{0.01, 1e7, "1 GbE is 0.125 GB/s; NVLink 5 is 900"};
inline constexpr RealRange kBandwidthGbits{0.08, 8e7, "1 GbE is 1 Gbit/s; the fastest NIC 800"};
inline constexpr RealRange kTflops{0.001, 1e7, "B300's dense FP4 peak is 15,000 TFLOPS"};
inline constexpr RealRange kExpTeraPerS{0.001, 1e5,
                                        "an H100 SXM computes 3.9 T exponentials per second"};
inline constexpr RealRange kMemoryGiB{0.001, 1e6, "GPUs hold at most a few hundred GiB"};
inline constexpr RealRange kPowerW{0, 1e6, "a GPU draws at most a few kW"};
inline constexpr RealRange kLatencyUs{0, 1e7, "a WAN hop takes milliseconds, not seconds"};

// Training and plan.
inline constexpr IntRange kSeqLen{1, 1LL << 30, "context windows reach ~10M tokens"};
inline constexpr IntRange kGlobalBatch{1, 1LL << 32, "published runs use at most ~100M tokens"};
// Micro-batches per step (global_batch / (dp * micro_batch)): the schedules simulate or
// extrapolate them, and no published run uses more than a few thousand.
inline constexpr IntRange kMicrobatches{1, 10'000'000, "published runs use at most thousands"};
// Pipeline stages: the steady-state shortcut of the schedules simulates about 3 pp
// micro-batches of pp * vpp chunks, so its cost grows as pp^2 vpp; 128 stages (twice the
// largest published pipeline) keep every schedule well under a second (bench/bench_extreme).
inline constexpr IntRange kPipelineStages{1, 128, "twice the largest published pipeline (64)"};
inline constexpr IntRange kVpp{1, 1'024, "Megatron-LM runs use vpp up to ~12"};
inline constexpr IntRange kPipelineChunks{1, 1'024, "pp * vpp chunks each hold a layer or more"};
inline constexpr RealRange kTokens{1, 1e18, "1000x the largest published training set"};
// LoRA rank: the model's hidden size bounds it further (scenario/FinetuneResolver.cpp).
inline constexpr int kMaxLoraRank = 1'000'000;

// Costs.
inline constexpr RealRange kPrice{0, 1e9, "no GPU-hour or kWh costs a billion dollars"};
// Hourly grid carbon intensity: coal-fired power is ~1,000 gCO2/kWh (IPCC AR5 WG3 Annex III,
// Table A.III.2: lifecycle median 820); 10,000 leaves a margin for any real grid.
inline constexpr RealRange kGridGco2Kwh{0, 10'000, "coal power is ~1,000 gCO2/kWh"};
inline constexpr RealRange kElectricityUsdKwh{0, 1'000, "electricity costs cents per kWh"};

// Calibration inputs (GEMM sweeps, nccl-tests logs).
inline constexpr IntRange kMatmulDim{1, 1LL << 24, "16M rows or columns"};
inline constexpr RealRange kMatmulTflops{1e-6, 1e5, "7x B300's dense FP4 peak"};
inline constexpr RealRange kKernelTimeUs{1e-3, 1e9, "a kernel takes nanoseconds to seconds"};

// Names kept for the code that reads them as plain numbers.
inline constexpr int kMaxLayers = static_cast<int>(kLayers.max);
inline constexpr std::int64_t kMaxHidden = kHidden.max;
inline constexpr std::int64_t kMaxFfnHidden = kFfnHidden.max;
inline constexpr int kMaxHeads = static_cast<int>(kHeads.max);
inline constexpr int kMaxHeadDim = static_cast<int>(kHeadDim.max);
inline constexpr std::int64_t kMaxVocab = kVocab.max;
inline constexpr int kMaxExperts = static_cast<int>(kExperts.max);
inline constexpr std::int64_t kMaxGpus = kGpus.max;
inline constexpr int kMaxGpusPerNode = static_cast<int>(kGpusPerNode.max);
inline constexpr int kMaxDomainGpus = static_cast<int>(kDomainGpus.max);
inline constexpr int kMaxNicsPerNode = static_cast<int>(kNicsPerNode.max);
inline constexpr int kMaxSwitchRadix = static_cast<int>(kSwitchRadix.max);
inline constexpr int kMaxTiers = static_cast<int>(kTiers.max);
inline constexpr int kMaxPods = static_cast<int>(kPods.max);
inline constexpr std::int64_t kMaxSeqLen = kSeqLen.max;
inline constexpr std::int64_t kMaxGlobalBatch = kGlobalBatch.max;
inline constexpr int kMaxVpp = static_cast<int>(kVpp.max);
inline constexpr double kMaxTflops = kTflops.max;
inline constexpr double kMaxBandwidthGBps = kBandwidthGBps.max;
inline constexpr double kMaxMemoryGiB = kMemoryGiB.max;
inline constexpr double kMaxPowerW = kPowerW.max;
inline constexpr double kMaxLatencyUs = kLatencyUs.max;
inline constexpr double kMaxTokens = kTokens.max;
inline constexpr double kMaxPrice = kPrice.max;

} // namespace ts::limits
