#include "parallel/ZeroBubbleV.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ts {

namespace {

enum class Pass : std::uint8_t { F, B, W };

// Eight bytes, so that the orders of many ranks stay in the cache (micro-batch indices of a
// simulated run are far below 2^31: its 6 m p operations are stored).
struct Op {
    Pass pass;
    std::uint8_t chunk;
    std::int32_t mb;
};

// One rank's order, and where its steady phase lies (the blocks F0 B0 W0 F1 B1 W1).
struct RankOrder {
    std::vector<Op> ops;
    std::size_t steadyBegin = 0; // the first steady block
    std::size_t steadyEnd = 0;   // after the last steady block that starts with a forward
};

// The ZB-V order of rank s (ZB paper sec. 6 and its figure; header comment). The figure needs
// 2p - 1 micro-batches to fill its warm-up; with fewer, the passes of the missing ones are
// left out of the same order.
RankOrder zeroBubbleVOrder(int p, int s, std::int64_t m) {
    const std::int64_t n = std::max<std::int64_t>(m, 2 * static_cast<std::int64_t>(p) - 1);
    RankOrder r;
    r.ops.reserve(static_cast<std::size_t>(6 * m));
    const auto push = [&](Pass pass, int chunk, std::int64_t mb) {
        if (mb < m)
            r.ops.push_back(
                {pass, static_cast<std::uint8_t>(chunk), static_cast<std::int32_t>(mb)});
    };
    std::int64_t f0 = 0, f1 = 0, b0 = 0, b1 = 0;
    for (int i = 0; i < 2 * (p - s) - 1; ++i)
        push(Pass::F, 0, f0++);
    for (int i = 0; i < s; ++i) {
        push(Pass::F, 1, f1++);
        push(Pass::F, 0, f0++);
    }
    for (int i = 0; i < p - s; ++i) {
        push(Pass::F, 1, f1++);
        push(Pass::B, 1, b1);
        push(Pass::W, 1, b1++);
    }
    r.steadyBegin = r.steadyEnd = r.ops.size();
    while (f1 < f0 || f0 < n) {
        const bool withForward = f0 < n;
        if (withForward)
            push(Pass::F, 0, f0++);
        push(Pass::B, 0, b0);
        push(Pass::W, 0, b0++);
        push(Pass::F, 1, f1++);
        push(Pass::B, 1, b1);
        push(Pass::W, 1, b1++);
        if (withForward)
            r.steadyEnd = r.ops.size();
    }
    std::int64_t w0 = b0, w1 = b1;
    for (int i = 0; i < s; ++i) {
        push(Pass::B, 0, b0++);
        push(Pass::B, 1, b1++);
    }
    for (int i = 0; i < p - s; ++i) {
        push(Pass::B, 0, b0++);
        push(Pass::W, 0, w0++);
    }
    while (w1 < b1)
        push(Pass::W, 1, w1++);
    while (w0 < b0)
        push(Pass::W, 0, w0++);
    return r;
}

struct PendingW {
    int chunk;
    std::int64_t mb;
};

struct RankState {
    std::size_t next = 0; // position in the order
    double freeAt = 0;    // when the rank next decides
    double lastEnd = 0;   // end of its last operation
    bool blocked = false; // waits for an input whose producer has not run (freeAt: since)
    bool finished = false;
    std::int64_t forwards[2] = {0, 0}, backwards[2] = {0, 0}; // passes run, per chunk
    std::vector<PendingW> pending; // W passes whose B has run, oldest first
};

// Everything the policy's later decisions depend on, taken when rank 0 starts a steady
// chunk-0 forward: times relative to that moment, micro-batch indices as they are.
struct Snapshot {
    double at = 0;
    std::vector<std::size_t> next;
    std::vector<std::int64_t> counts;  // per rank: F0, F1, B0, B1 passes run
    std::vector<std::int64_t> pending; // per rank: count, then (chunk, mb) pairs
    std::vector<char> blocked;
    std::vector<double> times; // free times, then the unconsumed outputs' end times
};

class ZeroBubbleVSimulation {
public:
    ZeroBubbleVSimulation(const PipelineInput& in, std::int64_t m)
        : in_(in), p_(std::max(1, in.stages)), m_(m) {
        orders_.reserve(p_);
        for (int s = 0; s < p_; ++s)
            orders_.push_back(zeroBubbleVOrder(p_, s, m_));
        const std::size_t n = static_cast<std::size_t>(p_) * 2 * static_cast<std::size_t>(m_);
        fEnd_.assign(n, -1.0);
        bEnd_.assign(n, -1.0);
        wDone_.assign(n, 0);
        ranks_.assign(p_, RankState{});
    }

    // Runs the schedule; with `findPeriod`, also looks for the steady-state period.
    bool run(std::vector<TimelineEvent>* timeline, bool findPeriod);

    double stageEnd(int s) const { return ranks_[s].lastEnd; }
    // A period found, and no decision from its first state on that rests on a tie (see
    // tieWithProducer).
    bool periodFound() const { return periodFound_ && !tiedAfterPeriod(); }
    // A period found, but decisions from its first state on rest on ties: they recur in the
    // steady state or the cool-down of every longer run.
    bool tiedAfterPeriod() const {
        return periodFound_ && lastTie_ >= periodFrom_ - 1e-12 * std::max(1.0, periodFrom_);
    }
    double period() const { return period_; }

private:
    std::size_t at(int s, int chunk, std::int64_t mb) const {
        return (static_cast<std::size_t>(s) * 2 + static_cast<std::size_t>(chunk)) *
                   static_cast<std::size_t>(m_) +
               static_cast<std::size_t>(mb);
    }
    double forwardSeconds(int s, int c) const { return in_.forwardSeconds[s * 2 + c]; }
    double weightSeconds(int s, int c) const {
        const double full = in_.backwardSeconds[s * 2 + c];
        return in_.weightGradSeconds ? std::clamp(in_.weightGradSeconds[s * 2 + c], 0.0, full)
                                     : 0.0;
    }
    double inputGradSeconds(int s, int c) const {
        return in_.backwardSeconds[s * 2 + c] - weightSeconds(s, c);
    }
    // When the input of an F or B pass is there: -1 while its producer has not run. The V
    // (header): forwards go down the ranks on chunk 0 and back up on chunk 1, the loss is on
    // rank 0's chunk 1, backwards go down on chunk 1 and back up on chunk 0; rank p - 1 hands
    // its chunk 0's output to its own chunk 1 (and the gradient back), without a transfer.
    double inputReady(int s, const Op& op) const;
    // Rank r's next operation in its order, past the W passes that ran early; null at the end.
    const Op* nextOp(int r) const {
        const std::vector<Op>& ops = orders_[r].ops;
        std::size_t i = ranks_[r].next;
        while (i < ops.size() && ops[i].pass == Pass::W && wDone_[at(r, ops[i].chunk, ops[i].mb)])
            ++i;
        return i < ops.size() ? &ops[i] : nullptr;
    }
    // Whether the decision of rank s, free at t and waiting for the input of `op` with a W
    // of `weight` seconds pending, rests on a tie with the neighbour that produces that
    // input: the producer started it at t (within rounding), or is free at t and has it
    // next, and the input arrives before the W would end. Which of the two decides first then
    // rests on the rounding of t (the order is by exact time, then rank), and so does the
    // decision: with the input's arrival known the rank waits for it, unknown it fills the
    // wait with the W. A run p micro-batches longer meets the same tie at other times, rounded
    // differently: the extrapolation must not rest on such decisions.
    bool tieWithProducer(int s, const Op& op, double t, double weight) const;
    void snapshot(double now, Snapshot& x) const; // reuses x's storage
    bool samePeriodicState(const Snapshot& earlier, const Snapshot& later, double& period) const;

    const PipelineInput& in_;
    int p_;
    std::int64_t m_;
    std::vector<RankOrder> orders_;
    std::vector<double> fEnd_, bEnd_; // [at(s, chunk, mb)]; -1 = not run yet
    std::vector<char> wDone_;
    std::vector<RankState> ranks_;
    // The tournament tree: node i holds the least (free time, rank) of its subtree, its
    // children are 2i and 2i + 1, rank r's leaf is leaves_ + r, the root node 1; finished and
    // blocked ranks, and the leaves past p, have the time kNever.
    static constexpr double kNever = std::numeric_limits<double>::infinity();
    int leaves_ = 1;
    std::vector<double> treeKey_;
    std::vector<int> treeRank_;
    void resetQueue() {
        while (leaves_ < p_)
            leaves_ *= 2;
        treeKey_.assign(2 * static_cast<std::size_t>(leaves_), kNever);
        treeRank_.assign(2 * static_cast<std::size_t>(leaves_), 0);
        for (int r = 0; r < leaves_; ++r) {
            const bool contends = r < p_ && !ranks_[r].finished && !ranks_[r].blocked;
            treeKey_[leaves_ + r] = contends ? ranks_[r].freeAt : kNever;
            treeRank_[leaves_ + r] = r;
        }
        for (std::size_t i = leaves_ - 1; i >= 1; --i)
            play(i);
    }
    // The match at node i: the right child (higher ranks) wins only when strictly earlier, so
    // that at equal times the lower rank wins.
    void play(std::size_t i) {
        const double left = treeKey_[2 * i], right = treeKey_[2 * i + 1];
        const bool rightWins = right < left;
        treeKey_[i] = rightWins ? right : left;
        treeRank_[i] = rightWins ? treeRank_[2 * i + 1] : treeRank_[2 * i];
    }
    void setKey(int r, double key) {
        std::size_t i = static_cast<std::size_t>(leaves_) + static_cast<std::size_t>(r);
        treeKey_[i] = key;
        for (i /= 2; i >= 1; i /= 2)
            play(i);
    }
    // The last p + 1 steady chunk-0 forwards of rank 0, in a ring: the oldest at oldest_.
    std::vector<Snapshot> snapshots_;
    std::size_t oldest_ = 0, taken_ = 0;
    bool periodFound_ = false;
    double periodFrom_ = 0; // when the first of the two equal states was taken
    double lastTie_ = -std::numeric_limits<double>::infinity();
    double period_ = 0;
};

double ZeroBubbleVSimulation::inputReady(int s, const Op& op) const {
    const double delay = in_.edgeDelaySeconds;
    const auto remote = [&](double end) { return end < 0 ? -1.0 : end + delay; };
    if (op.pass == Pass::F) {
        if (op.chunk == 0)
            return s == 0 ? 0.0 : remote(fEnd_[at(s - 1, 0, op.mb)]);
        return s == p_ - 1 ? fEnd_[at(s, 0, op.mb)] : remote(fEnd_[at(s + 1, 1, op.mb)]);
    }
    if (op.chunk == 1)
        return s == 0 ? fEnd_[at(0, 1, op.mb)] : remote(bEnd_[at(s - 1, 1, op.mb)]);
    return s == p_ - 1 ? bEnd_[at(s, 1, op.mb)] : remote(bEnd_[at(s + 1, 0, op.mb)]);
}

bool ZeroBubbleVSimulation::tieWithProducer(int s, const Op& op, double t, double weight) const {
    // The producer (inputReady): F0 from the previous rank, F1 from the next, B1 from the
    // previous, B0 from the next; a rank's own passes (rank 0's loss, rank p - 1's turn of the
    // V) have run before.
    const bool fromPrevious = (op.pass == Pass::F) == (op.chunk == 0);
    const int q = fromPrevious ? s - 1 : s + 1;
    if (q < 0 || q >= p_)
        return false;
    const double tolerance = 1e-12 * std::max(1.0, std::abs(t));
    const double seconds =
        op.pass == Pass::F ? forwardSeconds(q, op.chunk) : inputGradSeconds(q, op.chunk);
    // Started at t, the input arrives at about t + seconds + delay: before the W ends?
    if (seconds + in_.edgeDelaySeconds >= weight + tolerance)
        return false; // either way the rank runs the W
    const std::vector<double>& ends = op.pass == Pass::F ? fEnd_ : bEnd_;
    const double end = ends[at(q, op.chunk, op.mb)];
    if (end >= 0)
        return end - seconds >= t - tolerance;
    const RankState& producer = ranks_[q];
    if (producer.finished || producer.blocked || producer.freeAt > t + tolerance)
        return false;
    const Op* o = nextOp(q);
    if (o && o->pass == Pass::W && weightSeconds(q, o->chunk) <= tolerance)
        return true; // a W of no time first, then perhaps the input, still at t
    if (!o || o->pass != op.pass || o->chunk != op.chunk || o->mb != op.mb)
        return false;
    // The producer runs it when it decides only if its own input is there by then (an input
    // still to be produced arrives a pass later).
    const double arrival = inputReady(q, *o);
    return arrival >= 0 && arrival <= producer.freeAt + tolerance;
}

bool ZeroBubbleVSimulation::run(std::vector<TimelineEvent>* timeline, bool findPeriod) {
    std::size_t remaining = 0;
    for (const RankOrder& o : orders_)
        remaining += o.ops.size();
    if (timeline)
        timeline->reserve(timeline->size() + remaining);
    const auto tolerance = [](double t) { return 1e-12 * std::max(1.0, std::abs(t)); };
    // The rank that decides next: the earliest free one, the lower rank at equal times
    // (deterministic, as the period check needs). A tournament tree over the ranks keeps it
    // at its root: O(log p) per change of a rank's free time. Finished ranks, and blocked
    // ones (they wait for an input whose producer has not run, and wake when it runs), are
    // out of the contest (key +inf).
    resetQueue();
    while (remaining > 0) {
        const int s = treeRank_[1];
        if (!(treeKey_[1] < kNever))
            return false; // a deadlock: never for the order above
        RankState& rank = ranks_[s];
        const std::vector<Op>& ops = orders_[s].ops;
        const double t = rank.freeAt;
        // W passes that already ran early to fill idle time leave their place in the order.
        while (rank.next < ops.size() && ops[rank.next].pass == Pass::W &&
               wDone_[at(s, ops[rank.next].chunk, ops[rank.next].mb)])
            ++rank.next;
        if (rank.next == ops.size() && rank.pending.empty()) {
            rank.finished = true;
            setKey(s, kNever);
            continue;
        }
        const Op* next = rank.next < ops.size() ? &ops[rank.next] : nullptr;
        double ready = -1;
        bool runNext = false, runPendingW = false;
        if (next && next->pass == Pass::W) {
            runNext = true; // its B is earlier in the order, so it has run
        } else if (next) {
            ready = inputReady(s, *next);
            runNext = ready >= 0 && ready <= t + tolerance(t);
        }
        if (!runNext && !rank.pending.empty()) {
            // Fill the wait with a W when the next pass's input is not on its way yet, or
            // arrives after the W would end (ZB paper sec. 3.1).
            const PendingW& w = rank.pending.front();
            runPendingW =
                !next || ready < 0 || ready >= t + weightSeconds(s, w.chunk) - tolerance(t);
        }
        if (findPeriod && !runNext && !rank.pending.empty() && next &&
            tieWithProducer(s, *next, t, weightSeconds(s, rank.pending.front().chunk)))
            lastTie_ = t;
        if (!runNext && !runPendingW) {
            // Nothing to do until the input arrives: the decision cannot change before (the
            // arrival is fixed once its producer has run; the pending W only change by this
            // rank's own passes).
            if (ready >= 0) {
                rank.freeAt = ready;
                setKey(s, ready);
            } else {
                rank.blocked = true;
                setKey(s, kNever);
            }
            continue;
        }
        if (findPeriod && !periodFound_ && s == 0 && runNext && next->pass == Pass::F &&
            next->chunk == 0 && rank.next >= orders_[0].steadyBegin) {
            // The ring holds the last p + 1 snapshots; a new one replaces the oldest.
            const std::size_t capacity = static_cast<std::size_t>(p_) + 1;
            if (snapshots_.size() < capacity)
                snapshots_.resize(capacity);
            std::size_t slot = (oldest_ + taken_) % capacity;
            if (taken_ == capacity) {
                slot = oldest_;
                oldest_ = (oldest_ + 1) % capacity;
            } else {
                ++taken_;
            }
            snapshot(t, snapshots_[slot]);
            if (taken_ == capacity &&
                samePeriodicState(snapshots_[oldest_], snapshots_[slot], period_)) {
                periodFound_ = true;
                periodFrom_ = snapshots_[oldest_].at;
            }
        }
        Op op{};
        double seconds = 0;
        if (runNext) {
            op = *next;
            ++rank.next;
        } else {
            op = {Pass::W, static_cast<std::uint8_t>(rank.pending.front().chunk),
                  static_cast<std::int32_t>(rank.pending.front().mb)};
        }
        if (op.pass == Pass::F) {
            seconds = forwardSeconds(s, op.chunk);
            ++rank.forwards[op.chunk];
        } else if (op.pass == Pass::B) {
            seconds = inputGradSeconds(s, op.chunk);
            ++rank.backwards[op.chunk];
            rank.pending.push_back({op.chunk, op.mb});
        } else {
            seconds = weightSeconds(s, op.chunk);
            wDone_[at(s, op.chunk, op.mb)] = 1;
            const auto it =
                std::find_if(rank.pending.begin(), rank.pending.end(), [&](const PendingW& w) {
                    return w.chunk == op.chunk && w.mb == op.mb;
                });
            if (it != rank.pending.end())
                rank.pending.erase(it);
        }
        const double end = t + seconds;
        if (op.pass == Pass::F)
            fEnd_[at(s, op.chunk, op.mb)] = end;
        else if (op.pass == Pass::B)
            bEnd_[at(s, op.chunk, op.mb)] = end;
        rank.freeAt = rank.lastEnd = end;
        setKey(s, end);
        if (op.pass != Pass::W) {
            // Its consumer is on this rank or a neighbour: wake it when this was its input.
            for (int r = std::max(0, s - 1); r <= std::min(p_ - 1, s + 1); ++r) {
                RankState& x = ranks_[r];
                if (!x.blocked)
                    continue;
                const Op* o = nextOp(r);
                const double arrival = o && o->pass != Pass::W ? inputReady(r, *o) : 0.0;
                if (arrival >= 0) {
                    x.blocked = false;
                    x.freeAt = std::max(x.freeAt, arrival);
                    setKey(r, x.freeAt);
                }
            }
        }
        if (timeline) {
            const TimelineOp kind = op.pass == Pass::F   ? TimelineOp::Forward
                                    : op.pass == Pass::B ? TimelineOp::BackwardInput
                                                         : TimelineOp::BackwardWeight;
            timeline->push_back({s, static_cast<int>(op.mb), op.chunk, kind, t, end});
        }
        --remaining;
    }
    return true;
}

void ZeroBubbleVSimulation::snapshot(double now, Snapshot& x) const {
    x.at = now;
    x.next.clear();
    x.counts.clear();
    x.pending.clear();
    x.blocked.clear();
    x.times.clear();
    for (int s = 0; s < p_; ++s) {
        const RankState& r = ranks_[s];
        x.next.push_back(r.next);
        x.counts.insert(x.counts.end(),
                        {r.forwards[0], r.forwards[1], r.backwards[0], r.backwards[1]});
        x.pending.push_back(static_cast<std::int64_t>(r.pending.size()));
        for (const PendingW& w : r.pending)
            x.pending.insert(x.pending.end(), {w.chunk, w.mb});
        x.blocked.push_back(r.blocked);
        x.times.push_back(r.finished ? -1.0 : r.freeAt - now);
    }
    // Outputs produced and not yet consumed: their end times decide when the consumers start.
    const auto outputs = [&](const std::vector<double>& ends, int s, int chunk,
                             std::int64_t consumed, std::int64_t produced) {
        for (std::int64_t j = consumed; j < produced; ++j)
            x.times.push_back(ends[at(s, chunk, j)] - now);
    };
    for (int s = 0; s < p_; ++s) {
        const RankState& r = ranks_[s];
        // F0 feeds the next rank's F0 (rank p - 1: its own F1); F1 feeds the previous rank's
        // F1 (rank 0: the loss, its own B1).
        outputs(fEnd_, s, 0, s < p_ - 1 ? ranks_[s + 1].forwards[0] : r.forwards[1], r.forwards[0]);
        outputs(fEnd_, s, 1, s > 0 ? ranks_[s - 1].forwards[1] : r.backwards[1], r.forwards[1]);
        // B1 feeds the next rank's B1 (rank p - 1: its own B0); B0 the previous rank's B0.
        outputs(bEnd_, s, 1, s < p_ - 1 ? ranks_[s + 1].backwards[1] : r.backwards[0],
                r.backwards[1]);
        if (s > 0)
            outputs(bEnd_, s, 0, ranks_[s - 1].backwards[0], r.backwards[0]);
    }
}

// Whether `later` is `earlier` moved on by p micro-batches and some time (the period), with
// both inside the steady phase, where the orders of runs with m and m + p micro-batches
// agree: then a run with p more micro-batches repeats, from `later`, what this run did from
// `earlier`, one period later (the policy is the same function of the same state), and ends
// exactly one period later.
bool ZeroBubbleVSimulation::samePeriodicState(const Snapshot& earlier, const Snapshot& later,
                                              double& period) const {
    const std::int64_t p = p_;
    for (int s = 0; s < p_; ++s) {
        const RankOrder& o = orders_[s];
        // Strictly before steadyEnd: the decisions so far looked at positions up to `next`.
        if (earlier.next[s] < o.steadyBegin || later.next[s] >= o.steadyEnd ||
            later.next[s] != earlier.next[s] + static_cast<std::size_t>(6 * p))
            return false;
    }
    for (std::size_t i = 0; i < earlier.counts.size(); ++i)
        if (later.counts[i] != earlier.counts[i] + p)
            return false;
    if (earlier.pending.size() != later.pending.size() || earlier.blocked != later.blocked ||
        earlier.times.size() != later.times.size())
        return false;
    for (std::size_t i = 0; i < earlier.pending.size();) {
        const std::int64_t count = earlier.pending[i];
        if (later.pending[i] != count)
            return false;
        ++i;
        for (std::int64_t k = 0; k < count; ++k, i += 2)
            if (later.pending[i] != earlier.pending[i] ||
                later.pending[i + 1] != earlier.pending[i + 1] + p)
                return false;
    }
    period = later.at - earlier.at;
    const double tolerance = 1e-12 * std::max(1.0, std::abs(later.at)) + 1e-9 * period;
    for (std::size_t i = 0; i < earlier.times.size(); ++i)
        if (std::abs(later.times[i] - earlier.times[i]) > tolerance)
            return false;
    return period > 0;
}

} // namespace

std::int64_t zeroBubbleVPeakChunks(int stages, int stage, std::int64_t microbatches) {
    // Walking rank s's order: the warm-up stashes 2(p - s) - 1 + 2s = 2p - 1 chunk forwards
    // and one more F1 before the first B1, then every F follows a B; with m < 2p - 1 the
    // missing micro-batches' forwards are left out: min(2p, 2m, m + s + 1).
    const std::int64_t p = std::max(1, stages);
    return std::min({2 * p, 2 * microbatches, microbatches + stage + 1});
}

PipelineResult simulateZeroBubbleV(const PipelineInput& in, std::vector<TimelineEvent>* timeline,
                                   std::int64_t maxEvents) {
    PipelineResult result;
    const int p = std::max(1, in.stages);
    const std::int64_t m = std::max<std::int64_t>(1, in.microbatches);
    result.stageBusySeconds.assign(p, 0.0);
    for (int s = 0; s < p; ++s)
        for (int c = 0; c < 2; ++c)
            result.stageBusySeconds[s] +=
                double(m) * (in.forwardSeconds[s * 2 + c] + in.backwardSeconds[s * 2 + c]);
    result.stageEndSeconds.assign(p, 0.0);
    const auto finish = [&](const ZeroBubbleVSimulation& sim, double shift) {
        for (int s = 0; s < p; ++s)
            result.stageEndSeconds[s] = sim.stageEnd(s) + shift;
        result.makespanSeconds =
            *std::max_element(result.stageEndSeconds.begin(), result.stageEndSeconds.end());
    };
    if (timeline)
        timeline->clear();
    const std::int64_t events = 6 * m * p;
    if (events > maxEvents) {
        // Runs of m mod p + g p micro-batches, g doubling from 4 (the warm-up takes 2p - 1
        // forwards, and the check compares two states p micro-batches apart after it).
        for (std::int64_t g = 4;; g *= 2) {
            const std::int64_t shortM = m % p + g * p;
            if (shortM + p > m)
                break; // no shorter run left: simulate all of it
            if (timeline)
                timeline->clear();
            ZeroBubbleVSimulation sim(in, shortM);
            if (!sim.run(timeline, true)) {
                result.ok = false;
                return result;
            }
            if (sim.periodFound()) {
                finish(sim, double((m - shortM) / p) * sim.period());
                result.simulatedMicrobatches = shortM;
                result.extrapolated = true;
                return result;
            }
            if (sim.tiedAfterPeriod())
                break; // longer runs meet the same ties: simulate all of it
        }
        if (timeline)
            timeline->clear();
    }
    ZeroBubbleVSimulation sim(in, m);
    result.ok = sim.run(timeline, false);
    finish(sim, 0.0);
    result.simulatedMicrobatches = m;
    return result;
}

} // namespace ts
