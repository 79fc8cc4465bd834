#include "browser/net_error.h"

#include <array>

namespace gleaner::browser {
namespace {

struct Cause {
  std::string_view code;  // without "net::"; a trailing '*' matches a prefix
  std::string_view words;
};

// Chromium's net/base/net_error_list.h names; the common causes of a page that cannot be loaded.
constexpr std::array<Cause, 24> kCauses{{
    {"ERR_NAME_NOT_RESOLVED", "the host name does not resolve (DNS)"},
    {"ERR_NAME_RESOLUTION_FAILED", "the host name could not be resolved (DNS)"},
    {"ERR_CONNECTION_REFUSED", "the site refused the connection"},
    {"ERR_CONNECTION_RESET", "the connection was reset"},
    {"ERR_CONNECTION_CLOSED", "the site closed the connection"},
    {"ERR_CONNECTION_ABORTED", "the connection was aborted"},
    {"ERR_CONNECTION_FAILED", "the connection to the site failed"},
    {"ERR_CONNECTION_TIMED_OUT", "connecting to the site timed out"},
    {"ERR_TIMED_OUT", "the site did not answer in time"},
    {"ERR_ADDRESS_UNREACHABLE", "the site's address is unreachable"},
    {"ERR_EMPTY_RESPONSE", "the site closed the connection without answering"},
    {"ERR_TOO_MANY_REDIRECTS", "the page redirects too many times"},
    {"ERR_INVALID_RESPONSE", "the site sent an invalid HTTP answer"},
    {"ERR_CERT_*", "TLS failed: the site's certificate was not accepted"},
    {"ERR_SSL_*", "TLS failed: no secure connection could be made"},
    {"ERR_BAD_SSL_CLIENT_AUTH_CERT", "TLS failed: the site asks for a client certificate"},
    {"ERR_TUNNEL_CONNECTION_FAILED", "the proxy could not open a connection to the site"},
    {"ERR_PROXY_CONNECTION_FAILED", "the proxy could not be reached"},
    {"ERR_PROXY_AUTH_*", "the proxy refused the credentials"},
    {"ERR_PROXY_CERTIFICATE_INVALID", "TLS to the proxy failed"},
    {"ERR_BLOCKED_BY_CLIENT", "the page's request was blocked by the request's own settings"},
    {"ERR_BLOCKED_BY_RESPONSE", "the site's answer forbids loading the page this way"},
    {"ERR_UNSAFE_PORT", "the port is one browsers refuse"},
    {"ERR_ABORTED", "the navigation was aborted"},
}};

}  // namespace

std::string describe_net_error(std::string_view error_text) {
  std::string_view code = error_text;
  if (code.starts_with("net::")) code.remove_prefix(5);
  for (const Cause& cause : kCauses) {
    const bool prefix = cause.code.ends_with('*');
    const std::string_view name = prefix ? cause.code.substr(0, cause.code.size() - 1) : cause.code;
    if (prefix ? code.starts_with(name) : code == name) {
      return std::string(cause.words) + " (" + std::string(error_text) + ")";
    }
  }
  return "the page could not be loaded (" + std::string(error_text) + ")";
}

}  // namespace gleaner::browser
