#pragma once
// Pipeline schedules simulated from explicit per-rank operation lists (the schedules of
// PipelineSchedule.cpp use its faster simulation; ZB-H1 extrapolates as they do):
//
// - Zero bubble, ZB-H1 (Qi et al. 2024, "Zero Bubble Pipeline Parallelism", arXiv
//   2401.10241, sec. 2.1): the backward is split into the input-gradient pass B, which the
//   previous stage waits for, and the weight-gradient pass W, which nobody waits for. Each
//   rank keeps 1F1B's warm-up (p - s - 1 forwards) and F/B alternation, and postpones its W
//   passes: rank s runs W of micro-batch j after B of micro-batch j + s, and its last s W
//   passes after its last B, so that the B passes travel back to the first rank sooner and
//   the later ranks' deferred W passes fill their cool-down. Rank s holds p - s micro-batches
//   in flight plus s partial ones, so the peak stays the first rank's, as in 1F1B; the
//   bubble shrinks from (p - 1)(F + B + W) to about (p - 1)(F + B - W).
// - Breadth-first (Lamy-Poirier 2023, "Breadth-First Pipeline Parallelism", arXiv
//   2211.05953): with v chunks per rank (looping placement), every micro-batch goes through
//   chunk c on all ranks before any goes through chunk c + 1, forwards first, then the
//   backwards in reverse chunk order (a looped GPipe). Every micro-batch is in flight at the
//   end of the forwards; the bubble is GPipe's divided by v.
//
// Zero bubble with two chunks per rank is ZB-V, simulated by parallel/ZeroBubbleV.h.
// The timeline records F as Forward, B as BackwardInput and W as BackwardWeight (zero bubble)
// or the whole backward as Backward (breadth-first).

#include "parallel/PipelineSchedule.h"

namespace ts {

bool isListSchedule(PipelineScheduleKind kind);

// `in.weightGradSeconds` (zero bubble): the W part of each backward, [stage * chunks + chunk].
// ZB-H1 above `maxEvents` operations (3 m p) simulates a shorter run with the same number of
// micro-batches modulo p, checks that it reached its periodic steady state before its
// cool-down (every rank's last operation, and the neighbours' outputs its later operations
// take, one group of p micro-batches apart, ended exactly one period apart), and shifts the
// finish times by one period per missing group: exact, as for 1F1B (PipelineSchedule.h);
// when the check fails it doubles the run, up to the full schedule. Breadth-first always
// simulates every operation.
PipelineResult simulateListSchedule(const PipelineInput& in, std::vector<TimelineEvent>* timeline,
                                    std::int64_t maxEvents);

} // namespace ts
