#include "parallel/ScheduleKinds.h"

#include <algorithm>
#include <cmath>

namespace ts {

namespace {

enum class Kind { F, B, W };

struct Op {
    Kind kind;
    int chunk;
    std::int64_t mb;
};

// One rank's order; for ZB-H1 also where its steady phase lies: the triples (F, B, W) from
// the first B that is followed by its rank's W to the last F.
struct RankOrder {
    std::vector<Op> ops;
    std::size_t steadyBegin = 0; // the first triple's F
    std::size_t steadyEnd = 0;   // after the last triple
};

// ZB-H1 order of rank s (v = 1).
void zeroBubbleOrder(int p, int s, std::int64_t m, RankOrder& r) {
    std::vector<Op>& ops = r.ops;
    ops.clear();
    ops.reserve(static_cast<std::size_t>(3 * m));
    r.steadyBegin = r.steadyEnd = 0;
    bool steady = false;
    const std::int64_t warmup = std::min<std::int64_t>(m, p - s - 1);
    const std::int64_t defer = s;
    std::int64_t f = 0, b = 0, w = 0;
    for (; f < warmup; ++f)
        ops.push_back({Kind::F, 0, f});
    while (b < m) {
        const std::size_t start = ops.size();
        const bool withForward = f < m;
        if (withForward)
            ops.push_back({Kind::F, 0, f++});
        ops.push_back({Kind::B, 0, b++});
        // Keep s W passes pending (rank s holds p - s micro-batches in flight, so its peak
        // stays the first rank's p); they run at the end, while the earlier ranks finish.
        if (b - w > defer) {
            ops.push_back({Kind::W, 0, w++});
            if (withForward) {
                if (!steady)
                    r.steadyBegin = start;
                steady = true;
                r.steadyEnd = ops.size();
            }
        }
    }
    while (w < m)
        ops.push_back({Kind::W, 0, w++});
}

// Breadth-first order of every rank: all forwards chunk by chunk, then the backwards.
void breadthFirstOrder(int v, std::int64_t m, RankOrder& r) {
    std::vector<Op>& ops = r.ops;
    ops.clear();
    ops.reserve(static_cast<std::size_t>(2 * m * v));
    r.steadyBegin = r.steadyEnd = 0;
    for (int c = 0; c < v; ++c)
        for (std::int64_t j = 0; j < m; ++j)
            ops.push_back({Kind::F, c, j});
    for (int c = v - 1; c >= 0; --c)
        for (std::int64_t j = 0; j < m; ++j)
            ops.push_back({Kind::B, c, j});
}

// Reused between runs of one thread, so that repeated estimates (the search) do not allocate.
struct Scratch {
    std::vector<RankOrder> orders;
    std::vector<double> fEnd, bEnd;   // [(stage * v + chunk) * m + mb]; -1 = not run yet
    std::vector<double> opEnd;        // [opBase[stage] + position in its order]
    std::vector<std::size_t> opBase;  // per rank: where its operations start in opEnd
    std::vector<std::size_t> next;    // per rank: position of its next operation
    std::vector<double> freeAt, busy; // per rank
};

// Runs the schedule with m micro-batches: every rank in its order, each operation as soon as
// its rank is free and its input has arrived. `x.freeAt` receives the ranks' finish times,
// `x.busy` their operation times and, with `positions`, `x.opEnd` every operation's end.
bool runListSchedule(const PipelineInput& in, std::int64_t m, Scratch& x,
                     std::vector<TimelineEvent>* timeline, bool positions) {
    const int p = std::max(1, in.stages);
    const int v = std::max(1, in.chunks);
    const bool zb = in.schedule == PipelineScheduleKind::ZeroBubble;
    x.orders.resize(p);
    for (int s = 0; s < p; ++s) {
        if (zb)
            zeroBubbleOrder(p, s, m, x.orders[s]);
        else
            breadthFirstOrder(v, m, x.orders[s]);
    }
    const std::size_t n = static_cast<std::size_t>(p) * v * m;
    x.fEnd.assign(n, -1.0);
    x.bEnd.assign(n, -1.0);
    double* const fEnd = x.fEnd.data();
    double* const bEnd = x.bEnd.data();
    const auto at = [&](int s, int c, std::int64_t j) {
        return (static_cast<std::size_t>(s) * v + c) * static_cast<std::size_t>(m) +
               static_cast<std::size_t>(j);
    };
    x.opBase.assign(p, 0);
    std::size_t remaining = 0;
    for (int s = 0; s < p; ++s) {
        x.opBase[s] = remaining;
        remaining += x.orders[s].ops.size();
    }
    if (positions)
        x.opEnd.resize(remaining);
    x.next.assign(p, 0);
    x.freeAt.assign(p, 0.0);
    x.busy.assign(p, 0.0);
    if (timeline)
        timeline->reserve(timeline->size() + remaining);
    const double delay = in.edgeDelaySeconds;
    while (remaining > 0) {
        bool progress = false;
        for (int s = 0; s < p; ++s) {
            const Op* const order = x.orders[s].ops.data();
            const std::size_t size = x.orders[s].ops.size();
            double* const opEnd = positions ? x.opEnd.data() + x.opBase[s] : nullptr;
            // Locals, so that the stores into the end-time arrays do not force reloads.
            std::size_t next = x.next[s];
            double freeAt = x.freeAt[s], busy = x.busy[s];
            const std::size_t first = next;
            for (; next < size; ++next) {
                const Op op = order[next];
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
                const double start = std::max(freeAt, ready);
                const double end = start + dur;
                freeAt = end;
                busy += dur;
                if (op.kind == Kind::F)
                    fEnd[at(s, op.chunk, op.mb)] = end;
                else if (op.kind == Kind::B)
                    bEnd[at(s, op.chunk, op.mb)] = end;
                if (opEnd)
                    opEnd[next] = end;
                if (timeline) {
                    const TimelineOp kind = op.kind == Kind::F   ? TimelineOp::Forward
                                            : op.kind == Kind::W ? TimelineOp::BackwardWeight
                                            : zb                 ? TimelineOp::BackwardInput
                                                                 : TimelineOp::Backward;
                    timeline->push_back({s, static_cast<int>(op.mb), op.chunk, kind, start, end});
                }
            }
            if (next > first) {
                progress = true;
                remaining -= next - first;
            }
            x.next[s] = next;
            x.freeAt[s] = freeAt;
            x.busy[s] = busy;
        }
        if (!progress)
            return false;
    }
    return true;
}

// Where the operation (kind, mb) of rank r lies when it is a steady operation before `cut`:
// its position; `cut` when it comes at or after `cut`; -1 when it comes before the steady
// phase. The operations of one kind come in micro-batch order.
std::int64_t positionBefore(const RankOrder& order, Kind kind, std::int64_t mb, std::size_t cut) {
    for (std::size_t i = cut; i-- > order.steadyBegin;) {
        const Op& op = order.ops[i];
        if (op.kind != kind)
            continue;
        if (op.mb == mb)
            return static_cast<std::int64_t>(i);
        if (op.mb < mb)
            return static_cast<std::int64_t>(cut);
    }
    return -1;
}

// ZB-H1's steady-state check (the idea of PipelineSchedule.cpp's steadyStatePeriod). From
// its steady phase on, rank s's order with m + p micro-batches is its order with m shifted by
// one group of p micro-batches, 3p positions; the orders agree up to the end of the shorter
// one's steady phase (`steadyEnd`, the cut), and so do the end times before it, since every
// dependency of an operation there lies there too. The operations from 3p positions before
// the cut on depend on the earlier ones only through each rank's last operation and the
// inputs they take from their neighbours (F from the previous rank, B from the next; a W's
// own B, and the last rank's own F, are earlier on the same rank, so no later than the rank's
// last operation): when all of those, on every rank, ended exactly `period` later one group
// further on, a run with p more micro-batches ends exactly `period` later (max-plus algebra,
// as in steadyStatePeriod), and by induction k p more, k periods later.
bool zeroBubbleSteadyStatePeriod(const Scratch& x, int p, double& period) {
    const std::size_t shift = 3 * static_cast<std::size_t>(p);
    std::vector<std::int64_t> low(p); // per rank: the first compared position
    for (int s = 0; s < p; ++s) {
        const RankOrder& o = x.orders[s];
        if (o.steadyEnd < o.steadyBegin + shift + 1)
            return false;
        low[s] = static_cast<std::int64_t>(o.steadyEnd - shift - 1); // the last operation
    }
    for (int s = 0; s < p; ++s) {
        const RankOrder& o = x.orders[s];
        const std::size_t cut = o.steadyEnd - shift;
        // The first F and the first B from the cut on: the later ones take their inputs from
        // later positions of the neighbours.
        bool seenF = false, seenB = false;
        for (std::size_t i = cut; i < o.ops.size() && !(seenF && seenB); ++i) {
            const Op& op = o.ops[i];
            int r = -1;
            if (op.kind == Kind::F && !seenF) {
                seenF = true;
                r = s - 1;
            } else if (op.kind == Kind::B && !seenB) {
                seenB = true;
                r = s + 1;
            }
            if (r < 0 || r >= p)
                continue;
            const RankOrder& ro = x.orders[r];
            const std::int64_t at = positionBefore(ro, op.kind, op.mb, ro.steadyEnd - shift);
            if (at < 0)
                return false; // an input from before the neighbour's steady phase
            low[r] = std::min(low[r], at);
        }
    }
    bool first = true;
    double tolerance = 0;
    for (int s = 0; s < p; ++s) {
        const double* end = x.opEnd.data() + x.opBase[s];
        const std::size_t cut = x.orders[s].steadyEnd - shift;
        for (std::size_t i = static_cast<std::size_t>(low[s]); i < cut; ++i) {
            const double d = end[i + shift] - end[i];
            if (first) {
                period = d;
                tolerance = 1e-12 * std::max(1.0, end[i + shift]) + 1e-9 * period;
                first = false;
            }
            if (std::abs(d - period) > tolerance)
                return false;
        }
    }
    return !first && period > 0;
}

} // namespace

bool isListSchedule(PipelineScheduleKind kind) {
    return kind == PipelineScheduleKind::ZeroBubble || kind == PipelineScheduleKind::BreadthFirst;
}

PipelineResult simulateListSchedule(const PipelineInput& in, std::vector<TimelineEvent>* timeline,
                                    std::int64_t maxEvents) {
    PipelineResult result;
    const int p = std::max(1, in.stages);
    const int v = std::max(1, in.chunks);
    const std::int64_t m = std::max<std::int64_t>(1, in.microbatches);
    const bool zb = in.schedule == PipelineScheduleKind::ZeroBubble;
    if (timeline)
        timeline->clear();
    thread_local Scratch scratch;
    const auto finish = [&](double shift) {
        result.stageEndSeconds = scratch.freeAt;
        for (double& end : result.stageEndSeconds)
            end += shift;
        result.makespanSeconds =
            *std::max_element(result.stageEndSeconds.begin(), result.stageEndSeconds.end());
    };
    const std::int64_t events = 3 * m * p;
    if (zb && v == 1 && events > maxEvents) {
        // ZB-H1: runs of m mod p + g p micro-batches, g doubling from 3 (each rank's steady
        // phase holds m - p + 1 triples; the check compares its last group of p with the one
        // before, which must follow the warm-up's transient).
        for (std::int64_t g = 3;; g *= 2) {
            const std::int64_t shortM = m % p + g * p;
            if (shortM + p > m)
                break; // no shorter run left: simulate all of it
            if (timeline)
                timeline->clear();
            if (!runListSchedule(in, shortM, scratch, timeline, true)) {
                result.ok = false; // a deadlock: never for the order above
                finish(0.0);
                result.stageBusySeconds = scratch.busy;
                result.simulatedMicrobatches = shortM;
                return result;
            }
            double period = 0;
            if (zeroBubbleSteadyStatePeriod(scratch, p, period)) {
                finish(double((m - shortM) / p) * period);
                result.stageBusySeconds.assign(p, 0.0);
                for (int s = 0; s < p; ++s)
                    result.stageBusySeconds[s] =
                        double(m) * (in.forwardSeconds[s] + in.backwardSeconds[s]);
                result.simulatedMicrobatches = shortM;
                result.extrapolated = true;
                return result;
            }
        }
        if (timeline)
            timeline->clear();
    }
    result.ok = runListSchedule(in, m, scratch, timeline, false);
    finish(0.0);
    result.stageBusySeconds = scratch.busy;
    result.simulatedMicrobatches = m;
    return result;
}

} // namespace ts
