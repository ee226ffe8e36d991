#pragma once
// A calibration profile: what one GPU class or one network class was measured (or published)
// to achieve, with where, when and how. The estimator uses a selected profile in place of its
// default efficiencies (CalibratedSettings.h). Format: trainscape.calibration/1
// (ProfileJson.h; tools/calibrate/README.md describes how the measured profiles are made).

#include "calibration/MeasuredPower.h"
#include "hardware/HardwareProfile.h"
#include "parallel/CollectiveCost.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts {

inline constexpr const char* kCalibrationFormat = "trainscape.calibration/1";

// "published": every figure is copied from a public source named in `sources`;
// "measured": the figures come from running tools/calibrate or nccl-tests.
enum class ProfileKind { Published, Measured };

// Inside one scale-up (NVLink) domain, or across nodes over the scale-out network.
enum class CollectiveScope { ScaleUp, ScaleOut };

struct ProfileProvenance {
    std::string where; // machine, cluster or cloud instance
    std::string when;  // ISO date (or "" when the source gives none)
    std::string how;   // programs, versions, settings
    bool operator==(const ProfileProvenance&) const = default;
};

struct ProfileSource {
    std::string id;
    std::string title;
    std::string url;
    bool operator==(const ProfileSource&) const = default;
};

// One timed M x N x K multiply (C[M,N] = A[M,K] B[K,N]) in `dtype`: achieved TFLOP/s,
// counting 2 M N K FLOPs.
struct MatmulPoint {
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    MatmulDtype dtype = MatmulDtype::Bf16;
    double tflops = 0;
    std::string source; // id in the profile's sources; "" = the profile's provenance
    bool operator==(const MatmulPoint&) const = default;
};

// Flash-style attention (scaled_dot_product_attention) in BF16/FP16. TFLOP/s counted as the
// FlashAttention papers do: forward 4 b h s^2 d FLOPs, halved when causal; backward 2.5x the
// forward (Dao 2023, FlashAttention-2, sec. 4.1 benchmarks).
struct AttentionPoint {
    std::int64_t seqLen = 0;
    int headDim = 0;
    bool causal = true;
    double forwardTflops = 0;
    std::optional<double> backwardTflops;
    std::string source;
    bool operator==(const AttentionPoint&) const = default;
};

struct HbmMeasurement {
    double achievedGBps = 0; // read + write bytes of a large device copy per second
    std::string source;
    bool operator==(const HbmMeasurement&) const = default;
};

// One row of an nccl-tests table: `bytes` in the nccl-tests convention
// (CollectiveCost::cost), out-of-place time and bus bandwidth.
struct CollectivePoint {
    double bytes = 0;
    double timeUs = 0;
    double busbwGBps = 0;
    bool operator==(const CollectivePoint&) const = default;
};

// A collective measured on one group shape: `ranks` GPUs on `nodes` nodes. The fit
// time = latency + bytes x factor / busbw summarises the points; the points, where present,
// are interpolated on log-size (CalibratedSettings.cpp).
struct CollectiveMeasurement {
    Collective collective = Collective::AllReduce;
    CollectiveScope scope = CollectiveScope::ScaleUp;
    int ranks = 2;
    int nodes = 1;
    std::optional<double> latencyUs; // nullopt when the source gives none
    double busbwGBps = 0;            // large-message bus bandwidth
    std::vector<CollectivePoint> points;
    std::string source;
    bool operator==(const CollectiveMeasurement&) const = default;
};

struct CalibrationProfile {
    std::string id;
    std::string name;
    ProfileKind kind = ProfileKind::Measured;
    std::string gpu;        // catalog GPU id it was measured on; "" = a network-only profile
    std::string deviceName; // as the driver names it, e.g. "NVIDIA H200"
    ProfileProvenance provenance;
    std::vector<ProfileSource> sources;
    std::string notes;

    std::vector<MatmulPoint> matmul;
    std::vector<AttentionPoint> attention;
    std::optional<HbmMeasurement> hbm;
    std::optional<double> kernelOverheadUs; // GPU time of an empty kernel launch
    std::vector<CollectiveMeasurement> collectives;
    std::optional<MeasuredPower> power; // board power per phase (tools/calibrate)

    std::string origin; // the file it came from ("built-in:NAME" for shipped ones)
    bool operator==(const CalibrationProfile&) const = default;
};

// Names used in files and on the command line.
const char* matmulDtypeName(MatmulDtype dtype);
std::optional<MatmulDtype> matmulDtypeFromName(const std::string& name); // also torch names
const char* collectiveName(Collective collective);                       // "all_reduce", ...
std::optional<Collective> collectiveFromName(const std::string& name);
const char* collectiveScopeName(CollectiveScope scope);

// NCCL's bus-bandwidth factor for `ranks` (nccl-tests doc/PERFORMANCE.md).
double busBandwidthFactor(Collective collective, int ranks);

} // namespace ts
