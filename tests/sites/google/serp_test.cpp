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
  EXPECT_FALSE(stories[3].contains("source"));  // a logo without a name: absent, not invented

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
