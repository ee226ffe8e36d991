#pragma once
// The plan keys of hybrid sharding and context-parallel communication, resolved once dp is
// known: parallelism.dp_shard and parallelism.cp_comm. Errors name their JSON path.

#include "common/Diagnostics.h"
#include "scenario/ModelConfig.h"
#include "scenario/PlanConfig.h"
#include "scenario/Scenario.h"

namespace ts {

// dp_shard (null or absent = dp): a divisor of dp, and below dp only with zero >= 1.
// `dpKnown` is false when dp itself was refused (then dp_shard is not checked against it).
// Reads p.dp and p.zero; sets p.dpShard. Returns false after reporting an error.
bool resolveDpShard(const ParallelInput& in, bool dpKnown, ParallelConfig& p, Diagnostics& diags);

// cp_comm (default "p2p"): "a2a" (DeepSpeed-Ulysses) needs the heads, and the KV heads unless
// MLA, to split over tp*cp. Reads p.tp and p.cp; sets p.cpComm.
bool resolveCpComm(const ParallelInput& in, const ModelConfig& model, ParallelConfig& p,
                   Diagnostics& diags);

} // namespace ts
