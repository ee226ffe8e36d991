// The five pipeline schedules in one event simulation (core/parallel/PipelineSchedule.h):
// each schedule's activation memory formula (estimate/MemoryModel.h microbatchesInFlight)
// against the peak number of micro-batches whose forward has run and whose backward has not,
// read from the simulated timeline; and the bubbles against 1F1B where the papers say the
// newer schedules shorten it.

#include "estimate/Estimate.h"
#include "estimate/MemoryModel.h"
#include "parallel/PipelineSchedule.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

using namespace ts;

namespace {

struct Run {
    PipelineResult result;
    std::vector<TimelineEvent> timeline;
};

Run simulate(PipelineScheduleKind kind, int p, int v, std::int64_t m, double f, double b,
             double w) {
    const std::vector<double> fs(static_cast<std::size_t>(p) * v, f / v),
        bs(fs.size(), b / v), ws(fs.size(), w / v);
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

} // namespace

class TestSchedules : public QObject {
    Q_OBJECT
private slots:
    void memoryFormulaMatchesSimulation_data();
    void memoryFormulaMatchesSimulation();
    void newerSchedulesShortenTheBubble();
    void everyOperationRecorded();
};

void TestSchedules::memoryFormulaMatchesSimulation_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("p");
    QTest::addColumn<int>("v");
    QTest::addColumn<int>("m");
    using K = PipelineScheduleKind;
    for (int p : {2, 4, 8})
        for (int m : {8, 16, 32}) {
            for (K k : {K::GPipe, K::OneFOneB, K::ZeroBubble})
                QTest::addRow("%s p%d m%d", nameOf(k), p, m) << int(k) << p << 1 << m;
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
        QVERIFY2(formula >= simulated - 1e-9 && formula <= simulated + 1.0 / v + 1e-9,
                 qPrintable(QString("stage %1: formula %2, simulated %3")
                                .arg(s)
                                .arg(formula)
                                .arg(simulated)));
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
            // sec. 3.1 and Table 2), with 1F1B's memory.
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
    for (K k : {K::GPipe, K::OneFOneB, K::Interleaved, K::ZeroBubble, K::BreadthFirst}) {
        const int chunks = (k == K::Interleaved || k == K::BreadthFirst) ? v : 1;
        const Run run = simulate(k, p, chunks, m, 1, 2, 1);
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
        // No rank runs two operations at once.
        for (int s = 0; s < p; ++s) {
            std::vector<std::pair<double, double>> spans;
            for (const TimelineEvent& e : run.timeline)
                if (e.stage == s)
                    spans.emplace_back(e.startS, e.endS);
            std::sort(spans.begin(), spans.end());
            for (std::size_t i = 1; i < spans.size(); ++i)
                QVERIFY(spans[i].first >= spans[i - 1].second - 1e-9);
        }
    }
}

QTEST_GUILESS_MAIN(TestSchedules)
#include "tst_schedules.moc"
