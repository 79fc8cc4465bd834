#pragma once
// Markdown from the page: CommonMark with the GFM table and strikethrough extensions, shaped the
// way a person writes it by hand. Input is snapshot.js's `tree`, the visible DOM as compact JSON,
// so hidden content, scripts and styles are already gone; this is a pure function over it.
#include <nlohmann/json.hpp>

#include <string>

namespace gleaner::content {

/// Converts a snapshot tree (`["tag", {attrs}?, ...children]`, text nodes as strings) to markdown:
/// ATX headings, nested ordered/unordered lists, GFM tables, fenced code blocks with the page's
/// language, inline code, emphasis, strikethrough, links and images with the absolute URLs the
/// browser resolved, blockquotes, hard line breaks, `---` rules. Whitespace outside <pre> is
/// collapsed as a browser does; text is escaped only where markdown would misread it; blocks are
/// separated by exactly one blank line; the result is trimmed. Odd input (non-arrays, unknown tags,
/// missing attributes) is tolerated, never thrown on. The full rules: docs/content.md.
std::string to_markdown(const nlohmann::json& tree);

}  // namespace gleaner::content
