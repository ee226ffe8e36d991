#pragma once
// A collective model that remembers its answers: the plans of a search ask for the same
// collectives (kind, bytes, group) again and again. The answers are the wrapped model's, so
// an estimate through it is the same number for number. One instance per thread.

#include "parallel/CollectiveCost.h"

#include <cstdint>
#include <unordered_map>

namespace ts {

class MemoCollectiveCost final : public CollectiveCost {
public:
    explicit MemoCollectiveCost(const CollectiveCost& inner) : inner_(inner) {}
    CollectiveTime cost(Collective kind, double bytes, const GroupPlacement& group) const override;
    int membersPerDomain(const GroupPlacement& group) const override;

private:
    struct Key {
        int kind;
        int size;
        long long stride;
        double bytes;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const;
    };
    const CollectiveCost& inner_;
    mutable std::unordered_map<Key, CollectiveTime, KeyHash> costs_;
    mutable std::unordered_map<long long, int> members_;
};

} // namespace ts
