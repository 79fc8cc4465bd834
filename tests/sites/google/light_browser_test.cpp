// GET /scrape/google-light/serp end to end: the endpoint builds the basic page's URL, the page is
// answered from a replay archive of the real no-JS pages (tests/sites/google/pages/
// google-light-serp), read as an HTML document without a renderer (the plain road) unless that
// road is refused, then in real Chromium with the page's scripts off; either way the C++ reads
// its markup and shapes it. Asserts what a person reads on those pages, and which road answered.
#include <gtest/gtest.h>

#include "extract/sites/google/light.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

std::string page(const std::string& file) {
  return gleaner::testing::site_page("google", "google-light-serp/" + file);
}

// A 2020 capture answering `url`. Those captures were fetched without gbv=1, so each carries
// Google's <noscript> refresh to its gbv=1 address (`refresh_url`); that address answers 204
// here, which keeps the browser on the page as the basic page itself does (it has no such
// refresh). `charset`, when given, is the one Google names in the page's content-type.
void add_2020_capture(TempReplayArchive& archive, const std::string& url, const std::string& file,
                      const std::string& refresh_url, const std::string& charset = "") {
  TempReplayArchive::Entry entry;
  entry.url = url;
  entry.source = page(file);
  if (!charset.empty()) entry.headers["content-type"] = "text/html; charset=" + charset;
  archive.add(entry);
  gleaner::testing::TempReplayArchive::Entry refresh;
  refresh.url = refresh_url;
  refresh.status = 204;
  archive.add(refresh);
}

// Google's "did not match any documents" notice for the query of the no-match pages.
void expect_no_match(const nlohmann::json& body) {
  EXPECT_TRUE(body["organicResults"].empty());
  EXPECT_TRUE(body["relatedSearches"].empty());
  const auto& info = body["searchInformation"];
  EXPECT_EQ(info["noResults"], true);
  EXPECT_EQ(info["totalResults"], 0);
  EXPECT_EQ(info["noResultsText"].get<std::string>().rfind(
                "Your search - sfl234dsf14sfj323JJJJJfa345fdf45 - did not match any documents.", 0),
            0u)
      << info;
}

TEST(LightSerpInChromium, CoffeeResultsSitelinksRelatedSearchesAndTheNextPage) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=coffee&gbv=1",
               page("serp-parser_nojs_coffee_en_2023-06.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(light_endpoint(), replay, {{"q", "coffee"}});
  EXPECT_EQ(requested(*replay).front(), "https://www.google.com/search?q=coffee&gbv=1");
  // A page with nothing to run: read without a renderer.
  EXPECT_EQ(result.road, Road::Plain);

  const auto& organic = result.body["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["position"], 1);
  EXPECT_EQ(organic[0]["title"], "Coffee - Wikipedia");
  EXPECT_EQ(organic[0]["link"], "https://en.wikipedia.org/wiki/Coffee");
  EXPECT_EQ(organic[0]["displayedLink"], "en.wikipedia.org \u203a wiki \u203a Coffee");
  EXPECT_EQ(organic[0]["source"], "en.wikipedia.org");
  EXPECT_EQ(organic[0]["snippet"].get<std::string>().rfind(
                "Coffee is a beverage prepared from roasted coffee beans.", 0),
            0u);
  EXPECT_EQ(organic[0]["sitelinks"][0],
            (nlohmann::json{{"title", "Coffee bean"},
                            {"link", "https://en.wikipedia.org/wiki/Coffee_bean"}}));
  // The date the page prints before a snippet is the result's date; text outside ASCII as written.
  EXPECT_EQ(organic[5]["title"], "31 Coffee Brands, Ranked From Worst To Best - Tasting Table");
  EXPECT_EQ(organic[5]["date"], "Mar 2, 2023");
  EXPECT_EQ(
      organic[5]["snippet"].get<std::string>().rfind("From caf\u00e9 chains to retail roasters", 0),
      0u);
  EXPECT_EQ(organic[1]["snippet"].get<std::string>().rfind("cof\u00b7fee /\u02c8k\u00f4f\u0113", 0),
            0u)
      << organic[1]["snippet"];
  EXPECT_EQ(
      organic[3]["snippet"].get<std::string>().find("Starbucks\u00ae Rewards") != std::string::npos,
      true);

  const auto& related = result.body["relatedSearches"];
  ASSERT_EQ(related.size(), 8u);
  EXPECT_EQ(related[0]["query"], "Coffee near me");
  EXPECT_EQ(related[7]["query"], "Coffee tree");
  EXPECT_EQ(result.body["pagination"]["current"], 1);
  EXPECT_NE(result.body["pagination"]["next"].get<std::string>().find("start=10"),
            std::string::npos);
}

TEST(LightSerpInChromium, HotelsPageResultsAfterItsAdsAndPlaces) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=hotels+NYC&gbv=1",
               page("serp-parser_nojs_hotels-nyc_en_2023-06.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(light_endpoint(), replay, {{"q", "hotels NYC"}});
  EXPECT_EQ(result.road, Road::Plain);
  const auto& organic = result.body["organicResults"];
  ASSERT_EQ(organic.size(), 9u) << organic.dump();
  EXPECT_EQ(organic[0]["position"], 1);
  EXPECT_EQ(organic[0]["title"], "Best New York Hotels");
  EXPECT_EQ(organic[0]["link"], "https://www.hotels.com/de1506246/hotels-new-york-new-york/");
  EXPECT_EQ(organic[1]["title"], "Book cheap New York hotels");
  EXPECT_EQ(organic[2]["title"], "Top Hotels in New York, NY from $104 - Expedia");
  EXPECT_EQ(organic[5]["title"], "42 Best Hotels in New York City | Cond\u00e9 Nast Traveler");
  EXPECT_EQ(result.body["relatedSearches"][0]["query"], "Hotels nyc downtown");
  EXPECT_EQ(result.body["pagination"]["current"], 1);
}

// Google's real "unusual traffic" page (tests/sites/google/pages/blocks/).
std::string sorry_page() {
  return gleaner::testing::site_page("google",
                                     "blocks/google-search-sorry-captcha-fr-2025-11.html");
}

// A search Google sends to its captcha: the plain road's answer is a redirect to /sorry/, which it
// leaves to the browser road, where the block detection names the wall.
TEST(LightSerpInChromium, GooglesSorryPageIsUpstreamBlocked) {
  TempReplayArchive archive;
  TempReplayArchive::Entry sorry;
  sorry.url = "https://www.google.com/search?q=coffee&gbv=1";
  sorry.status = 302;
  sorry.headers["location"] = "https://www.google.com/sorry/index?continue=x";
  archive.add(sorry);
  TempReplayArchive::Entry captcha;
  captcha.url = "https://www.google.com/sorry/index?continue=x";
  captcha.source = sorry_page();
  captcha.status = 429;
  archive.add(captcha);
  auto replay = archive.load();
  EXPECT_EQ(error_in_chromium(light_endpoint(), replay, {{"q", "coffee"}}).code(),
            ErrorCode::UpstreamBlocked);
  // Asked for on the plain road, then in the browser.
  EXPECT_EQ(requested(*replay, "https://www.google.com/search").size(), 2u);
}

// The captcha answering the plain road only (429, then 200 with the page's markup and no result
// in it): the browser road asks again and reads the results.
TEST(LightSerpInChromium, TheCaptchaOnThePlainRoadIsAskedAgainInTheBrowser) {
  for (const int status : {429, 200}) {
    SCOPED_TRACE(status);
    TempReplayArchive archive;
    archive.file("https://www.google.com/search?q=coffee&gbv=1",
                 page("serp-parser_nojs_coffee_en_2023-06.html"));
    auto wall =
        std::make_shared<testing::WallOnce>("https://www.google.com/search", sorry_page(), status);
    auto result = testing::run_with(light_endpoint(), {wall, archive.load()}, {{"q", "coffee"}});
    EXPECT_TRUE(wall->walled());
    EXPECT_EQ(result.road, Road::Browser);
    ASSERT_EQ(result.body["organicResults"].size(), 10u);
    EXPECT_EQ(result.body["organicResults"][0]["title"], "Coffee - Wikipedia");
  }
}

TEST(LightSerpInChromium, The2020LayoutsCardsAreReadAsThe2023Ones) {
  TempReplayArchive archive;
  add_2020_capture(archive, "https://www.google.com/search?q=The+Matrix&gbv=1",
                   "serp-parser_nojs_the-matrix_en_2020-10.html",
                   "https://www.google.com/search?q=The+Matrix&safe=off&gl=US&pws=0&nfpr=1&"
                   "ie=UTF-8&oe=UTF-8&gbv=1&sei=Ze2CX-zwHq6alwTF6ZSYBw");
  auto result = run_in_chromium(light_endpoint(), archive.load(), {{"q", "The Matrix"}});
  EXPECT_EQ(result.road, Road::Plain);
  const auto& organic = result.body["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "The Matrix - Wikipedia");
  EXPECT_EQ(organic[0]["link"], "https://en.wikipedia.org/wiki/The_Matrix");
  EXPECT_EQ(organic[0]["displayedLink"], "en.wikipedia.org \u203a wiki \u203a The_Matrix");
  EXPECT_EQ(organic[0]["source"], "en.wikipedia.org");
  EXPECT_EQ(organic[0]["snippet"].get<std::string>().rfind(
                "The Matrix is a 1999 American science fiction action film", 0),
            0u);
  EXPECT_EQ(organic[0]["sitelinks"][0],
            (nlohmann::json{{"title", "Franchise"},
                            {"link", "https://en.wikipedia.org/wiki/The_Matrix_(franchise)"}}));
  EXPECT_EQ(organic[1]["title"], "The Matrix (1999) - IMDb");
  EXPECT_EQ(organic[2]["link"], "https://www.youtube.com/watch?v=vKQi3bBA1y8");
  EXPECT_EQ(organic[9]["title"], "Cool things you didn't know about 'The Matrix' movies - Insider");
  EXPECT_EQ(organic[9]["position"], 10);
  const auto& related = result.body["relatedSearches"];
  ASSERT_EQ(related.size(), 8u);
  EXPECT_EQ(related[0]["query"], "The Matrix trilogy");
  EXPECT_EQ(related[7]["query"], "The matrix trailer");
  EXPECT_NE(result.body["pagination"]["next"].get<std::string>().find("start=10"),
            std::string::npos);
}

TEST(LightSerpInChromium, ASearchThatMatchedNothingIsAnAnswer) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=sfl234dsf14sfj323JJJJJfa345fdf45&gbv=1",
               page("serp-parser_nojs_no-results_en_2023-06.html"));
  auto result = run_in_chromium(light_endpoint(), archive.load(),
                                {{"q", "sfl234dsf14sfj323JJJJJfa345fdf45"}});
  // The page says it found nothing: an answer of the plain road, no wall to judge.
  EXPECT_EQ(result.road, Road::Plain);
  expect_no_match(result.body);
}

TEST(LightSerpInChromium, The2020LayoutsNoMatchPage) {
  TempReplayArchive archive;
  add_2020_capture(
      archive, "https://www.google.com/search?q=sfl234dsf14sfj323JJJJJfa345fdf45&num=100&gbv=1",
      "serp-parser_nojs_no-results_en_2020-10.html",
      "https://www.google.com/search?q=sfl234dsf14sfj323JJJJJfa345fdf45&num=100&safe=off&gl=US&"
      "pws=0&nfpr=1&ie=UTF-8&oe=UTF-8&gbv=1&sei=Qq2AX9jqL-yK4-EP2fa68A4");
  auto replay = archive.load();
  auto result = run_in_chromium(light_endpoint(), replay,
                                {{"q", "sfl234dsf14sfj323JJJJJfa345fdf45"}, {"num", "100"}});
  EXPECT_EQ(requested(*replay, "https://www.google.com/search").front(),
            "https://www.google.com/search?q=sfl234dsf14sfj323JJJJJfa345fdf45&num=100&gbv=1");
  EXPECT_EQ(result.road, Road::Plain);
  expect_no_match(result.body);
}

TEST(LightSerpInChromium, The2020LayoutWithAHundredAskedFor) {
  TempReplayArchive archive;
  add_2020_capture(archive, "https://www.google.com/search?q=google&num=100&gbv=1",
                   "serp-parser_nojs_google-num100_en_2020-10.html",
                   "https://www.google.com/search?q=google&num=100&safe=off&gl=US&pws=0&nfpr=1&"
                   "ie=UTF-8&oe=UTF-8&gbv=1&sei=_oiBX-O4M9KQtQX6w4Bg");
  auto result =
      run_in_chromium(light_endpoint(), archive.load(), {{"q", "google"}, {"num", "100"}});
  EXPECT_EQ(result.road, Road::Plain);
  const auto& organic = result.body["organicResults"];
  std::string titles;
  for (const auto& r : organic) titles += r["title"].get<std::string>() + "\n";
  ASSERT_EQ(organic.size(), 46u) << titles;
  EXPECT_EQ(organic[0]["title"], "Google");
  EXPECT_EQ(organic[0]["link"], "https://www.google.com/");
  EXPECT_EQ(organic[1]["title"], "Browse All of Google's Products & Services - Google");
  EXPECT_EQ(organic[1]["link"], "https://about.google/products/");
  EXPECT_EQ(organic[45]["position"], 46);
  EXPECT_EQ(organic[45]["title"], "Googling the Chrome O/S - Video | ZDNet");
}

// A 2020 basic page in Portuguese (pt-PT) whose bytes are ISO-8859-1 under a UTF-8 meta: Google
// names that charset in its content-type, and the text comes out as the user reads it.
TEST(LightSerpInChromium, APortuguesePageInIso88591) {
  TempReplayArchive archive;
  add_2020_capture(
      archive, "https://www.google.com/search?q=coffee&hl=pt-PT&gbv=1",
      "serp-parser_nojs_coffee_ptPT_iso-8859-1_2020-10.html",
      "https://www.google.com/search?q=coffee&ie=UTF-8&gbv=1&sei=36iAX_SUOdH7wQOMpbbwAQ",
      "ISO-8859-1");
  auto result =
      run_in_chromium(light_endpoint(), archive.load(), {{"q", "coffee"}, {"hl", "pt-PT"}});
  // Decoded without a browser as the browser decodes it.
  EXPECT_EQ(result.road, Road::Plain);
  const auto& organic = result.body["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "Coffee - Wikipedia");
  EXPECT_EQ(organic[1]["title"], "11 Best Coffee Shops in Lisbon | Condé Nast Traveler");
  EXPECT_EQ(organic[1]["date"], "14/11/2018");
  EXPECT_EQ(organic[2]["title"], "Fábrica Coffee Roasters");
  EXPECT_EQ(organic[2]["snippet"].get<std::string>().rfind(
                "Fábrica Coffee Roasters was created with the strong belief", 0),
            0u);
  EXPECT_EQ(organic[3]["displayedLink"],
            "www.zomato.com \u203a Portugal \u203a Grande Lisboa \u203a Lisboa \u203a Chiado");
  EXPECT_EQ(organic[5]["snippet"].get<std::string>().rfind(
                "O maior evento realizado em Portugal para celebrar o amor dos portugueses pelo "
                "café",
                0),
            0u);
  EXPECT_EQ(organic[9]["title"], "Wholesale coffee — the mill");
  const auto& related = result.body["relatedSearches"];
  ASSERT_FALSE(related.empty());
  EXPECT_EQ(related[0]["query"], "coffee (tradução)");
  EXPECT_EQ(related[1]["query"], "Fábrica Coffee Roasters");
  // "Próximo >", labelled "Página seguinte": the next page found without its English label.
  EXPECT_NE(result.body["pagination"]["next"].get<std::string>().find("start=10"),
            std::string::npos)
      << result.body["pagination"];
}

}  // namespace
}  // namespace gleaner::extract::google
