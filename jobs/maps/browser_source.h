#pragma once
// The maps site read in the browser pool: the PlaceSource the service's job worker uses.
//
// One search: load the site's search page for "<keyword> in <location>" in a tab, scroll its
// results feed to the end (or the job's limit) and read every result (search.js); then open each
// result's place page in the same tab for what only it shows (address, phone, website, hours;
// place.js). A place page that cannot be read (a network error, a 404, its time budget) leaves
// the row with what the list showed, and says so in the log; a block page fails the search, as
// it would fail every following page too. E-mails of a place's website come from the page fetch
// machinery (POST /scrape/web's, behind the same address guard), handed in by the service.
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/config.h"
#include "extract/tab.h"
#include "extract/web/fetch.h"
#include "jobs/worker.h"

namespace gleaner::jobs::maps {

struct MapsSourceOptions {
  /// Time budget of one page (load and read). Entry `maps_page_timeout_ms`.
  Millis page_budget{30'000};
  /// How long the results feed may stay the same after a scroll before it counts as complete.
  /// Entry `maps_feed_settle_ms`.
  Millis feed_settle{2'000};
  /// How long a loaded page may take to draw its results or its place (the site's scripts draw
  /// them); a page that never does (a block page) costs this much. Entry
  /// `maps_render_patience_ms`.
  Millis render_patience{15'000};
  /// The site's language (`hl`): the labels the scripts read are English.
  std::string language = "en";

  static MapsSourceOptions from_config(const Config& config);
};

/// The URL a person's search for `keyword` in `location` loads.
std::string search_url(const std::string& keyword, const std::string& location,
                       const std::string& language);

class BrowserPlaceSource final : public PlaceSource {
 public:
  /// The e-mail addresses on the page at `url`; throws gleaner::Error when it cannot be read.
  using WebsiteEmails = std::function<std::vector<std::string>(const std::string& url, Deadline)>;

  /// `tabs` and what `website_emails` uses must outlive the source.
  BrowserPlaceSource(extract::TabSource& tabs, WebsiteEmails website_emails,
                     MapsSourceOptions options = {});

  std::vector<nlohmann::json> search(const std::string& keyword, const std::string& location,
                                     std::optional<std::int64_t> limit, Deadline deadline,
                                     const std::function<bool()>& keep_going) override;
  std::vector<std::string> emails(const std::string& website, Deadline deadline) override;

 private:
  /// The details of the place at `url`, nullopt when its page could not be read.
  std::optional<nlohmann::json> place_details(extract::Tab& tab, const std::string& url,
                                              Deadline deadline);

  extract::TabSource& tabs_;
  const WebsiteEmails website_emails_;
  const MapsSourceOptions options_;
};

/// Website e-mails read by POST /scrape/web's page fetch on `services` (a fresh context, the
/// address guard and the gateway, resources and ads blocked). What `services` names must outlive
/// the result.
BrowserPlaceSource::WebsiteEmails emails_by_page_fetch(web::WebServices services);

}  // namespace gleaner::jobs::maps
