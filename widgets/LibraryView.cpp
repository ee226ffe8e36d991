#include "LibraryView.h"

#include "store/ScenarioDiff.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>

namespace ts::gui {

namespace {

constexpr int kIdRole = Qt::UserRole + 1;

// Deleting a scenario keeps all of it (versions, tags, cached estimates); undo inserts it
// again under the same id.
class DeleteLibraryScenario : public QUndoCommand {
public:
    DeleteLibraryScenario(LibraryView* view, store::ScenarioRecord record)
        : view_(view), record_(std::move(record)) {
        setText(LibraryView::tr("Delete “%1”").arg(QString::fromStdString(record_.name)));
    }
    void undo() override {
        if (auto library = view_->library())
            ok_ = library->insertRecord(record_).ok();
        view_->refresh();
    }
    void redo() override {
        if (!first_) {
            if (auto library = view_->library())
                ok_ = library->removeScenario(record_.id).ok();
        }
        first_ = false;
        view_->refresh();
    }

private:
    LibraryView* view_;
    store::ScenarioRecord record_;
    bool first_ = true; // the first redo() is the delete already done
    bool ok_ = true;
};

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

LibraryView::LibraryView(QWidget* parent) : QWidget(parent), undo_(new QUndoStack(this)) {
    buildUi();
    retranslate();
}

void LibraryView::buildUi() {
    search_ = new QLineEdit(this);
    search_->setClearButtonEnabled(true);
    connect(search_, &QLineEdit::textChanged, this, [this] { refresh(); });
    scenarios_ = new QTreeWidget(this);
    scenarios_->setColumnCount(4);
    scenarios_->setRootIsDecorated(false);
    scenarios_->setAlternatingRowColors(true);
    scenarios_->header()->setStretchLastSection(false);
    scenarios_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    connect(scenarios_, &QTreeWidget::currentItemChanged, this, [this] { loadVersions(); });
    versions_ = new QTreeWidget(this);
    versions_->setColumnCount(3);
    versions_->setRootIsDecorated(false);
    versions_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    connect(versions_, &QTreeWidget::itemDoubleClicked, this, [this] { openSelectedVersion(); });
    tagEdit_ = new QLineEdit(this);
    addTag_ = new QPushButton(this);
    open_ = new QPushButton(this);
    diff_ = new QPushButton(this);
    delete_ = new QPushButton(this);
    undoButton_ = new QPushButton(this);
    connect(addTag_, &QPushButton::clicked, this, [this] { addTagToSelected(tagEdit_->text()); });
    connect(open_, &QPushButton::clicked, this, [this] { openSelectedVersion(); });
    connect(diff_, &QPushButton::clicked, this, [this] { diffSelectedVersions(); });
    connect(delete_, &QPushButton::clicked, this, [this] { deleteSelectedScenario(); });
    connect(undoButton_, &QPushButton::clicked, undo_, &QUndoStack::undo);
    connect(undo_, &QUndoStack::canUndoChanged, undoButton_, &QPushButton::setEnabled);
    undoButton_->setEnabled(false);
    diffView_ = new QPlainTextEdit(this);
    diffView_->setReadOnly(true);
    diffView_->setMaximumHeight(160);
    status_ = new QLabel(this);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QHBoxLayout;
    for (QWidget* w : {static_cast<QWidget*>(tagEdit_), static_cast<QWidget*>(addTag_),
                       static_cast<QWidget*>(open_), static_cast<QWidget*>(diff_),
                       static_cast<QWidget*>(delete_), static_cast<QWidget*>(undoButton_)})
        buttons->addWidget(w);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(scenarios_);
    split->addWidget(versions_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(search_);
    layout->addWidget(split, 1);
    layout->addLayout(buttons);
    layout->addWidget(diffView_);
    layout->addWidget(status_);
}

void LibraryView::retranslate() {
    search_->setPlaceholderText(tr("Search names, notes and tags"));
    scenarios_->setHeaderLabels({tr("Scenario"), tr("Tags"), tr("Versions"), tr("Updated")});
    versions_->setHeaderLabels({tr("Version"), tr("Saved"), tr("Note")});
    tagEdit_->setPlaceholderText(tr("tag"));
    addTag_->setText(tr("Add tag"));
    open_->setText(tr("Open version"));
    diff_->setText(tr("Diff two versions"));
    delete_->setText(tr("Delete"));
    undoButton_->setText(tr("Undo delete"));
}

void LibraryView::setLibrary(std::shared_ptr<store::Library> library) {
    library_ = std::move(library);
    undo_->clear();
    refresh();
}

void LibraryView::refresh() {
    const store::ScenarioId keep = selectedScenario();
    scenarios_->clear();
    if (!library_) {
        status_->setText(tr("No library"));
        return;
    }
    const std::string query = search_->text().toStdString();
    auto list = query.empty() ? library_->listScenarios() : library_->search(query);
    if (!list) {
        showError(list.error());
        return;
    }
    for (const auto& s : *list) {
        QStringList tags;
        for (const auto& t : s.tags)
            tags << qs(t);
        auto* item = new QTreeWidgetItem(scenarios_, {qs(s.name), tags.join(QStringLiteral(", ")),
                                                      QString::number(s.versionCount),
                                                      qs(s.updatedAt).left(19)});
        item->setData(0, kIdRole, QVariant::fromValue<qint64>(s.id));
    }
    status_->setText(tr("%n scenario(s) in %1", nullptr, static_cast<int>(list->size()))
                         .arg(qs(library_->location())));
    if (!selectScenario(keep) && scenarios_->topLevelItemCount() > 0)
        scenarios_->setCurrentItem(scenarios_->topLevelItem(0));
    loadVersions();
}

void LibraryView::setSearchText(const QString& text) {
    search_->setText(text);
}

bool LibraryView::selectScenario(store::ScenarioId id) {
    for (int i = 0; i < scenarios_->topLevelItemCount(); ++i) {
        auto* item = scenarios_->topLevelItem(i);
        if (item->data(0, kIdRole).toLongLong() == id) {
            scenarios_->setCurrentItem(item);
            return true;
        }
    }
    return false;
}

store::ScenarioId LibraryView::selectedScenario() const {
    const auto* item = scenarios_->currentItem();
    return item ? item->data(0, kIdRole).toLongLong() : 0;
}

int LibraryView::scenarioCount() const {
    return scenarios_->topLevelItemCount();
}

QString LibraryView::statusText() const {
    return status_->text();
}

void LibraryView::loadVersions() {
    versions_->clear();
    const store::ScenarioId id = selectedScenario();
    if (!library_ || id == 0)
        return;
    auto versions = library_->versions(id);
    if (!versions) {
        showError(versions.error());
        return;
    }
    for (auto it = versions->rbegin(); it != versions->rend(); ++it) {
        auto* item = new QTreeWidgetItem(
            versions_, {QString::number(it->number), qs(it->createdAt).left(19), qs(it->note)});
        item->setData(0, kIdRole, it->number);
    }
    if (versions_->topLevelItemCount() > 0)
        versions_->setCurrentItem(versions_->topLevelItem(0));
}

void LibraryView::selectVersions(const QList<int>& numbers) {
    versions_->clearSelection();
    bool first = true;
    for (int i = 0; i < versions_->topLevelItemCount(); ++i) {
        auto* item = versions_->topLevelItem(i);
        if (!numbers.contains(item->data(0, kIdRole).toInt()))
            continue;
        if (first) // the current one is what Open opens
            versions_->setCurrentItem(item, 0, QItemSelectionModel::NoUpdate);
        first = false;
        item->setSelected(true);
    }
}

bool LibraryView::diffSelectedVersions() {
    QList<int> numbers;
    for (const auto* item : versions_->selectedItems())
        numbers << item->data(0, kIdRole).toInt();
    if (numbers.size() != 2 || !library_) {
        diffView_->setPlainText(tr("Select two versions to compare."));
        return false;
    }
    std::sort(numbers.begin(), numbers.end());
    const store::ScenarioId id = selectedScenario();
    auto a = library_->version(id, numbers[0]);
    auto b = library_->version(id, numbers[1]);
    if (!a || !b) {
        showError(!a ? a.error() : b.error());
        return false;
    }
    QStringList lines{tr("Version %1 → version %2").arg(numbers[0]).arg(numbers[1])};
    const auto changes = store::diffScenarioTexts(a->scenarioJson, b->scenarioJson);
    for (const auto& c : changes)
        lines << QStringLiteral("%1: %2 → %3")
                     .arg(qs(c.key), c.before.empty() ? tr("(absent)") : qs(c.before),
                          c.after.empty() ? tr("(absent)") : qs(c.after));
    if (changes.empty())
        lines << tr("No differences.");
    diffView_->setPlainText(lines.join('\n'));
    return true;
}

QString LibraryView::diffText() const {
    return diffView_->toPlainText();
}

bool LibraryView::openSelectedVersion() {
    const auto* item = versions_->currentItem();
    const store::ScenarioId id = selectedScenario();
    if (!item || !library_ || id == 0)
        return false;
    const int number = item->data(0, kIdRole).toInt();
    auto version = library_->version(id, number);
    auto summary = library_->scenario(id);
    if (!version || !summary) {
        showError(!version ? version.error() : summary.error());
        return false;
    }
    emit openVersionRequested(qs(version->scenarioJson), id, number, qs(summary->name));
    return true;
}

bool LibraryView::deleteSelectedScenario() {
    const store::ScenarioId id = selectedScenario();
    if (!library_ || id == 0)
        return false;
    auto removed = library_->removeScenario(id);
    if (!removed) {
        showError(removed.error());
        return false;
    }
    undo_->push(new DeleteLibraryScenario(this, std::move(*removed)));
    emit libraryChanged();
    return true;
}

bool LibraryView::addTagToSelected(const QString& tag) {
    const store::ScenarioId id = selectedScenario();
    if (!library_ || id == 0)
        return false;
    auto done = library_->addTag(id, tag.trimmed().toStdString());
    if (!done) {
        showError(done.error());
        return false;
    }
    tagEdit_->clear();
    refresh();
    return true;
}

void LibraryView::showError(const store::StoreError& error) {
    status_->setText(qs(error.message));
}

} // namespace ts::gui
