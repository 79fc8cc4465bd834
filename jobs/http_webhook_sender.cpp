#include "jobs/http_webhook_sender.h"

#include <chrono>

#include <httplib.h>

#include "core/error.h"

namespace gleaner::jobs {
namespace {

WebhookResult result(const char* kind, std::string detail, std::optional<int> status = {}) {
  return {kind, status, std::move(detail)};
}

/// The path and query of `url` ("/" when it has none), as sent in the request line.
std::string path_of(const std::string& url) {
  const auto scheme_end = url.find("://");
  const auto path = url.find_first_of("/?#", scheme_end == std::string::npos ? 0 : scheme_end + 3);
  if (path == std::string::npos || url[path] == '#') return "/";
  std::string rest = url.substr(path);
  if (auto hash = rest.find('#'); hash != std::string::npos) rest.resize(hash);
  return rest[0] == '?' ? "/" + rest : rest;
}

}  // namespace

HttpWebhookSender::HttpWebhookSender(proxies::AddressGuard guard,
                                     std::shared_ptr<proxies::Resolver> resolver)
    : guard_(guard), resolver_(std::move(resolver)) {}

WebhookResult HttpWebhookSender::send(const WebhookRequest& request) {
  proxies::UrlTarget target;
  try {
    target = guard_.check_url(request.url, "webhook.url");
  } catch (const Error& e) {
    return result(outcome::kRefused, e.what());
  }
  // Every address the name has must be allowed, and the one connected to is one of those checked.
  proxies::IpAddress address;
  if (target.host.literal) {
    address = *target.host.literal;
  } else {
    const proxies::Resolution resolved = resolver_->resolve(target.host.text);
    if (resolved.addresses.empty()) {
      return result(outcome::kNetworkError, "cannot resolve " + target.host.text + ": " +
                                                resolved.error);
    }
    for (const proxies::IpAddress& a : resolved.addresses) {
      if (!guard_.allows(a)) {
        return result(outcome::kRefused, std::string(proxies::kPrivateAddressMessage));
      }
    }
    address = resolved.addresses.front();
  }
  const std::string host = target.host.form == proxies::Host::Form::Ipv6
                               ? "[" + target.host.text + "]"
                               : target.host.text;
  httplib::Client client(target.scheme + "://" + host + ":" + std::to_string(target.port));
  client.set_hostname_addr_map({{target.host.text, address.to_string()}});
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(request.timeout);
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(request.timeout - seconds);
  client.set_connection_timeout(static_cast<time_t>(seconds.count()),
                                static_cast<time_t>(micros.count()));
  client.set_read_timeout(static_cast<time_t>(seconds.count()), static_cast<time_t>(micros.count()));
  client.set_write_timeout(static_cast<time_t>(seconds.count()),
                           static_cast<time_t>(micros.count()));
  client.set_follow_location(false);  // a redirect could lead past the guard
  httplib::Headers headers;
  for (const auto& [name, value] : request.headers) headers.emplace(name, value);
  // The caller's own User-Agent wins (httplib::Headers compares names case-insensitively).
  if (headers.find("User-Agent") == headers.end()) headers.emplace("User-Agent", "gleaner-webhooks/1");
  const auto sent = std::chrono::steady_clock::now();
  const httplib::Result answer =
      client.Post(path_of(request.url), headers, request.body, "application/json");
  if (!answer) {
    const httplib::Error error = answer.error();
    const std::string detail = httplib::to_string(error);
    if (error == httplib::Error::Read || error == httplib::Error::Write ||
        error == httplib::Error::ConnectionTimeout) {
      // cpp-httplib reports a connection the receiver closed and an expired read timeout alike:
      // the time taken tells them apart.
      if (error != httplib::Error::ConnectionTimeout &&
          std::chrono::steady_clock::now() - sent < request.timeout) {
        return result(outcome::kNetworkError,
                      "the receiver closed the connection before answering (" + detail + ")");
      }
      return result(outcome::kTimeout, "no answer within " +
                                           std::to_string(request.timeout.count()) + " ms (" +
                                           detail + ")");
    }
    return result(outcome::kNetworkError, detail);
  }
  const int status = answer->status;
  if (status >= 200 && status < 300) return result(outcome::kOk, "HTTP " + std::to_string(status), status);
  return result(outcome::kHttpError, "HTTP " + std::to_string(status), status);
}

}  // namespace gleaner::jobs
