// GET /scrape/instagram/profile end to end in real Chromium over the real profile pages kept in
// pages/instagram-profile: a raw page served to a visitor who is not logged in (2026), rendered
// pages of a private account and of two public ones (2025, logged in as another account), and
// Instagram's error page served for an existing profile (2026).
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::instagram {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::requested;
using testing::run_in_chromium;

// Serves the kept page `file` (pages/instagram-profile) at the profile URL of `handle`.
void serve(TempReplayArchive& archive, const std::string& handle, const std::string& file) {
  archive.add(
      testing::prefix_entry("https://www.instagram.com/" + handle + "/",
                            gleaner::testing::site_page("instagram", "instagram-profile/" + file)));
}

// The endpoint's answer for `handle` on the kept page `file`.
nlohmann::json profile_on(const std::string& handle, const std::string& file) {
  TempReplayArchive archive;
  serve(archive, handle, file);
  return run_in_chromium(profile_endpoint(), archive.load(), {{"handle", handle}}).body;
}

TEST(InstagramProfileInChromium, ALoggedOutPageAsAPersonReadsIt) {
  TempReplayArchive archive;
  serve(archive, "ulsaninsta", "instagram-profile-ulsaninsta-raw-loggedout-2026-01.html");
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
// profile's, from the document's meta tags and the header drawn from the profile's data.
TEST(InstagramProfileInChromium, APrivateAccountIsNotTheViewersAccount) {
  const auto b =
      profile_on("mayuri_0677", "instagram-profile-mayuri-0677-private-dom-2025-02.html");
  EXPECT_EQ(b["id"], "56802523080");
  EXPECT_EQ(b["username"], "mayuri_0677");
  EXPECT_EQ(b["fullName"], "Mayuri Barapatre");
  EXPECT_EQ(b["private"], true);
  EXPECT_EQ(b["followersCount"], 472);
  EXPECT_EQ(b["followsCount"], 541);  // the header's; og:description says 561
  EXPECT_EQ(b["postsCount"], 1);
  EXPECT_FALSE(b.contains("biography"));
}

// A public account with a million followers: og:description rounds them ("1M Followers") and
// says 15 following; the header shows 1.1M with the exact count in its title, and 0 following.
TEST(InstagramProfileInChromium, TheHeaderOfARenderedPageIsExact) {
  const auto b = profile_on("celebface", "instagram-profile-celebface-dom-2025-02.html");
  EXPECT_EQ(b["id"], "1680575733");
  EXPECT_EQ(b["username"], "celebface");
  EXPECT_EQ(b["fullName"], "WELCOME TO REALITY");
  EXPECT_EQ(b["followersCount"], 1137245);
  EXPECT_EQ(b["followsCount"], 0);
  EXPECT_EQ(b["postsCount"], 7883);
  EXPECT_EQ(b["biography"],
            "If you don't want to see the truth ➡ leave this page\nTAG YOUR FRIENDS 👍");
  EXPECT_EQ(b["private"], false);
  EXPECT_TRUE(b["profilePicUrl"].get<std::string>().starts_with(
      "https://scontent.cdninstagram.com/v/t51.2885-19/42726388_"));
}

TEST(InstagramProfileInChromium, ACommunityAccountWithALinkInItsBiography) {
  const auto b = profile_on("gdg_rbu", "instagram-profile-gdg-rbu-dom-2025-02.html");
  EXPECT_EQ(b["id"], "41289168738");
  EXPECT_EQ(b["fullName"], "GDG On Campus RBU");
  EXPECT_EQ(b["followersCount"], 3351);  // og:description: 3,353
  EXPECT_EQ(b["followsCount"], 194);     // og:description: 200
  EXPECT_EQ(b["postsCount"], 177);
  EXPECT_EQ(b["biography"],
            "Google Developer Groups On Campus\n🏢 RBU Chapter \n🚩 Led by @jayeshh.bot");
  EXPECT_EQ(b["private"], false);
}

// Instagram's error route ("pageID":"httpErrorPage", no profile, no text before its scripts run)
// served to a scraper for @instagram, which exists: never an empty success.
TEST(InstagramProfileInChromium, TheErrorPageForAnExistingProfileIsNoProfile) {
  TempReplayArchive archive;
  serve(archive, "instagram", "instagram-error-page-for-instagram-2026-01.html");
  EXPECT_EQ(
      testing::error_in_chromium(profile_endpoint(), archive.load(), {{"handle", "instagram"}})
          .code(),
      ErrorCode::UpstreamBlocked);
}

// Instagram's login page served in place of the content (2025: "Login • Instagram", its form
// asking for a password, under the meta tags of the reel that was asked for): a wall, never a
// profile and never a layout we failed to read. It was 502 extraction_failed.
TEST(InstagramProfileInChromium, TheLoginPageServedInPlaceOfTheContentIsAWall) {
  TempReplayArchive archive;
  serve(archive, "squirrel_boxes", "instagram-login-page-for-squirrel-boxes-reel-2025-09.html");
  EXPECT_EQ(testing::error_in_chromium(profile_endpoint(), archive.load(),
                                       {{"handle", "squirrel_boxes"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::instagram
