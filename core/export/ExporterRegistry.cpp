#include "export/Exporters.h"

namespace ts {

const std::vector<std::unique_ptr<Exporter>>& exporters() {
    static const auto list = [] {
        std::vector<std::unique_ptr<Exporter>> v;
        v.push_back(std::make_unique<MegatronExporter>());
        v.push_back(std::make_unique<BridgeExporter>());
        v.push_back(std::make_unique<DeepSpeedExporter>());
        v.push_back(std::make_unique<TorchtitanExporter>());
        v.push_back(std::make_unique<TorchtuneExporter>());
        v.push_back(std::make_unique<SlurmExporter>());
        v.push_back(std::make_unique<KubernetesExporter>());
        return v;
    }();
    return list;
}

const Exporter* findExporter(std::string_view id) {
    for (const auto& e : exporters())
        if (e->id() == id)
            return e.get();
    return nullptr;
}

std::string exporterIds() {
    std::string out;
    for (const auto& e : exporters())
        out += (out.empty() ? "" : ", ") + std::string(e->id());
    return out;
}

} // namespace ts
