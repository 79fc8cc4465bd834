#pragma once
// The maps pages of the job suites: a replay archive of the rendered fixture pages
// (tests/sites/google/pages/maps, cocli_*) at the URLs the source asks for, and the recorded output
// of the in-page scripts on them (tests/sites/google/data/maps/).
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "extract/tab.h"

#include "tests/support/pages.h"
#include "tests/support/replay_archive.h"

namespace gleaner::extract::google::maps::testing {

inline const std::string kMapsFixtures = gleaner::testing::site_page("google", "maps/");

/// The link of the first result of the "griffith" search: the fixture's place page.
inline constexpr const char* kObservatoryPlaceUrl =
    "https://www.google.com/maps/place/Griffith+Observatory/data=!4m7!3m6!1s0x80c2bf61e9d408cb:"
    "0x73ff07b1c2d6dadc!8m2!3d34.1184341!4d-118.3003935!16zL20vMDJfNG1s!19sChIJywjU6WG_"
    "woAR3NrWwrEH_3M"
    "?authuser=0&hl=en&rclk=1";

/// Searches "griffith in …" and "museums in …" answered by the two rendered result lists, the
/// Griffith Observatory place page by the rendered place page (every other place page is a 404),
/// and the observatory's website by a page of our own with two e-mail addresses (a stand-in:
/// what matters there is the page fetch, not the site).
inline void add_maps_pages(gleaner::testing::TempReplayArchive& archive) {
  using Entry = gleaner::testing::TempReplayArchive::Entry;
  auto prefix = [&](const std::string& url, const std::string& file) {
    Entry e;
    e.match = "prefix";
    e.url = url;
    e.source = kMapsFixtures + file;
    archive.add(e);
  };
  prefix("https://www.google.com/maps/search/griffith+in+",
         "cocli_search-dom_griffith_en_2026-03.html");
  prefix("https://www.google.com/maps/search/museums+in+",
         "cocli_search-dom_metropolitan-museum_en_2026-03.html");
  prefix(
      "https://www.google.com/maps/place/Griffith+Observatory/data=!4m7!3m6!1s0x80c2bf61e9d408cb:",
      "cocli_place-dom_griffith-observatory_en_2026-03.html");
  archive.page("https://griffithobservatory.org/",
               "<!doctype html><html><head><title>Visit</title></head><body><h1>Plan your visit"
               "</h1><p>Questions: <a href='mailto:visit@observatory.example'>write to us</a>.</p>"
               "<p>Press: press@observatory.example</p></body></html>");
}

/// The tabs of `inner`, noting the profile each was asked with (what a maps endpoint asks the
/// opener for: painted or not), and opened painted or hidden as `paint` says when it is set.
class ProfilesSeen final : public extract::TabSource {
 public:
  explicit ProfilesSeen(extract::TabSource& inner, std::optional<bool> paint = std::nullopt)
      : inner_(inner), paint_(paint) {}
  std::unique_ptr<extract::Tab> open(const extract::BrowserProfile& profile,
                                     Deadline deadline) override {
    profiles.push_back(profile);
    extract::BrowserProfile opened = profile;
    if (paint_) opened.painted = *paint_;
    return inner_.open(opened, deadline);
  }
  std::vector<extract::BrowserProfile> profiles;

 private:
  extract::TabSource& inner_;
  const std::optional<bool> paint_;
};

/// Recorded script output under tests/sites/google/data/maps/.
inline nlohmann::json recorded(const std::string& name) {
  std::ifstream in(std::string(GLEANER_SOURCE_DIR) + "/tests/sites/google/data/maps/" + name);
  EXPECT_TRUE(in.good()) << "cannot read tests/sites/google/data/maps/" << name;
  return nlohmann::json::parse(in, nullptr, false);
}

}  // namespace gleaner::extract::google::maps::testing
