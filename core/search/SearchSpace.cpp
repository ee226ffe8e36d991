#include "search/SearchSpace.h"

#include <algorithm>
#include <sstream>

namespace ts {

namespace {

constexpr std::int64_t kMaxMicroBatch = 32;
// Context parallelism below this many tokens per rank is never worth its ring (Megatron-LM
// uses it from 8K-token sequences up; Llama 3 sec. 3.3.2: cp 16 at 128K = 8K per rank).
constexpr std::int64_t kMinTokensPerCpRank = 2048;

std::vector<int> divisorsOf(std::int64_t n, std::int64_t upTo) {
    std::vector<int> out;
    for (std::int64_t d = 1; d <= std::min(n, upTo); ++d)
        if (n % d == 0)
            out.push_back(static_cast<int>(d));
    return out;
}

template <class T> std::vector<T> orDefault(const std::vector<T>& given, std::vector<T> fallback) {
    return given.empty() ? fallback : given;
}

template <class T> bool allows(const std::vector<T>& given, T value) {
    return given.empty() || std::find(given.begin(), given.end(), value) != given.end();
}

bool kvSplits(const ModelConfig& model, std::int64_t ranks) {
    return model.mla || model.kvHeads % ranks == 0 || ranks % model.kvHeads == 0;
}

// The resolver's tensor-parallel rules (heads, KV groups, FFN) and the scale-up domain.
bool tensorParallelValid(const ResolvedScenario& sc, int tp) {
    const ModelConfig& m = sc.model;
    return m.heads % tp == 0 && kvSplits(m, tp) && m.ffnHidden % tp == 0 &&
           sc.cluster.numGpus % tp == 0;
}

} // namespace

void applyPlanChoice(const PlanChoice& c, ResolvedScenario& sc) {
    ParallelConfig& p = sc.parallel;
    p.tp = c.tp;
    p.pp = c.pp;
    p.vpp = c.vpp;
    p.cp = c.cp;
    p.ep = c.ep;
    p.etp = c.etp;
    p.dp = c.dp;
    p.dpShard = c.dpShard > 0 ? c.dpShard : c.dp;
    p.zero = c.zero;
    p.sequenceParallel = c.sequenceParallel;
    p.recompute = c.recompute;
    p.recomputeLayers = c.recompute == RecomputeMode::Full && c.recomputeLayers > 0
                            ? std::optional<int>(c.recomputeLayers)
                            : std::nullopt;
    p.schedule = c.schedule;
    p.offload = c.offload;
    p.overlap = c.overlap;
    sc.training.microBatch = c.microBatch;
    // As the resolver splits layers without pipeline_layers: the first chunks take one more.
    const int chunks = c.pp * c.vpp;
    const int layers = static_cast<int>(sc.model.layers);
    p.pipelineLayers.assign(static_cast<std::size_t>(chunks), layers / chunks);
    for (int i = 0; i < layers % chunks; ++i)
        ++p.pipelineLayers[static_cast<std::size_t>(i)];
}

PlanChoice planChoiceOf(const ResolvedScenario& sc) {
    const ParallelConfig& p = sc.parallel;
    PlanChoice c;
    c.tp = p.tp;
    c.pp = p.pp;
    c.vpp = p.vpp;
    c.cp = p.cp;
    c.ep = p.ep;
    c.etp = p.etp;
    c.dp = p.dp;
    c.dpShard = p.dpShard == p.dp ? 0 : p.dpShard;
    c.zero = p.zero;
    c.sequenceParallel = p.sequenceParallel;
    c.recompute = p.recompute;
    c.recomputeLayers = p.recomputeLayers.value_or(0);
    c.microBatch = sc.training.microBatch;
    c.schedule = p.schedule;
    c.offload = p.offload;
    c.overlap = p.overlap;
    return c;
}

std::string describePlan(const PlanChoice& c) {
    std::ostringstream o;
    o << "tp " << c.tp << " · pp " << c.pp;
    if (c.vpp > 1)
        o << " · vpp " << c.vpp;
    if (c.cp > 1)
        o << " · cp " << c.cp;
    if (c.ep > 1)
        o << " · ep " << c.ep << " · etp " << c.etp;
    o << " · dp " << c.dp;
    if (c.dpShard > 0)
        o << " (shard " << c.dpShard << ")";
    o << " · zero " << c.zero << (c.sequenceParallel ? " · sp" : "") << " · "
      << enumName(c.recompute);
    if (c.recompute == RecomputeMode::Full && c.recomputeLayers > 0)
        o << " " << c.recomputeLayers;
    o << " · mb " << c.microBatch;
    if (c.pp > 1)
        o << " · " << enumName(c.schedule);
    const auto off = [&](const char* what, OffloadTarget t) {
        if (t != OffloadTarget::None)
            o << " · " << what << "→" << enumName(t);
    };
    off("optimizer", c.offload.optimizer);
    off("params", c.offload.params);
    off("activations", c.offload.activations);
    if (!c.overlap.tp && c.tp > 1)
        o << " · no TP overlap";
    return o.str();
}

SearchSpace::SearchSpace(const ResolvedScenario& sc, const SearchDomain& domain)
    : sc_(sc), domain_(domain) {
    const ModelConfig& m = sc.model;
    const std::int64_t n = sc.cluster.numGpus;
    const bool moe = m.moe.has_value();
    std::vector<int> cps;
    // Packed documents (training.document_tokens) are not modelled under context parallelism
    // (scenario/ScenarioResolver.cpp refuses the pair): cp 1 only.
    const int maxCp = sc.training.documentTokens ? 1 : 64;
    for (int cp = 1; cp <= maxCp; cp *= 2)
        if (sc.training.seqLen % (cp == 1 ? 1 : 2 * cp) == 0 &&
            (cp == 1 || sc.training.seqLen / cp >= kMinTokensPerCpRank))
            cps.push_back(cp);
    const auto tps = orDefault(domain.tp, divisorsOf(n, sc.cluster.scaleUp.domainGpus));
    const auto mbs = domain.microBatch.empty()
                         ? [&] {
                               std::vector<std::int64_t> v;
                               for (int d : divisorsOf(sc.training.globalBatch, kMaxMicroBatch))
                                   v.push_back(d);
                               return v;
                           }()
                         : domain.microBatch;
    for (int tp : tps) {
        if (!tensorParallelValid(sc, tp))
            continue;
        for (int cp : orDefault(domain.cp, cps)) {
            if (cp > maxCp)
                continue;
            if (n % (std::int64_t(tp) * cp) != 0 || sc.training.seqLen % cp != 0)
                continue;
            if (sc.parallel.cpComm == CpCommType::A2A &&
                (m.heads % (tp * cp) != 0 || !kvSplits(m, std::int64_t(tp) * cp)))
                continue;
            const auto eps = orDefault(domain.ep, moe ? divisorsOf(m.moe->experts, m.moe->experts)
                                                      : std::vector<int>{1});
            for (int ep : eps) {
                if ((moe && m.moe->experts % ep != 0) || (!moe && ep != 1))
                    continue;
                std::vector<int> etps = moe ? std::vector<int>{1, tp} : std::vector<int>{tp};
                if (etps.size() == 2 && tp == 1)
                    etps.pop_back();
                for (int etp : orDefault(domain.etp, etps)) {
                    if (moe && m.moe->expertFfnHidden % etp != 0)
                        continue;
                    for (int spFlag :
                         orDefault(domain.sequenceParallel,
                                   tp > 1 ? std::vector<int>{0, 1} : std::vector<int>{0}))
                        for (std::int64_t mb : mbs)
                            if (sc.training.globalBatch % mb == 0)
                                groups_.push_back({tp, cp, ep, etp, spFlag != 0, mb});
                }
            }
        }
    }
}

std::vector<int> SearchSpace::pipelineDegrees(const LayerGroupKey& key) const {
    const std::int64_t rest = sc_.cluster.numGpus / (std::int64_t(key.tp) * key.cp);
    return orDefault(domain_.pp, divisorsOf(rest, sc_.model.layers));
}

namespace {

// The fields below a layer-cost group, outermost first: pp, vpp, schedule, zero, dp_shard,
// recompute (and recompute_layers), offload, TP overlap.
struct PlanEnumerator {
    const ResolvedScenario& sc;
    const SearchDomain& d;
    const std::function<bool(const PlanChoice&)>& visit;
    PlanChoice c;
    bool stopped = false;

    bool emit() {
        if (!stopped && !visit(c))
            stopped = true;
        return !stopped;
    }

    std::vector<int> vppValues() const {
        const int layers = static_cast<int>(sc.model.layers);
        std::vector<int> out;
        for (int v = 1; c.pp * v <= layers; ++v) {
            if (v > 1 && c.pp == 1)
                break;
            // Interleaving as Megatron-LM sets it (--num-layers-per-virtual-pipeline-stage):
            // every chunk the same number of layers.
            const bool even = v == 1 || layers % (c.pp * v) == 0;
            if (d.vpp.empty() ? even : allows(d.vpp, v))
                out.push_back(v);
        }
        return out;
    }

    std::vector<PipelineScheduleKind> schedules() const {
        using K = PipelineScheduleKind;
        std::vector<K> all;
        if (c.pp == 1)
            all = {K::OneFOneB};
        else if (c.vpp == 1)
            all = {K::OneFOneB, K::GPipe, K::ZeroBubble};
        else if (c.vpp == 2)
            all = {K::Interleaved, K::BreadthFirst, K::ZeroBubble};
        else
            all = {K::Interleaved, K::BreadthFirst};
        std::vector<K> out;
        const std::int64_t m = sc.training.globalBatch / (c.dp * c.microBatch);
        for (K k : all)
            if (allows(d.schedule, k) && !(k == K::Interleaved && m % c.pp != 0))
                out.push_back(k);
        return out;
    }

    std::vector<std::int64_t> shardValues() const {
        std::vector<std::int64_t> out{0};
        if (c.zero < 1 || c.dp < 2)
            return d.dpShard.empty() || allows(d.dpShard, std::int64_t{0})
                       ? out
                       : std::vector<std::int64_t>{};
        // Hybrid sharding over power-of-two groups of DP ranks (FSDP HYBRID_SHARD).
        for (std::int64_t s = 2; s < c.dp; s *= 2)
            if (c.dp % s == 0)
                out.push_back(s);
        std::vector<std::int64_t> kept;
        for (std::int64_t s : out)
            if (allows(d.dpShard, s) || (s == 0 && allows(d.dpShard, c.dp)))
                kept.push_back(s);
        return kept;
    }

    // What the resolver compares recompute_layers with: the layers of the largest stage.
    int largestStageLayers() const {
        const int chunks = c.pp * c.vpp;
        const int base = static_cast<int>(sc.model.layers / chunks);
        const int extra = static_cast<int>(sc.model.layers % chunks);
        const bool vShape = c.schedule == PipelineScheduleKind::ZeroBubble && c.vpp == 2;
        int most = 0;
        for (int r = 0; r < c.pp; ++r) {
            int stage = 0;
            for (int v = 0; v < c.vpp; ++v) {
                const int k = vShape && v == 1 ? 2 * c.pp - 1 - r : v * c.pp + r;
                stage += base + (k < extra ? 1 : 0);
            }
            most = std::max(most, stage);
        }
        return most;
    }

    std::vector<OffloadTarget> offloadValues(const std::vector<OffloadTarget>& given,
                                             bool possible) const {
        if (!given.empty())
            return given;
        if (possible)
            return {OffloadTarget::None, OffloadTarget::Cpu};
        return {OffloadTarget::None};
    }

    // Without a second rank to shard over (dp x cp = 1), ZeRO 1-3 are ZeRO 0: the same plan,
    // estimated alike. Unless the search is pinned to stages, only what an offload needs
    // stays: the lowest stage that offloads the optimizer (1), the one that offloads
    // parameters (3).
    bool unsharded(int z) const {
        if (!d.zero.empty() || z == 0 || std::int64_t(c.dp) * c.cp > 1)
            return false;
        if (c.offload.params != OffloadTarget::None)
            return z != 3;
        return c.offload.optimizer == OffloadTarget::None || z != 1;
    }

    // Innermost, so that consecutive plans differ only in what the stage costs do not
    // depend on (below ZeRO 3 and without offload): PlanEvaluator reuses them.
    void zeros() {
        for (int z : orDefault(d.zero, {0, 1, 2, 3})) {
            // DeepSpeed runtime/zero/config.py: optimizer offload with ZeRO 1-3, parameter
            // offload with ZeRO 3 only (parallel/PlanSupport.cpp).
            if ((c.offload.optimizer != OffloadTarget::None && z < 1) ||
                (c.offload.params != OffloadTarget::None && z != 3) || unsharded(z))
                continue;
            c.zero = z;
            for (std::int64_t s : shardValues()) {
                c.dpShard = s;
                if (!emit())
                    return;
            }
        }
    }

    void overlaps() {
        const bool userbuffers = c.tp > 1 && c.sequenceParallel; // TP overlap costs memory
        const auto tps =
            orDefault(d.overlapTp, userbuffers ? std::vector<int>{1, 0} : std::vector<int>{1});
        for (int otp : tps)
            for (int odp : orDefault(d.overlapDp, {1}))
                for (int opp : orDefault(d.overlapPp, {1}))
                    for (int oep : orDefault(d.overlapEp, {c.ep > 1 ? 1 : 0})) {
                        c.overlap = OverlapConfig{otp != 0, odp != 0, opp != 0, oep != 0};
                        zeros();
                        if (stopped)
                            return;
                    }
    }

    void offloads() {
        const HostConfig& h = sc.cluster.host;
        const bool pcie = h.pcieGBps.has_value();
        // Whether a ZeRO stage of the domain can take each offload; zeros() pairs them (the
        // stage is chosen inside, after the offload).
        const bool sharded = allows(d.zero, 1) || allows(d.zero, 2) || allows(d.zero, 3);
        const bool zero3 = allows(d.zero, 3);
        for (OffloadTarget o : offloadValues(d.offloadOptimizer, pcie && h.memoryGBps && sharded))
            for (OffloadTarget p : offloadValues(d.offloadParams, pcie && zero3))
                for (OffloadTarget a : offloadValues(d.offloadActivations, pcie)) {
                    c.offload = OffloadConfig{o, p, a};
                    overlaps();
                    if (stopped)
                        return;
                }
    }

    void recomputes() {
        using R = RecomputeMode;
        for (R r : orDefault(d.recompute, {R::None, R::Selective, R::Full})) {
            c.recompute = r;
            std::vector<int> layers{0};
            if (r == R::Full) {
                const int most = largestStageLayers();
                if (d.recomputeLayers.empty()) {
                    for (int l = 1; l < most; l *= 2)
                        layers.push_back(l);
                } else {
                    layers.clear();
                    for (int l : d.recomputeLayers)
                        if (l <= most)
                            layers.push_back(l);
                }
            }
            for (int l : layers) {
                c.recomputeLayers = l;
                offloads();
                if (stopped)
                    return;
            }
        }
    }

    void pipelines(const std::vector<int>& pps) {
        const ModelConfig& m = sc.model;
        const std::int64_t n = sc.cluster.numGpus;
        for (int pp : pps) {
            const std::int64_t mp = std::int64_t(c.tp) * c.cp * pp;
            if (pp > m.layers || n % mp != 0)
                continue;
            c.pp = pp;
            c.dp = n / mp;
            if (sc.training.globalBatch % (c.dp * c.microBatch) != 0)
                continue;
            if (m.moe && (std::int64_t(c.tp) * c.cp * c.dp) % (std::int64_t(c.ep) * c.etp) != 0)
                continue;
            for (int v : vppValues()) {
                c.vpp = v;
                for (PipelineScheduleKind k : schedules()) {
                    c.schedule = k;
                    recomputes();
                    if (stopped)
                        return;
                }
            }
        }
    }
};

} // namespace

PackedPlan SearchSpace::pack(std::size_t g, const PlanChoice& c) {
    PackedPlan p;
    p.group = static_cast<std::uint32_t>(g);
    p.dp = static_cast<std::uint32_t>(c.dp);
    p.dpShard = static_cast<std::uint32_t>(c.dpShard);
    p.pp = static_cast<std::uint16_t>(c.pp);
    p.vpp = static_cast<std::uint16_t>(c.vpp);
    p.recomputeLayers = static_cast<std::uint16_t>(c.recomputeLayers);
    const auto bits = [](auto v) { return static_cast<unsigned>(v); };
    p.choices =
        static_cast<std::uint16_t>(bits(c.zero) | bits(c.recompute) << 2 | bits(c.schedule) << 4 |
                                   bits(c.offload.optimizer) << 7 | bits(c.offload.params) << 9 |
                                   bits(c.offload.activations) << 11);
    p.overlap = static_cast<std::uint8_t>(bits(c.overlap.tp) | bits(c.overlap.dp) << 1 |
                                          bits(c.overlap.pp) << 2 | bits(c.overlap.ep) << 3);
    return p;
}

PlanChoice SearchSpace::unpack(const PackedPlan& p) const {
    const LayerGroupKey& key = groups_[p.group];
    PlanChoice c;
    c.tp = key.tp;
    c.cp = key.cp;
    c.ep = key.ep;
    c.etp = key.etp;
    c.sequenceParallel = key.sequenceParallel;
    c.microBatch = key.microBatch;
    c.pp = p.pp;
    c.vpp = p.vpp;
    c.dp = p.dp;
    c.dpShard = p.dpShard;
    c.recomputeLayers = p.recomputeLayers;
    const auto field = [&](int shift, unsigned mask) { return (p.choices >> shift) & mask; };
    c.zero = static_cast<int>(field(0, 3));
    c.recompute = static_cast<RecomputeMode>(field(2, 3));
    c.schedule = static_cast<PipelineScheduleKind>(field(4, 7));
    c.offload = OffloadConfig{static_cast<OffloadTarget>(field(7, 3)),
                              static_cast<OffloadTarget>(field(9, 3)),
                              static_cast<OffloadTarget>(field(11, 3))};
    c.overlap = OverlapConfig{(p.overlap & 1) != 0, (p.overlap & 2) != 0, (p.overlap & 4) != 0,
                              (p.overlap & 8) != 0};
    return c;
}

void SearchSpace::forEachPlan(std::size_t g,
                              const std::function<bool(const PlanChoice&)>& visit) const {
    const LayerGroupKey& key = groups_[g];
    PlanEnumerator e{sc_, domain_, visit, {}};
    e.c.tp = key.tp;
    e.c.cp = key.cp;
    e.c.ep = key.ep;
    e.c.etp = key.etp;
    e.c.sequenceParallel = key.sequenceParallel;
    e.c.microBatch = key.microBatch;
    e.pipelines(pipelineDegrees(key));
}

} // namespace ts
