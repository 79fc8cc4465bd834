// GET /scrape/google/images end to end in real Chromium: the endpoint builds the image search URL,
// the real results page (tests/sites/google/pages/google-images) is answered from a replay
// archive, images.js reads the data its tiles are drawn from and the C++ shapes it.
#include <gtest/gtest.h>

#include "extract/sites/google/images.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

const std::string kFlowers = gleaner::testing::site_page(
    "google", "google-images/blossom_isch_flowers_prettified_2022-04.html");
const std::string kCatKorean2026 =
    gleaner::testing::site_page("google", "google-images/chstudio_udm2_cat_ko_2026-04.html");

TEST(ImagesInChromium, FlowersImagesWithTheirOriginalsAndPages) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=Flowers&tbm=isch", kFlowers);
  auto replay = archive.load();
  auto result = run_in_chromium(images_endpoint(), replay, {{"q", "Flowers"}});
  EXPECT_EQ(requested(*replay).front(), "https://www.google.com/search?q=Flowers&tbm=isch");

  const auto& images = result.body["imagesResults"];
  ASSERT_EQ(images.size(), 100u);
  EXPECT_EQ(images[0]["position"], 1);
  EXPECT_EQ(images[0]["title"],
            "Best Tulsa Florist - Same-day Flower Delivery Tulsa | Mary Murray's Flowers");
  EXPECT_EQ(images[0]["link"], "https://www.marymurraysflowers.com/");
  EXPECT_EQ(images[0]["source"], "marymurraysflowers.com");
  EXPECT_EQ(images[0]["originalWidth"], 410);
  EXPECT_EQ(images[0]["originalHeight"], 250);
  EXPECT_EQ(images[0]["thumbnail"].get<std::string>().rfind(
                "https://encrypted-tbn0.gstatic.com/images?q=tbn:", 0),
            0u);
  EXPECT_EQ(images[1]["title"], "Flower - Wikipedia");
  EXPECT_EQ(images[1]["original"],
            "https://upload.wikimedia.org/wikipedia/commons/a/a5/Flower_poster_2.jpg");
  EXPECT_EQ(images[1]["originalWidth"], 4462);
  EXPECT_EQ(images[1]["originalHeight"], 5932);
  EXPECT_EQ(images[1]["source"], "en.wikipedia.org");
  EXPECT_EQ(images[99]["position"], 100);
}

// Google Images after its redesign (Korean interface, 2026): the tiles' data is no longer in an
// `AF_initDataCallback` blob but in an inline `var m = {...}` map keyed by element ids, each
// image the same entry as before; the page was a 502. Read in the order of its tiles.
TEST(ImagesInChromium, AKorean2026PageReadsItsImagesWhereverThePageKeepsThem) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=cat&hl=ko&tbm=isch", kCatKorean2026);
  auto result = run_in_chromium(images_endpoint(), archive.load(), {{"q", "cat"}, {"hl", "ko"}});
  const auto& images = result.body["imagesResults"];
  ASSERT_EQ(images.size(), 100u);
  EXPECT_EQ(images[0]["position"], 1);
  EXPECT_EQ(images[0]["title"], "Tabby cat - Wikipedia");
  EXPECT_EQ(images[0]["link"], "https://en.wikipedia.org/wiki/Tabby_cat");
  EXPECT_EQ(images[0]["source"], "en.wikipedia.org");
  EXPECT_EQ(images[0]["original"],
            "https://upload.wikimedia.org/wikipedia/commons/thumb/4/4d/Cat_November_2010-1a.jpg/"
            "960px-Cat_November_2010-1a.jpg");
  EXPECT_EQ(images[0]["originalWidth"], 960);
  EXPECT_EQ(images[0]["originalHeight"], 1282);
  EXPECT_EQ(images[0]["thumbnail"].get<std::string>().rfind(
                "https://encrypted-tbn0.gstatic.com/images?q=tbn:", 0),
            0u);
  EXPECT_EQ(images[1]["title"], "Domestic cat | National Geographic");
  EXPECT_EQ(images[1]["source"], "www.nationalgeographic.com");
  EXPECT_EQ(images[1]["originalWidth"], 1200);
  EXPECT_EQ(images[1]["originalHeight"], 675);
  EXPECT_EQ(images[99]["position"], 100);
  EXPECT_EQ(images[99]["link"],
            "https://www.spcapetinsurance.co.nz/pet-insurance/the-good-life/cat-meows-mean");
}

TEST(ImagesInChromium, ThePageWithoutItsDataIsExtractionFailed) {
  TempReplayArchive archive;
  archive.page("https://www.google.com/search?q=Flowers&tbm=isch",
               "<html><head><title>Flowers - Google Search</title></head><body><div id='islmp'>"
               "<h2>Image Results</h2><p>Images for the search Flowers are shown here.</p>"
               "</div></body></html>");
  EXPECT_EQ(error_in_chromium(images_endpoint(), archive.load(), {{"q", "Flowers"}}).code(),
            ErrorCode::ExtractionFailed);
}

TEST(ImagesInChromium, GooglesCaptchaIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.page("https://www.google.com/search?q=Flowers&tbm=isch",
               "<html><head><title>Google Search</title></head><body><form id='captcha-form' "
               "action='/sorry/index'><p>Our systems have detected unusual traffic from your "
               "computer network.</p><div class='g-recaptcha'></div></form></body></html>");
  EXPECT_EQ(error_in_chromium(images_endpoint(), archive.load(), {{"q", "Flowers"}}).code(),
            ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::google
