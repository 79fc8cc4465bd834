// GET /scrape/google-maps/reviews end to end in real Chromium, over a replay archive of two
// documents from two places, each the real thing where it exists:
//  - the place's page: the real rendered page of Griffith Observatory (tests/sites/google/pages/
//    maps, 2026), which the place reader reads for placeInfo and whose own link gives the data id
//    the RPC is asked for;
//  - the reviews RPC (`/maps/rpc/listugcposts`): no whole real answer could be found, so it is
//    answered by the smallest document that carries the two real entries there are (tests/sites/
//    google/pages/google-maps-reviews, of a practice in Germany, not of the observatory),
//    unchanged, in the envelope two scrapers' parsers read: tests/sites/google/data/maps_reviews/
//    listugcposts-envelope-reconstructed_two-real-gosom-entries.json (maps_reviews_test.cpp checks
//    it byte for byte against the entries).
// So the place side and the reviews side are each checked against their own document; that the
// two belong together is not something these documents can show.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/maps_pages.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using nlohmann::json;
using testing::error_in_chromium;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

constexpr const char* kObservatory = "ChIJywjU6WG_woAR3NrWwrEH_3M";
constexpr const char* kObservatoryUrl =
    "https://www.google.com/maps/place/?q=place_id:ChIJywjU6WG_woAR3NrWwrEH_3M";
const std::string kRpc = "https://www.google.com/maps/rpc/listugcposts?";

std::string envelope() {
  return gleaner::testing::site_tests_dir("google") +
         "data/maps_reviews/listugcposts-envelope-reconstructed_two-real-gosom-entries.json";
}

// The one RPC request the endpoint made ("" and a failure when it made another number).
std::string the_rpc_request(const browser::ReplayArchive& replay) {
  const auto urls = requested(replay, kRpc);
  EXPECT_EQ(urls.size(), 1u);
  return urls.empty() ? "" : urls[0];
}

std::string observatory_page() {
  return gleaner::testing::site_page("google",
                                     "maps/cocli_place-dom_griffith-observatory_en_2026-03.html");
}

TEST(MapsReviewsInChromium, ThePlacePageThenItsReviewsRpc) {
  TempReplayArchive archive;
  archive.file(kObservatoryUrl, observatory_page());
  archive.add(prefix_entry(kRpc, envelope()));
  auto replay = archive.load();
  auto result = run_in_chromium(maps_reviews_endpoint(), replay,
                                {{"placeId", kObservatory}, {"sortBy", "newestFirst"}});
  EXPECT_EQ(requested(*replay, "https://www.google.com/maps/place/").front(), kObservatoryUrl);
  // The RPC asked for the data id the page's own link gives, newest first, from the page.
  const std::string rpc = the_rpc_request(*replay);
  EXPECT_TRUE(
      rpc.starts_with(kRpc + "authuser=0&pb=!1m6!1s0x80c2bf61e9d408cb%3A0x73ff07b1c2d6dadc!6m4"))
      << rpc;
  EXPECT_NE(rpc.find("!2m2!1i10!2s!5m2!1s"), std::string::npos) << rpc;
  EXPECT_TRUE(rpc.ends_with("!7e81!8m9!2b1!3b1!5b1!7b1!12m4!1b1!2b1!4m1!1e1!11m0!13m1!1e2")) << rpc;

  const json& body = result.body;
  EXPECT_EQ(body["placeInfo"]["title"], "Griffith Observatory");
  EXPECT_EQ(body["placeInfo"]["address"], "2800 E Observatory Rd, Los Angeles, CA 90027");
  EXPECT_DOUBLE_EQ(body["placeInfo"]["rating"].get<double>(), 4.7);
  EXPECT_EQ(body["placeInfo"]["reviews"], 17059);
  ASSERT_EQ(body["reviews"].size(), 2u);
  const json& first = body["reviews"][0];
  EXPECT_EQ(first["reviewId"],
            "Ci9DQUlRQUNvZENodHljRjlvT2xGMmRraFdhSFowWW0xWVNURTBObEptU3pWWVgxRRAB");
  EXPECT_EQ(first["rating"], 1);
  EXPECT_EQ(first["date"], "2 months ago");
  EXPECT_EQ(first["user"]["name"], "E. Ö.");
  EXPECT_NE(first["snippet"].get<std::string>().find("„Ich habe ja nur zwei Hände“"),
            std::string::npos);
  EXPECT_NE(first["response"]["snippet"].get<std::string>().find("Ihr Praxisteam"),
            std::string::npos);
  const json& second = body["reviews"][1];
  EXPECT_EQ(second["user"]["name"], "Olena Kuzhel");
  EXPECT_EQ(second["user"]["localGuide"], true);
  EXPECT_EQ(second["rating"], 5);
  EXPECT_FALSE(second.contains("response"));
  EXPECT_EQ(body["pagination"], json::object());
}

// The place page and its reviews RPC are read in a hidden tab (a painted one costs about twice the
// CPU), and answer the same as painted: the RPC is the page's own fetch, which needs no paint.
TEST(MapsReviewsInChromium, ReadInAHiddenTabTheSameAsPainted) {
  TempReplayArchive archive;
  archive.file(kObservatoryUrl, observatory_page());
  archive.add(prefix_entry(kRpc, envelope()));
  extract::PoolTabs pool(gleaner::testing::shared_pool(), {archive.load()});
  json answer[2];
  for (const bool painted : {false, true}) {
    maps::testing::ProfilesSeen tabs(pool, painted);
    answer[painted] =
        gleaner::testing::fetch_recorded(maps_reviews_endpoint(), tabs, {{"placeId", kObservatory}})
            .body;
    ASSERT_EQ(tabs.profiles.size(), 1u);
    EXPECT_FALSE(tabs.profiles[0].painted);  // what the endpoint asks for
  }
  EXPECT_EQ(answer[false], answer[true]);
  EXPECT_EQ(answer[false]["placeInfo"]["title"], "Griffith Observatory");
  EXPECT_EQ(answer[false]["reviews"].size(), 2u);
}

TEST(MapsReviewsInChromium, ByDataIdThePageOpenedIsThePlacesDataLink) {
  const std::string page_url =
      "https://www.google.com/maps/place/data=!4m2!3m1!1s0x80c2bf61e9d408cb:0x73ff07b1c2d6dadc"
      "?hl=en";
  TempReplayArchive archive;
  archive.file(page_url, observatory_page());
  archive.add(prefix_entry(kRpc, envelope()));
  auto replay = archive.load();
  auto result = run_in_chromium(maps_reviews_endpoint(), replay,
                                {{"dataId", "0x80c2bf61e9d408cb:0x73ff07b1c2d6dadc"},
                                 {"hl", "en"},
                                 {"nextPageToken", "CAESBkVnSUlDQQ=="}});
  const std::string rpc = the_rpc_request(*replay);
  EXPECT_TRUE(
      rpc.starts_with(kRpc + "authuser=0&hl=en&pb=!1m6!1s0x80c2bf61e9d408cb%3A0x73ff07b1c2d6dadc"))
      << rpc;
  EXPECT_NE(rpc.find("!2sCAESBkVnSUlDQQ%3D%3D!5m2"), std::string::npos) << rpc;
  EXPECT_TRUE(rpc.ends_with("!13m1!1e1")) << rpc;
  EXPECT_EQ(result.body["reviews"].size(), 2u);
}

TEST(MapsReviewsInChromium, TheRpcRefusedAsTooManyRequestsIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.file(kObservatoryUrl, observatory_page());
  TempReplayArchive::Entry refused = prefix_entry(kRpc, "");
  refused.source.clear();
  refused.body = "<html><body>Too Many Requests</body></html>";
  refused.status = 429;
  archive.add(refused);
  EXPECT_EQ(error_in_chromium(maps_reviews_endpoint(), archive.load(), {{"placeId", kObservatory}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

TEST(MapsReviewsInChromium, TheRpcSentToGooglesCaptchaIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.file(kObservatoryUrl, observatory_page());
  TempReplayArchive::Entry redirect = prefix_entry(kRpc, "");
  redirect.source.clear();
  redirect.status = 302;
  redirect.headers["Location"] = "https://www.google.com/sorry/index?continue=x";
  archive.add(redirect);
  archive.page("https://www.google.com/sorry/index?continue=x",
               "<html><body><form id='captcha-form' action='/sorry/index'></form></body></html>");
  EXPECT_EQ(error_in_chromium(maps_reviews_endpoint(), archive.load(), {{"placeId", kObservatory}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

TEST(MapsReviewsInChromium, GooglesCaptchaInsteadOfThePlaceIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.page(kObservatoryUrl,
               "<html><head><title>Google Maps</title></head><body><form id='captcha-form' "
               "action='/sorry/index'><p>Our systems have detected unusual traffic from your "
               "computer network.</p><div class='g-recaptcha'></div></form></body></html>");
  EXPECT_EQ(error_in_chromium(maps_reviews_endpoint(), archive.load(), {{"placeId", kObservatory}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::google
