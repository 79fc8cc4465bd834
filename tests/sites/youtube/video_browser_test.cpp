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

// The error the endpoint answers for video `v` on the kept page `file`.
Error watch_error(const std::string& v, const std::string& file) {
  TempReplayArchive archive;
  archive.add(prefix_entry("https://www.youtube.com/watch?v=" + v,
                           gleaner::testing::site_page("youtube", "video/" + file)));
  return error_in_chromium(video_endpoint(), archive.load(), {{"v", v}});
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
  const Error e = watch_error("99999999999", "ytdl_watch_unavailable-2019.html");
  EXPECT_EQ(e.code(), ErrorCode::NotFound);
  EXPECT_NE(std::string(e.what()).find("This video is unavailable."), std::string::npos);
}

// Watch pages of 2025 (hl=en, gl=DE and US), the layout with the like button view model.
TEST(VideoInChromium, AgeRestrictedPageOf2025) {
  const auto v = watch("Njp5uhTorCo", "en", "de", "yta_watch_Njp5uhTorCo_age-restricted-2025.html");
  EXPECT_EQ(v["title"], "Laura Branigan - Self Control (Moreno J Remix) Age-restricted");
  EXPECT_EQ(v["channel"]["name"], "Moreno J Remixes");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 531000);
  EXPECT_EQ(v["views"], "172,409 views");
  EXPECT_EQ(v["extractedViews"], 172409);
  EXPECT_EQ(v["likes"], "6K");
  EXPECT_EQ(v["extractedLikes"], 6024);
  EXPECT_EQ(v["date"], "Aug 7, 2022");
  EXPECT_EQ(v["lengthSeconds"], 452);
  EXPECT_EQ(v["isFamilySafe"], false);
  EXPECT_EQ(v["playability"]["status"], "LOGIN_REQUIRED");
  EXPECT_EQ(v["playability"]["reason"], "Sign in to confirm your age");
  EXPECT_EQ(v["playability"]["ageRestricted"], true);
  EXPECT_TRUE(v["relatedVideos"].empty());  // the page shows no sidebar to a visitor
}

TEST(VideoInChromium, FrenchChannelPageOf2025) {
  using namespace std::chrono;
  FakeClock saved(sys_days(2025y / February / 26));
  ScopedSiteClock scoped(saved);
  const auto v = watch("dsMFmonKDD4", "en", "de", "yta_watch_dsMFmonKDD4_take-away-show-2025.html");
  EXPECT_EQ(v["title"], "Angèle - Eels x Richard Cocciante | A Take Away Show");
  EXPECT_EQ(v["channel"]["name"], "Blogothèque");
  EXPECT_EQ(v["channel"]["link"], "https://www.youtube.com/@blogotheque");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 685000);
  EXPECT_EQ(v["views"], "16,129,360 views");
  EXPECT_EQ(v["extractedViews"], 16129360);
  EXPECT_EQ(v["likes"], "118K");
  EXPECT_EQ(v["extractedLikes"], 118023);
  EXPECT_EQ(v["publishedDate"], "2019-11-28T06:59:15-08:00");
  EXPECT_EQ(v["lengthSeconds"], 288);
  EXPECT_EQ(v["category"], "Entertainment");
  EXPECT_FALSE(v.contains("playability"));
  const auto& first = v["relatedVideos"][0];
  EXPECT_EQ(first["videoId"], "OqUy7IOYt6g");
  EXPECT_EQ(first["title"], "Angèle - J'entends (live Seule au Piano)");
  EXPECT_EQ(first["channel"]["name"], "Angèle");
  EXPECT_EQ(first["lengthSeconds"], 246);
  EXPECT_EQ(first["publishedDate"], "5 years ago");
  EXPECT_EQ(first["extractedPublishedDate"], "2020-02-26");
  EXPECT_EQ(v["relatedVideos"][1]["extractedViews"], 6475033);
}

// A finished live stream: no longer live, its length the broadcast's.
TEST(VideoInChromium, PastLiveStreamOf2025) {
  using namespace std::chrono;
  FakeClock saved(sys_days(2025y / February / 26) + 12h);
  ScopedSiteClock scoped(saved);
  const auto v =
      watch("Fjg5lYqvzUs", "en", "de", "yta_watch_Fjg5lYqvzUs_past-live-stream-2025.html");
  EXPECT_EQ(v["channel"]["name"], "Washington Post");
  EXPECT_EQ(v["channel"]["verified"], true);
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 2730000);
  EXPECT_EQ(v["date"], "Streamed live on Mar 9, 2020");
  EXPECT_EQ(v["isLive"], false);
  EXPECT_FALSE(v.contains("watching"));
  EXPECT_EQ(v["extractedViews"], 170338);
  EXPECT_EQ(v["likes"], "856");
  EXPECT_EQ(v["extractedLikes"], 856);
  EXPECT_EQ(v["lengthSeconds"], 23169);
  const auto& first = v["relatedVideos"][0];
  EXPECT_EQ(first["channel"]["name"], "The Late Show with Stephen Colbert");
  EXPECT_EQ(first["publishedDate"], "10 hours ago");
  EXPECT_EQ(first["extractedPublishedDate"], "2025-02-26");
  EXPECT_EQ(v["relatedVideos"][1]["extractedPublishedDate"], "2025-02-25");  // 17 hours ago
}

TEST(VideoInChromium, ChaptersPageOf2025) {
  const auto v = watch("F1xioXWb8CY", "en", "de", "yta_watch_F1xioXWb8CY_gl-DE-2025.html");
  EXPECT_EQ(v["title"], "The Tide Is Turning - Russian Civil War Fall 1919 I THE GREAT WAR 1919");
  EXPECT_EQ(v["channel"]["name"], "The Great War");
  EXPECT_EQ(v["channel"]["subscribers"], "1.8M subscribers");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 1800000);
  EXPECT_EQ(v["likes"], "8.2K");
  EXPECT_EQ(v["extractedLikes"], 8205);
  EXPECT_EQ(v["extractedViews"], 270075);
  EXPECT_EQ(v["lengthSeconds"], 1509);
  ASSERT_EQ(v["chapters"].size(), 4u);
  EXPECT_EQ(v["chapters"][0]["title"], "The Great Siberian Ice March");
  EXPECT_EQ(v["chapters"][0]["startSeconds"], 270);
  EXPECT_EQ(v["chapters"][3]["title"], "Why the Whites Were Defeated");
  EXPECT_EQ(v["chapters"][3]["startSeconds"], 1219);
  EXPECT_EQ(v["relatedVideos"].size(), 20u);
  EXPECT_EQ(v["relatedVideos"][0]["videoId"], "QBmm4D907Xw");
}

// Watch pages of 2026 (hl=en): the sidebar is made of lockup view models, whose channel links
// only from its avatar (the endpoint answered these channels without a link).
TEST(VideoInChromium, LockupSidebarOf2026) {
  using namespace std::chrono;
  FakeClock saved(sys_days(2026y / January / 25));
  ScopedSiteClock scoped(saved);
  const auto v = watch("0J2_YGuNrDo", "en", "th", "ytdebug_watch_0J2_YGuNrDo_gl-TH-2026.html");
  EXPECT_EQ(v["title"], "Claude Code just Built me an AI Agent Team (Claude Code + Skills + MCP)");
  EXPECT_EQ(v["channel"]["name"], "Grace Leung");
  EXPECT_EQ(v["channel"]["verified"], true);
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 112000);
  EXPECT_EQ(v["views"], "116,677 views");
  EXPECT_EQ(v["likes"], "3.8K");
  EXPECT_EQ(v["extractedLikes"], 3895);
  EXPECT_EQ(v["date"], "Dec 16, 2025");
  EXPECT_EQ(v["lengthSeconds"], 1043);
  ASSERT_EQ(v["chapters"].size(), 10u);
  EXPECT_EQ(v["chapters"][2]["title"], "4 Ways to use Claude Code");
  EXPECT_EQ(v["chapters"][2]["startSeconds"], 104);
  ASSERT_EQ(v["relatedVideos"].size(), 20u);
  const auto& first = v["relatedVideos"][0];
  EXPECT_EQ(first["videoId"], "saggDHHnmtQ");
  EXPECT_EQ(first["title"], "Master 95% of Claude Code in 36 Mins (as a beginner)");
  EXPECT_EQ(first["channel"]["name"], "Nate Herk | AI Automation");
  EXPECT_EQ(first["channel"]["link"], "https://www.youtube.com/@nateherk");
  EXPECT_EQ(first["views"], "49K views");
  EXPECT_EQ(first["extractedViews"], 49000);
  EXPECT_EQ(first["lengthSeconds"], 2218);
  EXPECT_EQ(first["publishedDate"], "3 days ago");
  EXPECT_EQ(first["extractedPublishedDate"], "2026-01-22");
  EXPECT_TRUE(first["thumbnail"].get<std::string>().starts_with(
      "https://i.ytimg.com/vi/saggDHHnmtQ/"));
}

TEST(VideoInChromium, IndianNewsChannelOf2026) {
  using namespace std::chrono;
  FakeClock saved(sys_days(2026y / February / 19));
  ScopedSiteClock scoped(saved);
  const auto v = watch("TckGcxwknYU", "en", "in", "ytdebug_watch_TckGcxwknYU_gl-IN-2026.html");
  EXPECT_EQ(v["channel"]["name"], "asianetnews");
  EXPECT_EQ(v["channel"]["subscribers"], "11.5M subscribers");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 11500000);
  EXPECT_EQ(v["extractedViews"], 31214768);
  EXPECT_EQ(v["likes"], "686K");
  EXPECT_EQ(v["extractedLikes"], 686509);
  EXPECT_EQ(v["date"], "Jul 1, 2012");
  EXPECT_EQ(v["publishedDate"], "2012-07-01T23:34:57-07:00");
  EXPECT_FALSE(v.contains("chapters"));
  const auto& first = v["relatedVideos"][0];
  EXPECT_EQ(first["channel"]["name"], "LICIndiaForever");
  EXPECT_EQ(first["extractedViews"], 1000000);  // "1M views"
  EXPECT_EQ(first["publishedDate"], "10 years ago");
  EXPECT_EQ(first["extractedPublishedDate"], "2016-02-19");
  EXPECT_EQ(v["relatedVideos"][2]["channel"]["link"], "https://www.youtube.com/@asianetnews");
}

// The page of 2025 for an id without a video: its player response says "Video unavailable" and
// the page has next to no text. A 404, not a wall (it was answered 502 as an empty page).
TEST(VideoInChromium, UnavailableVideoOf2025IsNotFound) {
  const Error e = watch_error("AAAAAAAAAAA", "yta_watch_unavailable-2025.html");
  EXPECT_EQ(e.code(), ErrorCode::NotFound);
  EXPECT_NE(std::string(e.what()).find("Video unavailable"), std::string::npos);
}

// The real bot check of 2025: a watch page whose player response asks to sign in.
TEST(VideoInChromium, RealBotCheckOf2025IsUpstreamBlocked) {
  const Error e = watch_error("G6_Kd1qVfS0", "yta_watch_G6_Kd1qVfS0_not-a-bot-wall-2025.html");
  EXPECT_EQ(e.code(), ErrorCode::UpstreamBlocked);
  EXPECT_NE(e.detail().find("Sign in to confirm you’re not a bot"), std::string::npos);
}

// The mobile site's bot check of 2026 (m.youtube.com, hl=en-GB gl=SG, asked from a phone): its
// player response asks to "Sign in to confirm that you're not a bot", its watch-next data the
// mobile renderers (singleColumnWatchNextResults).
TEST(VideoInChromium, TheMobileBotCheckOf2026IsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.youtube.com/watch?v=hE4l9WyLF3U",
      gleaner::testing::site_page(
          "youtube", "video/ytai_watch-mobile_hE4l9WyLF3U_not-a-bot-wall_enGB-SG_2026-04.html")));
  const Error e = error_in_chromium(video_endpoint(), archive.load(),
                                    {{"v", "hE4l9WyLF3U"}, {"deviceType", "mobile"}});
  EXPECT_EQ(e.code(), ErrorCode::UpstreamBlocked);
  EXPECT_NE(e.detail().find("Sign in to confirm that you're not a bot"), std::string::npos)
      << e.detail();
}

// A British English page of 2025 (hl=en-GB, gl=NG): the date as that English writes it ("24 Oct
// 2009"), "4.34M subscribers", a view count past 2^31.
TEST(VideoInChromium, ABritishEnglishPageOf2025) {
  using namespace std::chrono;
  FakeClock saved(sys_days(2025y / May / 30));
  ScopedSiteClock scoped(saved);
  const auto v =
      watch("dQw4w9WgXcQ", "en-GB", "ng", "inquisitor_watch_dQw4w9WgXcQ_enGB-NG_2025-05.html");
  EXPECT_EQ(v["title"], "Rick Astley - Never Gonna Give You Up (Official Music Video)");
  EXPECT_EQ(v["channel"]["name"], "Rick Astley");
  EXPECT_EQ(v["channel"]["subscribers"], "4.34M subscribers");
  EXPECT_EQ(v["channel"]["extractedSubscribers"], 4340000);
  EXPECT_EQ(v["views"], "1,659,738,587 views");
  EXPECT_EQ(v["extractedViews"], 1659738587LL);
  EXPECT_EQ(v["extractedLikes"], 18378465);
  EXPECT_EQ(v["date"], "24 Oct 2009");
  EXPECT_EQ(v["publishedDate"], "2009-10-24T23:57:33-07:00");
  EXPECT_EQ(v["lengthSeconds"], 212);  // the player's; the microformat rounds up to 213
  ASSERT_FALSE(v["relatedVideos"].empty());
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
