#include "LaunchFileHighlighter.h"

#include <QColor>
#include <QPalette>

namespace ts::gui {
namespace {

QTextCharFormat charFormat(const QColor& color, bool bold = false, bool italic = false) {
    QTextCharFormat f;
    f.setForeground(color);
    if (bold)
        f.setFontWeight(QFont::Bold);
    f.setFontItalic(italic);
    return f;
}

} // namespace

LaunchFileHighlighter::LaunchFileHighlighter(QTextDocument* document, FileSyntax syntax)
    : QSyntaxHighlighter(document) {
    // Colours readable on light and dark palettes.
    const QColor number(0xb0, 0x60, 0x00), key(0x80, 0x30, 0xb0), flag(0x10, 0x60, 0xc0),
        string(0x20, 0x80, 0x30), comment(0x80, 0x80, 0x80), section(0xc0, 0x30, 0x30);
    auto add = [this](const char* pattern, const QTextCharFormat& f) {
        rules_.push_back({QRegularExpression(QString::fromLatin1(pattern)), f});
    };
    add(R"(\b-?\d+(\.\d+)?([eE][-+]?\d+)?\b)", charFormat(number));
    switch (syntax) {
    case FileSyntax::Shell:
        add(R"((^|\s)--?[A-Za-z][A-Za-z0-9_.-]*)", charFormat(flag));
        add(R"(\b[A-Za-z_][A-Za-z0-9_.]*=)", charFormat(key));
        add(R"(\$\{?[A-Za-z_][A-Za-z0-9_]*(\[@\])?\}?)", charFormat(section));
        add(R"("[^"]*"|'[^']*')", charFormat(string));
        add(R"(^#SBATCH.*$)", charFormat(section, true));
        add(R"((^|\s)#(?!SBATCH).*$)", charFormat(comment, false, true));
        break;
    case FileSyntax::Toml:
        add(R"(^\s*[A-Za-z0-9_.]+\s*(?==))", charFormat(key));
        add(R"("[^"]*"|'[^']*')", charFormat(string));
        add(R"(^\s*\[[^\]]+\]\s*$)", charFormat(section, true));
        add(R"(#.*$)", charFormat(comment, false, true));
        break;
    case FileSyntax::Yaml:
        add(R"(^\s*(- )?[A-Za-z0-9_./-]+(?=:))", charFormat(key));
        add(R"("[^"]*"|'[^']*')", charFormat(string));
        add(R"(^---$)", charFormat(section, true));
        add(R"(^\s*#.*$)", charFormat(comment, false, true));
        break;
    case FileSyntax::Json:
        add(R"("[^"]*")", charFormat(string));
        add(R"("[^"]*"(?=\s*:))", charFormat(key));
        add(R"(\b(true|false|null)\b)", charFormat(section));
        break;
    case FileSyntax::Text:
        add(R"(\bslots=)", charFormat(key));
        break;
    }
}

void LaunchFileHighlighter::highlightBlock(const QString& text) {
    for (const auto& rule : rules_) {
        auto it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            const auto match = it.next();
            setFormat(int(match.capturedStart()), int(match.capturedLength()), rule.format);
        }
    }
}

} // namespace ts::gui
