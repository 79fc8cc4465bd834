#include "extract/url.h"

namespace gleaner::extract {
namespace {

constexpr char kHex[] = "0123456789ABCDEF";

bool unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '~';
}

void append_escaped(std::string& out, unsigned char c) {
  out += '%';
  out += kHex[c >> 4];
  out += kHex[c & 0xF];
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string form_encode(std::string_view text) {
  std::string out;
  out.reserve(text.size() * 3);
  for (unsigned char c : text) {
    if (unreserved(c)) {
      out += static_cast<char>(c);
    } else if (c == ' ') {
      out += '+';
    } else {
      append_escaped(out, c);
    }
  }
  return out;
}

std::string path_encode(std::string_view segment) {
  std::string out;
  out.reserve(segment.size() * 3);
  for (unsigned char c : segment) {
    if (unreserved(c)) {
      out += static_cast<char>(c);
    } else {
      append_escaped(out, c);
    }
  }
  return out;
}

std::string form_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 &&
               hex_value(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::optional<std::string> query_value(std::string_view url, std::string_view name) {
  url = url.substr(0, url.find('#'));
  const std::size_t start = url.find('?');
  if (start == std::string_view::npos) return std::nullopt;
  std::string_view query = url.substr(start + 1);
  while (true) {
    const std::size_t end = query.find('&');
    const std::string_view pair = query.substr(0, end);
    const std::size_t eq = pair.find('=');
    if (form_decode(pair.substr(0, eq)) == name) {
      return eq == std::string_view::npos ? std::string() : form_decode(pair.substr(eq + 1));
    }
    if (end == std::string_view::npos) return std::nullopt;
    query.remove_prefix(end + 1);
  }
}

UrlBuilder& UrlBuilder::add(std::string_view name, std::string_view value) {
  query_.emplace_back(form_encode(name), form_encode(value));
  return *this;
}

UrlBuilder& UrlBuilder::add_raw(std::string_view name, std::string_view value) {
  std::string safe;
  for (unsigned char c : value) {
    // Keep what may stand unescaped in a query (RFC 3986 pchar / "?"), escape the rest.
    if (unreserved(c) || c == ':' || c == ';' || c == ',' || c == '@' || c == '!' || c == '$' ||
        c == '\'' || c == '(' || c == ')' || c == '*' || c == '/' || c == '?' || c == '%') {
      safe += static_cast<char>(c);
    } else {
      append_escaped(safe, c);
    }
  }
  query_.emplace_back(form_encode(name), std::move(safe));
  return *this;
}

std::string UrlBuilder::str() const {
  std::string out = base_;
  char sep = base_.find('?') == std::string::npos ? '?' : '&';
  for (const auto& [name, value] : query_) {
    out += sep;
    out += name;
    out += '=';
    out += value;
    sep = '&';
  }
  return out;
}

}  // namespace gleaner::extract
