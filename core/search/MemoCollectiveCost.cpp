#include "search/MemoCollectiveCost.h"

#include <bit>

namespace ts {

namespace {

// Enough distinct collectives for any one scenario's space; past it, start over.
constexpr std::size_t kMaxRemembered = 1 << 20;
constexpr std::size_t kFirstSlots = 1 << 10;

} // namespace

// Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4): the slot is the product's high bits, which
// every bit of the key reaches. (Its low bits, which this took before, depend only on the
// key's low bits, and byte counts are mostly whole numbers, whose doubles end in zero bits:
// most keys fell in a few runs of slots, and a lookup cost ~150 instructions of probing.)
std::size_t MemoCollectiveCost::slotOf(int kind, double bytes, int size, long long stride) const {
    std::uint64_t h = std::bit_cast<std::uint64_t>(bytes);
    h ^= (std::uint64_t(kind) << 56) ^ (std::uint64_t(size) << 40) ^
         (std::uint64_t(stride) * 0xC2B2AE3D27D4EB4Full);
    return static_cast<std::size_t>((h * 0x9E3779B97F4A7C15ull) >> shift_);
}

void MemoCollectiveCost::grow() const {
    std::vector<Slot> old;
    old.swap(slots_);
    const bool restart = used_ >= kMaxRemembered;
    const std::size_t size = old.empty() || restart ? kFirstSlots : 2 * old.size();
    slots_.assign(size, Slot{});
    shift_ = 64 - std::countr_zero(size);
    used_ = 0;
    if (restart)
        return;
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
        if (s.kind < 0)
            continue;
        std::size_t i = slotOf(s.kind, s.bytes, s.size, s.stride);
        while (slots_[i].kind >= 0)
            i = (i + 1) & mask;
        slots_[i] = s;
        ++used_;
    }
}

CollectiveTime MemoCollectiveCost::cost(Collective kind, double bytes,
                                        const GroupPlacement& group) const {
    const int k = static_cast<int>(kind);
    if (!slots_.empty()) {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = slotOf(k, bytes, group.size, group.stride); slots_[i].kind >= 0;
             i = (i + 1) & mask) {
            const Slot& s = slots_[i];
            if (s.bytes == bytes && s.kind == k && s.size == group.size && s.stride == group.stride)
                return s.value;
        }
    }
    const CollectiveTime t = inner_.cost(kind, bytes, group);
    if (2 * (used_ + 1) > slots_.size())
        grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = slotOf(k, bytes, group.size, group.stride);
    while (slots_[i].kind >= 0)
        i = (i + 1) & mask;
    slots_[i] = Slot{bytes, group.stride, group.size, k, t};
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
