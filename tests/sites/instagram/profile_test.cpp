// GET /scrape/instagram/profile without a browser: the handle's rule and URL, and the shaping of
// profile.js's recorded output on the real logged-out page, a rendered page's header, a login
// redirect and other languages' count lines.
#include <gtest/gtest.h>

#include "core/error.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::instagram {
namespace {

using nlohmann::json;
using testing::refused;
using testing::rejection;

const Endpoint& profile() {
  return profile_endpoint();
}

TEST(InstagramProfileParameters, Handle) {
  EXPECT_EQ(rejection(profile(), {}), refused(ErrorCode::MissingParameter, "handle"));
  EXPECT_EQ(rejection(profile(), {{"handle", "a/b"}}),
            refused(ErrorCode::InvalidParameter, "handle"));
  EXPECT_EQ(rejection(profile(), {{"handle", std::string(31, 'a')}}),
            refused(ErrorCode::InvalidParameter, "handle"));
  EXPECT_EQ(profile().build_request(profile().validate({{"handle", "@NASA"}})).url,
            "https://www.instagram.com/nasa/");
}

TEST(InstagramProfileShape, TheRecordedLoggedOutPage) {
  const json out = testing::recorded("instagram/data/profile/ulsaninsta_script_output.json");
  const auto params = profile().validate({{"handle", "ulsaninsta"}});
  const json body = profile().shape(out, params);
  EXPECT_EQ(body["followersCount"], 5351);
  EXPECT_TRUE(profile().has_content(body));
  // Another language's count line, in the same order, with rounded counts.
  json german = out;
  german["ogDescription"] = "1,2 Mio. Follower, 3.408 Gefolgt, 713 Beiträge - Sieh dir …";
  const json de = profile().shape(german, params);
  EXPECT_EQ(de["followersCount"], 1200000);
  EXPECT_EQ(de["followsCount"], 3408);
  // Sent to the login page: the site's wall, not an empty profile.
  json login = out;
  login["path"] = "/accounts/login/";
  EXPECT_EQ(testing::error_of_shape(profile(), login, params), ErrorCode::UpstreamBlocked);
  // A page without the profile's meta tags is one we could not read.
  json bare = out;
  bare["ogTitle"] = nullptr;
  EXPECT_FALSE(profile().has_content(profile().shape(bare, params)));
  // Its login form served in place of the content (no profile in the meta tags) is the same
  // wall; a profile page that also carries a login form stays the profile.
  json form = bare;
  form["loginForm"] = true;
  EXPECT_EQ(testing::error_of_shape(profile(), form, params), ErrorCode::UpstreamBlocked);
  json profile_with_form = out;
  profile_with_form["loginForm"] = true;
  EXPECT_EQ(profile().shape(profile_with_form, params)["followersCount"], 5351);
}

// A rendered page: the header's counts (the followers' exact count from its title) win over
// og:description's rounded and older ones; without the header the meta tags answer. The
// biography is the description meta's, else the header's.
TEST(InstagramProfileShape, TheRecordedHeaderOfARenderedPage) {
  const json out = testing::recorded("instagram/data/profile/celebface_script_output.json");
  const auto params = profile().validate({{"handle", "celebface"}});
  const std::string bio =
      "If you don't want to see the truth ➡ leave this page\nTAG YOUR FRIENDS 👍";
  const json body = profile().shape(out, params);
  EXPECT_EQ(body["followersCount"], 1137245);
  EXPECT_EQ(body["followsCount"], 0);
  EXPECT_EQ(body["postsCount"], 7883);
  EXPECT_EQ(body["biography"], bio);
  json bare = out;
  bare["header"] = nullptr;
  const json meta = profile().shape(bare, params);
  EXPECT_EQ(meta["followersCount"], 1000000);  // "1M Followers"
  EXPECT_EQ(meta["followsCount"], 15);
  EXPECT_EQ(meta["postsCount"], 7883);
  EXPECT_EQ(meta["biography"], bio);
  json no_description = out;
  no_description["description"] = nullptr;
  EXPECT_EQ(profile().shape(no_description, params)["biography"], bio);
  no_description["header"] = nullptr;
  EXPECT_FALSE(profile().shape(no_description, params).contains("biography"));
}

}  // namespace
}  // namespace gleaner::extract::instagram
