#include "jobs/maps_source.h"

#include <algorithm>

#include "core/error.h"
#include "core/log.h"

namespace gleaner::jobs {

using nlohmann::json;

BrowserPlaceSource::BrowserPlaceSource(extract::TabSource& tabs, WebsiteEmails website_emails,
                                       extract::google::maps::MapsOptions options)
    : reader_(tabs, std::move(options)), website_emails_(std::move(website_emails)) {}

std::vector<json> BrowserPlaceSource::search(const std::string& keyword,
                                             const std::string& location,
                                             std::optional<std::int64_t> limit, Deadline deadline,
                                             const std::function<bool()>& keep_going) {
  return reader_.search(keyword, location, limit, deadline, keep_going);
}

std::vector<std::string> BrowserPlaceSource::emails(const std::string& website, Deadline deadline) {
  try {
    return website_emails_(website, std::min(deadline, deadline_in(reader_.options().page_budget)));
  } catch (const Error& e) {
    log::info("jobs") << "no e-mails from " << website << ": " << describe(e);
    return {};
  }
}

BrowserPlaceSource::WebsiteEmails emails_by_page_fetch(web::WebServices services) {
  return [services](const std::string& url, Deadline deadline) mutable {
    // Validated as a caller's URL would be (scheme, host); the gateway refuses private addresses.
    web::WebRequest request = web::parse_web_request(
        json{{"url", url}, {"extractEmails", true}}.dump(), time_left(deadline));
    request.html = false;
    const proxies::Route route = web::choose_route(request, services);
    const web::WebResult page = web::fetch_page(request, route, services, deadline);
    return page.body.value("extractedEmails", json::array()).get<std::vector<std::string>>();
  };
}

}  // namespace gleaner::jobs
