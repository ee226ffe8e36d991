#pragma once
// The version of the estimator: TRAINSCAPE_VERSION plus a fingerprint of the sources, catalog
// and calibration profiles behind every estimate (cmake/EstimatorVersion.cmake), e.g.
// "0.1.0+3fa9c01b22de". A stored estimate made by another estimator version is stale.

namespace ts {

const char* estimatorVersion();

} // namespace ts
