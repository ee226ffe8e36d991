#include "traffic/PlanTraffic.h"

#include "estimate/MoeLayerCost.h"
#include "topology/GraphCollectiveCost.h"

#include <algorithm>

namespace ts {

std::optional<GroupPlacements> defaultPlacements(const ParallelConfig& plan, Diagnostics& diags) {
    return placeGroups(plan, RankOrder{}, diags);
}

LinkHeat planLinkHeat(std::shared_ptr<const TopologyModel> model, const ResolvedScenario& sc,
                      const Estimate& est, int maxRoutes) {
    const ParallelConfig& plan = sc.parallel;
    LinkHeat heat;
    heat.stepSeconds = est.stepSeconds;
    if (!model)
        return heat;
    Diagnostics diags;
    const std::optional<GroupPlacements> g = defaultPlacements(plan, diags);
    if (!g)
        return heat;
    const GraphCollectiveCost cost(model);
    std::vector<GroupTraffic> groups;
    const auto add = [&](const char* dim, GroupPlacement p, Collective kind, double bytes) {
        if (p.size <= 1 || bytes <= 0)
            return;
        const CollectiveTime split = cost.cost(kind, 1e9, p);
        const double total = split.scaleUpBytes + split.scaleOutBytes;
        if (total > 0)
            groups.push_back(
                {dim, p, bytes * split.scaleUpBytes / total, bytes * split.scaleOutBytes / total});
    };
    const CommBytesByDimension& b = est.commBytesPerGpu;
    add("tp", g->tp, Collective::AllReduce, b.tp);
    add("cp", g->cp, Collective::AllGather, b.cp);
    add("dp", g->dp, Collective::AllReduce, b.dp);
    add("pp", g->pp, Collective::SendRecv, b.pp);
    // The expert dispatch and combine: two hops, split between them as the estimate splits
    // them (expertAllToAll, estimate/MoeLayerCost.h).
    if (g->ep.size > 1 && b.ep > 0) {
        const ExpertAllToAll a = expertAllToAll(cost, sc, 1.0, 2.0);
        const double total = a.total.scaleUpBytes + a.total.scaleOutBytes;
        if (total > 0) {
            GroupTraffic ep{"ep", g->ep, b.ep * a.total.scaleUpBytes / total,
                            b.ep * a.total.scaleOutBytes / total};
            ep.allToAll = true;
            groups.push_back(ep);
        }
    }
    // linkTraffic routes every step-th rank; an even step on domains of 8 would route rail 0
    // alone. An odd step visits every rail (and every place in a domain).
    const int gpus = static_cast<int>(model->topology().gpuNodes.size());
    int routes = maxRoutes;
    for (int step = std::max(1, gpus / std::max(1, maxRoutes / 2)); step > 1; step += 2) {
        if (step % 2 == 0)
            ++step;
        routes = 2 * std::max(1, gpus / step);
        if ((gpus / std::max(1, routes / 2)) % 2 == 1)
            break;
    }
    LinkTraffic traffic = linkTraffic(*model, groups, routes);
    heat.sampled = traffic.sampled;
    // A sample's bytes stand for all ranks: scale them as linkTraffic scales its totals.
    double routed = 0, total = traffic.scaleUpBytes + traffic.scaleOutBytes + traffic.wanBytes;
    const Topology& t = model->topology();
    for (std::size_t i = 0; i < t.links.size(); ++i)
        if (t.links[i].kind != LinkKind::Host)
            routed += traffic.bytesPerLink[i];
    const double scale = traffic.sampled && routed > 0 ? total / routed : 1.0;
    for (double& bytes : traffic.bytesPerLink)
        bytes *= scale;
    heat.bytesPerLink = std::move(traffic.bytesPerLink);
    return heat;
}

double linkUtilisation(double bytes, double gbPerS, double stepSeconds) {
    if (gbPerS <= 0 || stepSeconds <= 0)
        return 0;
    return bytes / (2.0 * gbPerS * 1e9 * stepSeconds);
}

int groupCount(const GroupPlacement& group, int gpus) {
    return group.size <= 0 ? 0 : gpus / group.size;
}

std::vector<int> groupRanks(const GroupPlacement& group, int index) {
    const long long stride = std::max<long long>(1, group.stride);
    const long long block = stride * group.size;
    const long long base = (index / stride) * block + index % stride;
    return groupMembers(group, static_cast<int>(base));
}

namespace {

void sortUnique(std::vector<int>& links) {
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
}

} // namespace

std::vector<int> groupAllToAllLinks(const TopologyModel& model, const std::vector<int>& ranks,
                                    int perDomain) {
    std::vector<int> links;
    const int n = static_cast<int>(ranks.size());
    const int k = std::max(1, perDomain);
    const int gpus = static_cast<int>(model.topology().gpuNodes.size());
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const bool sameDomain = i / k == j / k, samePlace = i % k == j % k;
            if (i == j || !(sameDomain || samePlace) || ranks[i] >= gpus || ranks[j] >= gpus)
                continue;
            const std::vector<int> route = model.routeLinks(ranks[i], ranks[j]);
            links.insert(links.end(), route.begin(), route.end());
        }
    sortUnique(links);
    return links;
}

std::vector<int> groupRingLinks(const TopologyModel& model, const std::vector<int>& ranks) {
    std::vector<int> links;
    const int gpus = static_cast<int>(model.topology().gpuNodes.size());
    for (std::size_t i = 0; ranks.size() > 1 && i < ranks.size(); ++i) {
        const int a = ranks[i], b = ranks[(i + 1) % ranks.size()];
        if (a >= gpus || b >= gpus || (ranks.size() == 2 && i == 1))
            continue;
        const std::vector<int> route = model.routeLinks(a, b);
        links.insert(links.end(), route.begin(), route.end());
    }
    sortUnique(links);
    return links;
}

} // namespace ts
