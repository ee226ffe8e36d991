#include "report/ReportSvg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace ts::report {

namespace {

constexpr double kGiB = double(1ull << 30);
// Colour-blind-safe categorical palette (Okabe and Ito, "Color Universal Design", 2002).
const char* const kPalette[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
                                "#D55E00", "#F0E442", "#999999", "#000000", "#7F3C8D"};

std::string num(double value, int decimals = 1) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

class Svg {
public:
    Svg(int width, int height, const std::string& title) : width_(width), height_(height) {
        out_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
             << height << "\" viewBox=\"0 0 " << width << ' ' << height
             << "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"11\">"
             << "<title>" << xmlEscape(title) << "</title>"
             << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>";
        text(10, 16, title, "start", 13, "bold");
    }
    void rect(double x, double y, double w, double h, const std::string& fill,
              const std::string& tip) {
        out_ << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\""
             << num(std::max(w, 0.0)) << "\" height=\"" << num(std::max(h, 0.0)) << "\" fill=\""
             << fill << "\"><title>" << xmlEscape(tip) << "</title></rect>";
    }
    void line(double x1, double y1, double x2, double y2, const std::string& stroke,
              bool dashed = false) {
        out_ << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2)
             << "\" y2=\"" << num(y2) << "\" stroke=\"" << stroke << "\" stroke-width=\"1.2\""
             << (dashed ? " stroke-dasharray=\"5,3\"" : "") << "/>";
    }
    void text(double x, double y, const std::string& s, const char* anchor = "start", int size = 11,
              const char* weight = "normal") {
        out_ << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" text-anchor=\"" << anchor
             << "\" font-size=\"" << size << "\" font-weight=\"" << weight << "\">" << xmlEscape(s)
             << "</text>";
    }
    void legend(double x, double y, const std::vector<std::string>& names) {
        double at = x;
        for (std::size_t i = 0; i < names.size(); ++i) {
            const double itemW = 22 + 6.5 * static_cast<double>(names[i].size());
            if (at > x && at + itemW > width_ - 10) { // wrap
                at = x;
                y += 15;
            }
            rect(at, y - 9, 10, 10, kPalette[i % 10], names[i]);
            text(at + 14, y, names[i]);
            at += itemW;
        }
    }
    std::string finish() {
        out_ << "</svg>";
        return out_.str();
    }
    int width() const { return width_; }
    int height() const { return height_; }

private:
    std::ostringstream out_;
    int width_, height_;
};

// A "nice" axis maximum: 1, 2 or 5 times a power of ten, at least `value`.
double niceMax(double value) {
    if (value <= 0)
        return 1;
    const double power = std::pow(10.0, std::floor(std::log10(value)));
    for (double step : {1.0, 2.0, 5.0, 10.0})
        if (step * power >= value)
            return step * power;
    return 10 * power;
}

} // namespace

std::string xmlEscape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string memoryPerStageSvg(const ReportScenario& scenario) {
    const Estimate& e = scenario.estimate;
    std::string label = scenario.label;
    if (label.size() > 44)
        label = label.substr(0, 43) + "…";
    Svg svg(460, 270, "Memory per stage: " + label);
    const double left = 50, top = 40, plotW = 390, plotH = 160;
    double maxBytes = e.capacityBytes;
    for (const auto& s : e.stages)
        maxBytes = std::max(maxBytes, s.bytes.total());
    const double axis = niceMax(maxBytes / kGiB);
    const auto y = [&](double gib) { return top + plotH - plotH * gib / axis; };
    for (int t = 0; t <= 4; ++t) {
        const double gib = axis * t / 4;
        svg.line(left, y(gib), left + plotW, y(gib), "#e0e0e0");
        svg.text(left - 4, y(gib) + 4, num(gib, 0), "end");
    }
    svg.text(12, top - 6, "GiB");
    const std::size_t n = std::max<std::size_t>(e.stages.size(), 1);
    const double slot = plotW / static_cast<double>(n);
    const double barW = std::max(1.0, slot * 0.7);
    const char* kinds[] = {"weights",     "gradients",    "optimizer",
                           "activations", "comm buffers", "framework"};
    for (std::size_t i = 0; i < e.stages.size(); ++i) {
        const auto& b = e.stages[i].bytes;
        const double parts[] = {b.weights,     b.gradients,   b.optimizer,
                                b.activations, b.commBuffers, b.framework};
        double base = 0;
        const double x = left + slot * static_cast<double>(i) + (slot - barW) / 2;
        for (int k = 0; k < 6; ++k) {
            const double gib = parts[k] / kGiB;
            svg.rect(x, y(base + gib), barW, y(base) - y(base + gib), kPalette[k],
                     "stage " + std::to_string(e.stages[i].stage) + " " + kinds[k] + ": " +
                         num(gib, 2) + " GiB");
            base += gib;
        }
        if (n <= 16)
            svg.text(x + barW / 2, top + plotH + 13, std::to_string(e.stages[i].stage), "middle");
    }
    svg.line(left, y(e.capacityBytes / kGiB), left + plotW, y(e.capacityBytes / kGiB), "#c00000",
             true);
    svg.text(left + plotW, y(e.capacityBytes / kGiB) - 4,
             "capacity " + num(e.capacityBytes / kGiB, 0) + " GiB", "end");
    svg.text(left + plotW / 2, top + plotH + 26, "pipeline stage", "middle");
    svg.legend(10, 248, {"weights", "grads", "optimizer", "activations", "comm", "framework"});
    return svg.finish();
}

std::string stepBreakdownSvg(const ComparisonReport& report) {
    const int rowH = 26;
    const int n = static_cast<int>(report.scenarios.size());
    Svg svg(760, 70 + rowH * n + 45, "Step time and its parts (s)");
    const double left = 170, top = 36, plotW = 560;
    double maxStep = 0;
    for (const auto& s : report.scenarios)
        maxStep = std::max(maxStep, s.estimate.stepSeconds);
    const double axis = niceMax(maxStep);
    const char* names[] = {"compute", "recompute", "TP", "CP",        "EP",
                           "PP",      "bubble",    "DP", "optimizer", "offload"};
    for (int t = 0; t <= 4; ++t) {
        const double x = left + plotW * t / 4;
        svg.line(x, top, x, top + rowH * n, "#e0e0e0");
        svg.text(x, top + rowH * n + 14, num(axis * t / 4, 2), "middle");
    }
    for (int i = 0; i < n; ++i) {
        const auto& e = report.scenarios[static_cast<std::size_t>(i)].estimate;
        const double parts[] = {e.time.compute,        e.time.recompute, e.time.tpExposed,
                                e.time.cpExposed,      e.time.epExposed, e.time.ppExposed,
                                e.time.pipelineBubble, e.time.dpExposed, e.time.optimizer,
                                e.time.offloadExposed};
        const double y = top + rowH * i + 4;
        std::string label = report.scenarios[static_cast<std::size_t>(i)].label;
        if (label.size() > 26)
            label = label.substr(0, 25) + "…";
        svg.text(left - 6, y + 13, label, "end");
        double at = 0;
        for (int k = 0; k < 10; ++k) {
            svg.rect(left + plotW * at / axis, y, plotW * parts[k] / axis, rowH - 8, kPalette[k],
                     std::string(names[k]) + ": " + num(parts[k], 3) + " s");
            at += parts[k];
        }
        svg.text(left + plotW * at / axis + 4, y + 13, num(e.stepSeconds, 3) + " s");
    }
    std::vector<std::string> legend(std::begin(names), std::end(names));
    svg.legend(10, top + rowH * n + 40, legend);
    return svg.finish();
}

std::string runTotalsSvg(const ComparisonReport& report) {
    const int n = static_cast<int>(report.scenarios.size());
    Svg svg(760, 290, "Time, cost and energy to train");
    struct Panel {
        const char* title;
        std::optional<double> (*get)(const Estimate&);
        int decimals;
    };
    const Panel panels[] = {
        {"days", [](const Estimate& e) { return e.trainDays; }, 1},
        {"cost (million USD)",
         [](const Estimate& e) {
             return e.trainUsd ? std::optional(*e.trainUsd / 1e6) : std::nullopt;
         },
         2},
        {"energy (MWh)",
         [](const Estimate& e) {
             return e.trainKwh ? std::optional(*e.trainKwh / 1e3) : std::nullopt;
         },
         1},
    };
    const double panelW = 240, top = 50, plotH = 150;
    for (int p = 0; p < 3; ++p) {
        const double left = 15 + panelW * p;
        svg.text(left + panelW / 2 - 10, top - 12, panels[p].title, "middle", 12, "bold");
        double maxValue = 0;
        for (const auto& s : report.scenarios)
            maxValue = std::max(maxValue, panels[p].get(s.estimate).value_or(0));
        const double axis = niceMax(maxValue);
        const double slot = (panelW - 30) / n;
        svg.line(left, top + plotH, left + panelW - 30, top + plotH, "#808080");
        for (int i = 0; i < n; ++i) {
            const auto& s = report.scenarios[static_cast<std::size_t>(i)];
            const auto value = panels[p].get(s.estimate);
            const double x = left + slot * i + slot * 0.15;
            if (!value) {
                svg.text(x + slot * 0.35, top + plotH - 4, "n/a", "middle", 9);
                continue;
            }
            const double h = plotH * *value / axis;
            svg.rect(x, top + plotH - h, slot * 0.7, h, kPalette[i % 10],
                     s.label + ": " + num(*value, panels[p].decimals));
            svg.text(x + slot * 0.35, top + plotH - h - 3, num(*value, panels[p].decimals),
                     "middle", 9);
        }
    }
    std::vector<std::string> labels;
    for (const auto& s : report.scenarios)
        labels.push_back(s.label.size() > 20 ? s.label.substr(0, 19) + "…" : s.label);
    svg.legend(15, 235, labels);
    return svg.finish();
}

} // namespace ts::report
