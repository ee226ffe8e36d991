#include "calibration/NcclTestsLog.h"

#include "common/JsonObjectReader.h"
#include "scenario/Limits.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

namespace ts {

namespace {

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::string line;
    std::istringstream in(text);
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(line);
    }
    return lines;
}

// Open MPI's --tag-output prefix "[1,0]<stdout>:".
std::string stripLauncherPrefix(const std::string& line) {
    if (line.empty() || line[0] != '[')
        return line;
    const auto close = line.find("]<std");
    if (close == std::string::npos)
        return line;
    const auto colon = line.find(">:", close);
    return colon == std::string::npos ? line : line.substr(colon + 2);
}

std::vector<std::string> tokens(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    std::string token;
    while (in >> token)
        out.push_back(token);
    return out;
}

bool isInteger(const std::string& token) {
    return !token.empty() &&
           std::all_of(token.begin(), token.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::optional<double> toNumber(const std::string& token) {
    if (token.empty())
        return std::nullopt;
    char* end = nullptr;
    const double value = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::string quoted(const std::string& line) {
    std::string text = line.size() > 60 ? line.substr(0, 57) + "..." : line;
    return "\"" + text + "\"";
}

// The collective a program or file name stands for; `foreign` is set for nccl-tests programs
// whose collective Trainscape does not model.
std::optional<Collective> collectiveFromText(std::string text, std::string& foreign) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::pair<const char*, Collective> known[] = {
        {"all_reduce", Collective::AllReduce},
        {"allreduce", Collective::AllReduce},
        {"all_gather", Collective::AllGather},
        {"allgather", Collective::AllGather},
        {"reduce_scatter", Collective::ReduceScatter},
        {"reducescatter", Collective::ReduceScatter},
        {"alltoall", Collective::AllToAll},
        {"all_to_all", Collective::AllToAll},
        {"sendrecv", Collective::SendRecv},
        {"send_recv", Collective::SendRecv}};
    for (const auto& [name, kind] : known)
        if (text.find(name) != std::string::npos)
            return kind;
    for (const char* other :
         {"broadcast_perf", "reduce_perf", "gather_perf", "scatter_perf", "hypercube_perf"})
        if (text.find(other) != std::string::npos)
            foreign = other;
    return std::nullopt;
}

// A joint fit whose rows agree within this (rms, relative) is taken as it is.
constexpr double kJointFitTolerance = 0.03;

double median(std::vector<double> values) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

} // namespace

std::optional<NcclTestsLog> parseNcclTestsLog(const std::string& text, const std::string& fileName,
                                              std::optional<Collective> collectiveHint,
                                              NcclLogError& error) {
    auto fail = [&](int line, std::string message) {
        error = {line, std::move(message)};
        return std::nullopt;
    };
    const std::vector<std::string> lines = splitLines(text);
    int firstNonEmpty = 0;
    for (std::size_t i = 0; i < lines.size() && !firstNonEmpty; ++i)
        if (!tokens(lines[i]).empty())
            firstNonEmpty = static_cast<int>(i) + 1;
    if (!firstNonEmpty)
        return fail(1, "empty log: nccl-tests prints a '# nThread ...' header and a table");

    NcclTestsLog log;
    int headerLine = 0, columnsLine = 0, summaryLine = 0;
    std::vector<std::string> columns;
    std::size_t timeIndex = 0;
    bool sawRedop = false;
    std::string redop;
    std::vector<std::pair<int, std::string>> rankHosts; // rank, host
    std::string foreignProgram;
    const int lineCount = static_cast<int>(lines.size());

    for (int n = 1; n <= lineCount; ++n) {
        const std::string line = stripLauncherPrefix(lines[static_cast<std::size_t>(n - 1)]);
        const std::vector<std::string> tok = tokens(line);
        if (tok.empty())
            continue;
        if (tok[0][0] == '#') {
            // Drop the leading '#' (alone or glued to the first word).
            std::vector<std::string> t = tok;
            if (t[0] == "#")
                t.erase(t.begin());
            else if (t[0] != "#wrong")
                t[0].erase(0, 1);
            const std::string body = line.substr(line.find('#') + 1);
            if (body.find("Collective test starting:") != std::string::npos) {
                log.program = t.empty() ? "" : t.back();
                continue;
            }
            if (!t.empty() && t[0] == "nThread") {
                if (!log.rows.empty() || summaryLine)
                    return fail(
                        n, "a second run starts here (after the table that ended at line " +
                               std::to_string(summaryLine ? summaryLine : log.rows.back().line) +
                               "): give one run per log");
                headerLine = n;
                continue;
            }
            if (t.size() >= 8 && t[0] == "Rank" && isInteger(t[1])) {
                auto on = std::find(t.begin(), t.end(), "on");
                if (on == t.end() || on + 1 == t.end())
                    return fail(n, "a '# Rank' line without 'on HOST': " + quoted(line));
                // Ranks are numbered below the world size, which Limits.h bounds; a number
                // past that is no nccl-tests log (std::from_chars: no silent overflow).
                int rank = 0;
                const char* const first = t[1].data();
                const auto [end, ec] = std::from_chars(first, first + t[1].size(), rank);
                if (ec != std::errc() || end != first + t[1].size() || rank >= limits::kGpus.max)
                    return fail(n, "rank " + quoteInput(t[1]) +
                                       " on a '# Rank' line: expected 0 to " +
                                       std::to_string(limits::kGpus.max - 1) + " (" +
                                       limits::kGpus.reason + ")");
                rankHosts.emplace_back(rank, *(on + 1));
                if (log.deviceName.empty()) {
                    auto bus = std::find_if(on, t.end(), [](const std::string& s) {
                        return !s.empty() && s[0] == '[';
                    });
                    for (auto it = bus == t.end() ? t.end() : bus + 1; it != t.end(); ++it)
                        log.deviceName += (log.deviceName.empty() ? "" : " ") + *it;
                }
                continue;
            }
            const bool isColumns = std::find(t.begin(), t.end(), "size") != t.end() &&
                                   std::find(t.begin(), t.end(), "busbw") != t.end() &&
                                   std::find(t.begin(), t.end(), "time") != t.end();
            if (isColumns) {
                if (!headerLine)
                    return fail(n, "a table header before the '# nThread ...' line: not the "
                                   "layout nccl-tests prints");
                if (!log.rows.empty())
                    return fail(n, "a second table header: give one run per log");
                columns = t;
                columnsLine = n;
                timeIndex = static_cast<std::size_t>(
                    std::find(columns.begin(), columns.end(), "time") - columns.begin());
                sawRedop = std::find(columns.begin(), columns.end(), "redop") != columns.end();
                if (columns[0] != "size" || timeIndex + 7 >= columns.size() ||
                    columns[timeIndex + 1] != "algbw" || columns[timeIndex + 2] != "busbw")
                    return fail(n, "unexpected table columns " + quoted(body) +
                                       ": expected size, count, type, ..., time, algbw, busbw");
                continue;
            }
            if (body.find("Out of bounds values") != std::string::npos) {
                if (body.find("FAILED") != std::string::npos)
                    return fail(n, "nccl-tests reports wrong results (" + quoted(body) +
                                       "): the timings of a failing run are no calibration");
                continue;
            }
            if (body.find("Avg bus bandwidth") != std::string::npos) {
                if (log.rows.empty())
                    return fail(n, "'# Avg bus bandwidth' without any result row before it");
                summaryLine = n;
                const auto colon = body.find(':');
                if (colon != std::string::npos)
                    if (auto v = toNumber(tokens(body.substr(colon + 1)).empty()
                                              ? ""
                                              : tokens(body.substr(colon + 1))[0]))
                        log.reportedAvgBusbwGBps = *v;
                continue;
            }
            continue; // other comments: units line, "Using devices", version, blank '#'
        }
        if (!isInteger(tok[0])) {
            // A row of the table whose size is not a whole number of bytes is a broken row,
            // not launcher chatter to skip.
            if (columnsLine && !summaryLine && tok.size() == columns.size() && toNumber(tok[0]))
                return fail(n, "column 'size' is " + quoted(tok[0]) +
                                   ": expected a whole number of bytes");
            continue; // NCCL INFO/WARN lines, launcher chatter
        }
        if (!columnsLine) {
            if (!headerLine)
                return fail(firstNonEmpty,
                            "not an nccl-tests log: no '# nThread ... nGpus ...' header before "
                            "the numbers at line " +
                                std::to_string(n) + "; the log begins " +
                                quoted(lines[static_cast<std::size_t>(firstNonEmpty - 1)]));
            return fail(n, "a result row before the table's column header");
        }
        if (summaryLine)
            return fail(n, "a result row after the '# Avg bus bandwidth' line " +
                               std::to_string(summaryLine) + ": give one run per log");
        if (tok.size() < columns.size())
            return fail(n, "truncated row: " + std::to_string(tok.size()) +
                               " columns where the header (line " + std::to_string(columnsLine) +
                               ") has " + std::to_string(columns.size()));
        if (tok.size() > columns.size())
            return fail(n, std::to_string(tok.size()) + " columns where the header (line " +
                               std::to_string(columnsLine) + ") has " +
                               std::to_string(columns.size()));
        NcclTestsRow row;
        row.line = n;
        // nccl-tests sizes stay below a few GB (its -e maxBytes); 16 TiB leaves a margin.
        static constexpr limits::RealRange kBytes{0, 17592186044416.0, "16 TiB"};
        static constexpr limits::RealRange kTimeUs{0, limits::kKernelTimeUs.max,
                                                   limits::kKernelTimeUs.reason};
        static constexpr limits::RealRange kGBps{0, limits::kBandwidthGBps.max,
                                                 limits::kBandwidthGBps.reason};
        auto number = [&](std::size_t index, const char* what, const limits::RealRange& range,
                          double& out) {
            auto v = toNumber(tok[index]);
            if (!v || !range.contains(*v)) {
                error = {n, std::string("column '") + what + "' is " + quoted(tok[index]) +
                                ": expected a number from " + formatNumber(range.min) + " to " +
                                formatNumber(range.max) + " (" + range.reason + ")"};
                return false;
            }
            out = *v;
            return true;
        };
        if (!number(0, "size", kBytes, row.bytes) ||
            !number(timeIndex, "time", kTimeUs, row.timeUs) ||
            !number(timeIndex + 1, "algbw", kGBps, row.algbwGBps) ||
            !number(timeIndex + 2, "busbw", kGBps, row.busbwGBps) ||
            !number(timeIndex + 4, "time", kTimeUs, row.inPlaceTimeUs))
            return std::nullopt;
        for (std::size_t wrongIndex : {timeIndex + 3, timeIndex + 7}) {
            auto wrong = toNumber(tok[wrongIndex]);
            if (wrong && *wrong > 0 && columns[wrongIndex] == "#wrong")
                return fail(n, "nccl-tests found " + tok[wrongIndex] +
                                   " wrong values in this row: the timings of a failing run are "
                                   "no calibration");
        }
        if (sawRedop) {
            const auto redopIndex = static_cast<std::size_t>(
                std::find(columns.begin(), columns.end(), "redop") - columns.begin());
            redop = tok[redopIndex];
        }
        if (!log.rows.empty() && row.bytes < log.rows.back().bytes)
            return fail(n, "sizes go down here (" + tok[0] + " after " +
                               formatNumber(log.rows.back().bytes) + "): not one nccl-tests sweep");
        log.rows.push_back(row);
    }

    const int last = lineCount;
    if (!headerLine)
        return fail(firstNonEmpty,
                    "not an nccl-tests log: no '# nThread ... nGpus ...' header line; the log "
                    "begins " +
                        quoted(lines[static_cast<std::size_t>(firstNonEmpty - 1)]));
    if (!columnsLine)
        return fail(last, "the log ends before the table's column header (header at line " +
                              std::to_string(headerLine) + "): truncated");
    if (log.rows.empty())
        return fail(last, "the log ends with no result rows after the column header at line " +
                              std::to_string(columnsLine) + ": truncated");
    if (!summaryLine)
        return fail(last, "the log ends after the row for " + formatNumber(log.rows.back().bytes) +
                              " bytes (line " + std::to_string(log.rows.back().line) +
                              ") without the '# Avg bus bandwidth' line that closes a table: "
                              "truncated");

    // Ranks and nodes from the "# Rank" lines.
    std::set<int> rankIds;
    for (const auto& [rank, host] : rankHosts) {
        rankIds.insert(rank);
        if (std::find(log.hosts.begin(), log.hosts.end(), host) == log.hosts.end())
            log.hosts.push_back(host);
    }
    log.ranks = static_cast<int>(rankIds.size());
    log.nodes = static_cast<int>(log.hosts.size());
    if (log.ranks < 2)
        return fail(headerLine, log.ranks == 0
                                    ? "no '#  Rank N ... on HOST device D' lines: cannot tell "
                                      "how many GPUs took part"
                                    : "only one rank: a collective needs two or more");

    // The collective: the command line, then the log, then the file name, then the table.
    std::string foreign;
    std::optional<Collective> kind = collectiveHint;
    if (!kind && !log.program.empty())
        kind = collectiveFromText(log.program, foreign);
    if (!kind && foreign.empty())
        kind = collectiveFromText(fileName, foreign);
    if (!foreign.empty())
        return fail(headerLine, "this is " + foreign +
                                    ", whose collective Trainscape does not model: import "
                                    "all_reduce, all_gather, reduce_scatter, alltoall or sendrecv");
    const NcclTestsRow& big = log.rows.back();
    const double ratio = big.algbwGBps > 0 ? big.busbwGBps / big.algbwGBps : 0;
    if (!kind && big.algbwGBps >= 1.0 && log.ranks > 2) {
        const double n = log.ranks;
        if (std::abs(ratio - 2 * (n - 1) / n) < 0.02)
            kind = Collective::AllReduce;
        else if (std::abs(ratio - 1.0) < 0.02)
            kind = Collective::SendRecv;
        else if (std::abs(ratio - (n - 1) / n) < 0.02 && redop == "sum")
            kind = Collective::ReduceScatter;
    }
    if (!kind)
        return fail(columnsLine, "cannot tell which collective this table measured: name the "
                                 "file after the program (e.g. all_gather_perf.log) or give "
                                 "--collective");
    log.collective = *kind;

    // busbw = algbw x factor(collective, ranks): a check that ranks and collective are right.
    const double factor = busBandwidthFactor(log.collective, log.ranks);
    for (const NcclTestsRow& row : log.rows) {
        if (row.algbwGBps < 10.0)
            continue; // two printed decimals: too coarse below this
        const double r = row.busbwGBps / row.algbwGBps;
        if (std::abs(r / factor - 1.0) > 0.02)
            return fail(row.line, "busbw/algbw = " + formatNumber(r) + " here, but " +
                                      collectiveName(log.collective) + " on " +
                                      std::to_string(log.ranks) + " ranks has a bus factor of " +
                                      formatNumber(factor) +
                                      ": the rank lines or the collective do not match the table");
    }
    return log;
}

std::optional<AlphaBetaFit> fitAlphaBeta(const std::vector<CollectivePoint>& points,
                                         Collective collective, int ranks, std::string& error) {
    const double factor = busBandwidthFactor(collective, ranks);
    struct Obs {
        double x, t;
    };
    std::vector<Obs> obs;
    for (const auto& p : points)
        if (p.bytes > 0 && p.timeUs > 0)
            obs.push_back({factor * p.bytes, p.timeUs * 1e-6});
    if (obs.size() < 2) {
        error = "fewer than two rows with bytes > 0: nothing to fit";
        return std::nullopt;
    }
    std::vector<bool> keep(obs.size(), true);
    double alpha = 0, slope = 0;
    for (int iteration = 0; iteration < 20; ++iteration) {
        double s0 = 0, sx = 0, sxx = 0, st = 0, sxt = 0;
        for (std::size_t i = 0; i < obs.size(); ++i) {
            if (!keep[i])
                continue;
            const double w = 1.0 / (obs[i].t * obs[i].t);
            s0 += w;
            sx += w * obs[i].x;
            sxx += w * obs[i].x * obs[i].x;
            st += w * obs[i].t;
            sxt += w * obs[i].x * obs[i].t;
        }
        const double det = s0 * sxx - sx * sx;
        if (det > 0) {
            alpha = (st * sxx - sx * sxt) / det;
            slope = (s0 * sxt - sx * st) / det;
        }
        if (det <= 0 || alpha < 0) {
            alpha = 0; // through the origin: no measurable latency
            slope = sxt / sxx;
        }
        if (!(slope > 0)) {
            error = "the times do not grow with the message size: no bandwidth to fit";
            return std::nullopt;
        }
        std::vector<double> residuals(obs.size()), kept;
        for (std::size_t i = 0; i < obs.size(); ++i) {
            residuals[i] = std::abs(obs[i].t - alpha - slope * obs[i].x) / obs[i].t;
            if (keep[i])
                kept.push_back(residuals[i]);
        }
        const double threshold = std::max(3.0 * 1.4826 * median(kept), 0.05);
        std::vector<bool> next(obs.size());
        std::size_t count = 0;
        for (std::size_t i = 0; i < obs.size(); ++i)
            count += (next[i] = residuals[i] <= threshold);
        if (count < 2 || next == keep)
            break;
        keep = next;
    }
    AlphaBetaFit fit;
    fit.latencyUs = alpha * 1e6;
    fit.busbwGBps = 1.0 / slope / 1e9;
    double sumSq = 0;
    for (std::size_t i = 0; i < obs.size(); ++i) {
        if (!keep[i]) {
            ++fit.rowsDropped;
            continue;
        }
        ++fit.rowsUsed;
        const double r = (obs[i].t - alpha - slope * obs[i].x) / obs[i].t;
        sumSq += r * r;
    }
    fit.rmsRelativeError = std::sqrt(sumSq / std::max(1, fit.rowsUsed));
    if (fit.rmsRelativeError <= kJointFitTolerance && fit.rowsDropped * 4 <= int(obs.size()))
        return fit;

    // Not one alpha-beta line (real logs: protocol and algorithm switches, a ring pipeline that
    // fills slowly): latency from the small-message plateau, bandwidth from the slope of the
    // large-message rows, where the bus bandwidth is at least half its peak.
    fit.twoRegime = true;
    double peakBusbw = 0;
    for (const auto& o : obs)
        peakBusbw = std::max(peakBusbw, o.x / o.t);
    std::vector<Obs> large;
    for (const auto& o : obs)
        if (o.x / o.t >= 0.5 * peakBusbw)
            large.push_back(o);
    if (large.size() >= 2) {
        double s0 = 0, sx = 0, sxx = 0, st = 0, sxt = 0;
        for (const auto& o : large) {
            const double w = 1.0 / (o.t * o.t);
            s0 += w;
            sx += w * o.x;
            sxx += w * o.x * o.x;
            st += w * o.t;
            sxt += w * o.x * o.t;
        }
        const double det = s0 * sxx - sx * sx;
        const double largeSlope = det > 0 ? (s0 * sxt - sx * st) / det : 0;
        slope = largeSlope > 0 ? largeSlope : 1.0 / peakBusbw;
    } else {
        slope = 1.0 / peakBusbw;
    }
    double minTime = obs.front().t;
    for (const auto& o : obs)
        minTime = std::min(minTime, o.t);
    std::vector<double> plateau;
    for (const auto& o : obs)
        if (o.t <= 1.25 * minTime)
            plateau.push_back(std::max(0.0, o.t - slope * o.x));
    alpha = median(plateau);
    fit.latencyUs = alpha * 1e6;
    fit.busbwGBps = 1.0 / slope / 1e9;
    fit.rowsUsed = int(plateau.size() + large.size());
    fit.rowsDropped = int(obs.size()) - fit.rowsUsed;
    sumSq = 0;
    for (const auto& o : obs) {
        const double r = (o.t - alpha - slope * o.x) / o.t;
        sumSq += r * r;
    }
    fit.rmsRelativeError = std::sqrt(sumSq / double(obs.size()));
    return fit;
}

std::vector<CollectivePoint> collectivePoints(const NcclTestsLog& log) {
    std::vector<CollectivePoint> points;
    for (const auto& row : log.rows)
        if (row.bytes > 0 && row.timeUs > 0 && (points.empty() || row.bytes > points.back().bytes))
            points.push_back({row.bytes, row.timeUs, row.busbwGBps});
    return points;
}

std::optional<CollectiveMeasurement> measurementFromLog(const NcclTestsLog& log,
                                                        std::string& error) {
    CollectiveMeasurement m;
    m.collective = log.collective;
    m.ranks = log.ranks;
    m.nodes = log.nodes;
    m.scope = log.nodes > 1 ? CollectiveScope::ScaleOut : CollectiveScope::ScaleUp;
    m.points = collectivePoints(log);
    auto fit = fitAlphaBeta(m.points, log.collective, log.ranks, error);
    if (!fit)
        return std::nullopt;
    m.latencyUs = fit->latencyUs;
    m.busbwGBps = fit->busbwGBps;
    return m;
}

} // namespace ts
