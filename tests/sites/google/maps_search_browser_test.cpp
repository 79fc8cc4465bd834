// GET /scrape/google-maps/search end to end in real Chromium: the endpoint builds the Maps search
// URL, the real rendered results pages (tests/sites/google/pages/google-maps-search, fr-MA 2025;
// pages/maps, English 2026) are answered from a replay archive. On the plain road the page's own
// search answer is read (inline in the page, or fetched at the address its head names); else, on
// the browser road, maps_search.js (the scraper jobs' reader) reads the feed. The C++ shapes both.
#include <gtest/gtest.h>

#include <memory>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using nlohmann::json;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

const std::string kFes = gleaner::testing::site_page(
    "google",
    "google-maps-search/n8nscraper_search-dom_concepteur-sites-web-fes_frMA_2025-08.html");
const std::string kFesSecond = gleaner::testing::site_page(
    "google", "google-maps-search/"
              "n8nscraper_search-dom_concepteur-sites-web-fes_frMA_2025-08_second-capture.html");
constexpr const char* kFesUrl = "https://www.google.com/maps/search/Concepteur+de+sites+Web+fes";
const std::string kDelhi = gleaner::testing::site_page(
    "google", "google-maps-search/scraperdemo_search-dom_hospitals-in-delhi_enIN_2025-07.html");
constexpr const char* kDelhiUrl = "https://www.google.com/maps/search/hospitals+in+delhi";
// What the page's scripts fetch for a search of 2026 (its head names it, <link rel="preload">).
const std::string kSearchAnswer = "https://www.google.com/search?tbm=map&";

// `query` answered with the page in file `page` at `url` on the browser road: the plain road's
// request for the page gets Google's real /sorry/ captcha (429), as a walled client does, and the
// request takes the browser road, whose tab gets the page.
EndpointResult on_the_browser_road(const std::string& url, const std::string& page,
                                   const QueryParams& query) {
  TempReplayArchive archive;
  archive.file(url, page);
  auto wall = std::make_shared<testing::WallOnce>(
      url, gleaner::testing::site_page("google", "blocks/google-maps-sorry-captcha-2025-06.html"),
      429);
  EndpointResult result = testing::run_with(maps_search_endpoint(), {wall, archive.load()}, query);
  EXPECT_TRUE(wall->walled());
  EXPECT_EQ(result.road, Road::Browser);
  return result;
}

// The first two results of the fr-MA page of 2025, as a person reads its feed ("4,4 étoiles").
void expect_the_fes_cards(const json& results) {
  ASSERT_GE(results.size(), 2u);
  const json& appbox = results[0];
  EXPECT_EQ(appbox["position"], 1);
  EXPECT_EQ(appbox["title"], "Appbox");
  EXPECT_DOUBLE_EQ(appbox["rating"].get<double>(), 4.4);
  EXPECT_EQ(appbox["reviews"], 14);
  EXPECT_EQ(appbox["type"], "Concepteur de sites Web");
  EXPECT_EQ(appbox["address"], "N2 immeuble 34.av des FAR.FES MAROC");
  EXPECT_EQ(appbox["openState"], "Ouvert 24h/24");
  EXPECT_EQ(appbox["phone"], "0690-402020");
  EXPECT_EQ(appbox["dataId"], "0xd9f8b3f4fb30863:0xcc978bcc6d098499");
  EXPECT_EQ(appbox["placeId"], "ChIJYwizTz-Lnw0RmYQJbcyLl8w");
  EXPECT_EQ(appbox["kgmid"], "/g/11g6blzg5x");
  EXPECT_DOUBLE_EQ(appbox["gpsCoordinates"]["latitude"].get<double>(), 34.03098);
  EXPECT_DOUBLE_EQ(appbox["gpsCoordinates"]["longitude"].get<double>(), -4.9930138);
  EXPECT_EQ(results[1]["title"], "Metagroup cr\u00e9ation site web f\u00e9s");
  EXPECT_DOUBLE_EQ(results[1]["rating"].get<double>(), 4.8);
  EXPECT_EQ(results[1]["reviews"], 17);
}

// The first 8 results of the en-IN page of 2025 (hospitals in delhi), as a person reads its feed:
// two ads first, marked `sponsored`, where the page shows them.
void expect_the_delhi_cards(const json& results) {
  ASSERT_GE(results.size(), 8u);
  const json& ad = results[0];
  EXPECT_EQ(ad["title"], "Dr. Gautam Banga - Urologist & Reconstructive Surgeon");
  EXPECT_EQ(ad["sponsored"], true);
  EXPECT_DOUBLE_EQ(ad["rating"].get<double>(), 4.9);
  EXPECT_EQ(ad["reviews"], 90);
  EXPECT_EQ(ad["type"], "Urologist");
  EXPECT_EQ(ad["placeId"], "ChIJ77GsrLLjDDkRTno0EIMPuqk");
  EXPECT_EQ(results[1]["title"], "Apollo AyurVAID Hospitals - New Delhi");
  EXPECT_EQ(results[1]["sponsored"], true);
  const json& fortis = results[2];
  EXPECT_EQ(fortis["position"], 3);
  EXPECT_EQ(fortis["title"],
            "Fortis Flt Lt Rajan Dhall Hospital, Vasant Kunj - Best Hospital in New Delhi");
  EXPECT_FALSE(fortis.contains("sponsored"));
  EXPECT_DOUBLE_EQ(fortis["rating"].get<double>(), 4.5);
  EXPECT_EQ(fortis["reviews"], 5775);
  EXPECT_EQ(fortis["type"], "Hospital");
  EXPECT_EQ(fortis["address"], "Fortis Flt. Lt. Rajan Dhall Hospital, Aruna Asaf Ali Marg");
  EXPECT_EQ(fortis["openState"], "Open 24 hours");
  EXPECT_EQ(fortis["phone"], "097110 90119");
  EXPECT_EQ(results[3]["title"], "Venkateshwar Hospital");
  EXPECT_EQ(results[3]["reviews"], 19952);
  EXPECT_EQ(results[3]["type"], "Private hospital");
  EXPECT_EQ(results[3]["phone"], "011 4855 5555");
  EXPECT_EQ(results[7]["title"], "Manipal Hospital, Palam Vihar, Gurugram");
  EXPECT_EQ(results[7]["reviews"], 13568);
}

// The fr-MA page as served carries the site's search answer for its feed (the string at
// APP_INITIALIZATION_STATE[3][2]): its 20 results are read without a renderer, where the painted
// feed of the capture holds 8 cards.
TEST(MapsSearchInChromium, AFrenchPageIsAnsweredFromTheSearchAnswerItCarries) {
  TempReplayArchive archive;
  archive.file(kFesUrl, kFes);
  auto replay = archive.load();
  auto result =
      run_in_chromium(maps_search_endpoint(), replay, {{"q", "Concepteur de sites Web fes"}});
  EXPECT_EQ(result.road, Road::Plain);
  EXPECT_EQ(requested(*replay), std::vector<std::string>{kFesUrl});  // the page, nothing more

  const json& results = result.body["localResults"];
  ASSERT_EQ(results.size(), 20u);
  expect_the_fes_cards(results);
  const json& appbox = results[0];
  // Every category of the place, where its card shows the first.
  EXPECT_EQ(appbox["types"],
            json({"Concepteur de sites Web", "Service d'h\u00e9bergement de site Web"}));
  EXPECT_EQ(appbox["thumbnail"].get<std::string>().rfind("https://lh3.googleusercontent.com/", 0),
            0u);
  EXPECT_FALSE(appbox.contains("sponsored"));
  EXPECT_EQ(results[1]["openState"], "Ferm\u00e9 \u22c5 Ouvre \u00e0 09:00");
  EXPECT_EQ(results[19]["position"], 20);
  EXPECT_EQ(results[19]["title"], "Cabinet ABIsoft");
  EXPECT_EQ(results[19]["reviews"], 27);
}

// Both fr-MA captures: what the plain road reads from the page's search answer is what the
// browser road reads from its painted feed, card for card (the feed shows the first 8 and 7).
TEST(MapsSearchInChromium, TheFrenchPagesSearchAnswerSaysWhatTheirFeedsShow) {
  for (const std::string& page : {kFes, kFesSecond}) {
    SCOPED_TRACE(page);
    const QueryParams query = {{"q", "Concepteur de sites Web fes"}};
    TempReplayArchive archive;
    archive.file(kFesUrl, page);
    const EndpointResult plain = run_in_chromium(maps_search_endpoint(), archive.load(), query);
    EXPECT_EQ(plain.road, Road::Plain);
    const EndpointResult painted = on_the_browser_road(kFesUrl, page, query);
    const json& data = plain.body["localResults"];
    const json& cards = painted.body["localResults"];
    ASSERT_GE(cards.size(), 7u);
    ASSERT_EQ(data.size(), 20u);
    for (std::size_t i = 0; i < cards.size(); ++i) {
      SCOPED_TRACE(cards[i].dump());
      for (const char* key : {"position", "title", "rating", "reviews", "type", "address",
                              "openState", "phone", "placeId", "dataId", "kgmid"}) {
        EXPECT_EQ(data[i].value(key, json()), cards[i].value(key, json())) << key;
      }
      EXPECT_NEAR(data[i]["gpsCoordinates"]["latitude"].get<double>(),
                  cards[i]["gpsCoordinates"]["latitude"].get<double>(), 1e-6);
      EXPECT_NEAR(data[i]["gpsCoordinates"]["longitude"].get<double>(),
                  cards[i]["gpsCoordinates"]["longitude"].get<double>(), 1e-6);
      EXPECT_EQ(data[i]["types"][0], cards[i]["type"]);
    }
  }
}

// The en-IN page's search answer lists its two ads first, as its feed does (an ad's record sits
// elsewhere in the answer, with its place id and kgmid only among its ids): `sponsored`.
TEST(MapsSearchInChromium, AnIndianPagesSearchAnswerWithItsAds) {
  TempReplayArchive archive;
  archive.file(kDelhiUrl, kDelhi);
  auto result =
      run_in_chromium(maps_search_endpoint(), archive.load(), {{"q", "hospitals in delhi"}});
  EXPECT_EQ(result.road, Road::Plain);
  const json& results = result.body["localResults"];
  ASSERT_EQ(results.size(), 20u);
  expect_the_delhi_cards(results);
  EXPECT_EQ(results[0]["kgmid"], "/g/11h540m99b");
  EXPECT_EQ(results[19]["position"], 20);
}

// A composed test: the griffith page of 2026 (no search answer inline) names the answer its scripts
// fetch; here that address is answered with a real tbm=map answer of ANOTHER search (gosom's
// "coffee" near Ilion, 2024-12, pages/maps/), as no capture recorded the answer
// to this page. The answer is fetched on the plain road at the address the page names, and read.
TEST(MapsSearchInChromium, ComposedGosomsRealSearchAnswerAnsweringTheGriffithPagesPreloadAddress) {
  TempReplayArchive archive;
  const std::string url = "https://www.google.com/maps/search/griffith";
  archive.file(url, gleaner::testing::site_page("google", "maps/cocli_search-dom_griffith_en_2026-03.html"));
  archive.add(testing::prefix_entry(
      kSearchAnswer, gleaner::testing::site_page(
                         "google", "maps/gosom_search-tbm-map_coffee-ilion-athens_2024-12.json")));
  auto replay = archive.load();
  auto result = run_in_chromium(maps_search_endpoint(), replay, {{"q", "griffith"}});
  EXPECT_EQ(result.road, Road::Plain);
  const auto urls = requested(*replay);
  ASSERT_EQ(urls.size(), 2u);
  EXPECT_EQ(urls[0], url);
  EXPECT_EQ(urls[1].rfind(kSearchAnswer + "authuser=0&hl=en&gl=us&q=griffith&pb=%211sgriffith%214m8", 0),
            0u)
      << urls[1];
  const json& results = result.body["localResults"];
  ASSERT_EQ(results.size(), 20u);
  EXPECT_EQ(results[0]["title"], "Dream Coffee");
  EXPECT_DOUBLE_EQ(results[0]["rating"].get<double>(), 4.8);
  EXPECT_EQ(results[0]["reviews"], 48);
  EXPECT_EQ(results[0]["type"], "Coffee shop");
  EXPECT_EQ(results[0]["address"], "Eakou 74");
  EXPECT_EQ(results[0]["placeId"], "ChIJoRVrMS-joRQRkzrMbbRUnBY");
  EXPECT_EQ(results[0]["kgmid"], "/g/11ghrv6fdh");
  EXPECT_EQ(results[1]["title"], "Cocoza Speciality Coffee");
}

// The griffith page's named address answered with JSON that is not a search answer (a real place
// body, gosom's Kipriakon of 2023-09, pages/maps/): no result in it, so the request takes the
// browser road and reads the page's feed.
TEST(MapsSearchInChromium, ANamedAnswerThatIsNoSearchAnswerLeavesTheFeedToTheBrowser) {
  TempReplayArchive archive;
  const std::string url = "https://www.google.com/maps/search/griffith";
  archive.file(url, gleaner::testing::site_page("google", "maps/cocli_search-dom_griffith_en_2026-03.html"));
  archive.add(testing::prefix_entry(
      kSearchAnswer,
      gleaner::testing::site_page(
          "google", "maps/gosom_place-appstate-3-6_kipriakon-limassol_en_2023-09.json")));
  auto replay = archive.load();
  auto result = run_in_chromium(maps_search_endpoint(), replay, {{"q", "griffith"}});
  EXPECT_EQ(result.road, Road::Browser);
  const auto urls = requested(*replay, "https://www.google.com/");
  ASSERT_GE(urls.size(), 3u);
  EXPECT_EQ(urls[1].rfind(kSearchAnswer, 0), 0u) << urls[1];
  EXPECT_EQ(urls[2], url);
  const json& results = result.body["localResults"];
  ASSERT_EQ(results.size(), 10u);
  EXPECT_EQ(results[0]["title"], "Griffith Observatory");
  EXPECT_EQ(results[0]["type"], "Tourist attraction");
}

// The DOM road, read from the painted feed when the plain road is walled.
TEST(MapsSearchInChromium, AFrenchFeedWithItsDecimalCommas) {
  auto result = on_the_browser_road(kFesUrl, kFes, {{"q", "Concepteur de sites Web fes"}});

  const json& results = result.body["localResults"];
  ASSERT_EQ(results.size(), 8u);
  expect_the_fes_cards(results);
}

// A page of 2026 carries no search answer: it names the one its scripts fetch, which no capture
// recorded (the archive answers 404), so the request takes the browser road and reads the feed.
TEST(MapsSearchInChromium, AnEnglishFeedWithDescriptionsAndThumbnails) {
  TempReplayArchive archive;
  const std::string url = "https://www.google.com/maps/search/museums+in+New+York?hl=en";
  archive.file(url, gleaner::testing::site_page(
                        "google", "maps/cocli_search-dom_metropolitan-museum_en_2026-03.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(maps_search_endpoint(), replay,
                                {{"q", "museums in New York"}, {"hl", "en"}});
  EXPECT_EQ(result.road, Road::Browser);
  const auto urls = requested(*replay, "https://www.google.com/");
  ASSERT_GE(urls.size(), 3u);
  EXPECT_EQ(urls[0], url);  // the plain road: the page, then the answer it names
  EXPECT_EQ(urls[1].rfind(kSearchAnswer + "authuser=0&hl=en&gl=us&q=museums&pb=", 0), 0u)
      << urls[1];
  EXPECT_EQ(urls[2], url);  // the browser road
  const json& met = result.body["localResults"][0];
  EXPECT_EQ(met["title"], "The Metropolitan Museum of Art");
  EXPECT_EQ(met["type"], "Art museum");
  EXPECT_EQ(met["address"], "1000 5th Ave");
  EXPECT_EQ(met["reviews"], 91790);
  EXPECT_EQ(met["description"], "World-class art collection");
  EXPECT_EQ(met["openState"], "Closed · Opens 10 AM");
  EXPECT_EQ(met["kgmid"], "/m/09c7b");
  EXPECT_FALSE(met.contains("phone"));
}

// An en-IN feed of 2025 whose first two cards are ads (each under a "Sponsored" heading): they are
// answered where the page shows them, marked `sponsored` (the browser road, the plain one walled).
TEST(MapsSearchInChromium, AnIndianFeedWithSponsoredCards) {
  auto result = on_the_browser_road(kDelhiUrl, kDelhi, {{"q", "hospitals in delhi"}});
  const json& results = result.body["localResults"];
  ASSERT_EQ(results.size(), 8u);
  expect_the_delhi_cards(results);
}

// A de feed of 2026-03 that is complete: one card (the address the search matched in part, no
// reviews) and the site's end-of-list line after it. The answer is that card, and it comes without
// the settle wait a feed that may still grow costs (maps_browser_test.cpp checks the reader does
// not scroll it).
TEST(MapsSearchInChromium, AGermanFeedThatShowsItsEnd) {
  TempReplayArchive archive;
  const std::string url =
      "https://www.google.com/maps/search/Domino%27s+Pizza+2800+S+Joyce+St+Arlington+VA?hl=de";
  archive.file(url, gleaner::testing::site_page(
                        "google", "google-maps-search/"
                                  "arbitron_search-dom_dominos-2800-s-joyce-st-arlington-end-of-"
                                  "list_de_2026-03.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(maps_search_endpoint(), replay,
                                {{"q", "Domino's Pizza 2800 S Joyce St Arlington VA"}, {"hl", "de"}});
  EXPECT_EQ(requested(*replay).front(), url);
  const json& results = result.body["localResults"];
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0]["position"], 1);
  EXPECT_EQ(results[0]["title"], "2800 S Joyce St");
  EXPECT_FALSE(results[0].contains("rating"));
  EXPECT_FALSE(results[0].contains("reviews"));
}

TEST(MapsSearchInChromium, GooglesConsentWallIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.page(kFesUrl,
               "<html><head><title>Before you continue to Google Maps</title></head><body>"
               "<form action='https://consent.google.com/save'><p>We use cookies and data to "
               "deliver and maintain Google services</p><button>Accept all</button></form>"
               "</body></html>");
  EXPECT_EQ(error_in_chromium(maps_search_endpoint(), archive.load(),
                              {{"q", "Concepteur de sites Web fes"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::google
