#include "calibration/GemmCsv.h"

#include "common/Diagnostics.h"
#include "common/JsonObjectReader.h"
#include "scenario/Limits.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace ts {

namespace {

std::string trim(const std::string& text) {
    const auto begin = text.find_first_not_of(" \t\r\"");
    if (begin == std::string::npos)
        return "";
    const auto end = text.find_last_not_of(" \t\r\"");
    return text.substr(begin, end - begin + 1);
}

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ','))
        cells.push_back(trim(cell));
    if (!line.empty() && line.back() == ',')
        cells.emplace_back();
    return cells;
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string rangeText(const limits::RealRange& r) {
    return "a number from " + formatNumber(r.min) + " to " + formatNumber(r.max) + " (" + r.reason +
           ")";
}

// Where the header's columns are; -1 when absent.
struct Columns {
    int m = -1, n = -1, k = -1, dtype = -1, time = -1, tflops = -1;
    std::size_t count = 0;
    int line = 0;
};

bool readHeader(const std::vector<std::string>& cells, int line, Columns& c, CsvError& error) {
    c.count = cells.size();
    c.line = line;
    const std::pair<const char*, int*> known[] = {{"m", &c.m},          {"n", &c.n},
                                                  {"k", &c.k},          {"dtype", &c.dtype},
                                                  {"time_us", &c.time}, {"tflops", &c.tflops}};
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const std::string name = lower(cells[i]);
        for (auto [key, column] : known) {
            if (name != key)
                continue;
            if (*column >= 0) {
                error = {line, "the header names the column '" + name + "' twice (columns " +
                                   std::to_string(*column + 1) + " and " + std::to_string(i + 1) +
                                   "): which one holds the values?"};
                return false;
            }
            *column = static_cast<int>(i);
        }
    }
    std::string missing;
    for (auto [col, name] :
         {std::pair{c.m, "m"}, std::pair{c.n, "n"}, std::pair{c.k, "k"}, {c.dtype, "dtype"}})
        if (col < 0)
            missing += std::string(missing.empty() ? "" : ", ") + name;
    if (c.time < 0 && c.tflops < 0)
        missing += std::string(missing.empty() ? "" : ", ") + "time_us or tflops";
    if (!missing.empty()) {
        error = {line, "the header row lacks the column(s) " + missing +
                           "; expected m,n,k,dtype,time_us (or tflops)"};
        return false;
    }
    return true;
}

// One row's cells -> a point; false with `error` set.
bool readRow(const std::vector<std::string>& cells, int line, const Columns& c, MatmulPoint& p,
             CsvError& error) {
    if (cells.size() != c.count) {
        error = {line, std::string(cells.size() < c.count ? "truncated row" : "extra cells") +
                           ": " + std::to_string(cells.size()) + " cells where the header (line " +
                           std::to_string(c.line) + ") has " + std::to_string(c.count)};
        return false;
    }
    auto number = [&](int col, const char* what,
                      const limits::RealRange& range) -> std::optional<double> {
        const std::string& cell = cells[static_cast<std::size_t>(col)];
        char* end = nullptr;
        const double value = std::strtod(cell.c_str(), &end);
        if (cell.empty() || end != cell.c_str() + cell.size() || !std::isfinite(value) ||
            !range.contains(value)) {
            error = {line, std::string("column '") + what + "' is " + quoteInput(cell) +
                               ": expected " + rangeText(range)};
            return std::nullopt;
        }
        return value;
    };
    const limits::RealRange dim{double(limits::kMatmulDim.min), double(limits::kMatmulDim.max),
                                limits::kMatmulDim.reason};
    std::int64_t* const dims[] = {&p.m, &p.n, &p.k};
    const std::pair<int, const char*> dimColumns[] = {{c.m, "m"}, {c.n, "n"}, {c.k, "k"}};
    for (int i = 0; i < 3; ++i) {
        auto value = number(dimColumns[i].first, dimColumns[i].second, dim);
        if (!value)
            return false;
        if (*value != std::floor(*value)) {
            error = {line, std::string("column '") + dimColumns[i].second +
                               "' must be a whole number of rows or columns"};
            return false;
        }
        *dims[i] = static_cast<std::int64_t>(*value);
    }
    const std::string& dtypeCell = cells[static_cast<std::size_t>(c.dtype)];
    auto dtype = matmulDtypeFromName(dtypeCell);
    if (!dtype) {
        error = {line, "unknown dtype " + quoteInput(dtypeCell) +
                           ": expected tf32, fp16, bf16, fp8 or fp4"};
        return false;
    }
    p.dtype = *dtype;
    const bool haveTflops = c.tflops >= 0 && !cells[static_cast<std::size_t>(c.tflops)].empty();
    if (haveTflops) {
        auto tflops = number(c.tflops, "tflops", limits::kMatmulTflops);
        if (!tflops)
            return false;
        p.tflops = *tflops;
        return true;
    }
    if (c.time < 0) {
        error = {line, "the tflops cell is empty and there is no time_us column: give one"};
        return false;
    }
    auto timeUs = number(c.time, "time_us", limits::kKernelTimeUs);
    if (!timeUs)
        return false;
    const double flops = 2.0 * double(p.m) * double(p.n) * double(p.k);
    p.tflops = flops / (*timeUs * 1e-6) / 1e12;
    if (!limits::kMatmulTflops.contains(p.tflops)) {
        error = {line, "time_us " + formatNumber(*timeUs) + " for " + std::to_string(p.m) + "x" +
                           std::to_string(p.n) + "x" + std::to_string(p.k) + " means " +
                           formatNumber(p.tflops) + " TFLOP/s: expected " +
                           rangeText(limits::kMatmulTflops)};
        return false;
    }
    return true;
}

} // namespace

std::optional<std::vector<MatmulPoint>> parseGemmCsv(const std::string& text, CsvError& error,
                                                     std::vector<int>* rowLines) {
    std::istringstream in(text);
    std::string line;
    int n = 0;
    bool haveHeader = false;
    Columns columns;
    std::vector<MatmulPoint> points;
    while (std::getline(in, line)) {
        ++n;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (trim(line).empty() || trim(line)[0] == '#')
            continue;
        const std::vector<std::string> cells = splitCsv(line);
        if (!haveHeader) {
            if (!readHeader(cells, n, columns, error))
                return std::nullopt;
            haveHeader = true;
            continue;
        }
        MatmulPoint p;
        if (!readRow(cells, n, columns, p, error))
            return std::nullopt;
        points.push_back(p);
        if (rowLines)
            rowLines->push_back(n);
    }
    if (!haveHeader) {
        error = {std::max(1, n), "empty CSV: expected a header row m,n,k,dtype,time_us"};
        return std::nullopt;
    }
    if (points.empty()) {
        error = {n, "no rows after the header (line " + std::to_string(columns.line) + ")"};
        return std::nullopt;
    }
    return points;
}

} // namespace ts
