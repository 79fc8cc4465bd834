#include "extract/content/emails.h"

#include "core/percent.h"
#include "extract/content/chars.h"

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_set>

namespace gleaner::content {
namespace {

using chars::is_alnum;
using chars::is_alpha;

// RFC 5321 limits.
constexpr std::size_t kMaxLocal = 64;
constexpr std::size_t kMaxLabel = 63;
constexpr std::size_t kMaxAddress = 254;

/// Characters of a local part found in running text. Narrower than RFC 5322's atext on purpose:
/// '/', '=', '?' and friends glue URLs and query strings to the address.
bool is_text_local_char(char c) {
  return is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}

/// In a mailto: link the address is meant as one: any RFC 5322 atext character is allowed.
bool is_atext(char c) {
  static constexpr std::string_view kSpecials = "!#$%&'*+/=?^_`{|}~-.";
  return is_alnum(c) || kSpecials.find(c) != std::string_view::npos;
}

bool is_domain_char(char c) {
  return is_alnum(c) || c == '-' || c == '.';
}

/// File extensions that follow '@' in asset names (image@2x.png) and are no real top-level domain
/// anyone mails to.
bool is_file_extension(std::string_view tld) {
  static constexpr std::array<std::string_view, 44> kExtensions = {
      "png",  "jpg", "jpeg", "gif",  "webp", "svg", "avif", "bmp",   "ico",  "tif",  "tiff",
      "heic", "js",  "mjs",  "cjs",  "ts",   "jsx", "tsx",  "css",   "scss", "less", "json",
      "map",  "xml", "txt",  "html", "htm",  "php", "aspx", "jsp",   "mp4",  "mp3",  "webm",
      "mov",  "wav", "ogg",  "pdf",  "zip",  "gz",  "woff", "woff2", "ttf",  "otf",  "eot"};
  return std::find(kExtensions.begin(), kExtensions.end(), chars::lower(tld)) != kExtensions.end();
}

bool valid_local(std::string_view local, bool (*allowed)(char)) {
  if (local.empty() || local.size() > kMaxLocal) return false;
  if (local.front() == '.' || local.back() == '.') return false;
  if (local.find("..") != std::string_view::npos) return false;
  return std::all_of(local.begin(), local.end(), allowed);
}

bool valid_domain(std::string_view domain) {
  std::size_t start = 0;
  std::size_t labels = 0;
  std::string_view tld;
  while (start <= domain.size()) {
    std::size_t dot = domain.find('.', start);
    if (dot == std::string_view::npos) dot = domain.size();
    std::string_view label = domain.substr(start, dot - start);
    if (label.empty() || label.size() > kMaxLabel || label.front() == '-' || label.back() == '-') {
      return false;
    }
    for (char c : label) {
      if (!is_alnum(c) && c != '-') return false;
    }
    ++labels;
    tld = label;
    start = dot + 1;
  }
  if (labels < 2) return false;
  if (tld.size() >= 4 && chars::starts_with_nocase(tld, "xn--")) return true;  // punycode TLD
  if (tld.size() < 2) return false;
  for (char c : tld) {
    if (!is_alpha(c)) return false;
  }
  return !is_file_extension(tld);
}

/// `local@domain` with the domain lower-cased, or nothing when it is not a plausible address.
std::optional<std::string> normalize(std::string_view local, std::string_view domain,
                                     bool (*local_allowed)(char)) {
  if (!valid_local(local, local_allowed) || !valid_domain(domain)) return std::nullopt;
  if (local.size() + 1 + domain.size() > kMaxAddress) return std::nullopt;
  std::string address(local);
  address += '@';
  address += chars::lower(domain);
  return address;
}

/// Collects addresses in order, de-duplicated ignoring case.
class Collector {
 public:
  void add(std::optional<std::string> address) {
    if (address && seen_.insert(chars::lower(*address)).second) out_.push_back(std::move(*address));
  }
  std::vector<std::string> take() { return std::move(out_); }

 private:
  std::vector<std::string> out_;
  std::unordered_set<std::string> seen_;
};

void scan_text(std::string_view text, Collector& found) {
  for (std::size_t at = text.find('@'); at != std::string_view::npos; at = text.find('@', at + 1)) {
    std::size_t begin = at;
    while (begin > 0 && is_text_local_char(text[begin - 1])) --begin;
    std::size_t end = at + 1;
    while (end < text.size() && is_domain_char(text[end])) ++end;
    // Glued to a non-ASCII letter: part of an internationalized address we would only cut.
    if ((begin > 0 && (text[begin - 1] & 0x80) != 0) ||
        (end < text.size() && (text[end] & 0x80) != 0)) {
      continue;
    }
    std::string_view local = text.substr(begin, at - begin);
    // A dot run cannot be inside a local part: it is the text's own ("Write to...me@x.org").
    if (std::size_t dots = local.rfind(".."); dots != std::string_view::npos) {
      local.remove_prefix(dots + 2);
    }
    while (!local.empty() && local.front() == '.') local.remove_prefix(1);
    std::string_view domain = text.substr(at + 1, end - at - 1);
    while (!domain.empty() && (domain.back() == '.' || domain.back() == '-')) {
      domain.remove_suffix(1);  // sentence punctuation after the address
    }
    found.add(normalize(local, domain, is_text_local_char));
  }
}

void scan_mailto(std::string_view href, Collector& found) {
  href = chars::trim(href);
  if (!chars::starts_with_nocase(href, "mailto:")) return;
  href.remove_prefix(7);
  href = href.substr(0, href.find('?'));
  std::string decoded = percent_decode(href);
  std::string_view rest = decoded;
  while (!rest.empty()) {
    std::size_t comma = rest.find_first_of(",;");
    std::string_view one = chars::trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    // "Name <address>"
    if (std::size_t lt = one.rfind('<'); lt != std::string_view::npos) {
      std::size_t gt = one.find('>', lt);
      one = one.substr(lt + 1, gt == std::string_view::npos ? std::string_view::npos : gt - lt - 1);
    }
    std::size_t at = one.rfind('@');
    if (at == std::string_view::npos) continue;
    found.add(normalize(one.substr(0, at), one.substr(at + 1), is_atext));
  }
}

}  // namespace

std::vector<std::string> extract_emails(std::string_view text, const nlohmann::json& links) {
  Collector found;
  scan_text(text, found);
  if (links.is_array()) {
    for (const auto& link : links) {
      if (link.is_string()) scan_mailto(link.get_ref<const std::string&>(), found);
    }
  }
  return found.take();
}

}  // namespace gleaner::content
