#include "proxies/gateway.h"

#include <algorithm>
#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <cctype>
#include <future>
#include <thread>

#include "core/error.h"
#include "core/ids.h"
#include "core/log.h"
#include "proxies/http_head.h"
#include "proxies/lease_record.h"

namespace gleaner::proxies {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using asio::awaitable;
using SystemError = boost::system::error_code;

namespace {

constexpr std::size_t kRelayBufferBytes = 16 * 1024;
// How long and how much the gateway reads (and drops) after answering with an error itself.
constexpr Millis kLingerBudget{2000};
constexpr std::size_t kMaxLingerBytes = 256 * 1024;
constexpr char kComponent[] = "gateway";

auto into(SystemError& ec) {
  return asio::redirect_error(asio::use_awaitable, ec);
}

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  return true;
}

// "host:port", with brackets around an IPv6 literal.
std::string authority_text(const Authority& target) {
  const bool v6 = target.host.form == Host::Form::Ipv6;
  return (v6 ? "[" + target.host.text + "]" : target.host.text) + ":" + std::to_string(target.port);
}

// A complete answer from the gateway itself; the connection closes after it. `field` and
// `value`: one more header field (none when empty).
std::string gateway_response(int status, std::string_view reason, std::string_view body,
                             std::string_view field = {}, std::string_view value = {}) {
  ResponseHead head;
  head.status = status;
  head.reason = std::string(reason);
  if (!field.empty()) head.fields.add(std::string(field), std::string(value));
  // Every answer of the gateway's own says so, so that no client takes it for the site's (a 407
  // for a request head it could not read once reached callers as the site's "HTTP 407").
  if (field != "X-Gleaner-Gateway") head.fields.add("X-Gleaner-Gateway", "answer");
  head.fields.add("Content-Type", "text/plain; charset=utf-8");
  head.fields.add("Content-Length", std::to_string(body.size() + 1));
  head.fields.add("Connection", "close");
  head.fields.add("Proxy-Connection", "close");
  return head.serialize() + std::string(body) + "\n";
}

// Where a proxy request goes: "CONNECT host:port", or "GET http://host:port/path" (then
// `origin_form` is "/path", what the site itself is asked for). nullopt for anything else.
std::optional<Authority> request_target(const RequestHead& head, std::string& origin_form) {
  if (head.method == "CONNECT") return parse_authority(head.target, 443);
  static constexpr std::string_view kHttp = "http://";
  if (!starts_with_nocase(head.target, kHttp)) return std::nullopt;
  try {
    const UrlTarget url = parse_http_url(head.target);
    const auto path = head.target.find_first_of("/?#", kHttp.size());
    origin_form = path == std::string::npos ? "/" : head.target.substr(path);
    if (const auto hash = origin_form.find('#'); hash != std::string::npos)
      origin_form.resize(hash);
    if (origin_form.empty() || origin_form.front() != '/') origin_form.insert(0, "/");
    return Authority{url.host, url.port};
  } catch (const Error&) {
    return std::nullopt;
  }
}

long long entry_in_range(const Config& config, const std::string& entry, long long fallback,
                         long long low, long long high) {
  const long long value = config.get_int(entry, fallback);
  if (value < low || value > high)
    throw Error(ErrorCode::Internal, "configuration entry '" + entry + "' must be in " +
                                         std::to_string(low) + ".." + std::to_string(high));
  return value;
}

}  // namespace

GatewayOptions GatewayOptions::from_config(const Config& config) {
  GatewayOptions options;
  options.allow_private_addresses = config.get_bool("allow_private_addresses", false);
  options.connect_timeout = Millis(entry_in_range(config, "gateway_connect_timeout_ms",
                                                  options.connect_timeout.count(), 1, 600000));
  options.idle_timeout = Millis(
      entry_in_range(config, "gateway_idle_timeout_ms", options.idle_timeout.count(), 1, 3600000));
  options.max_connections = static_cast<int>(
      entry_in_range(config, "gateway_max_connections", options.max_connections, 1, 100000));
  options.threads =
      static_cast<int>(entry_in_range(config, "gateway_threads", options.threads, 1, 64));
  options.resolver_threads = static_cast<int>(
      entry_in_range(config, "gateway_resolver_threads", options.resolver_threads, 1, 256));
  return options;
}

class Gateway::Impl {
 public:
  Impl(GatewayOptions options_, std::shared_ptr<UpstreamPools> pools_,
       std::shared_ptr<Resolver> resolver_)
      : options(std::move(options_)),
        guard(options.allow_private_addresses),
        pools(pools_ ? std::move(pools_)
                     : std::make_shared<UpstreamPools>(std::vector<UpstreamProxy>{}, Millis(0), 1)),
        resolver(resolver_ ? std::move(resolver_) : std::make_shared<SystemResolver>()),
        resolvers(static_cast<std::size_t>(options.resolver_threads)) {}

  void start();
  void stop();
  awaitable<void> accept_loop();

  /// Why `host` is refused before any lookup (localhost names), or nullopt.
  std::optional<std::string> refused_name(const Host& host) const {
    if (auto kind = name_kind(host.text); kind && !guard.allows(*kind))
      return host.text + " is " + std::string(kind_name(*kind));
    return std::nullopt;
  }
  /// Why the addresses `host` resolved to are refused (any one refused is enough), or nullopt.
  std::optional<std::string> refused_addresses(const Host& host,
                                               const std::vector<IpAddress>& addresses) const {
    return guard.refusal(host, addresses);
  }

  const GatewayOptions options;
  const AddressGuard guard;
  const std::shared_ptr<UpstreamPools> pools;
  const std::shared_ptr<Resolver> resolver;
  const std::shared_ptr<detail::LeaseRegistry> registry = std::make_shared<detail::LeaseRegistry>();
  std::uint16_t port = 0;

  // Counters (GatewayStats); connections_open is also the admission check.
  std::atomic<std::uint64_t> connections_open{0};
  std::atomic<std::uint64_t> connections_total{0};
  std::atomic<std::uint64_t> refused_total{0};
  std::atomic<std::uint64_t> unreachable_total{0};
  std::atomic<std::uint64_t> auth_failures_total{0};

  // Destroyed before the counters above: destroying the io_context destroys the connections
  // still waiting in it, which count themselves out.
  asio::io_context io;
  tcp::acceptor acceptor{io};
  // Runs blocking name resolutions off the relaying threads.
  asio::thread_pool resolvers;
  // Declared last: run `io`; joined by stop().
  std::vector<std::thread> threads;
};

namespace {

// One browser connection to the gateway: one request head, then a tunnel (CONNECT) or one
// forwarded plain-HTTP exchange, then close. Everything runs on the connection's strand.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Gateway::Impl& gateway, tcp::socket client)
      : gw_(gateway),
        client_(std::move(client)),
        target_(client_.get_executor()),
        timer_(client_.get_executor()),
        wake_(client_.get_executor()),
        deadline_(SteadyClock::now() + gw_.options.idle_timeout) {
    ++gw_.connections_open;
    ++gw_.connections_total;
  }
  ~Connection() { --gw_.connections_open; }

  static awaitable<void> run(std::shared_ptr<Connection> self) {
    asio::co_spawn(self->client_.get_executor(), watchdog(self), asio::detached);
    bool relaying = false;
    try {
      relaying = co_await self->serve();
    } catch (const std::exception& e) {
      log::error(kComponent) << self->who() << "connection failed: " << describe(e);
    }
    if (!relaying) {
      co_await self->linger();
      self->finish();
    }
  }

 private:
  // What the deadline guards: the request head, reaching the target, or the relay.
  enum class Phase { Head, Connect, Relay };

  // ---- deadlines ----

  static awaitable<void> watchdog(std::shared_ptr<Connection> self) {
    while (!self->finished_) {
      self->timer_.expires_at(self->deadline_);
      SystemError ec;
      co_await self->timer_.async_wait(into(ec));
      if (self->finished_) break;
      if (SteadyClock::now() < self->deadline_) continue;  // moved, or cancelled to come sooner
      if (self->phase_ == Phase::Connect) {
        // Stop reaching the target but keep the browser's side to tell it 504.
        self->timed_out_ = true;
        self->target_.close(ec);
        self->wake_.cancel();
        self->deadline_ = SteadyClock::now() + self->gw_.options.idle_timeout;
        continue;
      }
      self->close_sockets();
      break;
    }
  }

  void enter(Phase phase, Millis budget) {
    phase_ = phase;
    deadline_ = SteadyClock::now() + budget;
    if (deadline_ < timer_.expiry()) timer_.cancel();  // the watchdog re-arms for the sooner one
  }
  void touch() { deadline_ = SteadyClock::now() + gw_.options.idle_timeout; }

  void close_sockets() {
    SystemError ec;
    client_.close(ec);
    target_.close(ec);
  }
  void finish() {
    finished_ = true;
    timer_.cancel();
    close_sockets();
  }

  // After the gateway's own answer: half-close and read what the browser still sends, so closing
  // does not reset the connection (which can destroy the answer before the browser reads it).
  awaitable<void> linger() {
    SystemError ec;
    client_.shutdown(tcp::socket::shutdown_send, ec);
    if (ec) co_return;
    enter(Phase::Head, std::min(gw_.options.idle_timeout, kLingerBudget));
    std::vector<char> discard(kRelayBufferBytes);
    std::size_t drained = 0;
    while (drained < kMaxLingerBytes) {
      drained += co_await client_.async_read_some(asio::buffer(discard), into(ec));
      if (ec) break;
    }
  }

  std::string who() const {
    return "lease " + (lease_ ? lease_->id : std::string("?")) +
           (target_text_.empty() ? ": " : " → " + target_text_ + ": ");
  }

  // ---- answers from the gateway itself ----

  // Every co_await below takes named values only: GCC 12 can destroy a temporary of a co_await
  // expression twice (conditional operands in particular).
  awaitable<void> reply(int status, std::string_view reason, std::string_view body,
                        std::string_view field = {}, std::string_view value = {}) {
    const std::string response = gateway_response(status, reason, body, field, value);
    SystemError ec;
    co_await asio::async_write(client_, asio::buffer(response), into(ec));
  }

  awaitable<void> refuse(const Authority& target, const std::string& why) {
    ++gw_.refused_total;
    log::warn(kComponent) << who() << "refused: " << why;
    lease_->add_incident({GatewayIncident::Kind::Refused, target.host.text, target.port, why});
    // The page (and whoever reads it) learns that the guard refused, never what the resolver
    // answered for the name: that is the service's network, told only to the log.
    const std::string body = "gleaner: " + target.host.text + " is refused by the address guard";
    co_await reply(403, "Forbidden", body, "X-Gleaner-Refused", "private-address");
  }

  awaitable<void> unreachable(const Authority& target, const std::string& why) {
    ++gw_.unreachable_total;
    // Debug: a page's sub-resources on hosts that do not answer are common and say nothing to an
    // operator; a main document that is not reached is logged, in words, with its request
    // (GatewayLease::check_main_document_reached).
    log::debug(kComponent) << who() << "unreachable: " << why;
    lease_->add_incident({GatewayIncident::Kind::Unreachable, target.host.text, target.port, why});
    const std::string body = "gleaner: " + why;
    if (timed_out_) {
      co_await reply(504, "Gateway Timeout", body, "X-Gleaner-Gateway", "timeout");
    } else {
      co_await reply(502, "Bad Gateway", body, "X-Gleaner-Gateway", "unreachable");
    }
  }

  // ---- the request ----

  // Reads one head (up to the blank line) from `from`; bytes past it stay in `buffer`.
  awaitable<std::optional<std::string>> read_head(tcp::socket& from, std::string& buffer,
                                                  SystemError& ec) {
    const std::size_t n = co_await asio::async_read_until(
        from, asio::dynamic_buffer(buffer, gw_.options.max_head_bytes), "\r\n\r\n", into(ec));
    if (ec) co_return std::nullopt;
    std::string head = buffer.substr(0, n);
    buffer.erase(0, n);
    co_return head;
  }

  // Finds the lease the head's credentials name (lease_); false when there is none.
  bool authenticate(const RequestHead& head) {
    const auto credentials = head.fields.get("Proxy-Authorization");
    const auto basic = credentials ? parse_basic_credentials(*credentials) : std::nullopt;
    lease_ = basic ? gw_.registry->authenticate(basic->first, basic->second) : nullptr;
    if (lease_) return true;
    ++gw_.auth_failures_total;
    if (basic && gw_.registry->recently_closed(basic->first)) {
      // A request the page still had in flight when its lease ended (the browser context is
      // disposed without waiting): expected, and refused like any other.
      log::debug(kComponent) << "refused a request of closed lease " << basic->first;
    } else if (credentials) {
      log::warn(kComponent) << "refused proxy credentials"
                            << (basic ? " of unknown lease " + basic->first : "");
    }
    return false;
  }

  awaitable<void> ask_for_credentials() {
    co_await reply(407, "Proxy Authentication Required", "gleaner: lease credentials required",
                   "Proxy-Authenticate", "Basic realm=\"gleaner\"");
  }

  // A head that did not end within max_head_bytes (a caller's 100 KB header, sent by the page).
  // Its first lines are read: with the lease's credentials and the target among them, the lease
  // notes the target as not reached, so that the endpoint answers an error for a main document
  // (GatewayLease::check_main_document_reached: 502, not charged) instead of taking this 431 for
  // the site's answer. Without credentials it is asked for them first, as any request is, and
  // Chromium sends them with its next try.
  awaitable<void> head_too_large() {
    const std::string why = "the request's headers are larger than the gateway's limit of " +
                            std::to_string(gw_.options.max_head_bytes) + " bytes";
    const auto cut = client_extra_.rfind("\r\n");
    const auto head = cut == std::string::npos
                          ? std::nullopt
                          : parse_request_head(client_extra_.substr(0, cut + 2) + "\r\n");
    if (!head || !authenticate(*head)) {
      co_await ask_for_credentials();
      co_return;
    }
    std::string origin_form;
    if (const auto target = request_target(*head, origin_form)) {
      ++gw_.unreachable_total;
      log::debug(kComponent) << who() << authority_text(*target) << ": " << why;
      lease_->add_incident({GatewayIncident::Kind::Unreachable, target->host.text, target->port, why});
    }
    co_await reply(431, "Request Header Fields Too Large", "gleaner: " + why, "X-Gleaner-Gateway",
                   "request-too-large");
  }

  // Returns whether relaying started (the relay then finishes the connection).
  awaitable<bool> serve() {
    if (gw_.connections_open > static_cast<std::uint64_t>(gw_.options.max_connections)) {
      log::warn(kComponent) << "over " << gw_.options.max_connections
                            << " connections; answering 503";
      co_await reply(503, "Service Unavailable", "gleaner: too many connections");
      co_return false;
    }
    enter(Phase::Head, gw_.options.idle_timeout);
    SystemError ec;
    const auto text = co_await read_head(client_, client_extra_, ec);
    if (!text) {
      if (ec == asio::error::not_found) co_await head_too_large();
      co_return false;
    }
    auto head = parse_request_head(*text);
    if (!head) {
      co_await reply(400, "Bad Request", "gleaner: malformed request");
      co_return false;
    }

    // The lease first: without its credentials nothing else is said.
    if (!authenticate(*head)) {
      co_await ask_for_credentials();
      co_return false;
    }

    const bool tunnel = head->method == "CONNECT";
    std::string origin_form;  // the path and query a plain request asks the site for
    const std::optional<Authority> target = request_target(*head, origin_form);
    if (!target) {
      co_await reply(400, "Bad Request",
                     "gleaner: expected CONNECT host:port or an absolute http:// URL");
      co_return false;
    }
    target_text_ = authority_text(*target);

    enter(Phase::Connect, gw_.options.connect_timeout);
    bool connected = false;
    if (lease_->route.is_direct()) {
      connected = co_await connect_direct(*target);
    } else {
      connected = co_await connect_upstream(*target, tunnel);
    }
    if (!connected) co_return false;

    if (tunnel) {
      std::string established = "HTTP/1.1 200 Connection established\r\n\r\n" + target_extra_;
      target_extra_.clear();
      co_await asio::async_write(client_, asio::buffer(established), into(ec));
      if (ec) co_return false;
    } else {
      RequestHead out = std::move(*head);
      out.fields.remove_hop_by_hop();
      if (lease_->route.is_direct()) {
        out.target = origin_form;
        if (!out.fields.get("Host")) out.fields.add("Host", target_text_);
      } else if (const auto& proxy = *lease_->route.upstream; !proxy.username.empty()) {
        out.fields.add("Proxy-Authorization", basic_credentials(proxy.username, proxy.password));
      }
      out.fields.add("Connection", "close");
      client_extra_.insert(0, out.serialize());
    }
    if (!client_extra_.empty()) {
      co_await asio::async_write(target_, asio::buffer(client_extra_), into(ec));
      if (ec) co_return false;
      client_extra_.clear();
    }

    enter(Phase::Relay, gw_.options.idle_timeout);
    auto self = shared_from_this();
    asio::co_spawn(client_.get_executor(), pump(self, client_, target_), asio::detached);
    if (tunnel) {
      co_await pump(self, target_, client_);
    } else {
      co_await pump_response(self, *target);
    }
    co_return true;
  }

  // ---- reaching the target ----

  // Resolves `name` on the resolver threads. Empty when the Connect deadline passed first: the
  // lookup cannot be interrupted, but waiting for it can.
  awaitable<Resolution> resolve(const std::string& name) {
    auto answer = std::make_shared<std::optional<Resolution>>();
    asio::post(gw_.resolvers, [self = shared_from_this(), answer, name] {
      Resolution resolution;
      try {
        resolution = self->gw_.resolver->resolve(name);
      } catch (const std::exception& e) {
        resolution.error = e.what();
      }
      // Back on the connection's strand, where `answer` is read.
      asio::post(self->client_.get_executor(), [self, answer, resolution = std::move(resolution)] {
        *answer = resolution;
        self->wake_.cancel();
      });
    });
    if (!timed_out_) {
      wake_.expires_at(SteadyClock::time_point::max());
      SystemError ec;
      co_await wake_.async_wait(into(ec));
    }
    if (!*answer) co_return Resolution{{}, "timed out"};
    co_return std::move(**answer);
  }

  // The target's addresses, each allowed by the guard. nullopt after answering the browser (refused
  // or unreachable). With `must_resolve` false a name that does not resolve yields no address
  // rather than a failure (an upstream proxy resolves it in its own network).
  awaitable<std::optional<std::vector<IpAddress>>> checked_addresses(const Authority& target,
                                                                     bool must_resolve) {
    std::vector<IpAddress> addresses;
    if (target.host.literal) {
      addresses.push_back(*target.host.literal);
    } else {
      if (auto why = gw_.refused_name(target.host)) {
        co_await refuse(target, *why);
        co_return std::nullopt;
      }
      Resolution resolution = co_await resolve(target.host.text);
      if (resolution.addresses.empty() && (must_resolve || timed_out_)) {
        const std::string why =
            timed_out_ ? "timed out resolving " + target.host.text
                       : target.host.text + " does not resolve (" + resolution.error + ")";
        co_await unreachable(target, why);
        co_return std::nullopt;
      }
      addresses = std::move(resolution.addresses);
    }
    if (auto why = gw_.refused_addresses(target.host, addresses)) {
      co_await refuse(target, *why);
      co_return std::nullopt;
    }
    co_return addresses;
  }

  // Connects target_ to the first of `addresses` that answers; the error of the last otherwise.
  awaitable<std::optional<std::string>> connect_any(const std::vector<IpAddress>& addresses,
                                                    std::uint16_t port) {
    std::string error = "no address";
    for (const auto& address : addresses) {
      if (timed_out_) co_return std::string("timed out connecting");
      SystemError ec;
      target_.close(ec);
      co_await target_.async_connect(tcp::endpoint(address, port), into(ec));
      if (!ec) co_return std::nullopt;
      error = timed_out_ ? "timed out connecting" : ec.message() + " (" + address.to_string() + ")";
    }
    co_return error;
  }

  awaitable<bool> connect_direct(const Authority& target) {
    const auto addresses = co_await checked_addresses(target, true);
    if (!addresses) co_return false;
    if (auto error = co_await connect_any(*addresses, target.port)) {
      co_await unreachable(target, *error);
      co_return false;
    }
    co_return true;
  }

  // Reaches the lease's upstream proxy and, for a tunnel, has it open one to `target`.
  awaitable<bool> connect_upstream(const Authority& target, bool tunnel) {
    // The guard still looks at the name: a literal or a name that resolves into this network
    // is refused even though the upstream would be the one to connect.
    const auto checked = co_await checked_addresses(target, false);
    if (!checked) co_return false;

    const UpstreamProxy& proxy = *lease_->route.upstream;
    std::vector<IpAddress> proxy_addresses;
    if (const auto host = parse_host(proxy.host); host && host->literal) {
      proxy_addresses.push_back(*host->literal);
    } else {
      Resolution resolution = co_await resolve(proxy.host);
      proxy_addresses = std::move(resolution.addresses);
    }
    if (auto error = co_await connect_any(proxy_addresses, proxy.port)) {
      gw_.pools->report_failure(proxy);
      const std::string why = "upstream " + proxy.label() + " unreachable: " + *error;
      co_await unreachable(target, why);
      co_return false;
    }
    if (!tunnel) co_return true;  // the request itself goes to the proxy; see pump_response

    RequestHead connect;
    connect.method = "CONNECT";
    connect.target = target_text_;
    connect.fields.add("Host", target_text_);
    if (!proxy.username.empty())
      connect.fields.add("Proxy-Authorization", basic_credentials(proxy.username, proxy.password));
    const std::string request = connect.serialize();
    SystemError ec;
    co_await asio::async_write(target_, asio::buffer(request), into(ec));
    std::optional<ResponseHead> answer;
    if (!ec) {
      const auto text = co_await read_head(target_, target_extra_, ec);
      if (text) answer = parse_response_head(*text);
    }
    if (!answer || answer->status == 407) {
      gw_.pools->report_failure(proxy);
      const std::string why = "upstream " + proxy.label() +
                              (timed_out_ ? " did not answer in time"
                               : !answer  ? " sent no valid answer to CONNECT"
                                          : " refused the configured credentials (407)");
      co_await unreachable(target, why);
      co_return false;
    }
    gw_.pools->report_success(proxy);
    if (answer->status / 100 != 2) {
      const std::string why =
          "upstream " + proxy.label() + " answered CONNECT with " + std::to_string(answer->status);
      co_await unreachable(target, why);
      co_return false;
    }
    co_return true;
  }

  // ---- relaying ----

  static awaitable<void> pump(std::shared_ptr<Connection> self, tcp::socket& from,
                              tcp::socket& to) {
    std::vector<char> buffer(kRelayBufferBytes);
    for (;;) {
      SystemError ec;
      const std::size_t n = co_await from.async_read_some(asio::buffer(buffer), into(ec));
      if (ec) {
        // A clean end in one direction is passed on as a half-close; anything else ends both.
        if (ec == asio::error::eof) {
          to.shutdown(tcp::socket::shutdown_send, ec);
        } else {
          self->close_sockets();
        }
        break;
      }
      self->touch();
      co_await asio::async_write(to, asio::buffer(buffer.data(), n), into(ec));
      if (ec) {
        self->close_sockets();
        break;
      }
      self->touch();
    }
    if (++self->directions_done_ == 2) self->finish();
  }

  // The site's (or upstream proxy's) answer to a plain request: its head is rewritten so the
  // browser knows the connection closes after it, then the rest is relayed as is.
  static awaitable<void> pump_response(std::shared_ptr<Connection> self, const Authority& target) {
    std::string buffer;
    SystemError ec;
    std::optional<ResponseHead> head;
    std::string forwarded;
    for (;;) {  // interim 1xx answers are passed on until the final one
      const auto text = co_await self->read_head(self->target_, buffer, ec);
      head = text ? parse_response_head(*text) : std::nullopt;
      if (!head || head->status / 100 != 1 || head->status == 101) break;
      forwarded += *text;
    }
    const UpstreamProxy* proxy = self->lease_->route.upstream.get();
    if (proxy && (!head || head->status == 407)) self->gw_.pools->report_failure(*proxy);
    if (proxy && head && head->status != 407) self->gw_.pools->report_success(*proxy);
    if (!head || (proxy && head->status == 407)) {
      const std::string why =
          proxy ? "upstream " + proxy->label() +
                      (head ? " refused the configured credentials (407)" : " sent no valid answer")
                : "the site sent no valid HTTP answer";
      if (forwarded.empty()) co_await self->unreachable(target, why);
      self->close_sockets();
    } else {
      head->fields.remove_hop_by_hop();
      head->fields.add("Connection", "close");
      head->fields.add("Proxy-Connection", "close");
      forwarded += head->serialize() + buffer;
      co_await asio::async_write(self->client_, asio::buffer(forwarded), into(ec));
      if (!ec) {
        self->touch();
        co_await pump(self, self->target_, self->client_);
        co_return;  // pump counted this direction
      }
      self->close_sockets();
    }
    if (++self->directions_done_ == 2) self->finish();
  }

  Gateway::Impl& gw_;
  tcp::socket client_;        // the browser
  tcp::socket target_;        // the site, or the upstream proxy
  asio::steady_timer timer_;  // the watchdog's
  asio::steady_timer wake_;  // cancelled when a resolution arrives (or the Connect deadline passes)
  Phase phase_ = Phase::Head;
  SteadyClock::time_point deadline_;
  bool timed_out_ = false;  // the Connect phase's deadline passed
  bool finished_ = false;
  int directions_done_ = 0;   // relay directions that ended
  std::string client_extra_;  // bytes from the browser read past its request head
  std::string target_extra_;  // bytes from the target read past the upstream's CONNECT answer
  std::string target_text_;   // "host:port", for logs
  std::shared_ptr<detail::LeaseRecord> lease_;
};

}  // namespace

void Gateway::Impl::start() {
  const tcp::endpoint endpoint(asio::ip::make_address_v4("127.0.0.1"), 0);
  acceptor.open(endpoint.protocol());
  acceptor.bind(endpoint);
  acceptor.listen(asio::socket_base::max_listen_connections);
  port = acceptor.local_endpoint().port();
  asio::co_spawn(io, accept_loop(), asio::detached);
  for (int i = 0; i < options.threads; ++i) threads.emplace_back([this] { io.run(); });
  log::info(kComponent) << "egress gateway on 127.0.0.1:" << port
                        << (options.allow_private_addresses ? " (private addresses allowed)" : "");
}

void Gateway::Impl::stop() {
  io.stop();
  for (auto& thread : threads)
    if (thread.joinable()) thread.join();
  resolvers.stop();
  resolvers.join();
}

awaitable<void> Gateway::Impl::accept_loop() {
  // Out of descriptors (EMFILE), accept fails at once for as long as a connection waits: without
  // a pause this loop took a core and logged 250,000 lines a second. The pause doubles up to a
  // second; the line is limited by the log itself (core/log.h).
  Millis pause{0};
  asio::steady_timer timer(io);
  for (;;) {
    tcp::socket socket(asio::make_strand(io));
    SystemError ec;
    co_await acceptor.async_accept(socket, into(ec));
    if (ec) {
      if (!acceptor.is_open() || ec == asio::error::operation_aborted) co_return;
      pause = std::clamp(pause * 2, Millis(10), Millis(1000));
      log::warn(kComponent) << "accept failed: " << ec.message() << "; pausing accepts";
      timer.expires_after(pause);
      co_await timer.async_wait(into(ec));
      continue;
    }
    pause = Millis(0);
    auto executor = socket.get_executor();  // the connection's strand
    asio::co_spawn(executor,
                   Connection::run(std::make_shared<Connection>(*this, std::move(socket))),
                   asio::detached);
  }
}

Gateway::Gateway(GatewayOptions options, std::shared_ptr<UpstreamPools> pools,
                 std::shared_ptr<Resolver> resolver)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(pools), std::move(resolver))) {
  impl_->start();
}

std::unique_ptr<Gateway> Gateway::from_config(const Config& config,
                                              std::shared_ptr<Resolver> resolver) {
  return std::make_unique<Gateway>(GatewayOptions::from_config(config),
                                   UpstreamPools::from_config(config),
                                   resolver ? std::move(resolver) : make_resolver(config));
}

Gateway::~Gateway() {
  impl_->stop();
}

GatewayLease Gateway::open_lease(const Route& route) {
  auto record = std::make_shared<detail::LeaseRecord>(random_hex(8), random_hex(16), route);
  impl_->registry->add(record);
  log::debug(kComponent) << "lease " << record->id << " opened, "
                         << (route.is_direct() ? std::string("direct")
                                               : "via " + route.upstream->label());
  return GatewayLease(std::move(record), impl_->registry, proxy_server());
}

UrlTarget Gateway::check_url(std::string_view url, Deadline deadline,
                             const std::string& parameter) const {
  return check_url_resolving(
      impl_->guard,
      [this](const std::string& name, Deadline until) {
        return resolve_before(impl_->resolver, name, until,
                              [this](std::function<void()> task) {
                                asio::post(impl_->resolvers, std::move(task));
                              });
      },
      url, deadline, parameter);
}

std::uint16_t Gateway::port() const {
  return impl_->port;
}
std::string Gateway::proxy_server() const {
  return "http://127.0.0.1:" + std::to_string(impl_->port);
}
const AddressGuard& Gateway::guard() const {
  return impl_->guard;
}
UpstreamPools& Gateway::pools() {
  return *impl_->pools;
}

GatewayStats Gateway::stats() const {
  GatewayStats stats;
  stats.connections_open = impl_->connections_open;
  stats.connections_total = impl_->connections_total;
  stats.refused_total = impl_->refused_total;
  stats.unreachable_total = impl_->unreachable_total;
  stats.auth_failures_total = impl_->auth_failures_total;
  stats.leases_open = impl_->registry->size();
  return stats;
}

}  // namespace gleaner::proxies
