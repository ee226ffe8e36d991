// The scenario library's interface, the same cases on SQLite and PostgreSQL: versions with
// times and notes, optimistic concurrency, tags and search, delete and its undo, the estimate
// cache, JSON bundles, and bad input named clearly.

#include "StoreFixtures.h"
#include "TestSupport.h"

#include "estimate/EstimatorVersion.h"
#include "store/LibraryBundle.h"
#include "store/VersionEstimate.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace ts;
using namespace ts::store;

namespace {

std::string scenarioText(const std::string& name, int tp) {
    nlohmann::ordered_json doc = {{"format", "trainscape.scenario/1"},
                                  {"name", name},
                                  {"model", {{"preset", "llama3-8b"}}},
                                  {"cluster", {{"preset", "dgx-h100"}, {"num_gpus", 8}}},
                                  {"training", {{"seq_len", 8192}, {"global_batch", 64}}},
                                  {"parallelism", {{"tp", tp}}}};
    return doc.dump(2) + "\n";
}

} // namespace

class TestStore : public QObject {
    Q_OBJECT
private slots:
    void versionsWithTimesAndNotes_data() { test::addBackendRows(); }
    void versionsWithTimesAndNotes();
    void staleSaveIsAConflict_data() { test::addBackendRows(); }
    void staleSaveIsAConflict();
    void tagsAndSearch_data() { test::addBackendRows(); }
    void tagsAndSearch();
    void removeAndUndo_data() { test::addBackendRows(); }
    void removeAndUndo();
    void estimateCache_data() { test::addBackendRows(); }
    void estimateCache();
    void estimateRecomputedWhenEstimatorChanges_data() { test::addBackendRows(); }
    void estimateRecomputedWhenEstimatorChanges();
    void bundleRoundTrip_data() { test::addBackendRows(); }
    void bundleRoundTrip();
    void badInputIsNamed_data() { test::addBackendRows(); }
    void badInputIsNamed();
};

void TestStore::versionsWithTimesAndNotes() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    auto library = test::openOrFail(test::freshLibraryLocation(backend, dir));
    QVERIFY(library);
    auto id = library->addScenario("H100 rail-optimized", scenarioText("a", 8), "first try", {});
    QVERIFY2(id.ok(), id.error().message.c_str());
    auto second = library->saveVersion(*id, scenarioText("a", 4), "TP 4", 1);
    QVERIFY2(second.ok(), second.error().message.c_str());
    QCOMPARE(*second, 2);
    auto third = library->saveVersion(*id, scenarioText("a", 2), "TP 2", std::nullopt);
    QCOMPARE(*third, 3);

    auto versions = library->versions(*id);
    QVERIFY(versions.ok());
    QCOMPARE(versions->size(), size_t(3));
    QCOMPARE(versions->at(0).note, std::string("first try"));
    QCOMPARE(versions->at(2).note, std::string("TP 2"));
    for (const auto& v : *versions) {
        QCOMPARE(v.createdAt.size(), size_t(24)); // 2026-12-01T20:47:03.123Z
        QVERIFY(v.createdAt.back() == 'Z');
    }
    QVERIFY(versions->at(0).createdAt <= versions->at(2).createdAt);

    auto latest = library->version(*id, std::nullopt);
    QVERIFY(latest.ok());
    QCOMPARE(latest->info.number, 3);
    QCOMPARE(latest->scenarioJson, scenarioText("a", 2));
    QCOMPARE(library->version(*id, 2)->scenarioJson, scenarioText("a", 4));

    auto list = library->listScenarios();
    QVERIFY(list.ok());
    QCOMPARE(list->size(), size_t(1));
    QCOMPARE(list->front().name, std::string("H100 rail-optimized"));
    QCOMPARE(list->front().latestVersion, 3);
    QCOMPARE(list->front().versionCount, 3);
    QCOMPARE(list->front().updatedAt, versions->at(2).createdAt);
    QVERIFY(library->rename(*id, "H100 rail-only").ok());
    QCOMPARE(library->scenario(*id)->name, std::string("H100 rail-only"));
    QVERIFY(library->location().find(backend.toStdString()) == 0);
    QCOMPARE(library->schemaVersion(), 3);
}

void TestStore::staleSaveIsAConflict() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    const std::string location = test::freshLibraryLocation(backend, dir);
    auto mine = test::openOrFail(location);
    auto theirs = test::openOrFail(location);
    QVERIFY(mine && theirs);
    auto id = mine->addScenario("shared", scenarioText("s", 8), "", {});
    QVERIFY(id.ok());
    // Both start from version 1; the other process saves first.
    QCOMPARE(*theirs->saveVersion(*id, scenarioText("s", 4), "theirs", 1), 2);
    auto stale = mine->saveVersion(*id, scenarioText("s", 2), "mine", 1);
    QVERIFY(!stale.ok());
    QCOMPARE(stale.error().kind, StoreErrorKind::Conflict);
    QVERIFY2(stale.error().message.find("changed by another process") != std::string::npos,
             stale.error().message.c_str());
    // Nothing was lost: their version stands, mine was not written.
    QCOMPARE(mine->versions(*id)->size(), size_t(2));
    QCOMPARE(mine->version(*id, 2)->info.note, std::string("theirs"));
    // Reloaded, the save goes through.
    QCOMPARE(*mine->saveVersion(*id, scenarioText("s", 2), "mine", 2), 3);
}

void TestStore::tagsAndSearch() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    auto library = test::openOrFail(test::freshLibraryLocation(backend, dir));
    QVERIFY(library);
    auto a = library->addScenario("H100 rail-optimized", scenarioText("a", 8), "TP 8 PP 8",
                                  {"h100", "purchase"});
    auto b =
        library->addScenario("B200 rail-only", scenarioText("b", 8), "cheaper network", {"b200"});
    auto c = library->addScenario("100% MFU_dream", scenarioText("c", 8), "", {});
    QVERIFY(a.ok() && b.ok() && c.ok());
    QVERIFY(library->addTag(*b, "purchase").ok());
    QVERIFY(library->addTag(*b, "purchase").ok()); // twice is once
    QCOMPARE(library->scenario(*b)->tags, (std::vector<std::string>{"b200", "purchase"}));

    auto ids = [&](const std::string& query) {
        std::vector<ScenarioId> out;
        auto found = library->search(query);
        if (found)
            for (const auto& s : *found)
                out.push_back(s.id);
        return out;
    };
    QCOMPARE(ids("rail"), (std::vector<ScenarioId>{*a, *b}));     // names
    QCOMPARE(ids("RAIL only"), (std::vector<ScenarioId>{*b}));    // every word, any case
    QCOMPARE(ids("pp 8"), (std::vector<ScenarioId>{*a}));         // notes
    QCOMPARE(ids("purchase"), (std::vector<ScenarioId>{*a, *b})); // tags
    QCOMPARE(ids("100%"), (std::vector<ScenarioId>{*c}));         // % is no wildcard
    QCOMPARE(ids("U_d"), (std::vector<ScenarioId>{*c}));          // nor _
    QCOMPARE(ids("nothing-like-this"), (std::vector<ScenarioId>{}));
    QCOMPARE(ids("").size(), size_t(3));
    // A note of a later version is searched too.
    QVERIFY(library->saveVersion(*c, scenarioText("c", 4), "with CP 2", std::nullopt).ok());
    QCOMPARE(ids("cp"), (std::vector<ScenarioId>{*c}));

    QVERIFY(library->removeTag(*a, "purchase").ok());
    QCOMPARE(ids("purchase"), (std::vector<ScenarioId>{*b}));
}

void TestStore::removeAndUndo() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    auto library = test::openOrFail(test::freshLibraryLocation(backend, dir));
    QVERIFY(library);
    auto keep = library->addScenario("keep", scenarioText("k", 8), "", {});
    auto id = library->addScenario("doomed", scenarioText("d", 8), "v1", {"x"});
    QVERIFY(library->saveVersion(*id, scenarioText("d", 4), "v2", 1).ok());
    QVERIFY(library->storeEstimate(*id, 2, {"est-1", R"({"fits":true})", ""}).ok());

    auto removed = library->removeScenario(*id);
    QVERIFY2(removed.ok(), removed.error().message.c_str());
    QCOMPARE(removed->versions.size(), size_t(2));
    QCOMPARE(removed->estimates.size(), size_t(1));
    QCOMPARE(library->scenario(*id).error().kind, StoreErrorKind::NotFound);
    QCOMPARE(library->listScenarios()->size(), size_t(1));
    QCOMPARE(library->removeScenario(*id).error().kind, StoreErrorKind::NotFound);

    // Undo: the same id, versions, times, tags and cached estimate.
    auto restored = library->insertRecord(*removed);
    QVERIFY2(restored.ok(), restored.error().message.c_str());
    QCOMPARE(*restored, *id);
    auto again = library->record(*id);
    QVERIFY(again.ok());
    QCOMPARE(again->versions.size(), size_t(2));
    QCOMPARE(again->versions[1].info.createdAt, removed->versions[1].info.createdAt);
    QCOMPARE(again->versions[1].scenarioJson, scenarioText("d", 4));
    QCOMPARE(again->tags, std::vector<std::string>{"x"});
    QCOMPARE(library->cachedEstimate(*id, 2)->value().estimatorVersion, std::string("est-1"));
    // The id is taken now; a second undo is refused, and new scenarios get fresh ids.
    QCOMPARE(library->insertRecord(*removed).error().kind, StoreErrorKind::Conflict);
    auto fresh = library->addScenario("new", scenarioText("n", 8), "", {});
    QVERIFY(fresh.ok());
    QVERIFY(*fresh != *id && *fresh != *keep);
}

void TestStore::estimateCache() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    auto library = test::openOrFail(test::freshLibraryLocation(backend, dir));
    QVERIFY(library);
    auto id = library->addScenario("cached", scenarioText("c", 8), "", {});
    QVERIFY(library->cachedEstimate(*id, 1)->has_value() == false);
    QVERIFY(library->storeEstimate(*id, 1, {"v1", R"({"a":1})", ""}).ok());
    QVERIFY(library->storeEstimate(*id, 1, {"v2", R"({"a":2})", ""}).ok()); // replaces
    auto cached = library->cachedEstimate(*id, 1);
    QVERIFY(cached.ok() && cached->has_value());
    QCOMPARE(cached->value().estimatorVersion, std::string("v2"));
    QCOMPARE(cached->value().estimateJson, std::string(R"({"a":2})"));
    QVERIFY(!cached->value().computedAt.empty());
    QCOMPARE(library->storeEstimate(*id, 7, {"v2", "{}", ""}).error().kind,
             StoreErrorKind::NotFound);
    QCOMPARE(library->storeEstimate(*id + 100, 1, {"v2", "{}", ""}).error().kind,
             StoreErrorKind::NotFound);
}

void TestStore::estimateRecomputedWhenEstimatorChanges() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    auto library = test::openOrFail(test::freshLibraryLocation(backend, dir));
    QVERIFY(library);
    auto id = library->addScenario("8b", scenarioText("8b", 1), "", {});
    QVERIFY(id.ok());
    // A cache entry from another estimator is stale, whatever it says.
    QVERIFY(library->storeEstimate(*id, 1, {"0.0.1+old", R"({"stale": true})", ""}).ok());
    Diagnostics diags;
    auto fresh = estimateOfVersion(*library, *id, 1, Catalog::builtIn(),
                                   CalibrationRegistry::builtIn(), "", diags);
    QVERIFY2(fresh.ok(), fresh.error().message.c_str());
    QVERIFY(!fresh->fromCache);
    QCOMPARE(fresh->estimatorVersion, std::string(estimatorVersion()));
    QCOMPARE(nlohmann::json::parse(fresh->estimateJson)["format"], "trainscape.estimate/1");
    QCOMPARE(library->cachedEstimate(*id, 1)->value().estimatorVersion,
             std::string(estimatorVersion()));
    auto again = estimateOfVersion(*library, *id, 1, Catalog::builtIn(),
                                   CalibrationRegistry::builtIn(), "", diags);
    QVERIFY(again.ok() && again->fromCache);
    QCOMPARE(again->estimateJson, fresh->estimateJson);
    // Other catalog or calibration files make another key: recomputed again.
    auto other = estimateOfVersion(*library, *id, 1, Catalog::builtIn(),
                                   CalibrationRegistry::builtIn(), "abc123", diags);
    QVERIFY(other.ok() && !other->fromCache);
    QVERIFY(other->estimatorVersion.find("abc123") != std::string::npos);
}

void TestStore::bundleRoundTrip() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    auto library = test::openOrFail(test::freshLibraryLocation(backend, dir));
    QVERIFY(library);
    auto a = library->addScenario("alpha", scenarioText("a", 8), "first", {"t1"});
    QVERIFY(library->saveVersion(*a, scenarioText("a", 4), "second", 1).ok());
    QVERIFY(library->storeEstimate(*a, 2, {"e", R"({"fits": false})", ""}).ok());
    auto b = library->addScenario("beta", scenarioText("b", 2), "", {});
    QVERIFY(a.ok() && b.ok());

    auto all = exportBundle(*library, {});
    QVERIFY2(all.ok(), all.error().message.c_str());
    auto chosen = exportBundle(*library, {*b});
    QVERIFY(chosen.ok());
    QCOMPARE(nlohmann::json::parse(*chosen)["scenarios"].size(), size_t(1));
    QCOMPARE(exportBundle(*library, {*b + 50}).error().kind, StoreErrorKind::NotFound);

    // Into an empty SQLite library (the usual way a team library is taken home).
    QTemporaryDir other;
    auto home = test::openOrFail(other.filePath("home.sqlite").toStdString());
    auto ids = importBundle(*home, *all);
    QVERIFY2(ids.ok(), ids.error().message.c_str());
    QCOMPARE(ids->size(), size_t(2));
    auto alpha = home->record(ids->at(0));
    QVERIFY(alpha.ok());
    QCOMPARE(alpha->name, std::string("alpha"));
    QCOMPARE(alpha->tags, std::vector<std::string>{"t1"});
    QCOMPARE(alpha->versions.size(), size_t(2));
    QCOMPARE(alpha->versions[0].info.note, std::string("first"));
    QCOMPARE(alpha->versions[1].info.createdAt, library->version(*a, 2)->info.createdAt);
    QCOMPARE(nlohmann::json::parse(alpha->versions[1].scenarioJson),
             nlohmann::json::parse(scenarioText("a", 4)));
    QCOMPARE(alpha->estimates.size(), size_t(1));
    // And back into this backend, under new ids beside the originals.
    auto back = importBundle(*library, *chosen);
    QVERIFY(back.ok());
    QCOMPARE(library->listScenarios()->size(), size_t(3));
}

void TestStore::badInputIsNamed() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    auto library = test::openOrFail(test::freshLibraryLocation(backend, dir));
    QVERIFY(library);
    QCOMPARE(library->addScenario("", scenarioText("x", 8), "", {}).error().kind,
             StoreErrorKind::BadInput);
    QCOMPARE(library->addScenario("x", "{not json", "", {}).error().kind, StoreErrorKind::BadInput);
    QCOMPARE(library->addScenario("x", scenarioText("x", 8), "", {"two words"}).error().kind,
             StoreErrorKind::BadInput);
    QCOMPARE(library->saveVersion(999, scenarioText("x", 8), "", std::nullopt).error().kind,
             StoreErrorKind::NotFound);
    auto id = library->addScenario("x", scenarioText("x", 8), "", {});
    auto missing = library->version(*id, 5);
    QCOMPARE(missing.error().kind, StoreErrorKind::NotFound);
    QCOMPARE(missing.error().message, "scenario " + std::to_string(*id) + " has no version 5");
    QCOMPARE(library->listScenarios()->size(), size_t(1)); // the failed adds left nothing

    struct Case {
        const char* bundle;
        const char* path;
    };
    const Case cases[] = {
        {R"({"format": "other"})", "/format"},
        {R"({"format": "trainscape.library-bundle/1"})", "/scenarios"},
        {R"({"format": "trainscape.library-bundle/1", "scenarios": [{"name": "a",
            "versions": [{"number": 1, "created_at": "t", "scenario": 3}]}]})",
         "/scenarios/0/versions/0/scenario"},
        {R"({"format": "trainscape.library-bundle/1", "scenarios": [{"name": "a",
            "versions": []}]})",
         "/scenarios/0/versions"},
        // Found by fuzz_library_bundle: checks the library made only on insert, after the
        // scenarios before had been written (half an import). Now refused whole, with a path.
        {R"({"format": "trainscape.library-bundle/1", "scenarios": [{"name": "a",
            "versions": [{"number": 1, "created_at": "t", "scenario": {}}]}, {"name": "b",
            "tags": ["two words"], "versions": [{"number": 1, "created_at": "t",
            "scenario": {}}]}]})",
         "/scenarios/1/tags/0"},
        {R"({"format": "trainscape.library-bundle/1", "scenarios": [{"name": "a",
            "versions": [{"number": 1, "created_at": "t", "scenario": {}}]}, {"name": "",
            "versions": [{"number": 1, "created_at": "t", "scenario": {}}]}]})",
         "/scenarios/1/name"},
        {R"({"format": "trainscape.library-bundle/1", "scenarios": [{"name": "a",
            "versions": [{"number": 1, "created_at": "t", "scenario": {}},
                         {"number": 1, "created_at": "t", "scenario": {}}]}]})",
         "/scenarios/0/versions/1/number"},
        {R"({"format": "trainscape.library-bundle/1", "scenarios": [{"name": "a",
            "versions": [{"number": 4294967297, "created_at": "t", "scenario": {}}]}]})",
         "/scenarios/0/versions/0/number"},
    };
    for (const auto& c : cases) {
        auto imported = importBundle(*library, c.bundle);
        QVERIFY(!imported.ok());
        QVERIFY2(imported.error().message.find(c.path) != std::string::npos,
                 imported.error().message.c_str());
    }
    QCOMPARE(library->listScenarios()->size(), size_t(1));

    // A cached estimate of no version of its scenario, or a second one of the same version, is
    // a cache entry to drop (it is recomputed), not a reason to fail half-way (the library's
    // foreign key refused it after the scenario's rows were written).
    const char* stale = R"({"format": "trainscape.library-bundle/1", "scenarios": [{"name": "c",
        "versions": [{"number": 1, "created_at": "t", "scenario": {}}],
        "estimates": [{"version": 3, "estimator_version": "v", "estimate": {}},
                      {"version": 1, "estimator_version": "v", "estimate": {"a": 1}},
                      {"version": 1, "estimator_version": "w", "estimate": {}},
                      {"version": 1, "estimator_version": "v", "computed_at": 7,
                       "estimate": {}}]}]})";
    auto imported = importBundle(*library, stale);
    QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message.c_str());
    auto cached = library->cachedEstimate(imported->at(0), 1);
    QVERIFY(cached.ok() && cached->has_value());
    QCOMPARE((*cached)->estimatorVersion, std::string("v"));
    QCOMPARE((*cached)->estimateJson, std::string(R"({"a":1})"));
}

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
