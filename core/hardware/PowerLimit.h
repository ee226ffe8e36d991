#pragma once
// Power-limited tensor throughput. A GPU sustains its dense GEMMs at the power limit, so the
// same silicon at a lower board power limit runs slower clocks (and at a higher one, faster).
// A GPU without a measured MAMF borrows the MAMF of its "power sibling" - the catalog part
// with the same dense BF16 and FP8 peaks (the same tensor-core silicon and clocks) that was
// measured - scaled by the ratio of board power limits (tdp_w) to the power kPowerExponent.
//
// Examples: the 500 W H100 96 GB (HBM2e) of Meta's Grand Teton against the measured 700 W
// H100 SXM; GB300 (1,400 W) against GB200 (1,200 W); B300 (1,100 W) against B200 (1,000 W).

#include "common/Message.h"
#include "scenario/ClusterConfig.h"

#include <optional>
#include <string>

namespace ts {

class Catalog;

// Dense tensor throughput at power limit P relative to power limit P_ref on the same silicon:
// (P / P_ref)^kPowerExponent. At the power limit the clocks sit near the voltage floor, where
// dynamic power ~ f (not f^3), so throughput follows power about linearly; secondary sources
// report 10-15% lower training throughput for an H100 capped from 700 W to 600 W (factryze.ai
// "Power capping", 2026: exponent ~ 0.9-1.1), and Ujeniya et al. 2026 (arXiv 2604.11391)
// measure DGEMM on H100/H200 against caps of 200-700 W. Checked on the published runs
// (tests/tst_accuracy.cpp; torchtitan's 500 W H100, the GB300 runs): exponents 0.7 / 0.8 /
// 1.0 / 1.1 give an all-case median of 8.1 / 6.6 / 5.9 / 7.0% and p90 of 23.4 / 21.0 / 19.0 /
// 18.5%; 1.0 is the physical choice and the best median.
inline constexpr double kPowerExponent = 1.0;

// A power limit above the sibling's cannot lift the borrowed MAMF past what any measured part
// reaches of its own dense peak: clocks stop at the maximum boost clock once power suffices.
// The largest measured MAMF / peak in the catalog is the A100 SXM's (271.2 / 312 = 0.869, not
// power-limited at 400 W; resources/catalog/gpus.json); H100 SXM reaches 0.803 at 700 W. Without
// the cap a GH200 (1,000 W for the whole module: CPU, GPU and memory) borrowed 794.5 x 1000/700
// = 1,135 TFLOPS, above its 989 TFLOPS peak (sailor-dev.json runs 17-38% fast).
inline constexpr double kMaxMamfFractionOfPeak = 0.869;

// The measured catalog part with the same dense BF16 and FP8 peaks (within 1%) and a measured
// BF16 MAMF; of several, the one with the nearest HBM bandwidth. Nothing when the GPU has its
// own MAMF, or no part matches.
std::optional<PowerSibling> findPowerSibling(const GpuSpec& gpu, const Catalog& catalog);

// (tdp / sibling tdp)^kPowerExponent, at most kMaxMamfFractionOfPeak x the dense BF16 peak over
// the sibling's MAMF when above 1; 1 without a sibling.
double powerLimitThroughputScale(const GpuSpec& gpu);

// The estimate's warning naming the borrowed MAMF and the scale; an empty text without a
// sibling.
Message powerSiblingWarning(const GpuSpec& gpu);

} // namespace ts
