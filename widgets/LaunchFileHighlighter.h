#pragma once
// Syntax highlighting for launch files in a preview: comments, strings, command-line flags,
// keys (TOML, YAML, JSON, Hydra overrides), section headers and numbers.

#include "export/Exporter.h"

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <vector>

namespace ts::gui {

class LaunchFileHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    LaunchFileHighlighter(QTextDocument* document, FileSyntax syntax);

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule {
        QRegularExpression pattern;
        QTextCharFormat format;
    };
    std::vector<Rule> rules_;
};

} // namespace ts::gui
