#pragma once
// The Library tab: the scenarios of the library (core/store) with their tags, versions and a
// search box; open a version, diff two versions, tag, and delete with undo (the deleted
// scenario is kept whole by the undo command and inserted again under its id).

#include "store/Library.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;
class QUndoStack;

namespace ts::gui {

class LibraryView : public QWidget {
    Q_OBJECT
public:
    explicit LibraryView(QWidget* parent = nullptr);

    void setLibrary(std::shared_ptr<store::Library> library);
    const std::shared_ptr<store::Library>& library() const { return library_; }

    // Reloads the list (after a save elsewhere); keeps the selection where it can.
    void refresh();
    void setSearchText(const QString& text);
    bool selectScenario(store::ScenarioId id);
    store::ScenarioId selectedScenario() const; // 0 = none
    // Selects versions (in the versions list) by number.
    void selectVersions(const QList<int>& numbers);
    // The diff of the two selected versions, shown below; false unless two are selected.
    bool diffSelectedVersions();
    QString diffText() const;
    // Opens the selected version (emits openVersionRequested).
    bool openSelectedVersion();
    bool deleteSelectedScenario();
    bool addTagToSelected(const QString& tag);
    QUndoStack* undoStack() const { return undo_; }
    int scenarioCount() const;
    QString statusText() const;

signals:
    void openVersionRequested(const QString& scenarioJson, qint64 scenarioId, int version,
                              const QString& name);
    void libraryChanged();

private:
    void buildUi();
    void retranslate();
    void loadVersions();
    void showError(const store::StoreError& error);

    std::shared_ptr<store::Library> library_;
    QUndoStack* undo_;
    QLineEdit* search_;
    QTreeWidget* scenarios_;
    QTreeWidget* versions_;
    QLineEdit* tagEdit_;
    QPushButton* addTag_;
    QPushButton* open_;
    QPushButton* diff_;
    QPushButton* delete_;
    QPushButton* undoButton_;
    QPlainTextEdit* diffView_;
    QLabel* status_;
};

} // namespace ts::gui
