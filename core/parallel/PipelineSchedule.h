#pragma once
// Pipeline schedules as a small event simulation over per-stage forward and backward times.
//
// Schedules (Narayanan et al. 2021, SC'21, sec. 2.2):
// - GPipe: all forwards, then all backwards (Huang et al. 2019).
// - 1F1B (PipeDream-Flush): stage s runs min(m, p - s - 1) warm-up forwards, then alternates
//   one forward and one backward, then drains the remaining backwards.
// - Interleaved 1F1B: each rank holds v model chunks; warm-up is (p - s - 1) * 2 + (v - 1) * p
//   chunk-forwards, micro-batches go through the chunks in groups of p (Megatron-LM
//   schedules.py, forward_backward_pipelining_with_interleaving).
// - Zero bubble: ZB-H1 with one chunk per rank (parallel/ScheduleKinds.h), ZB-V with two
//   chunks per rank placed in a V (parallel/ZeroBubbleV.h).
// The simulation respects each rank's operation order and the data dependencies between
// stages (activations forward, gradients backward), each delayed by `edgeDelaySeconds`.

#include "estimate/Estimate.h"
#include "scenario/Enums.h"

#include <cstdint>
#include <vector>

namespace ts {

struct PipelineInput {
    PipelineScheduleKind schedule = PipelineScheduleKind::OneFOneB;
    int stages = 1;
    int chunks = 1; // virtual stages per rank (interleaving; ZB-V: 2)
    std::int64_t microbatches = 1;
    // Seconds per micro-batch, indexed [stage * chunks + chunk] (chunk: the rank's own
    // numbering; chunkModelIndex gives the model chunk it holds).
    const double* forwardSeconds = nullptr;
    const double* backwardSeconds = nullptr;
    double edgeDelaySeconds = 0; // p2p latency between a producer and its consumer
    // Zero bubble (parallel/ScheduleKinds.h): the weight-gradient part of each backward.
    const double* weightGradSeconds = nullptr;
};

struct PipelineResult {
    double makespanSeconds = 0;             // first forward start to last backward end
    std::vector<double> stageEndSeconds;    // when each rank finishes its last backward
    std::vector<double> stageBusySeconds;   // sum of its operation times
    std::int64_t simulatedMicrobatches = 0; // the timeline covers these
    bool extrapolated = false;              // steady state shifted beyond them (exact)
    bool ok = true;
};

// Chunk placement. A micro-batch visits the pp * vpp model chunks in order. The looping
// placement (Megatron-LM interleaved, breadth-first) puts model chunk c * pp + s on rank s as
// its chunk c. ZB-V (zero bubble with vpp = 2; Qi et al. 2024, "Zero Bubble Pipeline
// Parallelism", arXiv 2401.10241, sec. 6) places them in a V: rank s holds model chunk s as
// its chunk 0 and model chunk 2p - 1 - s as its chunk 1, so the forward runs down the ranks
// and back up, and the first chunk (embedding) and the last (output layer, loss) are both on
// rank 0; rank p - 1 feeds its own second chunk, without a point-to-point transfer.
bool isVShaped(PipelineScheduleKind schedule, int chunks);
int chunkModelIndex(PipelineScheduleKind schedule, int stages, int chunks, int stage, int chunk);
struct ChunkPlace {
    int stage = 0;
    int chunk = 0;
};
// The rank (and its chunk) that holds model chunk `index`: the inverse of chunkModelIndex.
ChunkPlace modelChunkPlace(PipelineScheduleKind schedule, int stages, int chunks, int index);

// Bubble fraction of 1F1B with equal stages and no delays: (p - 1) / (m + p - 1)
// (Narayanan et al. 2021, sec. 2.2.1), for tests and quick checks.
double oneFOneBBubbleFraction(int stages, std::int64_t microbatches);

// Runs the schedule. Above `maxEvents` operations it simulates a shorter run with the same
// number of micro-batches modulo p, checks that the run reached its periodic steady state
// before its cool-down (steadyStatePeriod in the .cpp), and shifts the finish times by one
// period per missing group of p micro-batches: exact, not an approximation; when the check
// fails it doubles the run, up to the full schedule. `timeline`, when given, receives the
// simulated operations.
PipelineResult simulatePipeline(const PipelineInput& input, std::vector<TimelineEvent>* timeline,
                                std::int64_t maxEvents = 1LL << 40);

} // namespace ts
