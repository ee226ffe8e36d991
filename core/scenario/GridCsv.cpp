#include "scenario/GridCsv.h"

#include "common/JsonObjectReader.h"
#include "scenario/Limits.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace ts {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> splitFields(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= line.size(); ++i)
        if (i == line.size() || line[i] == ',') {
            out.push_back(trim(line.substr(start, i - start)));
            start = i + 1;
        }
    return out;
}

std::optional<double> parseNumber(std::string_view field, const limits::RealRange& range) {
    const std::string text(field);
    if (text.empty())
        return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (errno != 0 || end != text.c_str() + text.size() || !std::isfinite(v) || !range.contains(v))
        return std::nullopt;
    return v;
}

std::string notInRange(const char* column, std::string_view field, const limits::RealRange& r) {
    return std::string(column) + " " + quoteInput(field) + " is not a number from " +
           formatNumber(r.min) + " to " + formatNumber(r.max) + " (" + r.reason + ")";
}

} // namespace

std::optional<std::vector<GridHour>> parseGridCsv(std::string_view text, const std::string& path,
                                                  Diagnostics& diags) {
    std::vector<GridHour> hours;
    std::optional<std::size_t> co2Column, usdColumn;
    std::size_t columns = 0;
    std::size_t lineNumber = 0;
    bool header = true;
    const std::size_t errorsBefore = diags.errorCount();
    while (!text.empty()) {
        const std::size_t eol = text.find('\n');
        const std::string_view line = trim(text.substr(0, eol));
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        ++lineNumber;
        if (line.empty() || line.front() == '#')
            continue;
        const auto fields = splitFields(line);
        const std::string where = "line " + std::to_string(lineNumber) + ": ";
        if (header) {
            header = false;
            columns = fields.size();
            for (std::size_t i = 1; i < fields.size(); ++i) {
                if (fields[i] == "gco2_kwh")
                    co2Column = i;
                else if (fields[i] == "usd_kwh")
                    usdColumn = i;
            }
            if (!co2Column) {
                diags.error(path, where + "the header needs a \"gco2_kwh\" column after the "
                                          "hour's label, e.g. \"hour,gco2_kwh,usd_kwh\"");
                return std::nullopt;
            }
            continue;
        }
        if (fields.size() != columns) {
            diags.error(path, where + std::to_string(fields.size()) +
                                  " fields, but the header has " + std::to_string(columns));
            continue;
        }
        GridHour h;
        h.label = std::string(fields[0]);
        const auto co2 = parseNumber(fields[*co2Column], limits::kGridGco2Kwh);
        if (!co2)
            diags.error(path,
                        where + notInRange("gco2_kwh", fields[*co2Column], limits::kGridGco2Kwh));
        h.gco2PerKwh = co2.value_or(0);
        if (usdColumn) {
            h.usdPerKwh = parseNumber(fields[*usdColumn], limits::kElectricityUsdKwh);
            if (!h.usdPerKwh)
                diags.error(path, where + notInRange("usd_kwh", fields[*usdColumn],
                                                     limits::kElectricityUsdKwh));
        }
        if (diags.errorCount() - errorsBefore > 20)
            return std::nullopt; // enough to see what is wrong
        hours.push_back(std::move(h));
        if (hours.size() > kMaxGridHours) {
            diags.error(path, "more than " + std::to_string(kMaxGridHours) + " hours");
            return std::nullopt;
        }
    }
    if (diags.errorCount() > errorsBefore)
        return std::nullopt;
    if (hours.empty()) {
        diags.error(path, "no hours: expected a header line and one line per hour");
        return std::nullopt;
    }
    return hours;
}

} // namespace ts
