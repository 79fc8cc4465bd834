#include "extract/sites/shopify/store.h"

#include "proxies/guard.h"

namespace gleaner::extract::shopify {

std::string origin_of(const std::string& url) {
  const proxies::UrlTarget t = proxies::AddressGuard().check_url(url, "url");
  const bool default_port =
      (t.scheme == "https" && t.port == 443) || (t.scheme == "http" && t.port == 80);
  const std::string host =
      t.host.form == proxies::Host::Form::Ipv6 ? "[" + t.host.text + "]" : t.host.text;
  return t.scheme + "://" + host + (default_port ? "" : ":" + std::to_string(t.port));
}

}  // namespace gleaner::extract::shopify
