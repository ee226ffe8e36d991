#include "parallel/FlowShop.h"

#include <algorithm>

namespace ts {

namespace {

// Machines in processing order with their job times and release times: returns E(q, m - 1)
// for every q. `release(q, ends)` may read the ends of machines before q.
template <class Release>
std::vector<double> lastJobEnds(const std::vector<double>& t, double delay, std::int64_t m,
                                Release release) {
    const std::size_t n = t.size();
    std::vector<double> ends(n, 0.0);
    const double extraJobs = double(m - 1);
    for (std::size_t q = 0; q < n; ++q) {
        double best = 0, sum = 0, slowest = 0;
        for (std::size_t k = q + 1; k-- > 0;) {
            sum += t[k];
            slowest = std::max(slowest, t[k]);
            const double path =
                release(k, ends) + sum + double(q - k) * delay + extraJobs * slowest;
            best = std::max(best, path);
        }
        ends[q] = best;
    }
    return ends;
}

} // namespace

bool hasFlowShopForm(const PipelineInput& in) {
    return (in.schedule == PipelineScheduleKind::GPipe && in.chunks <= 1) ||
           in.schedule == PipelineScheduleKind::BreadthFirst;
}

PipelineResult flowShopSchedule(const PipelineInput& in) {
    PipelineResult result;
    const int p = std::max(1, in.stages);
    const int v = std::max(1, in.chunks);
    const std::int64_t m = std::max<std::int64_t>(1, in.microbatches);
    const std::size_t n = static_cast<std::size_t>(p) * v;
    // Forward machine q = c p + s (the looping placement); backward machine r = n - 1 - q.
    std::vector<double> f(n), b(n);
    for (int c = 0; c < v; ++c)
        for (int s = 0; s < p; ++s) {
            const std::size_t q = static_cast<std::size_t>(c) * p + s;
            const std::size_t idx = static_cast<std::size_t>(s) * v + c;
            f[q] = in.forwardSeconds[idx];
            b[n - 1 - q] = in.backwardSeconds[idx];
        }
    const double delay = in.edgeDelaySeconds;
    // A rank's chunk c starts after its chunk c - 1 (the machine p earlier).
    const std::vector<double> fEnd =
        lastJobEnds(f, delay, m, [&](std::size_t q, const std::vector<double>& ends) {
            return q >= static_cast<std::size_t>(p) ? ends[q - p] : 0.0;
        });
    // Backwards: a rank's last chunk starts after its last forward; chunk c after chunk c + 1.
    // The first backward machine takes its input from its own forward, with no delay: its
    // release (that rank's last forward) already covers it, so the path starts there.
    const std::vector<double> bEnd =
        lastJobEnds(b, delay, m, [&](std::size_t r, const std::vector<double>& ends) {
            if (r >= static_cast<std::size_t>(p))
                return ends[r - p];
            const std::size_t q = n - 1 - r; // this rank's last forward machine
            return fEnd[q];
        });
    result.stageEndSeconds.assign(p, 0.0);
    result.stageBusySeconds.assign(p, 0.0);
    for (int s = 0; s < p; ++s) {
        result.stageEndSeconds[s] = bEnd[n - 1 - static_cast<std::size_t>(s)]; // chunk 0
        for (int c = 0; c < v; ++c) {
            const std::size_t idx = static_cast<std::size_t>(s) * v + c;
            result.stageBusySeconds[s] +=
                double(m) * (in.forwardSeconds[idx] + in.backwardSeconds[idx]);
        }
    }
    result.makespanSeconds =
        *std::max_element(result.stageEndSeconds.begin(), result.stageEndSeconds.end());
    result.simulatedMicrobatches = 0;
    result.extrapolated = true;
    return result;
}

} // namespace ts
