#include "extract/html/css_xpath.h"

#include <cctype>
#include <stdexcept>
#include <vector>

#include "extract/content/chars.h"

namespace gleaner::html {
namespace {

class Malformed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

constexpr const char* kUpper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
constexpr const char* kLower = "abcdefghijklmnopqrstuvwxyz";

/// One compound selector: an element name (or any) and the conditions on it.
struct Compound {
  std::string type;  // "" for any element
  std::vector<std::string> conditions;

  /// The compound as one XPath step on `axis`.
  std::string step(const std::string& axis) const {
    std::string out = axis + "::" + (type.empty() ? "*" : type);
    for (const auto& condition : conditions) out += "[" + condition + "]";
    return out;
  }
  /// The compound as a boolean about the context node.
  std::string predicate() const {
    std::string out;
    if (!type.empty()) out = "self::" + type;
    for (const auto& condition : conditions) {
      out += (out.empty() ? "(" : " and (") + condition + ")";
    }
    return out.empty() ? "true()" : out;
  }
};

/// Recursive descent over: list = complex ("," complex)*; complex = compound (combinator
/// compound)*; compound = [type | "*"] (#id | .class | [attr] | :pseudo)*.
class Compiler {
 public:
  explicit Compiler(std::string_view text) : s_(text) {}

  std::string compile_all() {
    std::string out = list("descendant");
    skip_space();
    if (!at_end()) fail(std::string("unexpected '") + s_[i_] + "'");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Malformed(what + " at character " + std::to_string(i_ + 1));
  }
  bool at_end() const { return i_ >= s_.size(); }
  char peek(std::size_t ahead = 0) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }
  static bool space(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f'; }
  bool skip_space() {
    const std::size_t from = i_;
    while (!at_end() && space(s_[i_])) ++i_;
    return i_ > from;
  }
  static bool name_start(char ch) {
    const auto u = static_cast<unsigned char>(ch);
    return std::isalpha(u) != 0 || ch == '_' || u >= 0x80;
  }
  static bool name_char(char ch) {
    return name_start(ch) || std::isdigit(static_cast<unsigned char>(ch)) != 0 || ch == '-';
  }

  /// A CSS escape's character (UTF-8) after the backslash.
  std::string escape() {
    ++i_;
    if (at_end()) fail("a backslash at the end");
    if (std::isxdigit(static_cast<unsigned char>(peek())) != 0) {
      unsigned long code = 0;
      for (int n = 0; n < 6 && std::isxdigit(static_cast<unsigned char>(peek())) != 0; ++n) {
        code = code * 16 + static_cast<unsigned long>(std::stoi(std::string(1, s_[i_++]), nullptr, 16));
      }
      if (space(peek())) ++i_;
      return content::chars::utf8_of(code);
    }
    return std::string(1, s_[i_++]);
  }

  std::string identifier(const char* what) {
    std::string out;
    if (peek() == '-') out += s_[i_++];
    if (peek() == '-') out += s_[i_++];
    if (!(name_start(peek()) || peek() == '\\') && out != "--") fail(std::string("expected ") + what);
    while (!at_end() && (name_char(peek()) || peek() == '\\')) {
      if (peek() == '\\') out += escape();
      else out += s_[i_++];
    }
    return out;
  }

  std::string string_token() {
    const char quote = s_[i_++];
    std::string out;
    while (true) {
      if (at_end()) fail("an unterminated string");
      if (peek() == quote) {
        ++i_;
        return out;
      }
      if (peek() == '\\') out += escape();
      else out += s_[i_++];
    }
  }

  /// A selector list with each complex selector starting on `axis` from the context node,
  /// joined as a union (document order).
  std::string list(const std::string& axis) {
    std::string out;
    while (true) {
      skip_space();
      if (!out.empty()) out += " | ";
      out += complex(axis);
      skip_space();
      if (peek() != ',') return out;
      ++i_;
    }
  }

  /// A combinator, if one comes: ' ', '>', '+', '~' (0 when the complex selector ends).
  char combinator() {
    const bool spaced = skip_space();
    const char ch = peek();
    if (ch == '>' || ch == '+' || ch == '~') {
      ++i_;
      skip_space();
      return ch;
    }
    if (at_end() || ch == ',' || ch == ')') return 0;
    return spaced ? ' ' : 0;
  }

  static std::string step_for(char combinator, const Compound& compound, const std::string& first_axis) {
    switch (combinator) {
      case '>': return compound.step("child");
      case '+': return "following-sibling::*[1][" + compound.predicate() + "]";
      case '~': return compound.step("following-sibling");
      case ' ': return compound.step("descendant");
      default: return compound.step(first_axis);
    }
  }

  std::string complex(const std::string& first_axis) {
    std::string out;
    char how = 0;
    // :has() takes a relative selector: it may start with a combinator.
    if (first_axis == "relative") {
      skip_space();
      how = peek() == '>' || peek() == '+' || peek() == '~' ? s_[i_++] : ' ';
      skip_space();
    }
    while (true) {
      Compound part = compound();
      out += (out.empty() ? "" : "/") + step_for(how, part, first_axis);
      how = combinator();
      if (how == 0) return out;
    }
  }

  Compound compound() {
    Compound out;
    bool any = false;
    if (peek() == '*') {
      ++i_;
      any = true;
    } else if (name_start(peek()) || peek() == '\\' || (peek() == '-' && name_start(peek(1)))) {
      out.type = lower(identifier("an element name"));
      any = true;
    }
    if (peek() == '|') fail("namespaces are not supported");
    while (!at_end()) {
      const char ch = peek();
      if (ch == '#') {
        ++i_;
        out.conditions.push_back("@id = " + xpath_literal(identifier("an id")));
      } else if (ch == '.') {
        ++i_;
        out.conditions.push_back("contains(concat(' ', normalize-space(@class), ' '), " +
                                 xpath_literal(" " + identifier("a class name") + " ") + ")");
      } else if (ch == '[') {
        ++i_;
        out.conditions.push_back(attribute_condition());
      } else if (ch == ':') {
        ++i_;
        if (peek() == ':') fail("pseudo-elements cannot be selected");
        out.conditions.push_back(pseudo_class(out));
      } else {
        break;
      }
      any = true;
    }
    if (!any) fail(at_end() ? "a selector is missing" : std::string("unexpected '") + peek() + "'");
    return out;
  }

  std::string attribute_condition() {
    skip_space();
    const std::string name = lower(identifier("an attribute name"));
    if (peek() == '|' && peek(1) != '=') fail("namespaces are not supported");
    skip_space();
    if (peek() == ']') {
      ++i_;
      return "@" + name;
    }
    std::string op;
    if (peek() == '=') {
      op = "=";
      ++i_;
    } else if (std::string("~|^$*").find(peek()) != std::string::npos && peek() != '\0' && peek(1) == '=') {
      op = std::string(1, peek()) + "=";
      i_ += 2;
    } else {
      fail("expected an attribute operator or ']'");
    }
    skip_space();
    std::string value;
    if (peek() == '"' || peek() == '\'') value = string_token();
    else value = identifier("an attribute value");
    skip_space();
    bool fold = false;
    if (peek() == 'i' || peek() == 'I') {
      ++i_;
      fold = true;
      skip_space();
    } else if (peek() == 's' || peek() == 'S') {
      ++i_;
      skip_space();
    }
    if (peek() != ']') fail("expected ']'");
    ++i_;
    std::string attr = "@" + name;
    if (fold) {
      attr = std::string("translate(@") + name + ", '" + kUpper + "', '" + kLower + "')";
      value = lower(value);
    }
    const std::string v = xpath_literal(value);
    if (op == "=") return attr + " = " + v;
    if (op == "~=") {
      if (value.empty() || value.find_first_of(" \t\n\r\f") != std::string::npos) return "false()";
      return "contains(concat(' ', normalize-space(" + attr + "), ' '), " +
             xpath_literal(" " + value + " ") + ")";
    }
    if (op == "|=") return "(" + attr + " = " + v + " or starts-with(" + attr + ", " +
                           xpath_literal(value + "-") + "))";
    if (value.empty()) return "false()";  // ^= $= *= with "" match nothing (Selectors 4)
    if (op == "^=") return "starts-with(" + attr + ", " + v + ")";
    if (op == "*=") return "contains(" + attr + ", " + v + ")";
    return "substring(" + attr + ", string-length(" + attr + ") - " + std::to_string(value.size()) +
           " + 1) = " + v;  // $=; byte length, as libxml2 counts characters of ASCII alike
  }

  /// an+b of :nth-*(): reads it and returns {a, b}.
  std::pair<long, long> nth() {
    skip_space();
    std::string word;
    while (!at_end() && peek() != ')' && !space(peek())) word += s_[i_++];
    // a spaced "2n + 1": read on to the ')'
    while (!at_end() && peek() != ')') {
      if (!space(peek())) word += s_[i_];
      ++i_;
    }
    word = lower(word);
    if (word == "odd") return {2, 1};
    if (word == "even") return {2, 0};
    const auto n = word.find('n');
    try {
      if (n == std::string::npos) return {0, std::stol(word)};
      std::string a = word.substr(0, n);
      long av = a.empty() || a == "+" ? 1 : a == "-" ? -1 : std::stol(a);
      std::string b = word.substr(n + 1);
      long bv = b.empty() ? 0 : std::stol(b);
      return {av, bv};
    } catch (const std::exception&) {
      fail("expected an+b, odd or even");
    }
  }

  static std::string nth_condition(std::pair<long, long> ab, const std::string& siblings) {
    const auto [a, b] = ab;
    const std::string p = "(count(" + siblings + ") + 1)";
    if (a == 0) return p + " = " + std::to_string(b);
    const std::string diff = "(" + p + " - " + std::to_string(b) + ")";
    return diff + " mod " + std::to_string(a) + " = 0 and " + diff + " div " + std::to_string(a) +
           " >= 0";
  }

  void expect(char ch) {
    skip_space();
    if (peek() != ch) fail(std::string("expected '") + ch + "'");
    ++i_;
  }

  /// A selector list inside :not()/:is()/:where(): compounds only, as one boolean.
  std::string compound_list() {
    std::string out;
    while (true) {
      skip_space();
      Compound part = compound();
      skip_space();
      if (peek() != ',' && peek() != ')') fail("only compound selectors are supported here");
      out += (out.empty() ? "(" : " or (") + part.predicate() + ")";
      if (peek() != ',') return out;
      ++i_;
    }
  }

  std::string pseudo_class(const Compound& owner) {
    const std::string name = lower(identifier("a pseudo-class name"));
    const bool call = peek() == '(';
    if (call) ++i_;
    auto typed = [&](const char* what) -> std::string {
      if (owner.type.empty()) fail(std::string(":") + what + " needs an element name before it");
      return owner.type;
    };
    std::string out;
    if (!call) {
      if (name == "first-child") return "not(preceding-sibling::*)";
      if (name == "last-child") return "not(following-sibling::*)";
      if (name == "only-child") return "not(preceding-sibling::*) and not(following-sibling::*)";
      if (name == "first-of-type") return "not(preceding-sibling::" + typed("first-of-type") + ")";
      if (name == "last-of-type") return "not(following-sibling::" + typed("last-of-type") + ")";
      if (name == "only-of-type") {
        const std::string t = typed("only-of-type");
        return "not(preceding-sibling::" + t + ") and not(following-sibling::" + t + ")";
      }
      if (name == "empty") return "not(node()[not(self::comment())])";
      if (name == "root") return "not(parent::*)";
      if (name == "checked") return "@checked or @selected";
      if (name == "disabled") return "@disabled";
      if (name == "enabled") return "not(@disabled)";
      if (name == "link" || name == "any-link") return "(self::a or self::area) and @href";
      fail("unsupported pseudo-class ':" + name + "'");
    }
    if (name == "nth-child") out = nth_condition(nth(), "preceding-sibling::*");
    else if (name == "nth-last-child") out = nth_condition(nth(), "following-sibling::*");
    else if (name == "nth-of-type") out = nth_condition(nth(), "preceding-sibling::" + typed("nth-of-type"));
    else if (name == "nth-last-of-type")
      out = nth_condition(nth(), "following-sibling::" + typed("nth-last-of-type"));
    else if (name == "not") out = "not(" + compound_list() + ")";
    else if (name == "is" || name == "where" || name == "matches") out = compound_list();
    else if (name == "has") out = list("relative");
    else if (name == "contains" || name == "-soup-contains") {
      skip_space();
      std::string text;
      if (peek() == '"' || peek() == '\'') text = string_token();
      else text = identifier("a string");
      out = "contains(string(.), " + xpath_literal(text) + ")";
    } else {
      fail("unsupported pseudo-class ':" + name + "()'");
    }
    expect(')');
    return out;
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace

std::string xpath_literal(std::string_view text) {
  if (text.find('\'') == std::string_view::npos) return "'" + std::string(text) + "'";
  if (text.find('"') == std::string_view::npos) return "\"" + std::string(text) + "\"";
  std::string out = "concat(";
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto quote = text.find('\'', start);
    const auto end = quote == std::string_view::npos ? text.size() : quote;
    if (end > start) out += "'" + std::string(text.substr(start, end - start)) + "', ";
    if (quote == std::string_view::npos) break;
    out += "\"'\", ";
    start = quote + 1;
  }
  out.resize(out.size() - 2);
  return out + ")";
}

std::string css_to_xpath(std::string_view css, std::string* error) {
  try {
    Compiler compiler(css);
    return compiler.compile_all();
  } catch (const Malformed& e) {
    if (error) *error = e.what();
    return {};
  }
}

bool is_xpath(std::string_view selector) {
  return !selector.empty() && (selector[0] == '/' || selector[0] == '(' ||
                               selector.substr(0, 2) == "./" || selector.substr(0, 3) == "../");
}

}  // namespace gleaner::html
