#pragma once
// cluster.host resolved: the cluster preset's host figures, overridden key by key by the
// scenario's. A figure neither gives stays unknown (nullopt).

#include "common/Diagnostics.h"
#include "scenario/ClusterConfig.h"
#include "scenario/Scenario.h"

#include <optional>

namespace ts {

// `preset` is null without a cluster preset. Every given figure must be finite and > 0;
// errors name /cluster/host/<key>. Returns false after reporting an error.
bool resolveHost(const std::optional<HostInput>& input, const HostConfig* preset, HostConfig& out,
                 Diagnostics& diags);

} // namespace ts
