#pragma once
// ZB-V: the zero-bubble schedule with two chunks per rank placed in a V (Qi et al. 2024, "Zero
// Bubble Pipeline Parallelism", ICLR 2024, arXiv 2401.10241, sec. 6; the V-ZB schedule of
// Qi et al. 2024, "Pipeline Parallelism with Controllable Memory", NeurIPS 2024, arXiv
// 2405.15362, sec. 4).
//
// Placement (PipelineSchedule.h chunkModelIndex): rank s holds model chunks s and 2p - 1 - s,
// so a micro-batch's forward runs down the ranks on their chunk 0 and back up on their chunk
// 1; the loss, and so every backward's start, is on rank 0. The backward is split as in ZB-H1
// (ScheduleKinds.h) into B (input gradient, which the previous chunk waits for) and W (weight
// gradient, which nobody waits for).
//
// Policy: a greedy list scheduler. Each rank has the F/B/W order of the paper's ZB-V
// schedule (ZB paper sec. 6 and its ZB-V figure; PyTorch's ScheduleZBVZeroBubble writes the
// same order):
//   warm-up:   2(p - s) - 1 forwards of chunk 0, s pairs (F1, F0), p - s triples (F1, B1, W1);
//   steady:    (F0, B0, W0, F1, B1, W1) per micro-batch until the forwards are used up;
//   cool-down: s pairs (B0, B1), p - s pairs (B0, W0), then the remaining W1 and W0.
// At every moment a rank is free it runs, in this priority:
//   1. the next operation of its order, if that is a W or an F/B whose input has arrived;
//   2. else its oldest pending W (its B done), when the next F/B's input has no known
//      arrival yet or arrives after the W would end: W fills the idle time (ZB paper sec. 3.1,
//      the heuristic: "we insert W to fill the bubble");
//   3. else it waits for the next arrival.
// A W thus runs anywhere between its B and its place in the order, never later: the weight-
// gradient inputs it keeps are never more than the figure's, and the F/B order (hence the
// activations) is the figure's, whose peak is 2p chunk activations on every rank, p micro-
// batches of a stage with half-size chunks: 1F1B's first stage (ZB paper sec. 6: ZB-V keeps
// 1F1B's peak memory). With F = B = W per chunk the only idle time left is the p - 1
// chunk-forwards the last rank waits for at the start, which no schedule avoids.

#include "parallel/PipelineSchedule.h"

#include <cstdint>
#include <vector>

namespace ts {

// `in.chunks` must be 2; `in.weightGradSeconds` (optional) is the W part of each backward.
// Above `maxEvents` operations (6 m p) it simulates a shorter run with the same number of
// micro-batches modulo p, checks that the run's whole state (each rank's place in its order,
// pending W passes, free time and the unconsumed outputs of its neighbours) repeats itself
// after p micro-batches, shifted in time by one period, and shifts the finish times by one
// period per missing group of p micro-batches; exact, since the policy depends on that state
// only. When no period is found it doubles the run, up to the full schedule. Ranks decide in
// order of time, the lower rank first at equal times; when a decision from the first compared
// state on rests on a tie between a rank and the neighbour that produces its next input
// (which of them decides first then depends on the rounding of their times, and so does
// whether the rank fills its wait with a W), the longer run may round it the other way: it is
// simulated in full. The ranks take turns through a tournament tree: O(log p) per decision.
PipelineResult simulateZeroBubbleV(const PipelineInput& in, std::vector<TimelineEvent>* timeline,
                                   std::int64_t maxEvents);

// Peak activations rank `stage` stashes, in chunk activations (half a stage's micro-batch
// each), read from its F/B order: min(2p, 2m, m + s + 1). For m >= 2p - 1 this is 2p on
// every rank.
std::int64_t zeroBubbleVPeakChunks(int stages, int stage, std::int64_t microbatches);

} // namespace ts
