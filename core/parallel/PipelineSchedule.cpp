#include "parallel/PipelineSchedule.h"

#include "parallel/FlowShop.h"
#include "parallel/ScheduleKinds.h"
#include "parallel/ZeroBubbleV.h"

#include <algorithm>
#include <cmath>

namespace ts {

namespace {

std::int64_t warmupForwards(PipelineScheduleKind kind, int p, int v, int s, std::int64_t total) {
    std::int64_t warmup = 0;
    switch (kind) {
    case PipelineScheduleKind::GPipe:
        warmup = total;
        break;
    case PipelineScheduleKind::Interleaved:
        warmup = static_cast<std::int64_t>(p - s - 1) * 2 + static_cast<std::int64_t>(v - 1) * p;
        break;
    default:
        warmup = p - s - 1;
        break;
    }
    return std::min(warmup, total);
}

struct StageState {
    std::int64_t nextForward = 0;  // virtual index of the next forward
    std::int64_t nextBackward = 0; // virtual index of the next backward
    std::int64_t warmup = 0;
    bool forwardTurn = true; // in the steady phase: forward and backward alternate
    double freeAt = 0;
};

// Reused between runs of one thread, so that repeated estimates (the search) do not allocate.
struct Scratch {
    std::vector<double> forwardEnd, backwardEnd; // [stage * total + virtual index]
    std::vector<int> chunkOf, groupSizeOf;       // per virtual index (forward order)
    std::vector<std::int64_t> microbatchOf;
    std::vector<StageState> stages;
};

// Runs the schedule with m micro-batches. Every rank visits the same sequence of
// (micro-batch, chunk) pairs, in "virtual index" order: micro-batches go through the chunks in
// groups of p (the last group may be smaller), as in Megatron-LM's interleaved schedule; the
// backward visits the chunks in reverse. Dependencies are therefore on the same virtual index
// of the neighbouring rank, or a group size away at the wrap-around between chunks.
bool runSchedule(const PipelineInput& in, std::int64_t m, Scratch& x, std::vector<double>& stageEnd,
                 std::vector<TimelineEvent>* timeline) {
    const int p = in.stages, v = in.chunks;
    const std::int64_t total = m * v;
    const std::size_t n = static_cast<std::size_t>(p) * static_cast<std::size_t>(total);
    x.forwardEnd.assign(n, -1.0);
    x.backwardEnd.assign(n, -1.0);
    x.chunkOf.resize(total);
    x.groupSizeOf.resize(total);
    x.microbatchOf.resize(total);
    for (std::int64_t k = 0, groupStart = 0; groupStart < m; groupStart += p) {
        const int inGroup = static_cast<int>(std::min<std::int64_t>(p, m - groupStart));
        for (int c = 0; c < v; ++c)
            for (int i = 0; i < inGroup; ++i, ++k) {
                x.chunkOf[k] = c;
                x.groupSizeOf[k] = inGroup;
                x.microbatchOf[k] = groupStart + i;
            }
    }
    x.stages.assign(p, StageState{});
    for (int s = 0; s < p; ++s)
        x.stages[s].warmup = warmupForwards(in.schedule, p, v, s, total);
    if (timeline)
        timeline->reserve(timeline->size() + 2 * n);

    const double delay = in.edgeDelaySeconds;
    std::int64_t remaining = 2 * static_cast<std::int64_t>(n);
    bool ascending = true;
    while (remaining > 0) {
        bool progress = false;
        for (int step = 0; step < p; ++step) {
            const int s = ascending ? step : p - 1 - step;
            StageState& st = x.stages[s];
            double* fEnd = x.forwardEnd.data() + static_cast<std::size_t>(s) * total;
            double* bEnd = x.backwardEnd.data() + static_cast<std::size_t>(s) * total;
            const double* fDur = in.forwardSeconds + static_cast<std::size_t>(s) * v;
            const double* bDur = in.backwardSeconds + static_cast<std::size_t>(s) * v;
            // Locals, so that the stores into the end-time arrays do not force reloads.
            std::int64_t nextF = st.nextForward, nextB = st.nextBackward;
            const std::int64_t warmup = st.warmup;
            bool forwardTurn = st.forwardTurn;
            double freeAt = st.freeAt;
            for (;;) {
                const bool forward = nextF < total && (nextF < warmup || forwardTurn);
                if (!forward && nextB >= total)
                    break;
                const std::int64_t k = forward ? nextF : nextB;
                const int chunk = forward ? x.chunkOf[k] : v - 1 - x.chunkOf[k];
                double ready = 0;
                bool remote = true;
                if (forward) {
                    if (s > 0)
                        ready = fEnd[k - total];
                    else if (chunk > 0)
                        ready = x.forwardEnd[static_cast<std::size_t>(p - 1) * total + k -
                                             x.groupSizeOf[k]];
                    else
                        remote = false;
                } else {
                    if (s < p - 1)
                        ready = bEnd[k + total];
                    else if (chunk < v - 1)
                        ready = x.backwardEnd[k - x.groupSizeOf[k]];
                    else {
                        ready = fEnd[k + static_cast<std::int64_t>(v - 1) * x.groupSizeOf[k]];
                        remote = false;
                    }
                }
                if (ready < 0)
                    break; // waits for a neighbour
                if (remote)
                    ready += delay;
                const double start = std::max(freeAt, ready);
                const double end = start + (forward ? fDur[chunk] : bDur[chunk]);
                freeAt = end;
                if (forward) {
                    fEnd[k] = end;
                    ++nextF;
                    if (nextF > warmup)
                        forwardTurn = false;
                } else {
                    bEnd[k] = end;
                    ++nextB;
                    forwardTurn = true;
                }
                if (timeline)
                    timeline->push_back(TimelineEvent{
                        s, static_cast<int>(x.microbatchOf[k]), chunk,
                        forward ? TimelineOp::Forward : TimelineOp::Backward, start, end});
                --remaining;
                progress = true;
            }
            st.nextForward = nextF;
            st.nextBackward = nextB;
            st.forwardTurn = forwardTurn;
            st.freeAt = freeAt;
        }
        if (!progress) {
            stageEnd.assign(p, 0.0);
            return false; // a schedule that deadlocks: never for the schedules above
        }
        ascending = !ascending;
    }
    stageEnd.resize(p);
    for (int s = 0; s < p; ++s)
        stageEnd[s] = x.stages[s].freeAt;
    return true;
}

// The end time of the operation at `position` in rank s's order (warm-up forwards, then
// forward/backward pairs, then the cool-down backwards).
double endAt(const Scratch& x, std::int64_t total, int s, std::int64_t warmup,
             std::int64_t position) {
    const double* fEnd = x.forwardEnd.data() + static_cast<std::size_t>(s) * total;
    const double* bEnd = x.backwardEnd.data() + static_cast<std::size_t>(s) * total;
    if (position < warmup)
        return fEnd[position];
    const std::int64_t j = position - warmup;
    if (position < 2 * total - warmup)
        return (j % 2 == 0) ? fEnd[warmup + j / 2] : bEnd[j / 2];
    return bEnd[position - total];
}

// Operations compared at the end of the steady phase. In the steady phase the operation at
// position i of a rank waits only for positions i - 1 (its own rank) and i - 2 (or i - 1 for
// 1F1B) of its neighbours, since neighbouring ranks' warm-up counts differ by 2 (1); eight
// positions leave a margin.
constexpr std::int64_t kStateWindow = 8;

// Whether the run reached its periodic steady state before its cool-down: on every rank, the
// kStateWindow operations just before the first rank's cool-down ended exactly `period` later
// than the operations one group of p micro-batches (2pv positions) earlier. That window is
// the state every later operation depends on, so from there on the schedule repeats itself,
// and a run with more micro-batches (same count modulo p) ends exactly `period` later per
// extra group (max-plus algebra: Baccelli et al. 1992, "Synchronization and Linearity",
// ch. 3). Exactness is checked against full simulations in tst_estimator.
bool steadyStatePeriod(const PipelineInput& in, std::int64_t m, const Scratch& x, double& period) {
    const int p = in.stages, v = in.chunks;
    const std::int64_t total = m * v;
    const std::int64_t shift = 2 * static_cast<std::int64_t>(p) * v;
    const std::int64_t warmup0 = warmupForwards(in.schedule, p, v, 0, total);
    const std::int64_t end = 2 * total - warmup0; // the first cool-down position
    const std::int64_t begin = end - kStateWindow;
    if (begin - shift < warmup0)
        return false; // the compared windows must both lie in the steady phase
    bool first = true;
    double tolerance = 0;
    for (int s = 0; s < p; ++s) {
        const std::int64_t w = warmupForwards(in.schedule, p, v, s, total);
        for (std::int64_t i = begin; i < end; ++i) {
            const double d = endAt(x, total, s, w, i) - endAt(x, total, s, w, i - shift);
            if (first) {
                period = d;
                tolerance = 1e-12 * std::max(1.0, endAt(x, total, s, w, i)) + 1e-9 * period;
                first = false;
            }
            if (std::abs(d - period) > tolerance)
                return false;
        }
    }
    return !first;
}

} // namespace

bool isVShaped(PipelineScheduleKind schedule, int chunks) {
    return schedule == PipelineScheduleKind::ZeroBubble && chunks == 2;
}

int chunkModelIndex(PipelineScheduleKind schedule, int stages, int chunks, int stage, int chunk) {
    if (isVShaped(schedule, chunks) && chunk == 1)
        return 2 * stages - 1 - stage;
    return chunk * stages + stage;
}

ChunkPlace modelChunkPlace(PipelineScheduleKind schedule, int stages, int chunks, int index) {
    if (isVShaped(schedule, chunks) && index >= stages)
        return {2 * stages - 1 - index, 1};
    return {index % stages, index / stages};
}

double oneFOneBBubbleFraction(int stages, std::int64_t microbatches) {
    return double(stages - 1) / double(microbatches + stages - 1);
}

PipelineResult simulatePipeline(const PipelineInput& in, std::vector<TimelineEvent>* timeline,
                                std::int64_t maxEvents) {
    const std::int64_t operations = 2 * std::max<std::int64_t>(1, in.microbatches) *
                                    std::max(1, in.chunks) * std::max(1, in.stages);
    if (hasFlowShopForm(in) && operations > maxEvents) {
        // GPipe and breadth-first in closed form (parallel/FlowShop.h); the timeline shows a
        // run of as many micro-batches as the budget allows.
        PipelineResult result = flowShopSchedule(in);
        if (timeline) {
            PipelineInput shortRun = in;
            const std::int64_t perMicrobatch =
                operations / std::max<std::int64_t>(1, in.microbatches);
            shortRun.microbatches = std::max<std::int64_t>(1, maxEvents / perMicrobatch);
            // Within its own budget: simulated, not in closed form again.
            result.simulatedMicrobatches =
                simulatePipeline(shortRun, timeline,
                                 std::max(maxEvents, perMicrobatch * shortRun.microbatches))
                    .simulatedMicrobatches;
        }
        return result;
    }
    if (isVShaped(in.schedule, in.chunks))
        return simulateZeroBubbleV(in, timeline, maxEvents);
    if (isListSchedule(in.schedule))
        return simulateListSchedule(in, timeline, maxEvents);
    PipelineResult result;
    const int p = std::max(1, in.stages);
    const int v = std::max(1, in.chunks);
    const std::int64_t m = std::max<std::int64_t>(1, in.microbatches);
    result.stageBusySeconds.assign(p, 0.0);
    for (int s = 0; s < p; ++s)
        for (int c = 0; c < v; ++c) {
            const std::size_t idx = static_cast<std::size_t>(s) * v + c;
            result.stageBusySeconds[s] += m * (in.forwardSeconds[idx] + in.backwardSeconds[idx]);
        }

    const std::int64_t events = 2 * m * v * p;
    if (timeline)
        timeline->clear();
    thread_local Scratch scratch;
    if (events > maxEvents && in.schedule != PipelineScheduleKind::GPipe) {
        // The shortest run whose steady phase holds the two windows that steadyStatePeriod
        // compares, with the same number of micro-batches modulo p as m; doubled while the
        // warm-up transient lasts.
        const std::int64_t group = static_cast<std::int64_t>(p) * v;
        const std::int64_t warmup0 = warmupForwards(in.schedule, p, v, 0, m * v);
        // Positions: warm-up, one group (2pv), the window; in virtual indices half of it.
        const std::int64_t needed = warmup0 + group + kStateWindow / 2 + 1;
        const std::int64_t groups = (needed + group - 1) / group;
        for (std::int64_t g = std::max<std::int64_t>(groups, 1);; g *= 2) {
            const std::int64_t shortM = m % p + g * p;
            if (shortM + p > m)
                break; // no shorter run left: simulate all of it
            if (timeline)
                timeline->clear();
            if (!runSchedule(in, shortM, scratch, result.stageEndSeconds, timeline)) {
                result.ok = false;
                return result;
            }
            double period = 0;
            if (steadyStatePeriod(in, shortM, scratch, period)) {
                const double shift = double((m - shortM) / p) * period;
                for (double& end : result.stageEndSeconds)
                    end += shift;
                result.makespanSeconds =
                    *std::max_element(result.stageEndSeconds.begin(), result.stageEndSeconds.end());
                result.simulatedMicrobatches = shortM;
                result.extrapolated = true;
                return result;
            }
        }
        if (timeline)
            timeline->clear();
    }
    result.ok = runSchedule(in, m, scratch, result.stageEndSeconds, timeline);
    result.makespanSeconds =
        *std::max_element(result.stageEndSeconds.begin(), result.stageEndSeconds.end());
    result.simulatedMicrobatches = m;
    return result;
}

} // namespace ts
