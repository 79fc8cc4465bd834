// GET /scrape/search/serp end to end in real Chromium: the endpoint builds its URL, the page is
// answered from a replay archive of the fixture pages (tests/sites/google/pages/serp), serp.js
// reads it and the C++ shapes it. Asserts what a person reads on those pages.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "browser/identity.h"
#include "core/error.h"
#include "extract/content/chars.h"
#include "extract/sites/google/serp.h"
#include "tests/support/chromium.h"
#include "tests/support/pages.h"
#include "tests/support/replay_archive.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;

const std::string kFixtures = gleaner::testing::site_page("google", "serp/");

EndpointResult run_serp(const std::shared_ptr<browser::ReplayArchive>& archive,
                        const QueryParams& query) {
  return testing::run_in_chromium(serp_endpoint(), archive, query);
}

Error serp_error(const std::shared_ptr<browser::ReplayArchive>& archive) {
  try {
    run_serp(archive, {{"q", "google"}});
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "the request succeeded";
  return Error(ErrorCode::Internal, "succeeded");
}

/// The markup of one deferred slot of a fixture page (`window.jsl.dh('<id>','<markup>')`), with
/// the JavaScript string escapes (\xNN, \uNNNN) decoded.
std::string deferred_slot(const std::string& page_path, const std::string& id) {
  std::ifstream in(page_path);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string call = "jsl.dh('" + id + "','";
  std::size_t i = page.find(call);
  if (i == std::string::npos) return {};
  std::string out;
  for (i += call.size(); i < page.size() && page[i] != '\''; ++i) {
    if (page[i] != '\\') {
      out += page[i];
      continue;
    }
    const char kind = page[++i];
    if (kind == 'x' || kind == 'u') {
      const int digits = kind == 'x' ? 2 : 4;
      const unsigned code = std::stoul(page.substr(i + 1, digits), nullptr, 16);
      i += digits;
      out += content::chars::utf8_of(code);
    } else {
      out += kind;
    }
  }
  return out;
}

// Issue 16: a page with a featured snippet at the top gave no answerBox. No fixture page has a
// featured snippet, so this document is built from real markup: Google writes a People also
// ask answer with the featured snippet's own components (the `wa:/description` text with its
// date, then the source result). The dell fixture's answer to "Is XPS 13 worth the money?"
// (deferred slots __83 and __84, as the page has them) is placed where a featured snippet sits,
// first in #rso inside a block-component. Only that wrapper is ours.
TEST(SerpInChromium, AFeaturedSnippetBuiltFromTheRealAnswerComponentIsTheAnswerBox) {
  const std::string page = kFixtures + "serp-parser_desktop_dell-xps-13-buy.html";
  const std::string text = deferred_slot(page, "Z99CZJatLNrP-QaNyI3IBA__83");
  const std::string source = deferred_slot(page, "Z99CZJatLNrP-QaNyI3IBA__84");
  ASSERT_NE(text.find("wa:/description"), std::string::npos);
  ASSERT_NE(source.find("cnn.com"), std::string::npos);
  TempReplayArchive archive;
  archive.page("https://www.google.com/search?q=is+xps+13+worth+the+money",
               "<!doctype html><html><body><div id=\"center_col\"><div id=\"rso\">"
               "<block-component><div class=\"xpdopen\"><div class=\"ifM9O\">" +
                   text + source + "</div></div></block-component></div></div></body></html>");
  auto result = run_serp(archive.load(), {{"q", "is xps 13 worth the money"}});
  const auto& box = result.body["answerBox"];
  ASSERT_TRUE(box.is_object()) << result.body.dump(1);
  EXPECT_EQ(box["type"], "featured_snippet");
  EXPECT_EQ(
      box["snippet"],
      "The Dell XPS 13 is the best Windows laptop you can buy, offering a stunning display, a "
      "great keyboard and long battery life within an attractive, slim design that's easy to "
      "take anywhere.");
  EXPECT_EQ(box["date"], "Mar 14, 2023");
  EXPECT_EQ(box["title"], "Dell XPS 13 (2022) review: The best Windows laptop gets better - CNN");
  EXPECT_EQ(box["link"], "https://www.cnn.com/cnn-underscored/reviews/dell-xps-13-2022");
  EXPECT_EQ(box["displayedLink"].get<std::string>().rfind("https://www.cnn.com", 0), 0u);
  // The snippet's source is not also an organic result of its own.
  EXPECT_TRUE(result.body["organicResults"].empty()) << result.body["organicResults"].dump();
}

TEST(SerpInChromium, GoogleResultsPage) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=google",
               kFixtures + "serp-parser_desktop_google.html");
  auto replay = archive.load();
  auto result = run_serp(replay, {{"q", "google"}});

  ASSERT_FALSE(replay->requests().empty());
  EXPECT_EQ(replay->requests().front().url, "https://www.google.com/search?q=google");
  EXPECT_EQ(result.url, "https://www.google.com/search?q=google");

  const auto& body = result.body;
  EXPECT_EQ(body["searchInformation"]["totalResults"], 25150000000LL);
  EXPECT_DOUBLE_EQ(body["searchInformation"]["timeTaken"].get<double>(), 0.62);
  ASSERT_EQ(body["organicResults"].size(), 9u);
  EXPECT_EQ(body["organicResults"][0]["link"], "https://google.com/");
  EXPECT_EQ(body["organicResults"][0]["sitelinks"][1]["title"], "Photos");
  EXPECT_EQ(body["organicResults"][3]["title"], "Google Maps");
  EXPECT_EQ(body["organicResults"][3]["link"], "https://www.google.com/maps");
  EXPECT_EQ(body["organicResults"][4]["title"], "Google Business Profile - Get Listed on Google");

  ASSERT_EQ(body["relatedQuestions"].size(), 4u);
  EXPECT_EQ(body["relatedQuestions"][1]["question"], "How to check Google Account password?");
  EXPECT_EQ(body["relatedQuestions"][1]["link"],
            "https://support.google.com/accounts/answer/6208650?hl=en");
  EXPECT_EQ(body["relatedQuestions"][3]["list"][2], "Click the account you want to use.");

  EXPECT_EQ(body["knowledgeGraph"]["title"], "Google");
  EXPECT_EQ(body["knowledgeGraph"]["attributes"]["Parent organization"], "Alphabet Inc.");
  EXPECT_EQ(body["knowledgeGraph"]["attributes"]["Founded"], "September 4, 1998, Menlo Park, CA");
  EXPECT_EQ(body["topStories"][4]["source"], "Ars Technica");
  EXPECT_EQ(body["topStories"].size(), 7u);
  ASSERT_EQ(body["relatedSearches"].size(), 8u);
  EXPECT_EQ(body["relatedSearches"][5]["query"], "google play");
  EXPECT_EQ(body["pagination"]["current"], 1);
}

// A 2025 results page with an AI Overview (tests/sites/google/pages/serp-ai-overview/), served as
// its bytes are: Windows-1252 under a UTF-8 meta, which the header declares.
std::shared_ptr<browser::ReplayArchive> ai_overview_archive(TempReplayArchive& archive,
                                                            const std::string& url,
                                                            const std::string& file) {
  TempReplayArchive::Entry page;
  page.url = url;
  page.source = gleaner::testing::site_page("google", "serp-ai-overview/" + file);
  page.headers["content-type"] = "text/html; charset=windows-1252";
  archive.add(page);
  return archive.load();
}

TEST(SerpInChromium, TheAiOverviewIsReadWithItsSourcesAndCitations) {
  TempReplayArchive archive;
  auto replay = ai_overview_archive(archive, "https://www.google.com/search?q=how+to+boil+eggs",
                                    "fra50_serp-dom_how-to-boil-eggs_enES_cp1252_2025-11.html");
  const auto body = run_serp(replay, {{"q", "how to boil eggs"}}).body;
  ASSERT_TRUE(body.contains("aiOverview")) << body.dump().substr(0, 400);
  const auto& blocks = body["aiOverview"]["textBlocks"];
  const auto& refs = body["aiOverview"]["references"];
  ASSERT_GE(blocks.size(), 13u) << blocks.dump();
  EXPECT_EQ(blocks[0]["type"], "paragraph");
  EXPECT_EQ(blocks[0]["snippet"].get<std::string>().rfind(
                "To boil eggs, place them in a pot, cover with cold water by about an inch", 0),
            0u);
  EXPECT_EQ(
      blocks[0]["snippetHighlightedWords"][0].get<std::string>().rfind("place them in a pot", 0),
      0u);
  // The video the answer shows, after the sentence that introduces it.
  EXPECT_EQ(blocks[1]["snippet"],
            "This video demonstrates how to boil eggs perfectly, from soft-boiled to hard-boiled:");
  EXPECT_EQ(blocks[2]["type"], "video");
  EXPECT_EQ(blocks[2]["link"], "https://www.youtube.com/shorts/umdCxoQ9dBU");
  EXPECT_EQ(blocks[2]["source"], "YouTube");
  EXPECT_EQ(blocks[2]["date"], "3 Oct 2024");
  EXPECT_EQ(blocks[3], (nlohmann::json{{"type", "heading"},
                                       {"snippet", "Step 1: Prepare the eggs and water"}}));
  EXPECT_EQ(blocks[4]["type"], "list");
  EXPECT_EQ(blocks[4]["list"][1]["snippet"], "Add cold water to cover the eggs by about one inch.");
  // Step 3's list nests the times by egg size.
  EXPECT_EQ(blocks[8]["list"][0]["list"][2]["snippet"], "For extra-large eggs: about 15 minutes.");
  EXPECT_EQ(
      blocks.back()["list"][0]["snippet"].get<std::string>().rfind("Once cool, gently tap", 0), 0u);

  // Sources as the column lists them, once each; citations point into them.
  ASSERT_EQ(refs.size(), 7u) << refs.dump();
  EXPECT_EQ(refs[0]["index"], 0);
  EXPECT_EQ(refs[0]["title"], "How to Make Hard Boiled Eggs Recipe - Love and Lemons");
  EXPECT_EQ(refs[0]["link"], "https://www.loveandlemons.com/how-to-make-hard-boiled-eggs/");
  EXPECT_EQ(refs[0]["source"], "Love and Lemons");
  EXPECT_EQ(refs[1]["source"], "American Egg Board");
  EXPECT_EQ(refs[6]["title"], "How to boil eggs - RecipeTin Eats");
  EXPECT_EQ(blocks[0]["referenceIndexes"], (nlohmann::json{0, 1, 3, 4}));
  EXPECT_EQ(blocks[4]["referenceIndexes"], (nlohmann::json{2}));
  // The page's organic results are read beside it.
  ASSERT_FALSE(body["organicResults"].empty());
  EXPECT_EQ(body["organicResults"][0]["title"], "How to boil eggs");
}

TEST(SerpInChromium, ASpanishAiOverviewReadsAsWrittenFromItsWindows1252Bytes) {
  TempReplayArchive archive;
  auto replay = ai_overview_archive(archive, "https://www.google.com/search?q=gasot+gordo",
                                    "fra50_serp-dom_gasot-gordo_enES_cp1252_2025-11.html");
  const auto body = run_serp(replay, {{"q", "gasot gordo"}}).body;
  ASSERT_TRUE(body.contains("aiOverview")) << body.dump().substr(0, 400);
  const auto& blocks = body["aiOverview"]["textBlocks"];
  const auto& refs = body["aiOverview"]["references"];
  ASSERT_EQ(blocks.size(), 7u) << blocks.dump();
  EXPECT_EQ(blocks[0]["snippet"].get<std::string>().rfind(
                "Un \"gato gordo\" se refiere a un felino con sobrepeso u obesidad, una condición "
                "que puede causar problemas de salud como enfermedades articulares y cardíacas.",
                0),
            0u)
      << blocks[0]["snippet"];
  EXPECT_EQ(blocks[1],
            (nlohmann::json{{"type", "heading"}, {"snippet", "Cómo identificar el sobrepeso"}}));
  EXPECT_EQ(blocks[2]["list"][1]["snippet"].get<std::string>().rfind("Palpación del lomo:", 0), 0u);
  EXPECT_EQ(blocks[5]["snippet"], "Qué hacer si tu gato tiene sobrepeso");
  EXPECT_EQ(blocks[0]["referenceIndexes"].size(), 8u);
  ASSERT_GE(refs.size(), 8u);
  EXPECT_EQ(refs[0]["title"], "Gato gordo, sobrepeso y obesidad - Santévet");
  EXPECT_EQ(refs[2]["source"], "Purina Costa Rica");
  EXPECT_EQ(body["searchInformation"]["totalResults"], 23800000);
}

/// Tabs of the shared pool that note, after each navigation, what the loaded page sees of the
/// device it runs on.
class DeviceProbingTabs final : public TabSource {
 public:
  explicit DeviceProbingTabs(std::shared_ptr<browser::ReplayArchive> archive)
      : pool_tabs_(gleaner::testing::shared_pool(), {std::move(archive)}) {}

  std::unique_ptr<Tab> open(const BrowserProfile& profile, Deadline deadline) override {
    return std::make_unique<ProbedTab>(pool_tabs_.open(profile, deadline), seen_);
  }
  /// {userAgent, screenWidth, screenHeight, devicePixelRatio, maxTouchPoints} of the last page
  /// loaded (a page without a phone-sized meta viewport is laid out wider than the screen, as on
  /// a real tablet: innerWidth is the layout's, screen the device's).
  const nlohmann::json& seen() const { return seen_; }

 private:
  class ProbedTab final : public Tab {
   public:
    ProbedTab(std::unique_ptr<Tab> tab, nlohmann::json& seen) : tab_(std::move(tab)), seen_(seen) {}
    Navigation navigate(const std::string& url, const WaitFor& wait, Deadline deadline) override {
      Navigation nav = tab_->navigate(url, wait, deadline);
      seen_ = tab_->evaluate(
          "({userAgent: navigator.userAgent, screenWidth: screen.width, "
          "screenHeight: screen.height, devicePixelRatio, "
          "maxTouchPoints: navigator.maxTouchPoints})",
          deadline, World::Isolated);
      return nav;
    }
    nlohmann::json evaluate(const std::string& expression, Deadline deadline,
                            World world) override {
      return tab_->evaluate(expression, deadline, world);
    }
    void set_cookies(const std::vector<Cookie>& cookies, const std::string& url,
                     Deadline deadline) override {
      tab_->set_cookies(cookies, url, deadline);
    }
    screenshots::Surface& surface() override { return tab_->surface(); }

   private:
    std::unique_ptr<Tab> tab_;
    nlohmann::json& seen_;
  };

  PoolTabs pool_tabs_;
  nlohmann::json seen_;
};

// Issue 27: the hosted client's deviceType=tablet. The request leaves as Chrome on an Android
// tablet (its user agent, viewport, pixel ratio and touch screen), and the results page Google
// answers it with is read: here its desktop layout, which Google serves tablets as often as its
// mobile one.
TEST(SerpInChromium, ATabletAsksAsATabletAndItsResultsAreRead) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=google",
               kFixtures + "serp-parser_desktop_google.html");
  auto replay = archive.load();
  DeviceProbingTabs tabs(replay);
  const auto result = gleaner::testing::fetch_recorded(serp_endpoint(), tabs,
                                                       {{"q", "google"}, {"deviceType", "tablet"}});

  // The user agent the browser derives for a tablet from its own version (browser/identity.h),
  // the same on the network and in the page.
  const auto version =
      browser::installed_chrome_version(gleaner::testing::test_pool_options().chromium_path);
  ASSERT_TRUE(version);
  const std::string tablet = browser::chrome_user_agent(browser::Device::Tablet, *version);
  EXPECT_NE(tablet.find("Android"), std::string::npos) << tablet;
  EXPECT_EQ(tablet.find("Mobile"), std::string::npos) << tablet;
  ASSERT_FALSE(replay->requests().empty());
  EXPECT_EQ(replay->requests().front().url, "https://www.google.com/search?q=google");
  EXPECT_EQ(replay->requests().front().user_agent, tablet);
  EXPECT_EQ(tabs.seen()["userAgent"], tablet);
  EXPECT_EQ(tabs.seen()["screenWidth"], 712);
  EXPECT_EQ(tabs.seen()["screenHeight"], 1138);
  EXPECT_EQ(tabs.seen()["devicePixelRatio"], 2.25);
  EXPECT_EQ(tabs.seen()["maxTouchPoints"], 5);

  const auto& body = result.body;
  EXPECT_EQ(body["searchInformation"]["totalResults"], 25150000000LL);
  ASSERT_EQ(body["organicResults"].size(), 9u);
  EXPECT_EQ(body["organicResults"][0]["link"], "https://google.com/");
  EXPECT_EQ(body["organicResults"][3]["title"], "Google Maps");
  EXPECT_EQ(body["knowledgeGraph"]["title"], "Google");
  EXPECT_EQ(body["topStories"].size(), 7u);
  ASSERT_EQ(body["relatedSearches"].size(), 8u);
}

TEST(SerpInChromium, ShoppingAndNestedResults) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=dell+xps+13+buy",
               kFixtures + "serp-parser_desktop_dell-xps-13-buy.html");
  auto result = run_serp(archive.load(), {{"q", "dell xps 13 buy"}});
  const auto& body = result.body;
  EXPECT_EQ(body["searchInformation"]["totalResults"], 19600000);
  ASSERT_EQ(body["inlineShopping"].size(), 12u);
  EXPECT_EQ(body["inlineShopping"][2]["source"], "Dell");
  EXPECT_DOUBLE_EQ(body["inlineShopping"][2]["extractedPrice"].get<double>(), 909.0);
  EXPECT_EQ(body["inlineShopping"][2]["reviews"], 545);
  EXPECT_EQ(body["organicResults"][2]["link"],
            "https://www.amazon.com/Dell-13-4-inch-Touch-Laptop/dp/B08ML2PW6W");
  EXPECT_EQ(body["organicResults"][1]["sitelinks"][2]["title"], "dell xps13");
  EXPECT_EQ(body["knowledgeGraph"]["attributes"]["Resolution"], "3200 x 1800");
}

TEST(SerpInChromium, AdsHotelPackAndTheUrlOfEveryParameter) {
  TempReplayArchive archive;
  // Any results URL answers with the hotels page, so the log shows exactly what was asked for.
  TempReplayArchive::Entry results;
  results.match = "prefix";
  results.url = "https://www.google.co.uk/search?";
  results.source = kFixtures + "serp-parser_desktop_top-hotels-london.html";
  archive.add(results);
  auto replay = archive.load();
  auto result = run_serp(replay, {{"q", "top hotels london"},
                                  {"domain", "google.co.uk"},
                                  {"gl", "uk"},
                                  {"hl", "en"},
                                  {"location", "London,England,United Kingdom"},
                                  {"start", "10"}});
  ASSERT_FALSE(replay->requests().empty());
  EXPECT_EQ(replay->requests().front().url,
            "https://www.google.co.uk/search?q=top+hotels+london&gl=uk&hl=en&uule=w%2BCAIQICIdTG9u"
            "ZG9uLEVuZ2xhbmQsVW5pdGVkIEtpbmdkb20&start=10");
  const auto& body = result.body;
  ASSERT_EQ(body["adResults"].size(), 3u);
  EXPECT_EQ(body["adResults"][1]["title"],
            "Curation by the MICHELIN Guide - The 60 Best Hotels in London");
  EXPECT_EQ(body["adResults"][1]["link"], "https://www.tablethotels.com/en/london-hotels");
  EXPECT_EQ(body["localResults"]["places"][0]["title"], "The Savoy Hotel");
  EXPECT_EQ(body["localResults"]["places"][0]["reviews"], 8294);
  EXPECT_EQ(body["organicResults"][0]["position"], 11);
  EXPECT_EQ(body["organicResults"][5]["title"], "The 23 best hotels in London");
  EXPECT_EQ(body["pagination"]["current"], 2);
}

// Block pages are test pages written here, not copies of a site's: what matters is how the
// service reacts to a refusal, a captcha, or a page with nothing on it.
// A page the reader was not built on: google.ch in Swiss German, 2019 markup, asked with the
// domain alone (the page's own language, de-CH, says how its numbers are written).
TEST(SerpInChromium, ASwissGerman2019PageReadsItsCountAdsAndShopping) {
  TempReplayArchive archive;
  archive.file("https://www.google.ch/search?q=r%C3%BCckspiegel+schwarz",
               kFixtures + "se-scraper_desktop_rueckspiegel-schwarz_deCH_2019-08.html");
  auto result = run_serp(archive.load(), {{"q", "rückspiegel schwarz"}, {"domain", "google.ch"}});
  const auto& body = result.body;
  EXPECT_EQ(body["searchInformation"]["totalResults"], 1780000);
  EXPECT_DOUBLE_EQ(body["searchInformation"]["timeTaken"].get<double>(), 0.35);
  ASSERT_EQ(body["organicResults"].size(), 9u);
  EXPECT_EQ(body["organicResults"][1]["title"],
            "Fahrradspiegel im Veloteile Online Shop von bikester.ch kaufen");
  ASSERT_EQ(body["adResults"].size(), 3u);
  EXPECT_EQ(body["adResults"][1]["block"], "bottom");
  EXPECT_EQ(body["adResults"][1]["title"],
            "Spiegel Schwarz - Amazon.de | Top-Marken zu Spitzenpreisen");
  EXPECT_EQ(body["adResults"][1]["displayedLink"], "www.amazon.de/haushalt/spiegel+schwarz");
  ASSERT_EQ(body["inlineShopping"].size(), 15u);
  EXPECT_EQ(body["inlineShopping"][2]["title"], "Rückspiegel Lenkerenden Snell Schwarz");
  EXPECT_DOUBLE_EQ(body["inlineShopping"][2]["extractedPrice"].get<double>(), 19.95);
  EXPECT_EQ(body["relatedSearches"].size(), 8u);
}

// The mobile layout (serp-parser 2023), asked as a phone: results by their role headings.
TEST(SerpInChromium, TheMobileLayoutIsReadOnAPhone) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=The+Matrix",
               kFixtures + "serp-parser_mobile_the-matrix_en_2023-04.html");
  auto result = run_serp(archive.load(), {{"q", "The Matrix"}, {"deviceType", "mobile"}});
  const auto& organic = result.body["organicResults"];
  ASSERT_EQ(organic.size(), 8u);
  EXPECT_EQ(organic[0]["title"], "The Matrix (1999)");
  EXPECT_EQ(organic[0]["link"], "https://m.imdb.com/title/tt0133093/");
  EXPECT_EQ(organic[0]["displayedLink"], "https://m.imdb.com › title");
  EXPECT_EQ(organic[0]["source"], "IMDb");
  EXPECT_EQ(organic[3]["title"], "The Matrix (franchise)");
  EXPECT_EQ(organic[3]["source"], "Wikipedia");
  EXPECT_EQ(result.body["relatedQuestions"].size(), 4u);
  EXPECT_EQ(result.body["knowledgeGraph"]["title"], "The Matrix");
}

// 2025 Japanese results pages (nwatab/search-navigator, saved from Tokyo with SingleFile, which
// drops the scripts): the date Google prints before a snippet ("2018/09/07 — …") sits in a span
// with no class the reader knew and stayed in the snippet; it is the snippet's leading part.
TEST(SerpInChromium, AJapanese2025PageReadsItsDatesPanelAndQuestions) {
  TempReplayArchive archive;
  archive.file(
      "https://www.google.com/search?q=%E9%87%8F%E5%AD%90%E5%A0%B4%E3%81%AE%E7%90%86%E8%AB%96",
      kFixtures + "nwatab_singlefile_ryoshiba-no-riron_ja_2025-05.html");
  const auto body = run_serp(archive.load(), {{"q", "量子場の理論"}}).body;
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 8u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "場の量子論");
  EXPECT_EQ(organic[0]["source"], "Wikipedia");
  EXPECT_EQ(organic[1]["title"], "現代物理学［基礎シリーズ］ 量子場の理論");
  EXPECT_EQ(organic[1]["source"], "朝倉書店");
  EXPECT_EQ(organic[3]["title"], "場の量子論 | Kavli IPMU-カブリ数物連携宇宙研究機構");
  EXPECT_EQ(organic[3]["date"], "2018/09/07");
  EXPECT_EQ(organic[3]["snippet"].get<std::string>().rfind("場の量子論は、名の示す通り", 0), 0u)
      << organic[3]["snippet"];
  EXPECT_EQ(organic[5]["date"], "2021/12/24");
  EXPECT_EQ(organic[6]["date"], "2010/05/05");
  EXPECT_FALSE(organic[0].contains("date"));
  EXPECT_EQ(body["knowledgeGraph"]["title"], "場の量子論");
  EXPECT_EQ(body["knowledgeGraph"]["source"]["name"], "ウィキペディア");
  ASSERT_EQ(body["relatedQuestions"].size(), 4u);
  EXPECT_EQ(body["relatedQuestions"][0]["question"], "場の量子論とは？");
  ASSERT_EQ(body["relatedSearches"].size(), 8u);
  EXPECT_EQ(body["relatedSearches"][0]["query"], "場の量子論 わかりやすく");
}

// The same interface asked in English: a scholarly result's byline ("M Kuhlmann 著 · 2006 ·
// 被引用数: 193 — …") sits where a date does and has a year, but it is no date.
TEST(SerpInChromium, AScholarlyBylineStaysInTheSnippetAndDatesAreRead) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=quantum+field+theory",
               kFixtures + "nwatab_singlefile_quantum-field-theory_ja_2025-05.html");
  const auto body = run_serp(archive.load(), {{"q", "quantum field theory"}}).body;
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 9u) << organic.dump();
  EXPECT_EQ(organic[1]["title"], "Quantum Field Theory - Stanford Encyclopedia of Philosophy");
  EXPECT_FALSE(organic[1].contains("date"));
  EXPECT_EQ(organic[1]["snippet"].get<std::string>().rfind(
                "M Kuhlmann 著 · 2006 · 被引用数: 193 — QFT is the extension", 0),
            0u)
      << organic[1]["snippet"];
  EXPECT_EQ(organic[3]["title"], "Quantum field theory | Definition & Facts");
  EXPECT_EQ(organic[3]["date"], "2025/05/09");
  EXPECT_EQ(organic[4]["date"], "2022/08/10");
  EXPECT_EQ(organic[4]["source"], "Quanta Magazine");
  EXPECT_EQ(body["knowledgeGraph"]["title"], "場の量子論 (Quantum field theory)");
  EXPECT_EQ(body["relatedQuestions"][0]["question"],
            "What is quantum field theory in simple terms?");
}

// The Videos tab of the same interface (2025): YouTube results whose description and "YouTube ·
// channel · 2019/11/26" line sit under the title without any of a web result's snippet classes;
// they were read as titles and links only.
TEST(SerpInChromium, TheVideosTabOf2025ReadsItsResults) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=j.brahms+piano+concerto+no.2&tbm=vid",
               kFixtures + "nwatab_singlefile_video-tab_brahms-piano-concerto-2_ja_2025-06.html");
  const auto body =
      run_serp(archive.load(), {{"q", "j.brahms piano concerto no.2"}, {"tbm", "vid"}}).body;
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "ブラームス ピアノ協奏曲 第2番 変ロ長調 作品83 バックハウス ...");
  EXPECT_EQ(organic[0]["link"], "https://www.youtube.com/watch?v=Mh5Ua0cJ_VY");
  EXPECT_EQ(organic[0]["displayedLink"], "www.youtube.com › watch");
  EXPECT_EQ(organic[0]["source"], "YouTube");
  EXPECT_EQ(organic[0]["date"], "2019/11/26");
  EXPECT_EQ(organic[0]["snippet"].get<std::string>().rfind("ブラームス（独） Brahms 1833～1897", 0),
            0u)
      << organic[0]["snippet"];
  EXPECT_EQ(organic[3]["title"], "Brahms: Piano Concerto No. 2, Fleisher & Szell (1962 ...");
  EXPECT_EQ(organic[3]["date"], "2019/05/11");
  EXPECT_EQ(organic[9]["link"], "https://www.youtube.com/watch?v=4I00iK_WHOs");
}

// The News tab of 2025 (English interface from Tokyo): its cards carry no h3 and no address
// line, so none was taken for a result and the page was a 502. Each card is a link inside
// `[data-news-doc-id]` with the publisher, a level-3 heading, the snippet and the date.
TEST(SerpInChromium, TheNewsTabOf2025ReadsItsArticles) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=schloss+johannisberg&tbm=nws",
               kFixtures + "nwatab_singlefile_news-tab_schloss-johannisberg_enJP_2025-06.html");
  const auto body = run_serp(archive.load(), {{"q", "schloss johannisberg"}, {"tbm", "nws"}}).body;
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << body.dump().substr(0, 400);
  EXPECT_EQ(organic[0]["title"],
            "Henkell Freixenet launches wine finder activation at Frankfurt Airport");
  EXPECT_EQ(organic[0]["link"],
            "https://www.dfnionline.com/brand-news/"
            "henkell-freixenet-launches-wine-finder-activation-at-frankfurt-airport-13-06-2025/");
  EXPECT_EQ(organic[0]["source"], "DFNI");
  EXPECT_EQ(organic[0]["date"], "1 day ago");
  EXPECT_EQ(organic[0]["snippet"].get<std::string>().rfind(
                "In partnership with Gebr. Heinemann, the digital interactive activation", 0),
            0u);
  EXPECT_EQ(organic[2]["source"], "Global Drinks Intel");
  EXPECT_EQ(organic[2]["date"], "Dec 13, 2024");
  EXPECT_EQ(organic[5]["title"], "Schloss Johannisberg: Mainzer Unternehmen übernimmt Gastro");
  EXPECT_EQ(organic[5]["source"], "Wiesbadener Kurier");
  EXPECT_EQ(organic[9]["source"], "Falstaff");
  EXPECT_EQ(organic[9]["date"], "Apr 10, 2025");
  EXPECT_NE(body["pagination"]["next"].get<std::string>().find("start=10"), std::string::npos);
}

// A 2025 US page (People also ask opened nineteen times, a song's panel, forum results whose
// address line is Google's "50+ comments · 3 years ago").
TEST(SerpInChromium, AUs2025PageWithASongPanelAndOpenedQuestions) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=something",
               kFixtures + "nwatab_singlefile_something_enUS_2025-08.html");
  const auto body = run_serp(archive.load(), {{"q", "something"}}).body;
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 7u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "SOMETHING Definition & Meaning");
  EXPECT_EQ(organic[0]["source"], "Merriam-Webster");
  EXPECT_EQ(organic[2]["title"], "Can someone explain this part from \"Something\" to me?");
  EXPECT_EQ(organic[2]["source"], "Reddit · r/beatles");
  EXPECT_EQ(organic[2]["displayedLink"], "50+ comments · 3 years ago");
  const auto& panel = body["knowledgeGraph"];
  EXPECT_EQ(panel["title"], "Something");
  EXPECT_EQ(panel["type"], "Song by The Beatles ‧ 1969");
  EXPECT_EQ(panel["attributes"]["Album"], "Abbey Road");
  EXPECT_EQ(panel["attributes"]["Released"], "1969");
  ASSERT_EQ(body["relatedQuestions"].size(), 19u);
  EXPECT_EQ(body["relatedQuestions"][0]["question"], "What do we mean by something?");
  ASSERT_EQ(body["relatedSearches"].size(), 8u);
  EXPECT_EQ(body["relatedSearches"][0]["query"], "Something song");
}

// A 2026 page in French (lang fr-DZ): "Environ 239 résultats (0,23 s)", results whose address
// line is what Google prints there for LinkedIn ("Plus de 260 abonnés").
TEST(SerpInChromium, AFrench2026PageReadsItsCountAndResults) {
  TempReplayArchive archive;
  archive.file(
      "https://www.google.com/search?q=site%3Ach.linkedin.com%2Fcompany+%22solution+IT%22&hl=fr",
      kFixtures + "linkedin-ch-scraper_desktop_site-linkedin-solution-it_frDZ_2026-07.html");
  const auto body = run_serp(archive.load(),
                             {{"q", "site:ch.linkedin.com/company \"solution IT\""}, {"hl", "fr"}})
                        .body;
  EXPECT_EQ(body["searchInformation"]["totalResults"], 239);
  EXPECT_DOUBLE_EQ(body["searchInformation"]["timeTaken"].get<double>(), 0.23);
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 9u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "Cloud Solution IT");
  EXPECT_EQ(organic[0]["link"], "https://ch.linkedin.com/company/cloud-solution-it");
  EXPECT_EQ(organic[0]["source"], "LinkedIn Schweiz");
  EXPECT_EQ(organic[1]["title"], "Infomartix");
  EXPECT_EQ(organic[1]["source"], "LinkedIn · Infomartix");
  EXPECT_EQ(organic[1]["displayedLink"], "Plus de 260 abonnés");
  EXPECT_EQ(organic[8]["title"], "Advance Wireless Technology Limited");
  EXPECT_NE(body["pagination"]["next"].get<std::string>().find("start=10"), std::string::npos);
}

// An English page from India of 2026-01 ("pizza", kHL en-IN): a local pack of three places in
// Nashik ("4.4 (2.2K) · ₹200–400 · Pizza"), People also ask and the dish's panel. Its "Popular
// products" carousel (cards without links, opened in Google's product viewer) is not read.
TEST(SerpInChromium, AnIndian2026PageReadsItsLocalPackProductsAndPanel) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=pizza",
               kFixtures + "librecrawl_desktop_pizza_local-pack_enIN_2026-01.html");
  const auto body = run_serp(archive.load(), {{"q", "pizza"}}).body;
  const auto& organic = body["organicResults"];
  ASSERT_GE(organic.size(), 8u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "Order Domino's Pizza Online – Get 2 Regular Pizza @99 Each");
  EXPECT_EQ(organic[0]["source"], "Domino's");
  const auto& places = body["localResults"]["places"];
  ASSERT_EQ(places.size(), 3u) << body["localResults"].dump();
  EXPECT_EQ(places[0]["title"], "La Pino’z Pizza College Road Nashik - Best Pizza in Nashik");
  EXPECT_DOUBLE_EQ(places[0]["rating"].get<double>(), 4.4);
  EXPECT_EQ(places[0]["reviews"], 2200);
  EXPECT_EQ(places[0]["type"], "Pizza");
  EXPECT_EQ(places[1]["title"], "Pizza shop");
  EXPECT_EQ(places[1]["reviews"], 58);
  EXPECT_EQ(places[2]["title"], "Pizza Burst - Jatra Chaufuli, Nashik");
  EXPECT_EQ(places[2]["reviews"], 1500);
  ASSERT_EQ(body["relatedQuestions"].size(), 4u);
  EXPECT_EQ(body["relatedQuestions"][0]["question"], "What's the 2 hour rule for pizza?");
  EXPECT_EQ(body["knowledgeGraph"]["title"], "Pizza");
}

// An English page from Italy of 2025-12 (kHL en-IT) saved under Google's consent dialog ("Before
// you continue to Google"): the results are the page, the dialog over them is no wall.
TEST(SerpInChromium, AResultsPageUnderTheConsentDialogIsReadFromItsResults) {
  TempReplayArchive archive;
  archive.file(
      "https://www.google.com/search?q=What+was+the+TEKKEN+8+controversy+in+October+2024",
      kFixtures + "gamersremorse_desktop_tekken-8-controversy_enIT_consent-dialog_2025-12.html");
  const auto body =
      run_serp(archive.load(), {{"q", "What was the TEKKEN 8 controversy in October 2024"}}).body;
  const auto& organic = body["organicResults"];
  ASSERT_GE(organic.size(), 9u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "After backlash and a Steam review bomb, Tekken 8 dev ...");
  EXPECT_EQ(organic[0]["link"].get<std::string>().rfind(
                "https://www.reddit.com/r/gaming/comments/1g6ljep/", 0),
            0u);
  EXPECT_EQ(organic[2]["title"], "Tekken 8 is Being Review Bombed Yet Again");
  EXPECT_EQ(organic[2]["link"], "https://gamerant.com/tekken-8-review-bombed-why/");
  ASSERT_EQ(body["relatedQuestions"].size(), 4u);
  EXPECT_EQ(body["relatedQuestions"][0]["question"], "Why is Tekken 8 bad right now?");
  ASSERT_FALSE(body["relatedSearches"].empty());
  EXPECT_EQ(body["relatedSearches"][0]["query"],
            "What was the tekken 8 controversy in october 2024 season");
}

// A German page of 2026-05 (hl=de, gl=DE) with one web result under a video block, its whole
// text under 1,200 characters and Google's consent script in it: a results page, not a wall.
TEST(SerpInChromium, AGerman2026PageWithOneResultIsThatResult) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=ZUTOMAYO+yomosugara+site%3Auta-net.com&gl=de&hl=de",
               kFixtures + "lyricallyaccurate_desktop_zutomayo-site-uta-net_de_2026-05.html");
  const auto body = run_serp(archive.load(), {{"q", "ZUTOMAYO yomosugara site:uta-net.com"},
                                              {"hl", "de"},
                                              {"gl", "de"}})
                        .body;
  const auto& organic = body["organicResults"];
  ASSERT_EQ(organic.size(), 1u) << organic.dump();
  EXPECT_EQ(organic[0]["title"], "ずっと真夜中でいいのに。 よもすがら 歌詞&動画視聴");
  EXPECT_EQ(organic[0]["link"], "https://www.uta-net.com/movie/388889/");
}

// Google's page for a query nothing matched, of the layout after 2023 ("About 0 results (0.27
// seconds)", then "Your search - software companies Noida - did not match any documents.").
TEST(SerpInChromium, ANoResultsPageOfTheNewerLayoutIsNoResults) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=software+companies+Noida",
               kFixtures + "osint-pipeline_desktop_no-results_software-companies-noida_en.html");
  const auto body = run_serp(archive.load(), {{"q", "software companies Noida"}}).body;
  const auto& info = body["searchInformation"];
  EXPECT_EQ(info["noResults"], true);
  EXPECT_EQ(info["noResultsText"],
            "Your search - software companies Noida - did not match any documents.");
  EXPECT_EQ(info["totalResults"], 0);
  EXPECT_TRUE(body["organicResults"].empty());
}

// Google's page for a query nothing matches (serp-parser, 2023), whole: short, and carrying
// Google's consent dialog, which the block check alone would take for a consent wall. The
// endpoint recognized its page (the heading that says nothing matched), so it is a 200.
TEST(SerpInChromium, TheWholeNoResultsPageWithItsConsentDialogIsNoResults) {
  std::ifstream in(kFixtures + "serp-parser_desktop_no-results_en_2023-04.html");
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_NE(page.find("consent.google"), std::string::npos);
  TempReplayArchive archive;
  archive.page("https://www.google.com/search?q=324j23i4jkdfjklndsklfmsdkl%3Bfsdfds", page);
  auto result = run_serp(archive.load(), {{"q", "324j23i4jkdfjklndsklfmsdkl;fsdfds"}});
  const auto& info = result.body["searchInformation"];
  EXPECT_EQ(info["noResults"], true);
  EXPECT_EQ(info["noResultsText"],
            "Your search - 324j23i4jkdfjklndsklfmsdkl;fsdfds - did not match any documents.");
  EXPECT_TRUE(result.body["organicResults"].empty());
}

// The same page's own answer, the heading that emphasizes the query and the suggestions under
// it, served alone (only the wrapper is ours): read by its heading without the rest of the page.
TEST(SerpInChromium, AQueryNothingMatchesIsNoResultsByItsHeading) {
  std::ifstream in(kFixtures + "serp-parser_desktop_no-results_en_2023-04.html");
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t from =
      page.find("<p aria-level=\"3\" role=\"heading\"", page.find("id=\"topstuff\""));
  const std::size_t to = page.find("</ul>", from);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  TempReplayArchive archive;
  archive.page("https://www.google.com/search?q=324j23i4jkdfjklndsklfmsdkl%3Bfsdfds",
               "<!doctype html><html lang=\"en\"><body><div id=\"topstuff\"><div "
               "class=\"card-section\">" +
                   page.substr(from, to + 5 - from) +
                   "</div></div><div id=\"rso\"></div></body></html>");
  auto result = run_serp(archive.load(), {{"q", "324j23i4jkdfjklndsklfmsdkl;fsdfds"}});
  const auto& info = result.body["searchInformation"];
  EXPECT_EQ(info["noResults"], true);
  EXPECT_EQ(info["noResultsText"],
            "Your search - 324j23i4jkdfjklndsklfmsdkl;fsdfds - did not match any documents.");
  EXPECT_EQ(info["totalResults"], 0);
  EXPECT_TRUE(result.body["organicResults"].empty());
}

TEST(SerpInChromium, RefusalIsUpstreamBlocked) {
  TempReplayArchive archive;
  TempReplayArchive::Entry refusal;
  refusal.url = "https://www.google.com/search?q=google";
  refusal.body = "<html><body><p>Our systems have detected unusual traffic.</p></body></html>";
  refusal.status = 429;
  archive.add(refusal);
  EXPECT_EQ(serp_error(archive.load()).code(), ErrorCode::UpstreamBlocked);
}

TEST(SerpInChromium, CaptchaPageIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.page("https://www.google.com/search?q=google",
               "<html><head><title>Google Search</title></head><body><form id='captcha-form'>"
               "<p>Our systems have detected unusual traffic from your computer network.</p>"
               "<div class='g-recaptcha'></div></form></body></html>");
  EXPECT_EQ(serp_error(archive.load()).code(), ErrorCode::UpstreamBlocked);
}

// A real desktop page with a featured snippet (serp-parser's "featured snippet" page, 2023): the
// box sits above the results column (#rcnt > #Odp5De, before #center_col) and was missed while
// the reader looked inside the column only.
TEST(SerpInChromium, AFeaturedSnippetAboveTheResultsColumnIsTheAnswerBox) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=featured+snippet",
               kFixtures + "serp-parser_desktop_featured-snippet.html");
  const auto body = run_serp(archive.load(), {{"q", "featured snippet"}}).body;
  ASSERT_TRUE(body.contains("answerBox")) << body.dump().substr(0, 400);
  const auto& box = body["answerBox"];
  EXPECT_EQ(box["type"], "featured_snippet");
  EXPECT_TRUE(box["snippet"].get<std::string>().starts_with(
      "Featured snippets are special boxes where the format of a regular search result is "
      "reversed, showing the descriptive snippet first."))
      << box.dump();
  EXPECT_EQ(box["title"], "Featured Snippets and Your Website | Google Search Central");
  EXPECT_EQ(box["link"], "https://developers.google.com/search/docs/appearance/featured-snippets");
  ASSERT_FALSE(body["organicResults"].empty());
  EXPECT_NE(body["organicResults"][0]["link"], box["link"]);
}

TEST(SerpInChromium, AResultsPageWithoutResultsIsExtractionFailed) {
  TempReplayArchive archive;
  archive.page("https://www.google.com/search?q=google",
               "<html><head><title>google - Google Search</title></head><body><div id='main'>"
               "<div id='search'><div id='rso'></div></div><p>Loading results for you, one "
               "moment please.</p></div></body></html>");
  EXPECT_EQ(serp_error(archive.load()).code(), ErrorCode::ExtractionFailed);
}

TEST(SerpInChromium, MissingPageIsNotFound) {
  TempReplayArchive archive;  // nothing matches: the archive answers 404
  EXPECT_EQ(serp_error(archive.load()).code(), ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::google
