#pragma once
// Reading the plain-text tables that the nccl-tests programs print (all_reduce_perf,
// all_gather_perf, reduce_scatter_perf, alltoall_perf, sendrecv_perf; NVIDIA/nccl-tests
// src/common.cu), and fitting latency and bus bandwidth to them.
//
// The layout, as the programs print it (versions 2.x; older ones lack the "Group" column,
// the version line and the "Collective test" lines):
//   # nccl-tests version 2.17.1 nccl-headers=... nccl-library=...
//   # Collective test starting: all_reduce_perf
//   # nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 ...
//   #
//   # Using devices
//   #  Rank  0 Group  0 Pid   6899 on     node-a device  0 [0000:04:00] NVIDIA H100 80GB HBM3
//   ...
//   #       size   count   type   redop    root     time   algbw   busbw #wrong     time ...
//   #        (B) (elements)                          (us)  (GB/s)  (GB/s)            (us) ...
//            8        2   float     sum      -1    135.8    0.00    0.00      0    123.5 ...
//   # Out of bounds values : 0 OK
//   # Avg bus bandwidth    : 70.742
// mpirun's "[1,0]<stdout>:" prefixes and interleaved "NCCL INFO" lines are tolerated.

#include "calibration/CalibrationProfile.h"

#include <optional>
#include <string>
#include <vector>

namespace ts {

struct NcclTestsRow {
    int line = 0;
    double bytes = 0;
    double timeUs = 0; // out-of-place
    double algbwGBps = 0;
    double busbwGBps = 0;
    double inPlaceTimeUs = 0;
};

struct NcclTestsLog {
    std::string program; // "all_reduce_perf" when the log names it, else ""
    Collective collective = Collective::AllReduce;
    int ranks = 0;
    int nodes = 0;
    std::vector<std::string> hosts; // distinct, in rank order
    std::string deviceName;         // of rank 0, e.g. "NVIDIA H100 80GB HBM3"
    std::vector<NcclTestsRow> rows;
    std::optional<double> reportedAvgBusbwGBps;
};

struct NcclLogError {
    int line = 0; // 1-based; the line where the problem was found
    std::string message;
};

// Parses one log. `fileName` helps to name the collective (all_gather_perf.log) when the log
// does not; `collectiveHint` (from the command line) overrides both. Refuses empty, truncated,
// failing and foreign logs with the line where it noticed.
std::optional<NcclTestsLog> parseNcclTestsLog(const std::string& text, const std::string& fileName,
                                              std::optional<Collective> collectiveHint,
                                              NcclLogError& error);

struct AlphaBetaFit {
    double latencyUs = 0;
    double busbwGBps = 0;
    int rowsUsed = 0;
    int rowsDropped = 0;
    double rmsRelativeError = 0; // of the rows used (of all rows for a two-regime fit)
    bool twoRegime = false;      // see fitAlphaBeta
};

// Least squares of time = alpha + bytes x factor / busbw over the rows with bytes > 0,
// weighted by 1/time^2 so that small and large messages count by their relative error (plain
// least squares lets the largest message decide the latency). Rows that stay far off the fit
// (protocol switches, the small-message plateau's noise) are dropped and the fit repeated:
// residual above max(3 x 1.4826 x median |residual|, 5%). When the rows still disagree with
// one line (rms above 3%, or over a quarter dropped), as real logs do where NCCL switches
// protocol or algorithm with size, the fit takes two regimes instead: latency = median time of
// the small-message plateau (times within 1.25x the fastest), bus bandwidth = the slope over the
// rows at or above half the peak bus bandwidth. Nullopt with `error` set when the times do
// not grow with the size.
std::optional<AlphaBetaFit> fitAlphaBeta(const std::vector<CollectivePoint>& points,
                                         Collective collective, int ranks, std::string& error);

std::vector<CollectivePoint> collectivePoints(const NcclTestsLog& log);

// One profile entry from a parsed log: scope by node count, the fit and the points.
std::optional<CollectiveMeasurement> measurementFromLog(const NcclTestsLog& log,
                                                        std::string& error);

} // namespace ts
