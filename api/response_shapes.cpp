#include "api/response_shapes.h"

#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

namespace gleaner::api {
namespace {

using nlohmann::json;

/// The code blocks of the "## Response" section, parenthesised comments removed.
std::string response_blocks(std::string_view md) {
  const auto start = md.starts_with("## Response") ? 0 : md.find("\n## Response");
  if (start == std::string_view::npos) throw std::invalid_argument("no \"## Response\" section");
  auto end = md.find("\n## ", start + 1);
  const std::string_view section = md.substr(start, end == std::string_view::npos ? md.npos : end - start);
  std::string out;
  bool inside = false;
  std::size_t pos = 0;
  while (pos < section.size()) {
    auto eol = section.find('\n', pos);
    if (eol == std::string_view::npos) eol = section.size();
    const std::string_view line = section.substr(pos, eol - pos);
    if (line.starts_with("```")) {
      inside = !inside;
      if (!inside) out += ",\n";
    } else if (inside) {
      out += line;
      out += '\n';
    }
    pos = eol + 1;
  }
  if (out.empty()) throw std::invalid_argument("the Response section has no code block");
  std::string text;
  int depth = 0;
  for (char c : out) {
    if (c == '(') ++depth;
    if (depth == 0) text += c;
    if (c == ')' && depth > 0) --depth;
  }
  return text;
}

struct Token {
  enum Kind { Name, Quoted, Dots, Punct, End } kind;
  std::string text;
};

std::vector<Token> tokens_of(const std::string& s) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '"') {
      const auto close = s.find('"', i + 1);
      if (close == std::string::npos) throw std::invalid_argument("an unclosed quote");
      out.push_back({Token::Quoted, s.substr(i + 1, close - i - 1)});
      i = close + 1;
    } else if (c == '.') {
      std::size_t j = i;
      while (j < s.size() && s[j] == '.') ++j;
      out.push_back({Token::Dots, s.substr(i, j - i)});
      i = j;
    } else if (c == '<') {
      const auto close = s.find('>', i);
      if (close == std::string::npos) throw std::invalid_argument("an unclosed <");
      out.push_back({Token::Name, s.substr(i, close - i + 1)});
      i = close + 1;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      out.push_back({Token::Name, s.substr(i, j - i)});
      i = j;
    } else if (std::string_view("{}[],:?|").find(c) != std::string_view::npos) {
      out.push_back({Token::Punct, std::string(1, c)});
      ++i;
    } else {
      throw std::invalid_argument(std::string("an unexpected '") + c + "'");
    }
  }
  out.push_back({Token::End, ""});
  return out;
}

/// Two descriptions of one key (an endpoint that answers one of two shapes): objects keep the
/// keys of both; anything else, the more general of the two.
json merged(const json& a, const json& b) {
  if (a.value("type", "") == "object" && b.value("type", "") == "object") {
    json out = a;
    const json more = b.value("properties", json::object());
    for (const auto& [k, v] : more.items()) {
      out["properties"][k] = out["properties"].contains(k) ? merged(out["properties"][k], v) : v;
    }
    if (!a.contains("additionalProperties") || !b.contains("additionalProperties")) {
      out.erase("additionalProperties");
    }
    return out;
  }
  return a == b ? a : json::object();
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  /// Keys up to `close` ("}" or the end): their properties, and whether other keys are open.
  json members(const std::string& close, bool& open) {
    json properties = json::object();
    while (!at(close) && peek().kind != Token::End) {
      if (punct(",")) continue;
      if (peek().kind == Token::Dots) {
        next();
        open = true;
        continue;
      }
      const Token name = next();
      if (name.kind != Token::Name && name.kind != Token::Quoted) fail("a key");
      if (peek().kind == Token::Dots) {  // "1".."5": a range of keys
        next();
        if (next().kind != Token::Quoted) fail("the end of a key range");
        open = true;
        if (punct(":")) value();
        continue;
      }
      punct("?");
      json schema = json::object();
      if (punct(":")) {
        if (peek().kind == Token::Quoted) {
          json values = json::array({next().text});
          while (punct("|")) {
            if (peek().kind != Token::Quoted) fail("a quoted value after |");
            values.push_back(next().text);
          }
          schema = {{"enum", values}};
        } else if (name.kind == Token::Quoted) {
          schema = value();
        } else {  // label: value, <label>: text, group: [...]: a map
          value();
          open = true;
          punct("?");
          continue;
        }
      } else if (name.text.front() == '<') {
        fail("':' after " + name.text);
      } else if (at("{") || at("[")) {
        schema = value();
      }
      punct("?");
      json& slot = properties[name.text];
      slot = slot.is_null() ? std::move(schema) : merged(slot, schema);
    }
    return properties;
  }

  /// An object `{...}`, an array `[...]`, or a word standing for a value.
  json value() {
    if (punct("{")) {
      bool open = false;
      json properties = members("}", open);
      expect("}");
      json schema = {{"type", "object"}};
      if (!properties.empty()) schema["properties"] = std::move(properties);
      if (!open) schema["additionalProperties"] = false;
      return schema;
    }
    if (punct("[")) {
      json items = json::object();
      if (peek().kind == Token::Dots) {
        next();
      } else if (peek().kind == Token::Quoted || peek().kind == Token::Name) {
        next();  // [url], [lines], ["name: value"]: words
        items = {{"type", "string"}};
      } else if (at("{") || at("[")) {
        items = value();
      }
      expect("]");
      return {{"type", "array"}, {"items", items}};
    }
    if (peek().kind == Token::Name || peek().kind == Token::Quoted) {
      next();  // int, score, value, text: any value
      return json::object();
    }
    fail("a value");
  }

  bool done() const { return t_[i_].kind == Token::End; }

 private:
  const Token& peek() const { return t_[i_]; }
  Token next() { return t_[i_].kind == Token::End ? t_[i_] : t_[i_++]; }
  bool at(const std::string& p) const { return peek().kind == Token::Punct && peek().text == p; }
  bool punct(const std::string& p) {
    if (!at(p)) return false;
    ++i_;
    return true;
  }
  void expect(const std::string& p) {
    if (!punct(p)) fail("'" + p + "'");
  }
  [[noreturn]] void fail(const std::string& wanted) const {
    std::string near;
    for (std::size_t k = i_ > 3 ? i_ - 3 : 0; k < t_.size() && k < i_ + 3; ++k) near += t_[k].text + " ";
    throw std::invalid_argument("expected " + wanted + " near: " + near);
  }

  std::vector<Token> t_;
  std::size_t i_ = 0;
};

}  // namespace

json response_properties_from_doc(std::string_view markdown) {
  Parser parser(tokens_of(response_blocks(markdown)));
  bool open = false;
  json properties = parser.members("", open);
  if (!parser.done()) throw std::invalid_argument("unexpected text after the keys");
  if (open) throw std::invalid_argument("an open top level ('...' or a map) in the Response block");
  return properties;
}

}  // namespace gleaner::api
