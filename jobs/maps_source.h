#pragma once
// The PlaceSource the service's job worker uses: the maps site read in the browser pool
// (extract/sites/google/maps/reader.h) for the places, and the page fetch machinery (POST
// /scrape/web's, behind the same address guard) for the e-mails of a place's website.
#include <functional>
#include <string>
#include <vector>

#include "extract/sites/google/maps/reader.h"
#include "extract/web/fetch.h"
#include "jobs/worker.h"

namespace gleaner::jobs {

class BrowserPlaceSource final : public PlaceSource {
 public:
  /// The e-mail addresses on the page at `url`; throws gleaner::Error when it cannot be read.
  using WebsiteEmails = std::function<std::vector<std::string>(const std::string& url, Deadline)>;

  /// `tabs` and what `website_emails` uses must outlive the source.
  BrowserPlaceSource(extract::TabSource& tabs, WebsiteEmails website_emails,
                     extract::google::maps::MapsOptions options = {});

  std::vector<nlohmann::json> search(const std::string& keyword, const std::string& location,
                                     std::optional<std::int64_t> limit, Deadline deadline,
                                     const std::function<bool()>& keep_going) override;
  std::vector<std::string> emails(const std::string& website, Deadline deadline) override;

 private:
  extract::google::maps::MapsReader reader_;
  const WebsiteEmails website_emails_;
};

/// Website e-mails read by POST /scrape/web's page fetch on `services` (a fresh context, the
/// address guard and the gateway, resources and ads blocked). What `services` names must outlive
/// the result.
BrowserPlaceSource::WebsiteEmails emails_by_page_fetch(web::WebServices services);

}  // namespace gleaner::jobs
