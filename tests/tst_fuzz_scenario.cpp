// Hostile input, generated: thousands of deterministic mutations of valid scenarios (values
// of every type and size at every key, deleted keys, unknown keys, flipped and truncated
// bytes). Nothing may throw, crash or hang; every refusal names a JSON path; every accepted
// scenario gives a finite estimate whose breakdown sums to its step time, or a clear
// "not modelled" error.

#include "TestSupport.h"

#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace ts;
using nlohmann::json;

namespace {

void collectPointers(const json& value, const std::string& path, std::vector<std::string>& out) {
    out.push_back(path);
    if (value.is_object())
        for (auto it = value.begin(); it != value.end(); ++it)
            collectPointers(it.value(), jsonPointerChild(path, it.key()), out);
    else if (value.is_array())
        for (std::size_t i = 0; i < value.size(); ++i)
            collectPointers(value[i], jsonPointerChild(path, i), out);
}

const std::vector<json>& hostileValues() {
    static const std::vector<json> values = {0,
                                             -1,
                                             1,
                                             2,
                                             3,
                                             7,
                                             64,
                                             1.5,
                                             -0.0,
                                             1e15,
                                             1e308,
                                             -1e308,
                                             9223372036854775807LL,
                                             18446744073709551615ULL,
                                             "",
                                             "x",
                                             "bf16",
                                             "full",
                                             std::string(5000, 'a'),
                                             true,
                                             false,
                                             nullptr,
                                             json::array(),
                                             json::array({1, 2, 3}),
                                             json::object(),
                                             json::object({{"a", 1}})};
    return values;
}

struct Outcome {
    int accepted = 0, refused = 0, notModelled = 0;
};

// Parses, resolves and estimates; checks the invariants. Returns a failure text or "".
std::string exercise(const std::string& text, Outcome& outcome) {
    try {
        Diagnostics diags;
        auto scenario = parseScenarioText(text, diags);
        auto resolved =
            scenario ? resolveScenario(*scenario, Catalog::builtIn(), diags) : std::nullopt;
        if (!resolved) {
            ++outcome.refused;
            if (!diags.hasErrors()) {
                std::string all;
                for (const auto& d : diags.all())
                    all += d.toString() + "; ";
                return "refused without an error (" + all + ")";
            }
            for (const auto& d : diags.errors())
                if (!d.path.empty() && d.path[0] != '/')
                    return "error path is not a JSON pointer: " + d.path;
            return {};
        }
        Diagnostics estimateDiags;
        auto estimate = estimatePlan(*resolved, estimateDiags);
        if (!estimate) {
            ++outcome.notModelled;
            return estimateDiags.hasErrors() ? std::string() : "no estimate and no error";
        }
        ++outcome.accepted;
        const double step = estimate->stepSeconds;
        if (!std::isfinite(step) || step <= 0)
            return "step time not finite and positive";
        if (std::fabs(estimate->time.sum() - step) > 1e-6 * step)
            return "breakdown does not sum to the step time";
        if (!std::isfinite(estimate->peakBytes) || estimate->peakBytes <= 0)
            return "peak memory not finite";
        return {};
    } catch (const std::exception& e) {
        return std::string("exception: ") + e.what();
    } catch (...) {
        return "unknown exception";
    }
}

} // namespace

class TestFuzzScenario : public QObject {
    Q_OBJECT
private slots:
    void valueMutations();
    void byteMutations();
};

void TestFuzzScenario::valueMutations() {
    std::mt19937 rng(20261130);
    Outcome outcome;
    int runs = 0;
    for (const QString& file : test::exampleFiles()) {
        const json base = json::parse(test::readAll(file));
        std::vector<std::string> pointers;
        collectPointers(base, "", pointers);
        for (int i = 0; i < 600; ++i) {
            json doc = base;
            const int edits = 1 + static_cast<int>(rng() % 3);
            for (int e = 0; e < edits; ++e) {
                const std::string& target = pointers[rng() % pointers.size()];
                const json::json_pointer pointer(target);
                if (!doc.contains(pointer))
                    continue;
                switch (rng() % 4) {
                case 0: // delete the key
                    if (!target.empty() && doc[pointer.parent_pointer()].is_object())
                        doc[pointer.parent_pointer()].erase(pointer.back());
                    break;
                case 1: // an unknown key beside it
                    if (doc[pointer].is_object())
                        doc[pointer]["unexpected_" + std::to_string(rng() % 5)] = 1;
                    break;
                default: // a hostile value
                    if (!target.empty())
                        doc[pointer] = hostileValues()[rng() % hostileValues().size()];
                }
            }
            const std::string failure = exercise(doc.dump(), outcome);
            QVERIFY2(failure.empty(),
                     (file.toStdString() + ": " + failure + "\n" + doc.dump()).c_str());
            ++runs;
        }
    }
    qInfo("value mutations: %d runs, %d estimated, %d refused, %d not modelled", runs,
          outcome.accepted, outcome.refused, outcome.notModelled);
    QVERIFY(outcome.accepted > 0 && outcome.refused > 0);
}

void TestFuzzScenario::byteMutations() {
    std::mt19937 rng(42);
    Outcome outcome;
    int runs = 0;
    for (const QString& file : test::exampleFiles()) {
        const std::string base = test::readAll(file);
        for (int i = 0; i < 400; ++i) {
            std::string text = base;
            switch (rng() % 3) {
            case 0: // flip bytes
                for (int k = 0; k < 3; ++k)
                    text[rng() % text.size()] = static_cast<char>(rng() % 256);
                break;
            case 1: // truncate
                text.resize(rng() % text.size());
                break;
            default: // duplicate a slice
                const std::size_t at = rng() % text.size();
                text.insert(at, text.substr(rng() % text.size(), 1 + rng() % 40));
            }
            const std::string failure = exercise(text, outcome);
            QVERIFY2(failure.empty(), (file.toStdString() + ": " + failure).c_str());
            ++runs;
        }
    }
    qInfo("byte mutations: %d runs, %d estimated, %d refused, %d not modelled", runs,
          outcome.accepted, outcome.refused, outcome.notModelled);
}

QTEST_GUILESS_MAIN(TestFuzzScenario)
#include "tst_fuzz_scenario.moc"
