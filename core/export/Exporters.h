#pragma once
// The exporters, one per target; each is defined in its own file (<Target>Exporter.cpp).

#include "export/Exporter.h"

namespace ts {

#define TS_DECLARE_EXPORTER(Class)                                                                 \
    class Class final : public Exporter {                                                          \
    public:                                                                                        \
        std::string_view id() const override;                                                      \
        std::string_view title() const override;                                                   \
        std::vector<std::string> fileNames() const override;                                       \
        ExportResult render(const ResolvedScenario& plan,                                          \
                            const ExportOptions& options) const override;                          \
    };

TS_DECLARE_EXPORTER(MegatronExporter)
TS_DECLARE_EXPORTER(BridgeExporter)
TS_DECLARE_EXPORTER(DeepSpeedExporter)
TS_DECLARE_EXPORTER(TorchtitanExporter)
TS_DECLARE_EXPORTER(TorchtuneExporter)
TS_DECLARE_EXPORTER(SlurmExporter)
TS_DECLARE_EXPORTER(KubernetesExporter)
#undef TS_DECLARE_EXPORTER

} // namespace ts
