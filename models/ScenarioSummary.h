#pragma once
// What a resolved scenario holds, as property/value rows grouped by section (model,
// cluster, training, plan, costs), in the current UI language. Only facts written in the
// scenario or counted from it (nodes, tokens per step); no physics, which is core's job.

#include <QCoreApplication>
#include <QString>

#include <vector>

namespace ts {
struct ResolvedScenario;
}

namespace ts::gui {

struct SummaryRow {
    QString property;
    QString value; // always with its unit
    QString toolTip;
    QString jsonPath; // the scenario key it comes from (RFC 6901), "" when derived
};

struct SummarySection {
    QString title;
    QString jsonPath;
    std::vector<SummaryRow> rows;
};

class ScenarioSummary {
    Q_DECLARE_TR_FUNCTIONS(ScenarioSummary)
public:
    static std::vector<SummarySection> build(const ResolvedScenario& scenario);

private:
    static SummarySection scenarioSection(const ResolvedScenario& scenario);
    static SummarySection modelSection(const ResolvedScenario& scenario);
    static SummarySection clusterSection(const ResolvedScenario& scenario);
    static SummarySection trainingSection(const ResolvedScenario& scenario);
    static SummarySection planSection(const ResolvedScenario& scenario);
    static SummarySection costSection(const ResolvedScenario& scenario);
};

} // namespace ts::gui
