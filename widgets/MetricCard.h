#pragma once
// One figure of the results dashboard: a caption, the value with its unit in large type, a
// line of detail, and optionally a fill bar (memory against capacity). Colours come from the
// palette, so the card follows light and dark themes.

#include <QFrame>

#include <optional>

class QLabel;
class QProgressBar;

namespace ts::gui {

class MetricCard : public QFrame {
    Q_OBJECT
public:
    explicit MetricCard(QWidget* parent = nullptr);

    void setCaption(const QString& caption);
    void setValue(const QString& value, const QString& toolTip = {});
    void setDetail(const QString& detail);
    // nullopt hides the bar; fractions above 1 show a full bar.
    void setFill(std::optional<double> fraction);

    QString value() const;
    QString valueToolTip() const;
    QString detail() const;
    bool hasFill() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitValueFont();

    QLabel* caption_;
    QLabel* value_;
    QLabel* detail_;
    QProgressBar* fill_;
};

} // namespace ts::gui
