// GET /scrape/instagram/profile end to end in real Chromium over the two real profile pages kept
// in pages/instagram-profile: a raw page served to a visitor who is not logged in (2026) and a
// rendered page of a private account (2025, logged in as another account).
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::instagram {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::requested;
using testing::run_in_chromium;

TEST(InstagramProfileInChromium, ALoggedOutPageAsAPersonReadsIt) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://www.instagram.com/ulsaninsta/",
      gleaner::testing::site_page(
          "instagram",
          "instagram-profile/instagram-profile-ulsaninsta-raw-loggedout-2026-01.html")));
  auto replay = archive.load();
  auto result = run_in_chromium(profile_endpoint(), replay, {{"handle", "@ulsaninsta"}});
  EXPECT_EQ(requested(*replay, "https://www.instagram.com/").front(),
            "https://www.instagram.com/ulsaninsta/");
  const auto& b = result.body;
  EXPECT_EQ(b["id"], "2223020927");
  EXPECT_EQ(b["username"], "ulsaninsta");
  EXPECT_EQ(b["fullName"], "울산인스타");
  EXPECT_EQ(b["followersCount"], 5351);
  EXPECT_EQ(b["followsCount"], 3408);
  EXPECT_EQ(b["postsCount"], 713);
  EXPECT_TRUE(b["biography"].get<std::string>().starts_with(
      "▪️울산 관련 플랫폼 울산인 입니다😘"));
  EXPECT_TRUE(b["biography"].get<std::string>().ends_with("since 2010"));
  EXPECT_TRUE(b["profilePicUrl"].get<std::string>().starts_with(
      "https://scontent-ssn1-1.cdninstagram.com/"));
  EXPECT_EQ(b["private"], false);
}

// The page's embedded JSON holds the viewer's own account ("imposter"); the answer is the
// profile's, from the document's meta tags.
TEST(InstagramProfileInChromium, APrivateAccountIsNotTheViewersAccount) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry(
      "https://www.instagram.com/mayuri_0677/",
      gleaner::testing::site_page(
          "instagram",
          "instagram-profile/instagram-profile-mayuri-0677-private-dom-2025-02.html")));
  auto result = run_in_chromium(profile_endpoint(), archive.load(), {{"handle", "mayuri_0677"}});
  const auto& b = result.body;
  EXPECT_EQ(b["id"], "56802523080");
  EXPECT_EQ(b["username"], "mayuri_0677");
  EXPECT_EQ(b["fullName"], "Mayuri Barapatre");
  EXPECT_EQ(b["private"], true);
  EXPECT_EQ(b["followersCount"], 472);
  EXPECT_EQ(b["followsCount"], 561);  // og:description's; the header drawn later shows 541
  EXPECT_EQ(b["postsCount"], 1);
  EXPECT_FALSE(b.contains("biography"));
}

}  // namespace
}  // namespace gleaner::extract::instagram
