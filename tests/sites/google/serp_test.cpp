// GET /scrape/search/serp without a browser: parameters, the URL each combination builds, the
// uule encoding, and the shaping of serp.js output recorded on the three fixture pages
// (tests/sites/google/data/serp/*.json, produced by running serp.js in Chromium on
// tests/sites/google/pages/serp/*.html).
#include "extract/sites/google/serp.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/registry.h"
#include "extract/sites/google/google.h"
#include "tests/support/sites/fake_tab.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google {
namespace {

nlohmann::json recorded(const std::string& name) {
  return testing::recorded("google/data/serp/" + name + ".json");
}

const Endpoint& serp() {
  return serp_endpoint();
}

std::string url_for(const QueryParams& query) {
  return serp().build_request(serp().validate(query)).url;
}

TEST(Serp, IsRegistered) {
  EXPECT_EQ(find_endpoint("/scrape/search/serp"), &serp());
  EXPECT_EQ(serp().route(), "search/serp");
}

TEST(Serp, ValidationNamesTheParameter) {
  using testing::refused;
  using testing::rejection;
  const auto invalid = ErrorCode::InvalidParameter;
  EXPECT_EQ(rejection(serp(), {}), refused(ErrorCode::MissingParameter, "q"));
  EXPECT_EQ(rejection(serp(), {{"gl", "us"}}), refused(ErrorCode::MissingParameter, "q"));
  EXPECT_EQ(rejection(serp(), {{"q", "x"}, {"gl", "usa"}}), refused(invalid, "gl"));
  EXPECT_EQ(rejection(serp(), {{"q", "x"}, {"hl", "e"}}), refused(invalid, "hl"));
  EXPECT_EQ(rejection(serp(), {{"q", "x"}, {"domain", "bing.com"}}), refused(invalid, "domain"));
  EXPECT_EQ(rejection(serp(), {{"q", "x"}, {"domain", "google.com/evil"}}),
            refused(invalid, "domain"));
  // Issue 23: two labels of two or three letters let any host under another's name through.
  for (const char* host : {"google.abc.io", "google.com.evil", "www.google.xyz.com"}) {
    EXPECT_EQ(rejection(serp(), {{"q", "x"}, {"domain", host}}), refused(invalid, "domain"))
        << host;
  }
  for (const char* host : {"google.com", "google.de", "google.co.uk", "www.google.com.au"}) {
    EXPECT_NO_THROW(serp().validate({{"q", "x"}, {"domain", host}})) << host;
  }
  EXPECT_EQ(rejection(serp(), {{"q", "x"}, {"deviceType", "watch"}}),
            refused(invalid, "deviceType"));
  EXPECT_EQ(rejection(serp(), {{"q", "x"}, {"start", "-10"}}), refused(invalid, "start"));
  EXPECT_EQ(rejection(serp(), {{"q", "x"}, {"uule", "w+CA IQ"}}), refused(invalid, "uule"));
  EXPECT_EQ(
      rejection(serp(),
                {{"q", "x"}, {"location", "Austin,Texas,United States"}, {"uule", "w+CAIQICI"}}),
      refused(ErrorCode::ConflictingParameters, "uule"));
  EXPECT_EQ(rejection(serp(), {{"q", "x"}, {"page", "2"}}), refused(invalid, "page"));
}

TEST(Serp, BuildsTheUrlAPersonWould) {
  EXPECT_EQ(url_for({{"q", "dell xps 13 buy"}}), "https://www.google.com/search?q=dell+xps+13+buy");
  EXPECT_EQ(
      url_for({{"q", "top hotels london"}, {"gl", "UK"}, {"hl", "en"}, {"domain", "google.co.uk"}}),
      "https://www.google.co.uk/search?q=top+hotels+london&gl=uk&hl=en");
  EXPECT_EQ(url_for({{"q", "珍珠奶茶"}, {"hl", "zh-tw"}, {"gl", "tw"}}),
            "https://www.google.com/search?q=%E7%8F%8D%E7%8F%A0%E5%A5%B6%E8%8C%B6&gl=tw&hl=zh-TW");
  EXPECT_EQ(url_for({{"q", "a&b"}, {"domain", "www.google.de"}, {"start", "20"}}),
            "https://www.google.de/search?q=a%26b&start=20");
  // uule from location only when location is given; a given uule is sent as it is.
  EXPECT_EQ(url_for({{"q", "coffee"}, {"location", "West New York,New Jersey,United States"}}),
            "https://www.google.com/search?q=coffee&uule=w%2BCAIQICImV2VzdCBOZXcgWW9yayxOZXcg"
            "SmVyc2V5LFVuaXRlZCBTdGF0ZXM");
  EXPECT_EQ(url_for({{"q", "coffee"}, {"uule", "w+CAIQICIFUGFyaXM"}}),
            "https://www.google.com/search?q=coffee&uule=w%2BCAIQICIFUGFyaXM");
  EXPECT_EQ(url_for({{"q", "x"}, {"start", "0"}}), "https://www.google.com/search?q=x");
}

TEST(Serp, DeviceTypeChoosesTheProfile) {
  auto mobile = serp().build_request(serp().validate({{"q", "x"}, {"deviceType", "mobile"}}));
  EXPECT_EQ(mobile.profile.device, BrowserProfile::Device::Mobile);
  auto desktop = serp().build_request(serp().validate({{"q", "x"}, {"deviceType", "desktop"}}));
  EXPECT_EQ(desktop.profile.device, BrowserProfile::Device::Desktop);
  EXPECT_FALSE(desktop.profile.handheld());
  // Issue 27: the hosted client's third value. Chrome on an Android tablet: no "Mobile" in its
  // user agent, a tablet's viewport, a touch screen.
  auto tablet = serp().build_request(serp().validate({{"q", "x"}, {"deviceType", "tablet"}}));
  EXPECT_EQ(tablet.profile.device, BrowserProfile::Device::Tablet);
  EXPECT_EQ(tablet.profile.viewport_width(), 712);
  EXPECT_EQ(tablet.profile.viewport_height(), 1138);
  EXPECT_DOUBLE_EQ(tablet.profile.device_scale_factor(), 2.25);
  EXPECT_TRUE(tablet.profile.handheld());
  EXPECT_EQ(tablet.url, "https://www.google.com/search?q=x");
}

TEST(Uule, WellKnownEncoding) {
  // "w+CAIQICI" + alphabet[length] + base64(name) for names under 64 bytes.
  EXPECT_EQ(google::uule_for_location("Paris"), "w+CAIQICIFUGFyaXM");
  EXPECT_EQ(google::uule_for_location("Austin,Texas,United States"),
            "w+CAIQICIaQXVzdGluLFRleGFzLFVuaXRlZCBTdGF0ZXM");
  // 64 bytes and more: the length byte carries into the third character ("ICJ..."), and from
  // 128 bytes the length is a two-byte varint.
  std::string long_name(70, 'a');
  EXPECT_EQ(google::uule_for_location(long_name).substr(0, 10), "w+CAIQICJG");
  EXPECT_EQ(google::uule_for_location(std::string(200, 'b')).substr(0, 12), "w+CAIQICLIAW");
}

TEST(SerpShape, GooglePage) {
  auto body = shape_serp(recorded("google"), 0);
  const auto& info = body["searchInformation"];
  EXPECT_EQ(info["totalResults"], 25150000000LL);
  EXPECT_DOUBLE_EQ(info["timeTaken"].get<double>(), 0.62);
  EXPECT_EQ(info["totalResultsText"], "About 25,150,000,000 results (0.62 seconds)");

  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 9u);
  EXPECT_EQ(organic[0]["position"], 1);
  EXPECT_EQ(organic[0]["title"], "Google");
  EXPECT_EQ(organic[0]["link"], "https://google.com/");
  EXPECT_EQ(organic[0]["source"], "Google");
  ASSERT_EQ(organic[0]["sitelinks"].size(), 4u);
  EXPECT_EQ(organic[0]["sitelinks"][0]["title"], "Drive");
  EXPECT_EQ(organic[0]["sitelinks"][0]["link"], "https://www.google.com/drive/");
  EXPECT_EQ(organic[0]["sitelinks"][3]["title"], "Google Earth");
  EXPECT_EQ(organic[2]["title"], "Google Account");
  EXPECT_EQ(organic[2]["displayedLink"], "https://www.google.com › account › about");
  EXPECT_EQ(organic[6]["title"], "Google Docs: Online Document Editor | Google Workspace");
  EXPECT_EQ(organic[8]["position"], 9);

  const auto& questions = body["relatedQuestions"];
  ASSERT_EQ(questions.size(), 4u);
  EXPECT_EQ(questions[0]["question"], "What does Google stand for?");
  EXPECT_EQ(questions[0]["link"], "https://en.wikipedia.org/wiki/Google");
  EXPECT_EQ(questions[0]["title"], "Google - Wikipedia");
  EXPECT_NE(questions[0]["snippet"].get<std::string>().find("misspelling of \"googol\""),
            std::string::npos);
  EXPECT_EQ(questions[2]["list"].size(), 4u);
  EXPECT_EQ(questions[2]["date"], "Dec 2, 2022");

  const auto& related = body["relatedSearches"];
  ASSERT_EQ(related.size(), 8u);
  EXPECT_EQ(related[0]["query"], "google map");
  EXPECT_EQ(related[7]["query"], "google sign in");
  EXPECT_NE(related[0]["link"].get<std::string>().find("q=Google+map"), std::string::npos);

  const auto& kg = body["knowledgeGraph"];
  EXPECT_EQ(kg["title"], "Google");
  EXPECT_EQ(kg["type"], "Technology company");
  EXPECT_EQ(kg["source"]["name"], "Wikipedia");
  EXPECT_EQ(kg["website"], "http://www.google.com/");
  EXPECT_EQ(kg["attributes"]["CEO"], "Sundar Pichai (Oct 2, 2015–)");
  EXPECT_EQ(kg["attributes"]["Founders"], "Larry Page, Sergey Brin");
  EXPECT_EQ(kg["attributes"]["Headquarters"], "Mountain View, CA");
  EXPECT_EQ(kg["attributes"]["Subsidiaries"], "YouTube, Google UK, Google Japan, Kaggle");
  EXPECT_EQ(kg["profiles"].size(), 5u);

  const auto& stories = body["topStories"];
  ASSERT_EQ(stories.size(), 7u);
  EXPECT_EQ(stories[0]["source"], "The Verge");
  EXPECT_EQ(stories[0]["date"], "26 mins ago");
  EXPECT_EQ(stories[0]["title"],
            "Google Nest speakers will now chime instead of talk when controlling smart home "
            "devices");
  EXPECT_EQ(stories[3]["source"], "TechCrunch");  // the publisher's logo, by its alt text

  EXPECT_FALSE(body.contains("adResults"));
  EXPECT_EQ(body["pagination"]["current"], 1);
  EXPECT_NE(body["pagination"]["next"].get<std::string>().find("start=10"), std::string::npos);
  EXPECT_TRUE(serp().has_content(body));
}

// A real desktop page with a featured snippet above the results column (serp-parser's
// "featured snippet" page, 2023): the answer box with its source, which is not also an organic
// result of its own.
TEST(SerpShape, FeaturedSnippetPage) {
  auto body = shape_serp(recorded("featured-snippet"), 0);
  ASSERT_TRUE(body.contains("answerBox")) << body.dump().substr(0, 400);
  const auto& box = body["answerBox"];
  EXPECT_EQ(box["type"], "featured_snippet");
  EXPECT_TRUE(box["snippet"].get<std::string>().starts_with("Featured snippets are special boxes"));
  EXPECT_EQ(box["title"], "Featured Snippets and Your Website | Google Search Central");
  EXPECT_EQ(box["link"], "https://developers.google.com/search/docs/appearance/featured-snippets");
  ASSERT_FALSE(body["organicResults"].empty());
  for (const auto& r : body["organicResults"]) EXPECT_NE(r["link"], box["link"]) << r.dump();
}

TEST(SerpShape, DellPageWithShoppingAndNestedResults) {
  auto body = shape_serp(recorded("dell-xps-13-buy"), 0);
  EXPECT_EQ(body["searchInformation"]["totalResults"], 19600000);
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 4u);
  EXPECT_EQ(organic[0]["title"], "XPS 13 Plus Laptop");
  EXPECT_EQ(organic[0]["source"], "Dell");
  EXPECT_DOUBLE_EQ(organic[0]["rating"].get<double>(), 4.1);
  ASSERT_EQ(organic[0]["sitelinks"].size(), 2u);
  EXPECT_EQ(organic[0]["sitelinks"][0]["title"], "Dell XPS 13-inch Laptop Computers");
  EXPECT_EQ(organic[0]["sitelinks"][1]["title"], "XPS Laptops");
  // "Results 1 - 12 of 28" sits where a date would: it stays text of the snippet.
  EXPECT_EQ(
      organic[0]["sitelinks"][1]["snippet"].get<std::string>().rfind("Results 1 - 12 of 28", 0),
      0u);
  EXPECT_EQ(organic[2]["reviews"], 169);
  EXPECT_EQ(organic[1]["sitelinks"].size(), 3u);

  const auto& shopping = body["inlineShopping"];
  ASSERT_EQ(shopping.size(), 12u);
  EXPECT_EQ(shopping[0]["price"], "$1,034.98");
  EXPECT_DOUBLE_EQ(shopping[0]["extractedPrice"].get<double>(), 1034.98);
  EXPECT_EQ(shopping[0]["source"], "Walmart");
  EXPECT_DOUBLE_EQ(shopping[0]["rating"].get<double>(), 4.2);
  EXPECT_EQ(shopping[0]["reviews"], 110);
  EXPECT_EQ(shopping[0]["sponsored"], true);
  EXPECT_EQ(shopping[4]["source"], "Best Buy");
  EXPECT_DOUBLE_EQ(shopping[4]["extractedPrice"].get<double>(), 1649.99);
  EXPECT_FALSE(shopping[1].contains("rating"));

  EXPECT_EQ(body["relatedQuestions"][0]["question"], "Is XPS 13 worth the money?");
  EXPECT_EQ(body["relatedQuestions"][0]["date"], "Mar 14, 2023");
  ASSERT_EQ(body["relatedSearches"].size(), 8u);
  EXPECT_EQ(body["relatedSearches"][1]["query"], "dell xps 15");

  const auto& kg = body["knowledgeGraph"];
  EXPECT_EQ(kg["title"], "Dell XPS 13-9350");
  EXPECT_FALSE(kg.contains("type"));  // the subtitle is a review count
  EXPECT_EQ(kg["attributes"]["Weight"], "2.8 lb");
  EXPECT_EQ(kg["attributes"]["Battery Life"], "18 hours");
}

TEST(SerpShape, HotelsPageWithAdsAndHotelPack) {
  auto body = shape_serp(recorded("top-hotels-london"), 0);
  EXPECT_EQ(body["searchInformation"]["totalResults"], 230000000);
  const auto& ads = body["adResults"];
  ASSERT_EQ(ads.size(), 3u);
  EXPECT_EQ(ads[0]["block"], "top");
  EXPECT_EQ(ads[0]["position"], 1);
  EXPECT_EQ(ads[0]["title"], "Hotels in London - Official Website");
  EXPECT_EQ(ads[0]["advertiser"], "IHG");
  EXPECT_EQ(ads[0]["displayedLink"], "https://www.ihg.com");
  EXPECT_EQ(ads[0]["sitelinks"][0]["title"], "Explore Our Hotels");
  EXPECT_EQ(ads[2]["title"], "Top Hotels in London, England - Fully Refundable Options");
  EXPECT_EQ(ads[2]["sitelinks"].size(), 5u);

  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 8u);
  EXPECT_EQ(organic[1]["title"], "The best hotels in London 2023: Traveller editors' picks");
  EXPECT_EQ(organic[1]["date"], "Dec 16, 2022");
  EXPECT_EQ(organic[7]["date"], "5 days ago");
  EXPECT_EQ(organic[1]["sitelinks"][0]["title"], "Cheap hotels in London");

  const auto& places = body["localResults"]["places"];
  ASSERT_EQ(places.size(), 3u);
  EXPECT_EQ(places[0]["title"], "The Savoy Hotel");
  EXPECT_DOUBLE_EQ(places[0]["rating"].get<double>(), 4.7);
  EXPECT_EQ(places[0]["reviews"], 8294);
  EXPECT_EQ(places[0]["type"], "5-star hotel");
  EXPECT_EQ(places[0]["price"], "$737");
  EXPECT_EQ(places[1]["title"], "The Waldorf Hilton, London");
  EXPECT_EQ(places[2]["reviews"], 2993);

  EXPECT_EQ(body["relatedQuestions"][2]["question"],
            "What is the cheapest month for London hotels?");
  EXPECT_EQ(body["relatedSearches"][0]["query"], "The Savoy Hotel");
  EXPECT_FALSE(body.contains("knowledgeGraph"));
}

// Pages the reader was not built on (tests/sites/google/pages/serp, provenance.json): other
// languages, years and layouts, read as a person reads them.

// se-scraper 2019, google.ch in Swiss German: apostrophes group the count, a dot marks the
// seconds; 2019 markup (`.st` snippets, `li.ads-ad` bottom ads, the top product units, `#brs`).
TEST(SerpShape, UnseenSwissGerman2019PageWithBottomAdsAndShopping) {
  auto body = shape_serp(recorded("rueckspiegel-schwarz-de-ch-2019"), 0);
  EXPECT_EQ(body["searchInformation"]["totalResults"], 1780000);
  EXPECT_DOUBLE_EQ(body["searchInformation"]["timeTaken"].get<double>(), 0.35);

  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 9u);
  EXPECT_EQ(organic[0]["title"], "▷ CatEye BM 500 G Rückspiegel schwarz online bei Bikester.ch");
  EXPECT_EQ(organic[0]["displayedLink"],
            "https://www.bikester.ch › Zubehör › Anbauteile › Spiegel");
  EXPECT_EQ(organic[0]["snippet"].get<std::string>().rfind("llll➤ CatEye BM 500 G", 0), 0u);
  EXPECT_EQ(organic[6]["title"], "Fahrrad Rückspiegel - SCHWARZ kaufen auf ricardo.ch");
  EXPECT_EQ(organic[6]["date"], "28.07.2019");

  const auto& ads = body["adResults"];
  ASSERT_EQ(ads.size(), 3u);
  EXPECT_EQ(ads[0]["block"], "bottom");
  EXPECT_EQ(ads[0]["position"], 1);
  // Without the invisible direction mark Google ends the title with.
  EXPECT_EQ(ads[0]["title"], "Rückspiegel Schwarz | Günstig im Online Shop kaufen");
  EXPECT_EQ(ads[0]["link"], "https://www.pkwteile.ch/aussenspiegel");
  EXPECT_EQ(ads[0]["displayedLink"], "www.pkwteile.ch/");
  EXPECT_EQ(ads[0]["sitelinks"].size(), 5u);
  EXPECT_EQ(ads[0]["sitelinks"][0]["title"], "Bremsbeläge");
  EXPECT_EQ(ads[2]["title"], "Rückspiegel schwarz auf eBay | Bei uns findest du fast alles");

  const auto& shopping = body["inlineShopping"];
  ASSERT_EQ(shopping.size(), 15u);
  EXPECT_EQ(shopping[0]["title"], "Spiegel Bumm rund Standard schwarz");
  EXPECT_EQ(shopping[0]["price"], "CHF 19.90");
  EXPECT_DOUBLE_EQ(shopping[0]["extractedPrice"].get<double>(), 19.9);
  EXPECT_EQ(shopping[0]["source"], "mofakult.ch");
  EXPECT_EQ(shopping[0]["link"], "https://www.mofakult.ch/spiegel-rund-bumm-standard-schwarz");
  EXPECT_EQ(shopping[0]["sponsored"], true);  // the top ads block's product carousel

  const auto& related = body["relatedSearches"];
  ASSERT_EQ(related.size(), 8u);
  EXPECT_EQ(related[0]["query"], "velo rückspiegel test");
  EXPECT_NE(body["pagination"]["next"].get<std::string>().find("start=10"), std::string::npos);
}

// The same 2019 markup with a local pack and People also ask answers kept collapsed in the page
// (their text is not rendered until a question is opened).
TEST(SerpShape, UnseenSwissGerman2019LocalPackAndCollapsedAnswers) {
  auto body = shape_serp(recorded("kaffeemaschine-kaufen-de-ch-2019"), 0);
  EXPECT_EQ(body["searchInformation"]["totalResults"], 6750000);
  EXPECT_DOUBLE_EQ(body["searchInformation"]["timeTaken"].get<double>(), 0.52);
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 10u);
  EXPECT_EQ(organic[0]["title"], "Kaffeemaschinen - kaufen bei melectronics.ch");
  // "201 Artikel" in the date's place is no date: it stays in the snippet.
  EXPECT_FALSE(organic[0].contains("date"));
  EXPECT_EQ(organic[0]["snippet"].get<std::string>().rfind("201 Artikel — Bestellen Sie", 0), 0u);

  const auto& questions = body["relatedQuestions"];
  ASSERT_EQ(questions.size(), 3u);
  EXPECT_EQ(questions[0]["question"], "Welches ist die beste Kaffeemaschine?");
  // Without the list's "Weitere Einträge..." link.
  EXPECT_EQ(questions[0]["snippet"], "Die besten Kaffeemaschinen");
  EXPECT_EQ(questions[0]["list"][0], "Philips HD7546 im Test. 92%");
  EXPECT_EQ(questions[1]["date"], "04.02.2019");
  EXPECT_EQ(questions[1]["link"],
            "https://www.t-online.de/ratgeber/id_84504042/"
            "die-besten-filterkaffeemaschinen-mit-mahlwerk-unter-200-euro.html");
  EXPECT_EQ(questions[2]["snippet"],
            "Hier verraten wir, welche Kapseln in welche Maschine passen.");

  const auto& places = body["localResults"]["places"];
  ASSERT_EQ(places.size(), 3u);
  EXPECT_EQ(places[0]["title"], "Dipl. Ing. Fust AG");
  EXPECT_DOUBLE_EQ(places[0]["rating"].get<double>(), 3.9);
  EXPECT_EQ(places[0]["reviews"], 21);
  EXPECT_EQ(places[0]["type"], "Elektrofachgeschäft");
  EXPECT_EQ(places[0]["address"], "Wankdorf Center, Papiermühlestrasse 71");
  EXPECT_DOUBLE_EQ(places[1]["rating"].get<double>(), 5.0);
  EXPECT_EQ(places[2]["reviews"], 56);
  EXPECT_EQ(body["relatedSearches"].size(), 8u);
}

// google.de in German, 2019: dots group the count, a comma marks the seconds and the cents.
TEST(SerpShape, UnseenGerman2019PageReadsItsNumbersAsWritten) {
  auto body = shape_serp(recorded("car-tires-for-sale-de-2019"), 0);
  EXPECT_EQ(body["searchInformation"]["totalResults"], 439000000);
  EXPECT_DOUBLE_EQ(body["searchInformation"]["timeTaken"].get<double>(), 0.64);
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 10u);
  EXPECT_EQ(organic[0]["title"], "Discount Tire Direct | Tires and Wheels for Sale Online");
  EXPECT_EQ(organic[0]["link"], "https://www.discounttiredirect.com/");
  EXPECT_EQ(organic[7]["snippet"].get<std::string>().rfind("Results 1 - 48 of 839621 — ", 0), 0u);
  const auto& shopping = body["inlineShopping"];
  ASSERT_EQ(shopping.size(), 13u);
  EXPECT_EQ(shopping[0]["price"], "37,43 €");
  EXPECT_DOUBLE_EQ(shopping[0]["extractedPrice"].get<double>(), 37.43);
  EXPECT_EQ(shopping[0]["source"], "CHECK24");
  EXPECT_EQ(shopping[12]["sponsored"], true);
  // Businesses without a rating: the type is their first line.
  const auto& places = body["localResults"]["places"];
  ASSERT_EQ(places.size(), 2u);
  EXPECT_FALSE(places[0].contains("rating"));
  EXPECT_EQ(places[0]["type"], "Kfz-Ersatzteilgeschäft");
  EXPECT_EQ(places[1]["address"], "Gehringstraße 59");
  EXPECT_EQ(body["relatedQuestions"].size(), 4u);
  EXPECT_EQ(body["relatedSearches"][0]["query"], "tyres");
}

// se-scraper 2020, French interface: narrow spaces group the count, commas mark the seconds,
// the prices and the ratings; product ads in the right-hand column, a sale price without the
// former one.
TEST(SerpShape, UnseenFrench2020PageWithAdsShoppingAndLocalPack) {
  auto body = shape_serp(recorded("cheap-lacoste-shoes-fr-2020"), 0);
  EXPECT_EQ(body["searchInformation"]["totalResults"], 54900000);
  EXPECT_DOUBLE_EQ(body["searchInformation"]["timeTaken"].get<double>(), 0.37);
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 10u);
  EXPECT_EQ(organic[0]["title"], "Cheap Lacoste Trainers | Lowest prices at MandM Direct");
  EXPECT_EQ(organic[0]["link"], "https://www.mandmdirect.com/01/lacoste/trainers");
  EXPECT_EQ(organic[0]["displayedLink"], "www.mandmdirect.com › Lacoste");
  const auto& ads = body["adResults"];
  ASSERT_EQ(ads.size(), 1u);
  EXPECT_EQ(ads[0]["block"], "top");
  EXPECT_EQ(ads[0]["title"], "LACOSTE® Site Officiel - Sélection de Chaussures");
  EXPECT_EQ(ads[0]["link"], "https://www.lacoste.com/fr/shoe-shop.html");
  EXPECT_EQ(ads[0]["sitelinks"][1]["title"], "Collection CrocoSeries");
  const auto& shopping = body["inlineShopping"];
  ASSERT_EQ(shopping.size(), 6u);
  EXPECT_EQ(shopping[0]["title"], "Classic Series - Baskets 317 Blanc");
  EXPECT_DOUBLE_EQ(shopping[0]["extractedPrice"].get<double>(), 39.99);
  EXPECT_EQ(shopping[3]["price"], "45,50 €");  // on sale: not "45,50 €65 €"
  EXPECT_DOUBLE_EQ(shopping[3]["extractedPrice"].get<double>(), 45.5);
  EXPECT_EQ(shopping[3]["source"], "Sarenza");
  EXPECT_EQ(shopping[3]["sponsored"], true);
  const auto& places = body["localResults"]["places"];
  ASSERT_EQ(places.size(), 3u);
  EXPECT_EQ(places[0]["title"], "Lacoste Paris - Forum des Halles");
  EXPECT_DOUBLE_EQ(places[0]["rating"].get<double>(), 4.3);
  EXPECT_EQ(places[0]["reviews"], 93);
  EXPECT_EQ(places[0]["type"], "Magasin de vêtements");
  EXPECT_EQ(places[2]["reviews"], 581);
  ASSERT_EQ(body["relatedSearches"].size(), 5u);
  EXPECT_EQ(body["relatedSearches"][0]["query"], "lacoste discount");
}

// The same capture set, asked without hl: the page's own language (fr) reads its numbers.
TEST(SerpShape, UnseenFrench2020PageReadWithoutHl) {
  auto body = shape_serp(recorded("lacoste-317-fr-2020"), 0);
  EXPECT_EQ(body["searchInformation"]["totalResults"], 4160000);
  EXPECT_DOUBLE_EQ(body["searchInformation"]["timeTaken"].get<double>(), 0.5);
  ASSERT_EQ(body["organicResults"].size(), 9u);
  EXPECT_EQ(body["organicResults"][0]["title"],
            "Lacoste Sport Chaymon 317 chaussures white/navy: Amazon ...");
  EXPECT_EQ(body["organicResults"][4]["displayedLink"],
            "fr.shopping.rakuten.com › Mode & Beauté › Chaussures");
  const auto& places = body["localResults"]["places"];
  ASSERT_EQ(places.size(), 3u);
  EXPECT_DOUBLE_EQ(places[1]["rating"].get<double>(), 3.5);
  EXPECT_EQ(places[1]["address"], "Voie des Douces B30");
}

// KokocGroup/google-parser, 2024, Russian: Google's server HTML of a 100-result page.
TEST(SerpShape, UnseenRussian2024HundredResultPage) {
  auto body = shape_serp(recorded("arendovat-mashinu-ru-2024"), 0);
  EXPECT_EQ(body["searchInformation"]["totalResults"], 153000);
  EXPECT_DOUBLE_EQ(body["searchInformation"]["timeTaken"].get<double>(), 0.49);
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 100u);
  EXPECT_EQ(organic[0]["title"], "Аренда авто в ОАЭ, цены на машины от 11$ в сутки!");
  EXPECT_EQ(organic[0]["link"], "https://localrent.com/ru/uae/");
  EXPECT_EQ(organic[0]["source"], "Localrent.com");
  EXPECT_EQ(organic[3]["date"], "21 сент. 2023 г.");
  EXPECT_EQ(organic[99]["position"], 100);
  const auto& questions = body["relatedQuestions"];
  ASSERT_EQ(questions.size(), 4u);
  EXPECT_EQ(questions[0]["question"], "Можно ли арендовать машину в ОАЭ с российскими правами?");
  EXPECT_EQ(questions[1]["snippet"],
            "В среднем около 13 820 ₽. Лучшая цена аренды "
            "автомобиля на неделю в г. Дубай — 5 797 ₽.");
  ASSERT_EQ(body["relatedSearches"].size(), 8u);
  EXPECT_EQ(body["relatedSearches"][0]["query"], "аренда авто дубай люкс");
  EXPECT_FALSE(body.contains("knowledgeGraph"));
}

// serp-parser 2023, the mobile layout: titles are level-3 headings by role, the address line is
// inside the link; no count (the page shows none) and no next link (it loads more in place).
TEST(SerpShape, UnseenMobileLayout2023) {
  auto body = shape_serp(recorded("coffee-mobile-2023"), 0);
  EXPECT_FALSE(body.contains("searchInformation"));
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 95u);
  EXPECT_EQ(organic[0]["title"], "Coffee");
  EXPECT_EQ(organic[0]["link"], "https://en.m.wikipedia.org/wiki/Coffee");
  EXPECT_EQ(organic[0]["displayedLink"], "https://en.m.wikipedia.org › wiki");
  EXPECT_EQ(organic[0]["source"], "Wikipedia");
  EXPECT_EQ(organic[1]["title"], "9 Health Benefits of Coffee, Based on Science - Healthline");
  EXPECT_EQ(organic[1]["date"], "Jan 11, 2022");
  EXPECT_EQ(organic[1]["snippet"].get<std::string>().rfind("Coffee does more than boost", 0), 0u);
  EXPECT_EQ(body["relatedQuestions"][2]["snippet"], "List of Top 11 Coffee Brands in India");
  EXPECT_EQ(body["knowledgeGraph"]["title"], "Coffee");
  EXPECT_EQ(body["knowledgeGraph"]["type"], "Beverage");
  EXPECT_FALSE(body["pagination"].contains("next"));
}

// The same query on the phone and the desktop layout of 2023 gives the same results; the
// desktop panel is split across the top (title, type) and the right-hand column (description,
// facts), and its video cards are no results.
TEST(SerpShape, UnseenMobileAndDesktopMatrixPagesAgree) {
  auto mobile = shape_serp(recorded("the-matrix-mobile-2023"), 0);
  auto desktop = shape_serp(recorded("the-matrix-2023"), 0);
  ASSERT_EQ(mobile["organicResults"].size(), 8u);
  ASSERT_EQ(desktop["organicResults"].size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(mobile["organicResults"][i]["title"], desktop["organicResults"][i]["title"]) << i;
  }
  EXPECT_EQ(desktop["organicResults"][0]["link"], "https://www.imdb.com/title/tt0133093/");
  EXPECT_EQ(mobile["organicResults"][0]["link"], "https://m.imdb.com/title/tt0133093/");
  EXPECT_EQ(desktop["organicResults"][2]["title"], "The Matrix");
  EXPECT_EQ(desktop["organicResults"][2]["source"], "Wikipedia");
  for (const auto& r : desktop["organicResults"]) {
    EXPECT_EQ(r["link"].get<std::string>().find("youtube.com"), std::string::npos) << r.dump();
  }
  for (const auto* body : {&mobile, &desktop}) {
    const auto& kg = (*body)["knowledgeGraph"];
    EXPECT_EQ(kg["title"], "The Matrix");
    EXPECT_EQ(kg["type"], "Film franchise");
    EXPECT_EQ(kg["description"].get<std::string>().rfind("The Matrix is an American media", 0), 0u);
    EXPECT_EQ(kg["source"]["name"], "Wikipedia");
    EXPECT_EQ(kg["attributes"]["Directors"], "Lilly Wachowski, Lana Wachowski");
  }
  const auto& related = desktop["relatedSearches"];
  ASSERT_EQ(related.size(), 7u);
  EXPECT_EQ(related[0]["query"], "what is the matrix in real life");
  EXPECT_EQ(related[6]["query"], "matrix imdb");
}

// serp-parser 2023 desktop "coffee": the local pack (a map and its businesses).
TEST(SerpShape, UnseenDesktopLocalPack2023) {
  auto body = shape_serp(recorded("coffee-2023"), 0);
  EXPECT_EQ(body["searchInformation"]["totalResults"], 3420000000LL);
  const auto& places = body["localResults"]["places"];
  ASSERT_EQ(places.size(), 3u);
  EXPECT_EQ(places[0]["position"], 1);
  EXPECT_EQ(places[0]["title"], "Javalencia");
  EXPECT_DOUBLE_EQ(places[0]["rating"].get<double>(), 4.4);
  EXPECT_EQ(places[0]["reviews"], 71);
  EXPECT_EQ(places[0]["type"], "Coffee shop");
  EXPECT_EQ(places[0]["address"], "1594 Market St");
  EXPECT_EQ(places[1]["title"], "Blue Bottle Coffee");
  EXPECT_EQ(places[2]["address"], "244 Gough St");
  const auto& organic = body["organicResults"];
  EXPECT_EQ(organic[0]["title"], "Coffee");
  EXPECT_EQ(organic[0]["link"], "https://en.wikipedia.org/wiki/Coffee");
  EXPECT_EQ(body["relatedSearches"][0]["query"], "coffee near me");
  EXPECT_EQ(body["knowledgeGraph"]["source"]["name"], "Wikipedia");
}

// serp-parser 2021 desktop: related searches in #botstuff under an h3, a top story whose
// publisher is a logo, the panel's facts.
TEST(SerpShape, Unseen2021PagePanelStoriesAndRelated) {
  auto body = shape_serp(recorded("things-to-do-in-paris-2021"), 0);
  EXPECT_EQ(body["searchInformation"]["totalResults"], 1260000000);
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 9u);
  EXPECT_EQ(organic[0]["title"], "THE 15 BEST Things to Do in Paris - TripAdvisor");
  EXPECT_EQ(organic[2]["date"], "Jul 13, 2021");
  const auto& stories = body["topStories"];
  ASSERT_EQ(stories.size(), 1u);
  EXPECT_EQ(stories[0]["source"], "Insider");
  EXPECT_EQ(stories[0]["date"], "2 days ago");
  EXPECT_EQ(stories[0]["link"], "https://www.insider.com/things-to-do-in-paris-france");
  EXPECT_EQ(body["knowledgeGraph"]["title"], "Paris");
  EXPECT_EQ(body["knowledgeGraph"]["type"], "Capital of France");
  EXPECT_EQ(body["knowledgeGraph"]["attributes"]["Mayor"], "Anne Hidalgo");
  ASSERT_EQ(body["relatedSearches"].size(), 8u);
  EXPECT_EQ(body["relatedSearches"][0]["query"], "things to do in paris 2021");
}

// The result count and time in other languages' wording (Japanese with full-width brackets).
TEST(SerpShape, ResultCountInOtherLanguages) {
  const struct {
    const char* stats;
    DecimalMark mark;
    long long total;
    double seconds;
  } cases[] = {
      {"約 1,230,000 件 （0.42 秒）", DecimalMark::Dot, 1230000, 0.42},  // ja: full-width
      {"約有 172,000 項結果 (搜尋時間：0.44 秒)", DecimalMark::Dot, 172000, 0.44},
      {"Aproximadamente 1.230.000 resultados (0,35 segundos)", DecimalMark::Comma, 1230000, 0.35},
      {"Seite 2 von ungefähr 1.230.000 Ergebnissen (0,35 Sekunden)", DecimalMark::Comma, 1230000,
       0.35},
  };
  for (const auto& c : cases) {
    auto info = shape_serp({{"statsText", c.stats}}, 0, c.mark)["searchInformation"];
    EXPECT_EQ(info["totalResults"], c.total) << c.stats;
    EXPECT_DOUBLE_EQ(info["timeTaken"].get<double>(), c.seconds) << c.stats;
  }
}

// The date Google prints before a snippet, in the interface's language; counts in that place
// are no dates.
TEST(SerpShape, RelativeDatesInAnyLanguage) {
  nlohmann::json page{{"organic", nlohmann::json::array()}};
  for (const char* d :
       {"2 days ago", "vor 3 Tagen", "il y a 2 jours", "hace 5 días", "há 2 dias", "3 дня назад",
        "2 日前", "21 сент. 2023 г.", "201 Artikel", "Results 1 - 12 of 28"}) {
    page["organic"].push_back(
        {{"title", "t"}, {"link", "https://a.example/"}, {"snippet", "s"}, {"dateText", d}});
  }
  auto organic = shape_serp(page, 0)["organicResults"];
  for (std::size_t i = 0; i < 8; ++i) EXPECT_TRUE(organic[i].contains("date")) << organic[i];
  EXPECT_EQ(organic[8]["snippet"], "201 Artikel — s");
  EXPECT_EQ(organic[9]["snippet"], "Results 1 - 12 of 28 — s");
}

// The 2025 Japanese pages (nwatab/search-navigator) put a date ("2018/09/07") or a scholarly
// byline in the same leading place of a snippet: the byline has a year but is no date.
TEST(SerpShape, AScholarlyBylineIsNoDate) {
  nlohmann::json page{{"organic", nlohmann::json::array()}};
  for (const char* d :
       {"2018/09/07", "M Kuhlmann 著 · 2006 · 被引用数: 193", "by D Tong · Cited by 5"}) {
    page["organic"].push_back(
        {{"title", "t"}, {"link", "https://a.example/"}, {"snippet", "s"}, {"dateText", d}});
  }
  auto organic = shape_serp(page, 0)["organicResults"];
  EXPECT_EQ(organic[0]["date"], "2018/09/07");
  EXPECT_EQ(organic[0]["snippet"], "s");
  EXPECT_FALSE(organic[1].contains("date"));
  EXPECT_EQ(organic[1]["snippet"], "M Kuhlmann 著 · 2006 · 被引用数: 193 — s");
  EXPECT_EQ(organic[2]["snippet"], "by D Tong · Cited by 5 — s");
}

TEST(SerpShape, PositionsContinueFromStart) {
  auto body = shape_serp(recorded("google"), 20);
  EXPECT_EQ(body["organicResults"][0]["position"], 21);
  EXPECT_EQ(body["pagination"]["current"], 3);
}

TEST(SerpShape, AiOverviewBlocksReferencesAndCitations) {
  auto body = shape_serp(recorded("how-to-boil-eggs-ai-overview"), 0);
  ASSERT_TRUE(body.contains("aiOverview"));
  const auto& blocks = body["aiOverview"]["textBlocks"];
  const auto& refs = body["aiOverview"]["references"];
  ASSERT_EQ(blocks.size(), 13u);
  EXPECT_EQ(blocks[0]["referenceIndexes"], (nlohmann::json{0, 1, 3, 4}));
  // A block without highlights or citations has neither key; a heading only its text.
  EXPECT_FALSE(blocks[1].contains("snippetHighlightedWords"));
  EXPECT_FALSE(blocks[1].contains("referenceIndexes"));
  EXPECT_EQ(blocks[2], (nlohmann::json{{"type", "video"},
                                       {"link", "https://www.youtube.com/shorts/umdCxoQ9dBU"},
                                       {"channel", "Let\u2019s Eat"},
                                       {"source", "YouTube"},
                                       {"date", "3 Oct 2024"},
                                       {"duration", "01:00"}}));
  EXPECT_EQ(blocks[3].size(), 2u);
  for (std::size_t i = 0; i < refs.size(); ++i) EXPECT_EQ(refs[i]["index"], i);
  EXPECT_EQ(refs[3]["link"], "https://www.budgetbytes.com/how-to-make-hard-boiled-eggs/");
  EXPECT_TRUE(serp().has_content(body));
}

TEST(SerpShape, AiOverviewAloneIsContentAndAnEmptyOneIsLeftOut) {
  nlohmann::json page = {{"aiOverview",
                          {{"blocks", {{{"type", "paragraph"}, {"snippet", "An answer."}}}},
                           {"references", nlohmann::json::array()}}}};
  auto body = shape_serp(page, 0);
  EXPECT_EQ(body["aiOverview"]["textBlocks"][0]["snippet"], "An answer.");
  EXPECT_TRUE(serp().has_content(body));
  page["aiOverview"]["blocks"] = {{{"type", "paragraph"}, {"snippet", ""}}};
  EXPECT_FALSE(shape_serp(page, 0).contains("aiOverview"));
}

TEST(SerpShape, EmptyShellAndNoResults) {
  nlohmann::json shell = {{"statsText", ""}, {"organic", nlohmann::json::array()}};
  EXPECT_FALSE(serp().has_content(shape_serp(shell, 0)));
  nlohmann::json none = {{"noResultsText", "Your search - zzqqxx - did not match any documents."}};
  auto body = shape_serp(none, 0);
  EXPECT_TRUE(serp().has_content(body));
  EXPECT_EQ(body["searchInformation"]["totalResults"], 0);
  EXPECT_TRUE(body["organicResults"].empty());
}

TEST(SerpFlow, BlockPageIsUpstreamBlocked) {
  testing::FakeTabs tabs;
  testing::FakeTabs::Page page;
  page.navigation = {"https://www.google.com/sorry/index?continue=x", 429, {}};
  tabs.serve_page("https://www.google.com/search?q=x", page);
  try {
    serp().fetch(serp().validate({{"q", "x"}}), tabs, deadline_in(Millis(1000)));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::UpstreamBlocked);
  }
  ASSERT_EQ(tabs.loaded.size(), 1u);
  EXPECT_EQ(tabs.loaded[0], "https://www.google.com/search?q=x");
}

TEST(SerpFlow, ReadsAndShapes) {
  testing::FakeTabs tabs;
  tabs.serve("https://www.google.com/search?q=google", recorded("google"));
  auto result = serp().fetch(serp().validate({{"q", "google"}}), tabs, deadline_in(Millis(1000)));
  EXPECT_EQ(result.url, "https://www.google.com/search?q=google");
  EXPECT_EQ(result.body["organicResults"].size(), 9u);
}

}  // namespace
}  // namespace gleaner::extract::google
