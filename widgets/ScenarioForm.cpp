#include "ScenarioForm.h"

#include "ScenarioDocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>

#include <cmath>
#include <limits>

namespace ts::gui {

namespace {

using Json = nlohmann::ordered_json;

void setInherited(QWidget* editor, bool inherited) {
    QFont font = editor->font();
    if (font.italic() != inherited) {
        font.setItalic(inherited);
        editor->setFont(font);
    }
}

} // namespace

// A field in error: its background mixed towards red, from whatever palette is in use, so
// that it reads as red on light and dark themes alike.
QPalette ScenarioForm::invalidPalette(const QPalette& base) {
    QPalette p = base;
    const QColor red(220, 50, 47);
    for (QPalette::ColorRole role : {QPalette::Base, QPalette::Button}) {
        const QColor c = base.color(role);
        const double t = c.lightnessF() > 0.5 ? 0.28 : 0.45;
        p.setColor(role, QColor::fromRgbF(float(c.redF() * (1 - t) + red.redF() * t),
                                          float(c.greenF() * (1 - t) + red.greenF() * t),
                                          float(c.blueF() * (1 - t) + red.blueF() * t)));
    }
    return p;
}

ScenarioForm::ScenarioForm(ScenarioDocument* document, SpecList specs, QWidget* parent)
    : QWidget(parent), document_(document), specs_(std::move(specs)),
      layout_(new QFormLayout(this)) {
    layout_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout_->setLabelAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    layout_->setContentsMargins(10, 8, 10, 8);
    layout_->setVerticalSpacing(5);
    rebuild();
    connect(document_, &ScenarioDocument::changed, this, &ScenarioForm::refresh);
    connect(document_, &ScenarioDocument::validityChanged, this, [this] {
        for (Row& row : rows_)
            if (row.editor)
                showValidity(row);
    });
    connect(document_, &ScenarioDocument::editRefused, this,
            [this](const QString& pointer, const QString& message) {
                for (Row& row : rows_) {
                    const std::string p = pointer.toStdString();
                    if (!row.editor) // a section heading: its empty pointer prefixes every path
                        continue;
                    if (row.spec.pointer == p || p.rfind(row.spec.pointer + "/", 0) == 0) {
                        row.refusal = message;
                        showValue(row); // back to the value in effect
                        showValidity(row);
                    }
                }
            });
}

void ScenarioForm::rebuild() {
    while (layout_->rowCount() > 0)
        layout_->removeRow(0);
    rows_.clear();
    for (FieldSpec& spec : specs_()) {
        Row row;
        row.spec = std::move(spec);
        if (row.spec.kind == FieldSpec::Kind::Section) {
            row.label = new QLabel(row.spec.label, this);
            QFont font = row.label->font();
            font.setWeight(QFont::DemiBold);
            row.label->setFont(font);
            row.label->setContentsMargins(0, layout_->rowCount() ? 8 : 0, 0, 0);
            layout_->addRow(row.label);
        } else {
            row.label = new QLabel(row.spec.label, this);
            row.label->setToolTip(row.spec.toolTip);
            row.editor = createEditor(row);
            row.editor->setObjectName(QString::fromStdString(row.spec.pointer));
            row.label->setBuddy(row.editor);
            layout_->addRow(row.label, row.editor);
        }
        rows_.push_back(std::move(row));
    }
    refresh();
}

QWidget* ScenarioForm::createEditor(Row& row) {
    const FieldSpec& spec = row.spec;
    const std::string pointer = spec.pointer;
    switch (spec.kind) {
    case FieldSpec::Kind::Integer: {
        auto* box = new QSpinBox(this);
        box->setRange(int(spec.minimum), int(std::min(spec.maximum, 2147483647.0)));
        box->setSuffix(spec.suffix);
        box->setKeyboardTracking(false);
        box->setGroupSeparatorShown(true);
        connect(box, &QSpinBox::valueChanged, this,
                [this, pointer](int value) { commit(pointer, Json(value)); });
        return box;
    }
    case FieldSpec::Kind::Real: {
        auto* box = new QDoubleSpinBox(this);
        box->setDecimals(spec.decimals);
        box->setRange(spec.minimum / spec.scale, spec.maximum / spec.scale);
        box->setSuffix(spec.suffix);
        box->setKeyboardTracking(false);
        box->setGroupSeparatorShown(true);
        const double scale = spec.scale;
        connect(box, &QDoubleSpinBox::valueChanged, this,
                [this, pointer, scale](double value) { commit(pointer, Json(value * scale)); });
        return box;
    }
    case FieldSpec::Kind::Choice: {
        auto* combo = new QComboBox(this);
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(8);
        connect(combo, &QComboBox::activated, this, [this, pointer, combo](int index) {
            const QVariant data = combo->itemData(index);
            commit(pointer, Json::parse(data.toString().toStdString()));
        });
        return combo;
    }
    case FieldSpec::Kind::Flag: {
        auto* box = new QCheckBox(this);
        connect(box, &QCheckBox::toggled, this,
                [this, pointer](bool on) { commit(pointer, Json(on)); });
        return box;
    }
    case FieldSpec::Kind::Section:
        break;
    }
    return nullptr;
}

void ScenarioForm::commit(const std::string& pointer, const Json& value) {
    Row* row = rowFor(pointer);
    if (!row)
        return;
    row->refusal.clear();
    const QString text = tr("Change %1").arg(row->spec.label);
    std::vector<ScenarioValueChange> changes =
        row->spec.changes ? row->spec.changes(value)
                          : std::vector<ScenarioValueChange>{{pointer, value}};
    // Re-choosing the value in effect writes nothing (a preset's value stays inherited).
    if (changes.size() == 1 && changes.front().pointer == pointer &&
        !document_->explicitValue(pointer) && document_->effectiveValue(pointer) == value)
        return;
    document_->setValues(std::move(changes), text);
}

void ScenarioForm::retranslate() {
    // Same rows, new texts: widgets are not recreated while the event reaches them.
    std::vector<FieldSpec> specs = specs_();
    for (std::size_t i = 0; i < rows_.size() && i < specs.size(); ++i) {
        rows_[i].spec = std::move(specs[i]);
        rows_[i].label->setText(rows_[i].spec.label);
        rows_[i].label->setToolTip(rows_[i].spec.toolTip);
        if (rows_[i].editor) {
            if (auto* box = qobject_cast<QSpinBox*>(rows_[i].editor))
                box->setSuffix(rows_[i].spec.suffix);
            else if (auto* real = qobject_cast<QDoubleSpinBox*>(rows_[i].editor))
                real->setSuffix(rows_[i].spec.suffix);
        }
    }
    refresh();
}

void ScenarioForm::refresh() {
    for (Row& row : rows_) {
        if (!row.editor)
            continue;
        showValue(row);
        showValidity(row);
    }
}

void ScenarioForm::showValue(Row& row) {
    const FieldSpec& spec = row.spec;
    const std::optional<Json> value = document_->effectiveValue(spec.pointer);
    const bool inherited = !document_->explicitValue(spec.pointer).has_value();
    QSignalBlocker blocker(row.editor);
    setInherited(row.editor, inherited && value.has_value());
    // A key inside an absent object (the MoE keys of a dense model) cannot be edited alone.
    row.editor->setEnabled(!spec.readOnly &&
                           (spec.kind == FieldSpec::Kind::Choice || (value && !value->is_null())) &&
                           (!spec.enabledWhen || spec.enabledWhen()));
    switch (spec.kind) {
    case FieldSpec::Kind::Integer:
        if (value && value->is_number())
            static_cast<QSpinBox*>(row.editor)->setValue(value->get<int>());
        break;
    case FieldSpec::Kind::Real:
        if (value && value->is_number())
            static_cast<QDoubleSpinBox*>(row.editor)->setValue(value->get<double>() / spec.scale);
        break;
    case FieldSpec::Kind::Flag:
        static_cast<QCheckBox*>(row.editor)
            ->setChecked(value && value->is_boolean() && value->get<bool>());
        break;
    case FieldSpec::Kind::Choice: {
        auto* combo = static_cast<QComboBox*>(row.editor);
        const std::vector<FieldChoice> choices =
            spec.dynamicChoices ? spec.dynamicChoices() : spec.choices;
        combo->clear();
        int current = -1;
        auto* model = qobject_cast<QStandardItemModel*>(combo->model());
        for (const FieldChoice& choice : choices) {
            combo->addItem(choice.label, QString::fromStdString(choice.value.dump()));
            const int index = combo->count() - 1;
            if (!choice.toolTip.isEmpty())
                combo->setItemData(index, choice.toolTip, Qt::ToolTipRole);
            if (model && !choice.enabled)
                model->item(index)->setEnabled(false);
            if ((value && choice.value == *value) || (!value && choice.value.is_null()))
                current = index;
        }
        if (current < 0 && value && !value->is_null()) {
            // A value the list does not offer (a custom GPU, an odd degree): show it as is.
            combo->addItem(QString::fromStdString(value->is_string() ? value->get<std::string>()
                                                                     : value->dump()),
                           QString::fromStdString(value->dump()));
            current = combo->count() - 1;
        }
        combo->setCurrentIndex(current);
        break;
    }
    case FieldSpec::Kind::Section:
        break;
    }
}

void ScenarioForm::showValidity(Row& row) {
    QString error = row.refusal.isEmpty() ? document_->errorAt(row.spec.pointer) : row.refusal;
    const bool invalid = !error.isEmpty();
    row.editor->setProperty("invalid", invalid);
    row.editor->setPalette(invalid ? invalidPalette(palette()) : QPalette());
    QString tip = invalid ? error : row.spec.toolTip;
    if (!invalid && !document_->explicitValue(row.spec.pointer))
        tip = (tip.isEmpty() ? QString() : tip + QLatin1Char('\n')) +
              tr("Not set in the file: the preset's or the format's default value.");
    row.editor->setToolTip(tip);
}

ScenarioForm::Row* ScenarioForm::rowFor(const std::string& pointer) {
    for (Row& row : rows_)
        if (row.editor && row.spec.pointer == pointer)
            return &row;
    return nullptr;
}

const ScenarioForm::Row* ScenarioForm::rowFor(const std::string& pointer) const {
    return const_cast<ScenarioForm*>(this)->rowFor(pointer);
}

QWidget* ScenarioForm::field(const std::string& pointer) const {
    const Row* row = rowFor(pointer);
    return row ? row->editor : nullptr;
}

bool ScenarioForm::isFieldInvalid(const std::string& pointer) const {
    const Row* row = rowFor(pointer);
    return row && row->editor->property("invalid").toBool();
}

QString ScenarioForm::fieldError(const std::string& pointer) const {
    const Row* row = rowFor(pointer);
    return row && isFieldInvalid(pointer) ? row->editor->toolTip() : QString();
}

bool ScenarioForm::isFieldInherited(const std::string& pointer) const {
    const Row* row = rowFor(pointer);
    return row && row->editor->font().italic();
}

void ScenarioForm::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange)
        refresh();
    QWidget::changeEvent(event);
}

} // namespace ts::gui
