#include "tests/stealth/stealth_site.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace gleaner::testing {
namespace {

using nlohmann::json;

// The longest the held iframe waits for a verdict: a page whose checks never finish still loads.
constexpr Millis kHoldLimit{15000};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string percent_decode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() &&
               std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::multimap<std::string, std::string> parse_query(const std::string& query) {
  std::multimap<std::string, std::string> out;
  std::size_t start = 0;
  while (start < query.size()) {
    std::size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string pair = query.substr(start, end - start);
    const std::size_t eq = pair.find('=');
    out.emplace(percent_decode(pair.substr(0, eq)),
                eq == std::string::npos ? std::string() : percent_decode(pair.substr(eq + 1)));
    start = end + 1;
  }
  return out;
}

std::string param(const std::multimap<std::string, std::string>& query, const std::string& name) {
  auto it = query.find(name);
  return it == query.end() ? std::string() : it->second;
}

class SiteInterceptor final : public browser::Interceptor {
 public:
  SiteInterceptor(StealthSite& site, std::string origin)
      : site_(site), origin_(std::move(origin)) {}
  std::optional<browser::Decision> decide(const browser::InterceptedRequest& request) override {
    if (request.url.rfind(origin_ + "/", 0) != 0) return std::nullopt;
    std::string rest = request.url.substr(origin_.size());
    rest = rest.substr(0, rest.find('#'));
    const std::size_t q = rest.find('?');
    const std::string path = rest.substr(0, q);
    const auto query = parse_query(q == std::string::npos ? "" : rest.substr(q + 1));
    std::map<std::string, std::string> headers;
    for (const auto& [name, value] : request.headers) headers[lower(name)] = value;
    StealthSite::Answer a = site_.answer(path, query, headers);
    browser::Fulfill fulfill;
    fulfill.status = a.status;
    fulfill.headers = a.headers;
    if (!a.content_type.empty()) fulfill.headers["Content-Type"] = a.content_type;
    fulfill.body = std::move(a.body);
    return fulfill;
  }

 private:
  StealthSite& site_;
  const std::string origin_;
};

}  // namespace

StealthSite::StealthSite() : page_dir_(std::string(GLEANER_SOURCE_DIR) + "/tests/stealth/page/") {}

StealthSite::~StealthSite() {
  std::lock_guard lock(mutex_);
  closing_ = true;
  changed_.notify_all();
}

StealthSite::Answer StealthSite::answer(const std::string& path,
                                        const std::multimap<std::string, std::string>& query,
                                        const std::map<std::string, std::string>& headers) {
  std::string id = param(query, "run");
  if (id.empty()) id = param(query, "q");
  if (id.empty()) id = "none";
  static const std::map<std::string, std::string> kFiles = {
      {"/stealth/early.js", "early.js"},
      {"/stealth/detector.js", "detector.js"},
      {"/stealth/worker.js", "worker.js"},
      {"/stealth/sw.js", "sw.js"},
      {"/stealth/botd/botd.esm.js", "botd/botd.esm.js"},
  };
  if (auto file = kFiles.find(path); file != kFiles.end()) {
    return {200,
            "text/javascript",
            read_file(page_dir_ + file->second),
            {{"Cache-Control", "no-store"}}};
  }
  if (path == "/stealth/headers") return {200, "application/json", json(headers).dump(), {}};
  std::unique_lock lock(mutex_);
  Run& run = run_locked(id);
  if (path == "/stealth/touch") {
    run.touches.push_back({param(query, "check"), param(query, "detail")});
    changed_.notify_all();
    return {204, "", "", {}};
  }
  if (path == "/stealth/report") {
    run.verdict = json::parse(param(query, "v"), nullptr, /*allow_exceptions=*/false);
    changed_.notify_all();
    return {204, "", "", {}};
  }
  if (path == "/stealth/hold") {
    changed_.wait_for(lock, kHoldLimit, [&] { return closing_ || runs_[id].verdict.has_value(); });
    return {200, "text/html", "<!doctype html><title>held</title>", {}};
  }
  if (path == "/favicon.ico") return {404, "text/plain", "", {}};
  run.document_headers = headers;
  lock.unlock();
  std::string html = read_file(page_dir_ + "detector.html");
  for (std::size_t at; (at = html.find("NONCE")) != std::string::npos;)
    html.replace(at, 5, kStealthNonce);
  // A link to the page of another run, for a crawl to follow.
  if (const std::string next = param(query, "next"); !next.empty()) {
    html.insert(html.rfind("</body>"),
                "<p><a id=\"next\" href=\"/stealth/page?run=" + next + "\">next</a></p>\n");
  }
  return {200,
          "text/html; charset=utf-8",
          std::move(html),
          {{"Content-Security-Policy",
            std::string("default-src 'self'; script-src 'self' 'nonce-") + kStealthNonce +
                "'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"},
           {"Cache-Control", "no-store"}}};
}

void StealthSite::mount(httplib::Server& server) {
  server.Get(".*", [this](const httplib::Request& request, httplib::Response& response) {
    std::multimap<std::string, std::string> query(request.params.begin(), request.params.end());
    std::map<std::string, std::string> headers;
    for (const auto& [name, value] : request.headers) headers[lower(name)] = value;
    Answer a = answer(request.path, query, headers);
    response.status = a.status;
    for (const auto& [name, value] : a.headers) response.set_header(name, value);
    if (a.status != 204) response.set_content(a.body, a.content_type);
  });
}

std::shared_ptr<browser::Interceptor> StealthSite::interceptor(const std::string& origin) {
  return std::make_shared<SiteInterceptor>(*this, origin);
}

std::optional<json> StealthSite::verdict(const std::string& run, Millis wait) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, wait, [&] { return runs_[run].verdict.has_value(); });
  return runs_[run].verdict;
}

std::vector<StealthSite::Touch> StealthSite::touches(const std::string& run) {
  std::lock_guard lock(mutex_);
  return runs_[run].touches;
}

std::map<std::string, std::string> StealthSite::document_headers(const std::string& run) {
  std::lock_guard lock(mutex_);
  return runs_[run].document_headers;
}

}  // namespace gleaner::testing
