#pragma once
// Why an estimate is what it is: what bounds the step (the critical resource of each part of
// the step time, the exposed communication and the link class it waits on, the traffic that
// is hidden), and which edits would change it most (the step time and peak memory of the
// plan with each degree doubled or halved, and with each link class twice or half as fast),
// each from a full estimate of the edited scenario, never from a rule of thumb.
//
// Every item carries an id and its numbers, so that a view can word it in its own language;
// explanationToText() words it in English for the command line.

#include "estimate/Estimate.h"
#include "estimate/Estimator.h"
#include "scenario/ResolvedScenario.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ts {

class Catalog;
class CalibrationRegistry;

// The link class a parallel group's collectives wait on.
enum class CommLink {
    None,     // a group of one GPU: no traffic
    ScaleUp,  // inside the NVLink (scale-up) domain
    ScaleOut, // across domains: the NICs and the scale-out network
    Host,     // PCIe, host DRAM, NVMe (offload)
};
const char* linkClassName(CommLink link); // "scale_up", "scale_out", "host", "none"

// One part of the step time (TimeBreakdown), with what limits it.
struct StepPart {
    std::string id;       // "compute", "recompute", "tp_exposed", ..., as in the estimate JSON
    double seconds = 0;   // of the step
    double share = 0;     // seconds / step
    std::string resource; // "tensor_cores", "hbm", "scale_up", "scale_out", "host",
                          // "pipeline_idle"
};

// A parallel dimension's communication: how much it sends, how much of it the step waits
// for, and over which link class.
struct CommunicationPart {
    std::string dimension; // "tp", "cp", "ep", "pp", "dp"
    double bytesPerGpu = 0;
    double exposedSeconds = 0;
    CommLink link = CommLink::None;
    double linkGBps = 0; // per GPU, per direction, of that link class
    // Scale-out groups: whether their traffic stays under one leaf switch of the network
    // (core/topology/TopologyBuilder: a rail-optimized leaf holds one NIC of each of its
    // nodes, a fat-tree leaf all NICs of fewer nodes), where the leaf's oversubscription
    // does not apply; a rail-only network has no oversubscribed tier at all.
    bool underOneLeaf = false;
    bool hidden() const { return bytesPerGpu > 0 && exposedSeconds <= 0; }
};

// One edit and what it does to the estimate. `knob`: "tp", "pp", "cp", "ep", "dp" (the GPU
// count with it), "scale_up_bandwidth", "scale_out_bandwidth", "oversubscription".
struct Sensitivity {
    std::string knob;
    double from = 0, to = 0;
    std::optional<double> stepRatio; // edited step / current step
    std::optional<double> peakRatio; // edited peak memory / current
    std::optional<bool> fits;
    std::string invalidReason;      // why the edit gives no valid plan ("" when it does)
    double changeMagnitude() const; // |log(stepRatio)|, 0 without a ratio
    // Valid, with step time and peak memory within 0.05% of the current plan's and the same
    // fit: nothing the card would show as a change.
    bool changesNothing(bool fitsNow) const;
};

struct Explanation {
    std::string boundBy;                          // the largest StepPart's id
    std::string boundOn;                          // its resource
    double boundShare = 0;                        // its share of the step
    std::vector<StepPart> parts;                  // the non-zero parts, largest first
    std::vector<CommunicationPart> communication; // every dimension with traffic
    // The edits that apply to this cluster and change something, valid ones by effect on
    // the step, largest first.
    std::vector<Sensitivity> sensitivities;
};

// The link class of a group of `size` ranks `stride` apart on a cluster whose scale-up
// domains hold `domainGpus` consecutive ranks.
CommLink groupLinkClass(int size, long long stride, int domainGpus);

// `catalog` and `calibrations` resolve the edited scenarios as the scenario was resolved.
Explanation explainEstimate(const ResolvedScenario& scenario, const Estimate& estimate,
                            const Catalog& catalog, const CalibrationRegistry& calibrations);

nlohmann::ordered_json explanationToJson(const Explanation& explanation);
std::string explanationToText(const Explanation& explanation);

} // namespace ts
