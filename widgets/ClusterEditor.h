#pragma once
// The Cluster dock: cluster and GPU presets, GPU counts, scale-up and scale-out networks,
// and the host figures that bound offload (cluster.host).

#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;

namespace ts::gui {

class ScenarioDocument;
class ScenarioForm;

class ClusterEditor : public QWidget {
    Q_OBJECT
public:
    explicit ClusterEditor(ScenarioDocument* document, QWidget* parent = nullptr);
    ScenarioForm* form() const { return form_; }
    // The editor of one cluster.host key ("/cluster/host/pcie_gb_s"), or null.
    QLineEdit* hostField(const std::string& pointer) const;
    // Choosing a GPU offers the cluster preset built for it (A100 -> DGX A100); tests give
    // the answer here instead of in a dialog (nullopt: ask).
    static void setPresetOfferAnswer(std::optional<bool> answer);

protected:
    void changeEvent(QEvent* event) override;

private:
    // A host figure: empty when the file leaves it out, with the preset's value (or
    // "unknown") as placeholder text; cleared, the key goes and the preset's value is back.
    struct HostRow {
        std::string pointer;
        QLabel* label = nullptr;
        QLineEdit* editor = nullptr;
        QString refusal; // the reader's refusal of the last edit, until the next change
    };

    void buildHostSection();
    void retranslateHostSection();
    void refreshHostSection();
    void commitHost(HostRow& row);

    ScenarioDocument* document_;
    ScenarioForm* form_;
    QLabel* hostTitle_ = nullptr;
    std::vector<HostRow> hostRows_;
};

} // namespace ts::gui
