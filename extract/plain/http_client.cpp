#include "extract/plain/http_client.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>

#include "core/cancel.h"
#include "core/error.h"
#include "core/http_header.h"
#include "proxies/guard.h"

namespace gleaner::plain {
namespace {

void init_curl() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct EasyFree {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct ListFree {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return s;
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t start = 0;
  while (start < s.size() && std::isspace(static_cast<unsigned char>(s[start]))) ++start;
  return s.substr(start);
}

Error cancelled() {
  return Error(ErrorCode::Unavailable, "the page's fetch was stopped",
               "cancelled: its job stopped or the service is shutting down");
}

/// libcurl's progress call (at least once a second, even while nothing arrives): a nonzero
/// answer ends the transfer with CURLE_ABORTED_BY_CALLBACK.
int on_progress(void*, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return cancel_requested() ? 1 : 0;
}

/// One hop's answer as curl hands it over.
struct Transfer {
  std::string body;
  std::size_t max_bytes = 0;
  bool truncated = false;
  std::map<std::string, std::string> headers;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::size_t n = size * count;
  const std::size_t room = t->max_bytes - std::min(t->max_bytes, t->body.size());
  if (n > room) {
    t->body.append(data, room);
    t->truncated = true;
    return 0;  // ends the transfer (CURLE_WRITE_ERROR, taken as the cap)
  }
  t->body.append(data, n);
  return n;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::size_t n = size * count;
  std::string line(data, n);
  if (line.rfind("HTTP/", 0) == 0) {
    // A new response (after a proxy's CONNECT answer, or a 100 Continue): only the last counts.
    t->headers.clear();
    return n;
  }
  const auto colon = line.find(':');
  if (colon == std::string::npos) return n;
  const std::string name = lower(trim(line.substr(0, colon)));
  const std::string value = trim(line.substr(colon + 1));
  if (name.empty()) return n;
  auto [it, added] = t->headers.emplace(name, value);
  if (!added) it->second += ", " + value;
  return n;
}

std::string header_line(const std::string& name, const std::string& value) {
  // "Name;" is curl's way to send a header with an empty value.
  return value.empty() ? name + ";" : name + ": " + value;
}

/// `lines` as curl's header list ("Name: value", "Name:" to leave out one of curl's own).
std::unique_ptr<curl_slist, ListFree> header_list(const std::vector<std::string>& lines) {
  std::unique_ptr<curl_slist, ListFree> list;
  for (const std::string& line : lines) {
    curl_slist* grown = curl_slist_append(list.get(), line.c_str());
    if (!grown) throw Error(ErrorCode::Internal, "curl_slist_append failed");
    list.release();
    list.reset(grown);
  }
  return list;
}

/// A new transfer that speaks http and https only, follows no redirect and is bounded by
/// `left` as a whole.
std::unique_ptr<CURL, EasyFree> new_transfer(Millis left) {
  init_curl();
  std::unique_ptr<CURL, EasyFree> easy(curl_easy_init());
  if (!easy) throw Error(ErrorCode::Internal, "curl_easy_init failed");
  CURL* c = easy.get();
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(left.count()));
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::min<long long>(left.count(), 30000)));
  return easy;
}

// ---- post_for_status ----

/// What a status-only POST reads of its answer.
struct StatusRead {
  std::size_t max_bytes = 0;
  std::size_t read = 0;
  std::optional<int> status;
  bool too_long = false;
  const std::function<bool(const std::string&)>* may_connect = nullptr;
  std::vector<std::string> refused;  // addresses may_connect refused
};

/// Every header line of the answer, 1xx answers' included: stops the transfer at the final status
/// line (nothing after it is read) or once max_bytes came without one.
std::size_t on_status_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* r = static_cast<StatusRead*>(user);
  const std::size_t n = size * count;
  r->read += n;
  const std::string_view line(data, n);
  // "HTTP/1.1 204 No Content", "HTTP/2 200": curl has checked the form.
  if (line.rfind("HTTP/", 0) == 0) {
    const std::size_t space = line.find(' ');
    if (space != std::string_view::npos && space + 4 <= line.size() &&
        std::all_of(line.begin() + static_cast<long>(space) + 1,
                    line.begin() + static_cast<long>(space) + 4,
                    [](char ch) { return ch >= '0' && ch <= '9'; })) {
      const int status = std::stoi(std::string(line.substr(space + 1, 3)));
      if (status >= 200) {
        r->status = status;
        return 0;  // the rest of the answer is not read (CURLE_WRITE_ERROR, taken as done)
      }
    }
  }
  if (r->read >= r->max_bytes) {
    r->too_long = true;
    return 0;
  }
  return n;
}

/// Never reached (the transfer stops at the status line); refuses a body all the same.
std::size_t no_body(char*, std::size_t, std::size_t, void*) {
  return 0;
}

curl_socket_t open_checked_socket(void* user, curlsocktype, curl_sockaddr* address) {
  auto* r = static_cast<StatusRead*>(user);
  char text[INET6_ADDRSTRLEN] = {};
  const void* raw = nullptr;
  if (address->family == AF_INET) {
    raw = &reinterpret_cast<const sockaddr_in*>(&address->addr)->sin_addr;
  } else if (address->family == AF_INET6) {
    raw = &reinterpret_cast<const sockaddr_in6*>(&address->addr)->sin6_addr;
  }
  if (!raw || !inet_ntop(address->family, raw, text, sizeof text) ||
      (r->may_connect && *r->may_connect && !(*r->may_connect)(text))) {
    r->refused.emplace_back(raw ? text : "an address of another family");
    return CURL_SOCKET_BAD;
  }
  return ::socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

}  // namespace

std::variant<int, PostFailure> post_for_status(const StatusPost& post, Deadline deadline) {
  using Kind = PostFailure::Kind;
  const Millis left = time_left(deadline);
  if (left.count() <= 0) return PostFailure{Kind::Timeout, "the deadline passed before sending"};
  std::unique_ptr<CURL, EasyFree> easy = new_transfer(left);
  CURL* c = easy.get();

  std::vector<std::string> lines = {"Content-Type: " + post.content_type,
                                    // curl's own: an Accept we do not need, and an Expect that
                                    // would wait for a 100 Continue on large bodies.
                                    "Accept:", "Expect:"};
  bool has_agent = false;
  for (const auto& [name, value] : post.headers) {
    has_agent = has_agent || http_header::same_name(name, "User-Agent");
    lines.push_back(header_line(name, value));
  }
  if (!has_agent && !post.user_agent.empty()) lines.push_back("User-Agent: " + post.user_agent);
  lines.push_back("Connection: close");
  const auto list = header_list(lines);

  // The name is pinned to the addresses given: curl does not resolve it again.
  std::unique_ptr<curl_slist, ListFree> pinned;
  if (!post.addresses.empty()) {
    CURLU* parsed = curl_url();
    std::string host;
    std::string port;
    if (parsed && curl_url_set(parsed, CURLUPART_URL, post.url.c_str(), 0) == CURLUE_OK) {
      char* part = nullptr;
      if (curl_url_get(parsed, CURLUPART_HOST, &part, 0) == CURLUE_OK) host = part;
      curl_free(part);
      part = nullptr;
      if (curl_url_get(parsed, CURLUPART_PORT, &part, CURLU_DEFAULT_PORT) == CURLUE_OK) port = part;
      curl_free(part);
    }
    curl_url_cleanup(parsed);
    if (host.empty() || port.empty()) return PostFailure{Kind::Network, "not a URL: " + post.url};
    std::string entry = host + ":" + port + ":";
    for (std::size_t i = 0; i < post.addresses.size(); ++i) {
      const std::string& a = post.addresses[i];
      entry += (i ? "," : "") + (a.find(':') != std::string::npos ? "[" + a + "]" : a);
    }
    pinned = header_list({entry});
    curl_easy_setopt(c, CURLOPT_RESOLVE, pinned.get());
  }

  StatusRead read;
  read.max_bytes = post.max_answer_bytes;
  read.may_connect = &post.may_connect;
  curl_easy_setopt(c, CURLOPT_URL, post.url.c_str());
  curl_easy_setopt(c, CURLOPT_PROXY, "");  // none, whatever the environment says
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, list.get());
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, post.body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(post.body.size()));
  curl_easy_setopt(c, CURLOPT_SSLVERSION, static_cast<long>(CURL_SSLVERSION_TLSv1_2));
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &on_status_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &read);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &no_body);
  curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, &open_checked_socket);
  curl_easy_setopt(c, CURLOPT_OPENSOCKETDATA, &read);
  char message[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, message);

  const CURLcode code = curl_easy_perform(c);
  if (read.status) return *read.status;
  const std::string why = message[0] ? message : curl_easy_strerror(code);
  if (read.too_long) {
    return PostFailure{Kind::Network, "the answer's status did not come in its first " +
                                          std::to_string(read.max_bytes) + " bytes"};
  }
  if (!read.refused.empty()) {
    return PostFailure{Kind::Refused, "refused to connect to " + read.refused.front()};
  }
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT: return PostFailure{Kind::Timeout, why};
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
      return PostFailure{Kind::Network,
                         "the receiver closed the connection before answering (" + why + ")"};
    default: return PostFailure{Kind::Network, why};
  }
}

HttpResponse http_get(const HttpRequest& request, Deadline deadline) {
  // The URL as Chromium would send it (its host in ASCII, IDNA): libcurl and the gateway take it
  // as it is.
  std::optional<std::string> normalized = proxies::resolve_http_url("", request.url);
  if (!normalized) {
    throw invalid_parameter("url",
                            "the URL must be an absolute http or https URL with a valid host");
  }
  std::string url = std::move(*normalized);
  for (int hop = 0;; ++hop) {
    if (cancel_requested()) throw cancelled();
    if (request.before_hop) request.before_hop(url);
    const Millis left = time_left(deadline);
    if (left.count() <= 0) throw Error(ErrorCode::Timeout, "the page did not load in time");

    std::unique_ptr<CURL, EasyFree> easy = new_transfer(left);
    CURL* c = easy.get();
    Transfer transfer;
    transfer.max_bytes = request.max_bytes;

    std::map<std::string, std::string> headers = {
        {"User-Agent", kDesktopUserAgent},
        {"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"},
        {"Accept-Language", "en-US,en;q=0.9"},
    };
    for (const auto& [name, value] : request.headers) {
      for (auto it = headers.begin(); it != headers.end();) {
        it = http_header::same_name(it->first, name) ? headers.erase(it) : std::next(it);
      }
      headers[name] = value;
    }
    std::vector<std::string> lines;
    for (const auto& [name, value] : headers) lines.push_back(header_line(name, value));
    const auto list = header_list(lines);

    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, list.get());
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // every encoding curl decodes
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &transfer);
    // A page job's fetch that its job or the service stopped waiting for ends here (core/cancel.h).
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, &on_progress);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    if (request.proxy) {
      curl_easy_setopt(c, CURLOPT_PROXY, request.proxy->server.c_str());
      curl_easy_setopt(c, CURLOPT_PROXYUSERNAME, request.proxy->username.c_str());
      curl_easy_setopt(c, CURLOPT_PROXYPASSWORD, request.proxy->password.c_str());
      curl_easy_setopt(c, CURLOPT_PROXYAUTH, static_cast<long>(CURLAUTH_BASIC));
      // Every URL, https included, is tunnelled or forwarded by the gateway; nothing bypasses it.
      curl_easy_setopt(c, CURLOPT_NOPROXY, "");
    } else {
      curl_easy_setopt(c, CURLOPT_PROXY, "");
    }

    char message[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, message);
    const CURLcode code = curl_easy_perform(c);
    if (code == CURLE_ABORTED_BY_CALLBACK) throw cancelled();
    if (code == CURLE_OPERATION_TIMEDOUT) {
      throw Error(ErrorCode::Timeout, "the page did not load in time", url);
    }
    if (code != CURLE_OK && !(code == CURLE_WRITE_ERROR && transfer.truncated)) {
      throw Error(ErrorCode::UpstreamError, "could not load " + url + ": " +
                                                (message[0] ? message : curl_easy_strerror(code)));
    }
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    // The target of a redirect as Chromium reads its Location (the URL Standard, not RFC 3986 as
    // libcurl does: "http:host/x" from an http page is relative there), so both roads land on the
    // same page. A Location that is no http(s) URL is not followed: the 3xx is the answer.
    const auto location = transfer.headers.find("location");
    const std::optional<std::string> next =
        status >= 300 && status < 400 && location != transfer.headers.end()
            ? proxies::resolve_http_url(url, location->second)
            : std::nullopt;
    if (next) {
      if (hop >= request.max_redirects) {
        throw Error(ErrorCode::UpstreamError, "more than " + std::to_string(request.max_redirects) +
                                                  " redirects from " + url);
      }
      if (!proxies::url_refused_because(*next).empty()) {
        throw Error(ErrorCode::UpstreamError, "the site redirected to a URL longer than " +
                                                  std::to_string(proxies::kMaxUrlLength) +
                                                  " bytes");
      }
      url = *next;
      continue;
    }
    HttpResponse response;
    response.url = url;
    response.status = static_cast<int>(status);
    response.headers = std::move(transfer.headers);
    response.body = std::move(transfer.body);
    response.truncated = transfer.truncated;
    return response;
  }
}

}  // namespace gleaner::plain
