#include "jobs/http_webhook_sender.h"

#include <boost/system/error_code.hpp>

#include "core/error.h"
#include "extract/plain/http_client.h"

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
  // One deadline for the whole attempt: resolving, connecting, sending and the answer's status.
  const Deadline deadline = SteadyClock::now() + request.timeout;
  const std::string budget = " (" + std::to_string(request.timeout.count()) + " ms)";
  proxies::UrlTarget target;
  try {
    target = guard_.check_url(request.url, "webhook.url");
  } catch (const Error& e) {
    return result(outcome::kRefused, e.what());
  }
  // Every address the name has must be allowed, and only those are connected to.
  plain::StatusPost post;
  if (!target.host.literal) {  // a literal is connected to as it is, checked below
    const auto resolved = proxies::resolve_before(resolver_, target.host.text, deadline);
    if (!resolved) {
      return result(outcome::kTimeout, "no address for " + target.host.text + " in time" + budget);
    }
    if (resolved->addresses.empty()) {
      return result(outcome::kNetworkError, "cannot resolve " + target.host.text + ": " +
                                                resolved->error);
    }
    for (const proxies::IpAddress& a : resolved->addresses) {
      if (!guard_.allows(a)) {
        return result(outcome::kRefused, std::string(proxies::kPrivateAddressMessage));
      }
      post.addresses.push_back(a.to_string());
    }
  }
  post.may_connect = [this](const std::string& address) {
    boost::system::error_code ec;
    const auto parsed = boost::asio::ip::make_address(address, ec);
    return !ec && guard_.allows(parsed);
  };
  // The URL as the guard read it (the host in its canonical form): the client's host is the one
  // that was checked and pinned, however the caller spelled it.
  const bool default_port = target.port == (target.scheme == "https" ? 443 : 80);
  post.url = target.scheme + "://" +
             (target.host.form == proxies::Host::Form::Ipv6 ? "[" + target.host.text + "]"
                                                            : target.host.text) +
             (default_port ? "" : ":" + std::to_string(target.port)) + path_of(request.url);
  // Checked when the job was created (jobs/job_request.cpp): tokens and values without CR/LF. The
  // caller's own User-Agent wins.
  post.headers = request.headers;
  post.user_agent = "gleaner-webhooks/1";
  post.body = request.body;
  post.max_answer_bytes = kMaxAnswerBytes;

  const auto answer = plain::post_for_status(post, deadline);
  if (const auto* failure = std::get_if<plain::PostFailure>(&answer)) {
    switch (failure->kind) {
      case plain::PostFailure::Kind::Timeout:
        return result(outcome::kTimeout, "no answer in time: " + failure->detail + budget);
      case plain::PostFailure::Kind::Refused:
        return result(outcome::kRefused, std::string(proxies::kPrivateAddressMessage));
      case plain::PostFailure::Kind::Network:
        return result(outcome::kNetworkError, failure->detail);
    }
  }
  const int status = std::get<int>(answer);
  if (status < 300) return result(outcome::kOk, "HTTP " + std::to_string(status), status);
  return result(outcome::kHttpError, "HTTP " + std::to_string(status), status);
}

}  // namespace gleaner::jobs
