#pragma once
// Pipelines of equal stages for the schedule tests: every rank's chunks take the same time.

#include "parallel/PipelineSchedule.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ts::test {

// `kind` on p ranks of v chunks each, m micro-batches; a micro-batch's forward, backward and
// weight-gradient seconds on one rank are f, b and w, split evenly over its v chunks.
// `timeline`, when given, receives the simulated operations.
inline PipelineResult simulateEven(PipelineScheduleKind kind, int p, int v, std::int64_t m,
                                   double f, double b, double w,
                                   std::vector<TimelineEvent>* timeline = nullptr) {
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
    return simulatePipeline(in, timeline);
}

} // namespace ts::test
