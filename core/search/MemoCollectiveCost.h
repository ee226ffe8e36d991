#pragma once
// A collective model that remembers its answers: the plans of a search ask for the same
// collectives (kind, bytes, group) again and again. The answers are the wrapped model's, so
// an estimate through it is the same number for number. One instance per thread.
//
// An open-addressing table (linear probing, a power-of-two size, at most half full): the
// search's inner loop asks several times per plan, and a lookup here is a multiply, a shift
// and usually one comparison.

#include "parallel/CollectiveCost.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ts {

class MemoCollectiveCost final : public CollectiveCost {
public:
    explicit MemoCollectiveCost(const CollectiveCost& inner) : inner_(inner) {}
    CollectiveTime cost(Collective kind, double bytes, const GroupPlacement& group) const override;
    int membersPerDomain(const GroupPlacement& group) const override;

private:
    struct Slot {
        double bytes = 0;
        long long stride = 0;
        int size = 0;
        int kind = -1; // -1: empty
        CollectiveTime value;
    };
    std::size_t slotOf(int kind, double bytes, int size, long long stride) const;
    void grow() const;
    const CollectiveCost& inner_;
    mutable std::vector<Slot> slots_;
    mutable int shift_ = 64; // 64 - log2(slots_.size())
    mutable std::size_t used_ = 0;
    mutable std::unordered_map<long long, int> members_;
};

} // namespace ts
