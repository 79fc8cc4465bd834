// resolve_http_url: the URL Standard's basic URL parser
// (https://url.spec.whatwg.org/#concept-basic-url-parser) for the two schemes gleaner loads, so
// that the plain road follows a redirect where Chromium follows it.
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proxies/guard.h"

namespace gleaner::proxies {
namespace {

struct Parts {
  std::string scheme;  // "http" or "https"
  std::string userinfo;
  std::string host;  // serialised: lower case, ASCII, IPv6 in brackets
  std::string port;  // empty for the scheme's default
  std::string path;  // starts with '/'
  std::optional<std::string> query;
};

bool slash(char c) {
  return c == '/' || c == '\\';
}

constexpr char kHex[] = "0123456789ABCDEF";

/// `text` with the bytes the URL Standard percent-encodes in a part encoded: C0 controls, space,
/// non-ASCII, and `also`. A '%' stays (already encoded, or sent as written, as Chromium does).
std::string encode(std::string_view text, std::string_view also) {
  std::string out;
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c >= 0x7f || also.find(ch) != std::string_view::npos) {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    } else {
      out += ch;
    }
  }
  return out;
}

bool dot(std::string_view segment) {
  return segment == "." || segment == "%2e" || segment == "%2E";
}

bool dot_dot(std::string_view segment) {
  if (segment.size() < 2 || segment.size() > 6) return false;
  std::string lower;
  for (char c : segment) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == ".." || lower == ".%2e" || lower == "%2e." || lower == "%2e%2e";
}

/// `path` (from its first '/') with back-slashes as slashes, "." and ".." segments applied and
/// each segment percent-encoded (the path percent-encode set).
std::string clean_path(std::string_view path) {
  std::vector<std::string> segments;
  std::size_t start = 1;  // past the leading slash
  for (;;) {
    std::size_t end = start;
    while (end < path.size() && !slash(path[end])) ++end;
    const std::string_view segment = path.substr(start, end - start);
    const bool last = end >= path.size();
    if (dot_dot(segment)) {
      if (!segments.empty()) segments.pop_back();
      if (last) segments.emplace_back();
    } else if (dot(segment)) {
      if (last) segments.emplace_back();
    } else {
      segments.push_back(encode(segment, "\"<>`{}"));
    }
    if (last) break;
    start = end + 1;
  }
  std::string out;
  for (const std::string& s : segments) out += "/" + s;
  return out.empty() ? "/" : out;
}

/// Splits "path?query#fragment" (the fragment dropped) into `parts`, the path resolved against
/// `base_dir` when it does not start with a slash.
void set_path_and_query(std::string_view rest, const std::string& base_dir, Parts& parts) {
  if (const auto hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
  const auto q = rest.find('?');
  const std::string_view path = rest.substr(0, q);
  if (q != std::string_view::npos) parts.query = encode(rest.substr(q + 1), "\"<>'");
  parts.path = clean_path(!path.empty() && slash(path[0]) ? std::string(path)
                                                          : base_dir + std::string(path));
}

/// The authority and what follows it (`rest` past the slashes that open it).
std::optional<Parts> with_authority(const std::string& scheme, std::string_view rest) {
  std::size_t end = 0;
  while (end < rest.size() && !slash(rest[end]) && rest[end] != '?' && rest[end] != '#') ++end;
  std::string_view authority = rest.substr(0, end);
  Parts parts;
  parts.scheme = scheme;
  if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
    parts.userinfo = encode(authority.substr(0, at), "\"#<>?`{}/:;=@[\\]^|");
    authority.remove_prefix(at + 1);
  }
  const std::uint16_t default_port = scheme == "https" ? 443 : 80;
  const auto parsed = parse_authority(authority, default_port);
  if (!parsed) return std::nullopt;
  parts.host =
      parsed->host.form == Host::Form::Ipv6 ? "[" + parsed->host.text + "]" : parsed->host.text;
  if (parsed->port != default_port) parts.port = std::to_string(parsed->port);
  set_path_and_query(rest.substr(end), "/", parts);
  return parts;
}

std::optional<Parts> parse(std::string_view input, const Parts* base) {
  // Surrounding C0 controls and spaces are dropped, tabs and line breaks inside removed.
  std::string s;
  for (char c : input)
    if (c != '\t' && c != '\n' && c != '\r') s += c;
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= 0x20) s.erase(s.begin());
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= 0x20) s.pop_back();

  std::size_t colon = 0;
  if (!s.empty() && std::isalpha(static_cast<unsigned char>(s[0]))) {
    while (colon < s.size() && (std::isalnum(static_cast<unsigned char>(s[colon])) ||
                                s[colon] == '+' || s[colon] == '-' || s[colon] == '.'))
      ++colon;
  }
  std::string_view rest = s;
  if (colon > 0 && colon < s.size() && s[colon] == ':') {
    std::string scheme = s.substr(0, colon);
    for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (scheme != "http" && scheme != "https") return std::nullopt;  // not a page gleaner loads
    rest.remove_prefix(colon + 1);
    // "special relative or authority state": the base's own scheme without "//" is relative
    // ("http:x/y" from an http page is its sibling x/y); another scheme, or "//", starts an
    // authority, whatever slashes follow ("https:host/y").
    const bool relative =
        base && base->scheme == scheme && !(rest.size() >= 2 && rest[0] == '/' && rest[1] == '/');
    if (!relative) {
      while (!rest.empty() && slash(rest.front())) rest.remove_prefix(1);
      return with_authority(scheme, rest);
    }
  } else if (!base) {
    return std::nullopt;
  }
  // Relative to the base.
  if (rest.size() >= 2 && slash(rest[0]) && slash(rest[1])) {
    while (!rest.empty() && slash(rest.front())) rest.remove_prefix(1);
    return with_authority(base->scheme, rest);
  }
  Parts parts = *base;
  if (rest.empty() || rest[0] == '#') return parts;  // the same document
  if (rest[0] == '?') {
    rest =
        rest.substr(1, rest.find('#') == std::string_view::npos ? rest.npos : rest.find('#') - 1);
    parts.query = encode(rest, "\"<>'");
    return parts;
  }
  parts.query.reset();
  set_path_and_query(rest, base->path.substr(0, base->path.rfind('/') + 1), parts);
  return parts;
}

}  // namespace

std::optional<std::string> resolve_http_url(std::string_view base, std::string_view ref) {
  std::optional<Parts> base_parts;
  if (!base.empty()) {
    base_parts = parse(base, nullptr);
    if (!base_parts) return std::nullopt;
  }
  const auto parts = parse(ref, base_parts ? &*base_parts : nullptr);
  if (!parts) return std::nullopt;
  std::string out = parts->scheme + "://";
  if (!parts->userinfo.empty()) out += parts->userinfo + "@";
  out += parts->host;
  if (!parts->port.empty()) out += ":" + parts->port;
  out += parts->path;
  if (parts->query) out += "?" + *parts->query;
  return out;
}

}  // namespace gleaner::proxies
