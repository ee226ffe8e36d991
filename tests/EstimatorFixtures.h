#pragma once
// Hand-built model and GPU descriptions shared by the estimator's unit tests (the figures of
// the public Llama 3 8B config and the H100 SXM datasheet, as in resources/catalog).

#include "scenario/ClusterConfig.h"
#include "scenario/ModelConfig.h"
#include "scenario/ResolvedScenario.h"

namespace ts::test {

inline ModelConfig llama3_8b() {
    ModelConfig m;
    m.layers = 32;
    m.hidden = 4096;
    m.ffnHidden = 14336;
    m.heads = 32;
    m.kvHeads = 8;
    m.headDim = 128;
    m.vocab = 128256;
    m.mlp = MlpKind::SwiGlu;
    return m;
}

inline GpuSpec h100() {
    GpuSpec g;
    g.name = "H100 SXM";
    g.memoryGiB = 80;
    g.hbmGBps = 3350;
    g.bf16Tflops = 989.4;
    g.fp8Tflops = 1978.9;
    g.fp32Tflops = 66.9;
    g.tdpW = 700;
    g.mamfBf16Tflops = 794.5;
    g.mamfFp8Tflops = 1402.6;
    g.smCount = 132;
    return g;
}

// 64 H100 SXM in 8 DGX-like nodes: NVLink 450 GB/s in domains of 8, 8 x 400 Gbit/s NICs.
inline void useH100Cluster64(ResolvedScenario& sc) {
    sc.cluster.gpu = h100();
    sc.cluster.numGpus = 64;
    sc.cluster.gpusPerNode = 8;
    sc.cluster.scaleUp = {8, 450.0, 2.0};
    sc.cluster.scaleOut.nicGbitPerS = 400;
    sc.cluster.scaleOut.nicsPerNode = 8;
}

} // namespace ts::test
