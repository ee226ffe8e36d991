#include "energy/PowerModel.h"

#include <algorithm>
#include <utility>

namespace ts {

namespace {

// Sorted, non-overlapping intervals covering the same time (a rank's communication can
// overlap its compute in the timeline).
std::vector<std::pair<double, double>> unionOf(std::vector<std::pair<double, double>> spans) {
    // The schedule simulation records each stage's operations mostly in time order.
    if (!std::is_sorted(spans.begin(), spans.end()))
        std::sort(spans.begin(), spans.end());
    std::vector<std::pair<double, double>> out;
    for (const auto& span : spans) {
        if (!out.empty() && span.first <= out.back().second)
            out.back().second = std::max(out.back().second, span.second);
        else
            out.push_back(span);
    }
    return out;
}

} // namespace

PhaseWatts ClusterPower::gpuWatts() const {
    const double range = gpuTdpW - gpuIdleW;
    return {gpuIdleW + fractions.computeBound * range, gpuIdleW + fractions.memoryBound * range,
            gpuIdleW + fractions.communicating * range, gpuIdleW};
}

double ClusterPower::peakNodeW() const {
    return gpusPerNode * gpuWatts().computeBound + hostWPerNode;
}

std::vector<PhaseSeconds> stagePhaseSeconds(const Estimate& e) {
    const TimeBreakdown& t = e.time;
    const double step = e.stepSeconds;
    // The deciding stage's operations (forward and backward, with the exposed communication
    // inside them) and what follows them (gradient reduction, optimizer).
    const double math = t.compute + t.recompute;
    const double memoryMath = std::clamp(e.memoryBoundComputeSeconds, 0.0, math);
    const double comm =
        t.tpExposed + t.cpExposed + t.epExposed + t.ppExposed + t.dpExposed + t.offloadExposed;
    // The breakdown describes the bottleneck stage (Estimate::breakdownStage); the other
    // stages work in proportion to their busy time.
    double refBusy = 0;
    if (e.breakdownStage >= 0 && static_cast<std::size_t>(e.breakdownStage) < e.stageTimes.size())
        refBusy = e.stageTimes[static_cast<std::size_t>(e.breakdownStage)].busySeconds;
    std::vector<PhaseSeconds> out;
    const std::size_t stages = std::max<std::size_t>(1, e.stageTimes.size());
    for (std::size_t i = 0; i < stages; ++i) {
        double share = 1.0;
        if (i < e.stageTimes.size() && refBusy > 0)
            share = e.stageTimes[i].busySeconds / refBusy;
        PhaseSeconds p;
        p.computeBound = share * (math - memoryMath);
        p.memoryBound = share * memoryMath + t.optimizer;
        p.communicating = share * comm;
        const double active = p.computeBound + p.memoryBound + p.communicating;
        if (active > step && active > 0) { // a stage never works longer than the step
            const double scale = step / active;
            p.computeBound *= scale;
            p.memoryBound *= scale;
            p.communicating *= scale;
        }
        p.idle = std::max(0.0, step - (p.computeBound + p.memoryBound + p.communicating));
        out.push_back(p);
    }
    return out;
}

double gpuJoules(const PhaseSeconds& p, const PhaseWatts& w) {
    return p.computeBound * w.computeBound + p.memoryBound * w.memoryBound +
           p.communicating * w.communicating + p.idle * w.idle;
}

EnergyBreakdown stepEnergy(const ClusterPower& power, const std::vector<PhaseSeconds>& stages,
                           double stepSeconds) {
    EnergyBreakdown b;
    const PhaseWatts w = power.gpuWatts();
    const double gpusPerStage = double(power.numGpus) / std::max<std::size_t>(1, stages.size());
    for (const PhaseSeconds& p : stages)
        b.gpus += gpusPerStage * gpuJoules(p, w);
    b.hosts = power.hostWPerNode * power.nodes() * stepSeconds;
    b.network = power.networkW * stepSeconds;
    b.cooling = (power.pue - 1.0) * b.it();
    return b;
}

PowerTrace stepPowerTrace(const ClusterPower& power, const std::vector<PhaseSeconds>& stages,
                          const Estimate& e) {
    PowerTrace trace;
    const PhaseWatts w = power.gpuWatts();
    const std::size_t n = stages.size();
    if (n == 0 || e.stepSeconds <= 0)
        return trace;
    trace.coversStep = e.timelineMicrobatches >= e.microbatches && !e.timeline.empty();
    const double gpusPerStage = double(power.numGpus) / n;

    // Active intervals per stage: the timeline's operations, then (for a whole step) the
    // interval from the stage's last operation to its end of step.
    std::vector<std::vector<std::pair<double, double>>> active(n);
    std::vector<double> lastEnd(n, 0.0);
    for (const TimelineEvent& ev : e.timeline) {
        if (ev.stage < 0 || static_cast<std::size_t>(ev.stage) >= n || ev.endS <= ev.startS)
            continue;
        active[ev.stage].push_back({ev.startS, ev.endS});
        lastEnd[ev.stage] = std::max(lastEnd[ev.stage], ev.endS);
    }
    double end = 0;
    for (std::size_t s = 0; s < n; ++s) {
        if (trace.coversStep && s < e.stageTimes.size() && e.stageTimes[s].endSeconds > lastEnd[s])
            active[s].push_back({lastEnd[s], e.stageTimes[s].endSeconds});
        active[s] = unionOf(std::move(active[s]));
        for (const auto& [a, b] : active[s])
            end = std::max(end, b);
    }
    if (trace.coversStep)
        end = std::max(end, e.stepSeconds);
    if (end <= 0)
        return trace;

    // Each stage's active power: its phase energy less its idle energy, over its active time.
    std::vector<std::pair<double, double>> deltas; // (time, change in IT watts)
    std::vector<std::size_t> runs{0};              // each stage's deltas are one sorted run
    for (std::size_t s = 0; s < n; ++s) {
        double activeSeconds = 0;
        for (const auto& [a, b] : active[s])
            activeSeconds += b - a;
        if (activeSeconds <= 0)
            continue;
        double activeW = w.computeBound;
        if (trace.coversStep) {
            const double joules = gpuJoules(stages[s], w) - w.idle * (end - activeSeconds);
            activeW = std::clamp(joules / activeSeconds, w.idle, power.gpuTdpW);
        } else {
            const PhaseSeconds& p = stages[s];
            const double busy = p.computeBound + p.memoryBound + p.communicating;
            if (busy > 0)
                activeW = (gpuJoules(p, w) - p.idle * w.idle) / busy;
        }
        const double extra = gpusPerStage * (activeW - w.idle);
        for (const auto& [a, b] : active[s]) {
            deltas.push_back({a, extra});
            deltas.push_back({b, -extra});
        }
        runs.push_back(deltas.size());
    }
    // Merge the per-stage runs pairwise: O(N log stages) rather than a full sort.
    while (runs.size() > 2) {
        std::vector<std::size_t> merged{0};
        for (std::size_t i = 0; i + 1 < runs.size(); i += 2) {
            const std::size_t last = i + 2 < runs.size() ? runs[i + 2] : runs[i + 1];
            std::inplace_merge(deltas.begin() + runs[i], deltas.begin() + runs[i + 1],
                               deltas.begin() + last);
            merged.push_back(last);
        }
        runs = std::move(merged);
    }
    const double baseIt = power.numGpus * w.idle + power.baseItW();
    double it = baseIt;
    trace.samples.push_back({0.0, baseIt * power.pue});
    for (const auto& [t, d] : deltas) {
        it += d;
        if (trace.samples.back().timeS == t)
            trace.samples.back().watts = it * power.pue;
        else
            trace.samples.push_back({t, it * power.pue});
    }
    // Drop repeats of the same power, and the zero-length sample at the end.
    std::vector<PowerSample> merged;
    for (const PowerSample& s : trace.samples)
        if ((merged.empty() || merged.back().watts != s.watts) && (merged.empty() || s.timeS < end))
            merged.push_back(s);
    trace.samples = std::move(merged);
    trace.endS = end;
    return trace;
}

double integrateTrace(const std::vector<PowerSample>& samples, double endS) {
    double joules = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const double next = i + 1 < samples.size() ? samples[i + 1].timeS : endS;
        joules += samples[i].watts * std::max(0.0, std::min(next, endS) - samples[i].timeS);
    }
    return joules;
}

} // namespace ts
