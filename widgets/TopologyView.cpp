#include "TopologyView.h"

#include "NetworkBomPanel.h"
#include "QuantityText.h"
#include "ScenarioDocument.h"
#include "TopologyCanvas.h"
#include "TopologyGraphModel.h"
#include "TopologyItems.h"
#include "TopologyPropertiesPanel.h"
#include "TopologyScene.h"
#include "TopologyTemplatePanel.h"
#include "TopologyTools.h"

#include "traffic/PlanTraffic.h"

#include <QApplication>

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileDialog>
#include <QLabel>
#include <QLinearGradient>
#include <QPainter>
#include <QPointer>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QThreadPool>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace ts::gui {

namespace {

// The heat map's colour scale, 0 to 100 % of a link's capacity over the step.
QPixmap legendPixmap() {
    QPixmap pm(160, 12);
    QPainter p(&pm);
    for (int x = 0; x < pm.width(); ++x) {
        p.setPen(EdgeItem::heatColor(double(x) / (pm.width() - 1)));
        p.drawLine(x, 0, x, pm.height());
    }
    return pm;
}

std::optional<GroupPlacement> placementOf(const GroupPlacements& g, const QString& dim) {
    if (dim == "tp")
        return g.tp;
    if (dim == "cp")
        return g.cp;
    if (dim == "ep")
        return g.ep;
    if (dim == "dp")
        return g.dp;
    if (dim == "pp")
        return g.pp;
    return std::nullopt;
}

} // namespace

TopologyView::TopologyView(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), model_(new TopologyGraphModel(document, this)),
      scene_(new TopologyScene(model_, this)), generation_(std::make_shared<std::atomic<int>>(0)) {
    canvas_ = new TopologyCanvas(scene_, this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    createToolBar();
    layout->addWidget(toolBar_);
    auto* split = new QSplitter(this);
    split->addWidget(canvas_);
    side_ = new QTabWidget(split);
    templates_ = new TopologyTemplatePanel(model_, side_);
    properties_ = new TopologyPropertiesPanel(scene_, side_);
    bom_ = new NetworkBomPanel(side_);
    // Scrolled, so that the tab asks the window for no height of its own.
    const auto scrolled = [this](QWidget* panel) {
        auto* scroll = new QScrollArea(side_);
        scroll->setWidget(panel);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        return scroll;
    };
    side_->addTab(scrolled(templates_), tr("Templates"));
    side_->addTab(scrolled(properties_), tr("Properties"));
    side_->addTab(scrolled(bom_), tr("Network cost"));
    split->addWidget(side_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    auto* bottom = new QHBoxLayout;
    legend_ = new QLabel(this);
    legend_->setPixmap(legendPixmap());
    legend_->setToolTip(tr("Link utilisation over one step: 0 % (blue) to 100 % (red)"));
    legend_->setVisible(false);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    bottom->addWidget(legend_);
    bottom->addWidget(status_, 1);
    layout->addLayout(bottom);

    connect(canvas_, &TopologyCanvas::message, status_, &QLabel::setText);
    connect(model_, &TopologyGraphModel::structureChanged, this, &TopologyView::structureChanged);
    connect(model_, &TopologyGraphModel::graphReset, this,
            [this] { QTimer::singleShot(0, canvas_, &TopologyCanvas::fitAll); });
    connect(document_, &ScenarioDocument::changed, this, &TopologyView::refreshValidation);
    connect(scene_, &TopologyScene::rebuilt, this, [this] {
        if (heatAction_->isChecked())
            startHeat();
        if (!overlayDim_->currentData().toString().isEmpty())
            startOverlay();
    });
    structureChanged();
}

TopologyView::~TopologyView() {
    ++*generation_; // results still being traced are dropped
    // The scene before the model it draws (its items' removal reaches the panels).
    scene_->blockSignals(true);
    delete scene_;
}

void TopologyView::createToolBar() {
    toolBar_ = new QToolBar(this);
    toolBar_->setObjectName("topologyToolBar");
    tools_ = new QActionGroup(this);
    const std::pair<QString, QString> tools[] = {{"select", tr("Select")},
                                                 {"add-gpu", tr("GPU")},
                                                 {"add-nic", tr("NIC")},
                                                 {"add-switch", tr("Switch")},
                                                 {"add-scale-up-switch", tr("NVSwitch")},
                                                 {"add-router", tr("WAN router")},
                                                 {"link", tr("Link")},
                                                 {"delete", tr("Delete")}};
    for (const auto& [id, text] : tools) {
        QAction* a = toolBar_->addAction(text);
        a->setObjectName(id);
        a->setCheckable(true);
        tools_->addAction(a);
        connect(a, &QAction::triggered, this, [this, id = id] { selectTool(id); });
    }
    tools_->actions().front()->setChecked(true);
    toolBar_->addSeparator();
    toolBar_->addAction(tr("Fit"), canvas_, &TopologyCanvas::fitAll);
    toolBar_->addAction(tr("Expand all"), scene_, &TopologyScene::expandAll);
    toolBar_->addAction(tr("Collapse"), scene_, &TopologyScene::collapseToDefault);
    toolBar_->addSeparator();
    heatAction_ = toolBar_->addAction(tr("Heat map"));
    heatAction_->setCheckable(true);
    connect(heatAction_, &QAction::toggled, this, &TopologyView::setHeatMapShown);
    overlayDim_ = new QComboBox(toolBar_);
    overlayDim_->addItem(tr("No group"), QString());
    for (const char* d : {"tp", "cp", "ep", "dp", "pp"})
        overlayDim_->addItem(tr("%1 group").arg(QString::fromLatin1(d).toUpper()),
                             QString::fromLatin1(d));
    overlayIndex_ = new QSpinBox(toolBar_);
    overlayIndex_->setPrefix(tr("#"));
    overlayIndex_->setRange(0, 0);
    toolBar_->addWidget(overlayDim_);
    toolBar_->addWidget(overlayIndex_);
    connect(overlayDim_, &QComboBox::currentIndexChanged, this, [this] {
        overlayIndex_->setRange(0, std::max(0, overlayGroupCount() - 1));
        startOverlay();
    });
    connect(overlayIndex_, &QSpinBox::valueChanged, this, &TopologyView::startOverlay);
    toolBar_->addSeparator();
    toolBar_->addAction(tr("Export SVG…"), this, [this] { exportDrawing(true); });
    toolBar_->addAction(tr("Export PNG…"), this, [this] { exportDrawing(false); });
}

bool TopologyView::selectTool(const QString& id) {
    std::unique_ptr<CanvasTool> tool;
    const std::pair<const char*, GraphNodeKind> adds[] = {
        {"add-gpu", GraphNodeKind::Gpu},
        {"add-nic", GraphNodeKind::Nic},
        {"add-switch", GraphNodeKind::Switch},
        {"add-scale-up-switch", GraphNodeKind::ScaleUpSwitch},
        {"add-router", GraphNodeKind::Router}};
    if (id == "select")
        tool = std::make_unique<SelectTool>(canvas_);
    else if (id == "link")
        tool = std::make_unique<LinkTool>(canvas_);
    else if (id == "delete")
        tool = std::make_unique<DeleteTool>(canvas_);
    for (const auto& [name, kind] : adds)
        if (id == QLatin1String(name))
            tool = std::make_unique<AddNodeTool>(canvas_, kind);
    if (!tool)
        return false;
    for (QAction* a : tools_->actions())
        if (a->objectName() == id)
            a->setChecked(true);
    status_->setText(tool->name());
    canvas_->setTool(std::move(tool));
    return true;
}

void TopologyView::structureChanged() {
    ++*generation_;
    bom_->setTopology(model_->topology());
    refreshValidation();
}

void TopologyView::refreshValidation() {
    // Messages of core about the graph, on the node or link they name.
    QHash<int, QString> nodes, links;
    const int hostLinks = model_->hostLinkCount();
    static const QRegularExpression indexed(QStringLiteral("^/cluster/graph/(nodes|links)/(\\d+)"));
    Diagnostics diags = document_->diagnostics();
    validateTopology(model_->topology(), "/cluster/graph", diags);
    QStringList messages;
    for (const Diagnostic& d : diags.all()) {
        if (d.severity != Severity::Error || d.path.rfind("/cluster/graph", 0) != 0)
            continue;
        const QString message = QString::fromStdString(d.message);
        if (!messages.contains(message))
            messages << message;
        const auto m = indexed.match(QString::fromStdString(d.path));
        if (m.hasMatch()) {
            const int i = m.captured(2).toInt();
            if (m.captured(1) == "nodes")
                nodes.insert(i, message);
            else
                links.insert(hostLinks + i, message);
            continue;
        }
        // "switch leaf3 has 70 links but only 64 ports": the nodes it names.
        static const QRegularExpression word(QStringLiteral("[A-Za-z][\\w.-]*"));
        for (auto it = word.globalMatch(message); it.hasNext();) {
            const int n = model_->nodeIndex(it.next().captured().toStdString());
            if (n >= 0 && !nodes.contains(n))
                nodes.insert(n, message);
        }
    }
    scene_->setMessages(nodes, links);
    validation_ = messages.isEmpty()
                      ? QString()
                      : tr("%n problem(s) in the drawing: %1", nullptr, int(messages.size()))
                            .arg(messages.front());
    status_->setText(validation_.isEmpty() ? statusText() : validation_);
}

QString TopologyView::statusText() const {
    const ClusterGraph& g = model_->graph();
    QString text =
        tr("%1 GPUs, %2 nodes and %3 links; %4 items drawn")
            .arg(countText(model_->gpuCount()), countText(std::int64_t(g.nodes.size())),
                 countText(std::int64_t(g.links.size())), countText(scene_->itemCountDrawn()));
    if (model_->isDerived())
        text += tr(" (the builder's graph: an edit writes it into the scenario)");
    return text;
}

QString TopologyView::statusLine() const {
    return status_->text();
}

void TopologyView::setEstimate(const Estimate* estimate) {
    estimate_ = estimate ? std::optional<Estimate>(*estimate) : std::nullopt;
    if (heatAction_->isChecked())
        startHeat();
}

void TopologyView::setHeatMapShown(bool shown) {
    if (heatAction_->isChecked() != shown)
        heatAction_->setChecked(shown); // comes back here through toggled()
    legend_->setVisible(shown);
    if (shown)
        startHeat();
    else
        scene_->setHeat({}, 0, false);
}

void TopologyView::startHeat() {
    const auto& resolved = document_->resolved();
    if (!estimate_ || !resolved) {
        status_->setText(tr("Heat map: no estimate for this scenario"));
        return;
    }
    if (resolved->hetero) { // the drawn network is one uniform cluster's
        status_->setText(tr("Heat map: not drawn for a plan over pools (each pool has its own "
                            "network); see the estimate's traffic per link class"));
        return;
    }
    const auto model = model_->routeModel();
    if (!model || int(model->topology().gpuNodes.size()) != int(resolved->cluster.numGpus))
        return;
    const int gen = *generation_;
    auto generation = generation_;
    QPointer<TopologyView> self(this);
    const ResolvedScenario scenario = *resolved;
    const Estimate est = *estimate_;
    ++pending_;
    QThreadPool::globalInstance()->start([=] {
        LinkHeat heat = planLinkHeat(model, scenario, est);
        QMetaObject::invokeMethod(
            qApp,
            [=, heat = std::move(heat)]() mutable {
                if (!self)
                    return;
                --self->pending_;
                if (*generation != gen || !self->heatAction_->isChecked())
                    return;
                self->scene_->setHeat(std::move(heat.bytesPerLink), heat.stepSeconds, heat.sampled);
                double hottest = 0;
                TopologyScene* scene = self->scene_;
                for (std::size_t e = 0; e < scene->visible().edges.size(); ++e)
                    hottest = std::max(hottest, scene->edgeUtilisation(static_cast<int>(e)));
                QString text = tr("Heat map of one step (%1), hottest drawn link at %2: hover a "
                                  "link for its bytes and utilisation")
                                   .arg(secondsText(heat.stepSeconds), percentText(hottest));
                if (heat.sampled)
                    text += tr("; routed from a sample of the ranks and scaled to all of them");
                self->status_->setText(text);
            },
            Qt::QueuedConnection);
    });
}

int TopologyView::overlayGroupCount() const {
    const auto& resolved = document_->resolved();
    const QString dim = overlayDim_->currentData().toString();
    if (!resolved || dim.isEmpty())
        return 0;
    Diagnostics diags;
    const auto g = defaultPlacements(resolved->parallel, diags);
    const auto p = g ? placementOf(*g, dim) : std::nullopt;
    return p ? groupCount(*p, model_->gpuCount()) : 0;
}

void TopologyView::setOverlay(const QString& dimension, int index) {
    const int i = overlayDim_->findData(dimension);
    overlayDim_->setCurrentIndex(std::max(0, i));
    overlayIndex_->setRange(0, std::max(0, overlayGroupCount() - 1));
    overlayIndex_->setValue(index);
    startOverlay();
}

void TopologyView::startOverlay() {
    const QString dim = overlayDim_->currentData().toString();
    const auto& resolved = document_->resolved();
    Diagnostics diags;
    const auto g = resolved ? defaultPlacements(resolved->parallel, diags) : std::nullopt;
    const auto p = g ? placementOf(*g, dim) : std::nullopt;
    const auto model = model_->routeModel();
    if (!p || !model || p->size <= 1) {
        scene_->setLit({}, {});
        if (!dim.isEmpty())
            status_->setText(tr("No %1 group in this plan").arg(dim.toUpper()));
        return;
    }
    const std::vector<int> ranks = groupRanks(*p, overlayIndex_->value());
    scene_->setLit(ranks, {});
    const int gen = *generation_;
    auto generation = generation_;
    QPointer<TopologyView> self(this);
    ++pending_;
    // The expert all-to-all's two hops, the other groups' rings.
    const bool allToAll = dim == "ep";
    const int perDomain = allToAll ? model->profile(*p).membersPerDomain : 1;
    QThreadPool::globalInstance()->start([=] {
        std::vector<int> links =
            allToAll ? groupAllToAllLinks(*model, ranks, perDomain) : groupRingLinks(*model, ranks);
        QMetaObject::invokeMethod(
            qApp,
            [=, links = std::move(links)] {
                if (!self)
                    return;
                --self->pending_;
                if (*generation != gen || self->overlayDim_->currentData().toString() != dim)
                    return;
                self->scene_->setLit(ranks, links);
                self->status_->setText(
                    tr("%1 group %2: %n GPU(s)", nullptr, int(ranks.size()))
                        .arg(dim.toUpper())
                        .arg(self->overlayIndex_->value()) +
                    (allToAll ? tr(", %n link(s) in its all-to-all", nullptr, int(links.size()))
                              : tr(", %n link(s) on its ring", nullptr, int(links.size()))));
            },
            Qt::QueuedConnection);
    });
}

bool TopologyView::waitForOverlays(int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (pending_ > 0 && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    QCoreApplication::processEvents();
    return pending_ == 0;
}

void TopologyView::exportDrawing(bool svg) {
    const QString path = QFileDialog::getSaveFileName(
        this, svg ? tr("Export drawing as SVG") : tr("Export drawing as PNG"), QString(),
        svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    const bool ok = svg ? canvas_->exportSvg(path) : canvas_->exportPng(path);
    status_->setText(ok ? tr("Exported %1").arg(path) : tr("Could not write %1").arg(path));
}

} // namespace ts::gui
