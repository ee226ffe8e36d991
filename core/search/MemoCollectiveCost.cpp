#include "search/MemoCollectiveCost.h"

#include <bit>

namespace ts {

namespace {

// Enough distinct collectives for any one scenario's space; past it, start over.
constexpr std::size_t kMaxRemembered = 1 << 20;
constexpr std::size_t kFirstSlots = 1 << 10;

} // namespace

std::size_t MemoCollectiveCost::hashOf(const Key& k) {
    std::uint64_t h = std::bit_cast<std::uint64_t>(k.bytes);
    h ^= (std::uint64_t(k.kind) << 56) ^ (std::uint64_t(k.size) << 32) ^ std::uint64_t(k.stride);
    h *= 0x9E3779B97F4A7C15ull; // Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4)
    return static_cast<std::size_t>(h ^ (h >> 29));
}

void MemoCollectiveCost::grow() const {
    std::vector<Slot> old;
    old.swap(slots_);
    const bool restart = used_ >= kMaxRemembered;
    slots_.assign(old.empty() || restart ? kFirstSlots : 2 * old.size(), Slot{});
    used_ = 0;
    if (restart)
        return;
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
        if (!s.used)
            continue;
        std::size_t i = hashOf(s.key) & mask;
        while (slots_[i].used)
            i = (i + 1) & mask;
        slots_[i] = s;
        ++used_;
    }
}

CollectiveTime MemoCollectiveCost::cost(Collective kind, double bytes,
                                        const GroupPlacement& group) const {
    const Key key{static_cast<int>(kind), group.size, group.stride, bytes};
    if (!slots_.empty()) {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = hashOf(key) & mask; slots_[i].used; i = (i + 1) & mask)
            if (slots_[i].key.bytes == bytes && slots_[i].key == key)
                return slots_[i].value;
    }
    const CollectiveTime t = inner_.cost(kind, bytes, group);
    if (2 * (used_ + 1) > slots_.size())
        grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = hashOf(key) & mask;
    while (slots_[i].used)
        i = (i + 1) & mask;
    slots_[i] = Slot{true, key, t};
    ++used_;
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
