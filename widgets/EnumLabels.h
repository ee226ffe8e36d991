#pragma once
// The closed vocabularies of the scenario format as translated choices for the editors.

#include "FieldSpec.h"

#include <QCoreApplication>

#include <vector>

namespace ts::gui {

class EnumLabels {
    Q_DECLARE_TR_FUNCTIONS(EnumLabels)
public:
    static std::vector<FieldChoice> mlp();
    static std::vector<FieldChoice> windowLayers();
    static std::vector<FieldChoice> attentionBackend();
    static std::vector<FieldChoice> precision();
    static std::vector<FieldChoice> optimizer();
    static std::vector<FieldChoice> optimizerImpl();
    static std::vector<FieldChoice> gradReduceDtype();
    static std::vector<FieldChoice> recompute();
    static std::vector<FieldChoice> schedule();
    static std::vector<FieldChoice> zero();
    static std::vector<FieldChoice> scaleOutTopology();
    static std::vector<FieldChoice> offload();
    static std::vector<FieldChoice> cpComm();
    static std::vector<FieldChoice> moeDispatcher();
    static std::vector<FieldChoice> moeGroupedGemm();
    static std::vector<FieldChoice> cudaGraphs();
    static std::vector<FieldChoice> framework();
    static std::vector<FieldChoice> crossEntropy();
};

} // namespace ts::gui
