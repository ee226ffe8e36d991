#pragma once
// Numbers as the user reads them: locale digit grouping, a few significant digits, and the
// unit always attached (the suffixes of shared/spec/scenario-format.md, spelled for people).

#include <QString>

#include <cstdint>

namespace ts::gui {

// `value` with `digits` significant digits (integers of that many digits or more are shown
// whole), trailing zeros dropped, in the default QLocale's notation.
QString numberText(double value, int digits = 3);
QString countText(std::int64_t value); // "1,024"

QString bytesText(double bytes);       // binary prefixes: "71.2 GiB", "512 MiB"
QString gibText(double gib);           // "80 GiB"
QString gbPerSText(double gbPerS);     // "3,350 GB/s" (10^9 bytes per second)
QString gbitPerSText(double gbitPerS); // "400 Gbit/s"
QString tflopsText(double tflops);     // "989 TFLOPS"
QString secondsText(double seconds);   // "8.41 s", "350 ms", "12.5 min", "3.2 h"
QString microsecondsText(double us);   // "2 µs"
QString wattsText(double watts);       // "700 W"
QString percentText(double fraction);  // 0.412 -> "41.2 %"
// A band of relative error in signed whole percent: (-0.04, 0.06) -> "−4 % … +6 %".
QString errorBandText(double low, double high);
QString siPrefixed(double value); // 8388608 -> "8.39 M", 1.5e13 -> "15 T"

} // namespace ts::gui
