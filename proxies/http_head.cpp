#include "proxies/http_head.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>

namespace gleaner::proxies {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool is_token(std::string_view text) {
  static constexpr std::string_view kExtra = "!#$%&'*+-.^_`|~";
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || kExtra.find(c) != std::string_view::npos;
  });
}

// Splits a head into its lines (CRLF or a bare LF), without the final blank line.
std::vector<std::string_view> head_lines(std::string_view head) {
  std::vector<std::string_view> lines;
  while (!head.empty()) {
    const auto end = head.find('\n');
    std::string_view line = head.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;
    lines.push_back(line);
    if (end == std::string_view::npos) break;
    head.remove_prefix(end + 1);
  }
  return lines;
}

bool parse_fields(const std::vector<std::string_view>& lines, HeaderFields& fields) {
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto line = lines[i];
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || !is_token(line.substr(0, colon))) return false;
    fields.add(std::string(line.substr(0, colon)), std::string(trim(line.substr(colon + 1))));
  }
  return true;
}

bool is_version(std::string_view text) { return text == "HTTP/1.1" || text == "HTTP/1.0"; }

}  // namespace

std::optional<std::string> HeaderFields::get(std::string_view name) const {
  for (const auto& [key, value] : fields_)
    if (iequals(key, name)) return value;
  return std::nullopt;
}

void HeaderFields::add(std::string name, std::string value) {
  fields_.emplace_back(std::move(name), std::move(value));
}

void HeaderFields::remove(std::string_view name) {
  std::erase_if(fields_, [&](const auto& field) { return iequals(field.first, name); });
}

void HeaderFields::remove_hop_by_hop() {
  for (const auto& [key, value] : std::vector(fields_)) {
    if (!iequals(key, "Connection")) continue;
    std::string_view listed = value;
    while (!listed.empty()) {
      const auto comma = listed.find(',');
      if (auto name = trim(listed.substr(0, comma)); !name.empty()) remove(name);
      if (comma == std::string_view::npos) break;
      listed.remove_prefix(comma + 1);
    }
  }
  for (std::string_view name : {"Connection", "Keep-Alive", "Proxy-Connection",
                                "Proxy-Authorization", "Proxy-Authenticate", "TE", "Trailer",
                                "Upgrade"})
    remove(name);
}

std::string HeaderFields::serialize() const {
  std::string out;
  for (const auto& [key, value] : fields_) out += key + ": " + value + "\r\n";
  return out;
}

std::string RequestHead::serialize() const {
  return method + " " + target + " " + version + "\r\n" + fields.serialize() + "\r\n";
}

std::string ResponseHead::serialize() const {
  return version + " " + std::to_string(status) + " " + reason + "\r\n" + fields.serialize() +
         "\r\n";
}

std::optional<RequestHead> parse_request_head(std::string_view head) {
  const auto lines = head_lines(head);
  if (lines.empty()) return std::nullopt;
  const auto first = lines[0];
  const auto sp1 = first.find(' ');
  const auto sp2 = first.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 == sp1) return std::nullopt;
  RequestHead request;
  request.method = first.substr(0, sp1);
  request.target = first.substr(sp1 + 1, sp2 - sp1 - 1);
  request.version = first.substr(sp2 + 1);
  if (!is_token(request.method) || request.target.empty() ||
      request.target.find(' ') != std::string::npos || !is_version(request.version))
    return std::nullopt;
  if (!parse_fields(lines, request.fields)) return std::nullopt;
  return request;
}

std::optional<ResponseHead> parse_response_head(std::string_view head) {
  const auto lines = head_lines(head);
  if (lines.empty()) return std::nullopt;
  const auto first = lines[0];
  const auto sp1 = first.find(' ');
  if (sp1 == std::string_view::npos) return std::nullopt;
  ResponseHead response;
  response.version = first.substr(0, sp1);
  const auto code = first.substr(sp1 + 1, 3);
  if (!is_version(response.version) || code.size() != 3 ||
      !std::all_of(code.begin(), code.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  response.status = std::stoi(std::string(code));
  if (first.size() > sp1 + 4) {
    if (first[sp1 + 4] != ' ') return std::nullopt;
    response.reason = first.substr(sp1 + 5);
  }
  if (!parse_fields(lines, response.fields)) return std::nullopt;
  return response;
}

std::string basic_credentials(std::string_view username, std::string_view password) {
  const std::string plain = std::string(username) + ":" + std::string(password);
  std::string encoded(4 * ((plain.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(encoded.data()),
                                reinterpret_cast<const unsigned char*>(plain.data()),
                                static_cast<int>(plain.size()));
  encoded.resize(static_cast<std::size_t>(n));
  return "Basic " + encoded;
}

std::optional<std::pair<std::string, std::string>> parse_basic_credentials(std::string_view value) {
  value = trim(value);
  const auto space = value.find(' ');
  if (space == std::string_view::npos || !iequals(value.substr(0, space), "Basic"))
    return std::nullopt;
  const std::string_view encoded = trim(value.substr(space + 1));
  if (encoded.empty() || encoded.size() % 4 != 0 || encoded.size() > 4096) return std::nullopt;
  std::string decoded(encoded.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(decoded.data()),
                                reinterpret_cast<const unsigned char*>(encoded.data()),
                                static_cast<int>(encoded.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock counts the bytes the padding stands for; drop them.
  std::size_t size = static_cast<std::size_t>(n);
  if (encoded.ends_with("==")) size -= 2;
  else if (encoded.ends_with("=")) size -= 1;
  decoded.resize(size);
  const auto colon = decoded.find(':');
  if (colon == std::string::npos) return std::nullopt;
  return std::pair(decoded.substr(0, colon), decoded.substr(colon + 1));
}

}  // namespace gleaner::proxies
