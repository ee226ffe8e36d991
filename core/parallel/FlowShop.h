#pragma once
// GPipe and breadth-first schedules in closed form, for step times of any number of
// micro-batches at the cost of (pp * vpp)^2 operations instead of 2 pp vpp m.
//
// Both are flow shops of identical jobs: every micro-batch visits the model chunks in the same
// order (forwards through chunks 0 .. pp*vpp - 1, then backwards in reverse), each rank runs a
// chunk's m micro-batches in a row, and a chunk starts once its rank is free (its previous
// chunk's last micro-batch) and its input has arrived (one edge delay later). The end of job
// j on machine q is then a longest path in a grid (max-plus algebra; Baccelli et al. 1992,
// "Synchronization and Linearity", ch. 3): entering at machine k when it is released (R_k),
// passing machines k .. q once each with the delays between them, and running the j other jobs
// on the slowest machine among them:
//
//     E(q, j) = max over k <= q of  R_k + sum_{i=k..q} t_i + sum_{i=k+1..q} delay + j max t_i
//
// which is what the event simulation computes (tst_schedules checks it against full runs).

#include "parallel/PipelineSchedule.h"

namespace ts {

// Whether `input` is a schedule the closed form covers (GPipe with one chunk per rank,
// breadth-first with any).
bool hasFlowShopForm(const PipelineInput& input);

// Stage ends, makespan and busy times of the whole schedule (no timeline).
PipelineResult flowShopSchedule(const PipelineInput& input);

} // namespace ts
