#include "energy/GridWindow.h"

#include <cmath>

namespace ts {

namespace {

// Sums of a per-hour quantity over any run, wrapping around the series: prefix sums make
// every start hour O(1), so a year-long series costs microseconds, not a loop per start.
class HourSums {
public:
    template <class Value> HourSums(const std::vector<GridHour>& hours, Value value) {
        prefix_.reserve(hours.size() + 1);
        prefix_.push_back(0.0);
        for (const GridHour& h : hours) {
            values_.push_back(value(h));
            prefix_.push_back(prefix_.back() + values_.back());
        }
    }
    // Sum over `runHours` hours (the last one partial) from row `start`.
    double over(std::size_t start, double runHours) const {
        const std::size_t n = values_.size();
        const auto whole = static_cast<std::size_t>(std::floor(runHours));
        const double cycles = double(whole / n);
        const std::size_t rest = whole % n;
        double sum = cycles * prefix_[n];
        const std::size_t end = start + rest;
        sum += end <= n ? prefix_[end] - prefix_[start]
                        : (prefix_[n] - prefix_[start]) + prefix_[end - n];
        sum += (runHours - double(whole)) * values_[(start + whole) % n];
        return sum;
    }

private:
    std::vector<double> values_;
    std::vector<double> prefix_;
};

bool allPriced(const std::vector<GridHour>& hours) {
    for (const GridHour& h : hours)
        if (!h.usdPerKwh)
            return false;
    return true;
}

} // namespace

GridRun gridRun(const std::vector<GridHour>& hours, std::size_t start, double runHours,
                double facilityKw) {
    GridRun run;
    if (hours.empty() || runHours <= 0)
        return run;
    const HourSums co2(hours, [](const GridHour& h) { return h.gco2PerKwh; });
    run.co2Kg = facilityKw * co2.over(start % hours.size(), runHours) / 1000.0;
    if (allPriced(hours)) {
        const HourSums usd(hours, [](const GridHour& h) { return *h.usdPerKwh; });
        run.electricityUsd = facilityKw * usd.over(start % hours.size(), runHours);
    }
    return run;
}

std::optional<GridWindow> bestGridWindow(const std::vector<GridHour>& hours, double runHours,
                                         double facilityKw) {
    if (hours.empty() || runHours <= 0)
        return std::nullopt;
    const HourSums co2(hours, [](const GridHour& h) { return h.gco2PerKwh; });
    const bool priced = allPriced(hours);
    const HourSums usd(hours, [](const GridHour& h) { return h.usdPerKwh.value_or(0.0); });
    GridWindow w;
    w.runHours = static_cast<int>(std::ceil(runHours));
    w.wrapped = runHours > double(hours.size());
    std::size_t lowCo2 = 0, lowPrice = 0;
    for (std::size_t s = 1; s < hours.size(); ++s) {
        if (co2.over(s, runHours) < co2.over(lowCo2, runHours))
            lowCo2 = s;
        if (priced && usd.over(s, runHours) < usd.over(lowPrice, runHours))
            lowPrice = s;
    }
    w.firstStart = hours.front().label;
    w.firstCo2Kg = facilityKw * co2.over(0, runHours) / 1000.0;
    w.lowestCo2Start = hours[lowCo2].label;
    w.lowestCo2Kg = facilityKw * co2.over(lowCo2, runHours) / 1000.0;
    w.lowestPriceStart = hours[lowPrice].label;
    if (priced) {
        w.firstElectricityUsd = facilityKw * usd.over(0, runHours);
        w.lowestElectricityUsd = facilityKw * usd.over(lowPrice, runHours);
    }
    return w;
}

} // namespace ts
