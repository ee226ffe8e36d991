#include "parallel/ScheduleKinds.h"

#include <algorithm>

namespace ts {

namespace {

enum class Kind { F, B, W };

struct Op {
    Kind kind;
    int chunk;
    std::int64_t mb;
};

// ZB-H1 order of rank s (v = 1).
std::vector<Op> zeroBubbleOrder(int p, int s, std::int64_t m) {
    std::vector<Op> ops;
    ops.reserve(static_cast<std::size_t>(3 * m));
    const std::int64_t warmup = std::min<std::int64_t>(m, p - s - 1);
    const std::int64_t defer = s;
    std::int64_t f = 0, b = 0, w = 0;
    for (; f < warmup; ++f)
        ops.push_back({Kind::F, 0, f});
    while (b < m) {
        if (f < m)
            ops.push_back({Kind::F, 0, f++});
        ops.push_back({Kind::B, 0, b++});
        // Keep s W passes pending (rank s holds p - s micro-batches in flight, so its peak
        // stays the first rank's p); they run at the end, while the earlier ranks finish.
        if (b - w > defer)
            ops.push_back({Kind::W, 0, w++});
    }
    while (w < m)
        ops.push_back({Kind::W, 0, w++});
    return ops;
}

// Breadth-first order of every rank: all forwards chunk by chunk, then the backwards.
std::vector<Op> breadthFirstOrder(int v, std::int64_t m) {
    std::vector<Op> ops;
    ops.reserve(static_cast<std::size_t>(2 * m * v));
    for (int c = 0; c < v; ++c)
        for (std::int64_t j = 0; j < m; ++j)
            ops.push_back({Kind::F, c, j});
    for (int c = v - 1; c >= 0; --c)
        for (std::int64_t j = 0; j < m; ++j)
            ops.push_back({Kind::B, c, j});
    return ops;
}

} // namespace

bool isListSchedule(PipelineScheduleKind kind) {
    return kind == PipelineScheduleKind::ZeroBubble || kind == PipelineScheduleKind::BreadthFirst;
}

PipelineResult simulateListSchedule(const PipelineInput& in, std::vector<TimelineEvent>* timeline) {
    PipelineResult result;
    const int p = std::max(1, in.stages);
    const int v = std::max(1, in.chunks);
    const std::int64_t m = std::max<std::int64_t>(1, in.microbatches);
    const bool zb = in.schedule == PipelineScheduleKind::ZeroBubble;
    std::vector<std::vector<Op>> order(p);
    for (int s = 0; s < p; ++s)
        order[s] = zb ? zeroBubbleOrder(p, s, m) : breadthFirstOrder(v, m);
    // End times, [(stage * v + chunk) * m + mb]; -1 = not run yet.
    const std::size_t n = static_cast<std::size_t>(p) * v * m;
    std::vector<double> fEnd(n, -1.0), bEnd(n, -1.0);
    const auto at = [&](int s, int c, std::int64_t j) {
        return (static_cast<std::size_t>(s) * v + c) * static_cast<std::size_t>(m) +
               static_cast<std::size_t>(j);
    };
    std::vector<std::size_t> next(p, 0);
    std::vector<double> freeAt(p, 0.0);
    result.stageBusySeconds.assign(p, 0.0);
    if (timeline) {
        timeline->clear();
        timeline->reserve(n * (zb ? 3 : 2));
    }
    const double delay = in.edgeDelaySeconds;
    std::size_t remaining = 0;
    for (const auto& o : order)
        remaining += o.size();
    while (remaining > 0) {
        bool progress = false;
        for (int s = 0; s < p; ++s) {
            while (next[s] < order[s].size()) {
                const Op op = order[s][next[s]];
                const std::size_t idx = static_cast<std::size_t>(s) * v + op.chunk;
                const double full = in.backwardSeconds[idx];
                const double wgt = zb && in.weightGradSeconds
                                       ? std::clamp(in.weightGradSeconds[idx], 0.0, full)
                                       : 0.0;
                double ready = 0, dur = 0;
                bool remote = true;
                if (op.kind == Kind::F) {
                    dur = in.forwardSeconds[idx];
                    if (s > 0)
                        ready = fEnd[at(s - 1, op.chunk, op.mb)];
                    else if (op.chunk > 0)
                        ready = fEnd[at(p - 1, op.chunk - 1, op.mb)];
                    else
                        remote = false;
                } else if (op.kind == Kind::B) {
                    dur = full - wgt;
                    if (s < p - 1)
                        ready = bEnd[at(s + 1, op.chunk, op.mb)];
                    else if (op.chunk < v - 1)
                        ready = bEnd[at(0, op.chunk + 1, op.mb)];
                    else {
                        ready = fEnd[at(s, op.chunk, op.mb)];
                        remote = false;
                    }
                } else {
                    dur = wgt;
                    ready = bEnd[at(s, op.chunk, op.mb)];
                    remote = false;
                }
                if (ready < 0)
                    break;
                if (remote)
                    ready += delay;
                const double start = std::max(freeAt[s], ready);
                const double end = start + dur;
                freeAt[s] = end;
                result.stageBusySeconds[s] += dur;
                if (op.kind == Kind::F)
                    fEnd[at(s, op.chunk, op.mb)] = end;
                else if (op.kind == Kind::B)
                    bEnd[at(s, op.chunk, op.mb)] = end;
                if (timeline) {
                    const TimelineOp kind = op.kind == Kind::F   ? TimelineOp::Forward
                                            : op.kind == Kind::W ? TimelineOp::BackwardWeight
                                            : zb                 ? TimelineOp::BackwardInput
                                                                 : TimelineOp::Backward;
                    timeline->push_back({s, static_cast<int>(op.mb), op.chunk, kind, start, end});
                }
                ++next[s];
                --remaining;
                progress = true;
            }
        }
        if (!progress) {
            result.ok = false;
            break;
        }
    }
    result.stageEndSeconds = freeAt;
    result.makespanSeconds = *std::max_element(freeAt.begin(), freeAt.end());
    result.simulatedMicrobatches = m;
    return result;
}

} // namespace ts
