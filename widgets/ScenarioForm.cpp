#include "ScenarioForm.h"

#include "ScenarioDocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStringList>
#include <QStyle>
#include <QToolButton>

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
    // In a narrow dock (a 1024-pixel window) a field goes under its label, never clipped.
    layout_->setRowWrapPolicy(QFormLayout::WrapLongRows);
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
            layout_->addRow(row.label, withResetButton(row));
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
        // One below the minimum reads "not set" (Qt's special value): stepping down to it
        // removes the key, stepping up from it sets the key.
        box->setRange(int(spec.minimum) - 1, int(std::min(spec.maximum, 2147483647.0)));
        box->setSpecialValueText(tr("not set"));
        box->setSuffix(spec.suffix);
        box->setKeyboardTracking(false);
        box->setGroupSeparatorShown(true);
        connect(box, &QSpinBox::valueChanged, this, [this, pointer, box](int value) {
            commit(pointer, value == box->minimum() ? std::nullopt : std::optional<Json>(value));
        });
        return box;
    }
    case FieldSpec::Kind::Real: {
        auto* box = new QDoubleSpinBox(this);
        box->setDecimals(spec.decimals);
        box->setRange(spec.minimum / spec.scale - std::pow(10.0, -spec.decimals),
                      spec.maximum / spec.scale);
        box->setSpecialValueText(tr("not set"));
        box->setSuffix(spec.suffix);
        box->setKeyboardTracking(false);
        box->setGroupSeparatorShown(true);
        const double scale = spec.scale;
        connect(box, &QDoubleSpinBox::valueChanged, this, [this, pointer, scale, box](double v) {
            commit(pointer, v == box->minimum() ? std::nullopt : std::optional<Json>(v * scale));
        });
        return box;
    }
    case FieldSpec::Kind::Choice: {
        auto* combo = new QComboBox(this);
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(8);
        combo->setPlaceholderText(tr("not set"));
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
    case FieldSpec::Kind::Number:
    case FieldSpec::Kind::Text:
        return createLineEditor(row);
    case FieldSpec::Kind::Section:
        break;
    }
    return nullptr;
}

QWidget* ScenarioForm::createLineEditor(Row& row) {
    auto* edit = new QLineEdit(this);
    edit->setClearButtonEnabled(true);
    const std::string pointer = row.spec.pointer;
    connect(edit, &QLineEdit::editingFinished, this,
            [this, pointer, edit] { commitText(pointer, edit->text()); });
    return edit;
}

// The editor with its reset button (a flat tool button that keeps its place while hidden,
// so that the fields stay aligned).
QWidget* ScenarioForm::withResetButton(Row& row) {
    auto* box = new QWidget(this);
    auto* layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(row.editor, 1);
    auto* reset = new QToolButton(box);
    reset->setObjectName(QString::fromStdString(row.spec.pointer) + QStringLiteral("#reset"));
    reset->setAutoRaise(true);
    reset->setIcon(style()->standardIcon(QStyle::SP_DialogResetButton));
    reset->setFocusPolicy(Qt::TabFocus);
    QSizePolicy policy = reset->sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    reset->setSizePolicy(policy);
    reset->setVisible(false);
    const std::string pointer = row.spec.pointer;
    connect(reset, &QToolButton::clicked, this, [this, pointer] { commit(pointer, std::nullopt); });
    layout->addWidget(reset);
    row.reset = reset;
    if (!row.spec.resettable)
        reset->setEnabled(false);
    return box;
}

void ScenarioForm::commitText(const std::string& pointer, const QString& text) {
    Row* row = rowFor(pointer);
    if (!row)
        return;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) {
        commit(pointer, std::nullopt);
        return;
    }
    if (row->spec.kind == FieldSpec::Kind::Text) {
        commit(pointer, Json(trimmed.toStdString()));
        return;
    }
    bool ok = false;
    double number = QLocale().toDouble(trimmed, &ok);
    if (!ok)
        number = trimmed.toDouble(&ok); // "1e12" and C-locale input are numbers too
    if (!ok) {
        row->refusal = tr("“%1” is not a number").arg(trimmed);
        showValidity(*row);
        return;
    }
    number *= row->spec.scale;
    if (number < row->spec.minimum || number > row->spec.maximum) {
        row->refusal = tr("%1 is out of range: give %2 to %3")
                           .arg(trimmed, QLocale().toString(row->spec.minimum / row->spec.scale),
                                QLocale().toString(row->spec.maximum / row->spec.scale));
        showValidity(*row);
        return;
    }
    const double rounded = std::round(number);
    commit(pointer, std::abs(number - rounded) < 1e-9 * std::max(1.0, std::abs(number)) &&
                            std::abs(rounded) < 9e15
                        ? Json(std::int64_t(rounded))
                        : Json(number));
}

void ScenarioForm::commit(const std::string& pointer, const std::optional<Json>& value) {
    Row* row = rowFor(pointer);
    if (!row)
        return;
    row->refusal.clear();
    const std::optional<Json> before = document_->effectiveValue(pointer);
    const QString name = row->spec.shortLabel.isEmpty() ? row->spec.label : row->spec.shortLabel;
    const QString text =
        value ? tr("%1 %2 → %3").arg(name, valueText(pointer, before), valueText(pointer, value))
              : tr("Reset %1 to its default").arg(name);
    if (value && value->is_null() && !document_->explicitValue(pointer) &&
        !document_->effectiveValue(pointer))
        return; // "none" chosen where nothing is set
    std::vector<ScenarioValueChange> changes;
    if (!value)
        changes = changeRemovingKey(*document_, pointer);
    else if (row->spec.changes)
        changes = row->spec.changes(*value);
    else
        changes = changeCreatingObjects(*document_, pointer, *value);
    if (changes.empty()) { // as it is: nothing to write
        showValue(*row);
        return;
    }
    // Re-choosing the value in effect writes nothing (a preset's value stays inherited).
    if (value && changes.size() == 1 && changes.front().pointer == pointer &&
        !document_->explicitValue(pointer) && document_->effectiveValue(pointer) == *value)
        return;
    // A reset is its own step: it never merges into the edit before it.
    document_->setValues(std::move(changes), text, value.has_value());
}

QString ScenarioForm::valueText(const std::string& pointer,
                                const std::optional<Json>& value) const {
    const Row* row = rowFor(pointer);
    if (!row)
        return tr("default");
    const FieldSpec& spec = row->spec;
    if (spec.kind == FieldSpec::Kind::Choice) {
        const std::vector<FieldChoice> choices =
            spec.dynamicChoices ? spec.dynamicChoices() : spec.choices;
        for (const FieldChoice& choice : choices)
            if (value ? choice.value == *value : choice.value.is_null())
                return choice.label;
    }
    if (!value || value->is_null())
        return tr("default");
    switch (spec.kind) {
    case FieldSpec::Kind::Flag:
        if (value->is_boolean())
            return value->get<bool>() ? tr("on") : tr("off");
        break;
    case FieldSpec::Kind::Integer:
    case FieldSpec::Kind::Real:
    case FieldSpec::Kind::Number:
        if (value->is_number())
            return QLocale().toString(value->get<double>() / spec.scale, 'g', 10) + spec.suffix;
        break;
    default:
        break;
    }
    return QString::fromStdString(value->is_string() ? value->get<std::string>() : value->dump());
}

void ScenarioForm::retranslate() {
    // Same rows, new texts: widgets are not recreated while the event reaches them.
    std::vector<FieldSpec> specs = specs_();
    for (std::size_t i = 0; i < rows_.size() && i < specs.size(); ++i) {
        rows_[i].spec = std::move(specs[i]);
        rows_[i].label->setText(rows_[i].spec.label);
        rows_[i].label->setToolTip(rows_[i].spec.toolTip);
        if (rows_[i].editor) {
            if (auto* box = qobject_cast<QSpinBox*>(rows_[i].editor)) {
                box->setSuffix(rows_[i].spec.suffix);
                box->setSpecialValueText(tr("not set"));
            } else if (auto* real = qobject_cast<QDoubleSpinBox*>(rows_[i].editor)) {
                real->setSuffix(rows_[i].spec.suffix);
                real->setSpecialValueText(tr("not set"));
            } else if (auto* combo = qobject_cast<QComboBox*>(rows_[i].editor)) {
                combo->setPlaceholderText(tr("not set"));
            }
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
    const std::optional<Json> value =
        spec.shownValue ? spec.shownValue() : document_->effectiveValue(spec.pointer);
    const bool inherited = !document_->explicitValue(spec.pointer).has_value();
    QSignalBlocker blocker(row.editor);
    const bool hasValue = value && !value->is_null();
    setInherited(row.editor, inherited && hasValue);
    // A key inside an absent object (the MoE keys of a dense model) cannot be edited alone
    // unless the spec says it can be set; either way it shows no other document's value.
    const bool enabled = !spec.readOnly &&
                         (spec.kind == FieldSpec::Kind::Choice || hasValue || spec.settable) &&
                         (!spec.enabledWhen || spec.enabledWhen());
    row.editor->setEnabled(enabled);
    if (row.reset)
        row.reset->setVisible(spec.resettable && !inherited && enabled);
    if (row.reset && row.reset->isVisible())
        row.reset->setToolTip(tr("Reset to the default: remove %1 from the file")
                                  .arg(QString::fromStdString(spec.pointer)));
    switch (spec.kind) {
    case FieldSpec::Kind::Integer: {
        auto* box = static_cast<QSpinBox*>(row.editor);
        box->setValue(hasValue && value->is_number() ? value->get<int>() : box->minimum());
        break;
    }
    case FieldSpec::Kind::Real: {
        auto* box = static_cast<QDoubleSpinBox*>(row.editor);
        box->setValue(hasValue && value->is_number() ? value->get<double>() / spec.scale
                                                     : box->minimum());
        break;
    }
    case FieldSpec::Kind::Number:
    case FieldSpec::Kind::Text:
        showLineValue(row, value);
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

void ScenarioForm::showLineValue(Row& row, const std::optional<Json>& value) {
    const FieldSpec& spec = row.spec;
    auto* edit = static_cast<QLineEdit*>(row.editor);
    const std::optional<Json> written = document_->explicitValue(spec.pointer);
    auto text = [&](const Json& v) {
        if (v.is_array()) { // a list of numbers: "20, 20, 20"
            QStringList parts;
            for (const Json& item : v)
                parts << QString::fromStdString(item.is_string() ? item.get<std::string>()
                                                                 : item.dump());
            return parts.join(QStringLiteral(", "));
        }
        if (v.is_number())
            return QLocale().toString(v.get<double>() / spec.scale, 'g', 10);
        return QString::fromStdString(v.is_string() ? v.get<std::string>() : v.dump());
    };
    edit->setText(written && !written->is_null() ? text(*written) : QString());
    QString placeholder;
    if (spec.placeholder)
        placeholder = spec.placeholder();
    else if (!written && value && !value->is_null())
        placeholder = text(*value);
    edit->setPlaceholderText(placeholder.isEmpty() ? tr("not set") : placeholder);
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

QAbstractButton* ScenarioForm::resetButton(const std::string& pointer) const {
    const Row* row = rowFor(pointer);
    return row ? row->reset : nullptr;
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
