// The topology canvas at 32,768 GPUs (rail-only, DGX H100: ~72k nodes, ~110k links): building
// the scene at its opening level of detail (hierarchy, bundled links, items), and painting one
// frame of a 1600x1000 view, fitted (the whole cluster) and zoomed in 20x. Targets (issue 15):
// build < 1 s, frame < 16 ms.

#include "../tests/TopologyFixtures.h"

#include "ScenarioDocument.h"
#include "TopologyCanvas.h"
#include "TopologyGraphModel.h"
#include "TopologyScene.h"

#include "estimate/Estimator.h"
#include "topology/GraphTemplates.h"
#include "traffic/PlanTraffic.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QWindow>

#include <memory>

using namespace ts;
using namespace ts::gui;

namespace {

struct Canvas {
    ScenarioDocument doc;
    std::unique_ptr<TopologyGraphModel> model;
    std::unique_ptr<TopologyScene> scene;
    std::unique_ptr<TopologyCanvas> view;
    explicit Canvas(long long gpus) {
        doc.reset(*test::canvasScenario(gpus, "rail-only"));
        model = std::make_unique<TopologyGraphModel>(&doc);
        scene = std::make_unique<TopologyScene>(model.get());
        view = std::make_unique<TopologyCanvas>(scene.get());
        view->resize(1600, 1000);
        view->show();
        // Painting needs an exposed window (the offscreen platform exposes it shortly).
        QElapsedTimer wait;
        wait.start();
        while ((!view->windowHandle() || !view->windowHandle()->isExposed()) &&
               wait.elapsed() < 5000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        view->fitAll();
    }
};

Canvas& canvas32k() {
    static Canvas c(32768);
    return c;
}

void BM_BuildGraph32k(benchmark::State& state) {
    Canvas& c = canvas32k();
    const ClusterConfig cluster = c.model->cluster();
    for (auto _ : state) {
        Diagnostics diags;
        benchmark::DoNotOptimize(buildTemplateGraph(cluster, diags));
    }
}

void BM_SceneBuild32k(benchmark::State& state) {
    Canvas& c = canvas32k();
    for (auto _ : state) {
        c.scene->rebuild();
        benchmark::DoNotOptimize(c.scene->itemCountDrawn());
    }
    state.counters["items"] = c.scene->itemCountDrawn();
}

void paintFrames(benchmark::State& state, double zoom) {
    Canvas& c = canvas32k();
    c.scene->rebuild();
    c.view->fitAll();
    c.view->zoomBy(zoom);
    // A real frame: the view's paint event into its backing store, as the window paints it.
    c.view->viewport()->repaint();
    for (auto _ : state)
        c.view->viewport()->repaint();
    state.counters["items"] = c.scene->itemCountDrawn();
}

void BM_PaintFrame32kFitted(benchmark::State& state) {
    paintFrames(state, 1);
}

void BM_PaintFrame32kZoomed(benchmark::State& state) {
    paintFrames(state, 20);
}

// The heat map of one step on the 32,768-GPU cluster: every rank's routes (TP, CP, DP, PP rings
// and the EP all-to-all), computed off the GUI thread when the heat map is shown.
void BM_PlanLinkHeat32k(benchmark::State& state) {
    Canvas& c = canvas32k();
    const auto model = c.model->routeModel();
    const auto& resolved = c.doc.resolved();
    Diagnostics diags;
    const auto est = estimatePlan(*resolved, diags);
    for (auto _ : state)
        benchmark::DoNotOptimize(planLinkHeat(model, *resolved, *est));
}

} // namespace

BENCHMARK(BM_PlanLinkHeat32k)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_BuildGraph32k)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_SceneBuild32k)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_PaintFrame32kFitted)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PaintFrame32kZoomed)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
