#pragma once
// The headline of a scenario as it now stands ("Llama 3 70B on 64 × H100 SXM5 · TP 8 · PP 4
// · DP 2"), derived from the resolved scenario so that it never repeats a stale name, and a
// short file name for it ("llama3-70b-64xh100.json").

#include <QCoreApplication>
#include <QString>

namespace ts {
struct ResolvedScenario;
}

namespace ts::gui {

class ScenarioHeadline {
    Q_DECLARE_TR_FUNCTIONS(ScenarioHeadline)
public:
    static QString of(const ResolvedScenario& scenario);
    // "TP 8 · PP 4 × 2 · CP 2 · EP 8 · DP 2": the degrees above 1, DP always.
    static QString plan(const ResolvedScenario& scenario);
    // The model preset's id and the GPU count and kind, e.g. "llama3-70b-64xh100".
    static QString fileStem(const ResolvedScenario& scenario);
};

} // namespace ts::gui
