#pragma once
// One estimate of a plan over pools of unlike GPUs (shared/spec/scenario-format.md,
// "Heterogeneous clusters"; issue 32). Composed from the homogeneous estimator's stages
// (estimate/EstimateStages.h), run once per stage view (scenario/PoolResolver.h):
//
// - Each stage costs its layers on its own pool's GPU: the forward and backward of its chunks,
//   its exposed collectives, its gradient reduction and its memory are those of the stage in
//   its view, the homogeneous plan on that pool's GPUs with that stage's tp (Metis, Um et al.,
//   ATC'24, sec. 4: per-stage cost from the device type's profile; Sailor, SOSP'25, its
//   simulator's per-stage forward/backward times per GPU type).
// - Each pipeline entry's schedule is the event simulation of parallel/PipelineSchedule.h
//   over those unlike stage times: the slowest stage sets the steady state, warm-up and drain
//   add the others (Narayanan et al., SC'21, sec. 2.2; Megatron-LM schedules.py).
// - The replicas meet at each stage's gradient reduction: it starts when the last replica has
//   finished that stage's backward and runs at the slowest link and GPU of its ring (Sailor's
//   straggler model: the iteration is set by the slowest data-parallel replica; the ring
//   all-reduce's bandwidth term is that of its slowest link, Patarasuk and Yuan 2009).
// - Point-to-point between stages on different pools crosses cluster.pool_link_gbit_s when
//   given (per node), else the slower node's NICs (the shared scale-out network).
// - Memory per pool; energy and cost sum the stages' GPUs at their own power and price.

#include "common/Diagnostics.h"
#include "estimate/Estimate.h"
#include "scenario/ResolvedScenario.h"

#include <optional>

namespace ts {

struct EstimatorSettings; // estimate/Estimator.h

// `settings` gives the schedule options (timeline, event budget); the hardware of each stage
// comes from its own view. Nullopt, with an error naming the path, for a stage the estimator
// does not model.
std::optional<Estimate> estimateHeteroPlan(const ResolvedScenario& scenario,
                                           const EstimatorSettings& settings, Diagnostics& diags);

} // namespace ts
