#pragma once
// File > Import job…: a Megatron-LM launch script or command line, a DeepSpeed
// ds_config.json (with the model's Hugging Face config.json and the sequence length) or a
// torchtitan TOML, read by core/import into a scenario. The scenario is previewed with what
// the importer could not use (listed, never dropped) before it replaces the document.

#include "import/LaunchImport.h"
#include "scenario/Scenario.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace ts::gui {

class ImportJobDialog : public QDialog {
    Q_OBJECT
public:
    explicit ImportJobDialog(QWidget* parent = nullptr);

    // For tests and the menu: the file to read and its format; reads at once.
    void setJob(const QString& path, ImportFormat format);
    void setHuggingFaceConfig(const QString& path);
    void setSequenceLength(int tokens);
    // The imported scenario, once it reads and resolves.
    const std::optional<Scenario>& scenario() const { return scenario_; }
    QString messages() const; // what the preview's side shows: errors, unsupported, ignored

private:
    void read();
    void browse(QLineEdit* edit, const QString& filter);
    void retranslate();

    QComboBox* format_;
    QLineEdit* file_;
    QLineEdit* hfConfig_;
    QSpinBox* seqLen_;
    QComboBox* cluster_;
    QPlainTextEdit* preview_;
    QPlainTextEdit* messages_;
    QDialogButtonBox* buttons_;
    QLabel* formatLabel_;
    QLabel* fileLabel_;
    QLabel* hfLabel_;
    QLabel* seqLabel_;
    QLabel* clusterLabel_;
    std::optional<Scenario> scenario_;
};

} // namespace ts::gui
