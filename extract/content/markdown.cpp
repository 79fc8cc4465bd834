#include "extract/content/markdown.h"

#include "extract/content/chars.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gleaner::content {
namespace {

using chars::is_alnum;
using chars::is_alpha;
using chars::is_digit;
using chars::is_punct;
using chars::is_space;
using nlohmann::json;

// The tree is not followed deeper than this (snapshot.js already flattens past 400 elements): keeps
// the recursion far from the end of the stack whatever the input.
constexpr int kMaxDepth = 1000;

// ---------------------------------------------------------------------------------------------
// The tree's nodes: ["tag", {attrs}?, ...children]; text nodes are strings.

bool is_element(const json& node) {
  return node.is_array() && !node.empty() && node[0].is_string();
}

std::string_view tag_of(const json& element) {
  return element[0].get_ref<const std::string&>();
}

const json* attrs_of(const json& element) {
  return element.size() > 1 && element[1].is_object() ? &element[1] : nullptr;
}

/// The children of an element, for range-for.
struct Children {
  const json& element;
  json::const_iterator begin() const {
    return element.begin() + (attrs_of(element) != nullptr ? 2 : 1);
  }
  json::const_iterator end() const { return element.end(); }
};

std::string_view attr(const json& element, const char* name) {
  const json* attrs = attrs_of(element);
  if (attrs == nullptr) return {};
  auto it = attrs->find(name);
  if (it == attrs->end() || !it->is_string()) return {};
  return it->get_ref<const std::string&>();
}

long attr_int(const json& element, const char* name, long fallback, long low, long high) {
  const json* attrs = attrs_of(element);
  if (attrs == nullptr) return fallback;
  auto it = attrs->find(name);
  auto value = static_cast<double>(fallback);
  if (it != attrs->end() && it->is_number()) {
    value = it->get<double>();
  } else if (it != attrs->end() && it->is_string()) {
    try {
      value = std::stod(it->get_ref<const std::string&>());
    } catch (const std::exception&) {
      return fallback;
    }
  }
  // Clamped as a double first: a huge number must not overflow the conversion.
  return static_cast<long>(std::clamp(value, static_cast<double>(low), static_cast<double>(high)));
}

// How each tag is rendered. Unknown tags (custom elements that snapshot.js could not classify,
// MathML, ...) are Inline: transparent, their children rendered in place.
enum class Kind {
  Inline,
  Skip,
  Block,
  Heading,
  List,
  Item,
  Quote,
  Pre,
  Table,
  Rule,
  Break,
  Image,
  Link,
  Strong,
  Emphasis,
  Strike,
  Code,
  Term,
  Quotation,
};

Kind kind_of(std::string_view tag) {
  static const std::unordered_map<std::string_view, Kind> kinds = [] {
    std::unordered_map<std::string_view, Kind> m;
    for (const char* t :
         {"script",   "style",  "template", "noscript", "head",  "title",    "meta",
          "link",     "base",   "svg",      "iframe",   "frame", "frameset", "object",
          "embed",    "canvas", "video",    "audio",    "map",   "area",     "select",
          "datalist", "option", "optgroup", "textarea", "input", "param",    "source",
          "track",    "col",    "colgroup", "rp"}) {
      m[t] = Kind::Skip;
    }
    for (const char* t :
         {"html",   "body",    "address", "article",  "aside",      "center", "dd",      "details",
          "dialog", "div",     "dl",      "fieldset", "figcaption", "figure", "footer",  "form",
          "header", "hgroup",  "legend",  "main",     "nav",        "p",      "section", "summary",
          "search", "caption", "thead",   "tbody",    "tfoot",      "tr",     "td",      "th"}) {
      m[t] = Kind::Block;  // table parts are blocks outside a data table (layout tables)
    }
    for (const char* t : {"h1", "h2", "h3", "h4", "h5", "h6"}) m[t] = Kind::Heading;
    for (const char* t : {"ul", "ol", "menu", "dir"}) m[t] = Kind::List;
    for (const char* t : {"pre", "listing", "xmp", "plaintext"}) m[t] = Kind::Pre;
    for (const char* t : {"strong", "b"}) m[t] = Kind::Strong;
    for (const char* t : {"em", "i", "cite", "dfn", "var"}) m[t] = Kind::Emphasis;
    for (const char* t : {"del", "s", "strike"}) m[t] = Kind::Strike;
    for (const char* t : {"code", "kbd", "samp", "tt"}) m[t] = Kind::Code;
    m["li"] = Kind::Item;
    m["blockquote"] = Kind::Quote;
    m["table"] = Kind::Table;
    m["hr"] = Kind::Rule;
    m["br"] = Kind::Break;
    m["img"] = Kind::Image;
    m["a"] = Kind::Link;
    m["dt"] = Kind::Term;
    m["q"] = Kind::Quotation;
    return m;
  }();
  auto it = kinds.find(tag);
  return it == kinds.end() ? Kind::Inline : it->second;
}

Kind kind_of_node(const json& node) {
  return is_element(node) ? kind_of(tag_of(node)) : Kind::Skip;
}

/// Kinds that end a paragraph (markdown blocks).
bool is_block_kind(Kind kind) {
  switch (kind) {
    case Kind::Block:
    case Kind::Heading:
    case Kind::List:
    case Kind::Item:
    case Kind::Quote:
    case Kind::Pre:
    case Kind::Table:
    case Kind::Rule:
    case Kind::Term: return true;
    default: return false;
  }
}

/// How CSS lays out an inline element, as snapshot.js marks it: display=block (a flex or grid
/// item) gets a line of its own; display=inline-block is a box of its own, kept apart from what
/// comes before by a space (tabs and buttons side by side: "All Shopping Images", not one word;
/// not after it, where punctuation usually follows).
enum class Layout { AsTagSays, OwnLine, OwnBox };

Layout layout_of(const json& element, Kind kind) {
  if (is_block_kind(kind) || kind == Kind::Skip) return Layout::AsTagSays;
  std::string_view display = attr(element, "display");
  if (display == "block") return Layout::OwnLine;
  if (display == "inline-block") return Layout::OwnBox;
  return Layout::AsTagSays;
}

/// Whether an element below `node` satisfies `pred(kind)`.
template <typename Pred>
bool has_descendant(const json& node, Pred pred, int depth) {
  if (depth > kMaxDepth) return false;
  for (const json& child : Children{node}) {
    if (!is_element(child)) continue;
    if (pred(kind_of(tag_of(child))) || has_descendant(child, pred, depth + 1)) return true;
  }
  return false;
}

/// All text below `node` as it stands (for code and autolink checks); <br> becomes `br`.
void collect_text(const json& node, std::string& out, std::string_view br, int depth) {
  if (depth > kMaxDepth) return;
  for (const json& child : Children{node}) {
    if (child.is_string()) {
      out += child.get_ref<const std::string&>();
    } else if (is_element(child)) {
      Kind kind = kind_of(tag_of(child));
      if (kind == Kind::Break) {
        out += br;
      } else if (kind != Kind::Skip) {
        collect_text(child, out, br, depth + 1);
      }
    }
  }
}

/// Whitespace collapsed to single spaces (U+00A0 included: it only spaces words) and trimmed.
std::string collapse(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool nbsp = c == '\xC2' && i + 1 < s.size() && s[i + 1] == '\xA0';
    if (is_space(c) || nbsp) {
      if (nbsp) ++i;
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

/// Letters and digits, counting every byte of a non-ASCII character as a letter.
bool is_word_char(char c) {
  return is_alnum(c) || (static_cast<unsigned char>(c) & 0x80) != 0;
}

/// Whether raw[i] starts an invisible bidirectional formatting character: the marks U+200E,
/// U+200F, the embeddings and overrides U+202A..U+202E, the isolates U+2066..U+2069.
bool is_bidi_control(std::string_view raw, std::size_t i) {
  if (i + 2 >= raw.size() || raw[i] != '\xE2') return false;
  auto b1 = static_cast<unsigned char>(raw[i + 1]);
  auto b2 = static_cast<unsigned char>(raw[i + 2]);
  return (b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (b2 >= 0xAA && b2 <= 0xAE))) ||
         (b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9);
}

/// Whether raw[i] starts a UTF-8 character of the Private Use Area U+E000..U+F8FF.
bool is_private_use(std::string_view raw, std::size_t i) {
  if (i + 2 >= raw.size()) return false;
  auto b0 = static_cast<unsigned char>(raw[i]);
  auto b1 = static_cast<unsigned char>(raw[i + 1]);
  return b0 == 0xEE || (b0 == 0xEF && b1 >= 0x80 && b1 <= 0xA3);
}

// ---------------------------------------------------------------------------------------------
// Markdown escaping

/// Whether text character `c` (between `prev`, the output so far, and `next`, the rest of its text
/// node; '\0' when unknown) needs a backslash to stay literal.
bool needs_escape(std::string_view raw, std::size_t i, char prev) {
  char c = raw[i];
  char next = i + 1 < raw.size() ? raw[i + 1] : '\0';
  switch (c) {
    case '\\': return next == '\0' || is_punct(next);
    case '`':
    case '[':
    case ']': return true;
    case '*':
    case '~':
      // Only a run with whitespace on both sides can neither open nor close emphasis.
      return !(prev == ' ' && is_space(next));
    case '_':
      // Intraword underscores (snake_case) never make emphasis.
      return !(is_word_char(prev) && is_word_char(next));
    case '<': return is_alpha(next) || next == '/' || next == '!' || next == '?';
    case '&': {  // only what would read as an entity: &name; &#123; &#x1F;
      std::size_t j = i + 1;
      while (j < raw.size() && (is_alnum(raw[j]) || raw[j] == '#')) ++j;
      return j > i + 1 && j < raw.size() && raw[j] == ';';
    }
    default: return false;
  }
}

/// A line of paragraph text with a backslash where its start would read as block syntax:
/// ATX heading, blockquote, list item, thematic break, setext underline. Markup this converter
/// writes never starts with those characters, so the check only meets text.
std::string escape_line_start(std::string_view line) {
  std::string out;
  out.reserve(line.size() + 1);
  char c = line.empty() ? '\0' : line[0];
  bool escape = false;
  if (c == '>') {
    escape = true;
  } else if (c == '#') {
    std::size_t n = line.find_first_not_of('#');
    escape = n == std::string_view::npos || (n <= 6 && line[n] == ' ');
  } else if (c == '-' || c == '+' || c == '=') {
    bool only_marks = line.find_first_not_of(std::string{c, ' '}) == std::string_view::npos;
    escape = only_marks || (c != '=' && line.size() > 1 && line[1] == ' ');
  } else if (is_digit(c)) {
    std::size_t n = 0;
    while (n < line.size() && is_digit(line[n])) ++n;
    if (n <= 9 && n < line.size() && (line[n] == '.' || line[n] == ')') &&
        (n + 1 == line.size() || line[n + 1] == ' ')) {
      out.append(line.substr(0, n));
      out += '\\';
      out.append(line.substr(n));
      return out;
    }
  }
  if (escape) out += '\\';
  out.append(line);
  return out;
}

/// A link or image destination: kept exact, only what would end or break it is escaped.
std::string destination(std::string_view url) {
  static constexpr std::string_view kHex = "0123456789ABCDEF";
  std::string out;
  out.reserve(url.size());
  for (char c : url) {
    auto u = static_cast<unsigned char>(c);
    if (c == '(' || c == ')') {
      out += '\\';
      out += c;
    } else if (u <= 0x20 || c == '<' || c == '>' || c == '\\' || u == 0x7F) {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

/// ` "title"` for a link or image, or nothing.
std::string title_part(std::string_view title_attr, std::string_view shown_text) {
  std::string title = collapse(title_attr);
  if (title.empty() || title == shown_text) return {};
  std::string out = " \"";
  for (char c : title) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

bool is_script_url(std::string_view url) {
  return chars::starts_with_nocase(url, "javascript:") ||
         chars::starts_with_nocase(url, "vbscript:") || chars::starts_with_nocase(url, "data:");
}

// ---------------------------------------------------------------------------------------------
// Inline content: one paragraph (or a link text, a heading, a table cell) being written.

enum Mark : unsigned { kStrong = 1, kEmphasis = 2, kStrike = 4 };

class Inline {
 public:
  /// `single_line`: <br> becomes a space (link texts, headings, table cells). `marks`: emphasis
  /// already open around this content, so nested <b><b> writes one pair. `in_link`: links inside
  /// are written as their text (markdown has no nested links).
  explicit Inline(bool single_line = false, unsigned marks = 0, bool in_link = false)
      : single_line_(single_line), in_link_(in_link), marks_(marks) {}

  bool single_line() const { return single_line_; }
  bool in_link() const { return in_link_; }
  unsigned marks() const { return marks_; }

  /// Text as in the DOM: whitespace runs collapse to one space, markdown characters escaped.
  void text(std::string_view raw) {
    for (std::size_t i = 0; i < raw.size(); ++i) {
      char c = raw[i];
      if (is_space(c)) {
        space();
        continue;
      }
      if (c == '\xC2' && i + 1 < raw.size() && raw[i + 1] == '\xA0') {  // U+00A0
        ++i;
        space();
        continue;
      }
      if (static_cast<unsigned char>(c) < 0x20 || c == '\x7F') continue;  // controls: unseen
      // Icon-font glyphs (a picture on screen, noise as text) and bidi marks (they order the
      // text on screen, they are not part of it; a browser shows "Foo&lrm;bar" as "Foobar").
      if (is_private_use(raw, i) || is_bidi_control(raw, i)) {
        i += 2;
        continue;
      }
      flush_space();
      if (space_before_word_ && is_word_char(c)) out_ += ' ';
      space_before_word_ = false;
      if (needs_escape(raw, i, out_.empty() ? '\n' : out_.back())) out_ += '\\';
      out_ += c;
    }
  }

  /// A collapsible space: kept only between two pieces of content.
  void space() {
    space_before_word_ = false;
    if (out_.empty()) {
      leading_space_ = true;
    } else if (out_.back() != '\n') {
      pending_space_ = true;
    }
  }

  /// Markdown written as it is (link, image, code span, emphasis pair).
  void markup(std::string_view s) {
    if (s.empty()) return;
    flush_space();
    space_before_word_ = false;
    out_ += s;
  }

  /// The character that markup written now would follow ('\0' at the start, ' ' when a space is
  /// pending).
  char last_char() const {
    if (pending_space_) return ' ';
    return out_.empty() ? '\0' : out_.back();
  }

  /// Whether the content so far ends in a letter or digit, with no space pending.
  bool ends_with_word() const {
    return !pending_space_ && !out_.empty() && is_word_char(out_.back());
  }
  /// Puts a space before the next text if it starts with a letter or digit.
  void space_before_word() { space_before_word_ = true; }

  /// <br>. Kept as '\n' until finish_paragraph(): a run of them there means a new paragraph.
  void hard_break() {
    if (single_line_) {
      space();
      return;
    }
    pending_space_ = false;
    space_before_word_ = false;
    if (!out_.empty()) out_ += '\n';
  }

  /// Ends content that goes inside markup (emphasis, link text): trailing breaks move out to
  /// trailing_break(), runs of breaks become one (a blank line would end the markup).
  std::string take_content() {
    while (!out_.empty() && out_.back() == '\n') {
      out_.pop_back();
      trailing_break_ = true;
    }
    std::string content;
    content.reserve(out_.size());
    for (char c : out_) {
      if (c == '\n' && !content.empty() && content.back() == '\n') continue;
      content += c;
    }
    out_.clear();
    return content;
  }
  bool leading_space() const { return leading_space_; }
  bool trailing_space() const { return pending_space_; }
  bool trailing_break() const { return trailing_break_; }

  /// Ends a paragraph: one <br> becomes a hard break (`\` at the end of the line), two or more a
  /// paragraph break; each line's start is escaped where it would read as block syntax.
  std::string finish_paragraph() {
    std::string result;
    std::size_t breaks = 0;
    std::size_t start = 0;
    while (start <= out_.size()) {
      std::size_t end = out_.find('\n', start);
      if (end == std::string::npos) end = out_.size();
      std::string_view line(out_.data() + start, end - start);
      while (!line.empty() && line.back() == ' ') line.remove_suffix(1);
      if (line.empty()) {
        ++breaks;
      } else {
        if (!result.empty()) result += breaks > 1 ? "\n\n" : "\\\n";
        result += escape_line_start(line);
        breaks = 1;
      }
      start = end + 1;
    }
    out_.clear();
    return result;
  }

 private:
  void flush_space() {
    if (pending_space_) out_ += ' ';
    pending_space_ = false;
  }

  std::string out_;
  bool single_line_;
  bool in_link_;
  unsigned marks_;
  bool pending_space_ = false;
  bool leading_space_ = false;
  bool trailing_break_ = false;
  bool space_before_word_ = false;
};

/// Puts `content` (taken from `inner`) into `outer` wrapped in `open`/`close`, keeping the
/// whitespace and breaks at its edges outside the markup, where CommonMark needs them.
/// `delimiters`: open/close are emphasis delimiters, which CommonMark does not read as such
/// between a word and punctuation ("**Note:**text", "a*(b)*"): a space goes there instead
/// ("**Note:** text").
void splice(Inline& outer, Inline& inner, std::string_view open, const std::string& content,
            std::string_view close, bool delimiters = false) {
  if (inner.leading_space()) outer.space();
  if (!content.empty()) {
    if (delimiters && is_punct(content.front()) && outer.ends_with_word()) outer.space();
    std::string s;
    s.reserve(open.size() + content.size() + close.size());
    s.append(open).append(content).append(close);
    outer.markup(s);
    if (delimiters && is_punct(content.back())) outer.space_before_word();
  }
  if (inner.trailing_break()) {
    outer.hard_break();
  } else if (inner.trailing_space()) {
    outer.space();
  }
}

// ---------------------------------------------------------------------------------------------
// Blocks

enum class BlockType { Paragraph, Heading, List, Code, Table, Quote, Rule };

struct Block {
  BlockType type;
  std::string text;
  /// Lists: the marker used ('-', '*', '.', ')'); a next list right after must use another one,
  /// or CommonMark would join the two.
  char marker = 0;
  bool ordered = false;
  /// Lists: whether it may follow a paragraph line directly (an ordered list must start at 1).
  bool can_interrupt_paragraph = true;
};

/// `body` with `first` before its first line and `rest` before the others; empty lines stay empty
/// (or get `rest` without its trailing spaces, which blockquotes need).
void append_prefixed(std::string& out, std::string_view body, std::string_view first,
                     std::string_view rest) {
  std::string_view rest_bare = rest;
  while (!rest_bare.empty() && rest_bare.back() == ' ') rest_bare.remove_suffix(1);
  std::size_t start = 0;
  bool first_line = true;
  while (start <= body.size()) {
    std::size_t end = body.find('\n', start);
    if (end == std::string_view::npos) end = body.size();
    std::string_view line = body.substr(start, end - start);
    if (!first_line) out += '\n';
    if (line.empty()) {
      std::string_view prefix = first_line ? first : rest_bare;
      while (!prefix.empty() && prefix.back() == ' ') prefix.remove_suffix(1);
      out += prefix;
    } else {
      out += first_line ? first : rest;
      out += line;
    }
    first_line = false;
    start = end + 1;
  }
}

std::string join_blocks(const std::vector<Block>& blocks, std::string_view separator) {
  std::string out;
  for (const Block& b : blocks) {
    if (!out.empty()) out += separator;
    out += b.text;
  }
  return out;
}

/// Collects the blocks of one container (the page, a list item, a blockquote), with the paragraph
/// being written.
class Sink {
 public:
  Inline& paragraph() { return paragraph_; }

  void flush() {
    std::string text = paragraph_.finish_paragraph();
    paragraph_ = Inline();
    if (!text.empty()) blocks_.push_back({BlockType::Paragraph, std::move(text)});
  }

  void push(Block block) {
    flush();
    if (!block.text.empty()) blocks_.push_back(std::move(block));
  }

  /// The marker for a list about to be pushed: alternated when the previous block is a list of
  /// the same kind.
  char list_marker(bool ordered) {
    flush();
    char usual = ordered ? '.' : '-';
    char other = ordered ? ')' : '*';
    if (!blocks_.empty() && blocks_.back().type == BlockType::List &&
        blocks_.back().ordered == ordered && blocks_.back().marker == usual) {
      return other;
    }
    return usual;
  }

  std::vector<Block> take() {
    flush();
    return std::move(blocks_);
  }

 private:
  Inline paragraph_;
  std::vector<Block> blocks_;
};

// ---------------------------------------------------------------------------------------------
// The converter

class Converter {
 public:
  std::string convert(const json& tree) {
    Sink sink;
    flow(tree, sink, 0);
    return join_blocks(sink.take(), "\n\n");
  }

 private:
  // Block context: paragraphs end at block elements.
  void flow(const json& node, Sink& sink, int depth) {
    if (depth > kMaxDepth) return;
    if (node.is_string()) {
      sink.paragraph().text(node.get_ref<const std::string&>());
      return;
    }
    if (!is_element(node)) return;
    Kind kind = kind_of(tag_of(node));
    switch (layout_of(node, kind)) {
      case Layout::OwnLine:
        sink.flush();
        flow_element(node, kind, sink, depth);
        sink.flush();
        return;
      case Layout::OwnBox:
        sink.paragraph().space();
        flow_element(node, kind, sink, depth);
        return;
      case Layout::AsTagSays: flow_element(node, kind, sink, depth); return;
    }
  }

  void flow_element(const json& node, Kind kind, Sink& sink, int depth) {
    switch (kind) {
      case Kind::Skip: return;
      case Kind::Inline: flow_children(node, sink, depth); return;
      case Kind::Strong:
      case Kind::Emphasis:
      case Kind::Strike:
        // Emphasis around blocks (<b><p>..</p><p>..</p></b>) cannot be written: keep the blocks.
        if (has_descendant(node, is_block_kind, depth)) {
          flow_children(node, sink, depth);
        } else {
          inline_node(node, sink.paragraph(), depth);
        }
        return;
      case Kind::Break:
      case Kind::Image:
      case Kind::Link:
      case Kind::Quotation:
      case Kind::Code: inline_node(node, sink.paragraph(), depth); return;
      case Kind::Block:
        sink.flush();
        flow_children(node, sink, depth);
        sink.flush();
        return;
      case Kind::Heading: heading(node, sink, depth); return;
      case Kind::List: {
        Items items;
        collect_items(node, items, depth);
        bool ordered = tag_of(node) == "ol";
        // CommonMark numbers are at most nine digits, never negative.
        long start = ordered ? attr_int(node, "start", 1, 0, 999999999) : 0;
        sink.push(list(items, ordered, start, sink.list_marker(ordered), depth));
        return;
      }
      case Kind::Item: {  // a <li> outside any list
        Items items(1);
        for (const json& child : Children{node}) items[0].push_back(&child);
        sink.push(list(items, false, 0, sink.list_marker(false), depth));
        return;
      }
      case Kind::Quote: quote(node, sink, depth); return;
      case Kind::Pre: sink.push(code_block(node, depth)); return;
      case Kind::Table: table(node, sink, depth); return;
      case Kind::Rule: sink.push({BlockType::Rule, "---"}); return;
      case Kind::Term: {
        sink.flush();
        Inline term(true, kStrong);
        inline_children(node, term, depth);
        std::string content = term.take_content();
        if (!content.empty()) sink.push({BlockType::Paragraph, "**" + content + "**"});
        return;
      }
    }
  }

  void flow_children(const json& node, Sink& sink, int depth) {
    for (const json& child : Children{node}) flow(child, sink, depth + 1);
  }

  // Inline context: everything flattens into `in`; blocks become spaces.
  void inline_node(const json& node, Inline& in, int depth) {
    if (depth > kMaxDepth) return;
    if (node.is_string()) {
      in.text(node.get_ref<const std::string&>());
      return;
    }
    if (!is_element(node)) return;
    Kind kind = kind_of(tag_of(node));
    Layout layout = layout_of(node, kind);
    if (layout != Layout::AsTagSays) in.space();
    inline_element(node, kind, in, depth);
    if (layout == Layout::OwnLine) in.space();
  }

  void inline_element(const json& node, Kind kind, Inline& in, int depth) {
    switch (kind) {
      case Kind::Skip: return;
      case Kind::Break: in.hard_break(); return;
      case Kind::Image: image(node, in); return;
      case Kind::Link: link(node, in, depth); return;
      case Kind::Quotation: quotation(node, in, depth); return;
      case Kind::Strong: emphasis(node, in, kStrong, "**", depth); return;
      case Kind::Emphasis: emphasis(node, in, kEmphasis, "*", depth); return;
      case Kind::Strike: emphasis(node, in, kStrike, "~~", depth); return;
      case Kind::Code:
      case Kind::Pre: code_span(node, in, depth); return;
      case Kind::Inline: inline_children(node, in, depth); return;
      default:  // a block flattened into a line (inside a link, a heading, a table cell)
        in.space();
        inline_children(node, in, depth);
        in.space();
        return;
    }
  }

  void inline_children(const json& node, Inline& in, int depth) {
    for (const json& child : Children{node}) inline_node(child, in, depth + 1);
  }

  void emphasis(const json& node, Inline& in, Mark mark, std::string_view delimiter, int depth) {
    if ((in.marks() & mark) != 0) {  // already inside the same emphasis
      inline_children(node, in, depth);
      return;
    }
    // Right after a neighbour's closing `*` another `*` run would join it ("*a**b*" is one
    // emphasis of "a**b"): the underscore form is used there, "*a*_b_".
    std::string delim(delimiter);
    if (delim[0] == '*' && in.last_char() == '*') {
      std::replace(delim.begin(), delim.end(), '*', '_');
    }
    Inline inner(in.single_line(), in.marks() | mark, in.in_link());
    inline_children(node, inner, depth);
    std::string content = inner.take_content();
    splice(in, inner, delim, content, delim, true);
    // A closing `_` directly before a letter is intraword and closes nothing.
    if (delim[0] == '_' && !content.empty()) in.space_before_word();
  }

  /// <q>: the quotation marks a browser draws around it (CSS generated content, not in the DOM's
  /// text), written as plain '"'.
  void quotation(const json& node, Inline& in, int depth) {
    Inline inner(in.single_line(), in.marks(), in.in_link());
    inline_children(node, inner, depth);
    std::string content = inner.take_content();
    splice(in, inner, "\"", content, "\"");
  }

  static void code_span(const json& node, Inline& in, int depth) {
    std::string raw;
    collect_text(node, raw, " ", depth);
    std::string content = collapse(raw);
    bool edge_space = !raw.empty() && (is_space(raw.front()) || is_space(raw.back()));
    if (content.empty()) {
      if (edge_space) in.space();
      return;
    }
    if (!raw.empty() && is_space(raw.front())) in.space();
    std::size_t longest = 0;
    std::size_t run = 0;
    for (char c : content) {
      run = c == '`' ? run + 1 : 0;
      longest = std::max(longest, run);
    }
    std::string fence(longest + 1, '`');
    std::string pad = content.front() == '`' || content.back() == '`' ? " " : "";
    in.markup(fence + pad + content + pad + fence);
    if (is_space(raw.back())) in.space();
  }

  void link(const json& node, Inline& in, int depth) {
    std::string_view href = chars::trim(attr(node, "href"));
    if (in.in_link() || href.empty() || is_script_url(href)) {
      inline_children(node, in, depth);
      return;
    }
    // A <br> in the link text stays a hard break (CommonMark allows one there), unless the link is
    // in a one-line context (heading, table cell) or is a card around blocks, flattened to a line.
    Inline inner(in.single_line() || has_descendant(node, is_block_kind, depth), in.marks(), true);
    inline_children(node, inner, depth);
    std::string content = inner.take_content();
    if (content.empty()) {
      // Nothing to click on (a card's overlay, an icon drawn by CSS), but where it leads is kept,
      // as turndown and html2text write it.
      splice(in, inner, "", "[](" + destination(href) + title_part(attr(node, "title"), "") + ")",
             "");
      return;
    }
    std::string shown;
    collect_text(node, shown, " ", depth);
    shown = collapse(shown);
    if (shown == href && href.find_first_of(" <>") == std::string_view::npos &&
        (chars::starts_with_nocase(href, "http://") ||
         chars::starts_with_nocase(href, "https://"))) {
      splice(in, inner, "<", std::string(href), ">");  // the URL is its own text: an autolink
      return;
    }
    std::string close = "](" + destination(href) + title_part(attr(node, "title"), shown) + ")";
    splice(in, inner, "[", content, close);
  }

  static void image(const json& node, Inline& in) {
    std::string_view src = chars::trim(attr(node, "src"));
    // A data: image arrives only when the request keeps them (removeBase64Images: false); as an
    // image it runs nothing, unlike a data: link.
    if (src.empty() || (is_script_url(src) && !chars::starts_with_nocase(src, "data:image/"))) return;
    Inline alt(true);
    alt.text(attr(node, "alt"));
    std::string alt_text = alt.take_content();
    in.markup("![" + alt_text + "](" + destination(src) +
              title_part(attr(node, "title"), collapse(attr(node, "alt"))) + ")");
  }

  void heading(const json& node, Sink& sink, int depth) {
    sink.flush();
    Inline in(true);
    inline_children(node, in, depth);
    std::string content = in.take_content();
    if (content.empty()) return;
    // A trailing " #" run would be read as the closing sequence and dropped.
    std::size_t hashes = content.find_last_not_of('#');
    if (hashes != content.size() - 1 && (hashes == std::string::npos || content[hashes] == ' ')) {
      content.insert(hashes == std::string::npos ? 0 : hashes + 1, "\\");
    }
    auto level = static_cast<std::size_t>(tag_of(node)[1] - '0');
    sink.push({BlockType::Heading, std::string(level, '#') + " " + content});
  }

  void quote(const json& node, Sink& sink, int depth) {
    sink.flush();
    Sink inner;
    flow_children(node, inner, depth);
    std::string body = join_blocks(inner.take(), "\n\n");
    if (body.empty()) return;
    std::string text;
    append_prefixed(text, body, "> ", "> ");
    sink.push({BlockType::Quote, std::move(text)});
  }

  // ---- lists ----

  /// Each item: the nodes rendered as its content.
  using Items = std::vector<std::vector<const json*>>;

  /// Finds the items of a list: its <li>s, also through wrappers (<ul><div><li>..), with stray
  /// content and directly nested lists (<ul><li>a</li><ul>..</ul></ul>) joined to the item before,
  /// as a browser shows them.
  void collect_items(const json& list_node, Items& items, int depth) {
    if (depth > kMaxDepth) return;
    auto attach = [&](const json& child) {
      if (items.empty()) items.emplace_back();
      items.back().push_back(&child);
    };
    for (const json& child : Children{list_node}) {
      if (child.is_string()) {
        if (!collapse(child.get_ref<const std::string&>()).empty()) attach(child);
        continue;
      }
      Kind kind = kind_of_node(child);
      if (kind == Kind::Skip) continue;
      if (kind == Kind::Item) {
        items.emplace_back();
        for (const json& grandchild : Children{child}) items.back().push_back(&grandchild);
      } else if (kind != Kind::List && has_descendant(
                                           child, [](Kind k) { return k == Kind::Item; }, depth)) {
        collect_items(child, items, depth + 1);
      } else {
        attach(child);
      }
    }
  }

  /// A list item is tight when it has one block, or a paragraph (or heading) followed only by
  /// lists that may follow a paragraph line directly.
  static bool is_tight_item(const std::vector<Block>& blocks) {
    if (blocks.size() <= 1) return true;
    if (blocks[0].type != BlockType::Paragraph && blocks[0].type != BlockType::Heading)
      return false;
    return std::all_of(blocks.begin() + 1, blocks.end(), [](const Block& b) {
      return b.type == BlockType::List && b.can_interrupt_paragraph;
    });
  }

  Block list(const Items& items, bool ordered, long start, char marker, int depth) {
    std::vector<std::vector<Block>> rendered;
    bool tight = true;
    for (const auto& item : items) {
      Sink sink;
      for (const json* node : item) flow(*node, sink, depth + 1);
      std::vector<Block> blocks = sink.take();
      if (blocks.empty()) continue;  // nothing visible in it
      tight = tight && is_tight_item(blocks);
      rendered.push_back(std::move(blocks));
    }
    Block block{BlockType::List, {}, marker, ordered, !ordered || start == 1};
    long number = start;
    for (const auto& blocks : rendered) {
      std::string bullet = ordered ? std::to_string(number++) + marker : std::string(1, marker);
      if (!block.text.empty()) block.text += tight ? "\n" : "\n\n";
      append_prefixed(block.text, join_blocks(blocks, tight ? "\n" : "\n\n"), bullet + " ",
                      std::string(bullet.size() + 1, ' '));
    }
    return block;
  }

  // ---- code blocks ----

  /// The text of a <pre> as it shows: <br> and block children start new lines.
  void pre_text(const json& node, std::string& out, int depth) {
    if (depth > kMaxDepth) return;
    for (const json& child : Children{node}) {
      if (child.is_string()) {
        out += child.get_ref<const std::string&>();
        continue;
      }
      Kind kind = kind_of_node(child);
      if (kind == Kind::Skip) continue;
      if (kind == Kind::Break) {
        out += '\n';
        continue;
      }
      bool block = is_block_kind(kind);
      if (block && !out.empty() && out.back() != '\n') out += '\n';
      pre_text(child, out, depth + 1);
      if (block && !out.empty() && out.back() != '\n') out += '\n';
    }
  }

  static std::string code_language(const json& pre) {
    std::string_view lang = attr(pre, "lang");
    if (lang.empty()) {  // <pre><code class="language-x"> recorded without snapshot.js's help
      for (const json& child : Children{pre}) {
        if (is_element(child) && tag_of(child) == "code") lang = attr(child, "lang");
      }
    }
    std::string out;
    for (char c : lang) {
      if (is_alnum(c) || c == '_' || c == '+' || c == '#' || c == '.' || c == '-') out += c;
    }
    return out;
  }

  Block code_block(const json& node, int depth) {
    std::string raw;
    pre_text(node, raw, depth);
    std::string code;
    code.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
      char c = raw[i];
      if (c == '\r') {
        if (i + 1 < raw.size() && raw[i + 1] == '\n') continue;
        c = '\n';
      } else if (c == '\xC2' && i + 1 < raw.size() && raw[i + 1] == '\xA0') {
        ++i;  // highlighters indent with &nbsp;
        c = ' ';
      }
      code += c;
    }
    code.erase(0, code.find_first_not_of('\n'));
    std::size_t last = code.find_last_not_of(" \t\n\f");
    if (last == std::string::npos) return {BlockType::Code, {}};
    code.erase(last + 1);
    std::size_t longest = 0;
    std::size_t run = 0;
    for (char c : code) {
      run = c == '`' ? run + 1 : 0;
      longest = std::max(longest, run);
    }
    std::string fence(std::max<std::size_t>(3, longest + 1), '`');
    return {BlockType::Code, fence + code_language(node) + "\n" + code + "\n" + fence};
  }

  // ---- tables ----

  /// The rows of a table (not of tables nested in it) and its caption.
  static void table_rows(const json& table, std::vector<const json*>& rows, const json*& caption) {
    for (const json& child : Children{table}) {
      if (!is_element(child)) continue;
      std::string_view tag = tag_of(child);
      if (tag == "tr") {
        rows.push_back(&child);
      } else if (tag == "thead" || tag == "tbody" || tag == "tfoot") {
        for (const json& row : Children{child}) {
          if (is_element(row) && tag_of(row) == "tr") rows.push_back(&row);
        }
      } else if (tag == "caption" && caption == nullptr) {
        caption = &child;
      }
    }
  }

  std::string cell_text(const json& cell, int depth) {
    Inline in(true);
    inline_children(cell, in, depth);
    std::string content = in.take_content();
    std::string out;
    out.reserve(content.size());
    for (char c : content) {
      if (c == '|') out += '\\';  // GFM: even inside code spans
      out += c;
    }
    return out;
  }

  void table(const json& node, Sink& sink, int depth) {
    sink.flush();
    std::vector<const json*> rows;
    const json* caption = nullptr;
    table_rows(node, rows, caption);
    bool layout = !attr(node, "role").empty();  // role=presentation|none
    std::vector<std::vector<std::string>> grid;
    std::vector<long> spanned;  // per column: rows still covered by a rowspan from above
    std::size_t width = 0;
    for (const json* row : rows) {
      if (layout) break;
      std::vector<std::string> cells;
      std::size_t col = 0;
      auto skip_spanned = [&] {
        while (col < spanned.size() && spanned[col] > 0) {
          --spanned[col++];
          cells.emplace_back();
        }
      };
      for (const json& cell : Children{*row}) {
        if (!is_element(cell) || (tag_of(cell) != "td" && tag_of(cell) != "th")) continue;
        // A table in a cell means the table lays out the page: not data.
        if (has_descendant(
                cell, [](Kind k) { return k == Kind::Table; }, depth)) {
          layout = true;
          break;
        }
        skip_spanned();
        long colspan = attr_int(cell, "colspan", 1, 1, 1000);
        long rowspan = attr_int(cell, "rowspan", 1, 1, 65534);
        for (long k = 0; k < colspan; ++k, ++col) {
          cells.push_back(k == 0 ? cell_text(cell, depth + 2) : std::string());
          if (spanned.size() <= col) spanned.resize(col + 1, 0);
          spanned[col] = rowspan - 1;
        }
      }
      skip_spanned();
      bool empty = std::all_of(cells.begin(), cells.end(), [](const auto& c) { return c.empty(); });
      if (empty) continue;
      width = std::max(width, cells.size());
      grid.push_back(std::move(cells));
    }
    // One column or one row reads better as the blocks it holds.
    if (layout || width <= 1 || grid.size() <= 1) {
      flow_children(node, sink, depth);
      sink.flush();
      return;
    }
    if (caption != nullptr) flow(*caption, sink, depth + 1);
    std::string text;
    auto write_row = [&](const std::vector<std::string>& cells) {
      if (!text.empty()) text += '\n';
      text += '|';
      for (std::size_t i = 0; i < width; ++i) {
        text += ' ';
        if (i < cells.size()) text += cells[i];
        text += " |";
      }
    };
    write_row(grid[0]);
    text += "\n|";
    for (std::size_t i = 0; i < width; ++i) text += " --- |";
    for (std::size_t r = 1; r < grid.size(); ++r) write_row(grid[r]);
    sink.push({BlockType::Table, std::move(text)});
  }
};

}  // namespace

std::string to_markdown(const nlohmann::json& tree) {
  return Converter().convert(tree);
}

}  // namespace gleaner::content
