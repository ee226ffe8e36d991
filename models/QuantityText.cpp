#include "QuantityText.h"

#include <QLocale>

#include <array>
#include <cmath>
#include <cstdlib>

namespace ts::gui {

QString numberText(double value, int digits) {
    const QLocale locale;
    if (!std::isfinite(value))
        return locale.toString(value);
    const double magnitude = std::fabs(value);
    int decimals = 0;
    if (magnitude > 0) {
        const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
        decimals = std::max(0, digits - 1 - exponent);
    }
    QString text = locale.toString(value, 'f', decimals);
    if (decimals > 0) {
        const QString point = locale.decimalPoint();
        while (text.endsWith(locale.zeroDigit()))
            text.chop(1);
        if (text.endsWith(point))
            text.chop(point.size());
    }
    return text;
}

QString countText(std::int64_t value) {
    return QLocale().toString(static_cast<qlonglong>(value));
}

QString bytesText(double bytes) {
    static constexpr std::array<const char*, 6> kUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    std::size_t unit = 0;
    double scaled = bytes;
    while (std::fabs(scaled) >= 1024.0 && unit + 1 < kUnits.size()) {
        scaled /= 1024.0;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(numberText(scaled), QLatin1String(kUnits[unit]));
}

QString gibText(double gib) {
    return numberText(gib, 4) + QStringLiteral(" GiB");
}

QString gbPerSText(double gbPerS) {
    return numberText(gbPerS, 4) + QStringLiteral(" GB/s");
}

QString gbitPerSText(double gbitPerS) {
    return numberText(gbitPerS, 4) + QStringLiteral(" Gbit/s");
}

QString tflopsText(double tflops) {
    return numberText(tflops, 4) + QStringLiteral(" TFLOPS");
}

QString secondsText(double seconds) {
    const double magnitude = std::fabs(seconds);
    if (magnitude > 0 && magnitude < 1e-3)
        return numberText(seconds * 1e6) + QStringLiteral(" µs");
    if (magnitude > 0 && magnitude < 1.0)
        return numberText(seconds * 1e3) + QStringLiteral(" ms");
    if (magnitude < 600.0)
        return numberText(seconds) + QStringLiteral(" s");
    if (magnitude < 7200.0)
        return numberText(seconds / 60.0) + QStringLiteral(" min");
    return numberText(seconds / 3600.0) + QStringLiteral(" h");
}

QString microsecondsText(double us) {
    return numberText(us) + QStringLiteral(" µs");
}

QString wattsText(double watts) {
    return numberText(watts, 4) + QStringLiteral(" W");
}

QString percentText(double fraction) {
    return numberText(fraction * 100.0) + QStringLiteral(" %");
}

namespace {
QString signedPercentText(double fraction) {
    const long long v = std::llround(fraction * 100.0);
    // U+2212 MINUS SIGN, as a typesetter writes a negative percentage.
    const QString sign = v < 0 ? QStringLiteral("\u2212") : v > 0 ? QStringLiteral("+") : QString();
    return sign + QLocale().toString(std::llabs(v)) + QStringLiteral(" %");
}
} // namespace

QString errorBandText(double low, double high) {
    return signedPercentText(low) + QStringLiteral(" \u2026 ") + signedPercentText(high);
}

QString siPrefixed(double value) {
    static constexpr std::array<const char*, 6> kPrefixes = {"", "K", "M", "G", "T", "P"};
    std::size_t prefix = 0;
    double scaled = value;
    while (std::fabs(scaled) >= 1000.0 && prefix + 1 < kPrefixes.size()) {
        scaled /= 1000.0;
        ++prefix;
    }
    if (prefix == 0)
        return numberText(scaled);
    return QStringLiteral("%1 %2").arg(numberText(scaled), QLatin1String(kPrefixes[prefix]));
}

} // namespace ts::gui
