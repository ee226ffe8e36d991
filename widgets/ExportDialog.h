#pragma once
// File > Export launch configuration…: the targets of core/export in a list, a live preview
// of every file the selected target writes (monospace, highlighted), the target's refusals in
// place of the files when it cannot express the plan, Save (atomic, into a folder) and Copy.
// The preview follows the document: every edit re-renders it. "Adapt plan to this target"
// shows instead the nearest plan a refusing target runs (core/export/PlanAdaptation.h): its
// files with ADAPTATION.md and the adapted scenario, the changes and the re-estimate above.

#include "export/Exporter.h"
#include "export/PlanAdaptation.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QTabWidget;

namespace ts::gui {

class ScenarioDocument;

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExportDialog(ScenarioDocument* document, QWidget* parent = nullptr);

    // For the menu and tests: pick a target by id ("megatron", ...); false if unknown.
    bool selectTarget(const QString& id);
    QString currentTarget() const;
    // The rendered files and refusals of the current target.
    const ExportResult& result() const { return result_; }
    // Writes the files into `folder` atomically; false with `error` when refused or failed.
    bool saveTo(const QString& folder, QString* error);
    // The text of the file shown in the current tab, copied to the clipboard by Copy.
    QString currentFileText() const;
    // "Adapt plan to this target": when on, a refusing target shows its adapted plan.
    void setAdapt(bool on);
    bool adapting() const;
    // The adaptation behind result() when the target refused and adapting is on.
    const std::optional<AdaptedExport>& adaptation() const { return adaptation_; }

private:
    void render();
    void showResult();
    void markTargets();
    void saveFromDialog();
    void copyCurrent();
    void retranslate();
    void adaptRefused(const Exporter& exporter);
    QString adaptationSummary() const;

    ScenarioDocument* document_;
    ExportResult result_;
    std::optional<AdaptedExport> adaptation_;
    QListWidget* targets_;
    QStackedWidget* pages_;
    QTabWidget* files_;
    QLabel* refusals_;
    QLabel* summary_;
    QCheckBox* adapt_;
    QPushButton* saveButton_;
    QPushButton* copyButton_;
};

} // namespace ts::gui
