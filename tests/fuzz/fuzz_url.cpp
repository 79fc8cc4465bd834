// URLs and hosts from callers and pages: the address guard's parsers (a host in every spelling
// of an address, an authority, an http(s) URL, a reference resolved against a page) and the
// endpoints' URL encoders. A URL the guard accepts must give back a host the host parser accepts,
// and a resolved reference must be a URL the guard reads.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"
#include "extract/url.h"
#include "proxies/guard.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace gleaner;
  if (auto host = proxies::parse_host(text)) {
    if (host->literal) {
      (void)proxies::classify(*host->literal);
    } else {
      (void)proxies::name_kind(host->text);
    }
  }
  (void)proxies::parse_authority(text, 443);
  try {
    const proxies::UrlTarget target = proxies::parse_http_url(text);
    const std::string& canonical = target.host.text;
    const bool v6 = target.host.form == proxies::Host::Form::Ipv6;
    if (!proxies::parse_host(v6 ? "[" + canonical + "]" : canonical)) __builtin_trap();
  } catch (const Error&) {
  }
  // A reference resolved as the URL Standard says (a redirect's Location) is a URL the guard reads.
  if (const auto resolved = proxies::resolve_http_url("http://a.example/b/c?d", text)) {
    try {
      (void)proxies::parse_http_url(*resolved);
    } catch (const Error&) {
      if (resolved->size() <= proxies::kMaxUrlLength) __builtin_trap();
    }
  }
  const std::string encoded = extract::form_encode(text);
  if (extract::form_decode(encoded) != text) __builtin_trap();
  (void)extract::path_encode(text);
  (void)extract::UrlBuilder("https://example.com/p").add(text, text).add_raw("r", text).str();
  // A query value read back from a page's link is the value a form would have sent.
  if (extract::query_value("https://example.com/url?sa=U&q=" + encoded + "&q=x#q=y", "q") != text)
    __builtin_trap();
  (void)extract::query_value(text, "q");
  return 0;
}
