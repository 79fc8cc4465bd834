// GET /scrape/bing/serp end to end in real Chromium over the real Bing results pages kept in
// pages/bing-serp: saved in 2021 with JavaScript off (market en-GB from Spain, a search that found
// nothing among them), full pages of 2019-2020 from the Swiss, German and French markets, and
// pages of 2025-2026 in Chinese (cn.bing.com's too), German and English (one saved after Bing's
// scripts ran); and over Bing's Turnstile challenge of 2026 in four languages (pages/blocks).
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::bing {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

const std::string kCoffee =
    gleaner::testing::site_page("bing", "bing-serp/bing-serp-coffee-engb-saved-nojs-2021-01.html");
const std::string kMatrix = gleaner::testing::site_page(
    "bing", "bing-serp/bing-serp-the-matrix-engb-saved-nojs-2021-01.html");

std::string page(const std::string& file) {
  return gleaner::testing::site_page("bing", "bing-serp/" + file);
}

// The answer for `q` on a kept real page (pages/bing-serp/<file>), served for every search.
nlohmann::json serp_on(const std::string& file, const std::string& q) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.bing.com/search?q=", page(file)));
  return run_in_chromium(serp_endpoint(), archive.load(), {{"q", q}}).body;
}

TEST(BingSerpInChromium, CoffeeAsAPersonReadsIt) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.bing.com/search?q=coffee", kCoffee));
  auto replay = archive.load();
  auto result = run_in_chromium(serp_endpoint(), replay,
                                {{"q", "coffee"}, {"mkt", "en-gb"}, {"safe", "moderate"}});
  EXPECT_EQ(requested(*replay, "https://www.bing.com/").front(),
            "https://www.bing.com/search?q=coffee&mkt=en-gb&adlt=moderate");
  const auto& b = result.body;
  ASSERT_EQ(b["organicResults"].size(), 4u);
  EXPECT_EQ(b["organicResults"][0]["position"], 1);
  EXPECT_EQ(b["organicResults"][0]["title"], "coffee - English-Spanish Dictionary - …");
  EXPECT_EQ(b["organicResults"][0]["link"],
            "http://www.wordreference.com/es/translation.asp?tranword=coffee");
  EXPECT_EQ(b["organicResults"][0]["displayedLink"],
            "www.wordreference.com/es/translation.asp?tranword=coffee");
  EXPECT_EQ(b["organicResults"][0]["source"], "wordreference.com");
  EXPECT_TRUE(b["organicResults"][0]["snippet"].get<std::string>().starts_with(
      "coffee - Translation to Spanish"));
  // Four ads above the results and more below them, each a bing.com/aclick tracker.
  ASSERT_GT(b["ads"].size(), 4u);
  EXPECT_EQ(b["ads"][0]["title"], "Coffee Capsule - Cafeteras, Teteras, Accesorios");
  EXPECT_EQ(b["ads"][0]["blockPosition"], "top");
  EXPECT_EQ(b["ads"][0]["displayedLink"], "http://www.amazon.es/Cafe-Te");
  EXPECT_EQ(b["ads"][0]["description"], "Envío gratis con Amazon Prime");
  EXPECT_TRUE(b["ads"][0]["link"].get<std::string>().starts_with("https://www.bing.com/aclick?"));
  EXPECT_EQ(b["ads"].back()["blockPosition"], "bottom");
  EXPECT_EQ(b["relatedSearches"][0]["query"], "coffee time");
  EXPECT_EQ(b["searchInformation"]["totalResults"], 77100000);
  EXPECT_EQ(b["pagination"]["currentPage"], 1);
  EXPECT_EQ(b["pagination"]["next"],
            "https://www.bing.com/search?q=coffee&search=&first=5&FORM=PORE");
}

TEST(BingSerpInChromium, TheMatrixCountsOnlyTopLevelResults) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.bing.com/search?q=The+Matrix", kMatrix));
  auto result =
      run_in_chromium(serp_endpoint(), archive.load(), {{"q", "The Matrix"}, {"first", "11"}});
  const auto& organic = result.body["organicResults"];
  ASSERT_GE(organic.size(), 3u);
  EXPECT_EQ(organic[0]["position"], 11);
  EXPECT_EQ(organic[0]["link"], "https://es.wikipedia.org/wiki/The_Matrix");
  EXPECT_EQ(organic[0]["title"], "The Matrix - Wikipedia, la enciclopedia libre");
  bool imdb = false;
  for (const auto& r : organic) {
    if (r["title"] == "The Matrix (1999) - IMDb") imdb = true;
  }
  EXPECT_TRUE(imdb);
  EXPECT_EQ(result.body["searchInformation"]["totalResults"], 777000000);
}

TEST(BingSerpInChromium, SwissMarketKaffeemaschineWithAdsAboveAndBelow) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.bing.com/search?q=kaffeemaschine+kaufen",
                                    page("bing-serp-kaffeemaschine-kaufen-dech-2019-08.html")));
  auto replay = archive.load();
  auto result =
      run_in_chromium(serp_endpoint(), replay, {{"q", "kaffeemaschine kaufen"}, {"mkt", "de-ch"}});
  EXPECT_EQ(requested(*replay, "https://www.bing.com/search").front(),
            "https://www.bing.com/search?q=kaffeemaschine+kaufen&mkt=de-ch");
  const auto& b = result.body;
  const auto& organic = b["organicResults"];
  ASSERT_EQ(organic.size(), 6u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "Kaffeemaschinen und Teemaschinen - G\u00fcnstig \u2026");
  EXPECT_EQ(organic[0]["link"],
            "https://www.fust.ch/de/r/kuechengeraete/kaffeemaschinen-und-teemaschinen-10.html");
  EXPECT_EQ(organic[0]["source"], "fust.ch");
  EXPECT_TRUE(organic[0]["snippet"].get<std::string>().starts_with(
      "Kaufen Sie g\u00fcnstig Kaffeemaschinen und Teemaschinen im Fust Online-Shop"));
  EXPECT_EQ(organic[3]["title"], "JURA-Kaffeemaschinen online kaufen - JURA Schweiz");
  EXPECT_EQ(organic[3]["link"], "https://ch.jura.com/de");
  EXPECT_EQ(organic[3]["displayedLink"], "https://ch.jura.com");
  EXPECT_EQ(organic[5]["source"], "ricardo.ch");
  // "1’100’000 results": the Swiss grouping mark.
  EXPECT_EQ(b["searchInformation"]["totalResults"], 1100000);
  // Four ads above the results with their sitelinks, three below.
  const auto& ads = b["ads"];
  ASSERT_EQ(ads.size(), 7u) << ads.dump();
  EXPECT_EQ(ads[0]["title"], "Alternative zu Mespresso - Kapselmaschine kaufen ab 9 Fr");
  EXPECT_EQ(ads[0]["blockPosition"], "top");
  EXPECT_EQ(ads[0]["displayedLink"], "https://www.beanarella.ch");
  EXPECT_EQ(ads[0]["source"], "beanarella.ch");
  EXPECT_TRUE(ads[0]["description"].get<std::string>().starts_with(
      "100% kompostierbare Kaffeekapseln ohne Aluminium."));
  ASSERT_EQ(ads[0]["sitelinks"].size(), 4u);
  EXPECT_EQ(ads[0]["sitelinks"][1]["title"], "Gourmetkaffee");
  EXPECT_EQ(ads[3]["title"], "Kaffeemaschinen kaufen - Top-Qualit\u00e4t");
  EXPECT_EQ(ads[4]["blockPosition"], "bottom");
  EXPECT_EQ(ads[6]["title"], "Kaffee Partner Kaffeeautomaten - F\u00fcr den perfekten Service");
  ASSERT_EQ(b["relatedSearches"].size(), 8u);
  EXPECT_EQ(b["relatedSearches"][0]["query"], "kaffeemaschine kaufen g\u00fcnstig");
  EXPECT_EQ(b["relatedSearches"][7]["query"], "jura kaffeemaschine kaufen");
  EXPECT_EQ(b["pagination"]["currentPage"], 1);
  EXPECT_NE(b["pagination"]["next"].get<std::string>().find("first=7"), std::string::npos);
  EXPECT_EQ(b["pagination"]["otherPages"].size(), 4u);
}

TEST(BingSerpInChromium, GermanMarketCarTiresWithAdsOnlyBelow) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.bing.com/search?q=car+tires",
                                    page("bing-serp-car-tires-dede-2019-09.html")));
  auto result =
      run_in_chromium(serp_endpoint(), archive.load(), {{"q", "car tires"}, {"mkt", "de-de"}});
  const auto& b = result.body;
  const auto& organic = b["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "Tire Rack");
  EXPECT_EQ(organic[0]["link"],
            "https://www.tirerack.com/content/tirerack/desktop/en/homepage.html");
  EXPECT_EQ(organic[0]["displayedLink"], "https://www.tirerack.com");
  EXPECT_EQ(organic[2]["title"], "dict.cc W\u00f6rterbuch :: car tire :: Englisch-Deutsch \u2026");
  EXPECT_EQ(organic[9]["title"], "Onlinetires.com - Lowest Tire Prices on the Web. Period!");
  EXPECT_EQ(organic[9]["position"], 10);
  // "65.500.000 results".
  EXPECT_EQ(b["searchInformation"]["totalResults"], 65500000);
  const auto& ads = b["ads"];
  ASSERT_EQ(ads.size(), 3u) << ads.dump();
  for (const auto& ad : ads) EXPECT_EQ(ad["blockPosition"], "bottom");
  EXPECT_EQ(ads[0]["title"], "Car Tires - bei Amazon.de");
  EXPECT_EQ(ads[0]["displayedLink"], "http://www.amazon.de/Car Tires");
  EXPECT_EQ(ads[0]["source"], "amazon.de");
  EXPECT_EQ(ads[2]["displayedLink"], "www.ebay.de/car tires");
  EXPECT_EQ(ads[2]["source"], "ebay.de");
  EXPECT_EQ(ads[2]["description"], "Folge Deiner Leidenschaft bei eBay!");
  EXPECT_EQ(
      b["relatedSearches"],
      (nlohmann::json{{{"query", "my summer car tires"}, {"link", b["relatedSearches"][0]["link"]}},
                      {{"query", "tire rack"}, {"link", b["relatedSearches"][1]["link"]}}}));
}

TEST(BingSerpInChromium, FrenchMarketFirstPageGroupsItsCountWithSpaces) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.bing.com/search?q=test+keyword",
                                    page("bing-serp-test-keyword-frfr-2020-01.html")));
  auto result =
      run_in_chromium(serp_endpoint(), archive.load(), {{"q", "test keyword"}, {"mkt", "fr-fr"}});
  const auto& b = result.body;
  const auto& organic = b["organicResults"];
  ASSERT_EQ(organic.size(), 6u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "Keyword Tests | TestComplete Documentation");
  EXPECT_EQ(organic[2]["title"], "Keyword Tool Est La Meilleure Alternative A Google \u2026");
  EXPECT_EQ(organic[2]["link"], "https://keywordtool.io/fr");
  EXPECT_EQ(organic[4]["title"],
            "Choisissez les bons mots cl\u00e9s gr\u00e2ce \u00e0 nos outils de ...");
  // "3&#160;600&#160;000 results": no-break spaces between the groups.
  EXPECT_EQ(b["searchInformation"]["totalResults"], 3600000);
  ASSERT_EQ(b["ads"].size(), 2u);
  EXPECT_EQ(b["ads"][0]["title"],
            "Adobe d\u00e9passe ses concurrents. - Dans le domaine publicitaire.");
  EXPECT_EQ(b["ads"][0]["displayedLink"], "https://www.adobe.com/ExperienceCloud/Publicit\u00e9");
  EXPECT_EQ(b["ads"][0]["source"], "adobe.com");
  EXPECT_EQ(b["ads"][1]["blockPosition"], "bottom");
  EXPECT_EQ(b["relatedSearches"][0]["query"], "google keyword test");
}

TEST(BingSerpInChromium, FrenchMarketSecondPageReadsItsPagerAndTheTotalAfterTheRange) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.bing.com/search?q=test+keyword",
                                    page("bing-serp-test-keyword-frfr-page2-2020-01.html")));
  auto replay = archive.load();
  auto result = run_in_chromium(serp_endpoint(), replay,
                                {{"q", "test keyword"}, {"mkt", "fr-fr"}, {"first", "7"}});
  EXPECT_EQ(requested(*replay, "https://www.bing.com/search").front(),
            "https://www.bing.com/search?q=test+keyword&first=7&mkt=fr-fr");
  const auto& b = result.body;
  const auto& organic = b["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["position"], 7);
  EXPECT_EQ(organic[0]["title"], "Keywords - TestLink");
  EXPECT_EQ(organic[0]["link"], "http://testlink.sourceforge.net/docs/docs/toc.php?page=16");
  EXPECT_EQ(organic[1]["title"], "is - R\u00e9f\u00e9rence C# | Microsoft Docs");
  EXPECT_EQ(organic[9]["position"], 16);
  // The result shown without a caption has no snippet.
  EXPECT_EQ(organic[8]["title"], "Test - Toutes les infos du mot cl\u00e9 jour par jour - \u2026");
  EXPECT_FALSE(organic[8].contains("snippet"));
  // "7-16 of 3 600 000 results": the total, not the range's first number.
  EXPECT_EQ(b["searchInformation"]["totalResults"], 3600000);
  // Page 2 starts at first=7 (page 1 showed six results): the pager says which page it is.
  EXPECT_EQ(b["pagination"]["currentPage"], 2);
  EXPECT_TRUE(b["pagination"]["otherPages"].contains("1"));
  EXPECT_FALSE(b["pagination"]["otherPages"].contains("2"));
  EXPECT_NE(b["pagination"]["next"].get<std::string>().find("first=17"), std::string::npos);
}

TEST(BingSerpInChromium, FiftyAskedForThirtyTwoShown) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.bing.com/search?q=bing",
                                    page("bing-serp-bing-count50-engb-saved-nojs-2021-01.html")));
  auto replay = archive.load();
  auto result = run_in_chromium(serp_endpoint(), replay, {{"q", "bing"}, {"count", "50"}});
  EXPECT_EQ(requested(*replay, "https://www.bing.com/search").front(),
            "https://www.bing.com/search?q=bing&count=50");
  const auto& organic = result.body["organicResults"];
  ASSERT_EQ(organic.size(), 32u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "Bing");
  EXPECT_EQ(organic[0]["link"], "https://www.bing.com/");
  EXPECT_EQ(organic[1]["title"], "Bing - Descargar para PC Gratis - Malavida");
  EXPECT_EQ(organic[31]["position"], 32);
  EXPECT_EQ(organic[31]["title"], "ANINE BING (@aninebing) \u2022 Instagram photos and videos");
  EXPECT_EQ(organic[31]["source"], "instagram.com");
  EXPECT_EQ(result.body["searchInformation"]["totalResults"], 106000000);
  EXPECT_NE(result.body["pagination"]["next"].get<std::string>().find("first=32"),
            std::string::npos);
}

TEST(BingSerpInChromium, ResultsBetweenThePlacesAndVideosAnswers) {
  const auto body = serp_on("bing-serp-hotels-nyc-engb-saved-nojs-2021-01.html", "hotels NYC");
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 4u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "THE 10 BEST Hotels in New York City for 2021 (from $83 ...");
  EXPECT_EQ(organic[0]["link"],
            "https://www.tripadvisor.com/Hotels-g60763-New_York_City_New_York-Hotels.html");
  EXPECT_EQ(organic[1]["source"], "hotels.com");
  EXPECT_EQ(organic[2]["link"], "https://www.booking.com/city/us/new-york.html");
  EXPECT_EQ(organic[3]["title"], "LOS 10 MEJORES hoteles en Nueva York de 2021. \u2026");
  EXPECT_EQ(organic[3]["source"], "tripadvisor.es");
  EXPECT_EQ(body["searchInformation"]["totalResults"], 23800000);
  // Four ads above and four below, the last of those the first ad again.
  const auto& ads = body["ads"];
  ASSERT_EQ(ads.size(), 8u) << ads.dump();
  EXPECT_EQ(ads[0]["title"], "780 Hoteles en Nueva York, NY - Hasta 50% menos en hoteles");
  EXPECT_EQ(ads[0]["displayedLink"], "http://www.booking.com/Nueva-York/Hoteles");
  EXPECT_EQ(ads[2]["title"], "Hoteles en Nueva York - Ahorra en Tu Hotel Aqu\u00ed - trivago.es");
  EXPECT_EQ(ads[3]["blockPosition"], "top");
  EXPECT_EQ(ads[4]["blockPosition"], "bottom");
  EXPECT_EQ(ads[4]["title"], "Hotel ny - Los 10 mejores hoteles - tripadvisor.es");
  EXPECT_EQ(ads[4]["source"], "tripadvisor.es");
  EXPECT_EQ(ads[7]["title"], ads[0]["title"]);
}

TEST(BingSerpInChromium, ASearchThatFoundNothingIsAnAnswer) {
  const auto body = serp_on("bing-serp-no-results-engb-saved-nojs-2021-01.html",
                            "sfl234dsf14sfj323JJJJJfa345fdf45");
  const auto& b = body;
  EXPECT_TRUE(b["organicResults"].empty());
  EXPECT_EQ(b["searchInformation"]["totalResults"], 0);
  EXPECT_FALSE(b.contains("ads"));
  EXPECT_FALSE(b.contains("relatedSearches"));
}

// cn.bing.com's results in Chinese (2026-05): dates written before the snippets without a mark
// ("2019年7月2日 · …", "3 天之前 · …"), the count "约 1,690,000 个结果", a pager of three pages.
TEST(BingSerpInChromium, ChineseResultsWithTheirDatesBeforeTheSnippets2026) {
  const auto body =
      serp_on("bing-serp-bilibili-zhcn-dates-before-snippets-2026-05.html", "bilibili");
  const auto& b = body;
  const auto& organic = b["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "哔哩哔哩 (゜-゜)つロ 干杯~-bilibili");
  EXPECT_EQ(organic[0]["link"], "https://www.bilibili.com/");
  EXPECT_EQ(organic[0]["source"], "bilibili.com");
  EXPECT_FALSE(organic[0].contains("date"));
  EXPECT_EQ(organic[2]["title"], "About-us - 哔哩哔哩");
  EXPECT_EQ(organic[2]["displayedLink"], "https://www.bilibili.com › aboutus");
  EXPECT_EQ(organic[2]["date"], "2019年7月2日");
  EXPECT_TRUE(organic[2]["snippet"].get<std::string>().starts_with(
      "With our website first launched in June 2009"));
  EXPECT_EQ(organic[6]["date"], "3 天之前");
  EXPECT_TRUE(organic[6]["snippet"].get<std::string>().starts_with("新浪微博 bilibili 关于我们"));
  EXPECT_EQ(organic[7]["date"], "2026年4月27日");
  EXPECT_EQ(organic[9]["link"], "https://h.bilibili.com/ywh/h5/home");
  EXPECT_EQ(b["searchInformation"]["totalResults"], 1690000);
  EXPECT_EQ(b["pagination"]["currentPage"], 1);
  EXPECT_EQ(b["pagination"]["otherPages"].size(), 2u);
  EXPECT_FALSE(b.contains("ads"));
}

// A Chinese search in the English interface (2026-01): "3 days ago · …" and "Aug 4, 2025 · …"
// before the snippets, unmarked; "About 11,400,000 results".
TEST(BingSerpInChromium, EnglishInterfaceDatesBeforeTheSnippets2026) {
  const auto body =
      serp_on("bing-serp-chinese-query-en-interface-2026-01.html", "手术直播间 笔趣阁 目录");
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "《永劫无间》官网 | S19穿云赛季上线");
  EXPECT_EQ(organic[0]["link"], "https://www.yjwujian.cn/");
  EXPECT_EQ(organic[0]["date"], "3 days ago");
  EXPECT_TRUE(organic[0]["snippet"].get<std::string>().starts_with("S19穿云赛季，现已上线！"));
  EXPECT_EQ(organic[1]["date"], "Aug 4, 2025");
  EXPECT_FALSE(organic[2].contains("date"));
  EXPECT_EQ(organic[2]["source"], "apps.microsoft.com");
  EXPECT_EQ(organic[5]["date"], "Dec 28, 2011");
  EXPECT_EQ(organic[9]["title"], "永劫无间 | 在Epic游戏商城免费下载游玩");
  EXPECT_EQ(body["searchInformation"]["totalResults"], 11400000);
}

// The German interface (2026-03): dates marked `span.news_dt` ("16. Aug. 2019", "9. Juni 2024"),
// "Ungefähr 89 Ergebnisse", the tabs' links through bing.com/ck/a (not results).
TEST(BingSerpInChromium, GermanInterfaceMarkedDatesAndItsCount2026) {
  const auto body = serp_on("bing-serp-popular-times-dominos-dede-2026-03.html",
                            "popular times Domino's Pizza 2800 S Joyce St Arlington VA");
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "popular的用法及短语 - 百度知道");
  EXPECT_EQ(organic[0]["link"], "https://zhidao.baidu.com/question/687449000001544252.html");
  EXPECT_EQ(organic[0]["displayedLink"], "https://zhidao.baidu.com › question");
  EXPECT_EQ(organic[0]["date"], "16. Aug. 2019");
  EXPECT_TRUE(organic[0]["snippet"].get<std::string>().starts_with("popular的用法2："));
  EXPECT_FALSE(organic[1].contains("date"));
  EXPECT_EQ(organic[3]["date"], "9. Juni 2024");
  EXPECT_EQ(organic[4]["date"], "30. Juli 2024");
  EXPECT_EQ(body["searchInformation"]["totalResults"], 89);
  EXPECT_TRUE(body["pagination"]["next"].get<std::string>().find("first=11") != std::string::npos);
}

// The document of an English results page after Bing's scripts ran (2025-05): the title link
// around the heading (`.b_algoheader > a > h2`), which `h2 a` does not find (the page answered
// 502 before); a rich card without a snippet first; "Jan 30, 2025" marked before a snippet.
TEST(BingSerpInChromium, TheLinkAroundTheHeadingOf2025) {
  const auto body = serp_on("bing-serp-site-microsoft-com-rendered-algoheader-en-2025-05.html",
                            "site:microsoft.com -site:www.microsoft.com");
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 8u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "Microsoft Support");
  EXPECT_EQ(organic[0]["link"], "https://support.microsoft.com/en-us");
  EXPECT_FALSE(organic[0].contains("snippet"));
  EXPECT_EQ(organic[1]["title"], "Sign In or Create Your Account Today - Microsoft");
  EXPECT_EQ(organic[1]["link"], "https://account.microsoft.com/account");
  EXPECT_EQ(organic[1]["displayedLink"], "https://account.microsoft.com › account");
  EXPECT_TRUE(
      organic[1]["snippet"].get<std::string>().starts_with("Sign In with your Microsoft account."));
  EXPECT_EQ(organic[6]["title"], "Customer service phone numbers - Microsoft Support");
  EXPECT_EQ(organic[6]["date"], "Jan 30, 2025");
  EXPECT_TRUE(organic[6]["snippet"].get<std::string>().starts_with("Notes: Please note"));
  EXPECT_EQ(organic[7]["title"], "Training | Microsoft Learn");
}

// An English page of 2025-01 with a videos answer after the first results and related searches:
// 10 results (the answer's items are not among them), one of them showing a list where others
// show a snippet (no snippet is answered for it), 13,000,000 results, pages 2 to 4.
TEST(BingSerpInChromium, ResultsAroundAVideosAnswer2025) {
  const auto body = serp_on("bing-serp-tell-me-about-kazakhstan-videos-answer-en-2025-01.html",
                            "tell me about Kazakhstan");
  const auto& b = body;
  const auto& organic = b["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "Kazakhstan - Wikipedia");
  EXPECT_EQ(organic[0]["link"], "https://en.wikipedia.org/wiki/Kazakhstan");
  EXPECT_TRUE(organic[0]["snippet"].get<std::string>().starts_with(
      "Kazakhstan is the world's ninth-largest country by land area"));
  EXPECT_EQ(organic[1]["title"], "Top 10 Interesting Facts About Kazakhstan - WorldAtlas");
  EXPECT_FALSE(organic[1].contains("snippet"));
  EXPECT_EQ(organic[3]["title"], "Kazakhstan | History, People, Map, Pronunciation");
  EXPECT_EQ(organic[3]["date"], "1 day ago");
  EXPECT_EQ(organic[4]["date"], "Aug 7, 2024");
  EXPECT_EQ(organic[6]["link"], "http://www.natcom.unesco.kz/about/about_kz.html");
  EXPECT_EQ(organic[9]["title"], "» FACTS ABOUT KAZAKHSTAN International");
  EXPECT_EQ(b["relatedSearches"].size(), 8u);
  EXPECT_EQ(b["relatedSearches"][0]["query"], "what country is kazakhstan located");
  EXPECT_EQ(b["searchInformation"]["totalResults"], 13000000);
  EXPECT_EQ(b["pagination"]["otherPages"].size(), 3u);
}

// An English page of 2026-06 whose results link through Bing's redirect
// (`bing.com/ck/a?…&u=a1<address in base64url>`): each result's link is the address inside.
TEST(BingSerpInChromium, ResultsLinkedThroughBingsRedirect2026) {
  const auto body = serp_on("bing-serp-accion-microfinance-ck-redirect-links-en-2026-06.html",
                            "Accion Microfinance Bank Nigeria website");
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "Financial services for the people who power our world - Accion");
  EXPECT_EQ(organic[0]["link"], "https://www.accion.org/");
  EXPECT_EQ(organic[0]["source"], "accion.org");
  EXPECT_EQ(organic[0]["displayedLink"], "https://www.accion.org");
  EXPECT_EQ(organic[1]["link"], "https://en.wikipedia.org/wiki/Accion_International");
  EXPECT_EQ(organic[2]["link"], "https://www.spanishdict.com/translate/acci%C3%B3n");
  EXPECT_EQ(organic[2]["displayedLink"], "https://www.spanishdict.com › translate › acción");
  EXPECT_EQ(organic[8]["title"], "Accion MFB - Building the Future of Small Businesses");
  EXPECT_EQ(organic[8]["link"], "https://www.accionmfb.com/");
  EXPECT_EQ(organic[9]["link"], "https://thegiin.org/member/accion/");
  EXPECT_EQ(body["searchInformation"]["totalResults"], 112000);
}

// The Chinese interface of 2026-07, a search restricted to PDFs ("机器学习 filetype:pdf", a
// scraper's raw answer): ten results, dates before five snippets ("2024年1月10日 · …",
// "2026年1月27日 · …"), "约 69,100 个结果", pages 2 and 3.
TEST(BingSerpInChromium, ChineseInterfaceAFiletypeSearch2026) {
  const auto body = serp_on("bing-serp-machine-learning-filetype-pdf-zh-2026-07.html",
                            "机器学习 filetype:pdf");
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "机器学习简介 - 菜鸟教程");
  EXPECT_EQ(organic[0]["link"], "https://www.runoob.com/ml/ml-intro.html");
  EXPECT_EQ(organic[0]["displayedLink"], "https://www.runoob.com › ml › ml-intro.html");
  EXPECT_FALSE(organic[0].contains("date"));
  EXPECT_EQ(organic[2]["title"], "机器学习算法 - 一文搞懂ML（机器学习） - 知乎");
  EXPECT_EQ(organic[2]["source"], "zhuanlan.zhihu.com");
  EXPECT_EQ(organic[2]["date"], "2024年1月10日");
  EXPECT_TRUE(organic[2]["snippet"].get<std::string>().starts_with(
      "人工智能的目标是让计算机能够执行"));
  EXPECT_EQ(organic[8]["link"],
            "https://developers.google.cn/machine-learning/intro-to-ml/what-is-ml?hl=zh-cn");
  EXPECT_EQ(organic[8]["date"], "2026年1月27日");
  EXPECT_EQ(organic[9]["link"], "https://cloud.tencent.com/developer/article/2504954");
  EXPECT_EQ(body["searchInformation"]["totalResults"], 69100);
  EXPECT_EQ(body["pagination"]["currentPage"], 1);
  EXPECT_EQ(body["pagination"]["otherPages"].size(), 2u);
  EXPECT_FALSE(body.contains("ads"));
  EXPECT_FALSE(body.contains("relatedSearches"));
}

// An English search of 2025-05 around a map of places and a "People also ask" answer whose six
// answers are each a `div.b_algo` (a scraper's saved page, 480 KB): only the ten `li.b_algo`
// of the list are results; "About 1,100,000 results", pages 2 to 5.
TEST(BingSerpInChromium, ThePeopleAlsoAskAnswersAreNotResults2025) {
  const auto body =
      serp_on("bing-serp-eyeglasses-store-texas-en-2025-05.html", "Eyeglasses store Texas USA");
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "Eyeglass World Locations in Texas");
  EXPECT_EQ(organic[0]["link"], "https://www.eyeglassworld.com/location/tx/");
  EXPECT_EQ(organic[0]["source"], "eyeglassworld.com");
  EXPECT_EQ(organic[1]["title"], "America's Best Store Locations - America's Best …");
  EXPECT_EQ(organic[6]["link"], "https://paireyewear.com/store-locator");
  EXPECT_EQ(organic[8]["title"], "HOME | Factory Eyeglass Outlet");
  EXPECT_EQ(organic[9]["link"], "https://santafeoptical.com/");
  for (const auto& r : organic) {  // one of the answer's six
    EXPECT_FALSE(r["title"].get<std::string>().starts_with("Real Estate Roundup")) << r.dump();
  }
  EXPECT_EQ(body["searchInformation"]["totalResults"], 1100000);
  EXPECT_EQ(body["pagination"]["otherPages"].size(), 4u);
}

// cn.bing.com's Chinese page of 2025-12 in its XHTML layout ("切换到国际版"): five results, no
// count and no pager shown, so neither is answered.
TEST(BingSerpInChromium, ChinaSiteFiveResultsWithoutCountOrPager2025) {
  const auto body = serp_on("bing-serp-yaan-cn-bing-zh-2025-12.html", "雅安");
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 5u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "去四川雅安想玩两天有什么路线景点美食住宿推荐？ - 知乎");
  EXPECT_EQ(organic[0]["link"], "https://www.zhihu.com/question/330467493");
  EXPECT_EQ(organic[0]["displayedLink"], "https://www.zhihu.com › question");
  EXPECT_EQ(organic[0]["source"], "zhihu.com");
  EXPECT_EQ(organic[4]["link"], "https://www.zhihu.com/question/1906306855669602018");
  EXPECT_FALSE(body.contains("searchInformation"));
  EXPECT_EQ(body["pagination"]["currentPage"], 1);
  EXPECT_FALSE(body["pagination"].contains("otherPages"));
  EXPECT_FALSE(body["pagination"].contains("next"));
}

// Bing's "One last step / Please solve the challenge below to continue" (Cloudflare Turnstile),
// in English, in Chinese, in French ("Une dernière étape", 2026-06) and in Brazilian Portuguese
// ("Uma última etapa...", 2026-03), is a wall.
TEST(BingSerpInChromium, TheTurnstileChallengeIsUpstreamBlocked) {
  for (const std::string file : {"bing-turnstile-one-last-step-en-2026-03.html",
                                 "bing-turnstile-one-last-step-zhcn-2026-07.html",
                                 "bing-turnstile-une-derniere-etape-fr-2026-06.html",
                                 "bing-turnstile-uma-ultima-etapa-ptbr-2026-03.html"}) {
    TempReplayArchive archive;
    archive.add(testing::prefix_entry("https://www.bing.com/search?q=",
                                      gleaner::testing::site_page("bing", "blocks/" + file)));
    EXPECT_EQ(error_in_chromium(serp_endpoint(), archive.load(), {{"q", "x"}}).code(),
              ErrorCode::UpstreamBlocked)
        << file;
  }
}


}  // namespace
}  // namespace gleaner::extract::bing
