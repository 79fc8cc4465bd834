#pragma once
// Plain text from a snapshot tree, laid out as innerText lays out a page: block boxes on lines of
// their own, a blank line around paragraphs and headings, table cells separated by tabs and rows
// by line breaks. The `text` output where the browser's innerText cannot serve: on the
// jsRendering: false road, and when onlyMainContent, includeOnlyTags or excludeTags chose parts
// of the page.
#include <nlohmann/json.hpp>

#include <string>

namespace gleaner::content {

std::string tree_text(const nlohmann::json& tree);

}  // namespace gleaner::content
