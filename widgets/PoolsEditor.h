#pragma once
// The cluster dock's pools (heterogeneous clusters, docs/heterogeneous.md): cluster.pools
// (id, GPU, GPUs, GPUs per node) and parallelism.pipelines (count, stages as "pool:tp, ...",
// micro-batch, sequences), edited through the document like every other key.

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace ts::gui {

class ScenarioDocument;

class PoolsEditor : public QWidget {
    Q_OBJECT
public:
    explicit PoolsEditor(ScenarioDocument* document, QWidget* parent = nullptr);
    QTableWidget* poolsTable() const { return pools_; }
    QTableWidget* pipelinesTable() const { return pipelines_; }
    QPushButton* usePoolsButton() const { return usePools_; }
    QPushButton* addPoolButton() const { return addPool_; }
    QPushButton* removePoolButton() const { return removePool_; }
    QLabel* problemLabel() const { return problem_; }
    QLineEdit* poolLinkField() const { return poolLink_; }

private:
    void refresh();
    void usePools();
    void addPool();
    void removePool();
    void commitPools();
    void commitPipelines();
    void commitPoolLink();
    void oneCluster();

    ScenarioDocument* document_;
    QLabel* title_;
    QTableWidget* pools_;
    QTableWidget* pipelines_;
    QPushButton* usePools_;
    QPushButton* addPool_;
    QPushButton* removePool_;
    QPushButton* addPipeline_;
    QPushButton* resetPools_;
    QPushButton* resetPipelines_;
    QLineEdit* poolLink_;
    QLabel* problem_;
    bool refreshing_ = false;
};

} // namespace ts::gui
