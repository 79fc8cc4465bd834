// GET /scrape/stays/search end to end in real Chromium over a replay archive of the whole Ruidera
// results page of the fixtures, and of the Belgrade excerpt as the English- and the
// Spanish-language site write it.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::booking {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

TEST(BookingSearchInChromium, Ruidera) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.booking.com/searchresults.html?",
      gleaner::testing::site_page(
          "booking", "stays-search/booking-searchresults-ruidera-en-dom-2025-04.html")));
  auto replay = archive.load();
  auto result = run_in_chromium(search_endpoint(), replay,
                                {{"keyword", "Ruidera"},
                                 {"checkInDate", "2030-06-01"},
                                 {"checkOutDate", "2030-06-03"},
                                 {"rooms", "1"},
                                 {"adults", "2"},
                                 {"children", "1"},
                                 {"childrenAges", "6"},
                                 {"rating[]", "3"}});
  EXPECT_EQ(
      requested(*replay, "https://www.booking.com/searchresults").front(),
      "https://www.booking.com/searchresults.html?ss=Ruidera&checkin=2030-06-01&checkout=2030-06-03"
      "&group_adults=2&group_children=1&age=6&no_rooms=1&nflt=class%3D3");
  EXPECT_EQ(result.body["searchInformation"]["totalResults"], 251);
  EXPECT_EQ(result.body["results"][0]["name"], "Hotel Rural Albamanjon");
  EXPECT_EQ(result.body["results"].size(), 25u);
}

// The Belgrade excerpt and a page built from it as the Spanish-language site writes the same
// cards ("Puntuación: 7,9", "1.521 comentarios", "45 €", lang="es"; the rewrite is the
// "localised" case of data/search/cases.json): every score, count and price reads the same.
TEST(BookingSearchInChromium, ASpanishLanguagePageReadsAsTheEnglishOne) {
  const nlohmann::json cases = testing::read_json_file(gleaner::testing::site_tests_dir("booking") +
                                                       "data/search/cases.json")["localised"];
  const std::string page = gleaner::testing::site_page(
      "booking", "stays-search/booking-search-belgrade-cards-excerpt-2026.html");
  const QueryParams query = {{"keyword", "Belgrade"},
                             {"checkInDate", "2030-11-14"},
                             {"checkOutDate", "2030-11-16"},
                             {"rooms", "1"},
                             {"adults", "2"},
                             {"children", "0"},
                             {"currency", "EUR"}};
  TempReplayArchive english;
  english.add(prefix_entry("https://www.booking.com/searchresults.html?", page));
  const nlohmann::json en = run_in_chromium(search_endpoint(), english.load(), query).body;

  nlohmann::json rewrite;
  for (const nlohmann::json& c : cases) {
    if (c["name"].get<std::string>().starts_with("belgrade as the Spanish")) {
      rewrite = c["pages"][0]["replace"];
    }
  }
  ASSERT_TRUE(rewrite.is_array());
  TempReplayArchive spanish;
  spanish.add(gleaner::testing::rewritten_entry("https://www.booking.com/searchresults.html?", page,
                                                rewrite));
  const nlohmann::json es = run_in_chromium(search_endpoint(), spanish.load(), query).body;

  ASSERT_EQ(en["results"].size(), 6u);
  ASSERT_EQ(es["results"].size(), en["results"].size());
  for (std::size_t i = 0; i < en["results"].size(); ++i) {
    SCOPED_TRACE(i);
    const nlohmann::json& e = en["results"][i];
    const nlohmann::json& s = es["results"][i];
    ASSERT_TRUE(e.contains("reviewScore"));
    EXPECT_EQ(s.value("reviewScore", -1.0), e["reviewScore"]);
    ASSERT_TRUE(e.contains("reviews"));
    EXPECT_EQ(s.value("reviews", -1LL), e["reviews"]);
    EXPECT_EQ(s["price"]["extractedTotal"], e["price"]["extractedTotal"]);
    EXPECT_EQ(s["price"]["currency"], "EUR");
    EXPECT_FALSE(s.value("reviewScoreLabel", "").empty());
  }
  // Values a person reads on the English page: "Scored 7.9 Good 1,521 reviews", "€ 45".
  EXPECT_EQ(en["results"][4]["reviewScore"], 7.9);
  EXPECT_EQ(en["results"][4]["reviews"], 1521);
  EXPECT_EQ(es["results"][4]["reviews"], 1521);
  EXPECT_EQ(es["results"][0]["price"]["extractedTotal"], 45);
  EXPECT_EQ(es["results"][0]["reviewScoreLabel"], "Fantástico");
}

}  // namespace
}  // namespace gleaner::extract::booking
