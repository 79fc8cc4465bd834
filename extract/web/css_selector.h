#pragma once
// A syntax check of a CSS selector list (Selectors Level 4 over CSS Syntax Level 3 tokens), run
// on `waitFor` before a tab is leased, so a malformed selector costs the caller a 400 at once and
// costs the pool nothing. It checks shape, not meaning: an unknown pseudo-class passes here and
// Chromium's own parser still refuses it in the page (also a 400 naming `waitFor`).
#include <string>
#include <string_view>

namespace gleaner::web {

/// Empty when `selector` is a well-formed selector list; otherwise what is wrong and where.
std::string css_selector_error(std::string_view selector);

}  // namespace gleaner::web
