// GET /scrape/video/video end to end in real Chromium: the endpoint builds the watch URL, the
// page is answered from a replay archive of the fixture (tests/sites/youtube/pages/video), video.js
// reads the player response and watch-next data and the C++ shapes them.
#include <gtest/gtest.h>

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
