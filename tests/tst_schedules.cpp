// The pipeline schedules in one event simulation (core/parallel/PipelineSchedule.h):
// each schedule's activation memory formula (estimate/MemoryModel.h microbatchesInFlight)
// against the peak number of micro-batches whose forward has run and whose backward has not,
// read from the simulated timeline; and the bubbles against 1F1B where the papers say the
// newer schedules shorten it. ZB-V (zero bubble with two chunks per rank in a V,
// parallel/ZeroBubbleV.h) also against its data dependencies.

#include "estimate/Estimate.h"
#include "estimate/MemoryModel.h"
#include "parallel/PipelineSchedule.h"

#include <QtTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <tuple>
#include <vector>

using namespace ts;

namespace {

struct Run {
    PipelineResult result;
    std::vector<TimelineEvent> timeline;
};

Run simulate(PipelineScheduleKind kind, int p, int v, std::int64_t m, double f, double b,
             double w) {
    const std::vector<double> fs(static_cast<std::size_t>(p) * v, f / v), bs(fs.size(), b / v),
        ws(fs.size(), w / v);
    PipelineInput in;
    in.schedule = kind;
    in.stages = p;
    in.chunks = v;
    in.microbatches = m;
    in.forwardSeconds = fs.data();
    in.backwardSeconds = bs.data();
    in.weightGradSeconds = ws.data();
    Run run;
    run.result = simulatePipeline(in, &run.timeline);
    return run;
}

// Peak activations held by `stage`, in whole micro-batches: each chunk's forward stashes 1/v
// of a micro-batch, its backward (the input-gradient half under zero bubble, after which
// only the small weight-gradient inputs remain; Qi et al. 2024 sec. 3) frees it.
double peakInFlight(const std::vector<TimelineEvent>& timeline, int stage, int v) {
    std::vector<std::pair<double, double>> deltas; // (time, +-1/v); frees sort first at ties
    for (const TimelineEvent& e : timeline) {
        if (e.stage != stage)
            continue;
        if (e.op == TimelineOp::Forward)
            deltas.emplace_back(e.startS, 1.0 / v);
        else if (e.op == TimelineOp::Backward || e.op == TimelineOp::BackwardInput)
            deltas.emplace_back(e.endS, -1.0 / v);
    }
    std::sort(deltas.begin(), deltas.end());
    double held = 0, peak = 0;
    for (const auto& [t, d] : deltas) {
        held += d;
        peak = std::max(peak, held);
    }
    return peak;
}

const char* nameOf(PipelineScheduleKind k) {
    switch (k) {
    case PipelineScheduleKind::GPipe:
        return "gpipe";
    case PipelineScheduleKind::OneFOneB:
        return "1f1b";
    case PipelineScheduleKind::Interleaved:
        return "interleaved";
    case PipelineScheduleKind::ZeroBubble:
        return "zero-bubble";
    case PipelineScheduleKind::BreadthFirst:
        return "breadth-first";
    }
    return "?";
}

// No rank runs two operations at once.
bool ranksSerial(const std::vector<TimelineEvent>& timeline, int p) {
    for (int s = 0; s < p; ++s) {
        std::vector<std::pair<double, double>> spans;
        for (const TimelineEvent& e : timeline)
            if (e.stage == s)
                spans.emplace_back(e.startS, e.endS);
        std::sort(spans.begin(), spans.end());
        for (std::size_t i = 1; i < spans.size(); ++i)
            if (spans[i].first < spans[i - 1].second - 1e-9)
                return false;
    }
    return true;
}

} // namespace

class TestSchedules : public QObject {
    Q_OBJECT
private slots:
    void memoryFormulaMatchesSimulation_data();
    void memoryFormulaMatchesSimulation();
    void newerSchedulesShortenTheBubble();
    void everyOperationRecorded();
    void zeroBubbleVBubble();
    void zeroBubbleVFollowsTheV();
};

void TestSchedules::memoryFormulaMatchesSimulation_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("p");
    QTest::addColumn<int>("v");
    QTest::addColumn<int>("m");
    using K = PipelineScheduleKind;
    // ZB-V with fewer micro-batches than its warm-up (2p - 1) takes.
    for (int p : {4, 8})
        for (int m : {1, 3, p, 2 * p - 2})
            QTest::addRow("zb-v p%d m%d", p, m) << int(K::ZeroBubble) << p << 2 << m;
    for (int p : {2, 4, 8})
        for (int m : {8, 16, 32}) {
            for (K k : {K::GPipe, K::OneFOneB, K::ZeroBubble})
                QTest::addRow("%s p%d m%d", nameOf(k), p, m) << int(k) << p << 1 << m;
            QTest::addRow("zb-v p%d m%d", p, m) << int(K::ZeroBubble) << p << 2 << m;
            for (int v : {2, 3}) {
                QTest::addRow("interleaved p%d v%d m%d", p, v, m)
                    << int(K::Interleaved) << p << v << m;
                QTest::addRow("breadth-first p%d v%d m%d", p, v, m)
                    << int(K::BreadthFirst) << p << v << m;
            }
        }
}

void TestSchedules::memoryFormulaMatchesSimulation() {
    QFETCH(int, kind);
    QFETCH(int, p);
    QFETCH(int, v);
    QFETCH(int, m);
    const auto k = static_cast<PipelineScheduleKind>(kind);
    const Run run = simulate(k, p, v, m, 1.0, 2.0, 1.0);
    QVERIFY(run.result.ok);
    for (int s = 0; s < p; ++s) {
        const double simulated = peakInFlight(run.timeline, s, v);
        const double formula = microbatchesInFlight(k, p, v, s, m);
        // The formula must never promise less memory than the schedule holds, and for these
        // regular schedules it is exact within one chunk's share.
        QVERIFY2(
            formula >= simulated - 1e-9 && formula <= simulated + 1.0 / v + 1e-9,
            qPrintable(
                QString("stage %1: formula %2, simulated %3").arg(s).arg(formula).arg(simulated)));
    }
}

void TestSchedules::newerSchedulesShortenTheBubble() {
    using K = PipelineScheduleKind;
    for (int p : {4, 8})
        for (std::int64_t m : {8, 16, 32}) {
            // F = 1, B = 2 (of which W = 1), per micro-batch and stage.
            const double work = 3.0 * double(m);
            const double oneFOneB = simulate(K::OneFOneB, p, 1, m, 1, 2, 1).result.makespanSeconds;
            const double bubble1f1b = oneFOneB - work;
            QVERIFY(std::abs(bubble1f1b - 3.0 * (p - 1)) < 1e-9); // (p - 1)(F + B)
            // ZB-H1: (p - 1)(F + B - 2W) at best, about a third of 1F1B's (Qi et al. 2024,
            // sec. 2.1), with 1F1B's memory.
            const double zb = simulate(K::ZeroBubble, p, 1, m, 1, 2, 1).result.makespanSeconds;
            QVERIFY2(zb - work < 0.5 * bubble1f1b, qPrintable(QString::number(zb - work)));
            // Interleaved 1F1B: the bubble divided by v (Narayanan et al. 2021, sec. 2.2.2).
            for (int v : {2, 4}) {
                if (m % p != 0)
                    continue;
                const double il =
                    simulate(K::Interleaved, p, v, m, 1, 2, 1).result.makespanSeconds - work;
                QVERIFY2(std::abs(il - bubble1f1b / v) < 1e-6,
                         qPrintable(QString("interleaved v%1: %2").arg(v).arg(il)));
                // Breadth-first: GPipe's bubble (p - 1)(F + B) divided by v (Lamy-Poirier
                // 2023, sec. 3), below 1F1B's for v > 1.
                const double bf =
                    simulate(K::BreadthFirst, p, v, m, 1, 2, 1).result.makespanSeconds - work;
                QVERIFY2(std::abs(bf - bubble1f1b / v) < 1e-6,
                         qPrintable(QString("breadth-first v%1: %2").arg(v).arg(bf)));
            }
        }
}

void TestSchedules::everyOperationRecorded() {
    using K = PipelineScheduleKind;
    const int p = 4, v = 2;
    const std::int64_t m = 8;
    // The four single-list schedules, then ZB-V (zero bubble with two chunks per rank).
    for (int i = 0; i < 6; ++i) {
        const K k = i < 5 ? std::array{K::GPipe, K::OneFOneB, K::Interleaved, K::ZeroBubble,
                                       K::BreadthFirst}[i]
                          : K::ZeroBubble;
        const int chunks = (k == K::Interleaved || k == K::BreadthFirst || i == 5) ? v : 1;
        const Run run = simulate(k, p, chunks, m, 1, 2, 1);
        QVERIFY(run.result.ok);
        std::map<TimelineOp, long> count;
        for (const TimelineEvent& e : run.timeline)
            ++count[e.op];
        const long expected = long(p) * chunks * m;
        QCOMPARE(count[TimelineOp::Forward], expected);
        if (k == K::ZeroBubble) {
            QCOMPARE(count[TimelineOp::BackwardInput], expected);
            QCOMPARE(count[TimelineOp::BackwardWeight], expected);
        } else {
            QCOMPARE(count[TimelineOp::Backward], expected);
        }
        QVERIFY(ranksSerial(run.timeline, p));
    }
}

void TestSchedules::zeroBubbleVBubble() {
    // F = B = W per stage (Qi et al. 2024, sec. 6: ZB-V's bubble is near zero with 1F1B's
    // memory). Each ZB-V chunk holds half a stage, so its passes take 1/2; the last rank's
    // first input comes after p - 1 such forwards, an idle time no schedule avoids, and the
    // only one ZB-V leaves: (p - 1) / 2, against ZB-H1's ~ (p - 1) and 1F1B's 3 (p - 1).
    using K = PipelineScheduleKind;
    for (int p : {2, 4, 8})
        for (std::int64_t m : {8, 16, 32, 64}) {
            if (m < 2 * p)
                continue;
            const double work = 3.0 * double(m);
            const double bubble1f1b =
                simulate(K::OneFOneB, p, 1, m, 1, 2, 1).result.makespanSeconds - work;
            const double bubbleH1 =
                simulate(K::ZeroBubble, p, 1, m, 1, 2, 1).result.makespanSeconds - work;
            const Run v = simulate(K::ZeroBubble, p, 2, m, 1, 2, 1);
            QVERIFY(v.result.ok);
            const double bubbleV = v.result.makespanSeconds - work;
            if (p == 4)
                qInfo("p = 4, m = %lld, F = B = W = 1: bubble 1F1B %.2f, ZB-H1 %.2f, ZB-V %.2f",
                      static_cast<long long>(m), bubble1f1b, bubbleH1, bubbleV);
            QVERIFY2(bubbleV < bubbleH1 - 1e-9 && bubbleH1 < bubble1f1b - 1e-9,
                     qPrintable(QString("p%1 m%2: 1f1b %3 zb-h1 %4 zb-v %5")
                                    .arg(p)
                                    .arg(m)
                                    .arg(bubble1f1b)
                                    .arg(bubbleH1)
                                    .arg(bubbleV)));
            QVERIFY2(std::abs(bubbleV - 0.5 * (p - 1)) < 1e-9,
                     qPrintable(QString::number(bubbleV)));
            // Every rank busy from its first operation to the end: all of ZB-V's idle time is
            // the warm-up's.
            for (int s = 0; s < p; ++s) {
                double first = 1e300, last = 0;
                for (const TimelineEvent& e : v.timeline)
                    if (e.stage == s) {
                        first = std::min(first, e.startS);
                        last = std::max(last, e.endS);
                    }
                QVERIFY(std::abs((last - first) - work) < 1e-9);
            }
        }
}

void TestSchedules::zeroBubbleVFollowsTheV() {
    // Random pass times (B slower or faster than F, W anywhere from 0 to F, the output layer
    // on rank 0's second chunk), point-to-point delays and micro-batch counts from 1 up: every
    // pass once, after its input (the V: chunk 0 down the ranks, chunk 1 back up, the loss on
    // rank 0, rank p - 1 feeding itself without a transfer), W after its own B, and the
    // activations exactly as microbatchesInFlight says, W-held inputs never above 2p chunks.
    std::mt19937 rng(7);
    const auto uniform = [&](double a, double b) {
        return std::uniform_real_distribution<double>(a, b)(rng);
    };
    for (int trial = 0; trial < 300; ++trial) {
        const int p = 1 + int(rng() % 10);
        const std::int64_t m = 1 + std::int64_t(rng() % (3 * p + 2));
        std::vector<double> f(2 * p), b(2 * p), w(2 * p);
        const double fBase = uniform(0.2, 1.0), bRatio = uniform(0.7, 1.6),
                     wRatio = uniform(0.0, 1.0);
        for (int i = 0; i < 2 * p; ++i) {
            f[i] = fBase * uniform(0.9, 1.1);
            w[i] = f[i] * wRatio;
            b[i] = f[i] * bRatio + w[i]; // backwardSeconds holds B + W
        }
        f[1] += uniform(0, 0.5); // rank 0's chunk 1: the output layer and the loss
        b[1] += uniform(0, 1.0);
        PipelineInput in;
        in.schedule = PipelineScheduleKind::ZeroBubble;
        in.stages = p;
        in.chunks = 2;
        in.microbatches = m;
        in.forwardSeconds = f.data();
        in.backwardSeconds = b.data();
        in.weightGradSeconds = w.data();
        in.edgeDelaySeconds = rng() % 2 ? uniform(0, 0.2) : 0.0;
        std::vector<TimelineEvent> timeline;
        const PipelineResult r = simulatePipeline(in, &timeline);
        QVERIFY(r.ok && !r.extrapolated);
        QCOMPARE(std::int64_t(timeline.size()), 6 * m * p);
        QVERIFY(ranksSerial(timeline, p));
        std::map<std::tuple<int, int, int, int>, const TimelineEvent*> ops; // op, stage, chunk, mb
        for (const TimelineEvent& e : timeline)
            QVERIFY(
                ops.emplace(std::make_tuple(int(e.op), e.stage, e.chunk, e.microbatch), &e).second);
        const auto endOf = [&](TimelineOp op, int s, int c, int j) {
            const auto it = ops.find(std::make_tuple(int(op), s, c, j));
            return it == ops.end() ? 1e300 : it->second->endS;
        };
        const double d = in.edgeDelaySeconds, eps = 1e-9;
        using Op = TimelineOp;
        for (const TimelineEvent& e : timeline) {
            const int s = e.stage, c = e.chunk, j = e.microbatch;
            double ready = 0;
            if (e.op == Op::Forward && c == 0)
                ready = s == 0 ? 0.0 : endOf(Op::Forward, s - 1, 0, j) + d;
            else if (e.op == Op::Forward)
                ready =
                    s == p - 1 ? endOf(Op::Forward, s, 0, j) : endOf(Op::Forward, s + 1, 1, j) + d;
            else if (e.op == Op::BackwardInput && c == 1)
                ready = s == 0 ? endOf(Op::Forward, 0, 1, j)
                               : endOf(Op::BackwardInput, s - 1, 1, j) + d;
            else if (e.op == Op::BackwardInput)
                ready = s == p - 1 ? endOf(Op::BackwardInput, s, 1, j)
                                   : endOf(Op::BackwardInput, s + 1, 0, j) + d;
            else
                ready = endOf(Op::BackwardInput, s, c, j);
            QVERIFY2(e.startS >= ready - eps,
                     qPrintable(QString("p%1 m%2: op %3 stage %4 chunk %5 mb %6")
                                    .arg(p)
                                    .arg(m)
                                    .arg(int(e.op))
                                    .arg(s)
                                    .arg(c)
                                    .arg(j)));
        }
        for (int s = 0; s < p; ++s) {
            QCOMPARE(peakInFlight(timeline, s, 2),
                     microbatchesInFlight(PipelineScheduleKind::ZeroBubble, p, 2, s, m));
            // Chunk activations until W (its inputs), at most 2p: 1F1B's p micro-batches.
            std::vector<std::pair<double, int>> deltas;
            for (const TimelineEvent& e : timeline)
                if (e.stage == s && e.op == Op::Forward)
                    deltas.emplace_back(e.startS, 1);
                else if (e.stage == s && e.op == Op::BackwardWeight)
                    deltas.emplace_back(e.endS, -1);
            std::sort(deltas.begin(), deltas.end());
            int held = 0, peak = 0;
            for (const auto& [t, delta] : deltas)
                peak = std::max(peak, held += delta);
            QVERIFY(peak <= 2 * p);
        }
    }
}

QTEST_GUILESS_MAIN(TestSchedules)
#include "tst_schedules.moc"
