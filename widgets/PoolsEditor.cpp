#include "PoolsEditor.h"

#include "ScenarioDocument.h"

#include "catalog/Catalog.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ts::gui {

namespace {

using Json = nlohmann::ordered_json;

enum PoolColumn { kPoolId, kPoolGpu, kPoolGpus, kPoolPerNode, kPoolColumns };
enum PipeColumn { kPipeCount, kPipeStages, kPipeMicro, kPipeSequences, kPipeColumns };

QString text(const Json& j, const char* key) {
    if (!j.contains(key) || j[key].is_null())
        return {};
    return j[key].is_string() ? QString::fromStdString(j[key].get<std::string>())
                              : QString::fromStdString(j[key].dump());
}

QString stagesText(const Json& stages) {
    QStringList parts;
    for (const Json& s : stages)
        parts << QStringLiteral("%1:%2").arg(text(s, "pool"),
                                             s.contains("tp") ? text(s, "tp") : "1");
    return parts.join(", ");
}

// "h100:8, a100:8" -> [{"pool": "h100", "tp": 8}, ...]; nullopt on a malformed list.
std::optional<Json> parseStages(const QString& text) {
    Json out = Json::array();
    static const QRegularExpression stage(
        QStringLiteral("^\\s*([^:,\\s]+)\\s*(?::\\s*(\\d+))?\\s*$"));
    for (const QString& part : text.split(',', Qt::SkipEmptyParts)) {
        const auto m = stage.match(part);
        if (!m.hasMatch())
            return std::nullopt;
        Json s = {{"pool", m.captured(1).toStdString()}};
        s["tp"] = m.captured(2).isEmpty() ? 1 : m.captured(2).toInt();
        out.push_back(std::move(s));
    }
    if (out.empty())
        return std::nullopt;
    return out;
}

QTableWidget* makeTable(QWidget* parent, const QStringList& headers) {
    auto* t = new QTableWidget(0, int(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->horizontalHeader()->setStretchLastSection(true);
    t->verticalHeader()->setVisible(false);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setMinimumHeight(90);
    return t;
}

} // namespace

PoolsEditor::PoolsEditor(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
    auto* layout = new QVBoxLayout(this);
    title_ = new QLabel(tr("<b>Pools of unlike GPUs</b>"), this);
    layout->addWidget(title_);
    pools_ = makeTable(this, {tr("Id"), tr("GPU"), tr("GPUs"), tr("Per node")});
    pools_->setObjectName(QStringLiteral("/cluster/pools")); // found by its key (tests, help)
    layout->addWidget(pools_);
    auto* buttons = new QHBoxLayout;
    usePools_ = new QPushButton(tr("Use pools"), this);
    usePools_->setToolTip(tr("Turn this cluster into one pool and the plan into pipelines, to "
                             "add GPUs of other kinds"));
    addPool_ = new QPushButton(tr("Add pool"), this);
    removePool_ = new QPushButton(tr("Remove pool"), this);
    buttons->addWidget(usePools_);
    buttons->addWidget(addPool_);
    buttons->addWidget(removePool_);
    resetPools_ = new QPushButton(tr("One cluster"), this);
    resetPools_->setObjectName(QStringLiteral("/cluster/pools#reset"));
    resetPools_->setToolTip(tr("Back to one uniform cluster of the first pool's GPUs"));
    buttons->addWidget(resetPools_);
    layout->addLayout(buttons);
    auto* link = new QHBoxLayout;
    link->addWidget(new QLabel(tr("Link between pools (Gbit/s per node)"), this));
    poolLink_ = new QLineEdit(this);
    poolLink_->setObjectName(QStringLiteral("/cluster/pool_link_gbit_s"));
    poolLink_->setPlaceholderText(tr("shared network"));
    poolLink_->setToolTip(tr("Per node, between pools whose networks are not one fabric; empty: "
                             "the pools share the scale-out network"));
    link->addWidget(poolLink_);
    layout->addLayout(link);
    layout->addWidget(new QLabel(tr("Pipelines (replicas; stages as pool:tp, ...)"), this));
    pipelines_ = makeTable(this, {tr("Count"), tr("Stages"), tr("Micro-batch"), tr("Sequences")});
    pipelines_->setObjectName(QStringLiteral("/parallelism/pipelines"));
    layout->addWidget(pipelines_);
    resetPipelines_ = new QPushButton(tr("Clear pipelines"), this);
    resetPipelines_->setObjectName(QStringLiteral("/parallelism/pipelines#reset"));
    resetPipelines_->setToolTip(tr("Remove the pipelines (search then chooses them)"));
    layout->addWidget(resetPipelines_);
    addPipeline_ = new QPushButton(tr("Add pipeline"), this);
    layout->addWidget(addPipeline_);
    problem_ = new QLabel(this);
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #c0392b"));
    layout->addWidget(problem_);

    connect(usePools_, &QPushButton::clicked, this, &PoolsEditor::usePools);
    connect(addPool_, &QPushButton::clicked, this, &PoolsEditor::addPool);
    connect(removePool_, &QPushButton::clicked, this, &PoolsEditor::removePool);
    connect(resetPools_, &QPushButton::clicked, this, &PoolsEditor::oneCluster);
    connect(resetPipelines_, &QPushButton::clicked, this, [this] {
        document_->setValue("/parallelism/pipelines", std::nullopt, tr("Clear pipelines"));
    });
    connect(poolLink_, &QLineEdit::editingFinished, this, &PoolsEditor::commitPoolLink);
    connect(addPipeline_, &QPushButton::clicked, this, [this] {
        Json pipes = document_->explicitValue("/parallelism/pipelines").value_or(Json::array());
        Json pools = document_->explicitValue("/cluster/pools").value_or(Json::array());
        if (pools.empty())
            return;
        pipes.push_back(
            {{"count", 1}, {"stages", Json::array({{{"pool", pools[0]["id"]}, {"tp", 1}}})}});
        document_->setValue("/parallelism/pipelines", pipes, tr("Add pipeline"));
    });
    connect(pools_, &QTableWidget::itemChanged, this, [this] {
        if (!refreshing_)
            commitPools();
    });
    connect(pipelines_, &QTableWidget::itemChanged, this, [this] {
        if (!refreshing_)
            commitPipelines();
    });
    connect(document_, &ScenarioDocument::changed, this, &PoolsEditor::refresh);
    connect(document_, &ScenarioDocument::validityChanged, this, &PoolsEditor::refresh);
    refresh();
}

void PoolsEditor::refresh() {
    refreshing_ = true;
    const Json pools = document_->explicitValue("/cluster/pools").value_or(Json::array());
    const Json pipes = document_->explicitValue("/parallelism/pipelines").value_or(Json::array());
    const bool on = !pools.empty();
    pools_->setVisible(on);
    pipelines_->setVisible(on);
    addPipeline_->setVisible(on);
    addPool_->setEnabled(on);
    removePool_->setEnabled(on);
    usePools_->setEnabled(!on);
    resetPools_->setEnabled(on);
    resetPipelines_->setVisible(on);
    poolLink_->setEnabled(on);
    if (!poolLink_->hasFocus())
        poolLink_->setText(text(document_->explicitValue("/cluster").value_or(Json::object()),
                                "pool_link_gbit_s"));
    pools_->setRowCount(int(pools.size()));
    for (int r = 0; r < int(pools.size()); ++r) {
        const Json& p = pools[std::size_t(r)];
        pools_->setItem(r, kPoolId, new QTableWidgetItem(text(p, "id")));
        auto* gpu = new QComboBox(pools_);
        for (const auto& [id, entry] : Catalog::builtIn().gpus())
            gpu->addItem(QString::fromStdString(id));
        gpu->setCurrentText(text(p, "gpu"));
        connect(gpu, &QComboBox::currentTextChanged, this, [this] {
            if (!refreshing_)
                commitPools();
        });
        pools_->setCellWidget(r, kPoolGpu, gpu);
        pools_->setItem(r, kPoolGpus, new QTableWidgetItem(text(p, "num_gpus")));
        pools_->setItem(r, kPoolPerNode, new QTableWidgetItem(text(p, "gpus_per_node")));
    }
    pipelines_->setRowCount(int(pipes.size()));
    for (int r = 0; r < int(pipes.size()); ++r) {
        const Json& e = pipes[std::size_t(r)];
        pipelines_->setItem(r, kPipeCount,
                            new QTableWidgetItem(e.contains("count") ? text(e, "count") : "1"));
        pipelines_->setItem(
            r, kPipeStages,
            new QTableWidgetItem(e.contains("stages") ? stagesText(e["stages"]) : QString()));
        pipelines_->setItem(r, kPipeMicro, new QTableWidgetItem(text(e, "micro_batch")));
        pipelines_->setItem(r, kPipeSequences, new QTableWidgetItem(text(e, "sequences")));
    }
    // What the resolver says about the pools and pipelines, beside them.
    QStringList problems;
    for (const Diagnostic& d : document_->diagnostics().errors())
        if (d.path.rfind("/cluster/pools", 0) == 0 ||
            d.path.rfind("/parallelism/pipelines", 0) == 0)
            problems << QString::fromStdString(d.path + ": " + d.message);
    if (!problems.isEmpty())
        problem_->setText(problems.join('\n'));
    else if (problem_->text().startsWith('/'))
        problem_->clear();
    refreshing_ = false;
}

void PoolsEditor::usePools() {
    const auto& r = document_->lastResolved();
    if (!r)
        return;
    const std::string gpu = r->cluster.gpuId.empty() ? "h100-sxm-80gb" : r->cluster.gpuId;
    const std::string id = gpu.substr(0, gpu.find('-'));
    Json pool = {{"id", id},
                 {"gpu", gpu},
                 {"num_gpus", r->cluster.numGpus},
                 {"gpus_per_node", r->cluster.gpusPerNode}};
    Json stages = Json::array();
    for (int s = 0; s < r->parallel.pp; ++s)
        stages.push_back({{"pool", id}, {"tp", r->parallel.tp}});
    Json pipes = Json::array({{{"count", r->parallel.dp}, {"stages", stages}}});
    document_->setValues({{"/cluster/preset", std::nullopt},
                          {"/cluster/gpu", std::nullopt},
                          {"/cluster/num_gpus", std::nullopt},
                          {"/cluster/gpus_per_node", std::nullopt},
                          {"/cluster/graph", std::nullopt},
                          {"/cluster/pools", Json::array({pool})},
                          {"/parallelism/tp", std::nullopt},
                          {"/parallelism/pp", std::nullopt},
                          {"/parallelism/dp", std::nullopt},
                          {"/parallelism/dp_shard", std::nullopt},
                          {"/parallelism/pipelines", pipes}},
                         tr("Use pools"), false);
}

void PoolsEditor::addPool() {
    Json pools = document_->explicitValue("/cluster/pools").value_or(Json::array());
    // The next kind: A100 beside H100, else H100.
    const std::string gpu = pools.size() && pools[0].value("gpu", std::string()) == "a100-sxm-80gb"
                                ? "h100-sxm-80gb"
                                : "a100-sxm-80gb";
    std::string id = gpu.substr(0, gpu.find('-'));
    for (const Json& p : pools)
        if (p.value("id", std::string()) == id)
            id += "-" + std::to_string(pools.size() + 1);
    pools.push_back({{"id", id}, {"gpu", gpu}, {"num_gpus", 8}, {"gpus_per_node", 8}});
    // num_gpus is the pools' sum: left out, it cannot disagree with them.
    document_->setValues({{"/cluster/pools", pools}, {"/cluster/num_gpus", std::nullopt}},
                         tr("Add pool"));
}

void PoolsEditor::removePool() {
    Json pools = document_->explicitValue("/cluster/pools").value_or(Json::array());
    const int row = pools_->currentRow() >= 0 ? pools_->currentRow() : int(pools.size()) - 1;
    if (row < 0 || row >= int(pools.size()))
        return;
    if (pools.size() == 1) { // back to one uniform cluster
        oneCluster();
        return;
    }
    pools.erase(pools.begin() + row);
    document_->setValues({{"/cluster/pools", pools}, {"/cluster/num_gpus", std::nullopt}},
                         tr("Remove pool"));
}

void PoolsEditor::commitPoolLink() {
    const QString t = poolLink_->text().trimmed();
    if (t.isEmpty()) {
        document_->setValue("/cluster/pool_link_gbit_s", std::nullopt, tr("Edit pool link"));
        return;
    }
    bool ok = false;
    const double v = QLocale().toDouble(t, &ok);
    if (!ok || v <= 0) {
        problem_->setText(
            tr("Link between pools: give Gbit/s per node, e.g. 400, or leave it empty"));
        return;
    }
    problem_->clear();
    document_->setValue("/cluster/pool_link_gbit_s", v, tr("Edit pool link"));
}

void PoolsEditor::oneCluster() {
    const Json pools = document_->explicitValue("/cluster/pools").value_or(Json::array());
    if (pools.empty())
        return;
    const auto& r = document_->lastResolved();
    std::vector<ScenarioValueChange> changes{{"/cluster/pools", std::nullopt},
                                             {"/cluster/pool_link_gbit_s", std::nullopt},
                                             {"/parallelism/pipelines", std::nullopt},
                                             {"/cluster/gpu", pools[0]["gpu"]},
                                             {"/cluster/num_gpus", pools[0]["num_gpus"]}};
    if (r) {
        changes.push_back({"/parallelism/tp", r->parallel.tp});
        changes.push_back({"/parallelism/pp", r->parallel.pp});
    }
    document_->setValues(changes, tr("One cluster"), false);
}

void PoolsEditor::commitPools() {
    Json pools = document_->explicitValue("/cluster/pools").value_or(Json::array());
    for (int r = 0; r < pools_->rowCount() && r < int(pools.size()); ++r) {
        Json& p = pools[std::size_t(r)];
        auto cell = [&](int c) {
            return pools_->item(r, c) ? pools_->item(r, c)->text().trimmed() : QString();
        };
        p["id"] = cell(kPoolId).toStdString();
        if (auto* gpu = qobject_cast<QComboBox*>(pools_->cellWidget(r, kPoolGpu)))
            p["gpu"] = gpu->currentText().toStdString();
        bool ok = false;
        const qlonglong n = cell(kPoolGpus).toLongLong(&ok);
        if (!ok || n < 1) {
            problem_->setText(tr("Pool %1: GPUs must be a whole number of at least 1").arg(r));
            refresh();
            return;
        }
        p["num_gpus"] = n;
        const int perNode = cell(kPoolPerNode).toInt(&ok);
        if (ok && perNode >= 1)
            p["gpus_per_node"] = perNode;
        else
            p.erase("gpus_per_node");
    }
    problem_->clear();
    document_->setValues({{"/cluster/pools", pools}, {"/cluster/num_gpus", std::nullopt}},
                         tr("Edit pools"));
}

void PoolsEditor::commitPipelines() {
    Json pipes = document_->explicitValue("/parallelism/pipelines").value_or(Json::array());
    for (int r = 0; r < pipelines_->rowCount() && r < int(pipes.size()); ++r) {
        Json& e = pipes[std::size_t(r)];
        auto cell = [&](int c) {
            return pipelines_->item(r, c) ? pipelines_->item(r, c)->text().trimmed() : QString();
        };
        bool ok = false;
        const int count = cell(kPipeCount).toInt(&ok);
        auto stages = parseStages(cell(kPipeStages));
        if (!ok || count < 1 || !stages) {
            problem_->setText(tr("Pipeline %1: give a count of at least 1 and stages as "
                                 "pool:tp, pool:tp (e.g. h100:8, a100:8)")
                                  .arg(r));
            refresh();
            return;
        }
        e["count"] = count;
        e["stages"] = *stages;
        const qlonglong micro = cell(kPipeMicro).toLongLong(&ok);
        if (ok && micro >= 1)
            e["micro_batch"] = micro;
        else
            e.erase("micro_batch");
        const qlonglong seqs = cell(kPipeSequences).toLongLong(&ok);
        if (ok && seqs >= 1)
            e["sequences"] = seqs;
        else
            e.erase("sequences");
    }
    problem_->clear();
    document_->setValue("/parallelism/pipelines", pipes, tr("Edit pipelines"));
}

} // namespace ts::gui
