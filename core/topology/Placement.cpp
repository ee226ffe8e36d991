#include "topology/Placement.h"

#include <algorithm>

namespace ts {

namespace {
constexpr std::array<std::string_view, 5> kDimNames = {"tp", "cp", "ep", "dp", "pp"};
}

std::string RankOrder::toString() const {
    std::string out;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i > 0)
            out += '-';
        out += kDimNames[static_cast<std::size_t>(dims[i])];
    }
    return out;
}

std::optional<RankOrder> parseRankOrder(std::string_view text, const std::string& path,
                                        Diagnostics& diags) {
    RankOrder order;
    std::array<bool, 5> seen{};
    std::size_t count = 0, start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('-', start), text.size());
        const std::string_view name = text.substr(start, end - start);
        const auto it = std::find(kDimNames.begin(), kDimNames.end(), name);
        if (it == kDimNames.end() || count >= 5 || seen[it - kDimNames.begin()]) {
            diags.error(path, "expected a permutation of tp, cp, ep, dp and pp joined by '-', "
                              "e.g. \"tp-cp-ep-dp-pp\"; got \"" +
                                  std::string(text) + "\"");
            return std::nullopt;
        }
        seen[it - kDimNames.begin()] = true;
        order.dims[count++] = static_cast<ParallelDim>(it - kDimNames.begin());
        start = end + 1;
    }
    if (count != 5) {
        diags.error(path, "the rank order must name all of tp, cp, ep, dp and pp");
        return std::nullopt;
    }
    return order;
}

std::optional<GroupPlacements> placeGroups(const ParallelConfig& plan, const RankOrder& order,
                                           Diagnostics& diags) {
    const long long ep = std::max(1, plan.ep);
    const long long dp = std::max<long long>(1, plan.dp);
    if (dp % ep != 0) {
        diags.error("/parallelism/ep", "ep = " + std::to_string(ep) +
                                           " must divide the data-parallel degree " +
                                           std::to_string(dp));
        return std::nullopt;
    }
    const long long sizes[5] = {plan.tp, plan.cp, ep, dp / ep, plan.pp};
    long long strides[5] = {1, 1, 1, 1, 1};
    long long stride = 1;
    for (ParallelDim d : order.dims) {
        strides[static_cast<int>(d)] = stride;
        stride *= sizes[static_cast<int>(d)];
    }
    GroupPlacements g;
    const auto at = [&](ParallelDim d) {
        return GroupPlacement{static_cast<int>(sizes[static_cast<int>(d)]),
                              strides[static_cast<int>(d)]};
    };
    g.tp = at(ParallelDim::Tp);
    g.cp = at(ParallelDim::Cp);
    g.ep = at(ParallelDim::Ep);
    g.expertDp = at(ParallelDim::Dp);
    g.pp = at(ParallelDim::Pp);
    // Dense data parallel: ep x dp/ep ranks, one stride when they are contiguous.
    if (ep == 1)
        g.dp = g.expertDp;
    else if (dp / ep == 1)
        g.dp = g.ep;
    else if (g.expertDp.stride == g.ep.stride * ep)
        g.dp = {static_cast<int>(dp), g.ep.stride};
    else if (g.ep.stride == g.expertDp.stride * (dp / ep))
        g.dp = {static_cast<int>(dp), g.expertDp.stride};
    else {
        diags.error("/parallelism", "rank order " + order.toString() +
                                        " splits the data-parallel group into two strides; "
                                        "put ep and dp next to each other");
        return std::nullopt;
    }
    return g;
}

std::vector<int> groupMembers(const GroupPlacement& group, int rank) {
    const long long stride = std::max<long long>(1, group.stride);
    const long long block = stride * group.size;
    const long long base = (rank / block) * block + rank % stride;
    std::vector<int> members(static_cast<std::size_t>(group.size));
    for (int i = 0; i < group.size; ++i)
        members[i] = static_cast<int>(base + i * stride);
    return members;
}

namespace {

// Calls share(offset, fraction) for at most kAllToAllRoutedPeers offsets evenly spread over
// 1..count, the fractions summing to 1.
template <class Share> void spreadOver(int count, const Share& share) {
    const int routed = std::min(count, kAllToAllRoutedPeers);
    for (int j = 0; j < routed; ++j)
        share(1 + static_cast<int>(static_cast<long long>(j) * count / routed), 1.0 / routed);
}

// Member `i` of an all-to-all of `n` members, `k` per domain: its scale-up bytes to the other
// members of its domain, its network bytes to the member at its place in each other domain.
template <class Add>
void addAllToAll(const GroupTraffic& gt, int k, int i, const std::vector<int>& m, const Add& add) {
    const int n = static_cast<int>(m.size());
    const int domain = i / k, place = i % k;
    const int inDomain = std::min(k, n - domain * k);
    spreadOver(inDomain - 1, [&](int o, double f) {
        add(m[domain * k + (place + o) % inDomain], f * gt.scaleUpBytes);
    });
    const int domains = (n + k - 1) / k;
    spreadOver(domains - 1, [&](int o, double f) {
        const int to = ((domain + o) % domains) * k + place;
        if (to < n)
            add(m[to], f * gt.networkBytes);
    });
}

} // namespace

LinkTraffic linkTraffic(const TopologyModel& model, const std::vector<GroupTraffic>& traffic,
                        int maxRoutes) {
    const Topology& t = model.topology();
    LinkTraffic out;
    out.bytesPerLink.assign(t.links.size(), 0.0);
    const int gpus = static_cast<int>(t.gpuNodes.size());
    const int sampleStep = std::max(1, gpus / std::max(1, maxRoutes / 2));
    for (const GroupTraffic& gt : traffic) {
        const GroupPlacement& g = gt.group;
        if (g.size <= 1 || static_cast<long long>(g.size - 1) * g.stride >= gpus)
            continue;
        const GroupProfile profile = model.profile(g);
        const int k = profile.membersPerDomain;
        // Every rank is in exactly one group of this shape; route a sample of the ranks.
        const int step = sampleStep;
        out.sampled = out.sampled || step > 1;
        for (int rank = 0; rank < gpus; rank += step) {
            const std::vector<int> m = groupMembers(g, rank);
            const int i = static_cast<int>((rank - m[0]) / std::max<long long>(1, g.stride));
            const auto add = [&](int to, double bytes) {
                if (bytes <= 0 || to == rank)
                    return;
                for (int li : model.routeLinks(rank, to))
                    out.bytesPerLink[li] += bytes;
            };
            if (gt.allToAll) {
                addAllToAll(gt, k, i, m, add);
                continue;
            }
            // Next member in the domain (ring inside it) and the same place in the next one.
            const int inDomain = (i / k) * k + (i % k + 1) % k;
            if (k > 1 && inDomain < g.size)
                add(m[inDomain], gt.scaleUpBytes);
            if (g.size > k)
                add(m[(i + k) % g.size], gt.networkBytes);
        }
    }
    // Class totals stand for the whole cluster: a sample is scaled up.
    const double scale =
        gpus > 0 && out.sampled ? double(gpus) / ((gpus + sampleStep - 1) / sampleStep) : 1.0;
    for (std::size_t li = 0; li < t.links.size(); ++li) {
        switch (t.links[li].kind) {
        case LinkKind::ScaleUp:
            out.scaleUpBytes += scale * out.bytesPerLink[li];
            break;
        case LinkKind::ScaleOut:
            out.scaleOutBytes += scale * out.bytesPerLink[li];
            break;
        case LinkKind::Wan:
            out.wanBytes += scale * out.bytesPerLink[li];
            break;
        case LinkKind::Host:
            break;
        }
    }
    return out;
}

} // namespace ts
