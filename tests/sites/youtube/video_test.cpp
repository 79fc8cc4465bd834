// The video endpoint without a browser: parameter rules, the watch URL, and the shaping of
// video.js's recorded output on the real watch page (fixtures/pages/video/yta_watch_GJLlxj_dtq8_*)
// and of the site's youtubei /player and /next responses for another video
// (fixtures/pages/video/ivmocks_mrbeast.*.json, the shapes of ytInitialPlayerResponse and
// ytInitialData).
#include "extract/sites/youtube/video.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "extract/sites/common/clock.h"
#include "tests/support/pages.h"
#include "tests/support/sites/fake_tab.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::youtube {
namespace {

using nlohmann::json;
using testing::recorded;
using testing::refused;
using testing::rejection;

const Endpoint& video() { return video_endpoint(); }

json watch_page_output() { return recorded("youtube/data/video/surface-go_script_output.json"); }

// The youtubei responses in the shape video.js returns them.
json mrbeast_output() {
  const std::string dir = gleaner::testing::site_page("youtube", "video/");
  return {{"player", testing::read_json_file(dir + "ivmocks_mrbeast.player.json")},
          {"next", testing::read_json_file(dir + "ivmocks_mrbeast.next.json")}};
}

TEST(VideoParameters, VideoIdIsElevenCharacters) {
  EXPECT_EQ(rejection(video(), {}), refused(ErrorCode::MissingParameter, "v"));
  EXPECT_EQ(rejection(video(), {{"v", "GJLlxj_dtq"}}),
            refused(ErrorCode::InvalidParameter, "v"));
  EXPECT_EQ(rejection(video(), {{"v", "GJLlxj_dtq8x"}}),
            refused(ErrorCode::InvalidParameter, "v"));
  EXPECT_EQ(rejection(video(), {{"v", "GJLlxj/dtq8"}}),
            refused(ErrorCode::InvalidParameter, "v"));
  EXPECT_EQ(rejection(video(), {{"v", "GJLlxj_dtq8"}, {"gl", "usa"}}),
            refused(ErrorCode::InvalidParameter, "gl"));
  EXPECT_EQ(rejection(video(), {{"v", "GJLlxj_dtq8"}, {"hl", "e"}}),
            refused(ErrorCode::InvalidParameter, "hl"));
  EXPECT_EQ(rejection(video(), {{"v", "GJLlxj_dtq8"}, {"deviceType", "tablet"}}),
            refused(ErrorCode::InvalidParameter, "deviceType"));
  EXPECT_NO_THROW(video().validate({{"v", "2isYuQZMbdU"}, {"deviceType", "mobile"}}));
}

TEST(VideoUrl, WatchPageWithLanguageAndCountry) {
  auto req = video().build_request(video().validate({{"v", "GJLlxj_dtq8"}}));
  EXPECT_EQ(req.url, "https://www.youtube.com/watch?v=GJLlxj_dtq8");
  EXPECT_EQ(req.profile.device, BrowserProfile::Device::Desktop);
  req = video().build_request(
      video().validate({{"v", "GJLlxj_dtq8"}, {"hl", "EN"}, {"gl", "gb"}, {"deviceType", "mobile"}}));
  EXPECT_EQ(req.url, "https://www.youtube.com/watch?v=GJLlxj_dtq8&hl=en&gl=GB");
  EXPECT_EQ(req.profile.device, BrowserProfile::Device::Mobile);
  EXPECT_EQ(video().path(), "/scrape/video/video");
  EXPECT_EQ(video().route(), "video/video");
}

TEST(VideoShape, DetailsOfTheWatchPage) {
  json v = video().shape(watch_page_output(), {});
  EXPECT_EQ(v["videoId"], "GJLlxj_dtq8");
  EXPECT_EQ(v["title"], "Surface Go Review - It’s Awesome");
  EXPECT_TRUE(v["description"].get<std::string>().starts_with(
      "Dave2D review of the Microsoft Surface Go."));
  EXPECT_EQ(v["views"], "1,856,109 views");
  EXPECT_EQ(v["extractedViews"], 1856109);
  EXPECT_EQ(v["likes"], "43K");
  EXPECT_EQ(v["extractedLikes"], 43864);
  EXPECT_EQ(v["lengthSeconds"], 316);
  EXPECT_EQ(v["publishedDate"], "2018-08-02T06:00:08-07:00");
  EXPECT_EQ(v["uploadDate"], "2018-08-02T06:00:08-07:00");
  EXPECT_EQ(v["date"], "Aug 2, 2018");
  EXPECT_EQ(v["category"], "Science & Technology");
  EXPECT_EQ(v["thumbnail"], "https://i.ytimg.com/vi/GJLlxj_dtq8/maxresdefault.jpg");
  ASSERT_EQ(v["keywords"].size(), 15u);
  EXPECT_EQ(v["keywords"][0], "Dave2D");
  EXPECT_EQ(v["keywords"][14], "XPS 13");
  EXPECT_EQ(v["isFamilySafe"], true);
  EXPECT_EQ(v["isUnlisted"], false);
  EXPECT_EQ(v["isLive"], false);

  const json& channel = v["channel"];
  EXPECT_EQ(channel["id"], "UCVYamHliCI9rw1tHR1xbkfw");
  EXPECT_EQ(channel["name"], "Dave2D");
  EXPECT_EQ(channel["link"], "https://www.youtube.com/@Dave2D");
  EXPECT_EQ(channel["subscribers"], "3.68M subscribers");
  EXPECT_EQ(channel["extractedSubscribers"], 3680000);
  EXPECT_EQ(channel["verified"], true);
}

TEST(VideoShape, ChaptersOfTheWatchPage) {
  json v = video().shape(watch_page_output(), {});
  const json& chapters = v.at("chapters");
  ASSERT_EQ(chapters.size(), 10u);
  EXPECT_EQ(chapters[0], json({{"title", "Build Quality"}, {"startSeconds", 39}}));
  for (std::size_t i = 1; i < chapters.size(); ++i) {
    EXPECT_GT(chapters[i]["startSeconds"], chapters[i - 1]["startSeconds"]);
    EXPECT_LT(chapters[i]["startSeconds"], 316);
  }
}

TEST(VideoShape, RelatedVideosOfTheWatchPage) {
  json v = video().shape(watch_page_output(), {});
  const json& related = v.at("relatedVideos");
  ASSERT_EQ(related.size(), 20u);
  const json& first = related[0];
  EXPECT_EQ(first["position"], 1);
  EXPECT_EQ(first["videoId"], "cah9itYL7OI");
  EXPECT_EQ(first["title"], "Entry-Level Surface Go Review: Is it really worth your money??");
  EXPECT_EQ(first["link"], "https://www.youtube.com/watch?v=cah9itYL7OI");
  EXPECT_EQ(first["channel"]["name"], "E.J. Yu");
  EXPECT_EQ(first["channel"]["link"], "https://www.youtube.com/@EJYu");
  EXPECT_EQ(first["views"], "158,593 views");
  EXPECT_EQ(first["extractedViews"], 158593);
  EXPECT_EQ(first["length"], "17:45");
  EXPECT_EQ(first["lengthSeconds"], 1065);
  EXPECT_EQ(first["publishedDate"], "6 years ago");
  EXPECT_TRUE(first["thumbnail"].get<std::string>().starts_with(
      "https://i.ytimg.com/vi/cah9itYL7OI/hqdefault.jpg"));
  EXPECT_EQ(related[19]["position"], 20);
}

// A live stream scheduled but not started, as the youtubei /player and /next of 2023 answer it
// (iv-org/mocks): the counter shows who is waiting, the length is 0 until the stream ends.
TEST(VideoShape, ScheduledLiveStreamOf2023) {
  using namespace std::chrono;
  FakeClock saved(sys_days(2023y / February / 27) + 20h);
  ScopedSiteClock scoped(saved);
  const std::string dir = gleaner::testing::site_page("youtube", "video/");
  const json v = video().shape(
      {{"hl", "en"},
       {"player",
        testing::read_json_file(dir + "ivmocks_pbd-podcast-scheduled-2023.player.json")},
       {"next", testing::read_json_file(dir + "ivmocks_pbd-podcast-scheduled-2023.next.json")}},
      {});
  EXPECT_EQ(v["videoId"], "N-yVic7BbY0");
  EXPECT_EQ(v["title"], "Home Team | PBD Podcast | Ep. 241");
  EXPECT_EQ(v["channel"]["name"], "PBD Podcast");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 594000);
  EXPECT_EQ(v["date"], "Scheduled for Feb 28, 2023");
  EXPECT_EQ(v["views"], "6 waiting");
  EXPECT_FALSE(v.contains("watching"));
  EXPECT_EQ(v["extractedViews"], 0);
  EXPECT_EQ(v["isLive"], false);
  EXPECT_FALSE(v.contains("lengthSeconds"));
  EXPECT_EQ(v["playability"]["status"], "LIVE_STREAM_OFFLINE");
  EXPECT_EQ(v["playability"]["reason"], "This live event will begin in 18 hours.");
  EXPECT_EQ(v["playability"]["scheduledStartTime"], "2023-02-28T14:00:00Z");
  const json& second = v["relatedVideos"][1];
  EXPECT_EQ(second["videoId"], "_FpskML_gE8");
  EXPECT_EQ(second["publishedDate"], "Streamed 4 days ago");
  EXPECT_EQ(second["extractedPublishedDate"], "2023-02-23");
  EXPECT_EQ(second["lengthSeconds"], 7898);
  EXPECT_EQ(second["extractedViews"], 158450);
}

TEST(VideoShape, YoutubeiResponsesOfAnotherVideo) {
  json v = video().shape(mrbeast_output(), {});
  EXPECT_EQ(v["videoId"], "2isYuQZMbdU");
  EXPECT_EQ(v["title"], "I Gave My 100,000,000th Subscriber An Island");
  EXPECT_EQ(v["views"], "220,226,287 views");
  EXPECT_EQ(v["extractedViews"], 220226287);
  EXPECT_EQ(v["lengthSeconds"], 930);
  EXPECT_EQ(v["category"], "Entertainment");
  EXPECT_EQ(v["publishedDate"], "2022-08-04T12:59:59-07:00");
  EXPECT_EQ(v["channel"]["name"], "MrBeast");
  EXPECT_EQ(v["channel"]["id"], "UCX6OQ3DkcsbYNE6H8uQQuVA");
  EXPECT_EQ(v["channel"]["subscribers"], "320M subscribers");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 320000000);
  EXPECT_EQ(v["channel"]["verified"], true);
  EXPECT_EQ(v["relatedVideos"].size(), 20u);
  EXPECT_FALSE(v.contains("chapters"));
}

// No fixture holds the newer renderer. This watch-next sidebar carries the first related video
// of the watch page fixture (cah9itYL7OI) written in the lockupViewModel structure the site
// serves since late 2024 (title and metadata rows in lockupMetadataViewModel, the length as a
// thumbnail badge), inside an item section beside a mix and a continuation, which are skipped.
// Replace it with a recorded response when one is available.
json lockup_sidebar() {
  return json::parse(R"({"secondaryResults": {"results": [{"itemSectionRenderer": {"contents": [
    {"lockupViewModel": {
      "contentId": "cah9itYL7OI",
      "contentType": "LOCKUP_CONTENT_TYPE_VIDEO",
      "contentImage": {"thumbnailViewModel": {
        "image": {"sources": [
          {"url": "https://i.ytimg.com/vi/cah9itYL7OI/hqdefault.jpg?sqp=a", "width": 168, "height": 94},
          {"url": "https://i.ytimg.com/vi/cah9itYL7OI/hqdefault.jpg?sqp=b", "width": 336, "height": 188}]},
        "overlays": [{"thumbnailOverlayBadgeViewModel": {"thumbnailBadges": [
          {"thumbnailBadgeViewModel": {"text": "17:45",
                                       "badgeStyle": "THUMBNAIL_OVERLAY_BADGE_STYLE_DEFAULT"}}]}}]}},
      "metadata": {"lockupMetadataViewModel": {
        "title": {"content": "Entry-Level Surface Go Review: Is it really worth your money??"},
        "metadata": {"contentMetadataViewModel": {
          "metadataRows": [
            {"metadataParts": [{"text": {"content": "E.J. Yu", "commandRuns": [
              {"startIndex": 0, "length": 7, "onTap": {"innertubeCommand": {"browseEndpoint": {
                "browseId": "UC4eWyQxZoDw53wZ_j36SCTw", "canonicalBaseUrl": "/@EJYu"}}}}]}}]},
            {"metadataParts": [{"text": {"content": "158K views"}},
                               {"text": {"content": "6 years ago"}}]}],
          "delimiter": " • "}}}},
      "rendererContext": {"commandContext": {"onTap": {"innertubeCommand": {
        "watchEndpoint": {"videoId": "cah9itYL7OI"}}}}}}},
    {"lockupViewModel": {"contentId": "RDGJLlxj_dtq8", "contentType": "LOCKUP_CONTENT_TYPE_PLAYLIST"}},
    {"continuationItemRenderer": {}}]}}]}})");
}

TEST(VideoShape, RelatedVideosInTheNewerRenderer) {
  using namespace std::chrono;
  FakeClock saved(sys_days(2025y / June / 10));
  ScopedSiteClock scoped(saved);
  json out = watch_page_output();
  out["next"]["contents"]["twoColumnWatchNextResults"]["secondaryResults"] = lockup_sidebar();
  json related = video().shape(out, {}).at("relatedVideos");
  ASSERT_EQ(related.size(), 1u);
  EXPECT_EQ(related[0],
            json({{"position", 1},
                  {"videoId", "cah9itYL7OI"},
                  {"title", "Entry-Level Surface Go Review: Is it really worth your money??"},
                  {"link", "https://www.youtube.com/watch?v=cah9itYL7OI"},
                  {"channel", {{"name", "E.J. Yu"}, {"link", "https://www.youtube.com/@EJYu"}}},
                  {"views", "158K views"},
                  {"extractedViews", 158000},
                  {"publishedDate", "6 years ago"},
                  {"extractedPublishedDate", "2019-06-10"},
                  {"length", "17:45"},
                  {"lengthSeconds", 1065},
                  {"thumbnail", "https://i.ytimg.com/vi/cah9itYL7OI/hqdefault.jpg?sqp=b"}}));
}

TEST(VideoShape, LiveNowFromTheBroadcastDetails) {
  json out = mrbeast_output();
  EXPECT_EQ(video().shape(out, {})["isLive"], false);
  out["player"]["microformat"]["playerMicroformatRenderer"]["liveBroadcastDetails"] = {
      {"isLiveNow", true}, {"startTimestamp", "2022-08-04T19:59:59+00:00"}};
  EXPECT_EQ(video().shape(out, {})["isLive"], true);
}

// The watch page's text is drawn by the site's scripts: without them its body is empty, which the
// shared block check alone would take for an empty shell. The inline player response decides.
TEST(VideoFlow, PageWithoutTextIsReadFromItsInlineData) {
  const std::string url = "https://www.youtube.com/watch?v=GJLlxj_dtq8";
  auto page_without_text = [&](json data) {
    testing::FakeTabs::Page page;
    page.navigation = {url, 200, {}};
    json signals = testing::ordinary_page_signals(url);
    signals["text"] = "";
    signals["textLength"] = 0;
    signals["elementCount"] = 330;
    page.evaluated = {{"signals", signals}, {"data", std::move(data)}, {"error", nullptr}};
    return page;
  };
  testing::FakeTabs tabs;
  tabs.serve_page(url, page_without_text(watch_page_output()));
  auto params = video().validate({{"v", "GJLlxj_dtq8"}});
  EXPECT_EQ(video().fetch(params, tabs, deadline_in(Millis(5000))).body["videoId"], "GJLlxj_dtq8");

  testing::FakeTabs empty;
  empty.serve_page(url, page_without_text({{"player", nullptr}, {"next", nullptr}}));
  try {
    video().fetch(params, empty, deadline_in(Millis(5000)));
    FAIL() << "an empty page was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::UpstreamBlocked);
  }
}

// ---- watch pages of other years, languages and kinds (tests/sites/youtube/pages/video) -------

json recorded_page(const std::string& name) {
  return recorded("youtube/data/video/" + name + "_script_output.json");
}

// hl=vi: counts as Vietnamese writes them ("11.579.654", "34,2 N" thousand) and an age gate the
// page marks apart from its words; the video's details are shown, the player is not.
TEST(VideoShape, AgeRestrictedPageInVietnamese) {
  json v = video().shape(recorded_page("age-restricted-vi-VN"), {});
  EXPECT_EQ(v["videoId"], "CsrfovOPcjk");
  EXPECT_EQ(v["title"], "Who the Fuck is Alice?");
  EXPECT_EQ(v["channel"]["name"], "RescoeZ");
  EXPECT_EQ(v["channel"]["subscribers"], "34,2\u00a0N người đăng ký");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 34200);
  EXPECT_EQ(v["views"], "11.579.654 lượt xem");
  EXPECT_EQ(v["extractedViews"], 11579654);
  EXPECT_EQ(v["likes"], "50\u00a0N");
  EXPECT_EQ(v["extractedLikes"], 50664);  // "và 50.664 người khác thích video này"
  EXPECT_EQ(v["date"], "4 thg 4, 2007");
  EXPECT_EQ(v["publishedDate"], "2007-04-04");
  EXPECT_EQ(v["lengthSeconds"], 237);
  EXPECT_EQ(v["isFamilySafe"], false);
  EXPECT_EQ(v["playability"], json({{"status", "LOGIN_REQUIRED"},
                                    {"reason", "Đăng nhập để xác nhận tuổi của bạn"},
                                    {"ageRestricted", true}}));
  EXPECT_TRUE(v["relatedVideos"].empty());
}

// 2021, hl=en gl=VN: the older toggle like button, the creator's chapters, the sidebar.
TEST(VideoShape, ChaptersAndTheOlderLikeButton) {
  json v = video().shape(recorded_page("chapters"), {});
  EXPECT_EQ(v["title"], "JavaScript Tutorial for Beginners: Learn JavaScript in 1 Hour");
  EXPECT_EQ(v["channel"]["name"], "Programming with Mosh");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 1680000);
  EXPECT_EQ(v["channel"]["verified"], true);
  EXPECT_EQ(v["views"], "4,586,491 views");
  EXPECT_EQ(v["extractedViews"], 4586491);
  EXPECT_EQ(v["likes"], "79K");
  EXPECT_EQ(v["extractedLikes"], 79487);
  EXPECT_EQ(v["lengthSeconds"], 2897);
  EXPECT_EQ(v["date"], "Apr 23, 2018");
  EXPECT_EQ(v["publishedDate"], "2018-04-23");
  EXPECT_FALSE(v.contains("playability"));
  ASSERT_EQ(v["chapters"].size(), 13u);
  EXPECT_EQ(v["chapters"][0], json({{"title", "What is JavaScript"}, {"startSeconds", 0}}));
  EXPECT_EQ(v["chapters"][12], json({{"title", "Types of Functions"}, {"startSeconds", 2662}}));
  ASSERT_EQ(v["relatedVideos"].size(), 19u);
  EXPECT_EQ(v["relatedVideos"][0]["videoId"], "PFmuCDHHpwk");
  EXPECT_EQ(v["relatedVideos"][0]["extractedViews"], 930153);
  EXPECT_EQ(v["relatedVideos"][0]["lengthSeconds"], 3769);
}

// A stream while it is live: the counter shows who watches, the stream has no length yet.
TEST(VideoShape, LiveStreamWhileLive) {
  json v = video().shape(recorded_page("live-now"), {});
  EXPECT_EQ(v["title"], "lofi hip hop radio - beats to relax/study to");
  EXPECT_EQ(v["isLive"], true);
  EXPECT_EQ(v["views"], "30,930 watching now");
  EXPECT_EQ(v["watching"], 30930);
  EXPECT_EQ(v["extractedViews"], 251705798);
  EXPECT_FALSE(v.contains("lengthSeconds"));
  EXPECT_EQ(v["date"], "Started streaming on Feb 22, 2020");
  EXPECT_EQ(v["publishedDate"], "2020-02-22");
  EXPECT_EQ(v["likes"], "3.8M");
  EXPECT_EQ(v["extractedLikes"], 3803872);
  // The "Up next" item leads the sidebar.
  ASSERT_EQ(v["relatedVideos"].size(), 19u);
  EXPECT_EQ(v["relatedVideos"][0]["videoId"], "oJnF5VxTO5g");
  EXPECT_EQ(v["relatedVideos"][1]["videoId"], "qvUWA45GOMg");
}

// The channel shown under an artist's video is the artist's, not the VEVO uploader's.
TEST(VideoShape, ChannelIsTheOwnerThePageShows) {
  json v = video().shape(recorded_page("music"), {});
  EXPECT_EQ(v["title"], "Adele - Hello");
  EXPECT_EQ(v["channel"],
            json({{"id", "UCsRM0YB_dabtEPGPTKo-gcw"},
                  {"name", "Adele"},
                  {"link", "https://www.youtube.com/channel/UCsRM0YB_dabtEPGPTKo-gcw"},
                  {"subscribers", "22.7M subscribers"},
                  {"extractedSubscribers", 22700000},
                  {"verified", true}}));
  EXPECT_EQ(v["extractedViews"], 2756035380LL);
  EXPECT_EQ(v["likes"], "16M");
  EXPECT_EQ(v["extractedLikes"], 16173003);
  EXPECT_EQ(v["relatedVideos"].size(), 18u);
}

// A film for rent: described, not playable; its sidebar films name no channel.
TEST(VideoShape, RentalIsDescribedAndMarkedUnplayable) {
  json v = video().shape(recorded_page("rental"), {});
  EXPECT_EQ(v["title"], "Plane Crash");
  EXPECT_EQ(v["channel"]["name"], "Curiosity");
  EXPECT_EQ(v["channel"]["id"], "UC3HrsEKwXhRBDkiMn-O91RA");
  EXPECT_FALSE(v["channel"].contains("subscribers"));
  EXPECT_FALSE(v.contains("views"));  // the page shows no count
  EXPECT_EQ(v["extractedViews"], 6208);
  EXPECT_EQ(v["lengthSeconds"], 5242);
  EXPECT_EQ(v["playability"]["status"], "UNPLAYABLE");
  EXPECT_EQ(v["playability"]["reason"], "This video requires payment to watch.");
  EXPECT_EQ(v["playability"]["ageRestricted"], false);
  ASSERT_EQ(v["relatedVideos"].size(), 10u);
  EXPECT_EQ(v["relatedVideos"][0]["title"], "Volcano Time Bomb");
  EXPECT_FALSE(v["relatedVideos"][0].contains("channel"));
}

// 2023, hl=de: German numbers ("170.950 Aufrufe", "11.300 Abonnenten") and dates ("06.01.2023",
// "vor 3 Jahren" in the sidebar as shown).
TEST(VideoShape, GermanPage) {
  json v = video().shape(recorded_page("de-DE"), {});
  EXPECT_EQ(v["videoId"], "P3pFkriw10Q");
  EXPECT_EQ(v["views"], "170.950 Aufrufe");
  EXPECT_EQ(v["extractedViews"], 170950);
  EXPECT_EQ(v["channel"]["subscribers"], "11.300 Abonnenten");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 11300);
  EXPECT_EQ(v["channel"]["link"], "https://www.youtube.com/@mohamed_elkahlay");
  EXPECT_EQ(v["likes"], "2552");
  EXPECT_EQ(v["extractedLikes"], 2552);
  EXPECT_EQ(v["date"], "06.01.2023");
  EXPECT_EQ(v["publishedDate"], "2023-01-06T05:05:24-08:00");
  EXPECT_EQ(v["lengthSeconds"], 74);
  EXPECT_EQ(v["category"], "Education");
  ASSERT_EQ(v["relatedVideos"].size(), 20u);
  EXPECT_EQ(v["relatedVideos"][0]["views"], "3.805.439 Aufrufe");
  EXPECT_EQ(v["relatedVideos"][0]["extractedViews"], 3805439);
  EXPECT_EQ(v["relatedVideos"][0]["publishedDate"], "vor 3 Jahren");
}

// 2020: the data set as window["ytInitialPlayerResponse"] and window["ytInitialData"].
TEST(VideoShape, DataSetAsWindowProperties) {
  json v = video().shape(recorded_page("2020-window-globals"), {});
  EXPECT_EQ(v["videoId"], "_HSylqgVYQI");
  EXPECT_EQ(v["title"], "Meor 2 - Screaming cat goes nuts!");
  EXPECT_EQ(v["channel"]["name"], "FlippyCat");
  EXPECT_EQ(v["channel"]["subscribers"], "366K subscribers");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 366000);
  EXPECT_EQ(v["views"], "582,858 views");
  EXPECT_EQ(v["extractedViews"], 582858);
  EXPECT_EQ(v["likes"], "2.3K");
  EXPECT_EQ(v["extractedLikes"], 2347);
  EXPECT_EQ(v["date"], "Apr 4, 2006");
  EXPECT_EQ(v["publishedDate"], "2006-04-04");
  EXPECT_EQ(v["lengthSeconds"], 10);
  ASSERT_EQ(v["relatedVideos"].size(), 19u);
  EXPECT_EQ(v["relatedVideos"][0]["videoId"], "l3OyxbY7E20");
  EXPECT_EQ(v["relatedVideos"][0]["views"], "397,489 views");
}

// The layout before 2020: the player response from ytplayer.config, what the page shows from its
// server-rendered markup.
TEST(VideoShape, LayoutBefore2020) {
  json v = video().shape(recorded_page("2019-layout"), {});
  EXPECT_EQ(v["videoId"], "_HSylqgVYQI");
  EXPECT_EQ(v["title"], "Meor 2 - Screaming cat goes nuts!");
  EXPECT_EQ(v["channel"]["name"], "FlippyCat");
  EXPECT_EQ(v["channel"]["link"], "https://www.youtube.com/channel/UCuO06egvl5yE__rR_02WUZw");
  EXPECT_EQ(v["channel"]["subscribers"], "365K");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 365000);
  EXPECT_EQ(v["channel"]["verified"], true);
  EXPECT_EQ(v["views"], "575,652 views");
  EXPECT_EQ(v["extractedViews"], 575652);
  EXPECT_EQ(v["likes"], "2,183");
  EXPECT_EQ(v["extractedLikes"], 2183);
  EXPECT_EQ(v["date"], "Published on Apr 4, 2006");
  EXPECT_EQ(v["publishedDate"], "2006-04-04");
  EXPECT_EQ(v["lengthSeconds"], 10);
  ASSERT_EQ(v["relatedVideos"].size(), 20u);
  // The "Up next" item, whose counter says "Recommended for you", leads the sidebar.
  EXPECT_EQ(v["relatedVideos"][0]["videoId"], "Rhl1Idcrtdg");
  EXPECT_FALSE(v["relatedVideos"][0].contains("views"));
  EXPECT_EQ(v["relatedVideos"][0]["lengthSeconds"], 231);
  EXPECT_EQ(v["relatedVideos"][1]["title"], "Cat meeting the puppies for the first time.");
  EXPECT_EQ(v["relatedVideos"][1]["channel"]["name"], "Stef90");
}

// The same layout in 2020 with likes hidden: the button has no text (its label says 0).
TEST(VideoShape, LayoutBefore2020WithLikesHidden) {
  json v = video().shape(recorded_page("2020-layout-no-likes"), {});
  EXPECT_EQ(v["videoId"], "KKzOh0MRuZE");
  EXPECT_EQ(v["channel"]["name"], "Cooking with Shotgun Red");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 243000);
  EXPECT_EQ(v["views"], "27,260 views");
  EXPECT_EQ(v["extractedViews"], 27260);
  EXPECT_FALSE(v.contains("likes"));
  EXPECT_FALSE(v.contains("extractedLikes"));
  EXPECT_EQ(v["date"], "Published on Oct 6, 2017");
  EXPECT_EQ(v["relatedVideos"][0]["views"], "20,487 views");
  EXPECT_EQ(v["relatedVideos"][0]["extractedViews"], 20487);
}

// A stream scheduled and not yet started (2017, the layout before 2020): the player response has
// no details, the page's microdata and markup describe it; playability says when it starts.
TEST(VideoShape, UpcomingStreamBefore2020) {
  json v = video().shape(recorded_page("upcoming-stream-2017"), {});
  EXPECT_EQ(v["videoId"], "iC9YT-5aUhI");
  EXPECT_EQ(v["title"], "[KOR] 아프리카TV 스타리그(ASL) 시즌3 16강 2일차");
  EXPECT_TRUE(v["description"].get<std::string>().starts_with(
      "AfreecaTV StarCraft League[US] - http://afreeca.tv/afasl\n"));
  EXPECT_EQ(v["channel"]["name"], "AfreecaTV Live");
  EXPECT_EQ(v["channel"]["id"], "UCK5eBtuoj_HkdXKHNmBLAXg");
  EXPECT_EQ(v["channel"]["subscribers"], "21,696");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 21696);
  EXPECT_EQ(v["date"], "Scheduled for May 2, 2017");
  EXPECT_EQ(v["publishedDate"], "2017-04-24");
  EXPECT_EQ(v["category"], "Gaming");
  EXPECT_FALSE(v.contains("views"));
  EXPECT_FALSE(v.contains("lengthSeconds"));
  EXPECT_EQ(v["isLive"], false);
  EXPECT_EQ(v["playability"], json({{"status", "LIVE_STREAM_OFFLINE"},
                                    {"ageRestricted", false},
                                    {"scheduledStartTime", "2017-05-02T09:50:00Z"}}));
  EXPECT_EQ(v["relatedVideos"].size(), 20u);
}

// The sidebar's relative dates, read in the page's language as of the day the page was saved.
TEST(VideoShape, SidebarDatesAsOfTheDay) {
  using namespace std::chrono;
  {
    FakeClock saved(sys_days(2023y / December / 27));
    ScopedSiteClock scoped(saved);
    json related = video().shape(recorded_page("de-DE"), {})["relatedVideos"];
    EXPECT_EQ(related[0]["publishedDate"], "vor 3 Jahren");
    EXPECT_EQ(related[0]["extractedPublishedDate"], "2020-12-27");
    EXPECT_EQ(related[1]["publishedDate"], "vor 7 Monaten");
    EXPECT_EQ(related[1]["extractedPublishedDate"], "2023-05-27");
  }
  {
    FakeClock saved(sys_days(2021y / May / 4));
    ScopedSiteClock scoped(saved);
    json related = video().shape(recorded_page("chapters"), {})["relatedVideos"];
    EXPECT_EQ(related[0]["publishedDate"], "3 years ago");
    EXPECT_EQ(related[0]["extractedPublishedDate"], "2018-05-04");
  }
  // Vietnamese relative words are not known to the kit: the text alone.
  json vi = video().shape(recorded_page("age-restricted-vi-VN"), {});
  EXPECT_TRUE(vi["relatedVideos"].empty());
}

// Without the microformat's date, the date the page shows, read in its language.
TEST(VideoShape, PublishedDateFromTheShownDate) {
  auto published = [](const std::string& page, const std::string& shown, const std::string& hl) {
    json out = recorded_page(page);
    out["player"]["microformat"]["playerMicroformatRenderer"].erase("publishDate");
    out["hl"] = hl;
    for (json& c :
         out["next"]["contents"]["twoColumnWatchNextResults"]["results"]["results"]["contents"]) {
      if (c.contains("videoPrimaryInfoRenderer")) {
        c["videoPrimaryInfoRenderer"]["dateText"] = {{"simpleText", shown}};
      }
    }
    return video().shape(out, {}).value("publishedDate", "");
  };
  EXPECT_EQ(published("de-DE", "06.01.2023", "de-DE"), "2023-01-06");
  EXPECT_EQ(published("chapters", "Apr 23, 2018", "en"), "2018-04-23");
  EXPECT_EQ(published("chapters", "Premiered Feb 17, 2020", "en"), "2020-02-17");
  EXPECT_EQ(published("de-DE", "15 févr. 2021", "fr"), "2021-02-15");
  EXPECT_EQ(published("de-DE", "15 feb 2021", "es"), "2021-02-15");
}

// A like button without a count (the creator hid it) gives no likes.
TEST(VideoShape, HiddenLikesAreNoCount) {
  json out = recorded_page("chapters");
  std::vector<json*> toggles;
  std::function<void(json&)> find = [&](json& node) {
    if (node.is_object()) {
      for (auto& [key, value] : node.items()) {
        if (key == "toggleButtonRenderer") toggles.push_back(&value);
        find(value);
      }
    } else if (node.is_array()) {
      for (json& child : node) find(child);
    }
  };
  find(out["next"]["contents"]);
  for (json* t : toggles) {
    if ((*t)["defaultIcon"]["iconType"] == "LIKE") {
      (*t)["defaultText"] = {{"accessibility", {{"accessibilityData", {{"label", "I like this"}}}}},
                             {"simpleText", "Like"}};
      (*t)["accessibility"] = {{"label", "I like this"}};
    }
  }
  json v = video().shape(out, {});
  EXPECT_FALSE(v.contains("likes"));
  EXPECT_FALSE(v.contains("extractedLikes"));
}

// Counts in the languages the site writes them in; the abbreviations of the pages above and
// CLDR's short forms the site uses for the others.
TEST(VideoShape, CountsAsTheLanguageWritesThem) {
  EXPECT_EQ(count_in("34,2 N người đăng ký", "vi-VN"), 34200);
  EXPECT_EQ(count_in("11\u00a0Tr lượt xem", "vi"), 11000000);
  EXPECT_EQ(count_in("11.579.654 lượt xem", "vi-VN"), 11579654);
  EXPECT_EQ(count_in("1.68M subscribers", "en"), 1680000);
  EXPECT_EQ(count_in("2,756,035,380 views", "en"), 2756035380LL);
  EXPECT_EQ(count_in("1,2 Mio. Aufrufe", "de-DE"), 1200000);
  EXPECT_EQ(count_in("170.950 Aufrufe", "de"), 170950);
  EXPECT_EQ(count_in("12 k vues", "fr"), 12000);
  EXPECT_EQ(count_in("1,5 M d’abonnés", "fr-FR"), 1500000);
  EXPECT_EQ(count_in("3.4万 回視聴", "ja"), 34000);
  EXPECT_EQ(count_in("123万人", "ja-JP"), 1230000);
  EXPECT_EQ(count_in("1,2 mi de visualizações", "pt-BR"), 1200000);
  EXPECT_EQ(count_in("12 mil visualizações", "pt-BR"), 12000);
  EXPECT_EQ(count_in("12 mil visualizaciones", "es"), 12000);
  EXPECT_EQ(count_in("1,2 тыс. просмотров", "ru"), 1200);
  EXPECT_EQ(count_in("3,4 млн просмотров", "ru"), 3400000);
  EXPECT_EQ(count_in("1,2 B görüntüleme", "tr"), 1200);  // Turkish "bin": a thousand
  EXPECT_EQ(count_in("1.2B views", "en"), 1200000000);
  EXPECT_EQ(count_in("1.5 लाख व्यूज़", "hi"), 150000);
  EXPECT_EQ(count_in("1 234 vues", "fr"), 1234);
  EXPECT_EQ(count_in("1,2M views", ""), 1200000);  // no language: the kit's reading
  EXPECT_EQ(count_in("No views", "en"), std::nullopt);
}

TEST(VideoShape, DurationsInSeconds) {
  EXPECT_EQ(duration_seconds("17:45"), 1065);
  EXPECT_EQ(duration_seconds("0:39"), 39);
  EXPECT_EQ(duration_seconds("1:02:03"), 3723);
  EXPECT_EQ(duration_seconds("12:5"), std::nullopt);
  EXPECT_EQ(duration_seconds("LIVE"), std::nullopt);
  EXPECT_EQ(duration_seconds("5 videos"), std::nullopt);
  EXPECT_EQ(duration_seconds("45"), std::nullopt);
}

TEST(VideoShape, MissingVideoIsNotFoundAndBotCheckIsBlocked) {
  auto code_of = [](const json& player) {
    try {
      video().shape({{"player", player}, {"next", json::object()}}, {});
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::Internal;
  };
  EXPECT_EQ(code_of({{"playabilityStatus",
                      {{"status", "ERROR"}, {"reason", "This video isn't available anymore"}}}}),
            ErrorCode::NotFound);
  EXPECT_EQ(code_of({{"playabilityStatus",
                      {{"status", "LOGIN_REQUIRED"},
                       {"reason", "Sign in to confirm you’re not a bot"}}}}),
            ErrorCode::UpstreamBlocked);
  // The same check in German (written here: no real page of it was found), known by its reason
  // and, whatever the language, by its link to the help article on it (the real page of 2025
  // links https://support.google.com/youtube/answer/3037019#zippy=…).
  EXPECT_EQ(code_of({{"playabilityStatus",
                      {{"status", "LOGIN_REQUIRED"},
                       {"reason", "Melde dich an, um zu bestätigen, dass du kein Bot bist"}}}}),
            ErrorCode::UpstreamBlocked);
  const json learn_more = {
      {"runs",
       {{{"text", "Подробнее"},
         {"navigationEndpoint",
          {{"urlEndpoint", {{"url", "https://support.google.com/youtube/answer/3037019"}}}}}}}}};
  EXPECT_EQ(
      code_of({{"playabilityStatus",
                {{"status", "LOGIN_REQUIRED"},
                 {"reason", "Войдите, чтобы подтвердить, что вы не робот"},
                 {"errorScreen", {{"playerErrorMessageRenderer", {{"subreason", learn_more}}}}}}}}),
      ErrorCode::UpstreamBlocked);
  // A private video also asks to sign in, with no such link: not a wall.
  EXPECT_EQ(code_of({{"playabilityStatus",
                      {{"status", "LOGIN_REQUIRED"}, {"reason", "This video is private"}}}}),
            ErrorCode::NotFound);
  // No player state and no wall's words: a page the endpoint cannot read, not a wall (the block
  // check, which runs before shape(), is the one that calls pages walls).
  EXPECT_EQ(code_of(json::object()), ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::youtube
