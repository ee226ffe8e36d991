#pragma once
// The Compare tab: pick 2 to 8 scenarios (from the library, or files), see them side by side
// as cards and the report's own charts (core/report, drawn from the same SVG), and export the
// comparison as HTML, Markdown, CSV or PDF.

#include "report/ComparisonReport.h"
#include "store/Library.h"

#include <QWidget>

#include <memory>
#include <optional>

class QGridLayout;
class QLabel;
class QListWidget;
class QPushButton;
class QVBoxLayout;

namespace ts::gui {

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);

    void setLibrary(std::shared_ptr<store::Library> library);
    // Reloads the library's scenarios into the pick list, keeping the checks.
    void refresh();
    // Checks (or unchecks) a library scenario in the pick list.
    bool setChecked(store::ScenarioId id, bool checked);
    void addFile(const QString& path);
    // Compares what is checked; false (with the reason shown) unless 2 to 8 are.
    bool compareChecked();
    const std::optional<report::ComparisonReport>& report() const { return report_; }
    // By the file's suffix: .html, .md, .csv or .pdf.
    bool exportReport(const QString& path, QString& error);
    QString statusText() const;
    int cardCount() const;
    int chartCount() const;

private:
    void buildUi();
    void retranslate();
    void showReport();
    void exportFromDialog();

    std::shared_ptr<store::Library> library_;
    std::optional<report::ComparisonReport> report_;
    QListWidget* picks_;
    QPushButton* addFiles_;
    QPushButton* compare_;
    QPushButton* export_;
    QLabel* status_;
    QGridLayout* cards_;
    QVBoxLayout* charts_;
    QWidget* cardsHost_;
    QWidget* chartsHost_;
};

} // namespace ts::gui
