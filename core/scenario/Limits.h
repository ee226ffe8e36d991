#pragma once
// Accepted ranges for scenario values. They are wide enough for any real run, and they keep
// arithmetic downstream far from overflow: a count beyond them is refused with a message,
// never clamped.

#include <cstdint>

namespace ts::limits {

inline constexpr int kMaxLayers = 10'000;
inline constexpr std::int64_t kMaxHidden = 1'000'000;
inline constexpr std::int64_t kMaxFfnHidden = 10'000'000;
inline constexpr int kMaxHeads = 100'000;
inline constexpr int kMaxHeadDim = 100'000;
inline constexpr std::int64_t kMaxVocab = 100'000'000;
inline constexpr int kMaxExperts = 100'000;

inline constexpr std::int64_t kMaxGpus = 16'777'216; // 2^24
inline constexpr int kMaxGpusPerNode = 4'096;
inline constexpr int kMaxDomainGpus = 1'000'000;
inline constexpr int kMaxNicsPerNode = 1'024;
inline constexpr int kMaxSwitchRadix = 100'000;
inline constexpr int kMaxTiers = 8;
inline constexpr int kMaxPods = 1'024;

inline constexpr std::int64_t kMaxSeqLen = 1LL << 30;
inline constexpr std::int64_t kMaxGlobalBatch = 1LL << 32;
inline constexpr int kMaxVpp = 1'024;
inline constexpr int kMaxLoraRank = 1'000'000; // the model's hidden size bounds it further

inline constexpr double kMaxTflops = 1e7;
inline constexpr double kMaxBandwidthGBps = 1e7;
inline constexpr double kMaxMemoryGiB = 1e6;
inline constexpr double kMaxPowerW = 1e6;
inline constexpr double kMaxLatencyUs = 1e7;
inline constexpr double kMaxTokens = 1e18;
inline constexpr double kMaxPrice = 1e9;

} // namespace ts::limits
