#include "extract/plain/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>

#include "core/error.h"
#include "core/http_header.h"

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

}  // namespace

HttpResponse http_get(const HttpRequest& request, Deadline deadline) {
  init_curl();
  std::string url = request.url;
  for (int hop = 0;; ++hop) {
    if (request.before_hop) request.before_hop(url);
    const Millis left = time_left(deadline);
    if (left.count() <= 0) throw Error(ErrorCode::Timeout, "the page did not load in time");

    std::unique_ptr<CURL, EasyFree> easy(curl_easy_init());
    if (!easy) throw Error(ErrorCode::Internal, "curl_easy_init failed");
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
    std::unique_ptr<curl_slist, ListFree> list;
    for (const auto& [name, value] : headers) {
      curl_slist* grown = curl_slist_append(list.get(), header_line(name, value).c_str());
      if (!grown) throw Error(ErrorCode::Internal, "curl_slist_append failed");
      list.release();
      list.reset(grown);
    }

    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, list.get());
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // every encoding curl decodes
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(left.count()));
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(std::min<long long>(left.count(), 30000)));
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &transfer);
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
    if (code == CURLE_OPERATION_TIMEDOUT) {
      throw Error(ErrorCode::Timeout, "the page did not load in time", url);
    }
    if (code != CURLE_OK && !(code == CURLE_WRITE_ERROR && transfer.truncated)) {
      throw Error(ErrorCode::UpstreamError,
                  "could not load " + url + ": " + (message[0] ? message : curl_easy_strerror(code)));
    }
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    char* next = nullptr;
    curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &next);
    if (status >= 300 && status < 400 && next && *next) {
      if (hop >= request.max_redirects) {
        throw Error(ErrorCode::UpstreamError, "more than " + std::to_string(request.max_redirects) +
                                                  " redirects from " + request.url);
      }
      url = next;
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
