#pragma once
// A CSV of matmul timings -> the matmul table of a calibration profile. A header row names
// the columns (any order, extra columns ignored): m, n, k, dtype, and time_us or tflops.
// tools/calibrate/matmul_sweep.py writes this layout; so can any benchmark.
//   m,n,k,dtype,time_us
//   8192,8192,8192,bf16,1412.5

#include "calibration/CalibrationProfile.h"

#include <optional>
#include <string>
#include <vector>

namespace ts {

struct CsvError {
    int line = 0;
    std::string message;
};

// `rowLines`, when given, receives the line number of each returned point (for messages about
// a point that only a caller can judge, such as a rate above its GPU's peak).
std::optional<std::vector<MatmulPoint>> parseGemmCsv(const std::string& text, CsvError& error,
                                                     std::vector<int>* rowLines = nullptr);

} // namespace ts
