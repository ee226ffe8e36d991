#include "scenario/ShardingResolver.h"

#include <string>

namespace ts {

namespace {

std::string divisorList(std::int64_t n) {
    std::string small, large;
    int count = 0;
    for (std::int64_t d = 1; d * d <= n; ++d) {
        if (n % d != 0)
            continue;
        small += (small.empty() ? "" : ", ") + std::to_string(d);
        if (d != n / d)
            large = ", " + std::to_string(n / d) + large;
        count += d == n / d ? 1 : 2;
    }
    return count <= 16 ? small + large : "e.g. " + small;
}

// Ulysses all-to-alls trade the sequence split for a head split over tp*cp ranks (Jacobs et
// al. 2023); Megatron-Core's a2a path asserts the same divisibility.
bool headsSplit(const ModelConfig& model, std::int64_t ranks) {
    if (model.heads % ranks != 0)
        return false;
    if (model.mla) // MLA's latent K/V has no separate KV heads to split
        return true;
    return model.kvHeads % ranks == 0 || ranks % model.kvHeads == 0; // else KV replicated
}

} // namespace

bool resolveDpShard(const ParallelInput& in, bool dpKnown, ParallelConfig& p, Diagnostics& diags) {
    p.dpShard = p.dp;
    if (!in.dpShard || !*in.dpShard)
        return true;
    const std::int64_t shard = **in.dpShard;
    if (!dpKnown)
        return true; // dp was refused; its message says what to fix first
    const std::string path = "/parallelism/dp_shard";
    if (shard < 1 || p.dp % shard != 0) {
        diags.error(path, "dp_shard = " + std::to_string(shard) + " does not divide dp = " +
                              std::to_string(p.dp) + ": choose a divisor of dp (" +
                              divisorList(p.dp) + "), or null for dp");
        return false;
    }
    // FSDP HYBRID_SHARD / DeepSpeed MiCS shard the ZeRO state within groups of dp_shard
    // ranks; with zero 0 there is no sharded state.
    if (shard < p.dp && p.zero < 1) {
        diags.error(path, "dp_shard = " + std::to_string(shard) +
                              " < dp = " + std::to_string(p.dp) +
                              " shards within groups, but zero 0 replicates everything, so "
                              "there is nothing to shard: set zero to 1, 2 or 3, or dp_shard "
                              "to null");
        return false;
    }
    p.dpShard = shard;
    return true;
}

bool resolveCpComm(const ParallelInput& in, const ModelConfig& model, ParallelConfig& p,
                   Diagnostics& diags) {
    p.cpComm = in.cpComm.value_or(CpCommType::P2P); // Megatron-LM's --cp-comm-type default
    if (p.cpComm != CpCommType::A2A)
        return true;
    const std::int64_t ranks = std::int64_t(p.tp) * p.cp;
    if (headsSplit(model, ranks))
        return true;
    // The largest divisor of cp above 1 that would split the heads: the GPU count and the
    // sequence stay divisible (dp grows by the same factor).
    int working = 0;
    for (int cp = p.cp - 1; cp >= 2 && !working; --cp)
        if (p.cp % cp == 0 && headsSplit(model, std::int64_t(p.tp) * cp))
            working = cp;
    const std::string alternative =
        working ? "use cp = " + std::to_string(working) + " with \"a2a\", or cp_comm \"p2p\""
                : "use cp_comm \"p2p\" or \"allgather\"";
    const std::string n = std::to_string(ranks);
    const std::string tpcp =
        "tp*cp = " + std::to_string(p.tp) + "*" + std::to_string(p.cp) + " = " + n;
    const std::string kv = std::to_string(model.kvHeads);
    if (model.heads % ranks != 0)
        diags.error("/parallelism/cp_comm", "\"a2a\" (Ulysses) splits the attention heads over " +
                                                tpcp +
                                                ", but heads = " + std::to_string(model.heads) +
                                                " is not divisible by " + n + ": " + alternative);
    else
        diags.error("/parallelism/cp_comm", "\"a2a\" (Ulysses) splits the KV heads over " + tpcp +
                                                ", but kv_heads = " + kv + " and " + n +
                                                " do not divide one another (KV heads fewer than " +
                                                n + " are replicated, which needs " + n +
                                                " to be a multiple of " + kv + "): " + alternative);
    return false;
}

} // namespace ts
