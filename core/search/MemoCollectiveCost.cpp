#include "search/MemoCollectiveCost.h"

#include <bit>

namespace ts {

namespace {

// Enough distinct collectives for any one scenario's space; past it, start over.
constexpr std::size_t kMaxRemembered = 1 << 20;

} // namespace

std::size_t MemoCollectiveCost::KeyHash::operator()(const Key& k) const {
    std::uint64_t h = std::bit_cast<std::uint64_t>(k.bytes);
    h ^= (std::uint64_t(k.kind) << 56) ^ (std::uint64_t(k.size) << 32) ^ std::uint64_t(k.stride);
    h *= 0x9E3779B97F4A7C15ull; // Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4)
    return static_cast<std::size_t>(h ^ (h >> 29));
}

CollectiveTime MemoCollectiveCost::cost(Collective kind, double bytes,
                                        const GroupPlacement& group) const {
    const Key key{static_cast<int>(kind), group.size, group.stride, bytes};
    if (const auto it = costs_.find(key); it != costs_.end())
        return it->second;
    if (costs_.size() >= kMaxRemembered)
        costs_.clear();
    const CollectiveTime t = inner_.cost(kind, bytes, group);
    costs_.emplace(key, t);
    return t;
}

int MemoCollectiveCost::membersPerDomain(const GroupPlacement& group) const {
    const long long key = (static_cast<long long>(group.size) << 40) ^ group.stride;
    if (const auto it = members_.find(key); it != members_.end())
        return it->second;
    const int m = inner_.membersPerDomain(group);
    members_.emplace(key, m);
    return m;
}

} // namespace ts
