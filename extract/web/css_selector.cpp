#include "extract/web/css_selector.h"

#include <cctype>
#include <stdexcept>

namespace gleaner::web {
namespace {

class Malformed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A recursive-descent reader of: list = complex ("," complex)*; complex = compound
/// (combinator compound)*; compound = [type | "*"] (#id | .class | [attr] | :pseudo)* .
class SelectorReader {
 public:
  explicit SelectorReader(std::string_view text) : s_(text) {}

  void read_all() {
    read_list(/*relative=*/false);
    skip_space();
    if (i_ < s_.size()) fail(std::string("unexpected '") + s_[i_] + "'");
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Malformed(what + " at character " + std::to_string(i_ + 1));
  }
  bool at_end() const { return i_ >= s_.size(); }
  char peek(std::size_t ahead = 0) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }
  static bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
  bool skip_space() {
    std::size_t from = i_;
    while (!at_end() && space(s_[i_])) ++i_;
    return i_ > from;
  }
  static bool name_start(char c) {
    auto u = static_cast<unsigned char>(c);
    return std::isalpha(u) != 0 || c == '_' || u >= 0x80;
  }
  static bool name_char(char c) {
    return name_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '-';
  }
  bool escape_here() const { return peek() == '\\' && peek(1) != '\0' && peek(1) != '\n'; }
  void read_escape() {
    ++i_;  // the backslash
    if (std::isxdigit(static_cast<unsigned char>(peek())) != 0) {
      for (int n = 0; n < 6 && std::isxdigit(static_cast<unsigned char>(peek())) != 0; ++n) ++i_;
      if (space(peek())) ++i_;
    } else {
      ++i_;
    }
  }
  /// The characters of a name (after `#`, inside an identifier): at least one.
  void read_name_chars(const char* what) {
    std::size_t from = i_;
    while (!at_end()) {
      if (escape_here()) {
        read_escape();
      } else if (name_char(peek())) {
        ++i_;
      } else {
        break;
      }
    }
    if (i_ == from) fail(std::string("expected ") + what);
  }
  bool ident_starts_here() const {
    std::size_t k = 0;
    if (peek() == '-') {
      if (peek(1) == '-') return true;
      k = 1;
    }
    char c = peek(k);
    return name_start(c) || (c == '\\' && peek(k + 1) != '\0' && peek(k + 1) != '\n');
  }
  void read_ident(const char* what) {
    if (!ident_starts_here()) fail(std::string("expected ") + what);
    read_name_chars(what);
  }
  void read_string() {
    const char quote = s_[i_++];
    while (!at_end() && s_[i_] != quote) {
      if (s_[i_] == '\n') fail("a line break inside a string");
      if (s_[i_] == '\\') ++i_;
      ++i_;
    }
    if (at_end()) fail("an unclosed string");
    ++i_;
  }

  void read_list(bool relative) {
    for (;;) {
      skip_space();
      read_complex(relative);
      skip_space();
      if (peek() != ',') return;
      ++i_;
    }
  }

  void read_complex(bool relative) {
    skip_space();
    if (relative && (peek() == '>' || peek() == '+' || peek() == '~')) {
      ++i_;
      skip_space();
    }
    read_compound();
    for (;;) {
      const bool spaced = skip_space();
      const char c = peek();
      if (c == '>' || c == '+' || c == '~') {
        ++i_;
        skip_space();
        read_compound();
      } else if (spaced && c != ',' && c != ')' && !at_end()) {
        read_compound();  // the descendant combinator
      } else {
        return;
      }
    }
  }

  void read_compound() {
    std::size_t from = i_;
    if (peek() == '*') {
      ++i_;
    } else if (ident_starts_here()) {
      read_ident("a type name");
    }
    for (;;) {
      const char c = peek();
      if (c == '#') {
        ++i_;
        read_name_chars("an id after '#'");
      } else if (c == '.') {
        ++i_;
        read_ident("a class name after '.'");
      } else if (c == '[') {
        read_attribute();
      } else if (c == ':') {
        read_pseudo();
      } else {
        break;
      }
    }
    if (i_ == from) {
      if (at_end()) fail("expected a selector");
      fail(std::string("unexpected '") + peek() + "'");
    }
  }

  void read_attribute() {
    ++i_;  // [
    skip_space();
    read_ident("an attribute name");
    skip_space();
    if (peek() == ']') {
      ++i_;
      return;
    }
    if (peek() == '=') {
      ++i_;
    } else if ((peek() == '~' || peek() == '|' || peek() == '^' || peek() == '$' ||
                peek() == '*') &&
               peek(1) == '=') {
      i_ += 2;
    } else {
      fail("expected ']' or an attribute operator");
    }
    skip_space();
    if (peek() == '"' || peek() == '\'') {
      read_string();
    } else {
      read_ident("an attribute value (a name or a quoted string)");
    }
    skip_space();
    if (peek() == 'i' || peek() == 'I' || peek() == 's' || peek() == 'S') {
      ++i_;
      skip_space();
    }
    if (peek() != ']') fail("expected ']'");
    ++i_;
  }

  void read_pseudo() {
    ++i_;  // :
    if (peek() == ':') ++i_;
    std::size_t name_from = i_;
    read_ident("a pseudo-class name after ':'");
    std::string name(s_.substr(name_from, i_ - name_from));
    for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (peek() != '(') return;
    ++i_;
    if (name == "not" || name == "is" || name == "where" || name == "matches" ||
        name == "has") {
      read_list(/*relative=*/name == "has");
      skip_space();
      if (peek() != ')') fail("expected ')'");
      ++i_;
      return;
    }
    read_balanced(')');
  }

  /// Arguments whose grammar we do not check (`:nth-child(2n+1)`, `:lang(en)`): only that
  /// brackets and strings close.
  void read_balanced(char close) {
    std::size_t from = i_;
    while (!at_end()) {
      const char c = s_[i_];
      if (c == close) {
        ++i_;
        return;
      }
      if (c == '"' || c == '\'') {
        read_string();
      } else if (c == '(') {
        ++i_;
        read_balanced(')');
      } else if (c == '[') {
        ++i_;
        read_balanced(']');
      } else if (c == ')' || c == ']' || c == '{' || c == '}' || c == ';') {
        fail(std::string("unexpected '") + c + "'");
      } else if (c == '\\') {
        i_ += 2;
      } else {
        ++i_;
      }
    }
    i_ = from;
    fail(std::string("expected '") + close + "'");
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace

std::string css_selector_error(std::string_view selector) {
  try {
    SelectorReader(selector).read_all();
    return {};
  } catch (const Malformed& e) {
    return e.what();
  }
}

}  // namespace gleaner::web
