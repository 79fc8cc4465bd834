// GET /scrape/google/images without a browser: parameters as the hosted client sends them
// (hosted.md #5), the URL built, and the shaping of images.js output recorded on the real Flowers
// results page (tests/sites/google/data/images/).
#include "extract/sites/google/images.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/registry.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google {
namespace {

std::string url_for(const QueryParams& query) {
  return images_endpoint().build_request(images_endpoint().validate(query)).url;
}

TEST(Images, AnswersAtTheClientsPathWithItsCost) {
  EXPECT_EQ(find_endpoint("/scrape/google/images"), &images_endpoint());
  EXPECT_EQ(images_endpoint().default_cost(), 5);
}

TEST(Images, BuildsTheImageSearchUrl) {
  EXPECT_EQ(url_for({{"q", "Flowers"}}), "https://www.google.com/search?q=Flowers&tbm=isch");
  EXPECT_EQ(url_for({{"q", "red roses"},
                     {"domain", "google.de"},
                     {"gl", "de"},
                     {"hl", "de"},
                     {"ijn", "2"},
                     {"tbs", "isz:l,ic:gray"},
                     {"safe", "active"},
                     {"filter", "0"}}),
            "https://www.google.de/search?q=red+roses&gl=de&hl=de&tbm=isch&ijn=2&filter=0"
            "&safe=active&tbs=isz%3Al%2Cic%3Agray");
  EXPECT_EQ(images_endpoint()
                .build_request(images_endpoint().validate({{"q", "x"}, {"deviceType", "mobile"}}))
                .profile.device,
            BrowserProfile::Device::Mobile);
}

TEST(Images, RefusesWhatHostedMdRefuses) {
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"ijn", "-1"}, {"safe", "strict"}, {"filter", "2"}, {"deviceType", "watch"}}) {
    SCOPED_TRACE(name);
    EXPECT_THROW(images_endpoint().validate({{"q", "x"}, {name, value}}), Error);
  }
}

TEST(ImagesShape, FlowersPage) {
  const auto body = shape_images(testing::recorded("google/data/images/flowers.json"), 1);
  const auto& images = body["imagesResults"];
  ASSERT_EQ(images.size(), 100u);
  EXPECT_EQ(images[0]["position"], 101);  // page ijn=1 starts after the first 100
  EXPECT_EQ(images[1]["originalWidth"], 4462);
  EXPECT_TRUE(images_endpoint().has_content(body));
  EXPECT_FALSE(images_endpoint().has_content(shape_images(nlohmann::json::object(), 0)));
}

}  // namespace
}  // namespace gleaner::extract::google
