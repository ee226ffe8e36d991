// network FILE [--json]: the scenario's cluster as a graph (topology summary, validation,
// what each parallel group gets from it) and its bill of materials.

#include "CliCommands.h"

#include "estimate/Estimator.h"
#include "parallel/PlanSupport.h"
#include "scenario/ScenarioResolver.h"
#include "topology/NetworkBom.h"
#include "topology/Placement.h"
#include "topology/TopologyBuilder.h"
#include "topology/TopologyModel.h"
#include "traffic/PlanTraffic.h"

#include <cstdio>

namespace ts::cli {

namespace {

using Json = nlohmann::ordered_json;

// "812 GB", "3.4 TB", "1.2 PB" (decimal prefixes, as link rates are given).
std::string scaledBytes(double bytes) {
    const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    int u = 0;
    while (bytes >= 1000 && u < 6) {
        bytes /= 1000;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, bytes >= 100 || u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
    return buf;
}

// Servers (nodes of GPUs), not the graph's vertices (GPUs, NICs and switches too).
std::int64_t serverCount(const ClusterConfig& c) {
    const int perNode = std::max(1, c.gpusPerNode);
    return (c.numGpus + perNode - 1) / perNode;
}

Json topologySummary(const Topology& t, const ClusterConfig& c) {
    Json j = Json::object();
    j["kind"] = c.graph ? "graph" : std::string(enumName(c.scaleOut.topology));
    j["description"] = t.description;
    j["gpus"] = static_cast<std::int64_t>(t.gpuNodes.size());
    int domains = 0;
    for (int d : t.scaleUpDomains)
        domains = std::max(domains, d + 1);
    j["scale_up_domains"] = domains;
    j["domain_gpus"] = t.domainGpus;
    j["tiers"] = t.tiers;
    j["pods"] = t.pods;
    j["servers"] = serverCount(c);
    j["nodes"] = static_cast<std::int64_t>(t.nodes.size()); // graph vertices
    std::int64_t byKind[4] = {0, 0, 0, 0};
    for (const TopoLink& l : t.links)
        ++byKind[static_cast<int>(l.kind)];
    j["links"] = {
        {"host", byKind[0]}, {"scale_up", byKind[1]}, {"scale_out", byKind[2]}, {"wan", byKind[3]}};
    return j;
}

Json groupJson(const TopologyModel& model, const char* name, int size, long long stride) {
    const GroupProfile p = model.profile({size, stride});
    Json j = Json::object();
    j["group"] = name;
    j["size"] = size;
    j["stride"] = stride;
    j["members_per_domain"] = p.membersPerDomain;
    j["scale_up_gb_s"] = p.scaleUpGBps;
    j["network_gb_s_per_gpu"] =
        p.size > p.membersPerDomain ? Json(p.networkGBpsPerGpu) : Json(nullptr);
    j["forwarded_over_scale_up"] = p.ringForwarded;
    j["crosses_wan"] = p.crossesWan;
    j["all_to_all_forwarded_share"] = p.allToAllForwardedShare;
    return j;
}

// Bytes per step on every link for the plan's estimate, as the desktop's heat map routes
// them (planLinkHeat): TP, CP, DP and PP rings and the EP all-to-all. A sample of ~500 routes
// per group shape keeps a 32,768-GPU map to a few seconds; the sample is scaled to all ranks.
Json trafficJson(const std::shared_ptr<const TopologyModel>& shared, const ResolvedScenario& sc,
                 const Estimate& est) {
    const TopologyModel& model = *shared;
    const LinkHeat traffic = planLinkHeat(shared, sc, est, 512);
    const Topology& t = model.topology();
    std::vector<std::size_t> order(t.links.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const std::size_t top = std::min<std::size_t>(10, order.size());
    std::partial_sort(order.begin(), order.begin() + top, order.end(), [&](auto a, auto b) {
        return traffic.bytesPerLink[a] > traffic.bytesPerLink[b];
    });
    Json hottest = Json::array();
    for (std::size_t i = 0; i < top && traffic.bytesPerLink[order[i]] > 0; ++i) {
        const TopoLink& l = t.links[order[i]];
        const char* kind = l.kind == LinkKind::ScaleUp    ? "scale_up"
                           : l.kind == LinkKind::ScaleOut ? "scale_out"
                           : l.kind == LinkKind::Wan      ? "wan"
                                                          : "host";
        hottest.push_back(
            {{"link", t.nodeName(l.a) + " - " + t.nodeName(l.b)},
             {"class", kind},
             {"bytes_per_step", traffic.bytesPerLink[order[i]]},
             {"seconds_at_line_rate", traffic.bytesPerLink[order[i]] / (l.gbPerS * 1e9)}});
    }
    double byClass[3] = {0, 0, 0}; // scale-up, scale-out, WAN
    for (std::size_t i = 0; i < t.links.size(); ++i) {
        const LinkKind kind = t.links[i].kind;
        if (kind != LinkKind::Host)
            byClass[kind == LinkKind::ScaleUp    ? 0
                    : kind == LinkKind::ScaleOut ? 1
                                                 : 2] += traffic.bytesPerLink[i];
    }
    Json j = Json::object();
    // Summed over links: a byte that crosses two links counts twice.
    j["link_bytes_per_step_by_class"] = {
        {"scale_up", byClass[0]}, {"scale_out", byClass[1]}, {"wan", byClass[2]}};
    j["sampled"] = traffic.sampled;
    j["hottest_links"] = hottest;
    return j;
}

} // namespace

int runNetwork(const Options& options) {
    Catalog catalog;
    Diagnostics diags;
    int exitCode = kExitOk;
    auto resolved = resolveScenarioArgument(options, "network", catalog, diags, exitCode);
    if (!resolved) {
        if (options.positional.size() == 1)
            printDiagnostics(options.positional[0], diags);
        return exitCode;
    }
    const std::string& file = options.positional[0];
    const ClusterConfig& cluster = resolved->cluster;
    auto topology = buildTopology(cluster, diags);
    if (!topology ||
        !validateTopology(*topology, cluster.graph ? "/cluster/graph" : "/cluster/scale_out",
                          diags)) {
        printDiagnostics(file, diags);
        return kExitBadInput;
    }
    const NetworkBom bom = networkBom(*topology, catalog.network());
    // What the plan's groups get from the graph.
    const auto model = TopologyModel::forCluster(cluster);
    Json groups = Json::array();
    if (model) {
        const ParallelConfig& plan = resolved->parallel;
        const GroupStrides s = groupStrides(plan);
        if (plan.tp > 1)
            groups.push_back(groupJson(*model, "tp", plan.tp, s.tp));
        if (plan.cp > 1)
            groups.push_back(groupJson(*model, "cp", plan.cp, s.cp));
        Diagnostics ignored;
        const auto placed = placeGroups(plan, RankOrder{}, ignored);
        if (plan.ep > 1 && placed)
            groups.push_back(groupJson(*model, "ep", plan.ep, placed->ep.stride));
        if (plan.dp > 1)
            groups.push_back(groupJson(*model, "dp", static_cast<int>(plan.dp), s.dp));
        if (plan.pp > 1)
            groups.push_back(groupJson(*model, "pp", plan.pp, s.pp));
    }
    Json traffic = nullptr;
    if (model) {
        Diagnostics estimateDiags;
        if (auto est = estimatePlan(*resolved, estimateDiags))
            traffic = trafficJson(model, *resolved, *est);
    }
    std::vector<std::string> warnings;
    for (const auto& d : diags.warnings())
        warnings.push_back(d.path + ": " + d.message);

    if (options.json) {
        Json out = Json::object();
        out["format"] = "trainscape.network/1";
        out["topology"] = topologySummary(*topology, cluster);
        out["groups"] = groups;
        out["traffic"] = traffic;
        out["bom"] = bomToJson(bom);
        out["warnings"] = warnings;
        std::printf("%s\n", out.dump(2).c_str());
        return kExitOk;
    }
    const Json summary = topologySummary(*topology, cluster);
    std::printf("Topology: %s\n", topology->description.c_str());
    std::printf("  %lld GPUs in %d scale-up domains of %d; %lld servers of %d GPUs; %zu links\n",
                static_cast<long long>(topology->gpuNodes.size()),
                summary["scale_up_domains"].get<int>(), topology->domainGpus,
                static_cast<long long>(serverCount(cluster)), cluster.gpusPerNode,
                topology->links.size());
    for (const Json& g : groups)
        std::printf("  %-3s group of %d: %d per domain, network %s GB/s per GPU%s%s\n",
                    g["group"].get<std::string>().c_str(), g["size"].get<int>(),
                    g["members_per_domain"].get<int>(),
                    g["network_gb_s_per_gpu"].is_null()
                        ? "-"
                        : formatNumber(g["network_gb_s_per_gpu"].get<double>()).c_str(),
                    g["forwarded_over_scale_up"].get<bool>() ? ", forwarded over scale-up" : "",
                    g["crosses_wan"].get<bool>() ? ", crosses WAN" : "");
    if (!traffic.is_null()) {
        const Json& byClass = traffic["link_bytes_per_step_by_class"];
        std::printf("Traffic per step, summed over links%s:\n",
                    traffic["sampled"].get<bool>() ? " (from a sample of routes)" : "");
        std::printf("  scale-up %s, scale-out %s",
                    scaledBytes(byClass["scale_up"].get<double>()).c_str(),
                    scaledBytes(byClass["scale_out"].get<double>()).c_str());
        if (byClass["wan"].get<double>() > 0)
            std::printf(", WAN %s", scaledBytes(byClass["wan"].get<double>()).c_str());
        std::printf("\n");
        for (const Json& l : traffic["hottest_links"])
            std::printf("  %-40s %10s  %s s at line rate\n", l["link"].get<std::string>().c_str(),
                        scaledBytes(l["bytes_per_step"].get<double>()).c_str(),
                        formatNumber(l["seconds_at_line_rate"].get<double>()).c_str());
    }
    std::printf("Bill of materials:\n");
    std::printf("  switches      %lld", static_cast<long long>(bom.switches));
    for (const auto& [radix, count] : bom.switchesByRadix)
        std::printf("  (%lld x %d ports)", static_cast<long long>(count), radix);
    std::printf("\n  transceivers  %lld\n  cables        %lld\n  NICs          %lld\n",
                static_cast<long long>(bom.transceivers), static_cast<long long>(bom.cables),
                static_cast<long long>(bom.nics));
    if (bom.wanLinks > 0)
        std::printf("  WAN ports     %lld\n", static_cast<long long>(bom.wanLinks));
    std::string capex = "unknown (known part $";
    capex += formatNumber(bom.knownCapexUsd);
    capex += ")";
    if (bom.capexUsd)
        capex = "$" + formatNumber(*bom.capexUsd);
    std::string power = "unknown (known part ";
    power += formatNumber(bom.knownPowerW);
    power += " W)";
    if (bom.powerW)
        power = formatNumber(*bom.powerW) + " W";
    std::printf("  capex         %s\n  power         %s\n", capex.c_str(), power.c_str());
    for (const auto& note : bom.notes)
        std::printf("  note: %s\n", note.c_str());
    for (const auto& w : warnings)
        std::printf("warning: %s\n", w.c_str());
    return kExitOk;
}

void addNetworkCommand(CLI::App& app, Options& options, CommandRunner& run) {
    CLI::App* sub = addScenarioFileCommand(
        app, "network",
        "The cluster as a graph: topology summary, what the plan's groups get from it, and the "
        "network's bill of materials",
        options);
    setRunner(sub, run, [&options] { return runNetwork(options); });
}

} // namespace ts::cli
