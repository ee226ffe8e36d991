#include "calibration/GemmCsv.h"

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

} // namespace

std::optional<std::vector<MatmulPoint>> parseGemmCsv(const std::string& text, CsvError& error) {
    std::istringstream in(text);
    std::string line;
    int n = 0;
    std::vector<std::string> header;
    int headerLine = 0;
    int colM = -1, colN = -1, colK = -1, colDtype = -1, colTime = -1, colTflops = -1;
    std::vector<MatmulPoint> points;
    while (std::getline(in, line)) {
        ++n;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (trim(line).empty() || trim(line)[0] == '#')
            continue;
        const std::vector<std::string> cells = splitCsv(line);
        if (header.empty()) {
            header = cells;
            headerLine = n;
            for (std::size_t i = 0; i < cells.size(); ++i) {
                const std::string name = lower(cells[i]);
                const int index = static_cast<int>(i);
                if (name == "m")
                    colM = index;
                else if (name == "n")
                    colN = index;
                else if (name == "k")
                    colK = index;
                else if (name == "dtype")
                    colDtype = index;
                else if (name == "time_us")
                    colTime = index;
                else if (name == "tflops")
                    colTflops = index;
            }
            std::string missing;
            for (auto [col, name] : {std::pair{colM, "m"}, std::pair{colN, "n"},
                                     std::pair{colK, "k"}, std::pair{colDtype, "dtype"}})
                if (col < 0)
                    missing += std::string(missing.empty() ? "" : ", ") + name;
            if (colTime < 0 && colTflops < 0)
                missing += std::string(missing.empty() ? "" : ", ") + "time_us or tflops";
            if (!missing.empty()) {
                error = {n, "the header row lacks the column(s) " + missing +
                                "; expected m,n,k,dtype,time_us (or tflops)"};
                return std::nullopt;
            }
            continue;
        }
        if (cells.size() < header.size()) {
            error = {n, "truncated row: " + std::to_string(cells.size()) +
                            " cells where the header (line " + std::to_string(headerLine) +
                            ") has " + std::to_string(header.size())};
            return std::nullopt;
        }
        auto number = [&](int col, const char* what) -> std::optional<double> {
            const std::string& cell = cells[static_cast<std::size_t>(col)];
            char* end = nullptr;
            const double value = std::strtod(cell.c_str(), &end);
            if (cell.empty() || end != cell.c_str() + cell.size() || !std::isfinite(value) ||
                value <= 0) {
                error = {n, std::string("column '") + what + "' is \"" + cell +
                                "\": expected a positive number"};
                return std::nullopt;
            }
            return value;
        };
        MatmulPoint p;
        auto m = number(colM, "m");
        auto nn = m ? number(colN, "n") : std::nullopt;
        auto k = nn ? number(colK, "k") : std::nullopt;
        if (!k)
            return std::nullopt;
        for (auto [value, name] : {std::pair{*m, "m"}, std::pair{*nn, "n"}, std::pair{*k, "k"}})
            if (value != std::floor(value) || value > double(1 << 24)) {
                error = {n, std::string("column '") + name +
                                "' must be a whole number of rows or columns (at most 16777216)"};
                return std::nullopt;
            }
        p.m = static_cast<std::int64_t>(*m);
        p.n = static_cast<std::int64_t>(*nn);
        p.k = static_cast<std::int64_t>(*k);
        const std::string& dtypeCell = cells[static_cast<std::size_t>(colDtype)];
        auto dtype = matmulDtypeFromName(dtypeCell);
        if (!dtype) {
            error = {n,
                     "unknown dtype \"" + dtypeCell + "\": expected tf32, fp16, bf16, fp8 or fp4"};
            return std::nullopt;
        }
        p.dtype = *dtype;
        const double flops = 2.0 * double(p.m) * double(p.n) * double(p.k);
        if (colTflops >= 0 && !cells[static_cast<std::size_t>(colTflops)].empty()) {
            auto tflops = number(colTflops, "tflops");
            if (!tflops)
                return std::nullopt;
            p.tflops = *tflops;
        } else {
            auto timeUs = number(colTime, "time_us");
            if (!timeUs)
                return std::nullopt;
            p.tflops = flops / (*timeUs * 1e-6) / 1e12;
        }
        points.push_back(p);
    }
    if (header.empty()) {
        error = {std::max(1, n), "empty CSV: expected a header row m,n,k,dtype,time_us"};
        return std::nullopt;
    }
    if (points.empty()) {
        error = {n, "no rows after the header (line " + std::to_string(headerLine) + ")"};
        return std::nullopt;
    }
    return points;
}

} // namespace ts
