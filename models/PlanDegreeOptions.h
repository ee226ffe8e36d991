#pragma once
// The degrees the plan editor offers for one parallel dimension. A degree is offered when
// the scenario with it still resolves; otherwise it is listed disabled with core's reason.
// Changing one degree also keeps the plan whole: an explicit dp follows the GPU count, and
// an explicit pipeline_layers list is dropped when pp or vpp changes (it would no longer
// have pp*vpp entries), and an explicit dp_shard that no longer divides dp goes back to null.

#include "ChangeScenarioValue.h"

#include <QCoreApplication>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts::gui {

class ScenarioDocument;

struct DegreeOption {
    int degree = 1;
    bool enabled = true;
    QString reason; // why not, when disabled
};

class PlanDegreeOptions {
    Q_DECLARE_TR_FUNCTIONS(PlanDegreeOptions)
public:
    // `key`: "tp", "pp", "cp", "ep", "etp" or "vpp".
    static std::vector<DegreeOption> options(const ScenarioDocument& document,
                                             const std::string& key);
    // The edit that sets `key` to `degree`, with the dependent keys adjusted.
    static std::vector<ScenarioValueChange> changesFor(const ScenarioDocument& document,
                                                       const std::string& key, int degree);
    // The hybrid-sharding group sizes (parallelism.dp_shard): the divisors of dp, each
    // disabled with core's reason when the scenario with it does not resolve.
    static std::vector<DegreeOption> dpShardOptions(const ScenarioDocument& document);
    // The edit that sets the GPU count, with an explicit dp (and dp_shard) following it.
    static std::vector<ScenarioValueChange> changesForGpuCount(const ScenarioDocument& document,
                                                               std::int64_t numGpus);
    // The degree as the scenario now stands: the file's, else the last resolved one.
    static int currentDegree(const ScenarioDocument& document, const std::string& key);
    // GPUs / (TP x PP x CP) of the scenario as it now stands; nullopt when it does not divide.
    static std::optional<std::int64_t> derivedDp(const ScenarioDocument& document);

private:
    static std::vector<ScenarioValueChange>
    followingDp(const ScenarioDocument& document, std::int64_t numGpus, int tp, int pp, int cp);
};

} // namespace ts::gui
