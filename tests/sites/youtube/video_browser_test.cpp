// GET /scrape/video/video end to end in real Chromium: the endpoint builds the watch URL, the
// page is answered from a replay archive of the fixture (tests/sites/youtube/pages/video), video.js
// reads the player response and watch-next data and the C++ shapes them.
#include <gtest/gtest.h>

#include "core/clock.h"
#include "extract/sites/common/clock.h"
#include "extract/sites/youtube/video.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::youtube {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

const std::string kWatchPage =
    gleaner::testing::site_page("youtube", "video/yta_watch_GJLlxj_dtq8_surface-go-review.html");

TEST(VideoInChromium, WatchPage) {
  // One day for both readings below: the sidebar's relative dates are read against it.
  using namespace std::chrono;
  FakeClock saved(sys_days(2025y / June / 10));
  ScopedSiteClock scoped(saved);
  TempReplayArchive archive;
  archive.add(prefix_entry("https://www.youtube.com/watch?v=GJLlxj_dtq8", kWatchPage));
  auto replay = archive.load();
  auto result =
      run_in_chromium(video_endpoint(), replay, {{"v", "GJLlxj_dtq8"}, {"hl", "en"}, {"gl", "us"}});

  EXPECT_EQ(requested(*replay).front(), "https://www.youtube.com/watch?v=GJLlxj_dtq8&hl=en&gl=US");
  const auto& v = result.body;
  EXPECT_EQ(v["title"], "Surface Go Review - It’s Awesome");
  EXPECT_EQ(v["channel"]["name"], "Dave2D");
  EXPECT_EQ(v["views"], "1,856,109 views");
  EXPECT_EQ(v["extractedLikes"], 43864);
  EXPECT_EQ(v["chapters"][0]["title"], "Build Quality");
  EXPECT_EQ(v["relatedVideos"][0]["videoId"], "cah9itYL7OI");
  // Everything else as the unit tests check it on the script's recorded output: the recording is
  // what Chromium reads today.
  EXPECT_EQ(v, video_endpoint().shape(testing::recorded("youtube/data/video/surface-go_script_output.json"), {}));
}

// The other real pages (tests/sites/youtube/pages/video, provenance.json), each at its watch URL.
nlohmann::json watch(const std::string& v, const std::string& hl, const std::string& gl,
                     const std::string& file) {
  TempReplayArchive archive;
  archive.add(prefix_entry("https://www.youtube.com/watch?v=" + v,
                           gleaner::testing::site_page("youtube", "video/" + file)));
  return run_in_chromium(video_endpoint(), archive.load(), {{"v", v}, {"hl", hl}, {"gl", gl}}).body;
}

TEST(VideoInChromium, AgeRestrictedPageInVietnamese) {
  const auto v =
      watch("CsrfovOPcjk", "vi", "vn", "ytdl_watch_CsrfovOPcjk_age-restricted-vi-VN.html");
  EXPECT_EQ(v["title"], "Who the Fuck is Alice?");
  EXPECT_EQ(v["channel"]["name"], "RescoeZ");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 34200);
  EXPECT_EQ(v["views"], "11.579.654 lượt xem");
  EXPECT_EQ(v["extractedViews"], 11579654);
  EXPECT_EQ(v["extractedLikes"], 50664);
  EXPECT_EQ(v["publishedDate"], "2007-04-04");
  EXPECT_EQ(v["lengthSeconds"], 237);
  EXPECT_EQ(v["playability"]["status"], "LOGIN_REQUIRED");
  EXPECT_EQ(v["playability"]["ageRestricted"], true);
}

TEST(VideoInChromium, ChaptersPage) {
  const auto v = watch("W6NZfCO5SIk", "en", "vn", "ytdl_watch_W6NZfCO5SIk_chapters.html");
  EXPECT_EQ(v["title"], "JavaScript Tutorial for Beginners: Learn JavaScript in 1 Hour");
  EXPECT_EQ(v["channel"]["name"], "Programming with Mosh");
  EXPECT_EQ(v["views"], "4,586,491 views");
  EXPECT_EQ(v["likes"], "79K");
  EXPECT_EQ(v["extractedLikes"], 79487);
  EXPECT_EQ(v["publishedDate"], "2018-04-23");
  EXPECT_EQ(v["lengthSeconds"], 2897);
  EXPECT_EQ(v["chapters"].size(), 13u);
  EXPECT_EQ(v["chapters"][1]["title"], "Setting Up the Development Environment");
  EXPECT_EQ(v["chapters"][1]["startSeconds"], 281);
}

TEST(VideoInChromium, LiveStreamWhileLive) {
  const auto v = watch("5qap5aO4i9A", "en", "us", "ytdl_watch_5qap5aO4i9A_live-now.html");
  EXPECT_EQ(v["title"], "lofi hip hop radio - beats to relax/study to");
  EXPECT_EQ(v["channel"]["name"], "ChilledCow");
  EXPECT_EQ(v["isLive"], true);
  EXPECT_EQ(v["views"], "30,930 watching now");
  EXPECT_EQ(v["watching"], 30930);
  EXPECT_FALSE(v.contains("lengthSeconds"));
  EXPECT_EQ(v["relatedVideos"][0]["videoId"], "oJnF5VxTO5g");
}

TEST(VideoInChromium, MusicVideoOfAnArtist) {
  const auto v = watch("YQHsXMglC9A", "en", "us", "ytdl_watch_YQHsXMglC9A_music.html");
  EXPECT_EQ(v["title"], "Adele - Hello");
  EXPECT_EQ(v["channel"]["name"], "Adele");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 22700000);
  EXPECT_EQ(v["views"], "2,756,035,380 views");
  EXPECT_EQ(v["extractedViews"], 2756035380LL);
  EXPECT_EQ(v["extractedLikes"], 16173003);
  EXPECT_EQ(v["publishedDate"], "2015-10-22");
  EXPECT_EQ(v["lengthSeconds"], 367);
}

TEST(VideoInChromium, RentalIsDescribedAndMarkedUnplayable) {
  const auto v = watch("SyKPsFRP_Oc", "en", "us", "ytdl_watch_SyKPsFRP_Oc_rental.html");
  EXPECT_EQ(v["title"], "Plane Crash");
  EXPECT_EQ(v["channel"]["name"], "Curiosity");
  EXPECT_EQ(v["lengthSeconds"], 5242);
  EXPECT_EQ(v["playability"]["status"], "UNPLAYABLE");
  EXPECT_EQ(v["relatedVideos"].size(), 10u);
}

TEST(VideoInChromium, GermanPage) {
  const auto v = watch("P3pFkriw10Q", "de", "de", "yta_watch_P3pFkriw10Q_de-DE.html");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 11300);
  EXPECT_EQ(v["views"], "170.950 Aufrufe");
  EXPECT_EQ(v["extractedViews"], 170950);
  EXPECT_EQ(v["extractedLikes"], 2552);
  EXPECT_EQ(v["date"], "06.01.2023");
  EXPECT_EQ(v["publishedDate"], "2023-01-06T05:05:24-08:00");
  EXPECT_EQ(v["relatedVideos"][0]["extractedViews"], 3805439);
}

// The layout before 2020: player response in ytplayer.config, the rest server-rendered markup.
TEST(VideoInChromium, LayoutBefore2020) {
  const auto v = watch("_HSylqgVYQI", "en", "us", "ytdl_watch__HSylqgVYQI_2019-layout.html");
  EXPECT_EQ(v["title"], "Meor 2 - Screaming cat goes nuts!");
  EXPECT_EQ(v["channel"]["name"], "FlippyCat");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 365000);
  EXPECT_EQ(v["views"], "575,652 views");
  EXPECT_EQ(v["extractedViews"], 575652);
  EXPECT_EQ(v["likes"], "2,183");
  EXPECT_EQ(v["extractedLikes"], 2183);
  EXPECT_EQ(v["publishedDate"], "2006-04-04");
  EXPECT_EQ(v["lengthSeconds"], 10);
  EXPECT_EQ(v["relatedVideos"].size(), 20u);
}

TEST(VideoInChromium, LayoutBefore2020WithLikesHidden) {
  const auto v =
      watch("KKzOh0MRuZE", "en", "us", "ytdl_watch_KKzOh0MRuZE_2020-layout-no-likes.html");
  EXPECT_EQ(v["channel"]["name"], "Cooking with Shotgun Red");
  EXPECT_EQ(v["views"], "27,260 views");
  EXPECT_FALSE(v.contains("likes"));
  EXPECT_FALSE(v.contains("extractedLikes"));
  EXPECT_EQ(v["relatedVideos"][0]["videoId"], "uaMdEyJuXaE");
}

TEST(VideoInChromium, UpcomingStreamBefore2020) {
  const auto v =
      watch("iC9YT-5aUhI", "en", "us", "ytdl_watch_iC9YT-5aUhI_upcoming-stream-2017.html");
  EXPECT_EQ(v["videoId"], "iC9YT-5aUhI");
  EXPECT_EQ(v["title"], "[KOR] 아프리카TV 스타리그(ASL) 시즌3 16강 2일차");
  EXPECT_EQ(v["channel"]["name"], "AfreecaTV Live");
  EXPECT_EQ(v["playability"]["status"], "LIVE_STREAM_OFFLINE");
  EXPECT_EQ(v["playability"]["scheduledStartTime"], "2017-05-02T09:50:00Z");
}

// A real page of the layout before 2020 for an id with no video: its notice, no player response.
TEST(VideoInChromium, UnavailableVideoBefore2020IsNotFound) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.youtube.com/watch?v=99999999999",
      gleaner::testing::site_page("youtube", "video/ytdl_watch_unavailable-2019.html")));
  const Error e = error_in_chromium(video_endpoint(), archive.load(), {{"v", "99999999999"}});
  EXPECT_EQ(e.code(), ErrorCode::NotFound);
  EXPECT_NE(std::string(e.what()).find("This video is unavailable."), std::string::npos);
}

// Test pages written here (not copies of the site's): how the service reacts to a refusal.
TEST(VideoInChromium, CaptchaIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.page("https://www.youtube.com/watch?v=GJLlxj_dtq8",
               "<html><head><title>YouTube</title></head><body><p>Our systems have detected "
               "unusual traffic from your computer network.</p><div class='g-recaptcha'></div>"
               "</body></html>");
  EXPECT_EQ(error_in_chromium(video_endpoint(), archive.load(), {{"v", "GJLlxj_dtq8"}}).code(),
            ErrorCode::UpstreamBlocked);
}

TEST(VideoInChromium, BotCheckIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.page("https://www.youtube.com/watch?v=GJLlxj_dtq8",
               "<html><head><title>YouTube</title></head><body><p>Sign in to confirm you’re not "
               "a bot. This helps protect our community.</p><script>var ytInitialPlayerResponse "
               "= {\"playabilityStatus\":{\"status\":\"LOGIN_REQUIRED\",\"reason\":\"Sign in to "
               "confirm you’re not a bot\"}};</script></body></html>");
  EXPECT_EQ(error_in_chromium(video_endpoint(), archive.load(), {{"v", "GJLlxj_dtq8"}}).code(),
            ErrorCode::UpstreamBlocked);
}

TEST(VideoInChromium, UnavailableVideoIsNotFound) {
  TempReplayArchive archive;
  archive.page("https://www.youtube.com/watch?v=AAAAAAAAAAA",
               "<html><head><title>YouTube</title></head><body><p>This video isn't available "
               "anymore. Go to the home page.</p><script>var ytInitialPlayerResponse = "
               "{\"playabilityStatus\":{\"status\":\"ERROR\",\"reason\":\"This video isn't "
               "available anymore\"}};</script></body></html>");
  EXPECT_EQ(error_in_chromium(video_endpoint(), archive.load(), {{"v", "AAAAAAAAAAA"}}).code(),
            ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::youtube
