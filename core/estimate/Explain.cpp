#include "estimate/Explain.h"

#include "catalog/Catalog.h"
#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioResolver.h"
#include "topology/Placement.h"
#include "topology/TopologyBuilder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

namespace ts {

namespace {

// Per GPU, per direction, GB/s.
double scaleOutGBpsPerGpu(const ClusterConfig& c) {
    if (c.gpusPerNode <= 0 || c.scaleOut.oversubscription <= 0)
        return 0;
    return c.scaleOut.nicGbitPerS * c.scaleOut.nicsPerNode / c.gpusPerNode / 8.0 /
           c.scaleOut.oversubscription;
}

double linkGBps(const ClusterConfig& c, CommLink link) {
    switch (link) {
    case CommLink::ScaleUp:
        return c.scaleUp.bandwidthGBps;
    case CommLink::ScaleOut:
        return scaleOutGBpsPerGpu(c);
    case CommLink::Host:
        return c.host.pcieGBps.value_or(0);
    case CommLink::None:
        break;
    }
    return 0;
}

// See CommunicationPart::underOneLeaf.
bool underOneLeaf(const ClusterConfig& c, const GroupPlacement& g) {
    const ScaleOutConfig& so = c.scaleOut;
    if (so.topology == ScaleOutTopology::RailOnly)
        return true;
    if (so.topology != ScaleOutTopology::RailOptimized && so.topology != ScaleOutTopology::FatTree)
        return false;
    const int domain = std::max(1, c.scaleUp.domainGpus);
    const long long span = (g.size - 1) * g.stride + 1;
    const long long domains = (span + domain - 1) / domain;
    const long long nicsPerDomain =
        std::max<long long>(1, (long long)so.nicsPerNode * domain / std::max(1, c.gpusPerNode));
    const long long down = leafDownPorts(so.switchRadix, so.oversubscription);
    const long long domainsPerLeaf =
        so.topology == ScaleOutTopology::RailOptimized ? down : down / nicsPerDomain;
    return domains <= domainsPerLeaf;
}

std::vector<CommunicationPart> communicationParts(const ResolvedScenario& s, const Estimate& e) {
    Diagnostics ignored;
    const std::optional<GroupPlacements> groups = placeGroups(s.parallel, RankOrder{}, ignored);
    const int domain = std::max(1, s.cluster.scaleUp.domainGpus);
    auto linkOf = [&](const GroupPlacement* g) -> CommLink {
        return g ? groupLinkClass(g->size, g->stride, domain) : CommLink::None;
    };
    const TimeBreakdown& t = e.time;
    const CommBytesByDimension& b = e.commBytesPerGpu;
    struct Row {
        const char* dim;
        double bytes, exposed;
        const GroupPlacement* group;
    };
    const Row rows[] = {
        {"tp", b.tp, t.tpExposed, groups ? &groups->tp : nullptr},
        {"cp", b.cp, t.cpExposed, groups ? &groups->cp : nullptr},
        {"ep", b.ep, t.epExposed, groups ? &groups->ep : nullptr},
        {"pp", b.pp, t.ppExposed, groups ? &groups->pp : nullptr},
        {"dp", b.dp, t.dpExposed, groups ? &groups->dp : nullptr},
    };
    std::vector<CommunicationPart> parts;
    for (const Row& row : rows) {
        if (row.bytes <= 0 && row.exposed <= 0)
            continue;
        CommunicationPart part{row.dim, row.bytes, row.exposed, linkOf(row.group), 0, false};
        part.linkGBps = linkGBps(s.cluster, part.link);
        part.underOneLeaf = part.link == CommLink::ScaleOut && row.group && !s.cluster.graph &&
                            underOneLeaf(s.cluster, *row.group);
        parts.push_back(part);
    }
    return parts;
}

std::string resourceOf(const std::string& id, const Estimate& e,
                       const std::vector<CommunicationPart>& comm) {
    if (id == "compute" || id == "recompute") {
        const double kernels = e.time.compute + e.time.recompute;
        return kernels > 0 && e.memoryBoundComputeSeconds > 0.5 * kernels ? "hbm" : "tensor_cores";
    }
    if (id == "pipeline_bubble")
        return "pipeline_idle";
    if (id == "optimizer")
        return "hbm"; // an elementwise pass over the optimizer states
    if (id == "offload_exposed")
        return "host";
    const std::string dim = id.substr(0, id.find('_'));
    for (const CommunicationPart& part : comm)
        if (part.dimension == dim)
            return linkClassName(part.link);
    return "scale_out";
}

std::vector<StepPart> stepParts(const Estimate& e, const std::vector<CommunicationPart>& comm) {
    const TimeBreakdown& t = e.time;
    const std::pair<const char*, double> items[] = {{"compute", t.compute},
                                                    {"recompute", t.recompute},
                                                    {"tp_exposed", t.tpExposed},
                                                    {"cp_exposed", t.cpExposed},
                                                    {"ep_exposed", t.epExposed},
                                                    {"pp_exposed", t.ppExposed},
                                                    {"pipeline_bubble", t.pipelineBubble},
                                                    {"dp_exposed", t.dpExposed},
                                                    {"optimizer", t.optimizer},
                                                    {"offload_exposed", t.offloadExposed}};
    std::vector<StepPart> parts;
    for (const auto& [id, seconds] : items) {
        if (seconds <= 0)
            continue;
        parts.push_back({id, seconds, e.stepSeconds > 0 ? seconds / e.stepSeconds : 0,
                         resourceOf(id, e, comm)});
    }
    std::stable_sort(parts.begin(), parts.end(),
                     [](const StepPart& a, const StepPart& b) { return a.seconds > b.seconds; });
    return parts;
}

using Edit = std::function<void(Scenario&)>;

Sensitivity knobOf(std::string name, double from, double to) {
    Sensitivity s;
    s.knob = std::move(name);
    s.from = from;
    s.to = to;
    return s;
}

// The scenario with `edit` applied, estimated as the original was; the ratios of step time
// and peak memory to the original's, or why there is no valid plan.
Sensitivity measure(const ResolvedScenario& s, const Estimate& e, Sensitivity knob,
                    const Edit& edit, const Catalog& catalog,
                    const CalibrationRegistry& calibrations) {
    Scenario edited = explicitScenario(s);
    if (!edited.parallelism)
        edited.parallelism = ParallelInput{};
    edit(edited);
    Diagnostics diags;
    const std::optional<ResolvedScenario> r = resolveScenario(edited, catalog, calibrations, diags);
    if (!r || diags.hasErrors()) {
        const auto errors = diags.errors();
        knob.invalidReason = errors.empty() ? "not a valid plan"
                                            : errors.front().path + ": " + errors.front().message;
        return knob;
    }
    EstimatorSettings settings = defaultEstimatorSettings(*r);
    settings.recordTimeline = false;
    const std::optional<Estimate> other = estimatePlan(*r, settings, diags);
    if (!other) {
        const auto errors = diags.errors();
        knob.invalidReason = errors.empty() ? "not modelled" : errors.front().message;
        return knob;
    }
    if (e.stepSeconds > 0)
        knob.stepRatio = other->stepSeconds / e.stepSeconds;
    if (e.peakBytes > 0)
        knob.peakRatio = other->peakBytes / e.peakBytes;
    knob.fits = other->fits;
    return knob;
}

// A plan degree changed with the GPU count kept: dp follows (null = derived), and the keys
// that depend on the old degrees go back to their defaults.
Edit degreeEdit(const ResolvedScenario& s, const std::string& key, int to) {
    return [&s, key, to](Scenario& x) {
        ParallelInput& p = *x.parallelism;
        if (key == "tp")
            p.tp = to;
        else if (key == "pp")
            p.pp = to;
        else if (key == "cp")
            p.cp = to;
        else if (key == "ep")
            p.ep = to;
        p.dp = std::optional<std::int64_t>{};
        if (s.parallel.dpShard == s.parallel.dp || s.parallel.dpShard == 0)
            p.dpShard = std::optional<std::int64_t>{};
        if (s.parallel.etp == s.parallel.tp)
            p.etp = std::optional<int>{};
        if (key == "pp")
            p.pipelineLayers = std::optional<std::vector<int>>{};
    };
}

void addDegreeKnobs(const ResolvedScenario& s, const Estimate& e, const Catalog& catalog,
                    const CalibrationRegistry& calibrations, std::vector<Sensitivity>& out) {
    const ParallelConfig& p = s.parallel;
    const std::pair<const char*, int> degrees[] = {
        {"tp", p.tp}, {"pp", p.pp}, {"cp", p.cp}, {"ep", p.ep}};
    const std::int64_t modelParallel = std::int64_t(p.tp) * p.pp * p.cp;
    for (const auto& [key, degree] : degrees) {
        const bool isEp = std::string(key) == "ep";
        if (isEp && !s.model.moe)
            continue;
        for (int to : {degree * 2, degree / 2}) {
            if (to < 1 || to == degree)
                continue;
            // With the GPU count kept, tp*pp*cp must still divide it: on one GPU no degree
            // can grow, and the edit does not apply.
            const std::int64_t product = isEp ? modelParallel : modelParallel / degree * to;
            if (s.cluster.numGpus % product != 0)
                continue;
            out.push_back(measure(s, e, knobOf(key, double(degree), double(to)),
                                  degreeEdit(s, key, to), catalog, calibrations));
        }
    }
    // DP: the GPU count changes with it (the global batch stays).
    for (std::int64_t to : {p.dp * 2, p.dp / 2}) {
        if (to < 1 || to == p.dp)
            continue;
        const std::int64_t gpus = s.cluster.numGpus / p.dp * to;
        out.push_back(measure(
            s, e, knobOf("dp", double(p.dp), double(to)),
            [&s, gpus](Scenario& x) {
                x.cluster.numGpus = gpus;
                x.parallelism->dp = std::optional<std::int64_t>{};
                if (s.parallel.dpShard == s.parallel.dp || s.parallel.dpShard == 0)
                    x.parallelism->dpShard = std::optional<std::int64_t>{};
            },
            catalog, calibrations));
    }
}

void addLinkKnobs(const ResolvedScenario& s, const Estimate& e, const Catalog& catalog,
                  const CalibrationRegistry& calibrations, std::vector<Sensitivity>& out) {
    if (s.cluster.graph) // a drawn topology carries its own link figures
        return;
    const ClusterConfig& c = s.cluster;
    // A link class applies only where the cluster has it: NVLink between two GPUs or more,
    // the scale-out network between two scale-up domains or more.
    const bool hasScaleUp = c.numGpus > 1 && c.scaleUp.domainGpus > 1;
    const bool hasScaleOut = c.numGpus > c.scaleUp.domainGpus && c.scaleOut.nicsPerNode > 0 &&
                             c.scaleOut.nicGbitPerS > 0;
    for (double factor : {2.0, 0.5}) {
        const double up = c.scaleUp.bandwidthGBps * factor;
        if (hasScaleUp)
            out.push_back(measure(
                s, e, knobOf("scale_up_bandwidth", c.scaleUp.bandwidthGBps, up),
                [up](Scenario& x) {
                    if (!x.cluster.scaleUp)
                        x.cluster.scaleUp = ScaleUpInput{};
                    x.cluster.scaleUp->bandwidthGBps = up;
                },
                catalog, calibrations));
        if (!hasScaleOut)
            continue;
        const double nic = c.scaleOut.nicGbitPerS * factor;
        out.push_back(measure(
            s, e, knobOf("scale_out_bandwidth", c.scaleOut.nicGbitPerS, nic),
            [nic](Scenario& x) {
                if (!x.cluster.scaleOut)
                    x.cluster.scaleOut = ScaleOutInput{};
                x.cluster.scaleOut->nicGbitPerS = nic;
            },
            catalog, calibrations));
    }
    // Oversubscription 4:1 (or back to 1:1): what a cheaper network would cost in time.
    const double over = c.scaleOut.oversubscription;
    const double to = over < 4 ? 4.0 : 1.0;
    if (hasScaleOut)
        out.push_back(measure(
            s, e, knobOf("oversubscription", over, to),
            [to](Scenario& x) {
                if (!x.cluster.scaleOut)
                    x.cluster.scaleOut = ScaleOutInput{};
                x.cluster.scaleOut->oversubscription = to;
            },
            catalog, calibrations));
}

std::string percent(double ratio) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", (ratio - 1) * 100);
    return buf;
}

std::string number(double value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", value);
    return buf;
}

} // namespace

const char* linkClassName(CommLink link) {
    switch (link) {
    case CommLink::ScaleUp:
        return "scale_up";
    case CommLink::ScaleOut:
        return "scale_out";
    case CommLink::Host:
        return "host";
    case CommLink::None:
        break;
    }
    return "none";
}

bool Sensitivity::changesNothing(bool fitsNow) const {
    const auto same = [](const std::optional<double>& ratio) {
        return ratio && std::abs(*ratio - 1) < 5e-4;
    };
    return invalidReason.empty() && same(stepRatio) && same(peakRatio) && fits == fitsNow;
}

double Sensitivity::changeMagnitude() const {
    return stepRatio && *stepRatio > 0 ? std::abs(std::log(*stepRatio)) : 0;
}

CommLink groupLinkClass(int size, long long stride, int domainGpus) {
    if (size <= 1)
        return CommLink::None;
    // Members span (size - 1) * stride + 1 consecutive ranks; within one domain when those
    // fit in it and the domain boundaries do not cut the group (strides dividing the domain).
    const long long span = (size - 1) * stride + 1;
    if (span <= domainGpus && domainGpus % (stride * size) == 0)
        return CommLink::ScaleUp;
    return CommLink::ScaleOut;
}

Explanation explainEstimate(const ResolvedScenario& scenario, const Estimate& estimate,
                            const Catalog& catalog, const CalibrationRegistry& calibrations) {
    Explanation x;
    x.communication = communicationParts(scenario, estimate);
    x.parts = stepParts(estimate, x.communication);
    if (!x.parts.empty()) {
        x.boundBy = x.parts.front().id;
        x.boundOn = x.parts.front().resource;
        x.boundShare = x.parts.front().share;
    }
    // The knobs edit one uniform plan (tp, pp, dp, one cluster's links); a plan over pools has a
    // tp per stage and a network per pool, so none of them applies as written.
    if (!scenario.hetero) {
        addDegreeKnobs(scenario, estimate, catalog, calibrations, x.sensitivities);
        addLinkKnobs(scenario, estimate, catalog, calibrations, x.sensitivities);
    }
    // An edit that changes neither the step nor the memory (to the 0.1% shown) says nothing
    // (the communication parts say why, e.g. traffic under one leaf switch); drop it.
    std::erase_if(x.sensitivities,
                  [&estimate](const Sensitivity& s) { return s.changesNothing(estimate.fits); });
    std::stable_sort(x.sensitivities.begin(), x.sensitivities.end(),
                     [](const Sensitivity& a, const Sensitivity& b) {
                         if (a.invalidReason.empty() != b.invalidReason.empty())
                             return a.invalidReason.empty();
                         return a.changeMagnitude() > b.changeMagnitude();
                     });
    return x;
}

nlohmann::ordered_json explanationToJson(const Explanation& x) {
    using Json = nlohmann::ordered_json;
    Json j;
    j["bound_by"] = x.boundBy;
    j["bound_on"] = x.boundOn;
    j["bound_share"] = x.boundShare;
    Json parts = Json::array();
    for (const StepPart& p : x.parts)
        parts.push_back(
            {{"part", p.id}, {"seconds", p.seconds}, {"share", p.share}, {"resource", p.resource}});
    j["step_parts"] = parts;
    Json comm = Json::array();
    for (const CommunicationPart& c : x.communication)
        comm.push_back({{"dimension", c.dimension},
                        {"bytes_per_gpu", c.bytesPerGpu},
                        {"exposed_s", c.exposedSeconds},
                        {"hidden", c.hidden()},
                        {"link", linkClassName(c.link)},
                        {"link_gb_s", c.linkGBps},
                        {"under_one_leaf", c.underOneLeaf}});
    j["communication"] = comm;
    Json sens = Json::array();
    for (const Sensitivity& s : x.sensitivities) {
        Json row{{"knob", s.knob}, {"from", s.from}, {"to", s.to}};
        row["step_ratio"] = s.stepRatio ? Json(*s.stepRatio) : Json(nullptr);
        row["peak_memory_ratio"] = s.peakRatio ? Json(*s.peakRatio) : Json(nullptr);
        row["fits"] = s.fits ? Json(*s.fits) : Json(nullptr);
        if (!s.invalidReason.empty())
            row["invalid"] = s.invalidReason;
        sens.push_back(row);
    }
    j["sensitivity"] = sens;
    return j;
}

std::string explanationToText(const Explanation& x) {
    std::string out = "What bounds the step:\n";
    char line[256];
    for (const StepPart& p : x.parts) {
        std::snprintf(line, sizeof line, "  %-16s %10.4f s  %5.1f%%  on %s\n", p.id.c_str(),
                      p.seconds, 100 * p.share, p.resource.c_str());
        out += line;
    }
    out += "Communication per GPU and step:\n";
    for (const CommunicationPart& c : x.communication) {
        std::snprintf(line, sizeof line, "  %-3s %10.3f GB  %s  over %s (%s GB/s per GPU)%s\n",
                      c.dimension.c_str(), c.bytesPerGpu / 1e9,
                      c.hidden() ? "hidden behind compute"
                                 : ("exposed " + number(c.exposedSeconds) + " s").c_str(),
                      linkClassName(c.link), number(c.linkGBps).c_str(),
                      c.underOneLeaf ? ", under one leaf switch (no oversubscription)" : "");
        out += line;
    }
    out += "Edits, by their effect on the step time:\n";
    for (const Sensitivity& s : x.sensitivities) {
        const std::string knob = s.knob + " " + number(s.from) + " -> " + number(s.to);
        if (!s.invalidReason.empty()) {
            std::snprintf(line, sizeof line, "  %-34s not a valid plan: %s\n", knob.c_str(),
                          s.invalidReason.c_str());
        } else {
            std::snprintf(line, sizeof line, "  %-34s step %8s  peak memory %8s  %s\n",
                          knob.c_str(), s.stepRatio ? percent(*s.stepRatio).c_str() : "-",
                          s.peakRatio ? percent(*s.peakRatio).c_str() : "-",
                          s.fits && *s.fits ? "fits" : "does not fit");
        }
        out += line;
    }
    return out;
}

} // namespace ts
